//! The turn clock both games share: how a table's settings become seconds per turn
//! (with the rated tables' rules, RT9), and the time-outs in a row that make a player
//! leave the game (RD17, K7). One place, so that a later clock model (live or days
//! per move) replaces this file and the two settings that feed it.

use crate::wire::{GameSettings, TableSettings};

/// A rated table's clock when its settings name none: every rated game has a clock
/// (RT9), so that a loser cannot hold it hostage by never moving.
pub const RATED_DEFAULT_TURN_SECONDS: u32 = 60;

/// The shortest turn at a rated table (RT9): a shorter clock decides games by a
/// player's connection and reflexes rather than by the game (a Rumis stone takes a
/// few seconds to turn into place; a Rummikub table takes longer to rearrange).
pub const RATED_MIN_TURN_SECONDS: u32 = 20;

/// The longest turn a clock may give (the settings' documented maximum).
pub const MAX_TURN_SECONDS: u32 = 3600;

/// Time-outs in a row after which a player leaves the game and a bot plays their
/// seat on (RD17, K7).
pub const TIME_OUTS_TO_LEAVE: u8 = 2;

/// The bot that takes over the seat of a player who left: the first registered bot
/// of the strongest level (the level the client offers for hand-overs at its top).
pub fn leaver_bot(game: crate::wire::GameKind) -> &'static str {
    let strongest = super::bots(game).map(|b| b.level).max().unwrap_or(0);
    super::bots(game)
        .find(|b| b.level == strongest)
        .map_or("random", |b| b.spec)
}

/// Why settings' clock is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClockRefusal {
    /// A malformed clock (0 s, or more than [`MAX_TURN_SECONDS`]).
    Bad(String),
    /// A rated table without a clock or with a clock under the minimum (RT9).
    Rated(String),
}

/// The clock a table's settings ask for, in the shape both games share: missing
/// (`None`), switched off (`Some(None)`) or seconds (`Some(Some(s))`).
fn requested(settings: &GameSettings) -> Option<Option<u32>> {
    match settings {
        GameSettings::Rumis(rumis) => rumis.turn_seconds,
        GameSettings::Rummikub(rummikub) => rummikub.turn_seconds,
    }
}

fn requested_mut(settings: &mut GameSettings) -> &mut Option<Option<u32>> {
    match settings {
        GameSettings::Rumis(rumis) => &mut rumis.turn_seconds,
        GameSettings::Rummikub(rummikub) => &mut rummikub.turn_seconds,
    }
}

/// Checks a new table's clock and writes the one it gets into its settings, so that
/// the stored table keeps it whatever later defaults become: a rated table without
/// one gets [`RATED_DEFAULT_TURN_SECONDS`] (Rumis) or its preset's clock (Rummikub,
/// if it has one); `null` or a clock under [`RATED_MIN_TURN_SECONDS`] at a rated
/// table is refused (RT9). `preset_seconds` is the clock the game keeps when the
/// settings name none.
pub fn settle_new_table(
    settings: &mut TableSettings,
    preset_seconds: Option<u32>,
) -> Result<(), ClockRefusal> {
    let rated = settings.rated;
    let slot = requested_mut(&mut settings.settings);
    if let Some(Some(seconds)) = *slot {
        if seconds == 0 || seconds > MAX_TURN_SECONDS {
            return Err(ClockRefusal::Bad(format!(
                "`turn_seconds` is 1 to {MAX_TURN_SECONDS}"
            )));
        }
    }
    if !rated {
        return Ok(());
    }
    match *slot {
        Some(None) => Err(ClockRefusal::Rated(format!(
            "a rated table has a turn clock (`turn_seconds` of at least {RATED_MIN_TURN_SECONDS}; \
             missing gives {RATED_DEFAULT_TURN_SECONDS} s): without one a player could hold the game hostage"
        ))),
        Some(Some(seconds)) if seconds < RATED_MIN_TURN_SECONDS => Err(ClockRefusal::Rated(
            format!(
                "a rated table gives at least {RATED_MIN_TURN_SECONDS} s per turn, not {seconds} s"
            ),
        )),
        Some(Some(_)) => Ok(()),
        None => {
            let seconds = preset_seconds
                .filter(|&s| s >= RATED_MIN_TURN_SECONDS)
                .unwrap_or(RATED_DEFAULT_TURN_SECONDS);
            *slot = Some(Some(seconds));
            Ok(())
        }
    }
}

/// A rematch's clock: its table's, or, at a rated table made before rated tables had
/// clocks (none, or a short one), the rated default (RT9).
pub fn settle_rematch(settings: &mut TableSettings) {
    if settle_new_table(settings, None).is_err() {
        *requested_mut(&mut settings.settings) = Some(Some(RATED_DEFAULT_TURN_SECONDS));
    }
}

/// The seconds per turn a Rumis table's settings give (missing or `null`: none).
pub fn rumis_turn_seconds(settings: &crate::wire::RumisSettings) -> Option<u32> {
    settings.turn_seconds.flatten()
}

/// The clock a table's settings ask for, when they name one (for views of tables
/// whose game is not built, such as a challenge).
pub fn named_turn_seconds(settings: &TableSettings) -> Option<Option<u32>> {
    requested(&settings.settings)
}

/// Each seat's time-outs in a row and whether its player left (RD17, K7), kept by the
/// game as it is played, so that a replay of the log rebuilds them.
#[derive(Clone, Debug, Default)]
pub struct TimeOuts {
    in_a_row: Vec<u8>,
    left: Vec<bool>,
}

impl TimeOuts {
    pub fn new(seats: usize) -> TimeOuts {
        TimeOuts {
            in_a_row: vec![0; seats],
            left: vec![false; seats],
        }
    }

    /// The seat acted itself: its time-outs no longer run in a row.
    pub fn acted(&mut self, seat: usize) {
        if let Some(n) = self.in_a_row.get_mut(seat) {
            *n = 0;
        }
    }

    /// The seat's clock ran out; true when its player leaves the game now.
    pub fn timed_out(&mut self, seat: usize) -> bool {
        let (Some(n), Some(left)) = (self.in_a_row.get_mut(seat), self.left.get_mut(seat)) else {
            return false;
        };
        *n = n.saturating_add(1);
        if *n >= TIME_OUTS_TO_LEAVE && !*left {
            *left = true;
            return true;
        }
        false
    }

    /// Whether the seat's player left the game.
    pub fn has_left(&self, seat: usize) -> bool {
        self.left.get(seat).copied().unwrap_or(false)
    }

    /// Each seat: whether its player left.
    pub fn left(&self) -> &[bool] {
        &self.left
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_time_outs_in_a_row_leave_and_acting_between_resets() {
        let mut t = TimeOuts::new(2);
        assert!(!t.timed_out(0));
        t.acted(0);
        assert!(!t.timed_out(0));
        assert!(!t.timed_out(1));
        assert!(t.timed_out(0), "the second in a row");
        assert!(!t.timed_out(0), "once");
        assert_eq!(t.left(), &[true, false]);
    }
}
