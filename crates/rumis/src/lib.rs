//! Rumis rules engine: stones (R5), scenarios as data (R4), the placement rules
//! (R3, R6, R7), turns and elimination (R8), scoring (R9) and the base game's variants
//! (R10, R11), with a fast incremental move generator checked against a plain
//! reference implementation.
//!
//! Pure: no I/O, no async; chance only from a seed passed in.
//!
//! ```
//! use rumis::{Position, Scenario, Setup};
//! let setup = Setup::new(Scenario::builtin("chullpa").unwrap(), 4);
//! let mut game = Position::new(setup).unwrap();
//! let first = game.legal_moves()[0];
//! game.play(first).unwrap();
//! assert_eq!(game.history().len(), 1);
//! ```

pub mod board;
pub mod colour;
mod movegen;
pub mod notation;
pub mod perft;
pub mod position;
pub mod record;
pub mod rules;
pub mod scenario;
pub mod solo;
pub mod stones;

pub use board::{Board, BoardKey, Boards, Cell, Move};
pub use colour::Colour;
pub use position::{Event, FirstStones, Position, Score, Setup, SetupError, Variant};
pub use rules::Illegal;
pub use scenario::{Provenance, Scenario, ScenarioError};
pub use stones::Stone;
