//! Hints (`GET /api/tables/{id}/hint`): the solver's best play (Rummikub) or the
//! strongest bot's best moves (Rumis, over a second of search). A hint costs a core
//! for up to seconds, so it is the most guarded request of the server:
//! - only at tables whose setting allows them (a practice table by default; a table
//!   of people only if its creator chose so: 403 `hints_off`);
//! - only while the game runs (not before the table starts, not after it ends);
//! - rate-limited per seat and per client address (429 with `Retry-After`);
//! - run on the thinking pool below people's bots (`thinking`), with a bounded queue:
//!   when as many hints wait or run as the queue holds, the next one is refused (429);
//! - a repeated hint for the same position (table, version, seat, objective) is
//!   answered from a small cache, or joins the one being computed: it costs nothing
//!   and counts against no limit.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{ConnectInfo, FromRequestParts, Query, State};
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use axum::Json;
use rummikub_solver::Objective;
use serde::Deserialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::cache::Cache;
use crate::error::ApiError;
use crate::games::{HintJob, HintRequest};
use crate::http::extract::{SeatAt, ToHint};
use crate::hub::{Hub, Table, TableState};
use crate::metrics::Metrics;
use crate::queue::WorkQueue;
use crate::thinking::{Priority, Thinking};
use crate::transport::{client_key, RateLimiter};
use crate::wire::{ErrorBody, ErrorCode, HintAnswer, SeatToken, TableId};

/// Positions whose hint is remembered.
const CACHE_ENTRIES: usize = 512;

/// How hints are limited.
#[derive(Clone, Debug)]
pub struct HintLimits {
    /// Hints one seat may ask for per minute (a minute's worth at once; 0: no cap).
    pub per_minute_per_seat: u32,
    /// Hints one client address may ask for per minute (0: no cap).
    pub per_minute_per_address: u32,
    /// Hints waiting for a core or being computed, in all; one more is refused.
    pub max_queued: usize,
    /// How long the strongest bot searches for a Rumis hint.
    pub rumis_search: Duration,
}

impl Default for HintLimits {
    fn default() -> Self {
        HintLimits {
            per_minute_per_seat: 6,
            per_minute_per_address: 20,
            max_queued: 4,
            rumis_search: Duration::from_millis(1200),
        }
    }
}

#[derive(Clone, PartialEq, Eq, Hash)]
struct HintKey {
    table: String,
    version: u64,
    seat: usize,
    objective: bool,
}

type Outcome = Result<HintAnswer, ApiError>;

pub struct Hints {
    limits: HintLimits,
    per_seat: Option<RateLimiter<(String, usize)>>,
    per_address: Option<RateLimiter>,
    queue: WorkQueue,
    cache: Cache<HintKey, Outcome>,
}

impl Hints {
    pub fn new(limits: HintLimits) -> Hints {
        Hints {
            per_seat: RateLimiter::per_minute(limits.per_minute_per_seat),
            per_address: RateLimiter::per_minute(limits.per_minute_per_address),
            queue: WorkQueue::new(limits.max_queued),
            limits,
            cache: Cache::by_entries(CACHE_ENTRIES),
        }
    }

    /// Hints waiting or being computed now.
    pub fn queued(&self) -> usize {
        self.queue.len()
    }

    /// The hint for `seat` at `table` now, asked from `from`.
    pub async fn hint(
        &self,
        thinking: &Thinking,
        metrics: &Metrics,
        table: &Arc<Table>,
        seat: usize,
        objective: Objective,
        from: IpAddr,
    ) -> Result<HintAnswer, ApiError> {
        let (version, job) = {
            let state = table.state.lock().await;
            (state.version, job(&state, seat)?)
        };
        let key = HintKey {
            table: table.id.clone(),
            version,
            seat,
            objective: objective == Objective::Value,
        };
        let outcome = self
            .cache
            .get_or_compute(
                &key,
                self.compute(thinking, table, seat, from, objective, job),
            )
            .await;
        match outcome {
            Ok((outcome, computed)) => {
                if computed {
                    metrics.hints_computed.inc();
                } else {
                    metrics.hints_cached.inc();
                }
                outcome
            }
            Err(refusal) => {
                metrics.hints_refused.inc();
                Err(refusal)
            }
        }
    }

    /// Checks the limits and the queue, then computes on the thinking pool. `Err`:
    /// refused (not remembered); `Ok`: the hint or the game's reason for none
    /// (remembered for this position).
    async fn compute(
        &self,
        thinking: &Thinking,
        table: &Table,
        seat: usize,
        from: IpAddr,
        objective: Objective,
        job: HintJob,
    ) -> Result<Outcome, ApiError> {
        if let Some(limiter) = &self.per_seat {
            if let Err(wait) = limiter.check_key((table.id.clone(), seat)) {
                return Err(ApiError::too_many_for(
                    ErrorCode::TooManyHints,
                    format!(
                        "your seat may ask for {} hints a minute; wait a moment",
                        self.limits.per_minute_per_seat
                    ),
                    wait,
                ));
            }
        }
        if let Some(limiter) = &self.per_address {
            if let Err(wait) = limiter.check_key(client_key(from)) {
                return Err(ApiError::too_many_for(
                    ErrorCode::TooManyHints,
                    format!(
                        "your address may ask for {} hints a minute; wait a moment",
                        self.limits.per_minute_per_address
                    ),
                    wait,
                ));
            }
        }
        let Some(place) = self.queue.enter() else {
            return Err(ApiError::too_many_for(
                ErrorCode::HintsBusy,
                "the server is busy with other hints; try again in a moment",
                self.limits.rumis_search.max(Duration::from_secs(1)),
            ));
        };
        let request = HintRequest {
            objective,
            search_millis: self.limits.rumis_search.as_millis() as u64,
        };
        thinking
            .run(Priority::Hint, move || {
                let _place = place;
                job(request).map_err(ApiError::from)
            })
            .await
    }
}

/// What a hint for `seat` computes: only where the table allows hints, only while
/// the game runs, and only where the table's game has hints.
fn job(state: &TableState, seat: usize) -> Result<HintJob, ApiError> {
    if !state.settings.hints {
        return Err(ApiError::forbidden(
            ErrorCode::HintsOff,
            "hints are off at this table: a table of two or more people has none unless \
             its creator turned them on (a practice table has them)",
        ));
    }
    if state.started_ms.is_none() {
        return Err(ApiError::conflict(
            ErrorCode::NotStarted,
            "the game has not started: hints open when every seat is taken",
        ));
    }
    if state.game.is_over() {
        return Err(ApiError::conflict(
            ErrorCode::GameOver,
            "the game is over: there are no more hints",
        ));
    }
    Ok(state.game.hint(seat)?)
}

/// The hint's route.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(hint))
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct HintQuery {
    /// `tiles` (default) or `value`.
    #[param(value_type = Option<HintObjectiveName>, inline)]
    objective: Option<String>,
}

/// What a Rummikub hint makes most of: the tiles laid, or their value. Read as text,
/// so that another word gets its own refusal (`bad_objective`).
#[derive(utoipa::ToSchema)]
#[schema(rename_all = "lowercase")]
#[allow(dead_code)]
enum HintObjectiveName {
    Tiles,
    Value,
}

/// The hint's objective from the query, checked before the table is looked at.
pub struct HintObjective(rummikub_solver::Objective);

impl<S: Send + Sync> FromRequestParts<S> for HintObjective {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Response> {
        let Query(goal) = Query::<HintQuery>::from_request_parts(parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        match goal.objective.as_deref() {
            None | Some("tiles") => Ok(HintObjective(rummikub_solver::Objective::Tiles)),
            Some("value") => Ok(HintObjective(rummikub_solver::Objective::Value)),
            Some(_) => Err(ApiError::bad_request(
                ErrorCode::BadObjective,
                "unknown objective (tiles or value)",
            )
            .into_response()),
        }
    }
}

/// Rummikub: the exact solver's best play for the token's own rack. Rumis: the
/// strongest bot's best three moves for the seat to move. Limited per seat and per
/// address, and queued below people's bots (see `hints`).
#[utoipa::path(get, path = "/api/tables/{id}/hint",
    params(("id" = TableId, Path), ("X-Seat-Token" = SeatToken, Header), HintQuery),
    responses(
        (status = 200, body = HintAnswer),
        (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "No or a forged token, or hints are off at this table (`hints_off`)"),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "Not started, over, not your turn (Rumis), or the round is over"),
        (status = 429, body = ErrorBody, description = "Too many hints from this seat or address, or too many hints queued (Retry-After)"),
    ))]
pub async fn hint(
    State(hub): State<Arc<Hub>>,
    State(hints): State<Arc<Hints>>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    HintObjective(objective): HintObjective,
    SeatAt { table, seat, .. }: SeatAt<ToHint>,
) -> Result<Json<HintAnswer>, ApiError> {
    Ok(Json(
        hints
            .hint(
                hub.thinking(),
                hub.metrics(),
                &table,
                seat,
                objective,
                from.ip(),
            )
            .await?,
    ))
}
