//! The HTTP and WebSocket routes: thin handlers that read the request into a wire
//! type, call the hub and answer a wire type. The OpenAPI document is generated from
//! the same types and these handlers' annotations ([`ApiDoc`]).

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post, MethodRouter};
use axum::{Json, Router};
use rumis::{Scenario, Variant};
use utoipa::OpenApi;

use crate::error::{ApiError, ErrorKind};
use crate::games::bots;
use crate::hub::{Hub, MAX_NAME_CHARS};
use crate::wire::*;

pub(crate) mod accounts;
pub(crate) mod extract;
mod passkeys;
mod players;
mod tables;

/// The OpenAPI document, generated from the wire types and the handlers below.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "rumi",
        description = "Rumis and Rummikub tables: the lobby, seats, actions, views, replays. See docs/server-api.md."
    ),
    paths(
        openapi_json,
        health,
        meta,
        tables::open_tables,
        tables::create_table,
        tables::table_view,
        tables::join,
        tables::claim,
        tables::act,
        tables::check,
        tables::hint,
        tables::hand_to_bot,
        tables::take_back,
        tables::rename,
        tables::replay,
        tables::rematch,
        crate::reviews::route::review,
        crate::live::websocket,
        accounts::sign_up,
        accounts::sign_in,
        accounts::sign_out,
        accounts::sign_out_everywhere,
        accounts::me,
        accounts::reauth,
        accounts::change_password,
        accounts::delete_account,
        accounts::my_data,
        players::user,
        players::leaderboard,
        players::my_games,
        players::adopt_seats,
        players::challenges,
        players::decline,
        players::blocks,
        players::block,
        players::unblock,
        passkeys::list,
        passkeys::start,
        passkeys::finish,
        passkeys::remove,
        passkeys::sign_in_start,
        passkeys::sign_in_finish,
        crate::tutorial::routes::tutorial,
        crate::tutorial::routes::check_step,
        crate::analysis::routes::rummikub,
        crate::analysis::routes::rumis,
        crate::analysis::routes::rumis_best,
        crate::puzzles::routes::list,
        crate::puzzles::routes::daily,
        crate::puzzles::routes::puzzle,
        crate::puzzles::routes::check,
        crate::puzzles::routes::solution,
        crate::solo::routes::levels,
        crate::solo::routes::build,
        crate::solo::routes::place,
        crate::solo::routes::finishable,
        crate::solo::routes::hint,
        crate::solo::routes::bests,
        crate::solo::routes::record
    ),
    components(schemas(ClientMessage, ServerMessage))
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

/// The router: the API, and the built browser client (or a page that says how to
/// build it) for every other path.
pub fn router(hub: Arc<Hub>, client: crate::client::Client) -> Router {
    let api = Router::new()
        .route("/api/openapi.json", get(openapi_json))
        .route("/api/meta", get(meta))
        .route("/api/health", get(health))
        .route("/metrics", get(metrics))
        .route(
            "/api/tables",
            json_writes(get(tables::open_tables).post(tables::create_table)),
        )
        .route("/api/tables/{id}", get(tables::table_view))
        .route("/api/tables/{id}/join", json_writes(post(tables::join)))
        .route("/api/tables/{id}/claim", json_writes(post(tables::claim)))
        .route("/api/tables/{id}/actions", json_writes(post(tables::act)))
        .route("/api/tables/{id}/check", json_writes(post(tables::check)))
        .route("/api/tables/{id}/hint", get(tables::hint))
        .route(
            "/api/tables/{id}/seats/{seat}/bot",
            json_writes(post(tables::hand_to_bot).delete(tables::take_back)),
        )
        .route(
            "/api/tables/{id}/seats/{seat}/name",
            json_writes(post(tables::rename)),
        )
        .route("/api/tables/{id}/replay", get(tables::replay))
        .route(
            "/api/tables/{id}/review",
            get(crate::reviews::route::review),
        )
        .route(
            "/api/tables/{id}/rematch",
            json_writes(post(tables::rematch)),
        )
        .route("/api/tables/{id}/ws", get(crate::live::websocket))
        .route("/api/accounts", json_writes(post(accounts::sign_up)))
        .route(
            "/api/session",
            json_writes(post(accounts::sign_in).delete(accounts::sign_out)),
        )
        .route(
            "/api/sessions",
            json_writes(axum::routing::delete(accounts::sign_out_everywhere)),
        )
        .route(
            "/api/me",
            json_writes(get(accounts::me).delete(accounts::delete_account)),
        )
        .route(
            "/api/me/password",
            json_writes(post(accounts::change_password)),
        )
        .route("/api/me/reauth", json_writes(post(accounts::reauth)))
        .route("/api/me/data", get(accounts::my_data))
        .route("/api/me/games", get(players::my_games))
        .route("/api/me/seats", json_writes(post(players::adopt_seats)))
        .route("/api/me/challenges", get(players::challenges))
        .route(
            "/api/me/blocks",
            json_writes(get(players::blocks).post(players::block)),
        )
        .route(
            "/api/me/blocks/{name}",
            json_writes(axum::routing::delete(players::unblock)),
        )
        .route(
            "/api/tables/{id}/decline",
            json_writes(post(players::decline)),
        )
        .route("/api/me/passkeys", get(passkeys::list))
        .route("/api/me/passkeys/start", json_writes(post(passkeys::start)))
        .route(
            "/api/me/passkeys/finish",
            json_writes(post(passkeys::finish)),
        )
        .route(
            "/api/me/passkeys/{id}",
            json_writes(axum::routing::delete(passkeys::remove)),
        )
        .route(
            "/api/session/passkey/start",
            json_writes(post(passkeys::sign_in_start)),
        )
        .route(
            "/api/session/passkey/finish",
            json_writes(post(passkeys::sign_in_finish)),
        )
        .route("/api/users/{name}", get(players::user))
        .route("/api/leaderboard/{pool}", get(players::leaderboard))
        .route(
            "/api/{*rest}",
            any(|| async { ApiError::not_found(ErrorCode::NoRoute, "no such API route") }),
        )
        .merge(crate::tutorial::routes(Default::default()))
        .merge(crate::analysis::routes::routes(Default::default()))
        .merge(crate::puzzles::routes(
            hub.options().puzzles.clone(),
            hub.clock().clone(),
        ))
        .merge(crate::solo::routes(&hub))
        .with_state(hub);
    api.merge(crate::client::router(client))
}

/// A route that writes: its POST (and a PUT, PATCH or DELETE with a body) must be sent
/// as JSON (415 otherwise). Only on the methods a route has, so that a method it lacks
/// still answers 405.
fn json_writes(route: MethodRouter<Arc<Hub>>) -> MethodRouter<Arc<Hub>> {
    route.route_layer(axum::middleware::from_fn(
        crate::transport::json_writes_only,
    ))
}

/// The OpenAPI document as served.
pub fn openapi_document() -> String {
    let mut doc = serde_json::to_value(ApiDoc::openapi()).expect("the OpenAPI document serialises");
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
async fn metrics(State(hub): State<Arc<Hub>>) -> impl IntoResponse {
    (
        [("content-type", "text/plain; version=0.0.4")],
        hub.render_metrics(),
    )
}

/// Scenarios with their variants and player counts, Rummikub presets, the bots.
#[utoipa::path(get, path = "/api/meta", responses((status = 200, body = Meta)))]
async fn meta() -> Json<Meta> {
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
            handover_after_seconds: 60,
            max_name_chars: MAX_NAME_CHARS,
        },
    })
}
