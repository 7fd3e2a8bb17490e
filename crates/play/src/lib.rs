//! What the games share (DESIGN.md, crate `play`): the [`game::Game`] trait that bots,
//! the match runner and the engine protocol use for both games; bots (random, greedy,
//! MCTS for Rumis, a planning bot for Rummikub) with levels 1–5; the match runner with
//! win shares, confidence intervals and Elo; the engine text protocol; analysis.
//!
//! Pure: no I/O; every bot draws its chance from a seed passed in.
//!
//! ```
//! use play::rumis_bots::{GreedyBot, RumisBot};
//! use rumis::{Position, Scenario, Setup};
//! let mut game = Position::new(Setup::new(Scenario::builtin("chullpa").unwrap(), 2)).unwrap();
//! let mut bot = GreedyBot::new(7);
//! let mv = bot.choose(&game).expect("the first colour can always place");
//! game.play(mv).unwrap();
//! ```

pub mod boards;
pub mod bots;
pub mod engine;
pub mod game;
pub mod match_runner;
pub mod mcts;
pub mod rating;
pub mod rumis_bots;
pub mod rumis_game;
pub mod rummikub_bots;
pub mod rummikub_game;
pub mod rummikub_puzzles;
pub mod rummikub_random;
