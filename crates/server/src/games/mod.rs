//! The games a table can hold, behind one small interface the server needs: apply a
//! seat's action (as JSON), build a seat's view (as JSON), whose turn, the result, and a
//! bot's action. Every rule is the rules engine's; this layer only translates.
//!
//! Hidden information: views are built per seat from the engine's per-player view, so
//! a Rummikub rack can only reach its own seat.

mod rumis_table;
pub(crate) mod rummikub_table;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use rumis_table::{RumisConfig, RumisTable};
pub use rummikub_table::{RummikubConfig, RummikubTable};

/// Which game a table plays, with its settings; stored with the table.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "game", rename_all = "lowercase")]
pub enum GameConfig {
    Rumis { rumis: RumisConfig },
    Rummikub { rummikub: RummikubConfig },
}

/// Why a seat's action was refused. The text is for the person who sent it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The action could not be read (HTTP 400).
    #[error("{0}")]
    Malformed(String),
    /// It is not this seat's turn (HTTP 409).
    #[error("{0}")]
    OutOfTurn(String),
    /// The rules forbid it (HTTP 409).
    #[error("{0}")]
    Illegal(String),
}

/// Who made an action: a seat, or the server's clock (K7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actor {
    Seat(usize),
    Clock,
}

/// The outcome of a finished game, for the view and the lobby.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameResult {
    pub winners: Vec<usize>,
    pub scores: Vec<i64>,
}

/// A game in progress at a table.
#[derive(Clone)]
pub enum TableGame {
    Rumis(Box<RumisTable>),
    Rummikub(Box<RummikubTable>),
}

impl TableGame {
    /// A new game; a bad configuration is a specific error.
    pub fn new(config: &GameConfig, seed: u64) -> Result<TableGame, String> {
        Ok(match config {
            GameConfig::Rumis { rumis } => {
                TableGame::Rumis(Box::new(RumisTable::new(rumis, seed)?))
            }
            GameConfig::Rummikub { rummikub } => {
                TableGame::Rummikub(Box::new(RummikubTable::new(rummikub, seed)?))
            }
        })
    }

    pub fn seat_count(&self) -> usize {
        match self {
            TableGame::Rumis(g) => g.seat_count(),
            TableGame::Rummikub(g) => g.seat_count(),
        }
    }

    /// The seat whose turn it is; `None` when nobody is to act (game or round over).
    pub fn to_move(&self) -> Option<usize> {
        match self {
            TableGame::Rumis(g) => g.to_move(),
            TableGame::Rummikub(g) => g.to_move(),
        }
    }

    pub fn is_over(&self) -> bool {
        match self {
            TableGame::Rumis(g) => g.is_over(),
            TableGame::Rummikub(g) => g.is_over(),
        }
    }

    /// Set when the game is over.
    pub fn result(&self) -> Option<GameResult> {
        match self {
            TableGame::Rumis(g) => g.result(),
            TableGame::Rummikub(g) => g.result(),
        }
    }

    /// Applies an action; a refused action changes nothing. Returns the action in the
    /// canonical form that is stored in the log and replayed after a restart.
    pub fn apply(&mut self, actor: Actor, action: &Value) -> Result<Value, ActionError> {
        match self {
            TableGame::Rumis(g) => match actor {
                Actor::Seat(seat) => g.apply(seat, action),
                Actor::Clock => Err(ActionError::Illegal("Rumis has no turn clock".into())),
            },
            TableGame::Rummikub(g) => g.apply(actor, action),
        }
    }

    /// The game part of a view for `seat` (`None`: a spectator). `full` adds what
    /// never changes during a game (the Rumis stones' orientations): a connection gets
    /// it once, not with every update.
    pub fn view(&self, seat: Option<usize>, full: bool) -> Value {
        match self {
            TableGame::Rumis(g) => g.view(seat, full),
            TableGame::Rummikub(g) => g.view(seat),
        }
    }

    /// The turn clock in seconds, when the game has one running now (K7).
    pub fn turn_seconds(&self) -> Option<u32> {
        match self {
            TableGame::Rumis(_) => None,
            TableGame::Rummikub(g) => g.turn_seconds(),
        }
    }

    /// Whether a finished round waits for someone to start the next.
    pub fn awaits_next_round(&self) -> bool {
        match self {
            TableGame::Rumis(_) => false,
            TableGame::Rummikub(g) => g.awaits_next_round(),
        }
    }

    /// The action a bot of this name takes for `seat`; `seed` fixes its chance.
    pub fn bot_action(&self, bot: &str, seat: usize, seed: u64) -> Option<Value> {
        match self {
            TableGame::Rumis(g) => g.bot_action(bot, seat, seed),
            TableGame::Rummikub(g) => g.bot_action(bot, seat, seed),
        }
    }

    /// The game as a text record, for download and replay.
    pub fn record(&self) -> String {
        match self {
            TableGame::Rumis(g) => g.record(),
            TableGame::Rummikub(g) => g.record(),
        }
    }
}

/// The bots a seat can be given, per game.
pub fn bot_names(game: &str) -> &'static [&'static str] {
    match game {
        "rumis" => &[
            "random", "greedy", "mcts:1", "mcts:2", "mcts:3", "mcts:4", "mcts:5",
        ],
        _ => &[
            "random",
            "greedy",
            "keeper",
            "planner:1",
            "planner:2",
            "planner:3",
            "planner:4",
            "planner:5",
        ],
    }
}

/// Reads a field of an action object, with a message that says what was expected.
fn field<'a>(action: &'a Value, name: &str, expected: &str) -> Result<&'a Value, ActionError> {
    action
        .get(name)
        .ok_or_else(|| ActionError::Malformed(format!("the action needs `{name}`: {expected}")))
}
