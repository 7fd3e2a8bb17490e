//! The tutorial's HTTP routes, with their own rate limit per client address.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Path, State};
use axum::response::IntoResponse;
use axum::Json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::built;
use crate::app::AppState;
use crate::error::ApiError;
use crate::http::extract::JsonBody;
use crate::transport::RateLimiter;
use crate::wire::{
    ErrorBody, ErrorCode, GameAction, GameKind, Tutorial, TutorialCheck, WireAction,
};

/// The limits of the tutorial's checks.
#[derive(Clone, Debug)]
pub struct TutorialLimits {
    /// Checks per client address and minute, a minute's worth at once (0: no cap).
    pub checks_per_minute_per_address: u32,
}

impl Default for TutorialLimits {
    fn default() -> Self {
        // A learner's red ghost asks once per new placement: a few a second at most.
        TutorialLimits {
            checks_per_minute_per_address: 300,
        }
    }
}

/// The tutorials' state: the checks' rate per client address (the tutorials
/// themselves are built once from the engines, `built`).
pub struct Tutorials {
    limits: TutorialLimits,
    per_address: Option<RateLimiter>,
}

impl Tutorials {
    pub fn new(limits: TutorialLimits) -> Tutorials {
        Tutorials {
            per_address: RateLimiter::per_minute(limits.checks_per_minute_per_address),
            limits,
        }
    }
}

/// The tutorial's routes.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(tutorial))
        .routes(crate::http::json_writes(routes!(check_step)))
}

/// The game of the address (`rumis`, `rummikub`); another is not found.
fn game_named(name: &str) -> Result<GameKind, ApiError> {
    GameKind::ALL
        .into_iter()
        .find(|g| g.name() == name)
        .ok_or_else(|| {
            ApiError::not_found(
                ErrorCode::NotFound,
                "there is a tutorial for rumis and for rummikub",
            )
        })
}

/// A game's tutorial: its steps, each a position with its rulings, goal and a typical
/// wrong try.
#[utoipa::path(get, path = "/api/tutorial/{game}",
    params(("game" = GameKind, Path)),
    responses(
        (status = 200, body = Tutorial),
        (status = 404, body = ErrorBody, description = "No tutorial for that game"),
    ))]
pub async fn tutorial(Path(game): Path<String>) -> Result<impl IntoResponse, ApiError> {
    let game = game_named(&game)?;
    Ok((
        [("content-type", "application/json")],
        built(game).json.clone(),
    ))
}

/// Plays a move on a tutorial step: the engine accepts it (`legal`, with the position
/// after it, and `done` when it does what the step asks) or refuses it with its
/// reason. Nothing is stored.
#[utoipa::path(post, path = "/api/tutorial/{game}/{step}/check", request_body = WireAction,
    params(("game" = GameKind, Path), ("step" = u32, Path, description = "The step's number, from 1")),
    responses(
        (status = 200, body = TutorialCheck),
        (status = 400, body = ErrorBody, description = "Malformed"),
        (status = 404, body = ErrorBody, description = "No such game or step"),
        (status = 409, body = ErrorBody, description = "An action of the other game, or one that is not a move (a draw)"),
        (status = 429, body = ErrorBody, description = "Too many checks from this address (Retry-After)"),
    ))]
pub async fn check_step(
    Path((game, step)): Path<(String, String)>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    State(checks): State<Arc<Tutorials>>,
    JsonBody(action): JsonBody<GameAction>,
) -> Result<Json<TutorialCheck>, ApiError> {
    let game = game_named(&game)?;
    let tutorial = built(game);
    let step = step
        .parse::<usize>()
        .ok()
        .and_then(|n| tutorial.steps.get(n.checked_sub(1)?))
        .ok_or_else(|| {
            ApiError::not_found(
                ErrorCode::NotFound,
                format!(
                    "the {} tutorial has steps 1 to {}",
                    game.title(),
                    tutorial.steps.len()
                ),
            )
        })?;
    if let Some(Err(wait)) = checks.per_address.as_ref().map(|l| l.check(from.ip())) {
        return Err(ApiError::too_many_for(
            ErrorCode::RateLimited,
            format!(
                "your address may check {} tutorial moves a minute; wait a moment",
                checks.limits.checks_per_minute_per_address
            ),
            wait,
        ));
    }
    Ok(Json(step.check(&action)?))
}
