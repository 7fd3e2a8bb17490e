//! The wire contract: every request, answer, view and WebSocket message as a Rust type.
//! The server builds and reads only these; the OpenAPI document (`/api/openapi.json`)
//! and the client's TypeScript types (`web/src/generated/api.ts`) are generated from
//! them, so the three cannot disagree (a test keeps the generated files current).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;
use utoipa::ToSchema;

/// Reads a wire type from JSON. A whole number written as a float (`2.0`, `1e3`) is
/// the same JSON number as the integer (RFC 8259 has one number type, and JSON Schema's
/// `integer` admits it), so it is read as that integer; any other float stays a float
/// and is refused where an integer is expected.
pub fn from_json<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> serde_json::Result<T> {
    let mut value: Value = serde_json::from_slice(bytes)?;
    whole_numbers_as_integers(&mut value);
    serde_json::from_value(value)
}

fn whole_numbers_as_integers(value: &mut Value) {
    match value {
        Value::Number(n) if n.is_f64() => {
            let f = n.as_f64().unwrap_or(f64::NAN);
            // The bounds are exact powers of two: 2^64 and -2^63.
            if f.fract() == 0.0 && (0.0..18_446_744_073_709_551_616.0).contains(&f) {
                *value = Value::from(f as u64);
            } else if f.fract() == 0.0 && (-9_223_372_036_854_775_808.0..0.0).contains(&f) {
                *value = Value::from(f as i64);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(whole_numbers_as_integers),
        Value::Object(fields) => fields.values_mut().for_each(whole_numbers_as_integers),
        _ => {}
    }
}

/// Which game a table plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    Rumis,
    Rummikub,
}

impl GameKind {
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Rumis => "rumis",
            GameKind::Rummikub => "rummikub",
        }
    }
}

/// The settings of a Rumis table.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct RumisSettings {
    /// A built-in scenario key (`chullpa`); see `/api/meta`.
    pub scenario: String,
    /// 2 to 6, as the scenario allows (`variant_players` in `/api/meta`).
    pub players: u8,
    /// `standard` when missing; see `/api/meta`.
    #[serde(default = "standard")]
    #[ts(optional, as = "Option<String>")]
    pub variant: String,
}

fn standard() -> String {
    "standard".into()
}

/// The settings of a Rummikub table. The number of players is the number of seats.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct RummikubSettings {
    /// Rule preset: `current` (default) or `old` (K10).
    #[serde(default = "current")]
    #[ts(optional, as = "Option<String>")]
    pub rules: String,
    /// Seconds per turn (K7): missing keeps the preset's clock (60 s), `null` switches
    /// it off.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "double_option"
    )]
    #[schema(value_type = Option<u32>, minimum = 1, maximum = 3600)]
    #[ts(optional, type = "number | null")]
    pub turn_seconds: Option<Option<u32>>,
    /// Rounds in the game (K9), 1 to 20; 1 when missing.
    #[serde(default = "one")]
    #[schema(minimum = 1, maximum = 20)]
    #[ts(optional, as = "Option<u32>")]
    pub rounds: u32,
}

fn current() -> String {
    "current".into()
}

fn one() -> u32 {
    1
}

/// `Option<Option<T>>` that tells a missing field (outer `None`) from `null`.
mod double_option {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(value: &Option<Option<u32>>, s: S) -> Result<S::Ok, S::Error> {
        match value {
            None => s.serialize_none(),
            Some(inner) => inner.serialize(s),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<u32>>, D::Error> {
        Option::<u32>::deserialize(d).map(Some)
    }
}

/// Who sits at a seat of a new table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "lowercase")]
pub enum SeatKind {
    /// Invited: only the holder of the seat's invite link may take it.
    Human,
    /// Open: anyone may join it from the lobby (and gets a fresh token).
    Open,
    /// Played by a bot on the server.
    Bot,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct SeatRequest {
    pub kind: SeatKind,
    /// Up to 40 printable characters; a default is given when missing.
    #[serde(default)]
    #[ts(optional)]
    pub name: Option<String>,
    /// For a bot seat: its name from `/api/meta` (`random` when missing).
    #[serde(default)]
    #[ts(optional)]
    pub bot: Option<String>,
}

/// `POST /api/tables`.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct CreateTableRequest {
    pub game: GameKind,
    /// Required when `game` is `rumis`.
    #[serde(default)]
    #[ts(optional)]
    pub rumis: Option<RumisSettings>,
    /// Required when `game` is `rummikub`.
    #[serde(default)]
    #[ts(optional)]
    pub rummikub: Option<RummikubSettings>,
    #[schema(min_items = 2, max_items = 6)]
    pub seats: Vec<SeatRequest>,
    /// The creator's own seat, theirs at once; the first `human` seat when missing.
    #[serde(default)]
    #[ts(optional)]
    pub creator_seat: Option<usize>,
    /// A fixed deal, only for practice tables (every seat but the creator's a bot).
    #[serde(default)]
    #[ts(optional, as = "Option<u32>")]
    #[schema(maximum = 9007199254740991_u64)]
    pub seed: Option<u64>,
}

/// A seat handed to the one who asked for it, with its secret token.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct SeatGrant {
    pub seat: usize,
    pub name: String,
    pub token: String,
    /// The seat's link; the token is in the fragment, which browsers never send.
    pub url: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct CreatedSeat {
    pub seat: usize,
    pub name: String,
    pub kind: SeatKind,
    pub bot: Option<String>,
    /// For an invited seat other than the creator's: the link to send.
    pub invite: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct CreateTableResponse {
    pub id: String,
    pub spectator: String,
    /// The creator's seat, if they sit at the table.
    pub you: Option<SeatGrant>,
    pub seats: Vec<CreatedSeat>,
    /// SHA-256 of the deal's seed and a secret salt, revealed when the game is over.
    pub commitment: String,
    #[ts(as = "Option<u32>")]
    pub practice_seed: Option<u64>,
}

/// `POST /api/tables/{id}/join`.
#[derive(Clone, Debug, Default, Serialize, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    #[serde(default)]
    #[ts(optional)]
    pub name: Option<String>,
    /// An open seat to take; the first open seat when missing.
    #[serde(default)]
    #[ts(optional)]
    pub seat: Option<usize>,
}

/// `POST /api/tables/{id}/claim`: takes an invited seat with its invite link's token
/// (`X-Seat-Token`); the answer carries the seat's new token, the link is spent.
#[derive(Clone, Debug, Default, Serialize, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct ClaimRequest {
    /// The name to sit under; the seat keeps its name when missing.
    #[serde(default)]
    #[ts(optional)]
    pub name: Option<String>,
}

/// `POST /api/tables/{id}/actions`: an action made on a version of the table.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct ActionRequest {
    #[ts(as = "f64")]
    pub version: u64,
    /// Read by the table's game, which says exactly what is wrong with it.
    #[schema(value_type = GameAction)]
    #[ts(as = "GameAction")]
    pub action: Value,
}

/// A seat's action: a Rumis placement or a Rummikub turn.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
#[serde(untagged)]
pub enum GameAction {
    Rummikub(RummikubAction),
    Rumis(RumisAction),
}

/// Rumis: a move in the project's notation (`L4 a1:1 b1:1 c1:1 a2:1`; R16 removals
/// `x L4`), or a stone and its cells `[x, y, z]` (0-based; z = 0 on the board).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
#[serde(untagged)]
pub enum RumisAction {
    Notation {
        #[serde(rename = "move")]
        #[schema(max_length = 200)]
        notation: String,
    },
    Cells {
        #[schema(max_length = 3)]
        stone: String,
        #[schema(max_items = 8)]
        cells: Vec<[u8; 3]>,
    },
}

/// Rummikub: the whole new table (K5), a draw (K6), a new deal for three pairs (K2),
/// or dealing the next round after one ended (K9). Time-outs are the server's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RummikubAction {
    Play {
        #[schema(max_items = 106)]
        table: Vec<Vec<String>>,
    },
    Draw,
    Redeal,
    NextRound,
}

/// `POST /api/tables/{id}/seats/{seat}/name`: the name a player sits under.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct NameRequest {
    /// 1 to 40 characters, no control characters.
    pub name: String,
}

/// `POST /api/tables/{id}/seats/{seat}/bot`.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct BotRequest {
    pub bot: String,
}

/// An error: a message for a person and a key for programs (and translations).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct ErrorBody {
    pub error: String,
    pub code: String,
    /// For a move the rules refuse: the engine's reason as a key with parameters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub why: Option<Reason>,
}

/// A refusal or an event as a key with parameters, for the client to say in the
/// player's language (`{"code": "hole_under", "rule": "R3", "params": {"cell":
/// {"column": "b5", "level": 2}}}`). Players are seat numbers (0-based) in `params`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
pub struct Reason {
    pub code: String,
    /// The ruling the refusal enforces (`R7`, `K4`), for a "Why?" link.
    pub rule: Option<String>,
    #[schema(value_type = Object)]
    #[ts(type = "Record<string, unknown>")]
    pub params: BTreeMap<String, Value>,
}

/// Where a table is: waiting for its human seats to be taken, being played, or over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "lowercase")]
pub enum TableStatus {
    Waiting,
    Playing,
    Over,
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
    pub result: Option<ResultView>,
    pub fairness: Fairness,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rumis: Option<RumisView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rummikub: Option<RummikubView>,
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
    pub last_event: Option<Reason>,
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

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct BotMeta {
    /// The name a seat request uses (`mcts:3`).
    pub name: String,
    /// 1 (beginner) to 5 (expert).
    pub level: u8,
    pub description: String,
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
    #[ts(type = "unknown")]
    pub action: Value,
    #[ts(as = "f64")]
    pub at_ms: i64,
}

/// The settings a table was created with, as stored.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct TableSettings {
    pub game: GameKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rumis: Option<RumisSettings>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rummikub: Option<RummikubSettings>,
    /// Seats (Rummikub players).
    #[serde(default)]
    pub players: usize,
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

/// WebSocket, client to server.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    /// The first message: the seat token, or none to watch.
    Hello {
        #[serde(default)]
        #[ts(optional)]
        token: Option<String>,
    },
    Action {
        #[ts(as = "f64")]
        version: u64,
        #[schema(value_type = GameAction)]
        #[ts(as = "GameAction")]
        action: Value,
    },
}

/// WebSocket, server to client.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    State {
        view: Box<TableView>,
    },
    Error {
        message: String,
        code: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        why: Option<Reason>,
    },
}

/// Whether a node takes work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "lowercase")]
pub enum NodeStatus {
    Ready,
    /// Serving (the database answers) but cut off from NATS: moves still work, other
    /// nodes' news comes late. Still 200, so that a balancer keeps the node.
    Degraded,
    /// Stopping: it hands its tables over and takes no new connections.
    Draining,
}

/// `GET /api/health`: for load balancers and operators.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct Health {
    pub status: NodeStatus,
    /// This node's name (`single` without a cluster).
    pub node: String,
    pub database: bool,
    /// Whether NATS is connected; `null` on a single node.
    pub nats: Option<bool>,
    pub loaded_tables: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_whole_number_written_as_a_float_is_that_integer() {
        let join: JoinRequest = from_json(br#"{"seat": 2.0}"#).unwrap();
        assert_eq!(join.seat, Some(2));
        let action: ActionRequest = from_json(br#"{"version": 1e1, "action": {}}"#).unwrap();
        assert_eq!(action.version, 10);
        assert!(from_json::<JoinRequest>(br#"{"seat": 2.5}"#).is_err());
        assert!(from_json::<JoinRequest>(br#"{"seat": -1.0}"#).is_err());
        assert!(from_json::<JoinRequest>(br#"{"seat": 1e30}"#).is_err());
    }
}
