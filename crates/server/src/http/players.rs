//! Players' pages: profiles, leaderboards, and the signed-in player's own tables and
//! the guest seats they bring along.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Path, State};
use axum::Json;

use super::accounts::Session;
use super::extract::{JsonBody, OptionalJsonBody, TableAt};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::json_writes;
use crate::app::AppState;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::wire::*;

/// The players' routes: their games, seats, challenges, blocks, profiles and the
/// leaderboards.
pub(super) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(my_games))
        .routes(json_writes(routes!(adopt_seats)))
        .routes(routes!(challenges))
        .routes(json_writes(routes!(blocks, block)))
        .routes(json_writes(routes!(unblock)))
        .routes(json_writes(routes!(decline)))
        .routes(routes!(user))
        .routes(routes!(leaderboard))
}

/// A player's profile: ratings per pool, games played and won, the rating's history
/// and the latest finished games.
#[utoipa::path(get, path = "/api/users/{name}",
    params(("name" = String, Path)),
    responses(
        (status = 200, body = UserProfile),
        (status = 404, body = ErrorBody, description = "`unknown_player`"),
        (status = 429, body = ErrorBody, description = "Too many profiles from this address (Retry-After)"),
    ))]
pub async fn user(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    Path(name): Path<String>,
) -> Result<Json<UserProfile>, ApiError> {
    hub.accounts.check_profile_read(from.ip())?;
    Ok(Json(hub.accounts.profile(&name).await?))
}

/// The best settled ratings of a pool (`rumis_two`, `rumis_multi`, `rummikub`).
#[utoipa::path(get, path = "/api/leaderboard/{pool}",
    params(("pool" = RatingPool, Path)),
    responses(
        (status = 200, body = Leaderboard),
        (status = 404, body = ErrorBody, description = "No such pool"),
        (status = 429, body = ErrorBody, description = "Too many reads from this address (Retry-After)"),
    ))]
pub async fn leaderboard(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    Path(pool): Path<String>,
) -> Result<Json<Leaderboard>, ApiError> {
    hub.accounts.check_profile_read(from.ip())?;
    let pool = RatingPool::named(&pool).ok_or_else(|| {
        ApiError::not_found(
            ErrorCode::NotFound,
            "the leaderboards are rumis_two, rumis_multi and rummikub",
        )
    })?;
    Ok(Json(hub.accounts.leaderboard(pool).await?))
}

/// The tables the signed-in account has a seat at, newest first, on every device.
#[utoipa::path(get, path = "/api/me/games", responses(
    (status = 200, body = MyGames),
    (status = 401, body = ErrorBody, description = "`not_signed_in`"),
))]
pub async fn my_games(
    State(hub): State<Arc<Hub>>,
    Session(signed): Session,
) -> Result<Json<MyGames>, ApiError> {
    Ok(Json(hub.accounts.games_of(&signed.account).await?))
}

/// Gives this browser's guest seats (table and seat token) to the signed-in account:
/// one who signs up keeps the games they were playing.
#[utoipa::path(post, path = "/api/me/seats", request_body = AdoptSeats, responses(
    (status = 200, body = AdoptedSeats),
    (status = 400, body = ErrorBody, description = "Malformed, or more than 100 seats"),
    (status = 401, body = ErrorBody, description = "`not_signed_in`"),
    (status = 403, body = ErrorBody, description = "`foreign_origin`"),
    (status = 429, body = ErrorBody, description = "Too many from this address (Retry-After)"),
))]
pub async fn adopt_seats(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    Session(signed): Session,
    JsonBody(request): JsonBody<AdoptSeats>,
) -> Result<Json<AdoptedSeats>, ApiError> {
    // (each seat may load its table: limited like the other reads of many tables)
    hub.accounts.check_profile_read(from.ip())?;
    Ok(Json(AdoptedSeats {
        tables: hub.adopt_seats(&signed.account, &request.seats).await?,
    }))
}

/// The tables that keep a seat for the signed-in account and wait for it: invitations
/// by name, and rematches.
#[utoipa::path(get, path = "/api/me/challenges", responses(
    (status = 200, body = Challenges),
    (status = 401, body = ErrorBody, description = "`not_signed_in`"),
    (status = 429, body = ErrorBody, description = "Too many from this address (Retry-After)"),
))]
pub async fn challenges(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    Session(signed): Session,
) -> Result<Json<Challenges>, ApiError> {
    hub.accounts.check_profile_read(from.ip())?;
    Ok(Json(Challenges {
        challenges: hub.challenges(&signed.account).await?,
    }))
}

/// Declines the seat a table keeps for the signed-in account: it opens to anyone from
/// the lobby (to account holders only at a rated table).
#[utoipa::path(post, path = "/api/tables/{id}/decline", request_body = SessionRequest,
    params(("id" = TableId, Path)),
    responses(
        (status = 204, description = "Declined"),
        (status = 401, body = ErrorBody, description = "`not_signed_in`"),
        (status = 403, body = ErrorBody, description = "`foreign_origin`"),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "`no_seat`: no seat here waits for your account"),
    ))]
pub async fn decline(
    State(hub): State<Arc<Hub>>,
    TableAt(table): TableAt,
    Session(signed): Session,
    OptionalJsonBody(SessionRequest {}): OptionalJsonBody<SessionRequest>,
) -> Result<axum::http::StatusCode, ApiError> {
    hub.decline(&table, &signed.account).await?;
    Ok(axum::http::StatusCode::NO_CONTENT)
}

/// The accounts the signed-in account blocked: their challenges do not reach it.
#[utoipa::path(get, path = "/api/me/blocks", responses(
    (status = 200, body = Blocks),
    (status = 401, body = ErrorBody, description = "`not_signed_in`"),
))]
pub async fn blocks(
    State(hub): State<Arc<Hub>>,
    Session(signed): Session,
) -> Result<Json<Blocks>, ApiError> {
    Ok(Json(Blocks {
        blocks: hub.blocks(&signed.account).await?,
    }))
}

/// Blocks an account: a table that keeps a seat for you is refused to it (it reads
/// `challenges_refused`, "this player does not take challenges from you"), and its
/// challenges waiting for you leave your list. Blocking it again changes nothing.
#[utoipa::path(post, path = "/api/me/blocks", request_body = BlockRequest, responses(
    (status = 204, description = "Blocked"),
    (status = 400, body = ErrorBody, description = "Malformed, or your own account"),
    (status = 401, body = ErrorBody, description = "`not_signed_in`"),
    (status = 403, body = ErrorBody, description = "`foreign_origin`"),
    (status = 404, body = ErrorBody, description = "`unknown_player`"),
    (status = 409, body = ErrorBody, description = "`too_many_blocks`"),
))]
pub async fn block(
    State(hub): State<Arc<Hub>>,
    Session(signed): Session,
    JsonBody(request): JsonBody<BlockRequest>,
) -> Result<axum::http::StatusCode, ApiError> {
    hub.block(&signed.account, &request.name).await?;
    Ok(axum::http::StatusCode::NO_CONTENT)
}

/// Lifts a block: the account may challenge you again.
#[utoipa::path(delete, path = "/api/me/blocks/{name}",
    params(("name" = String, Path)),
    responses(
        (status = 204, description = "Unblocked"),
        (status = 401, body = ErrorBody, description = "`not_signed_in`"),
        (status = 403, body = ErrorBody, description = "`foreign_origin`"),
        (status = 404, body = ErrorBody, description = "`unknown_player`, or `not_found`: not blocked"),
    ))]
pub async fn unblock(
    State(hub): State<Arc<Hub>>,
    Session(signed): Session,
    Path(name): Path<String>,
) -> Result<axum::http::StatusCode, ApiError> {
    hub.unblock(&signed.account, &name).await?;
    Ok(axum::http::StatusCode::NO_CONTENT)
}
