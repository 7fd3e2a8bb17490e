//! Rummikub rules engine: tiles, sets, rule presets, seeded deals, turn validation,
//! scoring, per-player views, notation and round records.
//!
//! The engine is pure: no I/O, and randomness only from a seed passed in. Rules follow
//! seed 002 as settled by rulings K1–K10 (`docs/rulings.md`); decisions the rulings leave
//! open are listed as KD1… in `docs/rummikub-rules.md`.
//!
//! ```
//! use rummikub::{notation::parse_table, Action, Round, RuleSet, TurnError};
//!
//! let mut round = Round::new(RuleSet::current(), 2, 42).unwrap();
//! let player = round.current_player();
//! // A turn is the player's whole new table; a bad one is rejected and changes nothing.
//! let error = round.apply(player, Action::Play(parse_table("[r1 r2]").unwrap()));
//! assert!(error.is_err());
//! round.apply(player, Action::Draw).unwrap();
//! assert_eq!(round.rack(player).len(), 15);
//! ```

pub mod deal;
pub mod notation;
pub mod record;
pub mod round;
pub mod rules;
pub mod series;
pub mod set;
pub mod tile;
pub mod view;

pub use round::{Action, EndReason, Event, Move, Round, RoundOutcome, RoundSetup, TurnError};
pub use rules::{GameLength, RuleSet};
pub use series::RoundSeries;
pub use set::Set;
pub use tile::{Colour, Tile};
pub use view::PlayerView;
