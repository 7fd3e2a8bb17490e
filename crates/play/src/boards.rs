//! The process's shared Rumis boards: one [`rumis::Boards`] for every user of the game
//! trait (bots, the match runner, the server), so that games of the same board share
//! its placement tables (1–3 MB each) instead of building their own.

use std::sync::OnceLock;

use rumis::{Boards, Position, Setup, SetupError};

/// The process-wide cache of boards.
pub fn shared() -> &'static Boards {
    static SHARED: OnceLock<Boards> = OnceLock::new();
    SHARED.get_or_init(Boards::new)
}

/// A new game on the shared board of its setup.
pub fn position(setup: Setup) -> Result<Position, SetupError> {
    shared().position(setup)
}
