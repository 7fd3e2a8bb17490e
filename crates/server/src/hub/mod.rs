//! The tables in play: each table's state behind its own lock, the one path every
//! action takes (check → store → show), the seats (who may sit where), and the
//! server-side drivers that act without a client: bots on their turn and the turn
//! clock (K7).
//!
//! Order of an action: validate on a copy of the game, write it to the database, then
//! swap the copy in and wake every viewer. A refused action, or one the database did
//! not take, changes nothing.
//!
//! Tables live in memory only while they are used: a table is loaded from the database
//! on its first request, idle tables (no viewer, no driver about to act; a turn clock
//! further away than [`HubOptions::keep_loaded_ahead`] does not count) are dropped when
//! more than [`HubOptions::max_loaded_tables`] are loaded, and tables whose bot or
//! clock comes due are loaded again in the background (at a restart, and by
//! [`wake_due`]; with several nodes, by the lease loop).
//!
//! Presence: a node knows the connections and requests it sees. With several nodes
//! each also writes what it saw of a seat's player to `rumi_presence` (at once when a
//! connection opens or the last one closes, otherwise throttled; a heartbeat keeps
//! open connections fresh), and a seat is handed to a bot only if no node has seen its
//! player for the hand-over time, checked in the same statement as the change.
//!
//! One idea per file: [`registry`] (loaded tables, loading, eviction), [`seats`]
//! (tokens, joining, claiming, renaming, bots taking seats), [`create`], [`commit`]
//! (the action path), [`drive`] (bots and clocks), [`bots`] (kept bots, failing
//! bots), [`sync`] (cluster catch-up and leases), [`presence`], [`replay`]
//! (rebuilding from the log), [`rematch`] (the same seats again, a new deal),
//! [`view`] and [`views`] (views shared by live sockets).

mod accounts;
mod bots;
mod challenges;
mod commit;
mod create;
mod drive;
mod presence;
mod registry;
mod rematch;
mod replay;
mod results;
mod seats;
mod sync;
mod view;
mod views;

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

// The table map's lock does not poison: a panic under it fails one request, not
// every later one.
use parking_lot::Mutex as SyncMutex;
use tokio::sync::{watch, Mutex};

use crate::accounts::{AccountOptions, Accounts};
use crate::clock::Clock;
use crate::cluster::Cluster;
use crate::error::ApiError;
use crate::games::TableGame;
use crate::hints::HintLimits;
use crate::metrics::Metrics;
use crate::replays::ReplayLimits;
use crate::store::{Store, StoredSeat};
use crate::thinking::Thinking;
use crate::transport::{Rate, RateLimiter};
use crate::wire::{ErrorCode, TableSettings, TableStatus, TableView};

pub use crate::names::{clean_name, MAX_NAME_CHARS};
pub use challenges::ChallengeLimits;
pub use registry::valid_table_id;
pub(crate) use replay::read_settings;
pub use replay::{rebuild_replay, replay_document, replay_game};
pub use views::BuiltView;

use drive::wake_due;

/// A seat as the server keeps it.
#[derive(Clone, Debug)]
pub struct Seat {
    pub stored: StoredSeat,
    /// Open WebSocket connections holding this seat's token.
    pub connections: usize,
    /// The last time the seat's player was seen (a request with their token, or the
    /// end of their last connection); for a seat nobody took yet, when the table was
    /// loaded.
    pub last_seen_ms: i64,
    /// Several nodes: what the others last said of this player (`rumi_presence`).
    pub elsewhere: Elsewhere,
    /// Several nodes: what this node last wrote of this player (when it saw them,
    /// and whether it held a connection), so that it writes only what changed.
    written: Option<(i64, bool)>,
}

/// What the other nodes saw of a seat's player.
#[derive(Clone, Copy, Debug, Default)]
pub struct Elsewhere {
    /// Connections they hold for the player (only those of live nodes).
    pub connections: u64,
    /// The last time one of them saw the player (Unix ms).
    pub seen_ms: Option<i64>,
}

impl Seat {
    fn connected(&self) -> bool {
        self.connections > 0 || self.elsewhere.connections > 0
    }

    /// The last time any node saw the player.
    fn last_seen_anywhere(&self) -> i64 {
        self.elsewhere
            .seen_ms
            .map_or(self.last_seen_ms, |s| s.max(self.last_seen_ms))
    }
}

/// Everything about one table, behind the table's lock.
pub struct TableState {
    pub settings: TableSettings,
    pub seed: u64,
    pub salt: String,
    pub practice: bool,
    pub created_ms: i64,
    pub started_ms: Option<i64>,
    /// When the table was cancelled: a rated table whose seats were not all taken in
    /// time (RT7). Nothing happens at it any more.
    pub cancelled_ms: Option<i64>,
    pub seats: Vec<Seat>,
    pub game: TableGame,
    /// Number of accepted actions.
    pub version: u64,
    /// Counts changes of who plays a seat, so that a bot's move planned before a seat
    /// was taken back is dropped.
    pub seat_epoch: u64,
    /// When the current turn began (the last action, or the start): the turn clock
    /// counts from here, also after a restart.
    pub turn_started_ms: i64,
    /// Once over: the rematch's table id, once a player asked for it ([`rematch`]).
    pub rematch: Option<String>,
    /// The bot seats' bots, kept between their moves, and their trouble.
    bots: bots::SeatBots,
    handover_after_ms: i64,
    /// [`HubOptions::rated_seats_wait`] in ms.
    rated_seats_wait_ms: i64,
    /// How late another node's sighting may be written ([`presence_every_ms`]): a
    /// hand-over waits this much longer after it, to be sure.
    presence_slack_ms: i64,
    clock: Clock,
}

impl TableState {
    /// Notes that the seat's player was just here (a request with their token).
    pub fn seen(&mut self, seat: usize) {
        if let Some(s) = self.seats.get_mut(seat) {
            s.last_seen_ms = self.clock.now_ms();
        }
    }

    /// Human seats nobody has taken yet.
    pub fn waiting_for(&self) -> Vec<usize> {
        self.seats
            .iter()
            .filter(|s| s.stored.bot.is_none() && !s.stored.claimed)
            .map(|s| s.stored.seat)
            .collect()
    }

    pub fn status(&self) -> TableStatus {
        if self.cancelled_ms.is_some() {
            TableStatus::Cancelled
        } else if self.game.is_over() {
            TableStatus::Over
        } else if self.started_ms.is_none() {
            TableStatus::Waiting
        } else {
            TableStatus::Playing
        }
    }

    /// A waiting rated table: when it is cancelled unless every seat is taken (RT7).
    pub fn cancels_at_ms(&self) -> Option<i64> {
        (self.settings.rated && self.started_ms.is_none() && self.cancelled_ms.is_none())
            .then_some(self.created_ms + self.rated_seats_wait_ms)
    }

    /// The table's seconds per turn (RD17, K7): as its settings name them, else the
    /// game's (a preset's clock); `None`: no clock.
    pub fn turn_seconds(&self) -> Option<u32> {
        crate::games::clock::named_turn_seconds(&self.settings)
            .unwrap_or_else(|| self.game.turn_seconds())
    }

    /// Refuses anything at a cancelled table (RT7).
    pub fn check_not_cancelled(&self) -> Result<(), ApiError> {
        match self.cancelled_ms {
            Some(_) => Err(ApiError::conflict(
                ErrorCode::TableCancelled,
                "this rated table was cancelled: its seats were not all taken in time; nothing can be done here any more",
            )),
            None => Ok(()),
        }
    }

    /// When the running turn's clock runs out (Unix ms), if it runs.
    pub fn deadline_ms(&self) -> Option<i64> {
        self.started_ms?;
        self.game.to_move()?;
        self.game
            .turn_seconds()
            .map(|s| self.turn_started_ms + i64::from(s) * 1000)
    }

    /// The names of the seats other than `seat`, which a new name of `seat` must not
    /// look like.
    pub fn other_names(&self, seat: usize) -> impl Iterator<Item = (usize, &str)> {
        self.seats
            .iter()
            .filter(move |s| s.stored.seat != seat)
            .map(|s| (s.stored.seat, s.stored.name.as_str()))
    }

    pub fn names(&self) -> Vec<String> {
        self.seats.iter().map(|s| s.stored.name.clone()).collect()
    }

    /// Whether a person plays at this table (their bot opponents think first).
    fn people_play(&self) -> bool {
        self.seats.iter().any(|s| s.stored.bot.is_none())
    }
}

/// One table: its state and a counter that ticks on every change viewers should see.
pub struct Table {
    pub id: String,
    pub state: Mutex<TableState>,
    pub changes: watch::Sender<u64>,
    /// The views its live sockets share, built once per change ([`views`]).
    views: views::ViewCache,
    /// The last request or change (Unix ms), for choosing which idle tables to drop.
    last_used_ms: AtomicI64,
    /// Drivers (a bot about to move, the clock, a position being written) waiting on
    /// this table.
    drivers: AtomicUsize,
    /// A rated table's position, written off the lock (`positions`).
    pub positions: crate::positions::PositionWriter,
    clock: Clock,
}

/// Counts a driver of a table for as long as it lives.
pub(crate) struct DriverCount(pub(crate) Arc<Table>);

impl DriverCount {
    pub(crate) fn new(table: Arc<Table>) -> DriverCount {
        table.drivers.fetch_add(1, Ordering::SeqCst);
        DriverCount(table)
    }
}

impl Drop for DriverCount {
    fn drop(&mut self) {
        self.0.drivers.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Table {
    /// The table as `seat` (or a spectator) sees it now.
    pub async fn view(&self, seat: Option<usize>) -> TableView {
        self.state.lock().await.view(&self.id, seat)
    }

    fn changed(&self) {
        self.touch();
        self.changes.send_modify(|n| *n += 1);
    }

    fn touch(&self) {
        self.last_used_ms
            .store(self.clock.now_ms(), Ordering::Relaxed);
    }

    /// Neither watched, nor waited on by a driver, nor used within `idle_ms`.
    fn is_idle(&self, now: i64, idle_ms: i64) -> bool {
        self.changes.receiver_count() == 0
            && self.drivers.load(Ordering::SeqCst) == 0
            && now - self.last_used_ms.load(Ordering::Relaxed) >= idle_ms
    }
}

/// How the server runs its tables and what one address may do; the features' limits
/// too (each feature's state is made from them, `app`).
#[derive(Clone, Debug)]
pub struct HubOptions {
    /// Pause before a bot moves, so people can follow the game.
    pub bot_delay: Duration,
    /// How long a player must be away before others may hand their seat to a bot.
    pub handover_after: Duration,
    /// How long a rated table waits for its seats to be taken before it is cancelled
    /// (RT7), counted from its creation.
    pub rated_seats_wait: Duration,
    /// Tables kept in memory before idle ones are dropped (a soft cap: tables with
    /// viewers or a driver about to act stay).
    pub max_loaded_tables: usize,
    /// How long a table must go unused before it counts as idle.
    pub idle_after: Duration,
    /// A turn clock further away than this does not keep its table in memory: the
    /// table may be dropped when idle, and is loaded again this long before the clock
    /// runs out (from its stored `due_ms`).
    pub keep_loaded_ahead: Duration,
    /// Unfinished tables one address may have created (0: no cap).
    pub max_open_tables_per_address: u64,
    /// Tables one address may create per minute (0: no cap).
    pub tables_per_minute_per_address: u32,
    /// Open seats (joined from the lobby) one address may hold at unfinished tables
    /// (0: no cap), so that one client cannot take every open seat.
    pub max_open_seats_per_address: u64,
    /// Open seats one address may hold at one table (0: no cap).
    pub max_open_seats_per_table_per_address: u64,
    /// Unfinished tables of bots only one address may have created (0: no cap): they
    /// cost memory and cores while nobody plays.
    pub max_bot_tables_per_address: u64,
    /// Unfinished tables of bots only on the server, from every address (0: no cap).
    pub max_bot_tables: u64,
    /// How big a seat's bot's search tree may grow, and what it keeps between its
    /// moves (MCTS), so that the memory of kept bots has a ceiling (docs/server-api.md).
    pub bot_trees: play::bots::TreeBound,
    /// Challenges (seats kept for an account at waiting tables) one account may have
    /// open as their creator, and may have waiting for it (0: no cap).
    pub challenges: ChallengeLimits,
    /// The first pause before a failing bot is tried again; each further retry waits
    /// twice as long (then a simpler bot moves for the seat).
    pub bot_retry_after: Duration,
    /// Lets a creator fix the seed also when other people sit at the table (tests
    /// and private servers; the table still says "practice"). Off on public servers.
    pub chosen_seeds_with_people: bool,
    /// Hints: rates per seat and per address, the queue, the Rumis search time.
    pub hints: HintLimits,
    /// Replays: rate per address, the cache's bytes.
    pub replays: ReplayLimits,
    /// Accounts: sign-in limits, password hashing, sessions.
    pub accounts: AccountOptions,
    /// The solo cube: rates per address, the solver's queue.
    pub solo: crate::solo::SoloLimits,
    /// Reviews of finished games: rate per address, the queue, the Rumis budget.
    pub reviews: crate::reviews::ReviewLimits,
    /// The daily Rummikub puzzles: rates per address, the queue, the days kept.
    pub puzzles: crate::puzzles::PuzzleLimits,
    /// The analysis board: rates per address, the queue, the inputs' bounds.
    pub analysis: crate::analysis::AnalysisLimits,
    /// The tutorials: checks per address.
    pub tutorials: crate::tutorial::TutorialLimits,
    /// The time of day (tests give their own: `Clock::manual`).
    pub clock: Clock,
}

impl Default for HubOptions {
    fn default() -> Self {
        HubOptions {
            bot_delay: Duration::from_millis(400),
            handover_after: Duration::from_secs(60),
            rated_seats_wait: Duration::from_secs(600),
            max_loaded_tables: 2000,
            idle_after: Duration::from_secs(10),
            keep_loaded_ahead: Duration::from_secs(5),
            bot_retry_after: Duration::from_secs(1),
            max_open_tables_per_address: 20,
            tables_per_minute_per_address: 10,
            max_open_seats_per_address: 8,
            max_open_seats_per_table_per_address: 1,
            max_bot_tables_per_address: 2,
            max_bot_tables: 20,
            bot_trees: play::bots::TreeBound {
                search_edges: 1 << 20,
                kept_edges: 1 << 14,
            },
            challenges: ChallengeLimits::default(),
            chosen_seeds_with_people: false,
            hints: HintLimits::default(),
            replays: ReplayLimits::default(),
            accounts: AccountOptions::default(),
            solo: crate::solo::SoloLimits::default(),
            reviews: Default::default(),
            puzzles: Default::default(),
            analysis: Default::default(),
            tutorials: Default::default(),
            clock: Clock::system(),
        }
    }
}

/// The core of the server, what every table needs: the tables and their seats, the
/// action log (the store), the drivers, the clock and the bus. The features around
/// it keep their own state (`app`).
pub struct Hub {
    pub store: Store,
    /// Accounts and their sessions (the same database).
    pub accounts: Accounts,
    tables: SyncMutex<HashMap<String, Arc<Table>>>,
    options: HubOptions,
    thinking: Thinking,
    /// Table creations per client address (IPv6 per /64).
    creations: Option<RateLimiter>,
    /// Set when several nodes share the database (leases, NATS news).
    cluster: Option<Arc<Cluster>>,
    metrics: Metrics,
    /// What happened at the tables, for the features that subscribe (`events`).
    events: crate::events::Events,
    /// Stopping: no more drivers, leases handed over.
    draining: AtomicBool,
    /// Several nodes: sightings the database did not take, written again with the
    /// next heartbeat.
    presence_retry: SyncMutex<HashSet<(String, usize)>>,
}

impl Hub {
    /// Opens the hub on a store. It answers at once: the tables whose bot or clock is
    /// due are loaded and resumed in the background, soonest first.
    pub async fn start(
        store: Store,
        options: HubOptions,
        cluster: Option<Arc<Cluster>>,
    ) -> anyhow::Result<Arc<Hub>> {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let per_minute = f64::from(options.tables_per_minute_per_address);
        let creations = (per_minute > 0.0).then(|| {
            RateLimiter::new(Rate {
                per_second: per_minute / 60.0,
                burst: per_minute,
            })
        });
        let node = cluster.as_ref().map_or("single", |c| c.node.as_str());
        let metrics = Metrics::new(node);
        let hub = Arc::new(Hub {
            accounts: Accounts::new(
                store.clone(),
                options.accounts.clone(),
                options.clock.clone(),
            ),
            store,
            tables: SyncMutex::new(HashMap::new()),
            options,
            thinking: Thinking::new(cores),
            creations,
            events: crate::events::Events::new(cluster.clone(), metrics.clone()),
            metrics,
            cluster,
            draining: AtomicBool::new(false),
            presence_retry: SyncMutex::new(HashSet::new()),
        });
        if let Some(cluster) = &hub.cluster {
            // Connections an earlier run of this node held are gone.
            hub.store.presence_closed(&cluster.node, None).await?;
        }
        // With several nodes, the lease loop takes up due tables (cluster::run); alone,
        // the tables due soon now, the others when their time comes ([`wake_due`]).
        let due = if hub.cluster.is_some() {
            Vec::new()
        } else {
            tokio::spawn(wake_due(Arc::downgrade(&hub)));
            hub.store.due_before(hub.now_ms() + hub.ahead_ms()).await?
        };
        results::subscribe(&hub);
        hub.record_left_results();
        if !due.is_empty() {
            tracing::info!("resuming {} tables whose bot or clock is due", due.len());
            let resumer = hub.clone();
            tokio::spawn(async move {
                for (id, _) in due {
                    if let Err(e) = resumer.table(&id).await {
                        tracing::warn!("table {id} does not resume: {e}");
                    }
                    tokio::task::yield_now().await;
                }
            });
        }
        Ok(hub)
    }

    pub fn options(&self) -> &HubOptions {
        &self.options
    }

    /// The server's time of day.
    pub fn clock(&self) -> &Clock {
        &self.options.clock
    }

    /// Now (Unix ms) by the server's clock.
    pub fn now_ms(&self) -> i64 {
        self.options.clock.now_ms()
    }

    /// [`HubOptions::keep_loaded_ahead`] in ms.
    pub fn ahead_ms(&self) -> i64 {
        self.options.keep_loaded_ahead.as_millis() as i64
    }

    /// The cores for CPU-heavy work, shared fairly (`thinking`).
    pub fn thinking(&self) -> &Thinking {
        &self.thinking
    }

    pub fn cluster(&self) -> Option<&Arc<Cluster>> {
        self.cluster.as_ref()
    }

    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// The bus: what happened at the tables (`events`).
    pub fn events(&self) -> &crate::events::Events {
        &self.events
    }

    /// The metrics as text, with the core's gauges read now (`AppState::render_metrics`
    /// reads the features' too).
    pub fn render_metrics(&self) -> String {
        self.metrics.loaded_tables.set(self.loaded_tables() as i64);
        self.metrics.render()
    }

    pub fn is_draining(&self) -> bool {
        self.draining.load(Ordering::SeqCst)
    }

    /// Stops driving tables and hands this node's leases over, so that other nodes
    /// take its tables up at once (a node that shuts down).
    pub async fn drain(&self) {
        self.draining.store(true, Ordering::SeqCst);
        if let Some(cluster) = &self.cluster {
            match self.store.release_leases(&cluster.node).await {
                Ok(n) => tracing::info!("draining: handed over {n} leases"),
                Err(e) => tracing::warn!("draining: leases not released: {e:#}"),
            }
            // Its players were here until now; they reconnect to another node.
            if let Err(e) = self
                .store
                .presence_closed(&cluster.node, Some(self.now_ms()))
                .await
            {
                tracing::warn!("draining: connections not closed: {e:#}");
            }
            cluster.close().await;
        }
    }
}
