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

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex as StdMutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::Value;
use tokio::sync::{watch, Mutex};

use crate::cluster::Cluster;
use crate::error::ApiError;
use crate::fairness;
use crate::games::{self, ActionError, GameView, TableGame};
use crate::hints::{HintLimits, Hints};
use crate::metrics::Metrics;
use crate::replays::{Replay, ReplayLimits, Replays};
use crate::store::{Store, StoredAction, StoredSeat, StoredTable};
use crate::thinking::{Priority, Thinking};
use crate::transport::{client_key, Rate, RateLimiter};
use crate::wire::{
    CreateTableRequest, CreateTableResponse, CreatedSeat, Fairness, GameKind, HintAnswer,
    LobbySeat, LobbyTable, LoggedAction, ReplayAnswer, ResultView, SeatGrant, SeatKind, SeatView,
    TableSettings, TableStatus, TableView,
};

pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

use crate::names::{check_distinct, distinct_default};
pub use crate::names::{clean_name, MAX_NAME_CHARS};

/// `Retry-After` for a client at its cap of unfinished tables.
const OPEN_TABLES_RETRY_AFTER: std::time::Duration = std::time::Duration::from_secs(60);

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
    pub seats: Vec<Seat>,
    pub game: Box<dyn TableGame>,
    /// Number of accepted actions.
    pub version: u64,
    /// Counts changes of who plays a seat, so that a bot's move planned before a seat
    /// was taken back is dropped.
    pub seat_epoch: u64,
    /// When the current turn began (the last action, or the start): the turn clock
    /// counts from here, also after a restart.
    pub turn_started_ms: i64,
    handover_after_ms: i64,
    /// How late another node's sighting may be written ([`presence_every_ms`]): a
    /// hand-over waits this much longer after it, to be sure.
    presence_slack_ms: i64,
}

impl TableState {
    /// The seat a token belongs to. No token: a spectator. A token of no seat: refused.
    /// Only a taken seat has a token; an invite link's token is not one (it only takes
    /// the seat, [`Hub::claim_invite`]), and once used it says that the seat is taken.
    pub fn seat_of(&self, token: Option<&str>) -> Result<Option<usize>, ApiError> {
        let Some(token) = token.filter(|t| !t.is_empty()) else {
            return Ok(None);
        };
        let forged = || {
            ApiError::forbidden(
                "bad_token",
                "this seat token does not belong to any seat at this table",
            )
        };
        if token.len() != 32 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(forged());
        }
        if let Some(seat) = self.seats.iter().position(|s| {
            s.stored.claimed && constant_time_eq(s.stored.token.as_bytes(), token.as_bytes())
        }) {
            return Ok(Some(seat));
        }
        match self.invited_seat(token) {
            Some(seat) if self.seats[seat].stored.claimed => Err(seat_taken(seat)),
            Some(seat) => Err(ApiError::conflict(
                "claim_needed",
                format!(
                    "this is the invite link of seat {}: take the seat with it first (POST …/claim), which answers the seat's own token",
                    seat + 1
                ),
            )),
            None => Err(forged()),
        }
    }

    /// The invited seat whose link carries `token`, taken or not.
    fn invited_seat(&self, token: &str) -> Option<usize> {
        self.seats.iter().position(|s| {
            !s.stored.invite.is_empty()
                && constant_time_eq(s.stored.invite.as_bytes(), token.as_bytes())
        })
    }

    /// Notes that the seat's player was just here (a request with their token).
    pub fn seen(&mut self, seat: usize) {
        if let Some(s) = self.seats.get_mut(seat) {
            s.last_seen_ms = now_ms();
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
        if self.game.is_over() {
            TableStatus::Over
        } else if self.started_ms.is_none() {
            TableStatus::Waiting
        } else {
            TableStatus::Playing
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

    fn fairness(&self) -> Fairness {
        let over = self.game.is_over();
        Fairness {
            commitment: fairness::commitment(self.seed, &self.salt),
            practice_seed: self.practice.then_some(self.seed),
            seed: over.then_some(self.seed),
            salt: over.then(|| self.salt.clone()),
        }
    }

    fn result(&self) -> Option<ResultView> {
        let r = self.game.result()?;
        let names: Vec<&str> = r
            .winners
            .iter()
            .filter_map(|&w| self.seats.get(w).map(|s| s.stored.name.as_str()))
            .collect();
        let text = match names.as_slice() {
            [one] => format!("{one} wins"),
            many => format!("{} share the win", many.join(" and ")),
        };
        Some(ResultView {
            winners: r.winners,
            scores: r.scores,
            text,
        })
    }

    /// When the others may hand a seat to a bot: the hand-over time after any node
    /// last saw its player (another node's sighting may be written late by up to the
    /// slack).
    fn handover_at(&self, seat: &Seat) -> i64 {
        let elsewhere = seat
            .elsewhere
            .seen_ms
            .map_or(i64::MIN, |s| s + self.presence_slack_ms);
        seat.last_seen_ms.max(elsewhere) + self.handover_after_ms
    }

    /// Why another player may not hand `seat` to a bot now, if they may not: its
    /// player is connected (to any node), or was seen within the hand-over time.
    fn handover_refusal(&self, seat: usize, now: i64) -> Option<ApiError> {
        let target = &self.seats[seat];
        if target.connected() {
            return Some(ApiError::conflict(
                "player_present",
                format!(
                    "{} (seat {}) is connected; only they can hand their seat to a bot",
                    target.stored.name,
                    seat + 1
                ),
            ));
        }
        let allowed_ms = self.handover_at(target);
        (now < allowed_ms).then(|| {
            ApiError::conflict(
                "player_not_away_long_enough",
                format!(
                    "{} (seat {}) has been away for {} s; you may hand their seat to a bot in {} s",
                    target.stored.name,
                    seat + 1,
                    (now - target.last_seen_anywhere()).max(0) / 1000,
                    (allowed_ms - now + 999) / 1000
                ),
            )
        })
    }

    fn seat_view(&self, seat: &Seat, now: i64) -> SeatView {
        let stored = &seat.stored;
        let last_seen = seat.last_seen_anywhere();
        let absent = stored.bot.is_none() && !seat.connected() && !self.game.is_over();
        let away = absent && now - last_seen > 5_000;
        SeatView {
            seat: stored.seat,
            name: stored.name.clone(),
            kind: seat_kind(stored),
            bot: stored.bot.clone(),
            claimed: stored.claimed,
            connected: seat.connected(),
            away_since_ms: away.then_some(last_seen),
            handover_ms: absent.then(|| self.handover_at(seat)),
        }
    }

    /// The whole view for a seat, or for a spectator (`None`).
    pub fn view(&self, id: &str, seat: Option<usize>) -> TableView {
        self.view_detail(id, seat, true)
    }

    /// A view without what never changes during the game: the updates a live
    /// connection gets after its first, full view.
    pub fn view_update(&self, id: &str, seat: Option<usize>) -> TableView {
        self.view_detail(id, seat, false)
    }

    fn view_detail(&self, id: &str, seat: Option<usize>, full: bool) -> TableView {
        let now = now_ms();
        let (rumis, rummikub) = match self.game.view(seat, full, &self.names()) {
            GameView::Rumis(v) => (Some(*v), None),
            GameView::Rummikub(v) => (None, Some(*v)),
        };
        TableView {
            id: id.to_string(),
            game: self.settings.game,
            version: self.version,
            you: seat,
            status: self.status(),
            waiting_for: self.waiting_for(),
            seats: self.seats.iter().map(|s| self.seat_view(s, now)).collect(),
            to_move: if self.started_ms.is_some() {
                self.game.to_move()
            } else {
                None
            },
            over: self.game.is_over(),
            deadline_ms: self.deadline_ms(),
            result: self.result(),
            fairness: self.fairness(),
            rumis,
            rummikub,
        }
    }

    /// A line for the lobby's list of tables with open seats.
    pub fn summary(&self, id: &str) -> LobbyTable {
        lobby_line(
            id,
            &self.settings,
            self.created_ms,
            self.seats.iter().map(|s| &s.stored),
        )
    }

    /// Whether a person plays at this table (their bot opponents think first).
    fn people_play(&self) -> bool {
        self.seats.iter().any(|s| s.stored.bot.is_none())
    }
}

fn seat_kind(stored: &StoredSeat) -> SeatKind {
    if stored.bot.is_some() {
        SeatKind::Bot
    } else if stored.open {
        SeatKind::Open
    } else {
        SeatKind::Human
    }
}

fn lobby_line<'a>(
    id: &str,
    settings: &TableSettings,
    created_ms: i64,
    seats: impl Iterator<Item = &'a StoredSeat> + Clone,
) -> LobbyTable {
    let detail = match (&settings.rumis, &settings.rummikub) {
        (Some(rumis), _) => format!(
            "{}, {} players, {}",
            rumis.scenario, rumis.players, rumis.variant
        ),
        (_, Some(rummikub)) => format!(
            "{} rules, {} players, {} round(s)",
            rummikub.rules, settings.players, rummikub.rounds
        ),
        _ => String::new(),
    };
    LobbyTable {
        id: id.to_string(),
        game: settings.game,
        detail,
        settings: settings.clone(),
        created_ms,
        open_seats: seats
            .clone()
            .filter(|s| s.open && !s.claimed && s.bot.is_none())
            .map(|s| s.seat)
            .collect(),
        seats: seats
            .map(|s| LobbySeat {
                seat: s.seat,
                name: s.name.clone(),
                kind: seat_kind(s),
                // Seats never open again once taken: an open seat waits since creation.
                open_since_ms: (s.open && !s.claimed && s.bot.is_none()).then_some(created_ms),
            })
            .collect(),
    }
}

/// One table: its state and a counter that ticks on every change viewers should see.
pub struct Table {
    pub id: String,
    pub state: Mutex<TableState>,
    pub changes: watch::Sender<u64>,
    /// The last request or change (Unix ms), for choosing which idle tables to drop.
    last_used_ms: AtomicI64,
    /// Drivers (a bot about to move, the clock) waiting on this table.
    drivers: AtomicUsize,
}

/// Counts a driver of a table for as long as it lives.
struct DriverCount(Arc<Table>);

impl DriverCount {
    fn new(table: Arc<Table>) -> DriverCount {
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
    fn changed(&self) {
        self.touch();
        self.changes.send_modify(|n| *n += 1);
    }

    fn touch(&self) {
        self.last_used_ms.store(now_ms(), Ordering::Relaxed);
    }

    /// Neither watched, nor waited on by a driver, nor used within `idle_ms`.
    fn is_idle(&self, now: i64, idle_ms: i64) -> bool {
        self.changes.receiver_count() == 0
            && self.drivers.load(Ordering::SeqCst) == 0
            && now - self.last_used_ms.load(Ordering::Relaxed) >= idle_ms
    }
}

/// How the server runs its tables and what one address may do.
#[derive(Clone, Debug)]
pub struct HubOptions {
    /// Pause before a bot moves, so people can follow the game.
    pub bot_delay: Duration,
    /// How long a player must be away before others may hand their seat to a bot.
    pub handover_after: Duration,
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
    /// Lets a creator fix the seed also when other people sit at the table (tests
    /// and private servers; the table still says "practice"). Off on public servers.
    pub chosen_seeds_with_people: bool,
    /// Hints: rates per seat and per address, the queue, the Rumis search time.
    pub hints: HintLimits,
    /// Replays: rate per address, the cache's bytes.
    pub replays: ReplayLimits,
}

impl Default for HubOptions {
    fn default() -> Self {
        HubOptions {
            bot_delay: Duration::from_millis(400),
            handover_after: Duration::from_secs(60),
            max_loaded_tables: 2000,
            idle_after: Duration::from_secs(10),
            keep_loaded_ahead: Duration::from_secs(5),
            max_open_tables_per_address: 20,
            tables_per_minute_per_address: 10,
            max_open_seats_per_address: 8,
            max_open_seats_per_table_per_address: 1,
            chosen_seeds_with_people: false,
            hints: HintLimits::default(),
            replays: ReplayLimits::default(),
        }
    }
}

/// All tables of the server.
pub struct Hub {
    pub store: Store,
    tables: StdMutex<HashMap<String, Arc<Table>>>,
    options: HubOptions,
    thinking: Thinking,
    /// Table creations per client address (IPv6 per /64).
    creations: Option<RateLimiter>,
    /// Set when several nodes share the database (leases, NATS news).
    cluster: Option<Arc<Cluster>>,
    metrics: Metrics,
    hints: Hints,
    replays: Replays,
    /// Stopping: no more drivers, leases handed over.
    draining: AtomicBool,
    /// Several nodes: sightings the database did not take, written again with the
    /// next heartbeat.
    presence_retry: StdMutex<HashSet<(String, usize)>>,
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
        let hub = Arc::new(Hub {
            store,
            tables: StdMutex::new(HashMap::new()),
            hints: Hints::new(options.hints.clone()),
            replays: Replays::new(options.replays.clone()),
            options,
            thinking: Thinking::new(cores),
            creations,
            metrics: Metrics::new(node),
            cluster,
            draining: AtomicBool::new(false),
            presence_retry: StdMutex::new(HashSet::new()),
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
            hub.store.due_before(now_ms() + hub.ahead_ms()).await?
        };
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

    /// [`HubOptions::keep_loaded_ahead`] in ms.
    pub fn ahead_ms(&self) -> i64 {
        self.options.keep_loaded_ahead.as_millis() as i64
    }

    /// Whether the table with this id is in memory now.
    pub fn is_loaded(&self, id: &str) -> bool {
        self.tables.lock().expect("table map lock").contains_key(id)
    }

    /// Whether `table` is still this node's copy (not dropped or replaced meanwhile).
    fn holds(&self, table: &Arc<Table>) -> bool {
        self.tables
            .lock()
            .expect("table map lock")
            .get(&table.id)
            .is_some_and(|t| Arc::ptr_eq(t, table))
    }

    pub fn cluster(&self) -> Option<&Arc<Cluster>> {
        self.cluster.as_ref()
    }

    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// The metrics as text, with the gauges read now.
    pub fn render_metrics(&self) -> String {
        self.metrics.loaded_tables.set(self.loaded_tables() as i64);
        self.metrics.hints_queued.set(self.hints.queued() as i64);
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
                .presence_closed(&cluster.node, Some(now_ms()))
                .await
            {
                tracing::warn!("draining: connections not closed: {e:#}");
            }
            cluster.close().await;
        }
    }

    /// Tells the other nodes that a table changed (no-op on a single node): a new
    /// action, or (`seats`) who sits where.
    async fn announce(&self, table: &Table, version: u64, seats: bool) {
        if let Some(cluster) = &self.cluster {
            cluster.publish(&table.id, version, seats).await;
        }
    }

    /// News from another node: if this node holds the table and is behind, it
    /// catches up.
    pub async fn news(self: &Arc<Self>, id: &str, version: u64, seats: bool) {
        if seats {
            self.replays.forget(id);
        }
        let loaded = self.tables.lock().expect("table map lock").get(id).cloned();
        if let Some(table) = loaded {
            if seats || table.state.lock().await.version < version {
                self.catch_up_with(&table, seats).await;
            }
        }
    }

    /// Another node saw a player of a table come, go, or act: if this node holds the
    /// table, it reads who is present and shows it.
    pub async fn presence_news(self: &Arc<Self>, id: &str) {
        let loaded = self.tables.lock().expect("table map lock").get(id).cloned();
        if let Some(table) = loaded {
            let mut state = table.state.lock().await;
            match self.refresh_presence(&table.id, &mut state).await {
                Ok(true) => table.changed(),
                Ok(false) => {}
                Err(e) => tracing::warn!("table {id}: presence not read: {e:#}"),
            }
        }
    }

    /// Reads what the other nodes saw of a table's players (no-op on a single node);
    /// true if that changed.
    async fn refresh_presence(&self, id: &str, state: &mut TableState) -> anyhow::Result<bool> {
        let Some(cluster) = &self.cluster else {
            return Ok(false);
        };
        // What views show: connected, else since when away (a heartbeat of an open
        // connection changes nothing to show).
        let shown = |e: &Elsewhere| (e.connections > 0, e.seen_ms.filter(|_| e.connections == 0));
        let before: Vec<_> = state.seats.iter().map(|s| shown(&s.elsewhere)).collect();
        let sightings = self.store.presence_of(id, &cluster.node).await?;
        // A connection whose node stopped beating is a dead node's.
        let live_after = now_ms() - cluster.lease_ttl.as_millis() as i64;
        for seat in &mut state.seats {
            seat.elsewhere = Elsewhere::default();
        }
        for sighting in sightings {
            if let Some(seat) = state.seats.get_mut(sighting.seat) {
                if sighting.connections > 0 && sighting.seen_ms > live_after {
                    seat.elsewhere.connections += sighting.connections;
                }
                seat.elsewhere.seen_ms = Some(
                    seat.elsewhere
                        .seen_ms
                        .map_or(sighting.seen_ms, |s| s.max(sighting.seen_ms)),
                );
            }
        }
        Ok(state
            .seats
            .iter()
            .zip(before)
            .any(|(seat, before)| shown(&seat.elsewhere) != before))
    }

    /// The seat's player was seen now (a request with their token, a connection
    /// opening or closing). With several nodes the others learn it through the
    /// database: at once when a connection opens or the last one closes, otherwise
    /// at most every [`presence_every_ms`].
    pub async fn seen_player(&self, id: &str, state: &mut TableState, seat: usize) {
        state.seen(seat);
        self.write_presence(id, state, seat).await;
    }

    /// Writes this node's sighting of a seat's player if the others' picture of it
    /// is out of date (several nodes only).
    async fn write_presence(&self, id: &str, state: &mut TableState, seat: usize) {
        let Some(cluster) = &self.cluster else {
            return;
        };
        let Some(s) = state.seats.get_mut(seat) else {
            return;
        };
        let now = s.last_seen_ms;
        let live = s.connections > 0;
        let stale = match s.written {
            None => true,
            Some((written_ms, written_live)) => {
                written_live != live
                    || (!live && now - written_ms >= presence_every_ms(&self.options))
            }
        };
        if !stale {
            return;
        }
        match self
            .store
            .set_presence(id, seat, &cluster.node, s.connections, now)
            .await
        {
            Ok(()) => {
                s.written = Some((now, live));
                cluster.publish_presence(id, state.version).await;
            }
            Err(e) => {
                tracing::warn!(
                    "table {id}: presence of seat {} not stored: {e:#}",
                    seat + 1
                );
                s.written = None;
                self.presence_retry
                    .lock()
                    .expect("presence retry lock")
                    .insert((id.to_string(), seat));
            }
        }
    }

    /// The heartbeat (several nodes): the players connected here are still here;
    /// sightings the database refused before are written again.
    pub async fn presence_heartbeat(&self, now: i64) {
        let Some(cluster) = &self.cluster else { return };
        if let Err(e) = self.store.presence_heartbeat(&cluster.node, now).await {
            tracing::warn!("presence heartbeat not stored: {e:#}");
        }
        let failed = std::mem::take(&mut *self.presence_retry.lock().expect("presence retry lock"));
        for (id, seat) in failed {
            let loaded = self
                .tables
                .lock()
                .expect("table map lock")
                .get(&id)
                .cloned();
            match loaded {
                Some(table) => {
                    let mut state = table.state.lock().await;
                    self.write_presence(&id, &mut state, seat).await;
                }
                // Dropped from memory: nobody is connected to it here any more.
                None => {
                    if self
                        .store
                        .set_presence(&id, seat, &cluster.node, 0, now)
                        .await
                        .is_err()
                    {
                        self.presence_retry
                            .lock()
                            .expect("presence retry lock")
                            .insert((id, seat));
                    }
                }
            }
        }
    }

    /// Forgets sightings too old to stop any hand-over.
    pub async fn forget_old_presence(&self) {
        let keep_ms = self.options.handover_after.as_millis() as i64 + 3_600_000;
        if let Err(e) = self.store.forget_presence(now_ms() - keep_ms).await {
            tracing::warn!("old presence not forgotten: {e:#}");
        }
    }

    /// Brings a loaded table up to what the database says: actions other nodes
    /// stored, and seats they changed. Viewers are woken when anything changed, and
    /// the table's drivers are planned again.
    pub async fn catch_up(self: &Arc<Self>, table: &Arc<Table>) {
        self.catch_up_with(table, true).await
    }

    /// [`Hub::catch_up`]; the seats only when `seats` (news of an action leaves them).
    async fn catch_up_with(self: &Arc<Self>, table: &Arc<Table>, seats: bool) {
        let mut state = table.state.lock().await;
        let caught_up = if seats {
            self.catch_up_locked(table, &mut state).await
        } else {
            self.catch_up_actions(table, &mut state).await
        };
        match caught_up {
            Ok(true) => {
                table.changed();
                drop(state);
                self.schedule(table.clone());
            }
            Ok(false) => {}
            Err(e) => {
                tracing::warn!("table {} cannot catch up: {e:#}; it is reloaded", table.id);
                drop(state);
                self.forget(&table.id);
            }
        }
    }

    async fn catch_up_locked(&self, table: &Table, state: &mut TableState) -> anyhow::Result<bool> {
        let mut changed = self.catch_up_actions(table, state).await?;
        let (seats, started_ms) = self.store.seats_and_start(&table.id).await?;
        if started_ms != state.started_ms {
            state.started_ms = started_ms;
            if state.version == 0 {
                if let Some(start) = started_ms {
                    state.turn_started_ms = start;
                }
            }
            changed = true;
        }
        for stored in seats {
            if let Some(seat) = state.seats.get_mut(stored.seat) {
                if seat.stored != stored {
                    if seat.stored.bot != stored.bot {
                        state.seat_epoch += 1;
                    }
                    let seat = &mut state.seats[stored.seat];
                    seat.stored = stored;
                    changed = true;
                }
            }
        }
        Ok(changed)
    }

    /// The actions other nodes stored after this copy's version.
    async fn catch_up_actions(
        &self,
        table: &Table,
        state: &mut TableState,
    ) -> anyhow::Result<bool> {
        let actions = self.store.actions_since(&table.id, state.version).await?;
        let mut changed = false;
        for action in &actions {
            if action.version != state.version + 1 {
                anyhow::bail!(
                    "action {} follows version {}",
                    action.version,
                    state.version
                );
            }
            let value: Value = serde_json::from_str(&action.action)?;
            games::replay_action(state.game.as_mut(), action.actor, &value)
                .map_err(|e| anyhow::anyhow!("action {} does not replay: {e}", action.version))?;
            state.version = action.version;
            state.turn_started_ms = action.at_ms;
            changed = true;
        }
        Ok(changed)
    }

    /// Catches up every loaded table (after a NATS reconnect).
    pub async fn catch_up_all(self: &Arc<Self>) {
        let tables: Vec<Arc<Table>> = self
            .tables
            .lock()
            .expect("table map lock")
            .values()
            .cloned()
            .collect();
        for table in tables {
            self.catch_up(&table).await;
        }
    }

    /// Catches up the tables someone watches here (a safety net for lost news).
    pub async fn catch_up_watched(self: &Arc<Self>) {
        let tables: Vec<Arc<Table>> = self
            .tables
            .lock()
            .expect("table map lock")
            .values()
            .filter(|t| t.changes.receiver_count() > 0)
            .cloned()
            .collect();
        for table in tables {
            self.catch_up(&table).await;
            // And who is present elsewhere (a node that died sent no news of it).
            let mut state = table.state.lock().await;
            match self.refresh_presence(&table.id, &mut state).await {
                Ok(true) => table.changed(),
                Ok(false) => {}
                Err(e) => tracing::warn!("table {}: presence not read: {e:#}", table.id),
            }
        }
    }

    /// A table whose lease ran out (its node is gone): take the lease, bring the
    /// table up to date and run its bots and clock here.
    pub async fn take_over(self: &Arc<Self>, id: &str) {
        let Some(cluster) = &self.cluster else { return };
        let now = now_ms();
        let ttl = cluster.lease_ttl.as_millis() as i64;
        match self
            .store
            .acquire_lease(id, &cluster.node, now, now + ttl)
            .await
        {
            Ok((true, from)) => {
                if let Some(from) = from {
                    tracing::info!("table {id}: lease taken over from {from}");
                    self.metrics.lease_takeovers.inc();
                }
                let loaded = self.tables.lock().expect("table map lock").get(id).cloned();
                match loaded {
                    Some(table) => {
                        self.catch_up(&table).await;
                        self.schedule(table);
                    }
                    None => {
                        if let Err(e) = self.table(id).await {
                            tracing::warn!("table {id} cannot be taken over: {e}");
                        }
                    }
                }
            }
            Ok((false, _)) => {}
            Err(e) => tracing::warn!("table {id}: lease not taken: {e:#}"),
        }
    }

    /// Whether this node may drive the table now: always on a single node; with
    /// several, when it holds (or gets) the table's lease.
    async fn may_drive(&self, table: &Table) -> bool {
        if self.is_draining() {
            return false;
        }
        let Some(cluster) = &self.cluster else {
            return true;
        };
        let now = now_ms();
        let ttl = cluster.lease_ttl.as_millis() as i64;
        match self
            .store
            .acquire_lease(&table.id, &cluster.node, now, now + ttl)
            .await
        {
            Ok((held, from)) => {
                if held && from.is_some() {
                    self.metrics.lease_takeovers.inc();
                }
                held
            }
            Err(e) => {
                tracing::warn!("table {}: lease not checked: {e:#}", table.id);
                false
            }
        }
    }

    /// Tables in memory now.
    pub fn loaded_tables(&self) -> usize {
        self.tables.lock().expect("table map lock").len()
    }

    /// Rebuilds a table from the database (configuration, seed, every action),
    /// keeps it in memory and starts its drivers.
    async fn load(self: &Arc<Self>, id: &str) -> Result<Option<Arc<Table>>, ApiError> {
        let Some(stored) = self.store.load(id).await? else {
            return Ok(None);
        };
        let loaded_ms = now_ms();
        let mut table = rebuild(&stored, loaded_ms, &self.options).map_err(|e| {
            tracing::error!("{e:#}");
            ApiError::internal(format!("table {id} cannot be rebuilt"))
        })?;
        self.refresh_presence(id, table.state.get_mut()).await?;
        let table = Arc::new(table);
        let (table, fresh) = {
            let mut tables = self.tables.lock().expect("table map lock");
            let fresh = !tables.contains_key(id);
            let table = tables.entry(id.to_string()).or_insert(table).clone();
            if fresh && tables.len() > self.options.max_loaded_tables {
                let idle_ms = self.options.idle_after.as_millis() as i64;
                evict_idle(&mut tables, self.options.max_loaded_tables, id, idle_ms);
            }
            (table, fresh)
        };
        if fresh {
            self.schedule(table.clone());
        }
        Ok(Some(table))
    }

    /// A table by id, from memory or from the database.
    pub async fn table(self: &Arc<Self>, id: &str) -> Result<Arc<Table>, ApiError> {
        let unknown = || ApiError::not_found("no_table", "there is no such table");
        if !valid_table_id(id) {
            return Err(unknown());
        }
        let cached = self.tables.lock().expect("table map lock").get(id).cloned();
        let table = match cached {
            Some(table) => {
                // Another node may have moved it on without this one hearing of it.
                if self.cluster.is_some() {
                    self.catch_up(&table).await;
                }
                table
            }
            None => self.load(id).await?.ok_or_else(unknown)?,
        };
        table.touch();
        Ok(table)
    }

    /// The hint for `seat` (the requester's own) asked from `from` (see `hints`).
    pub async fn hint(
        &self,
        table: &Arc<Table>,
        seat: usize,
        objective: rummikub::solver::Objective,
        from: IpAddr,
    ) -> Result<HintAnswer, ApiError> {
        self.hints
            .hint(&self.thinking, &self.metrics, table, seat, objective, from)
            .await
    }

    /// A finished game's replay, built once and kept (see `replays`).
    pub async fn replay(&self, id: &str, from: IpAddr) -> Result<Arc<Replay>, ApiError> {
        self.replays.admit(from)?;
        let unknown = || ApiError::not_found("no_table", "there is no such table");
        if !valid_table_id(id) {
            return Err(unknown());
        }
        if let Some(replay) = self.replays.cached(id) {
            self.metrics.replays_cached.inc();
            return Ok(replay);
        }
        let stored = self.store.load(id).await?.ok_or_else(unknown)?;
        if !stored.finished {
            return Err(ApiError::conflict(
                "not_over",
                "the game is still being played; its replay opens when it is over",
            ));
        }
        self.replays
            .build(&self.thinking, &self.metrics, stored)
            .await
    }

    /// Creates a table for the client at `from`. Refusals for too many tables say when
    /// to try again (`Retry-After`).
    pub async fn create(
        self: &Arc<Self>,
        request: CreateTableRequest,
        from: IpAddr,
    ) -> Result<CreateTableResponse, ApiError> {
        let from = client_key(from);
        if let Some(limiter) = &self.creations {
            if let Err(wait) = limiter.check(from) {
                return Err(ApiError::too_many_for(
                    "too_many_tables_per_minute",
                    format!(
                        "you have created {} tables in the last minute; wait a moment",
                        self.options.tables_per_minute_per_address
                    ),
                    wait,
                ));
            }
        }
        let creator = from.to_string();
        let cap = self.options.max_open_tables_per_address;
        if cap > 0 && self.store.open_tables_of(&creator).await? >= cap {
            // Tables end as games finish or are abandoned; no clock says when.
            return Err(ApiError::too_many_for(
                "too_many_open_tables",
                format!("you already have {cap} unfinished tables; finish or leave one first"),
                OPEN_TABLES_RETRY_AFTER,
            ));
        }
        let seats = &request.seats;
        let settings = TableSettings {
            game: request.game,
            rumis: request.rumis.clone(),
            rummikub: request.rummikub.clone(),
            players: seats.len(),
        };
        // The settings first: a bad scenario is the first thing to say.
        let game = games::new_game(&settings, fairness::secure_seed())
            .map_err(|e| ApiError::bad_request("bad_settings", e))?;
        if seats.len() != game.seat_count() {
            return Err(ApiError::bad_request(
                "bad_seats",
                format!(
                    "this game has {} seats, but {} were given",
                    game.seat_count(),
                    seats.len()
                ),
            ));
        }
        let creator_seat = match request.creator_seat {
            Some(seat) if seats.get(seat).map(|s| s.kind) != Some(SeatKind::Human) => {
                return Err(ApiError::bad_request(
                    "bad_creator_seat",
                    format!(
                        "the creator's seat {} must be one of the table's human seats",
                        seat + 1
                    ),
                ))
            }
            Some(seat) => Some(seat),
            None => seats.iter().position(|s| s.kind == SeatKind::Human),
        };
        let practice = request.seed.is_some();
        if let Some(seed) = request.seed {
            let others_human = seats
                .iter()
                .enumerate()
                .any(|(i, s)| s.kind != SeatKind::Bot && Some(i) != creator_seat);
            if others_human && !self.options.chosen_seeds_with_people {
                return Err(ApiError::bad_request(
                    "seed_not_allowed",
                    "a fixed seed is only for practice tables, where every other seat is a bot; \
                     with other people the server draws the deal",
                ));
            }
            if seed >= fairness::SEED_LIMIT {
                return Err(ApiError::bad_request(
                    "bad_seed",
                    "a seed is a whole number below 2^53",
                ));
            }
        }
        let seed = request.seed.unwrap_or_else(fairness::secure_seed);
        // The names asked for must differ; then each default steps aside from them.
        let mut names: Vec<Option<String>> = Vec::new();
        for (index, request) in seats.iter().enumerate() {
            let name = clean_name(request.name.as_deref())?;
            if let Some(name) = &name {
                let earlier = names.iter().enumerate();
                check_distinct(name, earlier.filter_map(|(i, n)| Some((i, n.as_deref()?))))
                    .map_err(|e| ApiError {
                        message: format!("seat {}: {}", index + 1, e.message),
                        ..e
                    })?;
            }
            names.push(name);
        }
        let mut taken: Vec<String> = names.iter().flatten().cloned().collect();
        let mut stored_seats = Vec::new();
        for (index, request) in seats.iter().enumerate() {
            let bot = match request.kind {
                SeatKind::Bot => {
                    let bot = request.bot.clone().unwrap_or_else(|| "random".into());
                    check_bot(settings.game, &bot)?;
                    Some(bot)
                }
                _ if request.bot.is_some() => {
                    return Err(ApiError::bad_request(
                        "bad_seats",
                        format!("seat {}: only a bot seat names a bot", index + 1),
                    ))
                }
                _ => None,
            };
            let name = match (names[index].take(), &bot) {
                (Some(name), _) => name,
                (None, bot) => {
                    let base = match bot {
                        Some(bot) => format!("{bot} bot"),
                        None => format!("Player {}", index + 1),
                    };
                    let name = distinct_default(base, &taken);
                    taken.push(name.clone());
                    name
                }
            };
            let invited = request.kind == SeatKind::Human && Some(index) != creator_seat;
            stored_seats.push(StoredSeat {
                seat: index,
                name,
                bot,
                token: fairness::new_secret(),
                claimed: Some(index) == creator_seat,
                open: request.kind == SeatKind::Open,
                invite: if invited {
                    fairness::new_secret()
                } else {
                    String::new()
                },
                joiner: String::new(),
            });
        }
        let now = now_ms();
        let waiting = stored_seats.iter().any(|s| s.bot.is_none() && !s.claimed);
        let id = format!("t{}", &fairness::new_secret()[..12]);
        let stored = StoredTable {
            id: id.clone(),
            config: serde_json::to_string(&settings)
                .map_err(|e| ApiError::internal(e.to_string()))?,
            seed,
            salt: fairness::new_secret(),
            practice,
            created_ms: now,
            started_ms: (!waiting).then_some(now),
            creator,
            finished: false,
            seats: stored_seats.clone(),
            actions: Vec::new(),
        };
        self.store.create_table(&stored).await?;
        let table = Arc::new(
            rebuild(&stored, now, &self.options)
                .map_err(|e| ApiError::internal(format!("the new table cannot be built: {e}")))?,
        );
        {
            let mut tables = self.tables.lock().expect("table map lock");
            tables.insert(id.clone(), table.clone());
            if tables.len() > self.options.max_loaded_tables {
                let idle_ms = self.options.idle_after.as_millis() as i64;
                evict_idle(&mut tables, self.options.max_loaded_tables, &id, idle_ms);
            }
        }
        self.schedule(table);
        let link = |token: &str| format!("/t/{id}#token={token}");
        Ok(CreateTableResponse {
            you: creator_seat.map(|seat| SeatGrant {
                seat,
                name: stored_seats[seat].name.clone(),
                token: stored_seats[seat].token.clone(),
                url: link(&stored_seats[seat].token),
            }),
            seats: stored_seats
                .iter()
                .map(|s| CreatedSeat {
                    seat: s.seat,
                    name: s.name.clone(),
                    kind: seat_kind(s),
                    bot: s.bot.clone(),
                    invite: (!s.invite.is_empty()).then(|| link(&s.invite)),
                })
                .collect(),
            spectator: format!("/t/{id}"),
            commitment: fairness::commitment(seed, &stored.salt),
            practice_seed: practice.then_some(seed),
            id,
        })
    }

    /// Tables with a seat open to anyone, newest first (at most 50).
    pub async fn open_tables(&self) -> Result<Vec<LobbyTable>, ApiError> {
        // The database holds every seat change before memory does: one query answers.
        let mut out = Vec::new();
        for stored in self.store.lobby(50).await? {
            let settings = read_settings(&stored.config, stored.seats.len())
                .map_err(|e| ApiError::internal(e.to_string()))?;
            let line = lobby_line(
                &stored.id,
                &settings,
                stored.created_ms,
                stored.seats.iter(),
            );
            if !line.open_seats.is_empty() {
                out.push(line);
            }
        }
        Ok(out)
    }

    /// The one path of every client's action: version check, seat check, rules,
    /// database, then viewers.
    pub async fn submit(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: usize,
        version: Option<u64>,
        action: &Value,
    ) -> Result<u64, ApiError> {
        let started = std::time::Instant::now();
        let mut state = table.state.lock().await;
        if self.cluster.is_some() && version.is_some_and(|v| v > state.version) {
            // Another node stored newer actions than this copy has heard of.
            if self
                .catch_up_locked(table, &mut state)
                .await
                .unwrap_or(false)
            {
                table.changed();
            }
        }
        check_version(&state, version)?;
        if state.started_ms.is_none() {
            return Err(not_started(&state));
        }
        self.seen_player(&table.id, &mut state, seat).await;
        if let Some(bot) = state.seats.get(seat).and_then(|s| s.stored.bot.clone()) {
            return Err(ApiError::conflict(
                "seat_is_bot",
                format!(
                    "seat {} is played by the {bot} bot; take your seat back to play it yourself",
                    seat + 1
                ),
            ));
        }
        let mut game = state.game.clone();
        let canonical = game.apply(seat, action)?;
        let version = self
            .commit(table, &mut state, game, Some(seat), canonical)
            .await?;
        self.metrics
            .action_latency
            .observe(started.elapsed().as_secs_f64());
        Ok(version)
    }

    /// Writes an action that the rules accepted on `game` (a copy of the table's
    /// game), then shows it: the database first, so nobody sees what was not stored.
    async fn commit(
        self: &Arc<Self>,
        table: &Arc<Table>,
        state: &mut TableState,
        game: Box<dyn TableGame>,
        actor: Option<usize>,
        canonical: Value,
    ) -> Result<u64, ApiError> {
        let at_ms = now_ms();
        let stored = StoredAction {
            version: state.version + 1,
            actor,
            action: canonical.to_string(),
            at_ms,
        };
        let old_game = std::mem::replace(&mut state.game, game);
        let old_turn = std::mem::replace(&mut state.turn_started_ms, at_ms);
        let due = due_ms(state, &self.options);
        if let Err(e) = self
            .store
            .append_action(&table.id, &stored, state.game.is_over(), due)
            .await
        {
            state.game = old_game;
            state.turn_started_ms = old_turn;
            // Another copy of this table (another node, or a copy dropped and loaded
            // again) wrote this version first: catch up, and the action is stale.
            if self.store.action_count(&table.id).await.ok() != Some(state.version) {
                let made_on = state.version;
                match self.catch_up_locked(table, state).await {
                    Ok(_) => {
                        table.changed();
                        self.schedule(table.clone());
                    }
                    Err(_) => self.forget(&table.id),
                }
                return Err(stale(made_on, state.version));
            }
            return Err(e.into());
        }
        state.version = stored.version;
        self.metrics.actions.inc();
        table.changed();
        self.announce(table, state.version, false).await;
        self.schedule(table.clone());
        Ok(state.version)
    }

    fn forget(&self, id: &str) {
        self.tables.lock().expect("table map lock").remove(id);
    }

    /// Hands a seat to a bot: your own seat at any time, another player's once they
    /// have been away for [`HubOptions::handover_after`]; never on a finished table.
    pub async fn hand_to_bot(
        self: &Arc<Self>,
        table: &Arc<Table>,
        token: Option<&str>,
        seat: usize,
        bot: &str,
    ) -> Result<(), ApiError> {
        let mut state = table.state.lock().await;
        let caller = state.seat_of(token)?.ok_or_else(|| {
            ApiError::forbidden(
                "token_needed",
                "only a player at this table can hand a seat to a bot",
            )
        })?;
        check_bot(state.settings.game, bot)?;
        if state.game.is_over() {
            return Err(ApiError::conflict("game_over", "the game is over"));
        }
        self.seen_player(&table.id, &mut state, caller).await;
        let target = state.seats.get(seat).ok_or_else(|| {
            ApiError::not_found("no_seat", format!("there is no seat {}", seat + 1))
        })?;
        if let Some(current) = &target.stored.bot {
            return Err(ApiError::conflict(
                "seat_is_bot",
                format!("seat {} is already played by the {current} bot", seat + 1),
            ));
        }
        if caller != seat {
            // Another node may see the player: ask the database what they all saw.
            self.refresh_presence(&table.id, &mut state).await?;
            if let Some(refusal) = state.handover_refusal(seat, now_ms()) {
                return Err(refusal);
            }
        }
        let mut updated = state.seats[seat].stored.clone();
        updated.bot = Some(bot.to_string());
        match &self.cluster {
            Some(cluster) if caller != seat => {
                // Checked again in the same statement as the change: a player who
                // came back on another node meanwhile keeps their seat.
                let now = now_ms();
                let seen_after = now - state.handover_after_ms - state.presence_slack_ms;
                let live_after = now - cluster.lease_ttl.as_millis() as i64;
                if !self
                    .store
                    .hand_seat_to_bot(&table.id, seat, bot, seen_after, live_after)
                    .await?
                {
                    self.refresh_presence(&table.id, &mut state).await?;
                    let _ = self.catch_up_locked(table, &mut state).await;
                    table.changed();
                    return Err(state
                        .handover_refusal(seat, now_ms())
                        .or_else(|| {
                            let s = &state.seats[seat];
                            s.stored.bot.as_ref().map(|current| {
                                ApiError::conflict(
                                    "seat_is_bot",
                                    format!(
                                        "seat {} is already played by the {current} bot",
                                        seat + 1
                                    ),
                                )
                            })
                        })
                        .unwrap_or_else(|| {
                            ApiError::conflict(
                                "player_not_away_long_enough",
                                format!(
                                    "seat {} was just seen on another server; try again later",
                                    seat + 1
                                ),
                            )
                        }));
                }
            }
            _ => self.store.update_seat(&table.id, &updated).await?,
        }
        state.seats[seat].stored = updated;
        state.seat_epoch += 1;
        if !self.start_if_ready(table, &mut state).await? {
            self.store
                .set_due(&table.id, due_ms(&state, &self.options))
                .await?;
        }
        table.changed();
        self.announce(table, state.version, true).await;
        drop(state);
        self.schedule(table.clone());
        Ok(())
    }

    /// Renames your own seat (an invitee says who they are before sitting down).
    pub async fn rename(
        self: &Arc<Self>,
        table: &Arc<Table>,
        token: Option<&str>,
        seat: usize,
        name: &str,
    ) -> Result<(), ApiError> {
        let name = clean_name(Some(name))?.ok_or_else(|| {
            ApiError::bad_request("bad_name", "a name needs at least one character")
        })?;
        let mut state = table.state.lock().await;
        if state.seat_of(token)? != Some(seat) {
            return Err(ApiError::forbidden(
                "not_your_seat",
                format!("only the player of seat {} can rename it", seat + 1),
            ));
        }
        check_distinct(&name, state.other_names(seat))?;
        let mut updated = state.seats[seat].stored.clone();
        updated.name = name;
        self.store.update_seat(&table.id, &updated).await?;
        state.seats[seat].stored = updated;
        self.seen_player(&table.id, &mut state, seat).await;
        // The names show in every step of the replay.
        self.replays.forget(&table.id);
        table.changed();
        self.announce(table, state.version, true).await;
        Ok(())
    }

    /// Gives a seat that was handed to a bot back to its owner (the seat's token).
    pub async fn take_back(
        self: &Arc<Self>,
        table: &Arc<Table>,
        token: Option<&str>,
        seat: usize,
    ) -> Result<(), ApiError> {
        let mut state = table.state.lock().await;
        let caller = state.seat_of(token)?;
        if caller != Some(seat) {
            return Err(ApiError::forbidden(
                "not_your_seat",
                format!("only the owner of seat {} can take it back", seat + 1),
            ));
        }
        if state.game.is_over() {
            return Err(ApiError::conflict("game_over", "the game is over"));
        }
        if state.seats[seat].stored.bot.is_none() {
            return Err(ApiError::conflict(
                "seat_not_bot",
                format!("seat {} is not played by a bot", seat + 1),
            ));
        }
        let mut updated = state.seats[seat].stored.clone();
        updated.bot = None;
        updated.claimed = true;
        self.store.update_seat(&table.id, &updated).await?;
        state.seats[seat].stored = updated;
        self.seen_player(&table.id, &mut state, seat).await;
        state.seat_epoch += 1;
        self.store
            .set_due(&table.id, due_ms(&state, &self.options))
            .await?;
        table.changed();
        self.announce(table, state.version, true).await;
        drop(state);
        self.schedule(table.clone());
        Ok(())
    }

    /// Takes an open seat for a person who joins from the lobby at `from`, with a
    /// fresh token; one address holds at most
    /// [`HubOptions::max_open_seats_per_table_per_address`] open seats at a table and
    /// [`HubOptions::max_open_seats_per_address`] at unfinished tables.
    pub async fn join(
        self: &Arc<Self>,
        table: &Arc<Table>,
        name: Option<&str>,
        wanted: Option<usize>,
        from: IpAddr,
    ) -> Result<SeatGrant, ApiError> {
        let name = clean_name(name)?;
        let joiner = client_key(from).to_string();
        let mut state = table.state.lock().await;
        if state.game.is_over() {
            return Err(ApiError::conflict("game_over", "the game is over"));
        }
        let open: Vec<usize> = state
            .seats
            .iter()
            .filter(|s| s.stored.open && !s.stored.claimed && s.stored.bot.is_none())
            .map(|s| s.stored.seat)
            .collect();
        let seat = match wanted {
            Some(seat) if open.contains(&seat) => seat,
            Some(seat) => {
                return Err(ApiError::conflict(
                    "seat_not_open",
                    format!("seat {} is not open to join", seat + 1),
                ))
            }
            None => *open.first().ok_or_else(|| {
                ApiError::conflict("no_open_seat", "no seat at this table is open to join")
            })?,
        };
        let per_table = self.options.max_open_seats_per_table_per_address;
        let here: Vec<usize> = state
            .seats
            .iter()
            .filter(|s| s.stored.joiner == joiner)
            .map(|s| s.stored.seat + 1)
            .collect();
        if per_table > 0 && here.len() as u64 >= per_table {
            return Err(ApiError::conflict(
                "already_seated",
                format!(
                    "your address already holds seat {} of this table; one address takes at most {per_table} open seat(s) of a table",
                    here.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", ")
                ),
            ));
        }
        let cap = self.options.max_open_seats_per_address;
        if cap > 0 && self.store.open_seats_of(&joiner).await? >= cap {
            return Err(ApiError::conflict(
                "too_many_seats",
                format!(
                    "your address already holds {cap} open seats at unfinished tables; finish a game or hand a seat to a bot first"
                ),
            ));
        }
        let mut updated = state.seats[seat].stored.clone();
        updated.claimed = true;
        updated.token = fairness::new_secret();
        updated.joiner = joiner;
        if let Some(name) = name {
            check_distinct(&name, state.other_names(seat))?;
            updated.name = name;
        }
        if !self.store.take_seat(&table.id, &updated).await? {
            // Taken a moment ago through another node.
            let _ = self.catch_up_locked(table, &mut state).await;
            return Err(ApiError::conflict(
                "seat_not_open",
                format!("seat {} was just taken", seat + 1),
            ));
        }
        state.seats[seat].stored = updated.clone();
        self.seen_player(&table.id, &mut state, seat).await;
        self.start_if_ready(table, &mut state).await?;
        table.changed();
        self.announce(table, state.version, true).await;
        drop(state);
        self.schedule(table.clone());
        Ok(SeatGrant {
            seat,
            name: updated.name,
            url: format!("/t/{}#token={}", table.id, updated.token),
            token: updated.token,
        })
    }

    /// Takes an invited seat with its invite link's token: the link is spent, and the
    /// seat gets a new token that only this answer carries (the creator, who had the
    /// link, cannot play the seat). Of two uses of one link, also on two nodes, exactly
    /// one gets the seat; the other hears that the seat is taken. Starts the game once
    /// every human seat is taken.
    pub async fn claim_invite(
        self: &Arc<Self>,
        table: &Arc<Table>,
        invite: Option<&str>,
        name: Option<&str>,
    ) -> Result<SeatGrant, ApiError> {
        let name = clean_name(name)?;
        let invite = invite.filter(|t| !t.is_empty()).ok_or_else(|| {
            ApiError::forbidden(
                "token_needed",
                "taking an invited seat needs the invite link's token",
            )
        })?;
        let mut state = table.state.lock().await;
        let Some(seat) = state.invited_seat(invite) else {
            // A seat's own token is no invite; anything else is forged.
            state.seat_of(Some(invite))?;
            return Err(ApiError::forbidden(
                "not_an_invite",
                "this token is a seat's own token, not an invite link; open the table with it",
            ));
        };
        if state.seats[seat].stored.claimed {
            return Err(seat_taken(seat));
        }
        let mut updated = state.seats[seat].stored.clone();
        updated.claimed = true;
        updated.token = fairness::new_secret();
        if let Some(name) = name {
            check_distinct(&name, state.other_names(seat))?;
            updated.name = name;
        }
        if !self.store.claim_invite(&table.id, &updated).await? {
            // The link was used a moment ago through another node.
            if self
                .catch_up_locked(table, &mut state)
                .await
                .unwrap_or(false)
            {
                table.changed();
            }
            return Err(seat_taken(seat));
        }
        state.seats[seat].stored = updated.clone();
        self.seen_player(&table.id, &mut state, seat).await;
        let started = self.start_if_ready(table, &mut state).await?;
        table.changed();
        self.announce(table, state.version, true).await;
        drop(state);
        if started {
            self.schedule(table.clone());
        }
        Ok(SeatGrant {
            seat,
            name: updated.name,
            url: format!("/t/{}#token={}", table.id, updated.token),
            token: updated.token,
        })
    }

    /// Starts a waiting table once no human seat is free; true if it started now.
    async fn start_if_ready(
        &self,
        table: &Arc<Table>,
        state: &mut TableState,
    ) -> Result<bool, ApiError> {
        if state.started_ms.is_some() || !state.waiting_for().is_empty() {
            return Ok(false);
        }
        let now = now_ms();
        self.store.set_started(&table.id, now).await?;
        state.started_ms = Some(now);
        state.turn_started_ms = now;
        self.store
            .set_due(&table.id, due_ms(state, &self.options))
            .await?;
        Ok(true)
    }

    /// Starts the driver for the table's next server-side action, if any: a bot's
    /// move, the next round at an all-bot table, or the turn clock (K7). Every driver
    /// acts on the version (and seats) it saw; if anything changed first, it drops out.
    pub fn schedule(self: &Arc<Self>, table: Arc<Table>) {
        let hub = self.clone();
        let count = DriverCount::new(table.clone());
        tokio::spawn(async move {
            let mut count = Some(count);
            let (version, epoch, plan, priority) = {
                let state = table.state.lock().await;
                let priority = if state.people_play() {
                    Priority::People
                } else {
                    Priority::BotsOnly
                };
                (state.version, state.seat_epoch, plan(&state), priority)
            };
            let current =
                |state: &TableState| state.version == version && state.seat_epoch == epoch;
            if !matches!(plan, Plan::Nothing) && !hub.may_drive(&table).await {
                return;
            }
            match plan {
                Plan::Nothing => {}
                Plan::Bot { seat, bot } => {
                    tokio::time::sleep(hub.options.bot_delay).await;
                    let (game, seed) = {
                        let state = table.state.lock().await;
                        if !current(&state) {
                            return;
                        }
                        let seed = fairness::bot_seed(&state.salt, version);
                        (state.game.clone(), seed)
                    };
                    let bot_name = bot.clone();
                    let action = hub
                        .thinking
                        .run(priority, move || game.bot_action(&bot_name, seat, seed))
                        .await
                        .ok()
                        .flatten();
                    let Some(action) = action else {
                        tracing::warn!(
                            "table {}: the {bot} bot found no action for seat {}",
                            table.id,
                            seat + 1
                        );
                        return;
                    };
                    hub.drive(&table, |state| {
                        if !current(state) {
                            return None;
                        }
                        let mut game = state.game.clone();
                        Some(game.apply(seat, &action).map(|c| (game, Some(seat), c)))
                    })
                    .await;
                }
                Plan::NextRound => {
                    tokio::time::sleep(hub.options.bot_delay).await;
                    hub.drive(&table, |state| {
                        if !current(state) {
                            return None;
                        }
                        let mut game = state.game.clone();
                        Some(game.next_round().map(|c| (game, Some(0), c)))
                    })
                    .await;
                }
                Plan::Clock { deadline_ms } => {
                    let far = deadline_ms - hub.ahead_ms() - now_ms();
                    let table = if far > 0 {
                        // Far away: the table may leave memory meanwhile (then this
                        // driver stops, and the copy loaded again in time drives it);
                        // meanwhile the driver does not hold it there.
                        let weak = Arc::downgrade(&table);
                        drop(count.take());
                        drop(table);
                        tokio::time::sleep(Duration::from_millis(far as u64)).await;
                        let Some(table) = weak.upgrade() else { return };
                        if !hub.holds(&table) {
                            return;
                        }
                        count = Some(DriverCount::new(table.clone()));
                        table
                    } else {
                        table
                    };
                    let wait = (deadline_ms - now_ms()).max(0) as u64;
                    tokio::time::sleep(Duration::from_millis(wait)).await;
                    if !hub.holds(&table) {
                        return;
                    }
                    hub.drive(&table, |state| {
                        if !current(state) {
                            return None;
                        }
                        let mut game = state.game.clone();
                        Some(game.time_out().map(|c| (game, None, c)))
                    })
                    .await;
                }
            }
            drop(count);
        });
    }

    /// A server-side action: `act` returns `None` when the table moved on meanwhile.
    async fn drive(
        self: &Arc<Self>,
        table: &Arc<Table>,
        act: impl FnOnce(
            &TableState,
        )
            -> Option<Result<(Box<dyn TableGame>, Option<usize>, Value), ActionError>>,
    ) {
        let mut state = table.state.lock().await;
        match act(&state) {
            None => {}
            Some(Err(e)) => tracing::warn!("table {}: server action refused: {e}", table.id),
            Some(Ok((game, actor, canonical))) => {
                if let Err(e) = self.commit(table, &mut state, game, actor, canonical).await {
                    tracing::warn!("table {}: server action not stored: {e}", table.id);
                }
            }
        }
    }

    /// Counts a viewer's connection on a seat (shown as "connected").
    pub async fn connect(&self, table: &Arc<Table>, seat: Option<usize>, delta: isize) {
        self.metrics.websockets.add(delta as i64);
        if let Some(seat) = seat {
            let mut state = table.state.lock().await;
            if let Some(s) = state.seats.get_mut(seat) {
                s.connections = s.connections.saturating_add_signed(delta);
            }
            self.seen_player(&table.id, &mut state, seat).await;
            table.changed();
        }
    }
}

/// Alone on its database, a node loads the tables whose clock comes within
/// [`HubOptions::keep_loaded_ahead`] (dropped from memory while it was far away) so
/// that it runs out on time. Ends with the hub.
async fn wake_due(hub: std::sync::Weak<Hub>) {
    let period = {
        let Some(hub) = hub.upgrade() else { return };
        (hub.options.keep_loaded_ahead / 2).clamp(Duration::from_millis(50), Duration::from_secs(1))
    };
    // The due time each table was last woken for: a table whose driver did not act
    // (and so kept its due time) is not loaded again and again.
    let mut woken: HashMap<String, i64> = HashMap::new();
    loop {
        tokio::time::sleep(period).await;
        let Some(hub) = hub.upgrade() else { return };
        if hub.is_draining() {
            continue;
        }
        let due = match hub.store.due_before(now_ms() + hub.ahead_ms()).await {
            Ok(due) => due,
            Err(e) => {
                tracing::warn!("cannot look for due tables: {e:#}");
                continue;
            }
        };
        let mut now_woken = HashMap::with_capacity(due.len());
        for (id, due_ms) in due {
            if woken.get(&id) != Some(&due_ms) && !hub.is_loaded(&id) {
                if let Err(e) = hub.table(&id).await {
                    tracing::warn!("table {id} does not wake: {e}");
                }
            }
            now_woken.insert(id, due_ms);
        }
        woken = now_woken;
    }
}

enum Plan {
    Nothing,
    Bot { seat: usize, bot: String },
    NextRound,
    Clock { deadline_ms: i64 },
}

fn plan(state: &TableState) -> Plan {
    if state.game.is_over() || state.started_ms.is_none() {
        return Plan::Nothing;
    }
    if let Some(seat) = state.game.to_move() {
        if let Some(bot) = &state.seats[seat].stored.bot {
            return Plan::Bot {
                seat,
                bot: bot.clone(),
            };
        }
        if let Some(deadline_ms) = state.deadline_ms() {
            return Plan::Clock { deadline_ms };
        }
        return Plan::Nothing;
    }
    if state.game.awaits_next_round() && !state.people_play() {
        return Plan::NextRound;
    }
    Plan::Nothing
}

/// When the server must next act at the table, for the database (restarts resume
/// exactly the tables that are due).
fn due_ms(state: &TableState, options: &HubOptions) -> Option<i64> {
    match plan(state) {
        Plan::Nothing => None,
        Plan::Bot { .. } | Plan::NextRound => Some(now_ms() + options.bot_delay.as_millis() as i64),
        Plan::Clock { deadline_ms } => Some(deadline_ms),
    }
}

/// Several nodes: how often at most a node writes that it saw a seat's player
/// (requests without a connection; a connection opening or closing is written at
/// once, and an open one is kept fresh by the heartbeat).
fn presence_every_ms(options: &HubOptions) -> i64 {
    (options.handover_after.as_millis() as i64 / 4).clamp(0, 3_000)
}

/// Drops idle tables (no viewer, no driver, unused lately), least recently used
/// first, until at most `cap` are loaded; never `keep`.
fn evict_idle(tables: &mut HashMap<String, Arc<Table>>, cap: usize, keep: &str, idle_ms: i64) {
    let now = now_ms();
    let mut idle: Vec<(i64, String)> = tables
        .iter()
        .filter(|(id, t)| id.as_str() != keep && t.is_idle(now, idle_ms))
        .map(|(id, t)| (t.last_used_ms.load(Ordering::Relaxed), id.clone()))
        .collect();
    idle.sort();
    let excess = tables.len().saturating_sub(cap);
    for (_, id) in idle.into_iter().take(excess) {
        tables.remove(&id);
    }
}

fn check_version(state: &TableState, version: Option<u64>) -> Result<(), ApiError> {
    match version {
        Some(v) if v != state.version => Err(stale(v, state.version)),
        _ => Ok(()),
    }
}

fn stale(made_on: u64, now: u64) -> ApiError {
    ApiError::conflict(
        "stale",
        format!(
            "stale action: it was made on version {made_on}, the table is at version {now}; reload and try again"
        ),
    )
}

/// An invite link used after its seat was taken.
fn seat_taken(seat: usize) -> ApiError {
    ApiError::conflict(
        "seat_taken",
        format!(
            "this seat is taken: the invite link of seat {} was used already, and it no longer opens the seat",
            seat + 1
        ),
    )
}

fn not_started(state: &TableState) -> ApiError {
    let names: Vec<String> = state
        .waiting_for()
        .iter()
        .map(|&s| format!("{} (seat {})", state.seats[s].stored.name, s + 1))
        .collect();
    ApiError::conflict(
        "not_started",
        format!("the game has not started: waiting for {}", names.join(", ")),
    )
}

fn check_bot(game: GameKind, bot: &str) -> Result<(), ApiError> {
    if games::is_bot(game, bot) {
        Ok(())
    } else {
        let known: Vec<&str> = games::bots(game).map(|b| b.spec).collect();
        Err(ApiError::bad_request(
            "unknown_bot",
            format!(
                "unknown {} bot `{}` (bots: {})",
                game.name(),
                bot.chars().take(40).collect::<String>(),
                known.join(", ")
            ),
        ))
    }
}

/// Table ids are `t` and 12 hex digits; anything else is not looked up.
pub fn valid_table_id(id: &str) -> bool {
    id.len() == 13 && id.starts_with('t') && id[1..].bytes().all(|b| b.is_ascii_hexdigit())
}

/// Compares secrets in time independent of where they differ.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A table's state from its stored configuration and action log.
fn rebuild(stored: &StoredTable, loaded_ms: i64, options: &HubOptions) -> anyhow::Result<Table> {
    let settings: TableSettings = read_settings(&stored.config, stored.seats.len())?;
    let mut game = games::new_game(&settings, stored.seed).map_err(anyhow::Error::msg)?;
    let mut turn_started_ms = stored.started_ms.unwrap_or(stored.created_ms);
    for action in &stored.actions {
        let value: Value = serde_json::from_str(&action.action)?;
        games::replay_action(game.as_mut(), action.actor, &value).map_err(|e| {
            anyhow::anyhow!(
                "table {}: stored action {} ({}) no longer replays: {e}",
                stored.id,
                action.version,
                action.action
            )
        })?;
        turn_started_ms = action.at_ms;
    }
    let state = TableState {
        settings,
        seed: stored.seed,
        salt: stored.salt.clone(),
        practice: stored.practice,
        created_ms: stored.created_ms,
        started_ms: stored.started_ms,
        seats: stored
            .seats
            .iter()
            .map(|s| Seat {
                stored: s.clone(),
                connections: 0,
                last_seen_ms: loaded_ms,
                elsewhere: Elsewhere::default(),
                written: None,
            })
            .collect(),
        game,
        version: stored.actions.len() as u64,
        seat_epoch: 0,
        turn_started_ms,
        handover_after_ms: options.handover_after.as_millis() as i64,
        presence_slack_ms: presence_every_ms(options),
    };
    Ok(Table {
        id: stored.id.clone(),
        state: Mutex::new(state),
        changes: watch::channel(0).0,
        last_used_ms: AtomicI64::new(loaded_ms),
        drivers: AtomicUsize::new(0),
    })
}

/// Reads stored settings, also those of tables created before the typed contract
/// (`{"game": "rumis", "rumis": {…}}` with the Rummikub player count inside).
fn read_settings(config: &str, seats: usize) -> anyhow::Result<TableSettings> {
    let mut value: Value = serde_json::from_str(config)?;
    if let Some(players) = value.pointer("/rummikub/players").cloned() {
        if let Some(rummikub) = value.get_mut("rummikub").and_then(Value::as_object_mut) {
            rummikub.remove("players");
        }
        value["players"] = players;
    }
    let mut settings: TableSettings = serde_json::from_value(value)?;
    if settings.players == 0 {
        settings.players = seats;
    }
    Ok(settings)
}

/// A stored table's replay: its settings, fairness, actions, the spectator's view
/// before the first action and after each, the record and the result. The views
/// leave out who is connected or away (the moment's state, not the game's), so that
/// the document depends on the stored table alone: `rumi verify` builds it again from
/// a downloaded replay and compares.
pub fn replay_document(stored: &StoredTable) -> anyhow::Result<ReplayAnswer> {
    let mut partial = stored.clone();
    partial.actions.clear();
    let table = rebuild(&partial, 0, &HubOptions::default())?;
    let mut state = table.state.into_inner();
    let step = |state: &TableState| {
        let mut view = state.view(&stored.id, None);
        for seat in &mut view.seats {
            seat.connected = false;
            seat.away_since_ms = None;
            seat.handover_ms = None;
        }
        view
    };
    // Rummikub: each seat's rack after each step, kept only if the game is over.
    let rummikub = state.settings.game == GameKind::Rummikub;
    let racks_of = |state: &TableState| -> Option<Vec<Vec<String>>> {
        if !rummikub {
            return None;
        }
        (0..state.seats.len())
            .map(|seat| state.view(&stored.id, Some(seat)).rummikub?.rack)
            .collect()
    };
    let mut steps = vec![step(&state)];
    let mut racks = Vec::new();
    racks.extend(racks_of(&state));
    for action in &stored.actions {
        let value: Value = serde_json::from_str(&action.action)?;
        games::replay_action(state.game.as_mut(), action.actor, &value)
            .map_err(|e| anyhow::anyhow!("action {} does not replay: {e}", action.version))?;
        state.version = action.version;
        state.turn_started_ms = action.at_ms;
        steps.push(step(&state));
        racks.extend(racks_of(&state));
    }
    let last = steps.last().expect("the first step").clone();
    // No rack of a running game leaves the server.
    let racks = (rummikub && last.over && racks.len() == steps.len()).then_some(racks);
    Ok(ReplayAnswer {
        id: stored.id.clone(),
        settings: state.settings.clone(),
        fairness: last.fairness,
        actions: stored
            .actions
            .iter()
            .map(|a| LoggedAction {
                version: a.version,
                actor: a.actor,
                action: serde_json::from_str(&a.action).unwrap_or_default(),
                at_ms: a.at_ms,
            })
            .collect(),
        steps,
        record: state.game.record(),
        result: last.result,
        racks,
    })
}

/// The replay document a replay's own settings, revealed seed and salt, seats and
/// actions give, for `rumi verify` to compare with the document it was given. The
/// seats (names, bots) come from the replay's first step, and the start from its
/// first deadline (or its first action): they are not part of the deal.
pub fn rebuild_replay(replay: &ReplayAnswer) -> anyhow::Result<ReplayAnswer> {
    let fairness = &replay.fairness;
    let (Some(seed), Some(salt)) = (fairness.seed, fairness.salt.clone()) else {
        anyhow::bail!("the replay reveals no seed and salt");
    };
    let first = replay
        .steps
        .first()
        .ok_or_else(|| anyhow::anyhow!("the replay has no steps"))?;
    let game = games::new_game(&replay.settings, seed).map_err(anyhow::Error::msg)?;
    let started_ms = match (first.deadline_ms, game.turn_seconds()) {
        (Some(deadline), Some(seconds)) => deadline - i64::from(seconds) * 1000,
        _ => replay.actions.first().map_or(0, |a| a.at_ms),
    };
    let stored = StoredTable {
        id: replay.id.clone(),
        config: serde_json::to_string(&replay.settings)?,
        seed,
        salt,
        practice: fairness.practice_seed.is_some(),
        created_ms: started_ms,
        started_ms: Some(started_ms),
        creator: String::new(),
        finished: true,
        seats: first
            .seats
            .iter()
            .map(|s| StoredSeat {
                seat: s.seat,
                name: s.name.clone(),
                bot: s.bot.clone(),
                token: String::new(),
                claimed: s.claimed,
                open: s.kind == SeatKind::Open,
                invite: String::new(),
                joiner: String::new(),
            })
            .collect(),
        actions: replay
            .actions
            .iter()
            .map(|a| StoredAction {
                version: a.version,
                actor: a.actor,
                action: a.action.to_string(),
                at_ms: a.at_ms,
            })
            .collect(),
    };
    replay_document(&stored)
}

/// Rebuilds a finished game from its settings, seed and actions, as `rumi verify`
/// does with a downloaded replay: the result it reaches, and the game's record.
pub fn replay_game(
    settings: &TableSettings,
    seed: u64,
    actions: &[(Option<usize>, Value)],
) -> Result<(Option<games::GameResult>, String), String> {
    let mut game = games::new_game(settings, seed)?;
    for (index, (actor, action)) in actions.iter().enumerate() {
        games::replay_action(game.as_mut(), *actor, action)
            .map_err(|e| format!("action {} does not replay: {e}", index + 1))?;
    }
    Ok((game.result(), game.record()))
}
