//! Reviews of finished games (`GET /api/tables/{id}/review`): every turn against the
//! best the engines find, computed once in the background (see `docs/reviews.md`).

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use super::*;

/// Whether a review is being computed or done.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "lowercase")]
pub enum ReviewStatus {
    Pending,
    Ready,
}

/// A finished game's review. While `pending`, `turns` and `players` are empty and
/// `progress` says how far the computation is (0 to 1); once `ready`, every turn.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct ReviewAnswer {
    pub id: String,
    pub status: ReviewStatus,
    /// Turns reviewed, of all turns (0 to 1).
    pub progress: f64,
    pub game: GameKind,
    pub turns: Vec<ReviewTurn>,
    pub players: Vec<ReviewPlayer>,
    /// Rumis: how the win chances were found and how moves are judged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rumis: Option<RumisReviewMethod>,
}

/// One turn: the seat's action of log version `version` (the replay's step
/// `version - 1` is the position before it, step `version` the one after), reviewed
/// by its game.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct ReviewTurn {
    #[ts(as = "f64")]
    pub version: u64,
    pub seat: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rummikub: Option<RummikubTurnReview>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rumis: Option<RumisTurnReview>,
}

/// What a Rummikub player did on a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "lowercase")]
pub enum PlayedKind {
    /// Laid tiles (K5).
    Play,
    /// Drew a tile (K6).
    Draw,
    /// Could not draw: the pool is empty.
    Pass,
    /// The turn clock ran out (K7).
    Timeout,
}

/// The action a Rummikub turn took, and the table it left.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct RummikubPlayed {
    pub kind: PlayedKind,
    /// The rack tiles laid.
    pub placed: Vec<String>,
    pub tiles: u32,
    /// How much the table's value grew (KD11), as the solver counts `value`.
    pub value: u32,
    pub table: Vec<Vec<String>>,
}

/// A Rummikub turn against the exact solver, from the rack the player had and the
/// table before the turn (the initial meld, K4, as it stood for them).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct RummikubTurnReview {
    pub round: u32,
    pub rack: Vec<String>,
    pub table: Vec<Vec<String>>,
    /// Whether the player had made the initial meld before the turn.
    pub melded: bool,
    pub played: RummikubPlayed,
    /// The most tiles the player could lay (`null`: no play was possible).
    pub best_tiles: Option<HintPlay>,
    /// The most value the player could lay (`null`: no play was possible).
    pub best_value: Option<HintPlay>,
    /// The position was too large for the solver: no best play is known.
    pub unsolved: bool,
    /// The player drew (or ran out of time) although a play was possible.
    pub drew_with_play: bool,
    /// Tiles the best play by tiles lays beyond what was laid.
    pub tiles_missed: u32,
    /// Points the best play by value lays beyond what was laid.
    pub points_missed: u32,
}

/// How a Rumis move is judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "lowercase")]
pub enum Judgement {
    Inaccuracy,
    Mistake,
    Blunder,
}

/// A Rumis move against the strongest bot's analysis.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct RumisTurnReview {
    /// The move played, in the project's notation.
    #[serde(rename = "move")]
    pub notation: String,
    /// The colour that was placed.
    pub colour: String,
    /// Every player's win chance before the move (0 to 1, by seat).
    pub before: Vec<f64>,
    /// Every player's win chance after it (the next position's analysis; after the
    /// last move, the result).
    pub after: Vec<f64>,
    /// The bot's best move here, with the mover's win chance after it (`null`: the
    /// move was forced).
    pub best: Option<RumisSuggestion>,
    /// How much the mover's win chance fell, in percentage points (0 when the best
    /// move was played).
    pub drop: f64,
    pub judgement: Option<Judgement>,
    /// The only legal move: not searched.
    pub forced: bool,
}

/// How a Rumis review was computed.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct RumisReviewMethod {
    /// Playouts of the strongest bot's search per position (a fixed seed: the same
    /// review every time).
    pub playouts: u32,
    /// Drops in win chance, in percentage points, from which a move is an
    /// inaccuracy, a mistake, a blunder.
    pub inaccuracy: f64,
    pub mistake: f64,
    pub blunder: f64,
}

/// A player over the whole game.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct ReviewPlayer {
    pub seat: usize,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rummikub: Option<RummikubPlayerReview>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rumis: Option<RumisPlayerReview>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize, ToSchema, TS)]
pub struct RummikubPlayerReview {
    pub turns: u32,
    pub plays: u32,
    pub tiles_laid: u32,
    /// The best play's tiles, summed over the turns.
    pub tiles_possible: u32,
    /// Turns drawn (or timed out) although a play was possible.
    pub draws_with_play: u32,
    /// Points left on the rack that the best play by value would have laid, summed.
    pub points_missed: u32,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize, ToSchema, TS)]
pub struct RumisPlayerReview {
    pub colours: Vec<String>,
    pub moves: u32,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
    /// The mean drop in win chance per move, in percentage points.
    pub average_drop: f64,
}
