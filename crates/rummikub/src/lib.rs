//! Rummikub rules engine (see issue 3).
