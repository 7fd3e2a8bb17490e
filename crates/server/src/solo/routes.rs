//! The solo cube's HTTP routes. Every request carries its build, bounded by the cube's
//! size; replaying and checking it is cheap and rate-limited per client address; the
//! solver ("can this still be finished?", hints) costs a core for up to
//! [`SOLVER_BOUND`], so it has its own, lower rate, runs on the thinking pool below
//! people's bots with a bounded queue (429 `solo_busy` when full), and answers
//! "unknown" when the bound runs out.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, State};
use axum::Json;
use tokio::sync::OnceCell;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{bounded, bounded_colour, check, playable, replay, state, SOLVER_BOUND};
use crate::app::AppState;
use crate::error::ApiError;
use crate::http::accounts::{MaybeSession, Session};
use crate::http::extract::JsonBody;
use crate::hub::Hub;
use crate::queue::WorkQueue;
use crate::store::{SoloLevelKey, StoredSoloBest};
use crate::thinking::Priority;
use crate::transport::RateLimiter;
use crate::wire::*;

/// The longest time a finished cube may report: a day.
pub const MAX_MILLIS: u64 = 24 * 60 * 60 * 1000;

/// How the solo cube's requests are limited.
#[derive(Clone, Debug)]
pub struct SoloLimits {
    /// Builds, checks and placements per client address and minute (0: no cap); the
    /// red ghost asks once per new position, so a few a second.
    pub checks_per_minute_per_address: u32,
    /// "Can this still be finished?" and hints per client address and minute (0: no cap).
    pub solver_per_minute_per_address: u32,
    /// Solver requests waiting for a core or running, in all; one more is refused.
    pub max_queued: usize,
    /// How long the solver may search for one answer.
    pub bound: Duration,
}

impl Default for SoloLimits {
    fn default() -> Self {
        SoloLimits {
            checks_per_minute_per_address: 600,
            solver_per_minute_per_address: 60,
            max_queued: 4,
            bound: SOLVER_BOUND,
        }
    }
}

/// The limits as counted.
pub struct Solo {
    limits: SoloLimits,
    checks: Option<RateLimiter>,
    solver: Option<RateLimiter>,
    queue: WorkQueue,
    levels: OnceCell<SoloLevels>,
}

impl Solo {
    pub fn new(limits: SoloLimits) -> Solo {
        Solo {
            checks: RateLimiter::per_minute(limits.checks_per_minute_per_address),
            solver: RateLimiter::per_minute(limits.solver_per_minute_per_address),
            queue: WorkQueue::new(limits.max_queued),
            limits,
            levels: OnceCell::new(),
        }
    }

    fn check_rate(&self, from: IpAddr) -> Result<(), ApiError> {
        match self.checks.as_ref().map(|l| l.check(from)) {
            Some(Err(wait)) => Err(ApiError::too_many_for(
                ErrorCode::TooManySoloRequests,
                format!(
                    "your address may send {} solo cube stones a minute; wait a moment",
                    self.limits.checks_per_minute_per_address
                ),
                wait,
            )),
            _ => Ok(()),
        }
    }

    /// The level list, decided once on the thinking pool.
    async fn decided(&self, hub: &Hub) -> Result<&SoloLevels, ApiError> {
        self.levels
            .get_or_try_init(|| async {
                let levels = hub.thinking().run(Priority::Hint, super::levels).await?;
                Ok::<_, ApiError>(SoloLevels { levels })
            })
            .await
    }

    /// Runs solver work on the thinking pool, within the rate and the queue.
    async fn solve<T: Send + 'static>(
        &self,
        hub: &Hub,
        from: IpAddr,
        work: impl FnOnce(Duration) -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        if let Some(Err(wait)) = self.solver.as_ref().map(|l| l.check(from)) {
            return Err(ApiError::too_many_for(
                ErrorCode::TooManySoloRequests,
                format!(
                    "your address may ask the solver {} times a minute; wait a moment",
                    self.limits.solver_per_minute_per_address
                ),
                wait,
            ));
        }
        let Some(place) = self.queue.enter() else {
            return Err(ApiError::too_many_for(
                ErrorCode::SoloBusy,
                "the server is busy with other solo cubes; try again in a moment",
                self.limits.bound.max(Duration::from_secs(1)),
            ));
        };
        let bound = self.limits.bound;
        hub.thinking()
            .run(Priority::Hint, move || {
                let _place = place;
                work(bound)
            })
            .await
    }
}

/// The solo cube's routes. The level list is decided on its first request (seconds
/// of CPU, once per server): not at every start, where most servers (and every
/// test's) would spend it for nothing.
pub fn routes() -> OpenApiRouter<AppState> {
    use crate::http::json_writes;
    OpenApiRouter::new()
        .routes(routes!(levels))
        .routes(json_writes(routes!(build)))
        .routes(json_writes(routes!(place)))
        .routes(json_writes(routes!(finishable)))
        .routes(json_writes(routes!(hint)))
        .routes(json_writes(routes!(bests, record)))
}

/// The 48 levels (edge 3, 4, 5 × 1 to 4 colours × the options), each with whether it
/// has a full cube and, if not, why. Decided once by the solver.
#[utoipa::path(get, path = "/api/solo/levels", responses((status = 200, body = SoloLevels)))]
pub async fn levels(
    State(hub): State<Arc<Hub>>,
    State(solo): State<Arc<Solo>>,
) -> Result<Json<SoloLevels>, ApiError> {
    Ok(Json(solo.decided(&hub).await?.clone()))
}

/// A build as the 3D board shows it, with the placements the placing colour may make.
/// An empty build asked for signed in begins a cube: the server notes when (a time
/// sent for it later counts at least the server's own).
#[utoipa::path(post, path = "/api/solo/build", request_body = SoloBuild, responses(
    (status = 200, body = SoloState),
    (status = 400, body = ErrorBody, description = "`bad_solo_level`, `bad_solo_build` (more than 62 stones, a stone of other than 2 to 4 cells), or malformed"),
    (status = 409, body = ErrorBody, description = "`solo_impossible`: the level has no full cube; `bad_solo_build`: a stone the engine refuses, with its number and reason"),
    (status = 429, body = ErrorBody, description = "`too_many_solo_requests` (Retry-After)"),
))]
pub async fn build(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    State(solo): State<Arc<Solo>>,
    MaybeSession(signed): MaybeSession,
    JsonBody(request): JsonBody<SoloBuild>,
) -> Result<Json<SoloState>, ApiError> {
    solo.check_rate(from.ip())?;
    bounded(&request.pieces)?;
    bounded_colour(request.colour.as_deref())?;
    let cube = playable(&request.level)?;
    let build = replay(cube, &request.pieces)?;
    if let (Some(signed), true) = (signed, request.pieces.is_empty()) {
        hub.store
            .begin_solo(&signed.account.id, &key(&request.level), hub.now_ms())
            .await?;
    }
    Ok(Json(state(&build, request.colour.as_deref())))
}

fn key(level: &SoloLevel) -> SoloLevelKey {
    (level.edge, level.colours, level.rules, level.alternate)
}

/// Checks one more stone on a build: legal (with the stone as placed) or refused with
/// the engine's reason. Nothing is stored.
#[utoipa::path(post, path = "/api/solo/place", request_body = SoloPlace, responses(
    (status = 200, body = SoloPlaced),
    (status = 400, body = ErrorBody, description = "`bad_solo_level`, `bad_solo_build`, or malformed"),
    (status = 409, body = ErrorBody, description = "`solo_impossible`, or `bad_solo_build`: a stone the engine refuses"),
    (status = 429, body = ErrorBody, description = "`too_many_solo_requests` (Retry-After)"),
))]
pub async fn place(
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    State(solo): State<Arc<Solo>>,
    JsonBody(request): JsonBody<SoloPlace>,
) -> Result<Json<SoloPlaced>, ApiError> {
    solo.check_rate(from.ip())?;
    bounded(std::slice::from_ref(&request.piece))?;
    bounded(&request.pieces)?;
    let cube = playable(&request.level)?;
    let build = replay(cube, &request.pieces)?;
    Ok(Json(check(&build, &request.piece)))
}

/// Can this build still become a full cube? `yes`, `no` (the search was exhausted) or
/// `unknown` (the solver's time bound, 2 s, ran out).
#[utoipa::path(post, path = "/api/solo/finishable", request_body = SoloBuild, responses(
    (status = 200, body = SoloFinishable),
    (status = 400, body = ErrorBody, description = "`bad_solo_level`, `bad_solo_build`, or malformed"),
    (status = 409, body = ErrorBody, description = "`solo_impossible`, or `bad_solo_build`: a stone the engine refuses"),
    (status = 429, body = ErrorBody, description = "`too_many_solo_requests` or `solo_busy` (Retry-After)"),
))]
pub async fn finishable(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    State(solo): State<Arc<Solo>>,
    JsonBody(request): JsonBody<SoloBuild>,
) -> Result<Json<SoloFinishable>, ApiError> {
    bounded(&request.pieces)?;
    bounded_colour(request.colour.as_deref())?;
    let cube = playable(&request.level)?;
    let pieces = replay(cube, &request.pieces)?.pieces().to_vec();
    let answer = solo
        .solve(&hub, from.ip(), move |bound| {
            let started = Instant::now();
            let answer = super::finishable(cube, &pieces, bound);
            SoloFinishable {
                answer,
                millis: started.elapsed().as_millis() as u64,
            }
        })
        .await?;
    Ok(Json(answer))
}

/// The next stone of a full cube that extends the build (`yes` with the stone), or
/// `no` / `unknown` as for "can this still be finished?". A stone given to a
/// signed-in account counts against the cube's time: a cube built with hints keeps
/// no best.
#[utoipa::path(post, path = "/api/solo/hint", request_body = SoloBuild, responses(
    (status = 200, body = SoloHint),
    (status = 400, body = ErrorBody, description = "`bad_solo_level`, `bad_solo_build`, or malformed"),
    (status = 409, body = ErrorBody, description = "`solo_impossible`, or `bad_solo_build`: a stone the engine refuses"),
    (status = 429, body = ErrorBody, description = "`too_many_solo_requests` or `solo_busy` (Retry-After)"),
))]
pub async fn hint(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    State(solo): State<Arc<Solo>>,
    MaybeSession(signed): MaybeSession,
    JsonBody(request): JsonBody<SoloBuild>,
) -> Result<Json<SoloHint>, ApiError> {
    bounded(&request.pieces)?;
    bounded_colour(request.colour.as_deref())?;
    let cube = playable(&request.level)?;
    replay(cube, &request.pieces)?;
    let pieces = request.pieces.clone();
    let answer = solo
        .solve(&hub, from.ip(), move |bound| {
            let build = replay(cube, &pieces).expect("replayed before");
            let (answer, piece) = super::hint(&build, bound);
            SoloHint { answer, piece }
        })
        .await?;
    if let (Some(signed), Some(_)) = (signed, &answer.piece) {
        hub.store
            .solo_hint_used(&signed.account.id, &key(&request.level), hub.now_ms())
            .await?;
    }
    Ok(Json(answer))
}

fn best_of(stored: &StoredSoloBest) -> SoloBest {
    SoloBest {
        level: SoloLevel {
            edge: stored.edge,
            colours: stored.colours,
            rules: stored.rules,
            alternate: stored.alternate,
        },
        millis: stored.millis,
        stones: stored.stones,
        at_ms: stored.at_ms,
    }
}

/// The signed-in account's best time on each level it finished.
#[utoipa::path(get, path = "/api/me/solo", responses(
    (status = 200, body = SoloBests),
    (status = 401, body = ErrorBody, description = "`not_signed_in`"),
))]
pub async fn bests(
    State(hub): State<Arc<Hub>>,
    Session(signed): Session,
) -> Result<Json<SoloBests>, ApiError> {
    let stored = hub.store.solo_bests(&signed.account.id).await?;
    Ok(Json(SoloBests {
        bests: stored.iter().map(best_of).collect(),
    }))
}

/// Keeps a finished cube's time as the account's best on its level if it is faster
/// (the cube is checked stone by stone and must be full). The cube must have begun
/// on this server, signed in (an empty build of the level); the time counted is the
/// one sent or the server's own since then, whichever is longer; a cube built with
/// hints (asked signed in) keeps no best.
#[utoipa::path(post, path = "/api/me/solo", request_body = SoloFinish, responses(
    (status = 200, body = SoloRecorded),
    (status = 400, body = ErrorBody, description = "`bad_solo_level`, `bad_solo_build`, `bad_solo_time` (1 ms to a day), or malformed"),
    (status = 401, body = ErrorBody, description = "`not_signed_in`"),
    (status = 403, body = ErrorBody, description = "`foreign_origin`"),
    (status = 409, body = ErrorBody, description = "`solo_impossible`, `bad_solo_build` (a stone the engine refuses), `solo_incomplete`: the cube is not full, or `solo_not_begun`: this account began no cube of the level"),
    (status = 429, body = ErrorBody, description = "`too_many_solo_requests` (Retry-After)"),
))]
pub async fn record(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    State(solo): State<Arc<Solo>>,
    Session(signed): Session,
    JsonBody(request): JsonBody<SoloFinish>,
) -> Result<Json<SoloRecorded>, ApiError> {
    solo.check_rate(from.ip())?;
    if request.millis == 0 || request.millis > MAX_MILLIS {
        return Err(ApiError::bad_request(
            ErrorCode::BadSoloTime,
            "a time is 1 ms to a day",
        ));
    }
    bounded(&request.pieces)?;
    let cube = playable(&request.level)?;
    let build = replay(cube, &request.pieces)?;
    if !build.is_complete() {
        return Err(ApiError::conflict(
            ErrorCode::SoloIncomplete,
            "the cube is not full: only a finished cube has a time",
        ));
    }
    let level = request.level;
    let account = &signed.account.id;
    let now = hub.now_ms();
    let Some((started_ms, hints)) = hub.store.end_solo(account, &key(&level)).await? else {
        return Err(ApiError::conflict(
            ErrorCode::SoloNotBegun,
            "this cube did not begin here signed in: begin the level (an empty build) to time it",
        ));
    };
    let millis = request.millis.max((now - started_ms).max(0) as u64);
    let best = StoredSoloBest {
        edge: level.edge,
        colours: level.colours,
        rules: level.rules,
        alternate: level.alternate,
        millis,
        stones: build.pieces().len() as u32,
        at_ms: now,
    };
    let new_best =
        hints == 0 && millis <= MAX_MILLIS && hub.store.record_solo(account, &best).await?;
    let kept = hub.store.solo_bests(account).await?.into_iter().find(|b| {
        (b.edge, b.colours, b.rules, b.alternate)
            == (best.edge, best.colours, best.rules, best.alternate)
    });
    Ok(Json(SoloRecorded {
        best: kept.as_ref().map(best_of),
        new_best,
        millis,
        hints,
    }))
}
