//! Reviews of finished games (`GET /api/tables/{id}/review`, `docs/reviews.md`):
//! Rummikub turns against the exact solver, Rumis moves against the strongest bot.
//!
//! A review costs a core for seconds to minutes, so it runs in the background, after
//! all play: turn by turn on the thinking pool at its lowest priority ([`Priority::
//! Review`], below tables of bots only; never the last core). It is computed once per
//! game and stored in the database. Of several nodes exactly one computes it: the
//! first request claims the table's review row with a conditional write (a node and an
//! expiry, renewed while it computes, with the progress, so that any node can answer
//! it); a claim that expires (its node stopped) is taken over by the next request.
//! Requests are rate-limited per address, and a node computes or queues a bounded
//! number of reviews (429 `reviews_busy` past it).

pub mod route;
pub use route::routes;
pub mod rumis;
pub mod rummikub;

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use parking_lot::{Mutex, MutexGuard};

use crate::cache::Cache;
use crate::error::ApiError;
use crate::hub::{valid_table_id, Hub};
use crate::limit::{Limiter, Limits};
use crate::store::StoredTable;
use crate::thinking::Priority;
use crate::transport::RateLimiter;
use crate::wire::{ErrorCode, GameKind, ReviewAnswer, ReviewStatus};

/// How reviews are limited and computed.
#[derive(Clone, Debug)]
pub struct ReviewLimits {
    /// Review requests (the client's polls included) one address may make per minute
    /// (0: no cap).
    pub per_minute_per_address: u32,
    /// Reviews this node computes or waits to compute; one more is refused.
    pub max_pending: usize,
    /// Playouts of the strongest bot's search per Rumis position (its level 5).
    pub rumis_playouts: u32,
    /// How long a claim holds without being renewed (it is renewed thrice as often).
    pub claim: Duration,
}

impl Default for ReviewLimits {
    fn default() -> Self {
        ReviewLimits {
            per_minute_per_address: 60,
            max_pending: 16,
            rumis_playouts: play::mcts::LEVEL_PLAYOUTS[4],
            claim: Duration::from_secs(30),
        }
    }
}

/// Finished reviews kept in memory, in bytes of JSON.
const KEPT_BYTES: usize = 32 << 20;

/// A review this node computes: how far it is.
struct Progress {
    game: GameKind,
    done: AtomicU64,
    total: AtomicU64,
    /// Set when the computation ended (the claim keeper stops).
    finished: AtomicBool,
    /// Set when another node took the claim over (the computation stops).
    lost: AtomicBool,
}

impl Progress {
    fn fraction(&self) -> f64 {
        fraction(
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
        )
    }
}

fn fraction(done: u64, total: u64) -> f64 {
    if total == 0 {
        0.0
    } else {
        (done as f64 / total as f64).min(1.0)
    }
}

pub struct Reviews {
    limits: ReviewLimits,
    per_address: Option<RateLimiter>,
    pending: Mutex<HashMap<String, Arc<Progress>>>,
    /// Finished reviews' JSON, bounded by bytes.
    kept: Cache<String, Arc<String>>,
    /// Reviews computed at once (the others wait their turn, first asked first done).
    workers: Limiter,
}

/// What a review request is answered with.
pub enum Reply {
    /// The finished review's JSON.
    Ready(Arc<String>),
    Pending(ReviewAnswer),
}

impl Reviews {
    pub fn new(limits: ReviewLimits, cores: usize) -> Reviews {
        Reviews {
            per_address: RateLimiter::per_minute(limits.per_minute_per_address),
            limits,
            pending: Mutex::new(HashMap::new()),
            kept: Cache::by_bytes(KEPT_BYTES, |document: &Arc<String>| document.len()),
            workers: Limiter::new(Limits::running(cores.saturating_sub(1))),
        }
    }

    /// Reviews this node computes or waits to compute.
    pub fn pending(&self) -> usize {
        self.lock_pending().len()
    }

    fn lock_pending(&self) -> MutexGuard<'_, HashMap<String, Arc<Progress>>> {
        self.pending.lock()
    }

    fn kept(&self, id: &str) -> Option<Arc<String>> {
        self.kept.get(id)
    }

    fn keep(&self, id: &str, document: Arc<String>) {
        self.kept.insert(id.to_string(), document);
    }
}

fn pending(id: &str, game: GameKind, progress: f64) -> Reply {
    Reply::Pending(ReviewAnswer {
        id: id.to_string(),
        status: ReviewStatus::Pending,
        progress,
        game,
        turns: Vec::new(),
        players: Vec::new(),
        rumis: None,
    })
}

fn game_of(name: &str) -> GameKind {
    if name == "rumis" {
        GameKind::Rumis
    } else {
        GameKind::Rummikub
    }
}

/// This node's name in review claims.
fn review_node(hub: &Hub) -> String {
    hub.cluster()
        .map_or_else(|| "single".to_string(), |c| c.node.clone())
}

impl Reviews {
    /// A finished table's review: ready, or pending with its progress (the first
    /// request starts it, on this node, unless another node computes it).
    pub async fn review(
        self: &Arc<Self>,
        hub: &Arc<Hub>,
        id: &str,
        from: IpAddr,
    ) -> Result<Reply, ApiError> {
        let reviews = self;
        if let Some(Err(wait)) = reviews.per_address.as_ref().map(|l| l.check(from)) {
            return Err(ApiError::too_many_for(
                ErrorCode::TooManyReviews,
                format!(
                    "your address may ask for {} reviews a minute; wait a moment",
                    reviews.limits.per_minute_per_address
                ),
                wait,
            ));
        }
        let unknown = || ApiError::not_found(ErrorCode::NoTable, "there is no such table");
        if !valid_table_id(id) {
            return Err(unknown());
        }
        if let Some(document) = reviews.kept(id) {
            return Ok(Reply::Ready(document));
        }
        if let Some(progress) = reviews.lock_pending().get(id) {
            return Ok(pending(id, progress.game, progress.fraction()));
        }
        let node = review_node(hub);
        let now = hub.now_ms();
        if let Some(row) = hub.store.review(id).await? {
            if let Some(document) = row.document {
                let document = Arc::new(document);
                reviews.keep(id, document.clone());
                return Ok(Reply::Ready(document));
            }
            // Another node computes it (this node's own claim without a computation
            // here is an earlier run's: taken up again).
            if row.expires_ms >= now && row.node != node {
                return Ok(pending(
                    id,
                    game_of(&row.game),
                    fraction(row.done, row.total),
                ));
            }
        }
        let table = hub.store.load_settings(id).await?.ok_or_else(unknown)?;
        if !table.finished {
            return Err(ApiError::conflict(
                ErrorCode::NotOver,
                "the game is still being played; its review opens when it is over",
            ));
        }
        let settings = crate::hub::read_settings(&table.config, &table.seats)
            .map_err(|e| ApiError::internal(format!("the table cannot be read: {e}")))?;
        let game = settings.game;
        let progress = {
            let mut pending_here = reviews.lock_pending();
            if let Some(progress) = pending_here.get(id) {
                return Ok(pending(id, progress.game, progress.fraction()));
            }
            if pending_here.len() >= reviews.limits.max_pending {
                hub.metrics().reviews_refused.inc();
                return Err(ApiError::too_many_for(
                    ErrorCode::ReviewsBusy,
                    "the server is busy with other reviews; try again in a while",
                    Duration::from_secs(30),
                ));
            }
            let progress = Arc::new(Progress {
                game,
                done: AtomicU64::new(0),
                total: AtomicU64::new(0),
                finished: AtomicBool::new(false),
                lost: AtomicBool::new(false),
            });
            pending_here.insert(id.to_string(), progress.clone());
            hub.metrics().reviews_pending.set(pending_here.len() as i64);
            progress
        };
        let expires = now + reviews.limits.claim.as_millis() as i64;
        let claimed = hub
            .store
            .claim_review(id, game.name(), &node, now, expires)
            .await;
        if !matches!(claimed, Ok(true)) {
            self.forget_pending(hub, id);
            claimed?;
            // Another node claimed it meanwhile.
            return Ok(pending(id, game, 0.0));
        }
        let (reviews, hub) = (self.clone(), hub.clone());
        let id = id.to_string();
        tokio::spawn(async move {
            reviews.compute_review(hub, id, node, progress).await;
        });
        Ok(pending(&table.id, game, 0.0))
    }

    fn forget_pending(&self, hub: &Hub, id: &str) {
        let mut pending_here = self.lock_pending();
        pending_here.remove(id);
        hub.metrics().reviews_pending.set(pending_here.len() as i64);
    }

    /// Computes a claimed review and stores it; keeps the claim meanwhile.
    async fn compute_review(
        self: Arc<Self>,
        hub: Arc<Hub>,
        id: String,
        node: String,
        progress: Arc<Progress>,
    ) {
        let keeper = tokio::spawn(keep_claim(
            Arc::downgrade(&hub),
            self.limits.claim,
            id.clone(),
            node.clone(),
            progress.clone(),
        ));
        let outcome = self.review_document(&hub, &id, &progress).await;
        progress.finished.store(true, Ordering::SeqCst);
        keeper.abort();
        let stored = match outcome {
            Ok(Some(document)) => {
                let turns = progress.total.load(Ordering::Relaxed);
                hub.store
                    .finish_review(&id, &node, &document, turns, hub.now_ms())
                    .await
                    .map(|stored| stored.then_some(document))
            }
            Ok(None) => Ok(None),
            Err(e) => Err(e),
        };
        match stored {
            Ok(Some(document)) => {
                hub.metrics().reviews_computed.inc();
                self.keep(&id, Arc::new(document));
            }
            Ok(None) => tracing::info!("the review of {id} went to another node"),
            Err(e) => {
                tracing::error!("the review of {id} failed: {e:#}");
                if let Err(e) = hub.store.release_review(&id, &node).await {
                    tracing::warn!("the review claim of {id} stays until it expires: {e:#}");
                }
            }
        }
        self.forget_pending(&hub, &id);
    }

    /// The review's JSON, turn by turn on the thinking pool; `None` when the claim
    /// was lost meanwhile.
    async fn review_document(
        &self,
        hub: &Hub,
        id: &str,
        progress: &Progress,
    ) -> anyhow::Result<Option<String>> {
        let _turn = self
            .workers
            .acquire(0)
            .await
            .map_err(|_| anyhow::anyhow!("the server is stopping"))?;
        let stored = hub
            .store
            .load(id)
            .await?
            .ok_or_else(|| anyhow::anyhow!("the table is gone"))?;
        let names: Vec<String> = stored.seats.iter().map(|s| s.name.clone()).collect();
        let answer = match progress.game {
            GameKind::Rummikub => review_rummikub(hub, stored, &names, progress).await?,
            GameKind::Rumis => {
                let playouts = self.limits.rumis_playouts;
                review_rumis(hub, playouts, stored, &names, progress).await?
            }
        };
        Ok(match answer {
            Some(answer) => Some(serde_json::to_string(&ReviewAnswer {
                id: id.to_string(),
                ..answer
            })?),
            None => None,
        })
    }
}

async fn review_rummikub(
    hub: &Hub,
    stored: StoredTable,
    names: &[String],
    progress: &Progress,
) -> anyhow::Result<Option<ReviewAnswer>> {
    let thinking = hub.thinking();
    let (rules, turns) = thinking
        .run(Priority::Review, move || rummikub::turns(&stored))
        .await??;
    let rules = Arc::new(rules);
    progress.total.store(turns.len() as u64, Ordering::Relaxed);
    let mut cache = rummikub_solver::SolverCache::new();
    let mut reviewed = Vec::with_capacity(turns.len());
    for turn in turns {
        if progress.lost.load(Ordering::SeqCst) {
            return Ok(None);
        }
        let rules = rules.clone();
        let (kept, review) = thinking
            .run(Priority::Review, move || {
                let review = rummikub::review_turn(&mut cache, &rules, turn);
                (cache, review)
            })
            .await?;
        cache = kept;
        reviewed.push(review);
        progress.done.fetch_add(1, Ordering::Relaxed);
    }
    Ok(Some(ReviewAnswer {
        id: String::new(),
        status: ReviewStatus::Ready,
        progress: 1.0,
        game: GameKind::Rummikub,
        players: rummikub::players(names, &reviewed),
        turns: reviewed,
        rumis: None,
    }))
}

async fn review_rumis(
    hub: &Hub,
    playouts: u32,
    stored: StoredTable,
    names: &[String],
    progress: &Progress,
) -> anyhow::Result<Option<ReviewAnswer>> {
    let thinking = hub.thinking();
    let (turns, result) = thinking
        .run(Priority::Review, move || rumis::turns(&stored))
        .await??;
    progress.total.store(turns.len() as u64, Ordering::Relaxed);
    let colours = rumis::colours_of(&turns, names.len());
    let mut searched = Vec::with_capacity(turns.len());
    let mut analyses = Vec::with_capacity(turns.len());
    for turn in turns {
        if progress.lost.load(Ordering::SeqCst) {
            return Ok(None);
        }
        let (turn, analysis) = thinking
            .run(Priority::Review, move || {
                let analysis = rumis::analyse(&turn, playouts);
                (turn, analysis)
            })
            .await?;
        searched.push(turn);
        analyses.push(analysis);
        progress.done.fetch_add(1, Ordering::Relaxed);
    }
    let reviewed = rumis::review(searched, analyses, result);
    Ok(Some(ReviewAnswer {
        id: String::new(),
        status: ReviewStatus::Ready,
        progress: 1.0,
        game: GameKind::Rumis,
        players: rumis::players(names, &colours, &reviewed),
        turns: reviewed,
        rumis: Some(rumis::method(playouts)),
    }))
}

/// Renews a review's claim with its progress (so that every node can answer it)
/// until the computation ends; marks it lost when another node took it over.
async fn keep_claim(
    hub: std::sync::Weak<Hub>,
    claim: Duration,
    id: String,
    node: String,
    progress: Arc<Progress>,
) {
    loop {
        let every = (claim / 3).clamp(Duration::from_millis(100), Duration::from_secs(2));
        tokio::time::sleep(every).await;
        let Some(alive) = hub.upgrade() else { return };
        if progress.finished.load(Ordering::SeqCst) {
            return;
        }
        let renewed = alive
            .store
            .review_progress(
                &id,
                &node,
                progress.done.load(Ordering::Relaxed),
                progress.total.load(Ordering::Relaxed),
                alive.now_ms() + claim.as_millis() as i64,
            )
            .await;
        match renewed {
            Ok(true) => {}
            Ok(false) => {
                progress.lost.store(true, Ordering::SeqCst);
                return;
            }
            Err(e) => tracing::warn!("the review claim of {id} was not renewed: {e:#}"),
        }
    }
}
