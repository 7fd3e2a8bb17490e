//! Rumis rules engine.
