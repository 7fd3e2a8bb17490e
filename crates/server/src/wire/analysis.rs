//! The analysis board: a Rummikub position set up by hand and solved, a Rumis record
//! replayed and asked for the strongest bot's best moves (`/api/analysis/…`).

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use super::*;

/// `POST /api/analysis/rummikub`: a table and a rack in the notation of `rumi solve`.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct RummikubAnalysisRequest {
    /// The table: sets in brackets (`"[r1 r2 r3] [b5 k5 o5]"`); empty for an empty table.
    #[serde(default)]
    pub table: String,
    /// The rack: tiles such as `"r4 J b7"` (`J` is a joker).
    pub rack: String,
    /// A rule set: `current` (the default) or `old`.
    #[serde(default)]
    #[ts(optional)]
    pub rules: Option<String>,
    /// The player has not made the initial meld yet (K4).
    #[serde(default)]
    #[ts(optional)]
    pub initial: Option<bool>,
}

/// The best plays of a position: by tiles laid and by value laid (`null`: no tile can
/// be laid, the player draws), with the table and rack as read.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct RummikubAnalysis {
    pub table: Vec<Vec<String>>,
    pub rack: Vec<String>,
    pub by_tiles: Option<HintPlay>,
    pub by_value: Option<HintPlay>,
}

/// `POST /api/analysis/rumis`: a game record (`rumi play --record`, or a replay's
/// record), and for the best moves the number of its moves to play first.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct RumisAnalysisRequest {
    pub record: String,
    /// `POST /api/analysis/rumis/best`: the moves of the record played before the
    /// search (0: the start); the whole record when absent.
    #[serde(default)]
    #[ts(optional)]
    pub ply: Option<u32>,
}

/// A record replayed: the board before the first move and after each. So that the
/// answer grows with the record, not with its square, a step after the first carries
/// only what changed: its cubes are the first `kept[i].cubes` cubes of the step
/// before, then its own `cubes`; its history likewise (`kept[i].history`).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct RumisAnalysis {
    /// `steps[i]`: the board after the first `i` moves of the record (in full for
    /// `i = 0`, else what changed).
    pub steps: Vec<RumisView>,
    /// Per step, what it keeps of the step before (`{0, 0}` for the first).
    pub kept: Vec<StepKept>,
    /// The record's moves as written there.
    pub moves: Vec<String>,
}

/// What a step of a replayed record keeps of the step before it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
pub struct StepKept {
    pub cubes: u32,
    pub history: u32,
}

/// `POST /api/analysis/rumis/position`: the board after a record's moves (or its
/// first `ply`) as the colour to move sees it, legal placements and all, so that a
/// person plays on from there; the client keeps the moves as a record.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct RumisAnalysisPosition {
    /// The seat to move (0-based; `null`: the game is over).
    pub to_move: Option<u32>,
    pub view: RumisView,
}

/// The strongest bot's best moves at a point of a record, with win chances.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct RumisBestMoves {
    pub ply: u32,
    /// The colour to move (`null`: the game is over there).
    pub to_move: Option<String>,
    pub moves: Vec<RumisSuggestion>,
}
