//! The wire contract: every request, answer, view and WebSocket message as a Rust type.
//! The server builds and reads only these; the OpenAPI document (`/api/openapi.json`)
//! and the client's TypeScript types (`web/src/generated/api.ts`) are generated from
//! them, so the three cannot disagree (a test keeps the generated files current).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;
use utoipa::ToSchema;

/// Which game a table plays (`rumis`, `rummikub`): the games' one list, `play`'s.
pub use play::game::GameKind;

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

impl Default for RummikubSettings {
    /// The preset's rules and clock, one round.
    fn default() -> Self {
        RummikubSettings {
            rules: current(),
            turn_seconds: None,
            rounds: one(),
        }
    }
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
    pub action: GameAction,
}

/// A seat's action: a Rumis placement or a Rummikub turn. Read whole before any game
/// sees it (a malformed action is a 400 whosever turn it is); the table's game then
/// refuses an action of the other game (409). The log stores it in this same form.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
#[serde(untagged, try_from = "ActionFields")]
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
        #[ts(as = "String")]
        notation: RumisMove,
    },
    Cells {
        #[ts(as = "String")]
        stone: StoneCode,
        #[ts(as = "Vec<[u8; 3]>")]
        cells: Cells,
    },
}

/// Rummikub: the whole new table (K5), a draw (K6), a new deal for three pairs (K2),
/// or dealing the next round after one ended (K9). `timeout` is the server clock's
/// (K7), in the log; a seat that sends it is refused (409).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RummikubAction {
    Play {
        #[ts(as = "Vec<Vec<String>>")]
        table: Sets,
    },
    Draw,
    Redeal,
    NextRound,
    Timeout,
}

/// The type of a Rummikub action, as [`ActionFields`] reads it.
#[derive(Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
enum RummikubType {
    Play,
    Draw,
    Redeal,
    NextRound,
    Timeout,
}

/// Every field an action may have, read first so that a malformed action gets a
/// message that says what is wrong (an untagged enum could only say "no variant").
#[derive(Deserialize)]
struct ActionFields {
    #[serde(rename = "type", default)]
    kind: Option<RummikubType>,
    #[serde(default)]
    table: Option<Sets>,
    #[serde(rename = "move", default)]
    notation: Option<RumisMove>,
    #[serde(default)]
    stone: Option<StoneCode>,
    #[serde(default)]
    cells: Option<Cells>,
}

impl TryFrom<ActionFields> for GameAction {
    type Error = String;

    fn try_from(fields: ActionFields) -> Result<GameAction, String> {
        let rumis = fields.notation.is_some() || fields.stone.is_some() || fields.cells.is_some();
        if let Some(kind) = fields.kind {
            if rumis {
                return Err("an action is a Rumis move (`move`, or `stone` and `cells`) or a Rummikub action (`type`), not both".into());
            }
            let action = match kind {
                RummikubType::Play => RummikubAction::Play {
                    table: fields
                        .table
                        .ok_or("a play needs `table`: the whole new table as lists of tiles")?,
                },
                RummikubType::Draw => RummikubAction::Draw,
                RummikubType::Redeal => RummikubAction::Redeal,
                RummikubType::NextRound => RummikubAction::NextRound,
                RummikubType::Timeout => RummikubAction::Timeout,
            };
            return Ok(GameAction::Rummikub(action));
        }
        if fields.table.is_some() {
            return Err("a Rummikub play needs `\"type\": \"play\"`".into());
        }
        match (fields.notation, fields.stone, fields.cells) {
            (Some(notation), None, None) => Ok(GameAction::Rumis(RumisAction::Notation { notation })),
            (Some(_), _, _) => Err("a Rumis action is a `move`, or a `stone` with its `cells`, not both".into()),
            (None, Some(stone), Some(cells)) => Ok(GameAction::Rumis(RumisAction::Cells { stone, cells })),
            (None, Some(_), None) => Err("the action needs `cells`: a list of [x, y, z] cells".into()),
            (None, None, Some(_)) => Err("the action needs `stone`: a stone code like \"L4\"".into()),
            (None, None, None) => Err("an action is {\"move\": \"L4 a1:1 …\"} or {\"stone\": \"L4\", \"cells\": [[x, y, z], …]} (Rumis), or {\"type\": \"play\", \"table\": [[…], …]}, {\"type\": \"draw\"}, {\"type\": \"redeal\"} or {\"type\": \"next_round\"} (Rummikub)".into()),
        }
    }
}

/// Reads a wire type from JSON text; an error names the field it is about
/// (`action.cells: invalid type: …`).
///
/// A whole number written as a float (`2.0`, `1e1`) is read as that integer: the
/// document is OpenAPI 3.1, whose JSON Schema `integer` admits it (and RFC 8259 has
/// one number type), so refusing it would refuse requests the document allows
/// (schemathesis sends them). Any other float is refused where an integer is expected.
pub fn read<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, String> {
    let mut json = serde_json::Deserializer::from_slice(bytes);
    let mut number_line: serde_json::Value =
        serde::Deserialize::deserialize(&mut json).map_err(|e| e.to_string())?;
    json.end().map_err(|e| e.to_string())?;
    whole_numbers_as_integers(&mut number_line);
    serde_path_to_error::deserialize(number_line).map_err(|e| e.to_string())
}

/// Rewrites every whole-number float in `value` as the integer it spells.
fn whole_numbers_as_integers(value: &mut serde_json::Value) {
    use serde_json::Value as Json;
    match value {
        Json::Number(n) if n.is_f64() => {
            let f = n.as_f64().unwrap_or(f64::NAN);
            // The bounds are exact powers of two: 2^64 and -2^63.
            if f.fract() == 0.0 && (0.0..18_446_744_073_709_551_616.0).contains(&f) {
                *value = Json::from(f as u64);
            } else if f.fract() == 0.0 && (-9_223_372_036_854_775_808.0..0.0).contains(&f) {
                *value = Json::from(f as i64);
            }
        }
        Json::Array(items) => items.iter_mut().for_each(whole_numbers_as_integers),
        Json::Object(fields) => fields.values_mut().for_each(whole_numbers_as_integers),
        _ => {}
    }
}

/// A string schema with a length limit and a pattern, for the types below.
fn string_schema(
    description: &str,
    max_length: Option<usize>,
    pattern: String,
) -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    ObjectBuilder::new()
        .schema_type(Type::String)
        .description(Some(description))
        .max_length(max_length)
        .pattern(Some(pattern))
        .into()
}

/// A Rumis move in the engine's notation, read by the engine's parser
/// ([`rumis::notation::parse_written`]): a text it cannot read is refused with the
/// notation's own words. Written back as it was sent.
#[derive(Clone, Debug, PartialEq)]
pub struct RumisMove {
    text: String,
    written: rumis::notation::Written,
}

impl RumisMove {
    /// Longest move text, in characters.
    pub const MAX_CHARS: usize = 200;

    pub fn parse(text: &str) -> Result<RumisMove, String> {
        if text.chars().count() > Self::MAX_CHARS {
            return Err(format!("a move has at most {} characters", Self::MAX_CHARS));
        }
        let written = rumis::notation::parse_written(text).map_err(|e| e.to_string())?;
        Ok(RumisMove {
            text: text.to_string(),
            written,
        })
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn written(&self) -> &rumis::notation::Written {
        &self.written
    }
}

impl Serialize for RumisMove {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl<'de> Deserialize<'de> for RumisMove {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = std::borrow::Cow::<str>::deserialize(d)?;
        RumisMove::parse(&text).map_err(serde::de::Error::custom)
    }
}

impl utoipa::PartialSchema for RumisMove {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        string_schema(
            "A move in the notation (`rumis::notation`): a stone and its cells, a drop, or (R16) a removal.",
            Some(Self::MAX_CHARS),
            rumis::notation::move_pattern(),
        )
    }
}

impl ToSchema for RumisMove {}

/// A Rumis stone by its code or alias (`L4`, `tripod`), as the engine reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoneCode(pub rumis::Stone);

impl Serialize for StoneCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.code())
    }
}

impl<'de> Deserialize<'de> for StoneCode {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let code = std::borrow::Cow::<str>::deserialize(d)?;
        rumis::Stone::from_code(&code)
            .map(StoneCode)
            .ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "unknown stone `{}` (stones: D2 I3 L3 I4 O4 T4 L4 S4 Y4 A4 B4)",
                    code.chars().take(20).collect::<String>()
                ))
            })
    }
}

impl utoipa::PartialSchema for StoneCode {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        string_schema("A stone's code.", None, rumis::notation::stone_pattern())
    }
}

impl ToSchema for StoneCode {}

/// The cells `[x, y, z]` of a placed stone: at most 8, each coordinate 0 to 63.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Cells(pub Vec<[u8; 3]>);

impl Cells {
    pub const MAX: usize = rumis::notation::MAX_WRITTEN_CELLS;
    /// Coordinates are below this.
    pub const LIMIT: u8 = 64;
}

impl<'de> Deserialize<'de> for Cells {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let cells = Vec::<[u8; 3]>::deserialize(d)?;
        if cells.len() > Self::MAX || cells.iter().flatten().any(|&n| n >= Self::LIMIT) {
            return Err(serde::de::Error::custom(format!(
                "`cells` must be a list of at most {} cells [x, y, z] of whole numbers 0 to {}",
                Self::MAX,
                Self::LIMIT - 1
            )));
        }
        Ok(Cells(cells))
    }
}

impl utoipa::PartialSchema for Cells {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Type};
        let coordinate = ObjectBuilder::new()
            .schema_type(Type::Integer)
            .minimum(Some(0))
            .maximum(Some(Self::LIMIT - 1));
        let cell = ArrayBuilder::new()
            .items(coordinate)
            .min_items(Some(3))
            .max_items(Some(3));
        ArrayBuilder::new()
            .items(cell)
            .max_items(Some(Self::MAX))
            .into()
    }
}

impl ToSchema for Cells {}

/// A Rummikub tile as the engine reads it (`r7`, `J`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileCode(pub rummikub::Tile);

impl Serialize for TileCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for TileCode {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = std::borrow::Cow::<str>::deserialize(d)?;
        text.parse::<rummikub::Tile>().map(TileCode).map_err(|_| {
            let shown = text.chars().take(20).collect();
            serde::de::Error::custom(rummikub::tile::ParseTileError(shown))
        })
    }
}

/// A whole Rummikub table: its sets, at most the game's 106 tiles in all.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Sets(pub Vec<Vec<TileCode>>);

impl Sets {
    pub const MAX_TILES: usize = 106;

    pub fn from_sets(sets: &[rummikub::Set]) -> Sets {
        Sets(
            sets.iter()
                .map(|set| set.tiles().iter().copied().map(TileCode).collect())
                .collect(),
        )
    }

    pub fn to_sets(&self) -> Vec<rummikub::Set> {
        self.0
            .iter()
            .map(|set| rummikub::Set::new(set.iter().map(|t| t.0).collect()))
            .collect()
    }
}

impl<'de> Deserialize<'de> for Sets {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let sets = Vec::<Vec<TileCode>>::deserialize(d)?;
        let tiles: usize = sets.iter().map(Vec::len).sum();
        if tiles > Self::MAX_TILES {
            return Err(serde::de::Error::custom(format!(
                "a table holds at most the game's {} tiles, not {tiles}",
                Self::MAX_TILES
            )));
        }
        Ok(Sets(sets))
    }
}

impl utoipa::PartialSchema for Sets {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::ArrayBuilder;
        let tile = string_schema("A tile.", None, rummikub::Tile::PATTERN.to_string());
        ArrayBuilder::new()
            .description(Some(format!(
                "The sets, at most {} tiles in all.",
                Self::MAX_TILES
            )))
            .items(ArrayBuilder::new().items(tile))
            .max_items(Some(Self::MAX_TILES))
            .into()
    }
}

impl ToSchema for Sets {}

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

/// An error's stable key, for programs and translations (`code.<code>` in the client,
/// whose compiler checks that each has a text in every language).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    AlreadySeated,
    BadCreatorSeat,
    BadName,
    BadObjective,
    BadRequest,
    BadSeats,
    BadWebsocketKey,
    BadSeed,
    BadSettings,
    BadToken,
    BinaryMessage,
    ClaimNeeded,
    Conflict,
    Error,
    Forbidden,
    GameOver,
    HeadersTooLarge,
    HelloFirst,
    HelloTwice,
    HintsBusy,
    Illegal,
    Internal,
    MalformedAction,
    MalformedMessage,
    MalformedRequest,
    MethodNotAllowed,
    NameTaken,
    NoOpenSeat,
    NoRoute,
    NoSeat,
    NoTable,
    NotAnInvite,
    NotForThisGame,
    NotFound,
    NotOver,
    NotStarted,
    NotYourSeat,
    OutOfTurn,
    PlayerNotAwayLongEnough,
    PlayerPresent,
    RangeNotSatisfiable,
    RateLimited,
    SeatIsBot,
    SeatNotBot,
    SeatNotOpen,
    SeatTaken,
    SeedNotAllowed,
    Spectator,
    Stale,
    Timeout,
    TokenInUrl,
    TokenNeeded,
    TooLarge,
    TooManyConnections,
    TooManyConnectionsFromNetwork,
    TooManyHints,
    TooManyOpenTables,
    TooManyReplays,
    TooManySeats,
    TooManyTablesPerMinute,
    Unauthorized,
    Unavailable,
    UnknownBot,
    UnknownMessage,
    Unprocessable,
    UnsupportedMediaType,
    UpgradeRequired,
    UriTooLong,
}

impl ErrorCode {
    /// The key as it is sent (`not_found`).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::AlreadySeated => "already_seated",
            ErrorCode::BadCreatorSeat => "bad_creator_seat",
            ErrorCode::BadName => "bad_name",
            ErrorCode::BadObjective => "bad_objective",
            ErrorCode::BadRequest => "bad_request",
            ErrorCode::BadSeats => "bad_seats",
            ErrorCode::BadWebsocketKey => "bad_websocket_key",
            ErrorCode::BadSeed => "bad_seed",
            ErrorCode::BadSettings => "bad_settings",
            ErrorCode::BadToken => "bad_token",
            ErrorCode::BinaryMessage => "binary_message",
            ErrorCode::ClaimNeeded => "claim_needed",
            ErrorCode::Conflict => "conflict",
            ErrorCode::Error => "error",
            ErrorCode::Forbidden => "forbidden",
            ErrorCode::GameOver => "game_over",
            ErrorCode::HeadersTooLarge => "headers_too_large",
            ErrorCode::HelloFirst => "hello_first",
            ErrorCode::HelloTwice => "hello_twice",
            ErrorCode::HintsBusy => "hints_busy",
            ErrorCode::Illegal => "illegal",
            ErrorCode::Internal => "internal",
            ErrorCode::MalformedAction => "malformed_action",
            ErrorCode::MalformedMessage => "malformed_message",
            ErrorCode::MalformedRequest => "malformed_request",
            ErrorCode::MethodNotAllowed => "method_not_allowed",
            ErrorCode::NameTaken => "name_taken",
            ErrorCode::NoOpenSeat => "no_open_seat",
            ErrorCode::NoRoute => "no_route",
            ErrorCode::NoSeat => "no_seat",
            ErrorCode::NoTable => "no_table",
            ErrorCode::NotAnInvite => "not_an_invite",
            ErrorCode::NotForThisGame => "not_for_this_game",
            ErrorCode::NotFound => "not_found",
            ErrorCode::NotOver => "not_over",
            ErrorCode::NotStarted => "not_started",
            ErrorCode::NotYourSeat => "not_your_seat",
            ErrorCode::OutOfTurn => "out_of_turn",
            ErrorCode::PlayerNotAwayLongEnough => "player_not_away_long_enough",
            ErrorCode::PlayerPresent => "player_present",
            ErrorCode::RangeNotSatisfiable => "range_not_satisfiable",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::SeatIsBot => "seat_is_bot",
            ErrorCode::SeatNotBot => "seat_not_bot",
            ErrorCode::SeatNotOpen => "seat_not_open",
            ErrorCode::SeatTaken => "seat_taken",
            ErrorCode::SeedNotAllowed => "seed_not_allowed",
            ErrorCode::Spectator => "spectator",
            ErrorCode::Stale => "stale",
            ErrorCode::Timeout => "timeout",
            ErrorCode::TokenInUrl => "token_in_url",
            ErrorCode::TokenNeeded => "token_needed",
            ErrorCode::TooLarge => "too_large",
            ErrorCode::TooManyConnections => "too_many_connections",
            ErrorCode::TooManyConnectionsFromNetwork => "too_many_connections_from_network",
            ErrorCode::TooManyHints => "too_many_hints",
            ErrorCode::TooManyOpenTables => "too_many_open_tables",
            ErrorCode::TooManyReplays => "too_many_replays",
            ErrorCode::TooManySeats => "too_many_seats",
            ErrorCode::TooManyTablesPerMinute => "too_many_tables_per_minute",
            ErrorCode::Unauthorized => "unauthorized",
            ErrorCode::Unavailable => "unavailable",
            ErrorCode::UnknownBot => "unknown_bot",
            ErrorCode::UnknownMessage => "unknown_message",
            ErrorCode::Unprocessable => "unprocessable",
            ErrorCode::UnsupportedMediaType => "unsupported_media_type",
            ErrorCode::UpgradeRequired => "upgrade_required",
            ErrorCode::UriTooLong => "uri_too_long",
        }
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<&str> for ErrorCode {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// An error: a message for a person and a key for programs (and translations).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct ErrorBody {
    pub error: String,
    pub code: ErrorCode,
    /// For a move the rules refuse: the engine's reason as a key with parameters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub why: Option<Reason>,
}

/// Why the rules refused a move, as a key (`games::reasons` maps every engine refusal
/// to one). The client has a text for each in every language (`reason.<code>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum RefusalCode {
    GameOver,
    NoSuchPlacement,
    NotColoursTurn,
    AlreadyPlaced,
    CubeCount,
    NotTheStone,
    CellTwice,
    Outside,
    TooHigh,
    Taken,
    HoleUnder,
    FirstOnBoard,
    FirstTouch,
    OwnContact,
    NoSuchOrientation,
    WouldLeave,
    FirstEdge,
    FirstFace,
    InverseOwn,
    InverseOther,
    OutsideRed,
    InsideRed,
    RebuiltOnBoard,
    RebuiltTouch,
    MustRemove,
    NoRemovalNow,
    PlaceRemoved,
    NotOnBuild,
    RemoveOutside,
    RemovalHole,
    CannotSetAside,
    RoundOver,
    NoSuchPlayer,
    NotPlayersTurn,
    SetProblem,
    ThirdCopy,
    UnknownTile,
    LeftTable,
    PlayOne,
    MeldValue,
    MeldTouch,
    Frozen,
    NoClock,
    RedealOld,
    RedealLate,
    RedealPairs,
    /// A seat name (no rule): a character that hides or reorders text, or too long.
    NameBidi,
    NameTag,
    NameControl,
    NameInvisible,
    NameTooLong,
}

/// What happened at a Rummikub table, as a key (`event.<code>` in the client).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum EventCode {
    Played,
    Melded,
    Drew,
    Passed,
    Penalty,
    Redealt,
    RoundDealt,
}

/// What is wrong with a Rummikub set, the `problem` of `set_problem` (`problem.<code>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum SetProblemCode {
    TooShort,
    Jokers,
    Neither,
}

/// A refusal as a key with parameters, for the client to say in the player's language
/// (`{"code": "hole_under", "rule": "R3", "params": {"cell": {"column": "b5",
/// "level": 2}}}`). Players are seat numbers (0-based) in `params`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
pub struct Reason {
    pub code: RefusalCode,
    /// The ruling the refusal enforces (`R7`, `K4`), for a "Why?" link.
    pub rule: Option<String>,
    #[schema(value_type = Object)]
    #[ts(type = "Record<string, unknown>")]
    pub params: BTreeMap<String, Value>,
}

/// An event as a key with parameters (`{"code": "drew", "params": {"player": 1}}`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
pub struct Event {
    pub code: EventCode,
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
    /// The game's own part, under its name: `"rumis": {…}` or `"rummikub": {…}`.
    #[serde(flatten)]
    pub state: GameView,
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
    pub fn new(settings: GameSettings, players: usize) -> TableSettings {
        TableSettings {
            game: settings.kind(),
            settings,
            players,
        }
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
}

impl TryFrom<SettingsFields> for TableSettings {
    type Error = String;

    fn try_from(fields: SettingsFields) -> Result<TableSettings, String> {
        let settings = GameSettings::of(fields.game, fields.rumis, fields.rummikub)?;
        Ok(TableSettings::new(settings, fields.players))
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
        action: GameAction,
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
        code: ErrorCode,
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

    /// What the server reads a request with.
    fn read<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
        super::read(text.as_bytes())
    }

    /// OpenAPI 3.1's `integer` admits `2.0`: it is read as 2; a fraction or a negative
    /// seat is refused like any other malformed request.
    #[test]
    fn a_whole_number_written_as_a_float_is_that_integer_and_a_fraction_is_refused() {
        assert_eq!(read::<JoinRequest>(r#"{"seat": 2}"#).unwrap().seat, Some(2));
        assert_eq!(
            read::<JoinRequest>(r#"{"seat": 2.0}"#).unwrap().seat,
            Some(2)
        );
        assert_eq!(
            read::<ActionRequest>(r#"{"version": 1e1, "action": {"type": "draw"}}"#)
                .unwrap()
                .version,
            10
        );
        assert!(read::<JoinRequest>(r#"{"seat": 2.5}"#).is_err());
        assert!(read::<JoinRequest>(r#"{"seat": -1}"#).is_err());
    }

    /// Every form the log has stored reads back as the same action, and is written
    /// again exactly as it was stored (existing databases replay).
    #[test]
    fn logged_actions_read_back_as_they_were_stored() {
        for stored in [
            r#"{"move":"L4 a1:1 b1:1 c1:1 a2:1"}"#,
            r#"{"move":"x L4 a1:1 b1:1 c1:1 a2:1"}"#,
            r#"{"type":"play","table":[["r7","r8","r9"],["J","b5","k5"]]}"#,
            r#"{"type":"draw"}"#,
            r#"{"type":"redeal"}"#,
            r#"{"type":"next_round"}"#,
            r#"{"type":"timeout"}"#,
        ] {
            let action: GameAction = read(stored).unwrap();
            assert_eq!(serde_json::to_string(&action).unwrap(), stored);
        }
        let cells: GameAction =
            read(r#"{"stone": "l4", "cells": [[0, 0, 0], [1, 0, 0]]}"#).unwrap();
        assert_eq!(
            serde_json::to_string(&cells).unwrap(),
            r#"{"stone":"L4","cells":[[0,0,0],[1,0,0]]}"#
        );
    }

    /// A malformed action is refused with what is wrong with it, in the engine's words
    /// where the engine reads it.
    #[test]
    fn a_malformed_action_says_what_is_wrong() {
        let wrong = |text: &str| read::<GameAction>(text).unwrap_err();
        assert!(wrong(r#"{"move": "X9 a1"}"#).contains("unknown stone `X9`"));
        assert!(wrong(r#"{"move": "L4 a1 b1 c1 zz"}"#).contains("`zz` is not a cell"));
        assert!(wrong(r#"{"move": "L4"}"#).contains("a move needs the stone's cells"));
        let long = format!(r#"{{"move": "L4 {}"}}"#, "a1 ".repeat(80));
        assert!(wrong(&long).contains("at most 200 characters"));
        assert!(wrong(r#"{"stone": "Q4", "cells": []}"#).contains("unknown stone `Q4`"));
        assert!(wrong(r#"{"stone": "D2", "cells": [[0, 0, 64]]}"#).contains("0 to 63"));
        assert!(wrong(r#"{"stone": "D2"}"#).contains("needs `cells`"));
        assert!(wrong(r#"{"type": "play", "table": [["r7", "r8", "r99"]]}"#).contains("r99"));
        assert!(wrong(r#"{"type": "play"}"#).contains("needs `table`"));
        assert!(wrong(r#"{"type": "jump"}"#).contains("unknown variant `jump`"));
        assert!(wrong(r#"{"type": "draw", "move": "L4 a1 b1 c1 a2"}"#).contains("not both"));
        assert!(wrong(r#"{}"#).contains("an action is"));
        assert!(wrong(r#"5"#).contains("invalid type"));
        let many = format!(
            r#"{{"type": "play", "table": [[{}]]}}"#,
            vec![r#""r1""#; 107].join(",")
        );
        assert!(wrong(&many).contains("at most the game's 106 tiles"));
    }

    /// Everything the document's move pattern admits, the engine's notation reads: the
    /// pattern only describes the notation, it never widens it.
    #[test]
    fn what_the_move_pattern_admits_the_notation_reads() {
        let matches =
            |pattern: &str, text: &str| regex::Regex::new(pattern).unwrap().is_match(text);
        let stone = rumis::notation::stone_pattern();
        let mv = rumis::notation::move_pattern();
        for code in [
            "D2", "d2", "I3", "L3", "I4", "O4", "T4", "L4", "S4", "Y4", "A4", "B4", "domino",
            "TriPod", "D", "o", "T", "s", "y",
        ] {
            assert!(matches(&stone, code), "{code}");
            assert!(rumis::Stone::from_code(code).is_some(), "{code}");
        }
        for text in [
            "L4 a1:1 b1:1 c1:1 a2:1",
            "  l4\ta1 b1   c1 a2:99 ",
            "D2/7@c3",
            "domino/123@Z99",
            "x L4",
            "X y4 a1 b2:3",
        ] {
            assert!(matches(&mv, text), "{text}");
            assert!(RumisMove::parse(text).is_ok(), "{text}");
        }
        for text in [
            "",
            "L4",
            "L4 a0",
            "L4 a1:0",
            "Q4 a1",
            "L4 a1 > aside",
            "x",
            "L4/7@c3:1",
        ] {
            assert!(!matches(&mv, text), "{text}");
        }
        for tile in ["J", "j", "r1", "R13", "k09", "o10"] {
            assert!(matches(rummikub::Tile::PATTERN, tile), "{tile}");
            assert!(tile.parse::<rummikub::Tile>().is_ok(), "{tile}");
        }
        for tile in ["r0", "r14", "x1", "r100", "jj", ""] {
            assert!(!matches(rummikub::Tile::PATTERN, tile), "{tile}");
            assert!(tile.parse::<rummikub::Tile>().is_err(), "{tile}");
        }
    }
}
