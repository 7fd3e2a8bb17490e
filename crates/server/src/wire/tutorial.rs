//! The tutorials: a short list of fixed positions per game, each with a task the
//! engine checks (`GET /api/tutorial/{game}`, `POST /api/tutorial/{game}/{step}/check`).

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use super::*;

/// A tutorial step by key, unique over both games; the client has its texts in every
/// language (`tutorial.<key>.title`, `.task`, `.hint`, `.done`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum TutorialKey {
    RumisFirstStone,
    RumisFirstTouch,
    RumisOwnColour,
    RumisNoHole,
    RumisHeight,
    RumisScoring,
    RummikubGroup,
    RummikubRun,
    RummikubInitialMeld,
    RummikubAddToSet,
    RummikubRearrange,
    RummikubJoker,
}

/// What a step asks for. Every goal needs a move the rules accept; some ask for more,
/// judged on the engine's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum TutorialGoal {
    /// Any move the rules accept.
    Legal,
    /// Rumis: a stone with a cube above the board's level.
    BuildUp,
    /// Rumis: a stone that reaches the highest level the board allows there.
    ReachTop,
    /// Rumis: a move that ends the game with the learner the only winner.
    WinGame,
    /// Rummikub: a new set of rack tiles that is a group.
    Group,
    /// Rummikub: a new set of rack tiles that is a run.
    Run,
    /// Rummikub: tiles added to a set already on the table.
    AddToSet,
    /// Rummikub: a set of the table taken apart or moved into others.
    Rearrange,
    /// Rummikub: the table's joker freed and played in a set with a rack tile.
    FreeJoker,
}

/// `GET /api/tutorial/{game}`: the game's steps in order.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct Tutorial {
    pub game: GameKind,
    pub steps: Vec<TutorialStep>,
}

/// One step: a position, what to do there, and a typical wrong try.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct TutorialStep {
    /// 1-based, as in the check's address.
    pub number: u32,
    pub key: TutorialKey,
    /// The rulings it teaches (`R6`, `K4`), the main one first.
    pub rules: Vec<String>,
    pub goal: TutorialGoal,
    /// The position as the learner's seat (`you`, the seat to move) sees it.
    pub view: TableView,
    /// A move the engine refuses here (or, on a step whose goal asks for more than a
    /// legal move, one that misses it): shown on request, with the engine's answer.
    #[schema(value_type = WireAction)]
    #[ts(as = "WireAction")]
    pub wrong: GameAction,
}

/// `POST /api/tutorial/{game}/{step}/check`: the engine's answer to a move on the step.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct TutorialCheck {
    /// The rules accept the move and it does what the step asks.
    pub done: bool,
    /// The rules accept the move.
    pub legal: bool,
    /// Why the rules refuse it, in English.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reason: Option<String>,
    /// The refusal as a key with parameters (`reason.<code>` in the client).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub why: Option<Reason>,
    /// The position after a legal move, as the learner sees it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub view: Option<TableView>,
}
