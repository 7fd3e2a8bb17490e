//! The HTTP and WebSocket routes: thin handlers that read the request, call the hub and
//! answer JSON. Every route is listed in `openapi.json` (a test keeps them in step).

use std::path::PathBuf;
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post};
use axum::{Json, Router};
use rumis::{Scenario, Setup, Variant};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::games::{bot_names, ActionError, Actor, GameConfig, TableGame};
use crate::hub::{replay_steps, ApiError, Hub, SeatRequest};

/// Every API route, as (method, path) in OpenAPI's spelling.
pub const ROUTES: [(&str, &str); 12] = [
    ("get", "/api/openapi.json"),
    ("get", "/api/meta"),
    ("get", "/api/tables"),
    ("post", "/api/tables"),
    ("get", "/api/tables/{id}"),
    ("post", "/api/tables/{id}/join"),
    ("post", "/api/tables/{id}/actions"),
    ("post", "/api/tables/{id}/check"),
    ("get", "/api/tables/{id}/hint"),
    ("post", "/api/tables/{id}/seats/{seat}/bot"),
    ("get", "/api/tables/{id}/replay"),
    ("get", "/api/tables/{id}/ws"),
];

/// The OpenAPI document served at `/api/openapi.json`.
pub const OPENAPI: &str = include_str!("openapi.json");

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        let code = crate::transport::error_code(&self);
        (
            status,
            Json(json!({ "error": self.to_string(), "code": code })),
        )
            .into_response()
    }
}

/// The router: the API, and the built browser client (or a page that says how to
/// build it) for every other path.
pub fn router(hub: Arc<Hub>, web_dir: Option<PathBuf>) -> Router {
    let api = Router::new()
        .route("/api/openapi.json", get(openapi))
        .route("/api/meta", get(meta))
        .route("/api/tables", get(open_tables).post(create_table))
        .route("/api/tables/{id}", get(table_view))
        .route("/api/tables/{id}/join", post(join))
        .route("/api/tables/{id}/actions", post(act))
        .route("/api/tables/{id}/check", post(check))
        .route("/api/tables/{id}/hint", get(hint))
        .route("/api/tables/{id}/seats/{seat}/bot", post(hand_to_bot))
        .route("/api/tables/{id}/replay", get(replay))
        .route("/api/tables/{id}/ws", get(crate::live::websocket))
        .route(
            "/api/{*rest}",
            any(|| async { ApiError::NotFound("no such API route".into()) }),
        )
        .with_state(hub);
    api.merge(crate::client::router(web_dir))
}

async fn openapi() -> impl IntoResponse {
    ([("content-type", "application/json")], OPENAPI)
}

async fn meta() -> Json<Value> {
    let scenarios: Vec<Value> = Scenario::builtins()
        .iter()
        .map(|s| {
            let playable = |variant: Variant, players: u8| {
                Setup::new(s.clone(), players)
                    .with_variant(variant)
                    .board_players()
                    .is_ok_and(|p| match variant {
                        Variant::Dismantle => s.dismantle_footprint().is_ok(),
                        _ => s.footprint(p).is_ok(),
                    })
            };
            // In the engine's order (standard first), with the player counts of each.
            let variant_players: Vec<(&str, Vec<u8>)> = Variant::ALL
                .iter()
                .map(|&v| {
                    let counts = s
                        .player_counts
                        .keys()
                        .copied()
                        .filter(|&p| playable(v, p))
                        .collect::<Vec<u8>>();
                    (v.name(), counts)
                })
                .filter(|(_, counts)| !counts.is_empty())
                .collect();
            json!({
                "key": s.key, "name": s.name, "theme": s.theme,
                "status": s.provenance.to_string(),
                "players": s.player_counts.keys().collect::<Vec<_>>(),
                // The variants this board can be played in, and with how many players.
                "variants": variant_players.iter().map(|(v, _)| v).collect::<Vec<_>>(),
                "variant_players": variant_players.iter().map(|(v, c)| ((*v).to_string(), json!(c))).collect::<serde_json::Map<_, _>>(),
            })
        })
        .collect();
    Json(json!({
        "rumis": {
            "scenarios": scenarios,
            "variants": Variant::ALL.iter().map(|v| v.name()).collect::<Vec<_>>(),
            "bots": bot_names("rumis"),
        },
        "rummikub": {
            "presets": ["current", "old"],
            "players": [2, 3, 4],
            "bots": bot_names("rummikub"),
        },
    }))
}

async fn open_tables(State(hub): State<Arc<Hub>>) -> Json<Value> {
    Json(json!({ "tables": hub.open_tables().await }))
}

#[derive(Deserialize)]
struct CreateRequest {
    #[serde(flatten)]
    config: GameConfig,
    seats: Vec<SeatRequest>,
    #[serde(default)]
    seed: Option<u64>,
}

async fn create_table(
    State(hub): State<Arc<Hub>>,
    body: axum::body::Bytes,
) -> Result<Json<Value>, ApiError> {
    let request: CreateRequest = parse_body(&body)?;
    let (id, seats) = hub
        .create(request.config, request.seats, request.seed)
        .await?;
    let seats: Vec<Value> = seats
        .iter()
        .map(|s| {
            json!({
                "seat": s.seat,
                "name": s.name,
                "kind": if s.bot.is_some() { "bot" } else { "human" },
                "token": s.bot.is_none().then_some(&s.token),
                "invite": s.bot.is_none().then(|| format!("/t/{id}?seat={}&token={}", s.seat, s.token)),
            })
        })
        .collect();
    Ok(Json(
        json!({ "id": id, "spectator": format!("/t/{id}"), "seats": seats }),
    ))
}

/// Reads a JSON body with a message that says what is wrong with it.
fn parse_body<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body)
        .map_err(|e| ApiError::BadRequest(format!("malformed request: {e}")))
}

#[derive(Deserialize, Default)]
struct TokenQuery {
    token: Option<String>,
}

/// The seat token from `?token=` or the `X-Seat-Token` header.
fn token_of(query: &TokenQuery, headers: &HeaderMap) -> Option<String> {
    query.token.clone().or_else(|| {
        headers
            .get("x-seat-token")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    })
}

async fn table_view(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(query): Query<TokenQuery>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let table = hub.table(&id).await?;
    let mut state = table.state.lock().await;
    let seat = state.seat_of(token_of(&query, &headers).as_deref())?;
    if let Some(seat) = seat {
        hub.claim(&table, &mut state, seat).await?;
    }
    Ok(Json(state.view(&id, seat)))
}

#[derive(Deserialize)]
struct JoinRequest {
    #[serde(default)]
    name: Option<String>,
}

async fn join(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    body: axum::body::Bytes,
) -> Result<Json<Value>, ApiError> {
    let request: JoinRequest = if body.is_empty() {
        JoinRequest { name: None }
    } else {
        parse_body(&body)?
    };
    let table = hub.table(&id).await?;
    let seat = hub.join(&table, request.name).await?;
    Ok(Json(json!({
        "seat": seat.seat, "token": seat.token, "name": seat.name,
        "url": format!("/t/{id}?seat={}&token={}", seat.seat, seat.token),
    })))
}

#[derive(Deserialize)]
struct ActionRequest {
    version: u64,
    action: Value,
}

async fn act(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(query): Query<TokenQuery>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Json<Value>, ApiError> {
    let (table, request, seat) =
        seat_request::<ActionRequest>(&hub, &id, &query, &headers, &body).await?;
    hub.submit(
        &table,
        Actor::Seat(seat),
        Some(request.version),
        &request.action,
    )
    .await?;
    let state = table.state.lock().await;
    Ok(Json(state.view(&id, Some(seat))))
}

/// A seat's request: the table, the body read as `T`, and the seat of the token
/// (an action needs a token of a seat at the table).
async fn seat_request<T: serde::de::DeserializeOwned>(
    hub: &Arc<Hub>,
    id: &str,
    query: &TokenQuery,
    headers: &HeaderMap,
    body: &[u8],
) -> Result<(Arc<crate::hub::Table>, T, usize), ApiError> {
    let table = hub.table(id).await?;
    let request: T = parse_body(body)?;
    let seat = {
        let state = table.state.lock().await;
        token_seat(&state, query, headers, "an action")?
    };
    Ok((table, request, seat))
}

/// The seat of the request's token; `what` needs one (403 without).
fn token_seat(
    state: &crate::hub::TableState,
    query: &TokenQuery,
    headers: &HeaderMap,
    what: &str,
) -> Result<usize, ApiError> {
    state
        .seat_of(token_of(query, headers).as_deref())?
        .ok_or_else(|| ApiError::Forbidden(format!("{what} needs your seat token")))
}

async fn check(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(query): Query<TokenQuery>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Json<Value>, ApiError> {
    let (table, action, seat) = seat_request::<Value>(&hub, &id, &query, &headers, &body).await?;
    let state = table.state.lock().await;
    let TableGame::Rumis(game) = &state.game else {
        return Err(ApiError::BadRequest(
            "checking a placement is for Rumis tables".into(),
        ));
    };
    Ok(Json(match game.check(seat, &action) {
        Ok(()) => json!({ "legal": true }),
        Err(ActionError::Malformed(m)) => return Err(ApiError::BadRequest(m)),
        Err(e) => json!({ "legal": false, "reason": e.to_string() }),
    }))
}

#[derive(Deserialize)]
struct ObjectiveQuery {
    objective: Option<String>,
}

/// The best play for the seat of the token (Rummikub): the exact solver on the seat's
/// own view, run off the async threads within the bots' one-per-core limit.
async fn hint(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(query): Query<TokenQuery>,
    Query(goal): Query<ObjectiveQuery>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let objective = match goal.objective.as_deref() {
        None | Some("tiles") => rummikub::solver::Objective::Tiles,
        Some("value") => rummikub::solver::Objective::Value,
        Some(other) => {
            return Err(ApiError::BadRequest(format!(
                "unknown objective `{other}` (tiles or value)"
            )))
        }
    };
    let table = hub.table(&id).await?;
    let (rules, position) = {
        let state = table.state.lock().await;
        let seat = token_seat(&state, &query, &headers, "a hint")?;
        let TableGame::Rummikub(game) = &state.game else {
            return Err(ApiError::BadRequest("hints are for Rummikub tables".into()));
        };
        game.hint_position(seat)?
    };
    let play = hub
        .think(move || crate::games::rummikub_table::best_play(&rules, &position, objective))
        .await??;
    Ok(Json(json!({ "play": play })))
}

#[derive(Deserialize)]
struct BotRequest {
    bot: String,
}

async fn hand_to_bot(
    State(hub): State<Arc<Hub>>,
    Path((id, seat)): Path<(String, usize)>,
    Query(query): Query<TokenQuery>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Json<Value>, ApiError> {
    let request: BotRequest = parse_body(&body)?;
    let table = hub.table(&id).await?;
    hub.hand_to_bot(
        &table,
        token_of(&query, &headers).as_deref(),
        seat,
        &request.bot,
    )
    .await?;
    let state = table.state.lock().await;
    let you = state.seat_of(token_of(&query, &headers).as_deref())?;
    Ok(Json(state.view(&id, you)))
}

async fn replay(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let stored = hub
        .store
        .load(&id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("there is no table `{id}`")))?;
    if !stored.finished {
        return Err(ApiError::Conflict(
            "the game is still being played; its replay opens when it is over".into(),
        ));
    }
    let steps = replay_steps(&stored)?;
    let table = hub.table(&id).await?;
    let record = table.state.lock().await.game.record();
    Ok(Json(json!({ "id": id, "steps": steps, "record": record })))
}
