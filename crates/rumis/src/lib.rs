//! Rumis rules engine.
pub mod scenario;
pub mod stones;
