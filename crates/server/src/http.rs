//! The HTTP and WebSocket routes: thin handlers that read the request into a wire
//! type, call the hub (or their feature) and answer a wire type. The OpenAPI document is generated from
//! the same types and these handlers' annotations ([`ApiDoc`]).

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use axum::{Json, Router};
use rumis::{Scenario, Variant};
use utoipa::OpenApi;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::app::AppState;
use crate::error::{ApiError, ErrorKind};
use crate::games::bots;
use crate::hub::{Hub, MAX_NAME_CHARS};
use crate::wire::*;

pub(crate) mod accounts;
pub(crate) mod extract;
mod passkeys;
mod players;
mod tables;

/// The frame of the OpenAPI document: what no route says. Its paths come from
/// [`routes`], where each route is declared once.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "rumi",
        description = "Rumis and Rummikub tables: the lobby, seats, actions, views, replays. See docs/server-api.md."
    ),
    components(schemas(ClientMessage, ServerMessage, TableId, SeatToken))
)]
pub struct ApiDoc;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = match self.kind {
            ErrorKind::BadRequest => StatusCode::BAD_REQUEST,
            ErrorKind::Unauthorized => StatusCode::UNAUTHORIZED,
            ErrorKind::Forbidden => StatusCode::FORBIDDEN,
            ErrorKind::NotFound => StatusCode::NOT_FOUND,
            ErrorKind::Conflict => StatusCode::CONFLICT,
            ErrorKind::TooMany => StatusCode::TOO_MANY_REQUESTS,
            ErrorKind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        };
        // Every 429 says when to try again.
        let retry_after = self
            .retry_after_secs
            .map(u32::from)
            .or((self.kind == ErrorKind::TooMany).then_some(1));
        let body = ErrorBody {
            error: self.message,
            code: self.code,
            why: self.why,
        };
        let mut response = (status, Json(body)).into_response();
        if let Some(seconds) = retry_after {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

/// Every documented route, declared once: each handler's `#[utoipa::path]` gives both
/// the route the router serves and the operation the document lists. The core's
/// routes are here and in `http/`; each feature exports its own.
fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .routes(routes!(openapi_json))
        .routes(routes!(meta))
        .routes(routes!(health))
        .merge(tables::routes())
        .routes(routes!(crate::live::websocket))
        .merge(accounts::routes())
        .merge(passkeys::routes())
        .merge(players::routes())
        .merge(crate::hints::routes())
        .merge(crate::replays::routes())
        .merge(crate::reviews::routes())
        .merge(crate::tutorial::routes())
        .merge(crate::analysis::routes())
        .merge(crate::puzzles::routes())
        .merge(crate::solo::routes())
}

/// The router: the API, and the built browser client (or a page that says how to
/// build it) for every other path.
pub fn router(app: AppState, client: crate::client::Client) -> Router {
    let (api, _) = routes().split_for_parts();
    let api = api
        .route("/metrics", get(metrics))
        .route(
            "/api/{*rest}",
            any(|| async { ApiError::not_found(ErrorCode::NoRoute, "no such API route") }),
        )
        .with_state(app);
    api.merge(crate::client::router(client))
}

/// A route that writes: its POST (and a PUT, PATCH or DELETE with a body) must be sent
/// as JSON (415 otherwise). Only on the methods a route has, so that a method it lacks
/// still answers 405.
pub(crate) fn json_writes(route: UtoipaMethodRouter<AppState>) -> UtoipaMethodRouter<AppState> {
    route.map(|route| {
        route.route_layer(axum::middleware::from_fn(
            crate::transport::json_writes_only,
        ))
    })
}

/// The OpenAPI document as served.
pub fn openapi_document() -> String {
    let doc = routes().into_openapi();
    let mut doc = serde_json::to_value(doc).expect("the OpenAPI document serialises");
    crate::openapi::refine(&mut doc);
    serde_json::to_string_pretty(&doc).expect("the OpenAPI document serialises")
}

#[utoipa::path(get, path = "/api/openapi.json", responses((status = 200, description = "This document", content_type = "application/json")))]
async fn openapi_json() -> impl IntoResponse {
    static DOC: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    (
        [("content-type", "application/json")],
        DOC.get_or_init(openapi_document).clone(),
    )
}

/// Whether this node serves: 200 when ready, or degraded (NATS unreachable: moves
/// still work through the database); 503 only when it cannot serve (the database is
/// unreachable, or it is draining), so that a load balancer stops sending clients.
#[utoipa::path(get, path = "/api/health", responses(
    (status = 200, body = Health, description = "Ready, or degraded (NATS unreachable)"),
    (status = 503, body = Health, description = "Draining, or the database is unreachable"),
))]
async fn health(State(hub): State<Arc<Hub>>) -> (StatusCode, Json<Health>) {
    let database = hub.store.ping().await;
    let nats = hub.cluster().map(|c| c.is_connected());
    let status = if hub.is_draining() {
        NodeStatus::Draining
    } else if nats == Some(false) {
        NodeStatus::Degraded
    } else {
        NodeStatus::Ready
    };
    let code = if status != NodeStatus::Draining && database {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    let node = hub
        .cluster()
        .map_or("single".to_string(), |c| c.node.clone());
    (
        code,
        Json(Health {
            status,
            node,
            database,
            nats,
            loaded_tables: hub.loaded_tables(),
        }),
    )
}

/// Metrics in the Prometheus text format (not under `/api`: for scrapers).
async fn metrics(State(app): State<AppState>) -> impl IntoResponse {
    (
        [("content-type", "text/plain; version=0.0.4")],
        app.render_metrics(),
    )
}

/// Scenarios with their variants and player counts, Rummikub presets, the bots.
#[utoipa::path(get, path = "/api/meta", responses((status = 200, body = Meta)))]
async fn meta(State(hub): State<Arc<Hub>>) -> Json<Meta> {
    let scenarios = Scenario::builtins()
        .iter()
        .map(|s| {
            let variant_players = crate::openapi::variant_players(s);
            ScenarioMeta {
                key: s.key.clone(),
                name: s.name.clone(),
                theme: s.theme.clone(),
                status: s.provenance.to_string(),
                players: s.player_counts.keys().copied().collect(),
                variants: variant_players.iter().map(|(v, _)| v.clone()).collect(),
                variant_players: variant_players.into_iter().collect(),
            }
        })
        .collect();
    let ratings = crate::bot_ratings::embedded();
    let bot_meta = |game| {
        bots(game)
            .map(|b| BotMeta {
                name: b.spec.to_string(),
                level: b.level,
                description: b.description.to_string(),
                ratings: ratings.of(game, b.spec),
            })
            .collect()
    };
    let presets = crate::openapi::RUMMIKUB_PRESETS;
    Json(Meta {
        rumis: RumisMeta {
            scenarios,
            variants: Variant::ALL.iter().map(|v| v.name().to_string()).collect(),
            bots: bot_meta(GameKind::Rumis),
        },
        rummikub: RummikubMeta {
            presets: presets.iter().map(|p| p.to_string()).collect(),
            players: crate::openapi::RUMMIKUB_PLAYERS.to_vec(),
            preset_turn_seconds: presets
                .iter()
                .map(|p| {
                    let rules = rummikub::RuleSet::preset(p).expect("a preset");
                    (p.to_string(), rules.turn_time_seconds)
                })
                .collect(),
            bots: bot_meta(GameKind::Rummikub),
        },
        limits: LimitsMeta {
            handover_after_seconds: u32::try_from(hub.options().handover_after.as_secs())
                .unwrap_or(u32::MAX),
            max_name_chars: MAX_NAME_CHARS,
        },
    })
}
