//! What the games share: bots first (random and greedy for Rumis), later the `Game`
//! trait, the match runner and the engine text protocol (see DESIGN.md).
//!
//! Pure: no I/O; every bot draws its chance from a seed passed in.
//!
//! ```
//! use play::rumis_bots::{BotKind, RumisBot};
//! use rumis::{Position, Scenario, Setup};
//! let mut game = Position::new(Setup::new(Scenario::builtin("chullpa").unwrap(), 2)).unwrap();
//! let mut bot = BotKind::Greedy.build(7);
//! let mv = bot.choose(&game).expect("the first colour can always place");
//! game.play(mv).unwrap();
//! ```

pub mod rumis_bots;
