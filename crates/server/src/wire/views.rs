//! Views: a table as one seat sees it, the lobby, the meta data, hints, replays.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use super::*;

/// Where a table is: waiting for its human seats to be taken, being played, over, or
/// cancelled (a rated table whose seats were not all taken in time, RT7: no game, no
/// rating, nothing more to do there).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "lowercase")]
pub enum TableStatus {
    Waiting,
    Playing,
    Over,
    Cancelled,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct SeatView {
    pub seat: usize,
    pub name: String,
    /// `human` (invited), `open` (joinable from the lobby) or `bot`; a seat handed to a
    /// bot is `bot` with `claimed` still set, and its owner may take it back.
    pub kind: SeatKind,
    pub bot: Option<String>,
    /// Whether a person has taken the seat.
    pub claimed: bool,
    /// Whether the seat's player has a live connection.
    pub connected: bool,
    /// Since when (Unix ms) the seat's player has been away, while they are.
    #[ts(as = "Option<f64>")]
    pub away_since_ms: Option<i64>,
    /// From when (Unix ms) the other players may hand this seat to a bot.
    #[ts(as = "Option<f64>")]
    pub handover_ms: Option<i64>,
    /// The account the seat belongs to (its profile is `/u/{account}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub account: Option<String>,
    /// The seat's player left the game: their turn clock ran out twice in a row
    /// (RD17, K7), and a bot plays the seat on. At a rated table they are ranked last
    /// (RT8).
    #[serde(default)]
    pub left: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct ResultView {
    pub winners: Vec<usize>,
    #[ts(as = "Vec<f64>")]
    pub scores: Vec<i64>,
    pub text: String,
}

/// Proof that nobody chose the deal: the commitment is published at creation, seed and
/// salt once the game is over. `commitment = sha256("rumi-seed:{seed}:{salt}")`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
pub struct Fairness {
    pub commitment: String,
    /// Set on practice tables, whose creator chose the seed.
    #[ts(as = "Option<f64>")]
    pub practice_seed: Option<u64>,
    #[ts(as = "Option<f64>")]
    pub seed: Option<u64>,
    pub salt: Option<String>,
}

/// A table as one seat (or a spectator) sees it.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct TableView {
    pub id: String,
    pub game: GameKind,
    /// Accepted actions so far; an action names the version it was made on.
    #[ts(as = "f64")]
    pub version: u64,
    /// The viewer's seat; `null` for spectators.
    pub you: Option<usize>,
    pub status: TableStatus,
    /// Human seats not taken yet (the table starts when none is left).
    pub waiting_for: Vec<usize>,
    pub seats: Vec<SeatView>,
    pub to_move: Option<usize>,
    pub over: bool,
    /// When the running turn's clock runs out (Unix ms).
    #[ts(as = "Option<f64>")]
    pub deadline_ms: Option<i64>,
    /// Seconds per turn (the table's clock, RD17 and K7); `null`: no clock.
    #[serde(default)]
    pub turn_seconds: Option<u32>,
    /// A waiting rated table: when it is cancelled unless every seat is taken by then
    /// (Unix ms, RT7).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, as = "Option<f64>")]
    pub cancels_at_ms: Option<i64>,
    pub result: Option<ResultView>,
    pub fairness: Fairness,
    /// Whether the players may ask for hints here (the table's setting).
    #[serde(default)]
    pub hints: bool,
    /// A rated game: the players' ratings move by its result.
    #[serde(default)]
    pub rated: bool,
    /// The viewer's seat token, when their seat was found by their session (an
    /// account's seat opened on another device): kept like a token from a link.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub seat_token: Option<String>,
    /// Once over: the rematch's table id, when a player has asked for one (each
    /// player takes their seat there with `POST …/rematch`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rematch: Option<String>,
    /// Bot seats whose bot failed to move lately (empty while all is well).
    pub bot_trouble: Vec<BotTrouble>,
    /// The game's own part, under its name: `"rumis": {…}` or `"rummikub": {…}`.
    #[serde(flatten)]
    pub state: GameView,
}

/// A bot seat whose bot gave no action the rules take: the server logs it, retries
/// with growing pauses, and once the retries are spent plays a simpler bot's move for
/// the seat (`fallback`), so that the game goes on. It clears when the seat's own bot
/// moves again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
pub struct BotTrouble {
    pub seat: usize,
    /// What went wrong the last time.
    pub code: BotTroubleCode,
    /// Since when (Unix ms) the seat's bot has been failing.
    #[ts(as = "f64")]
    pub since_ms: i64,
    /// Retries so far.
    pub retries: u32,
    /// The retries are spent: a simpler bot (random legal moves; Rummikub: the random
    /// bot, or a draw) moved for the seat.
    pub fallback: bool,
}

/// How a bot failed: it answered with an error, it panicked, or the rules refused its
/// action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "lowercase")]
pub enum BotTroubleCode {
    Error,
    Panic,
    Refused,
}

/// The game part of a view, one game's, under the game's name.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "lowercase")]
pub enum GameView {
    Rumis(Box<RumisView>),
    Rummikub(Box<RummikubView>),
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct ScenarioView {
    pub key: String,
    pub name: String,
    pub width: usize,
    pub depth: usize,
    /// `limits[y][x]`: the height limit of column (x, y); 0 = outside the footprint.
    pub limits: Vec<Vec<u8>>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct CubeView {
    pub x: usize,
    pub y: usize,
    pub z: usize,
    pub colour: String,
    /// The placed stone this cube belongs to (its index in `history`).
    pub stone: Option<usize>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct ColourView {
    pub colour: String,
    pub owner: Option<u8>,
    pub out: bool,
    /// Stones not placed yet (public).
    pub supply: Vec<String>,
    /// Live top-view points (R9).
    pub score: i32,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct PlacementView {
    pub stone: String,
    pub cells: Vec<[u8; 3]>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct RumisView {
    pub scenario: ScenarioView,
    pub players: u8,
    pub variant: String,
    pub cubes: Vec<CubeView>,
    pub colours: Vec<ColourView>,
    pub to_move_colour: Option<String>,
    pub building_ruin: bool,
    pub scores: Vec<i32>,
    /// Every legal placement, sent only to the seat to move.
    pub legal: Vec<PlacementView>,
    pub history: Vec<String>,
    /// R16: the columns inside the red line, `red_line[y][x]`.
    pub red_line: Option<Vec<Vec<bool>>>,
    pub removing: bool,
    pub stone_in_hand: Option<String>,
    pub interim: Option<Vec<i32>>,
    /// Every stone's orientations as cube offsets; in HTTP views and the first
    /// WebSocket view only (it never changes).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub stones: Option<BTreeMap<String, Vec<Vec<[i8; 3]>>>>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct RulesView {
    pub name: String,
    pub initial_meld: u32,
    pub initial_meld_may_use_table: bool,
    pub turn_seconds: Option<u32>,
    pub jokers_per_set: u8,
    pub run_wraps_around: bool,
    pub frozen_joker_sets: bool,
    pub joker_penalty: u32,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct RoundOverView {
    pub winners: Vec<usize>,
    pub scores: Vec<i32>,
    pub rack_values: Vec<u32>,
    pub reason: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct RummikubView {
    pub rules: RulesView,
    /// The viewer's own rack; `null` for spectators and other seats.
    pub rack: Option<Vec<String>>,
    pub rack_sizes: Vec<usize>,
    pub melded: Vec<bool>,
    pub pool_size: usize,
    pub table: Vec<Vec<String>>,
    pub round: u32,
    pub rounds: u32,
    pub totals: Vec<i32>,
    pub round_over: Option<RoundOverView>,
    pub can_claim_redeal: bool,
    /// What happened last, without secrets ("Ana drew a tile").
    pub last: Option<String>,
    /// The same as a key with parameters (`drew`, `{"player": 1}`).
    pub last_event: Option<Event>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct LobbySeat {
    pub seat: usize,
    pub name: String,
    pub kind: SeatKind,
    /// For a seat still open to join: since when (Unix ms).
    #[ts(as = "Option<f64>")]
    pub open_since_ms: Option<i64>,
}

/// A table with open seats, for the lobby.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct LobbyTable {
    pub id: String,
    pub game: GameKind,
    /// The settings in English words (`chullpa, 2 players, standard`); clients in other
    /// languages build their own line from `settings`.
    pub detail: String,
    pub settings: TableSettings,
    #[ts(as = "f64")]
    pub created_ms: i64,
    pub open_seats: Vec<usize>,
    pub seats: Vec<LobbySeat>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct LobbyTables {
    pub tables: Vec<LobbyTable>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct ScenarioMeta {
    pub key: String,
    pub name: String,
    pub theme: String,
    pub status: String,
    pub players: Vec<u8>,
    pub variants: Vec<String>,
    /// Per variant, the player counts it can be played with on this board.
    pub variant_players: BTreeMap<String, Vec<u8>>,
}

/// A pool of ratings: people and bots are rated apart in each, since strength at two
/// players, at three to six and at Rummikub are different skills.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ToSchema, TS,
)]
#[serde(rename_all = "snake_case")]
pub enum RatingPool {
    /// Rumis with two players.
    RumisTwo,
    /// Rumis with three to six players.
    RumisMulti,
    /// Rummikub, any number of players.
    Rummikub,
}

impl RatingPool {
    pub const ALL: [RatingPool; 3] = [
        RatingPool::RumisTwo,
        RatingPool::RumisMulti,
        RatingPool::Rummikub,
    ];

    /// The pool a game of `game` with `players` players is rated in.
    pub fn of(game: GameKind, players: usize) -> RatingPool {
        match game {
            GameKind::Rumis if players <= 2 => RatingPool::RumisTwo,
            GameKind::Rumis => RatingPool::RumisMulti,
            GameKind::Rummikub => RatingPool::Rummikub,
        }
    }

    /// The game the pool's games are of.
    pub fn game(self) -> GameKind {
        match self {
            RatingPool::RumisTwo | RatingPool::RumisMulti => GameKind::Rumis,
            RatingPool::Rummikub => GameKind::Rummikub,
        }
    }

    /// The name in JSON and on the command line (`rumis_two`).
    pub fn name(self) -> &'static str {
        match self {
            RatingPool::RumisTwo => "rumis_two",
            RatingPool::RumisMulti => "rumis_multi",
            RatingPool::Rummikub => "rummikub",
        }
    }

    /// The pool of a name (`rumis_two`), if it is one.
    pub fn named(name: &str) -> Option<RatingPool> {
        RatingPool::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// A bot's published rating in one pool, from the bot ladder (`docs/bot-ratings.md`).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct BotRatingMeta {
    pub pool: RatingPool,
    /// The shown rating (people's scale), rounded to 10.
    pub rating: i32,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct BotMeta {
    /// The name a seat request uses (`mcts:3`).
    pub name: String,
    /// 1 (beginner) to 5 (expert).
    pub level: u8,
    pub description: String,
    /// Its rating in each pool the ladder measured it in (empty if none).
    #[serde(default)]
    pub ratings: Vec<BotRatingMeta>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct RumisMeta {
    pub scenarios: Vec<ScenarioMeta>,
    pub variants: Vec<String>,
    pub bots: Vec<BotMeta>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct RummikubMeta {
    pub presets: Vec<String>,
    pub players: Vec<usize>,
    /// The clock each preset keeps when `turn_seconds` is missing.
    pub preset_turn_seconds: BTreeMap<String, Option<u32>>,
    pub bots: Vec<BotMeta>,
}

/// `GET /api/meta`: what a table can be created with.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct Meta {
    pub rumis: RumisMeta,
    pub rummikub: RummikubMeta,
    /// The server's limits a client should know.
    pub limits: LimitsMeta,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct LimitsMeta {
    /// Seconds a player must be away before others may hand their seat to a bot.
    pub handover_after_seconds: u32,
    pub max_name_chars: usize,
}

/// `POST /api/tables/{id}/check` (Rumis): whether a placement is legal, and why not.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct CheckResult {
    pub legal: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reason: Option<String>,
    /// The reason as a key with parameters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub why: Option<Reason>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct HintPlay {
    pub placed: Vec<String>,
    pub table: Vec<Vec<String>>,
    pub tiles: u32,
    pub value: u32,
    pub changed_sets: u32,
    /// Whether `changed_sets` is proven the fewest among the best plays: false on the
    /// rare position whose tie-break search passed the solver's state limit (the play
    /// is still best on tiles or value).
    pub fewest_changed_proven: bool,
}

/// A Rumis move the strongest bot rates highly, with its estimated win chance.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct RumisSuggestion {
    /// The move in the project's notation (`L4 a1:1 b1:1 c1:1 a2:1`).
    #[serde(rename = "move")]
    pub notation: String,
    pub stone: String,
    pub cells: Vec<[u8; 3]>,
    /// The search's estimate of the mover's chance to win after this move (0 to 1).
    pub win_chance: f64,
    /// Playouts the search spent on it.
    pub visits: u32,
}

/// `GET /api/tables/{id}/hint`. Rummikub: the exact solver's best play (`play`, `null`
/// when the best is to draw). Rumis: the strongest bot's best three moves (`moves`).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct HintAnswer {
    pub play: Option<HintPlay>,
    #[serde(default)]
    pub moves: Vec<RumisSuggestion>,
}

/// One accepted action of the log.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct LoggedAction {
    #[ts(as = "f64")]
    pub version: u64,
    /// The seat, or `null` for the server's clock.
    pub actor: Option<usize>,
    /// The action as stored (canonical form; `{"type": "timeout"}` for the clock).
    #[schema(value_type = WireAction)]
    #[ts(as = "WireAction")]
    pub action: GameAction,
    #[ts(as = "f64")]
    pub at_ms: i64,
}

/// The settings a table was created with, as stored.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
#[serde(try_from = "SettingsFields")]
pub struct TableSettings {
    /// The game of `settings` (said once more for readers of the JSON).
    pub game: GameKind,
    /// The game's own settings, under its name: `"rumis": {…}` or `"rummikub": {…}`.
    #[serde(flatten)]
    pub settings: GameSettings,
    /// Seats (Rummikub players).
    #[serde(default)]
    pub players: usize,
    /// Whether the players may ask for hints (a table stored before this setting has
    /// them as its seats give by default: on for at most one person).
    #[serde(default)]
    pub hints: bool,
    /// A rated game (every seat an account's; no bots, hints or chosen deal).
    #[serde(default)]
    pub rated: bool,
}

/// The settings of one game, under the game's name.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "lowercase")]
pub enum GameSettings {
    Rumis(RumisSettings),
    Rummikub(RummikubSettings),
}

impl GameSettings {
    pub fn kind(&self) -> GameKind {
        match self {
            GameSettings::Rumis(_) => GameKind::Rumis,
            GameSettings::Rummikub(_) => GameKind::Rummikub,
        }
    }

    /// A table's settings from the fields a request (or a stored table) gives: a Rumis
    /// table needs its settings, a Rummikub table keeps its preset's when it has none.
    pub fn of(
        game: GameKind,
        rumis: Option<RumisSettings>,
        rummikub: Option<RummikubSettings>,
    ) -> Result<GameSettings, String> {
        match game {
            GameKind::Rumis => rumis.map(GameSettings::Rumis).ok_or_else(|| {
                "a Rumis table needs `rumis`: {\"scenario\": …, \"players\": …}".to_string()
            }),
            GameKind::Rummikub => Ok(GameSettings::Rummikub(rummikub.unwrap_or_default())),
        }
    }
}

impl TableSettings {
    /// Settings without hints (a new table sets them from its seats or its creator).
    pub fn new(settings: GameSettings, players: usize) -> TableSettings {
        TableSettings {
            game: settings.kind(),
            settings,
            players,
            hints: false,
            rated: false,
        }
    }

    /// Hints are fair where nobody plays against another person: on at practice tables
    /// (at most one person, the others bots), off when two or more people sit.
    pub fn hints_by_default(people: usize) -> bool {
        people <= 1
    }
}

/// The fields of stored settings, as tables of every release stored them (a Rummikub
/// table may have none of its own).
#[derive(Deserialize)]
struct SettingsFields {
    game: GameKind,
    #[serde(default)]
    rumis: Option<RumisSettings>,
    #[serde(default)]
    rummikub: Option<RummikubSettings>,
    #[serde(default)]
    players: usize,
    #[serde(default)]
    hints: bool,
    #[serde(default)]
    rated: bool,
}

impl TryFrom<SettingsFields> for TableSettings {
    type Error = String;

    fn try_from(fields: SettingsFields) -> Result<TableSettings, String> {
        let settings = GameSettings::of(fields.game, fields.rumis, fields.rummikub)?;
        Ok(TableSettings {
            hints: fields.hints,
            rated: fields.rated,
            ..TableSettings::new(settings, fields.players)
        })
    }
}

/// `GET /api/tables/{id}/replay`: a finished game, step by step, with what
/// `rumi verify` needs to check that the deal was the committed one.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct ReplayAnswer {
    pub id: String,
    pub settings: TableSettings,
    pub fairness: Fairness,
    pub actions: Vec<LoggedAction>,
    /// The spectator's view before the first action and after each.
    pub steps: Vec<TableView>,
    /// The game as a text record (`rumi rumis replay` / `rumi rummikub replay`).
    pub record: String,
    pub result: Option<ResultView>,
    /// Rummikub, once the game is over: every seat's rack after each step
    /// (`racks[step][seat]`, as in `steps`). Never sent while the game runs: the
    /// replay opens only at the end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub racks: Option<Vec<Vec<Vec<String>>>>,
}
