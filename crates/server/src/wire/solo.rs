//! The solo cube (R12, `docs/rumis-solo.md`): a person builds a full cube alone.
//! The server keeps no build: every request carries the level and the stones placed so
//! far, and the server replays them through the puzzle engine (`POST /api/solo/…`).

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use super::*;

/// One of the 48 levels: the cube's edge (3, 4, 5), the colours (1 to 4), and the
/// options: the placement rules (R3, R7, colours in turn) and alternating colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema, TS)]
pub struct SoloLevel {
    #[schema(minimum = 3, maximum = 5)]
    pub edge: u8,
    #[schema(minimum = 1, maximum = 4)]
    pub colours: u8,
    pub rules: bool,
    pub alternate: bool,
}

/// A placed stone: its colour (`red`), its code (`L4`) and its cells `[x, y, z]`
/// (0-based, z = 0 at the bottom of the cube).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
pub struct SoloPiece {
    #[schema(max_length = 16)]
    pub colour: String,
    #[schema(max_length = 16)]
    pub stone: String,
    /// A stone has 2 to 4 cubes.
    #[schema(min_items = 2, max_items = 4)]
    pub cells: Vec<[u8; 3]>,
}

/// A build: the level and the stones placed so far, in their order.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct SoloBuild {
    pub level: SoloLevel,
    /// At most 62 (a cube of edge 5 holds at most 125 / 2 stones).
    #[schema(max_items = 62)]
    pub pieces: Vec<SoloPiece>,
    /// The colour the player places with next (without the rules; under the rules the
    /// colour to move): the `legal` placements of the answer are this colour's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(max_length = 16)]
    #[ts(optional)]
    pub colour: Option<String>,
}

/// `POST /api/solo/build`: the build as the 3D board shows it, with the placements
/// the chosen colour may make (resting on the build, as a stone lowered from above).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct SoloState {
    pub level: SoloLevel,
    /// The board: the cube's footprint with every column as high as the edge.
    pub view: RumisView,
    /// Every cell is filled.
    pub complete: bool,
    pub stones_used: usize,
}

/// `POST /api/solo/place`: a stone added to a build.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct SoloPlace {
    pub level: SoloLevel,
    #[schema(max_items = 62)]
    pub pieces: Vec<SoloPiece>,
    /// The stone to add; its colour may be left empty (the first colour allowed).
    pub piece: SoloPiece,
}

/// The engine's answer to a stone: legal (with the build after it) or refused with
/// its reason.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct SoloPlaced {
    pub legal: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reason: Option<String>,
    /// The reason as a key with parameters, when the client has a text for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub why: Option<Reason>,
    /// The stone as placed (its colour chosen when none was named).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub piece: Option<SoloPiece>,
}

/// What the solver says of a build within its time bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum SoloAnswer {
    Yes,
    No,
    /// The time bound ran out first.
    Unknown,
}

/// `POST /api/solo/finishable`: can this build still become a full cube?
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct SoloFinishable {
    pub answer: SoloAnswer,
    /// How long the solver searched.
    #[ts(as = "f64")]
    pub millis: u64,
}

/// `POST /api/solo/hint`: the next stone of a full cube that extends the build, if
/// the solver found one in time.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct SoloHint {
    pub answer: SoloAnswer,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub piece: Option<SoloPiece>,
}

/// Why a level has no full cube (`docs/rumis-solo.md`, PD1, PD5, PD6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum SoloImpossible {
    /// The colours hold fewer cubes than the cube has cells (40 a colour).
    TooFewCubes,
    /// One colour cannot alternate with itself.
    OneColourAlternates,
    /// Under the rules a colour places two stones, and R7 makes them touch.
    RulesAgainstAlternate,
    /// The solver searched every way and found none.
    SearchExhausted,
}

/// A level of the list: whether it has a full cube, and why not.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct SoloLevelInfo {
    pub level: SoloLevel,
    pub solvable: SoloAnswer,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub impossible: Option<SoloImpossible>,
    /// Cells of the cube, and cubes the colours hold.
    pub cells: u32,
    pub cubes: u32,
}

/// `GET /api/solo/levels`: the 48 levels, edge by edge.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct SoloLevels {
    pub levels: Vec<SoloLevelInfo>,
}

/// A finished cube's time, sent to be kept as the account's best.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct SoloFinish {
    pub level: SoloLevel,
    /// The full cube: checked stone by stone.
    #[schema(max_items = 62)]
    pub pieces: Vec<SoloPiece>,
    /// 1 ms to a day.
    #[ts(as = "f64")]
    #[schema(minimum = 1, maximum = 86_400_000)]
    pub millis: u64,
}

/// An account's best time on a level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
pub struct SoloBest {
    pub level: SoloLevel,
    #[ts(as = "f64")]
    pub millis: u64,
    pub stones: u32,
    #[ts(as = "f64")]
    pub at_ms: i64,
}

/// `GET /api/me/solo`: the account's best time on each level it finished.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct SoloBests {
    pub bests: Vec<SoloBest>,
}

/// `POST /api/me/solo`: the time counted, the account's best on the level now (none
/// yet: `null`), and whether this time is it. A cube built with hints counts no best.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct SoloRecorded {
    pub best: Option<SoloBest>,
    pub new_best: bool,
    /// The time counted: the one sent, or the server's own since it saw the cube
    /// begin, whichever is longer.
    #[ts(as = "f64")]
    pub millis: u64,
    /// Hints asked for this cube (by this account, since it began).
    pub hints: u32,
}
