//! The analysis board's HTTP routes.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, State};
use axum::Json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::Analysis;
use crate::app::AppState;
use crate::error::ApiError;
use crate::http::extract::JsonBody;
use crate::hub::Hub;
use crate::wire::{
    ErrorBody, RumisAnalysis, RumisAnalysisPosition, RumisAnalysisRequest, RumisBestMoves,
    RummikubAnalysis, RummikubAnalysisRequest,
};

/// The board's routes.
pub fn routes() -> OpenApiRouter<AppState> {
    use crate::http::json_writes;
    OpenApiRouter::new()
        .routes(json_writes(routes!(rummikub)))
        .routes(json_writes(routes!(rumis)))
        .routes(json_writes(routes!(rumis_best)))
        .routes(json_writes(routes!(rumis_position)))
}

/// The exact solver's best plays from a rack onto a table set up by hand: by tiles
/// laid and by value laid (`null`: no tile can be laid). Nothing is stored.
#[utoipa::path(post, path = "/api/analysis/rummikub", request_body = RummikubAnalysisRequest,
    responses(
        (status = 200, body = RummikubAnalysis),
        (status = 400, body = ErrorBody, description = "Malformed, or `bad_position`: a tile, set or rule set that cannot be read, a set the rules refuse, a third copy of a tile"),
        (status = 403, body = ErrorBody, description = "`position_in_rated_game`: the table and rack of a seat of a running rated game"),
        (status = 429, body = ErrorBody, description = "`too_many_analyses` from this address, or `analysis_busy` (Retry-After)"),
    ))]
pub async fn rummikub(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    State(board): State<Arc<Analysis>>,
    JsonBody(request): JsonBody<RummikubAnalysisRequest>,
) -> Result<Json<RummikubAnalysis>, ApiError> {
    Ok(Json(
        board
            .rummikub(hub.thinking(), Some(&hub.store), from.ip(), request)
            .await?,
    ))
}

/// A Rumis record replayed: the board before its first move and after each. The
/// record must be on one of rumi's boards; every move is checked by the engine.
#[utoipa::path(post, path = "/api/analysis/rumis", request_body = RumisAnalysisRequest,
    responses(
        (status = 200, body = RumisAnalysis),
        (status = 400, body = ErrorBody, description = "Malformed, or `bad_record`: a record that cannot be read or replayed (the line at fault), too long, or on an unknown board"),
        (status = 429, body = ErrorBody, description = "`too_many_analyses` from this address, or `analysis_busy` (Retry-After)"),
    ))]
pub async fn rumis(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    State(board): State<Arc<Analysis>>,
    JsonBody(request): JsonBody<RumisAnalysisRequest>,
) -> Result<Json<RumisAnalysis>, ApiError> {
    Ok(Json(
        board
            .rumis_steps(hub.thinking(), from.ip(), request)
            .await?,
    ))
}

/// The strongest bot's best three moves, with their win chances, after the first
/// `ply` moves of a record (about a second and a half of search).
#[utoipa::path(post, path = "/api/analysis/rumis/best", request_body = RumisAnalysisRequest,
    responses(
        (status = 200, body = RumisBestMoves),
        (status = 400, body = ErrorBody, description = "Malformed, or `bad_record` (as for `/api/analysis/rumis`, or a point past the record's end)"),
        (status = 403, body = ErrorBody, description = "`position_in_rated_game`: the board of a running rated game"),
        (status = 429, body = ErrorBody, description = "`too_many_analyses` from this address, or `analysis_busy` (Retry-After)"),
    ))]
pub async fn rumis_best(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    State(board): State<Arc<Analysis>>,
    JsonBody(request): JsonBody<RumisAnalysisRequest>,
) -> Result<Json<RumisBestMoves>, ApiError> {
    Ok(Json(
        board
            .rumis_best(hub.thinking(), Some(&hub.store), from.ip(), request)
            .await?,
    ))
}

/// The board after a record's moves (or its first `ply`) as the colour to move sees
/// it, with every legal placement: the analysis board plays on from a scenario's start
/// by sending the moves so far as a record.
#[utoipa::path(post, path = "/api/analysis/rumis/position", request_body = RumisAnalysisRequest,
    responses(
        (status = 200, body = RumisAnalysisPosition),
        (status = 400, body = ErrorBody, description = "Malformed, or `bad_record` (as for `/api/analysis/rumis`, or a point past the record's end), with `why` saying what and where"),
        (status = 429, body = ErrorBody, description = "`too_many_analyses` from this address, or `analysis_busy` (Retry-After)"),
    ))]
pub async fn rumis_position(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    State(board): State<Arc<Analysis>>,
    JsonBody(request): JsonBody<RumisAnalysisRequest>,
) -> Result<Json<RumisAnalysisPosition>, ApiError> {
    Ok(Json(
        board
            .rumis_position(hub.thinking(), from.ip(), request)
            .await?,
    ))
}
