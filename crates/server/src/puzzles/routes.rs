//! The puzzles' HTTP routes, with their own rates per client address.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Path, State};
use axum::Json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::Puzzles;
use crate::app::AppState;
use crate::error::ApiError;
use crate::http::extract::JsonBody;
use crate::hub::Hub;
use crate::wire::{
    ErrorBody, RummikubPuzzleAttempt, RummikubPuzzleCheck, RummikubPuzzleList,
    RummikubPuzzleSolution, RummikubPuzzleView,
};

/// The puzzles' routes.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(daily))
        .routes(routes!(puzzle))
        .routes(crate::http::json_writes(routes!(check)))
        .routes(routes!(solution))
}

/// The daily Rummikub puzzles of today and the last 30 days, newest first, each with
/// its difficulty and goal.
#[utoipa::path(get, path = "/api/puzzles/rummikub",
    responses(
        (status = 200, body = RummikubPuzzleList),
        (status = 429, body = ErrorBody, description = "Too many puzzle requests from this address, or the server is busy making puzzles (Retry-After)"),
    ))]
pub async fn list(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    State(puzzles): State<Arc<Puzzles>>,
) -> Result<Json<RummikubPuzzleList>, ApiError> {
    puzzles.admit(from.ip())?;
    let mut listed = Vec::new();
    for date in puzzles.listed() {
        listed.push(puzzles.made(hub.thinking(), date).await?.summary());
    }
    Ok(Json(RummikubPuzzleList {
        today: puzzles.today().to_string(),
        puzzles: listed,
    }))
}

/// Today's Rummikub puzzle (UTC): the table and the rack, without the solution.
#[utoipa::path(get, path = "/api/puzzles/rummikub/daily",
    responses(
        (status = 200, body = RummikubPuzzleView),
        (status = 429, body = ErrorBody, description = "Too many puzzle requests from this address, or the server is busy making puzzles (Retry-After)"),
    ))]
pub async fn daily(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    State(puzzles): State<Arc<Puzzles>>,
) -> Result<Json<RummikubPuzzleView>, ApiError> {
    puzzles.admit(from.ip())?;
    Ok(Json(
        puzzles.made(hub.thinking(), puzzles.today()).await?.view(),
    ))
}

/// One daily Rummikub puzzle by its date: today's or an older one still listed.
#[utoipa::path(get, path = "/api/puzzles/rummikub/{id}",
    params(("id" = String, Path, description = "The puzzle's date, YYYY-MM-DD (UTC)")),
    responses(
        (status = 200, body = RummikubPuzzleView),
        (status = 404, body = ErrorBody, description = "Not a date, a date still to come, or older than the puzzles kept"),
        (status = 429, body = ErrorBody, description = "Too many puzzle requests from this address, or the server is busy making puzzles (Retry-After)"),
    ))]
pub async fn puzzle(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    State(puzzles): State<Arc<Puzzles>>,
) -> Result<Json<RummikubPuzzleView>, ApiError> {
    let date = puzzles.date_of(&id)?;
    puzzles.admit(from.ip())?;
    Ok(Json(puzzles.made(hub.thinking(), date).await?.view()))
}

/// Checks a whole new table against a puzzle: the engine accepts it and it lays the
/// goal (`solved`), the engine refuses it with its reason (`refused`: an invalid set,
/// a table tile missing, a tile neither on the table nor on the rack), or it is legal
/// but lays fewer tiles (`short`). Nothing is stored.
#[utoipa::path(post, path = "/api/puzzles/rummikub/{id}/check", request_body = RummikubPuzzleAttempt,
    params(("id" = String, Path, description = "The puzzle's date, YYYY-MM-DD (UTC)")),
    responses(
        (status = 200, body = RummikubPuzzleCheck),
        (status = 400, body = ErrorBody, description = "Malformed, or more than the game's 106 tiles"),
        (status = 404, body = ErrorBody, description = "No such puzzle"),
        (status = 429, body = ErrorBody, description = "Too many checks from this address, or the server is busy making puzzles (Retry-After)"),
    ))]
pub async fn check(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    State(puzzles): State<Arc<Puzzles>>,
    JsonBody(attempt): JsonBody<RummikubPuzzleAttempt>,
) -> Result<Json<RummikubPuzzleCheck>, ApiError> {
    let date = puzzles.date_of(&id)?;
    puzzles.admit_check(from.ip())?;
    let made = puzzles.made(hub.thinking(), date).await?;
    Ok(Json(made.check(&attempt.table.to_sets())))
}

/// A puzzle's solution: a best play, the whole new table.
#[utoipa::path(get, path = "/api/puzzles/rummikub/{id}/solution",
    params(("id" = String, Path, description = "The puzzle's date, YYYY-MM-DD (UTC)")),
    responses(
        (status = 200, body = RummikubPuzzleSolution),
        (status = 404, body = ErrorBody, description = "Not a date, a date still to come, or older than the puzzles kept"),
        (status = 429, body = ErrorBody, description = "Too many puzzle requests from this address, or the server is busy making puzzles (Retry-After)"),
    ))]
pub async fn solution(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    State(puzzles): State<Arc<Puzzles>>,
) -> Result<Json<RummikubPuzzleSolution>, ApiError> {
    let date = puzzles.date_of(&id)?;
    puzzles.admit(from.ip())?;
    Ok(Json(puzzles.made(hub.thinking(), date).await?.solution()))
}
