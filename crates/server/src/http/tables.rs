//! The table routes: the lobby, creating a table, seats, actions and rematches (a
//! table's hint, replay and review are their features' routes: `hints`, `replays`,
//! `reviews`). Each handler gets its table and seat from an extractor (`extract`).

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Path, State};
use axum::Json;

use super::accounts::MaybeSession;
use super::extract::{
    JsonBody, OptionalJsonBody, SeatAt, TableAt, ToAct, ToCheck, ToHandOver, ToRematch, Token,
    Viewer,
};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::json_writes;
use crate::app::AppState;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::wire::*;

/// The table routes.
pub(super) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(json_writes(routes!(open_tables, create_table)))
        .routes(routes!(table_view))
        .routes(json_writes(routes!(join)))
        .routes(json_writes(routes!(claim)))
        .routes(json_writes(routes!(act)))
        .routes(json_writes(routes!(check)))
        .routes(json_writes(routes!(hand_to_bot, take_back)))
        .routes(json_writes(routes!(rename)))
        .routes(json_writes(routes!(rematch)))
}

/// Tables with a seat open to anyone, newest first.
#[utoipa::path(get, path = "/api/tables", responses((status = 200, body = LobbyTables)))]
pub(super) async fn open_tables(
    State(hub): State<Arc<Hub>>,
) -> Result<Json<LobbyTables>, ApiError> {
    Ok(Json(LobbyTables {
        tables: hub.open_tables().await?,
    }))
}

/// Creates a table; the creator's seat is theirs at once (`you`), and their
/// account's when they are signed in.
#[utoipa::path(post, path = "/api/tables", request_body = CreateTableRequest, responses(
    (status = 200, body = CreateTableResponse),
    (status = 400, body = ErrorBody, description = "Bad settings or seats; `unknown_player` for an account seat of no account; `rated_rules`"),
    (status = 403, body = ErrorBody, description = "`foreign_origin`: signed in, from another site"),
    (status = 409, body = ErrorBody, description = "`name_taken`: two seats' names look alike"),
    (status = 429, body = ErrorBody, description = "Too many tables from this address"),
))]
pub(super) async fn create_table(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    MaybeSession(signed): MaybeSession,
    JsonBody(request): JsonBody<CreateTableRequest>,
) -> Result<Json<CreateTableResponse>, ApiError> {
    let other_settings = match request.game {
        GameKind::Rumis => request.rummikub.is_some().then_some("rummikub"),
        GameKind::Rummikub => request.rumis.is_some().then_some("rumis"),
    };
    if let Some(other) = other_settings {
        return Err(ApiError::bad_request(
            ErrorCode::BadSettings,
            format!(
                "a {} table takes no `{other}` settings",
                request.game.name()
            ),
        ));
    }
    let account = signed.map(|s| s.account);
    Ok(Json(
        hub.create(request, from.ip(), account.as_ref()).await?,
    ))
}

/// The table as seen by the token's seat, by the signed-in account's seat without a
/// token (then with the seat's token, `seat_token`), or by a spectator.
#[utoipa::path(get, path = "/api/tables/{id}",
    params(("id" = TableId, Path), ("X-Seat-Token" = Option<SeatToken>, Header, description = "The seat's secret token")),
    responses(
        (status = 200, body = TableView),
        (status = 403, body = ErrorBody, description = "A token of no seat"),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "An invite link's token: `claim_needed` before the seat is taken, `seat_taken` after"),
    ))]
pub(super) async fn table_view(
    State(hub): State<Arc<Hub>>,
    Viewer {
        table,
        seat,
        by_session,
    }: Viewer,
) -> Result<Json<TableView>, ApiError> {
    let mut state = table.state.lock().await;
    if let Some(seat) = seat {
        hub.seen_player(&table.id, &mut state, seat).await;
    }
    let mut view = state.view(&table.id, seat);
    if by_session {
        view.seat_token = seat.map(|s| state.seats[s].stored.token.clone());
    }
    Ok(Json(view))
}

/// Takes a seat open to anyone; answers a fresh token.
#[utoipa::path(post, path = "/api/tables/{id}/join", request_body = JoinRequest,
    params(("id" = TableId, Path)),
    responses(
        (status = 200, body = SeatGrant),
        (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "No open seat, a name like another seat's (`name_taken`), or this address holds its open seats already (`already_seated`, `too_many_seats`)"),
    ))]
pub(super) async fn join(
    State(hub): State<Arc<Hub>>,
    TableAt(table): TableAt,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    MaybeSession(signed): MaybeSession,
    OptionalJsonBody(request): OptionalJsonBody<JoinRequest>,
) -> Result<Json<SeatGrant>, ApiError> {
    let account = signed.map(|s| s.account);
    Ok(Json(
        hub.join(
            &table,
            request.name.as_deref(),
            request.seat,
            from.ip(),
            account.as_ref(),
        )
        .await?,
    ))
}

/// Takes an invited seat with its invite link's token (`X-Seat-Token`): answers the
/// seat's new token; the link is spent. Signed in and without a token: takes the seat
/// kept for the account (or answers it again on another device).
#[utoipa::path(post, path = "/api/tables/{id}/claim", request_body = ClaimRequest,
    params(("id" = TableId, Path), ("X-Seat-Token" = Option<SeatToken>, Header, description = "The invite link's token; none for the seat kept for your account")),
    responses(
        (status = 200, body = SeatGrant),
        (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "No token (and no seat kept for your account), a forged one, a seat's own token, or `foreign_origin`"),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "`seat_taken`: the link was used already; `name_taken`"),
    ))]
pub(super) async fn claim(
    State(hub): State<Arc<Hub>>,
    TableAt(table): TableAt,
    Token(token): Token,
    MaybeSession(signed): MaybeSession,
    OptionalJsonBody(request): OptionalJsonBody<ClaimRequest>,
) -> Result<Json<SeatGrant>, ApiError> {
    let account = signed.map(|s| s.account);
    let grant = match (token.filter(|t| !t.is_empty()), &account) {
        // Signed in without a link: the seat kept for the account.
        (None, Some(account)) => hub.take_account_seat(&table, account).await?,
        (token, account) => {
            hub.claim_invite(
                &table,
                token.as_deref(),
                request.name.as_deref(),
                account.as_ref(),
            )
            .await?
        }
    };
    Ok(Json(grant))
}

/// Plays an action for the token's seat, made on `version`.
#[utoipa::path(post, path = "/api/tables/{id}/actions", request_body = ActionRequest,
    params(("id" = TableId, Path), ("X-Seat-Token" = SeatToken, Header)),
    responses(
        (status = 200, body = TableView),
        (status = 400, body = ErrorBody, description = "Malformed"),
        (status = 403, body = ErrorBody, description = "No or a forged token"),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "Stale, out of turn, illegal, not started, or an action of the other game"),
    ))]
pub(super) async fn act(
    State(hub): State<Arc<Hub>>,
    SeatAt { table, seat, .. }: SeatAt<ToAct>,
    JsonBody(request): JsonBody<ActionRequest>,
) -> Result<Json<TableView>, ApiError> {
    hub.submit(&table, seat, Some(request.version), &request.action)
        .await?;
    Ok(Json(table.view(Some(seat)).await))
}

/// Rumis: whether a placement is legal for the token's seat now, and why not.
#[utoipa::path(post, path = "/api/tables/{id}/check", request_body = WireAction,
    params(("id" = TableId, Path), ("X-Seat-Token" = SeatToken, Header)),
    responses(
        (status = 200, body = CheckResult),
        (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "Not a Rumis table"),
    ))]
pub(super) async fn check(
    SeatAt { table, seat, .. }: SeatAt<ToCheck>,
    JsonBody(action): JsonBody<crate::wire::GameAction>,
) -> Result<Json<CheckResult>, ApiError> {
    let state = table.state.lock().await;
    if state.settings.game != GameKind::Rumis {
        return Err(ApiError::conflict(
            ErrorCode::NotForThisGame,
            "checking a placement is for Rumis tables",
        ));
    }
    match state.game.check(seat, &action) {
        Ok(()) => Ok(Json(CheckResult {
            legal: true,
            reason: None,
            why: None,
        })),
        Err(e @ crate::games::ActionError::NotForThisGame(_)) => Err(e.into()),
        Err(e) => Ok(Json(CheckResult {
            legal: false,
            reason: Some(e.to_string()),
            why: e.why(),
        })),
    }
}

/// Hands a seat to a bot: your own, or another player's once they have been away.
#[utoipa::path(post, path = "/api/tables/{id}/seats/{seat}/bot", request_body = BotRequest,
    params(("id" = TableId, Path), ("seat" = usize, Path, maximum = 5), ("X-Seat-Token" = SeatToken, Header)),
    responses(
        (status = 200, body = TableView),
        (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "No such table or seat"),
        (status = 409, body = ErrorBody, description = "Over, a bot already, its player present or not away long enough, or a bot of the other game"),
    ))]
pub(super) async fn hand_to_bot(
    State(hub): State<Arc<Hub>>,
    Path((_, seat)): Path<(String, usize)>,
    SeatAt {
        table, seat: you, ..
    }: SeatAt<ToHandOver>,
    JsonBody(request): JsonBody<BotRequest>,
) -> Result<Json<TableView>, ApiError> {
    hub.hand_to_bot(&table, you, seat, &request.bot)
        .await
        .map_err(|e| {
            // A bot of the other game: a known bot, but not for this table.
            let game = |g| crate::games::is_bot(g, &request.bot);
            if e.code == "unknown_bot" && (game(GameKind::Rumis) || game(GameKind::Rummikub)) {
                ApiError::conflict(ErrorCode::NotForThisGame, e.message)
            } else {
                e
            }
        })?;
    Ok(Json(table.view(Some(you)).await))
}

/// Renames your own seat (the seat's token): the name the others see.
#[utoipa::path(post, path = "/api/tables/{id}/seats/{seat}/name", request_body = NameRequest,
    params(("id" = TableId, Path), ("seat" = usize, Path, maximum = 5), ("X-Seat-Token" = SeatToken, Header)),
    responses(
        (status = 200, body = TableView),
        (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "Not your seat"),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "`name_taken`: the name looks like another seat's"),
    ))]
pub(super) async fn rename(
    State(hub): State<Arc<Hub>>,
    Path((_, seat)): Path<(String, usize)>,
    Viewer {
        table, seat: you, ..
    }: Viewer,
    JsonBody(request): JsonBody<NameRequest>,
) -> Result<Json<TableView>, ApiError> {
    hub.rename(&table, you, seat, &request.name).await?;
    Ok(Json(table.view(Some(seat)).await))
}

/// Takes your seat back from the bot it was handed to.
#[utoipa::path(delete, path = "/api/tables/{id}/seats/{seat}/bot",
    params(("id" = TableId, Path), ("seat" = usize, Path, maximum = 5), ("X-Seat-Token" = SeatToken, Header)),
    responses(
        (status = 200, body = TableView),
        (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "Not the seat's own token"),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "Over, or the seat is not a bot's"),
    ))]
pub(super) async fn take_back(
    State(hub): State<Arc<Hub>>,
    Path((_, seat)): Path<(String, usize)>,
    Viewer {
        table, seat: you, ..
    }: Viewer,
) -> Result<Json<TableView>, ApiError> {
    hub.take_back(&table, you, seat).await?;
    Ok(Json(table.view(Some(seat)).await))
}

/// A finished table's rematch: a new table with the same game, settings and seats
/// (the same names, bots the same bots) and a new fair deal. The first player to ask
/// creates it (the table limits of their address apply); every player who asks, then
/// or later, gets their own seat there (`you`), taken for them with their seat token
/// here. Asking again answers the same table. The finished table's view names it
/// (`rematch`), so that the others' clients offer to join.
#[utoipa::path(post, path = "/api/tables/{id}/rematch", request_body = RematchRequest,
    params(("id" = TableId, Path), ("X-Seat-Token" = SeatToken, Header, description = "Your seat's token at the finished table")),
    responses(
        (status = 200, body = CreateTableResponse),
        (status = 403, body = ErrorBody, description = "No or a forged token: only the table's players may ask"),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "`not_over`: the game is still being played"),
        (status = 429, body = ErrorBody, description = "Too many tables from this address (the first request creates one)"),
    ))]
pub(super) async fn rematch(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    SeatAt { table, seat, .. }: SeatAt<ToRematch>,
    OptionalJsonBody(RematchRequest {}): OptionalJsonBody<RematchRequest>,
) -> Result<Json<CreateTableResponse>, ApiError> {
    Ok(Json(hub.rematch(&table, seat, from.ip()).await?))
}
