//! Oracles for checking the Rummikub solver, sharing no code with it:
//!
//! - [`ilp`]: den Hertog & Hulshof's integer program (2006) over every valid set,
//!   extended with the initial meld, frozen joker sets and the fewest-changed-sets
//!   tie-break, solved by `good_lp` with the pure-Rust `microlp` backend;
//! - [`suite`]: seeded positions from self-play games of the random bot, at every stage.
//!
//! The rules engine (`rummikub`) is used for its types and, in the tests, to validate
//! answers; the set enumeration and values here are written independently of it.

pub mod ilp;
pub mod suite;
