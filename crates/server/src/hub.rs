//! The tables in play: each table's state behind its own lock, the one path every
//! action takes (check → store → show), and the server-side drivers that act without
//! a client: bots on their turn and the turn clock (K7).
//!
//! Order of an action: validate on a copy of the game, write it to the database, then
//! swap the copy in and wake every viewer. A refused action, or one the database did
//! not take, changes nothing.

use std::collections::HashMap;
use std::sync::{Arc, Mutex as StdMutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rand::RngCore;
use serde_json::{json, Value};
use tokio::sync::{watch, Mutex};

use crate::games::{ActionError, Actor, GameConfig, TableGame};
use crate::store::{Store, StoredAction, StoredSeat, StoredTable};

/// An error of the API, with the HTTP status it maps to.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    Internal(String),
}

impl From<ActionError> for ApiError {
    fn from(e: ActionError) -> ApiError {
        match e {
            ActionError::Malformed(m) => ApiError::BadRequest(m),
            ActionError::OutOfTurn(m) | ActionError::Illegal(m) => ApiError::Conflict(m),
        }
    }
}

impl From<anyhow::Error> for ApiError {
    fn from(e: anyhow::Error) -> ApiError {
        tracing::error!("database: {e:#}");
        ApiError::Internal(format!("the database refused the change: {e}"))
    }
}

pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// A seat as the server keeps it.
#[derive(Clone, Debug)]
pub struct Seat {
    pub stored: StoredSeat,
    /// Open WebSocket connections holding this seat's token.
    pub connections: usize,
}

/// Everything about one table, behind the table's lock.
pub struct TableState {
    pub config: GameConfig,
    pub seed: u64,
    pub created_ms: i64,
    pub seats: Vec<Seat>,
    pub game: TableGame,
    /// Number of accepted actions.
    pub version: u64,
    /// When the current turn began (the last action, or the table's creation): the
    /// turn clock counts from here, also after a restart.
    pub turn_started_ms: i64,
}

impl TableState {
    /// The seat a token belongs to. No token: a spectator. A token of no seat: refused.
    pub fn seat_of(&self, token: Option<&str>) -> Result<Option<usize>, ApiError> {
        let Some(token) = token.filter(|t| !t.is_empty()) else {
            return Ok(None);
        };
        self.seats
            .iter()
            .position(|s| s.stored.token == token)
            .map(Some)
            .ok_or_else(|| {
                ApiError::Forbidden(
                    "this seat token does not belong to any seat at this table".into(),
                )
            })
    }

    /// When the running turn's clock runs out (Unix ms), if it runs.
    pub fn deadline_ms(&self) -> Option<i64> {
        self.game.to_move()?;
        self.game
            .turn_seconds()
            .map(|s| self.turn_started_ms + i64::from(s) * 1000)
    }

    /// The whole view for a seat, or for a spectator (`None`).
    pub fn view(&self, id: &str, seat: Option<usize>) -> Value {
        self.view_detail(id, seat, true)
    }

    /// A view without what never changes during the game (see [`TableGame::view`]):
    /// the updates a live connection gets after its first, full view.
    pub fn view_update(&self, id: &str, seat: Option<usize>) -> Value {
        self.view_detail(id, seat, false)
    }

    fn view_detail(&self, id: &str, seat: Option<usize>, full: bool) -> Value {
        let game_name = match self.config {
            GameConfig::Rumis { .. } => "rumis",
            GameConfig::Rummikub { .. } => "rummikub",
        };
        let seats: Vec<Value> = self
            .seats
            .iter()
            .map(|s| {
                json!({
                    "seat": s.stored.seat,
                    "name": s.stored.name,
                    "kind": if s.stored.bot.is_some() { "bot" } else { "human" },
                    "bot": s.stored.bot,
                    "claimed": s.stored.claimed,
                    "connected": s.connections > 0,
                })
            })
            .collect();
        let result = self.game.result().map(|r| {
            let names: Vec<&str> = r
                .winners
                .iter()
                .filter_map(|&w| self.seats.get(w).map(|s| s.stored.name.as_str()))
                .collect();
            let text = match names.as_slice() {
                [one] => format!("{one} wins"),
                many => format!("{} share the win", many.join(" and ")),
            };
            json!({ "winners": r.winners, "scores": r.scores, "text": text })
        });
        let mut view = json!({
            "id": id,
            "game": game_name,
            "version": self.version,
            "you": seat,
            "seats": seats,
            "to_move": self.game.to_move(),
            "over": self.game.is_over(),
            "deadline_ms": self.deadline_ms(),
            "result": result,
        });
        view[game_name] = self.game.view(seat, full);
        view
    }

    /// A line for the lobby's list of open tables.
    pub fn summary(&self, id: &str) -> Value {
        let detail = match &self.config {
            GameConfig::Rumis { rumis } => {
                format!(
                    "{}, {} players, {}",
                    rumis.scenario, rumis.players, rumis.variant
                )
            }
            GameConfig::Rummikub { rummikub } => format!(
                "{} rules, {} players, {} round(s)",
                rummikub.rules, rummikub.players, rummikub.rounds
            ),
        };
        json!({
            "id": id,
            "game": match self.config { GameConfig::Rumis { .. } => "rumis", _ => "rummikub" },
            "detail": detail,
            "created_ms": self.created_ms,
            "open_seats": self.open_seats(),
            "seats": self.seats.iter().map(|s| json!({
                "seat": s.stored.seat, "name": s.stored.name,
                "kind": if s.stored.bot.is_some() { "bot" } else { "human" },
            })).collect::<Vec<_>>(),
        })
    }

    pub fn open_seats(&self) -> Vec<usize> {
        self.seats
            .iter()
            .filter(|s| s.stored.bot.is_none() && !s.stored.claimed)
            .map(|s| s.stored.seat)
            .collect()
    }
}

/// One table: its state and a counter that ticks on every change viewers should see.
pub struct Table {
    pub id: String,
    pub state: Mutex<TableState>,
    pub changes: watch::Sender<u64>,
}

impl Table {
    fn changed(&self) {
        self.changes.send_modify(|n| *n += 1);
    }
}

/// How the server runs its drivers.
#[derive(Clone, Debug)]
pub struct HubOptions {
    /// Pause before a bot moves, so people can follow the game.
    pub bot_delay: Duration,
}

impl Default for HubOptions {
    fn default() -> Self {
        HubOptions {
            bot_delay: Duration::from_millis(400),
        }
    }
}

/// All tables of the server.
pub struct Hub {
    pub store: Store,
    tables: StdMutex<HashMap<String, Arc<Table>>>,
    options: HubOptions,
    /// Bots thinking at once: one per core. A strong bot's search (or the Rummikub
    /// solver on a full table) takes seconds and much memory; more at once would only
    /// share the cores and multiply the memory.
    thinking: Arc<tokio::sync::Semaphore>,
}

/// What a new table asks for.
#[derive(Clone, Debug, serde::Deserialize)]
pub struct SeatRequest {
    /// `human` or `bot`.
    pub kind: String,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub bot: Option<String>,
}

impl Hub {
    /// Opens the hub on a store and resumes every unfinished table, bots and clocks
    /// included.
    pub async fn start(store: Store, options: HubOptions) -> anyhow::Result<Arc<Hub>> {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let hub = Arc::new(Hub {
            store,
            tables: StdMutex::new(HashMap::new()),
            options,
            thinking: Arc::new(tokio::sync::Semaphore::new(cores)),
        });
        let ids = hub.store.unfinished_ids().await?;
        let mut resumed = Vec::new();
        for id in &ids {
            if let Some(table) = hub.load(id).await? {
                resumed.push(table);
            }
        }
        // The resumed tables' bots and clocks start over the first two seconds rather
        // than all in one instant, while the players reconnect.
        let count = resumed.len().max(1) as u64;
        for (index, table) in resumed.into_iter().enumerate() {
            let hub = hub.clone();
            let wait = Duration::from_millis(index as u64 * 2000 / count);
            tokio::spawn(async move {
                tokio::time::sleep(wait).await;
                hub.schedule(table);
            });
        }
        if !ids.is_empty() {
            tracing::info!("resumed {} unfinished tables", ids.len());
        }
        Ok(hub)
    }

    /// Rebuilds a table from the database: configuration, seed, then every action.
    async fn load(&self, id: &str) -> anyhow::Result<Option<Arc<Table>>> {
        let Some(stored) = self.store.load(id).await? else {
            return Ok(None);
        };
        let table = Arc::new(rebuild(&stored)?);
        let mut tables = self.tables.lock().expect("table map lock");
        let table = tables.entry(id.to_string()).or_insert(table).clone();
        Ok(Some(table))
    }

    /// Runs CPU-heavy work (a hint's solver) on the blocking pool within the same
    /// one-per-core limit as the bots, so that hints asked for in a burst queue up
    /// instead of crowding out the threads that answer people.
    pub async fn think<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let permit = self
            .thinking
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| ApiError::Internal("the server is shutting down".into()))?;
        tokio::task::spawn_blocking(move || {
            let _thinking = permit;
            work()
        })
        .await
        .map_err(|e| ApiError::Internal(format!("the work stopped: {e}")))
    }

    /// A table by id, from memory or from the database.
    pub async fn table(&self, id: &str) -> Result<Arc<Table>, ApiError> {
        let cached = self.tables.lock().expect("table map lock").get(id).cloned();
        if let Some(table) = cached {
            return Ok(table);
        }
        self.load(id)
            .await?
            .ok_or_else(|| ApiError::NotFound(format!("there is no table `{id}`")))
    }

    /// Creates a table; answers its id and its seats' tokens.
    pub async fn create(
        self: &Arc<Self>,
        mut config: GameConfig,
        seats: Vec<SeatRequest>,
        seed: Option<u64>,
    ) -> Result<(String, Vec<StoredSeat>), ApiError> {
        if let GameConfig::Rummikub { rummikub } = &mut config {
            rummikub.players = seats.len();
        }
        let seed = seed.unwrap_or_else(|| rand::thread_rng().next_u64());
        let game = TableGame::new(&config, seed).map_err(ApiError::BadRequest)?;
        if seats.len() != game.seat_count() {
            return Err(ApiError::BadRequest(format!(
                "this game has {} seats, but {} were given",
                game.seat_count(),
                seats.len()
            )));
        }
        let game_name = match config {
            GameConfig::Rumis { .. } => "rumis",
            GameConfig::Rummikub { .. } => "rummikub",
        };
        let mut stored_seats = Vec::new();
        for (index, request) in seats.iter().enumerate() {
            let bot = match request.kind.as_str() {
                "human" => None,
                "bot" => {
                    let bot = request.bot.clone().unwrap_or_else(|| "random".into());
                    check_bot(game_name, &bot)?;
                    Some(bot)
                }
                other => {
                    return Err(ApiError::BadRequest(format!(
                        "seat {index}: kind must be `human` or `bot`, not `{other}`"
                    )))
                }
            };
            let name = match (&request.name, &bot) {
                (Some(name), _) if !name.trim().is_empty() => {
                    name.trim().chars().take(40).collect()
                }
                (_, Some(bot)) => format!("{bot} bot"),
                _ => format!("Player {}", index + 1),
            };
            stored_seats.push(StoredSeat {
                seat: index,
                name,
                bot,
                token: new_secret(),
                claimed: false,
            });
        }
        let id = format!("t{}", &new_secret()[..12]);
        let stored = StoredTable {
            id: id.clone(),
            config: serde_json::to_string(&config)
                .map_err(|e| ApiError::Internal(e.to_string()))?,
            seed,
            created_ms: now_ms(),
            finished: false,
            seats: stored_seats.clone(),
            actions: Vec::new(),
        };
        self.store.create_table(&stored).await?;
        let table = Arc::new(rebuild(&stored)?);
        self.tables
            .lock()
            .expect("table map lock")
            .insert(id.clone(), table.clone());
        self.schedule(table);
        Ok((id, stored_seats))
    }

    /// Open tables for the lobby (unfinished, with an unclaimed human seat).
    pub async fn open_tables(&self) -> Vec<Value> {
        let tables: Vec<Arc<Table>> = self
            .tables
            .lock()
            .expect("table map lock")
            .values()
            .cloned()
            .collect();
        let mut out = Vec::new();
        for table in tables {
            let state = table.state.lock().await;
            if !state.game.is_over() && !state.open_seats().is_empty() {
                out.push(state.summary(&table.id));
            }
        }
        out.sort_by_key(|v| std::cmp::Reverse(v["created_ms"].as_i64()));
        out
    }

    /// The one path of every client's action: version check, seat check, rules,
    /// database, then viewers.
    pub async fn submit(
        self: &Arc<Self>,
        table: &Arc<Table>,
        actor: Actor,
        version: Option<u64>,
        action: &Value,
    ) -> Result<u64, ApiError> {
        self.submit_from(table, actor, version, action, false).await
    }

    /// `from_server`: the server's own drivers (bots, clock) may act for bot seats.
    async fn submit_from(
        self: &Arc<Self>,
        table: &Arc<Table>,
        actor: Actor,
        version: Option<u64>,
        action: &Value,
        from_server: bool,
    ) -> Result<u64, ApiError> {
        let mut state = table.state.lock().await;
        if let Some(version) = version {
            if version != state.version {
                return Err(ApiError::Conflict(format!(
                    "stale action: it was made on version {version}, the table is at version {}; reload and try again",
                    state.version
                )));
            }
        }
        if let (Actor::Seat(seat), false) = (actor, from_server) {
            if let Some(bot) = state.seats.get(seat).and_then(|s| s.stored.bot.clone()) {
                if !matches!(
                    action.get("type").and_then(Value::as_str),
                    Some("next_round")
                ) {
                    return Err(ApiError::Conflict(format!(
                        "seat {} is played by the {bot} bot",
                        seat + 1
                    )));
                }
            }
        }
        self.apply_locked(table, &mut state, actor, action).await
    }

    async fn apply_locked(
        self: &Arc<Self>,
        table: &Arc<Table>,
        state: &mut TableState,
        actor: Actor,
        action: &Value,
    ) -> Result<u64, ApiError> {
        let mut game = state.game.clone();
        let canonical = game.apply(actor, action)?;
        let at_ms = now_ms();
        let stored = StoredAction {
            version: state.version + 1,
            actor: match actor {
                Actor::Seat(s) => Some(s),
                Actor::Clock => None,
            },
            action: canonical.to_string(),
            at_ms,
        };
        self.store
            .append_action(&table.id, &stored, game.is_over())
            .await?;
        state.game = game;
        state.version = stored.version;
        state.turn_started_ms = at_ms;
        table.changed();
        self.schedule(table.clone());
        Ok(state.version)
    }

    /// Hands a seat to a bot (the player left, or asked for it).
    pub async fn hand_to_bot(
        self: &Arc<Self>,
        table: &Arc<Table>,
        token: Option<&str>,
        seat: usize,
        bot: &str,
    ) -> Result<(), ApiError> {
        let mut state = table.state.lock().await;
        let caller = state.seat_of(token)?.ok_or_else(|| {
            ApiError::Forbidden("only a player at this table can hand a seat to a bot".into())
        })?;
        let target = state
            .seats
            .get(seat)
            .ok_or_else(|| ApiError::NotFound(format!("there is no seat {seat}")))?;
        if target.stored.bot.is_some() {
            return Err(ApiError::Conflict(format!("seat {seat} is already a bot")));
        }
        if caller != seat && target.connections > 0 {
            return Err(ApiError::Conflict(format!(
                "{} is still connected; only they can hand their seat to a bot",
                target.stored.name
            )));
        }
        let game_name = match state.config {
            GameConfig::Rumis { .. } => "rumis",
            GameConfig::Rummikub { .. } => "rummikub",
        };
        check_bot(game_name, bot)?;
        let mut updated = state.seats[seat].stored.clone();
        updated.bot = Some(bot.to_string());
        self.store.update_seat(&table.id, &updated).await?;
        state.seats[seat].stored = updated;
        table.changed();
        drop(state);
        self.schedule(table.clone());
        Ok(())
    }

    /// Takes a free human seat for a person who joins from the lobby.
    pub async fn join(
        &self,
        table: &Arc<Table>,
        name: Option<String>,
    ) -> Result<StoredSeat, ApiError> {
        let mut state = table.state.lock().await;
        if state.game.is_over() {
            return Err(ApiError::Conflict("the game is over".into()));
        }
        let seat = *state
            .open_seats()
            .first()
            .ok_or_else(|| ApiError::Conflict("every seat at this table is taken".into()))?;
        let mut updated = state.seats[seat].stored.clone();
        updated.claimed = true;
        if let Some(name) = name.filter(|n| !n.trim().is_empty()) {
            updated.name = name.trim().chars().take(40).collect();
        }
        self.store.update_seat(&table.id, &updated).await?;
        state.seats[seat].stored = updated.clone();
        table.changed();
        Ok(updated)
    }

    /// Marks a seat taken the first time its invite link is used.
    pub async fn claim(
        &self,
        table: &Arc<Table>,
        state: &mut TableState,
        seat: usize,
    ) -> Result<(), ApiError> {
        if state.seats[seat].stored.claimed {
            return Ok(());
        }
        let mut updated = state.seats[seat].stored.clone();
        updated.claimed = true;
        self.store.update_seat(&table.id, &updated).await?;
        state.seats[seat].stored = updated;
        table.changed();
        Ok(())
    }

    /// Starts the driver for the table's next server-side action, if any: a bot's
    /// move, starting the next round at an all-bot table, or the turn clock (K7).
    /// Every driver acts on the version it saw; if a player acted first, the driver's
    /// action is stale and dropped.
    pub fn schedule(self: &Arc<Self>, table: Arc<Table>) {
        let hub = self.clone();
        tokio::spawn(async move {
            let (version, plan) = {
                let state = table.state.lock().await;
                (state.version, plan(&state))
            };
            match plan {
                Plan::Nothing => {}
                Plan::Bot { seat, bot } => {
                    tokio::time::sleep(hub.options.bot_delay).await;
                    let (game, seed) = {
                        let state = table.state.lock().await;
                        if state.version != version {
                            return;
                        }
                        let seed = state.seed ^ version.wrapping_mul(0x9E37_79B9_7F4A_7C15);
                        (state.game.clone(), seed)
                    };
                    // A bot thinks on the blocking pool, so that its search never
                    // holds up the threads that answer people.
                    let bot_name = bot.clone();
                    let Ok(permit) = hub.thinking.clone().acquire_owned().await else {
                        return;
                    };
                    let action = tokio::task::spawn_blocking(move || {
                        let _thinking = permit;
                        game.bot_action(&bot_name, seat, seed)
                    })
                    .await
                    .ok()
                    .flatten();
                    let Some(action) = action else {
                        tracing::warn!(
                            "table {}: the {bot} bot found no action for seat {seat}",
                            table.id
                        );
                        return;
                    };
                    if let Err(e) = hub
                        .submit_from(&table, Actor::Seat(seat), Some(version), &action, true)
                        .await
                    {
                        if !matches!(e, ApiError::Conflict(ref m) if m.starts_with("stale")) {
                            tracing::warn!("table {}: bot action refused: {e}", table.id);
                        }
                    }
                }
                Plan::NextRound { seat } => {
                    tokio::time::sleep(hub.options.bot_delay).await;
                    let action = json!({ "type": "next_round" });
                    let _ = hub
                        .submit_from(&table, Actor::Seat(seat), Some(version), &action, true)
                        .await;
                }
                Plan::Clock { deadline_ms } => {
                    let wait = (deadline_ms - now_ms()).max(0) as u64;
                    tokio::time::sleep(Duration::from_millis(wait)).await;
                    let action = json!({ "type": "timeout" });
                    let _ = hub
                        .submit_from(&table, Actor::Clock, Some(version), &action, true)
                        .await;
                }
            }
        });
    }

    /// Counts a viewer's connection on a seat (shown as "connected").
    pub async fn connect(&self, table: &Arc<Table>, seat: Option<usize>, delta: isize) {
        if let Some(seat) = seat {
            let mut state = table.state.lock().await;
            if let Some(s) = state.seats.get_mut(seat) {
                s.connections = s.connections.saturating_add_signed(delta);
            }
            table.changed();
        }
    }
}

enum Plan {
    Nothing,
    Bot { seat: usize, bot: String },
    NextRound { seat: usize },
    Clock { deadline_ms: i64 },
}

fn plan(state: &TableState) -> Plan {
    if state.game.is_over() {
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
    if state.game.awaits_next_round() && state.seats.iter().all(|s| s.stored.bot.is_some()) {
        return Plan::NextRound { seat: 0 };
    }
    Plan::Nothing
}

fn check_bot(game: &str, bot: &str) -> Result<(), ApiError> {
    let known = crate::games::bot_names(game);
    if known.contains(&bot) {
        Ok(())
    } else {
        Err(ApiError::BadRequest(format!(
            "unknown {game} bot `{bot}` (bots: {})",
            known.join(", ")
        )))
    }
}

/// A fresh secret: 128 random bits as 32 hex digits.
fn new_secret() -> String {
    let mut bytes = [0u8; 16];
    rand::thread_rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A table's state from its stored configuration and action log.
fn rebuild(stored: &StoredTable) -> anyhow::Result<Table> {
    let config: GameConfig = serde_json::from_str(&stored.config)?;
    let mut game = TableGame::new(&config, stored.seed).map_err(anyhow::Error::msg)?;
    let mut turn_started_ms = stored.created_ms;
    for action in &stored.actions {
        let actor = action.actor.map_or(Actor::Clock, Actor::Seat);
        let value: Value = serde_json::from_str(&action.action)?;
        game.apply(actor, &value).map_err(|e| {
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
        config,
        seed: stored.seed,
        created_ms: stored.created_ms,
        seats: stored
            .seats
            .iter()
            .map(|s| Seat {
                stored: s.clone(),
                connections: 0,
            })
            .collect(),
        game,
        version: stored.actions.len() as u64,
        turn_started_ms,
    };
    Ok(Table {
        id: stored.id.clone(),
        state: Mutex::new(state),
        changes: watch::channel(0).0,
    })
}

/// Replays a stored table action by action: the spectator view after each step, for
/// the replay page.
pub fn replay_steps(stored: &StoredTable) -> anyhow::Result<Vec<Value>> {
    let mut partial = stored.clone();
    partial.actions.clear();
    let mut steps = Vec::new();
    let table = rebuild(&partial)?;
    let mut state = table.state.into_inner();
    steps.push(state.view(&stored.id, None));
    for action in &stored.actions {
        let actor = action.actor.map_or(Actor::Clock, Actor::Seat);
        let value: Value = serde_json::from_str(&action.action)?;
        state.game.apply(actor, &value).map_err(|e| {
            anyhow::anyhow!("stored action {} no longer replays: {e}", action.version)
        })?;
        state.version = action.version;
        state.turn_started_ms = action.at_ms;
        steps.push(state.view(&stored.id, None));
    }
    Ok(steps)
}
