//! Rummikub puzzles: the daily puzzle and the older ones, each a table and a rack whose
//! best play needs at least two table sets rearranged (`/api/puzzles/rummikub…`).

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use super::*;

/// A puzzle as posed (`GET /api/puzzles/rummikub/daily`, `…/{id}`): no solution.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct RummikubPuzzleView {
    /// The puzzle's id: its date, `YYYY-MM-DD` (UTC).
    pub id: String,
    /// 1 (two sets to change, no joker) to 5: the fewest sets a best play changes,
    /// less one, plus the jokers in play.
    pub difficulty: u8,
    /// Rack tiles to lay: the whole rack, or fewer when `goal` < the rack's size.
    pub goal: u32,
    /// The fewest table sets any play laying `goal` tiles changes (at least 2).
    pub changed_sets: u32,
    /// The table's sets, as the engine writes tiles (`r7`, `J`).
    pub table: Vec<Vec<String>>,
    pub rack: Vec<String>,
    /// The rules the puzzle is played under (the current ones, without a clock; the
    /// puzzle player has made the initial meld).
    pub rules: RulesView,
}

/// One puzzle in the list of the recent daily puzzles.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct RummikubPuzzleSummary {
    pub id: String,
    pub difficulty: u8,
    pub goal: u32,
    /// Tiles on the rack.
    pub rack: u32,
    pub changed_sets: u32,
}

/// `GET /api/puzzles/rummikub`: today's date and the daily puzzles of the last days,
/// newest first (today's included).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct RummikubPuzzleList {
    pub today: String,
    pub puzzles: Vec<RummikubPuzzleSummary>,
}

/// `POST /api/puzzles/rummikub/{id}/check`: the player's whole new table.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct RummikubPuzzleAttempt {
    #[ts(as = "Vec<Vec<String>>")]
    pub table: Sets,
}

/// How a table fares against a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum PuzzleVerdict {
    /// The rules accept it and it lays the goal.
    Solved,
    /// The rules refuse it (`why`: an invalid set and which, a table tile missing, a
    /// tile that is neither on the table nor on the rack…).
    Refused,
    /// The rules accept it, but it lays fewer tiles than the goal.
    Short,
}

/// The engine's answer to a table for a puzzle.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct RummikubPuzzleCheck {
    pub solved: bool,
    pub code: PuzzleVerdict,
    /// Rack tiles the table lays (0 when refused).
    pub laid: u32,
    pub goal: u32,
    /// Why not, in English.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reason: Option<String>,
    /// A refusal as a key with parameters (`reason.<code>` in the client).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub why: Option<Reason>,
}

/// `GET /api/puzzles/rummikub/{id}/solution`: a best play, revealed.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct RummikubPuzzleSolution {
    pub id: String,
    /// The whole new table.
    pub table: Vec<Vec<String>>,
    /// The rack tiles it lays.
    pub laid: Vec<String>,
    /// The old table's sets (by index, from 0) it changes.
    pub changed: Vec<u32>,
}
