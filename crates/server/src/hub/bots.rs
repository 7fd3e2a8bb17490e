//! The bots of a table's seats, kept between their moves, and what happens when one
//! fails.
//!
//! Each bot seat of a loaded table keeps its bot object ([`SeatBot`]) from one of its
//! moves to the next, so that what it learnt carries over (an MCTS tree, the solver's
//! cache); it is dropped with the table, and built anew after a restart, a hand-over
//! to another node, or a change of the seat's bot. While it thinks it is taken out of
//! its slot and runs on the thinking pool.
//!
//! A bot fails when it answers with an error, panics, or chooses an action the rules
//! refuse. Its table then shows the trouble in every view ([`BotTrouble`]); the server
//! logs it and retries with a fresh bot after pauses that double from
//! [`super::HubOptions::bot_retry_after`], [`BOT_RETRIES`] times; then a simpler bot
//! moves for the seat (the game's fallback, [`crate::games::TableGame::fallback_action`]),
//! so that the table never waits for ever. On the seat's next turn its own bot tries
//! once more; the trouble clears when it moves.

use std::time::Duration;

use play::game::GameError;

use crate::games::{BotFailure, SeatBot};
use crate::wire::{BotTrouble, BotTroubleCode};

use super::Seat;

/// Retries of a failing bot before a simpler bot moves for its seat.
pub const BOT_RETRIES: u32 = 3;

/// A seat's trouble, as kept with the table.
#[derive(Clone, Debug)]
struct Trouble {
    /// The bot spec that failed: a seat given another bot starts clean.
    spec: String,
    code: BotTroubleCode,
    since_ms: i64,
    retries: u32,
    fallback: bool,
}

/// What to do after a failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterFailure {
    /// Try again with a fresh bot after this pause.
    Retry(Duration),
    /// Let the simpler bot move for the seat.
    Fallback,
}

/// The kept bots and the trouble of one table's seats.
#[derive(Default)]
pub struct SeatBots {
    kept: Vec<Option<SeatBot>>,
    trouble: Vec<Option<Trouble>>,
    /// The (version, seat epoch) whose bot turn a driver has taken on.
    turn: Option<(u64, u64)>,
}

impl SeatBots {
    /// Takes on the bot turn of `(version, epoch)`, unless a driver already has (two
    /// drivers can be planned from one state: the bot would think twice, and a failure
    /// count twice).
    pub fn claim_turn(&mut self, version: u64, epoch: u64) -> bool {
        if self.turn == Some((version, epoch)) {
            return false;
        }
        self.turn = Some((version, epoch));
        true
    }

    /// Forgets the bots and trouble of seats that are no longer played by the same bot
    /// (taken back by their player, or given another bot).
    pub fn sync(&mut self, seats: &[Seat]) {
        let spec_of = |seat: usize| seats.get(seat).and_then(|s| s.stored.bot.as_deref());
        for (seat, slot) in self.kept.iter_mut().enumerate() {
            if slot
                .as_ref()
                .is_some_and(|b| Some(b.spec()) != spec_of(seat))
            {
                *slot = None;
            }
        }
        for (seat, slot) in self.trouble.iter_mut().enumerate() {
            if slot
                .as_ref()
                .is_some_and(|t| Some(t.spec.as_str()) != spec_of(seat))
            {
                *slot = None;
            }
        }
    }

    /// The seat's kept bot if it is of `spec`, else one from `build`; taken out of its
    /// slot while it thinks.
    pub fn take(
        &mut self,
        seat: usize,
        spec: &str,
        build: impl FnOnce() -> Result<SeatBot, GameError>,
    ) -> Result<SeatBot, GameError> {
        match self.kept.get_mut(seat).and_then(Option::take) {
            Some(bot) if bot.spec() == spec => Ok(bot),
            _ => build(),
        }
    }

    /// Puts a bot back after its move, for its seat's next one.
    pub fn put_back(&mut self, seat: usize, bot: SeatBot) {
        if self.kept.len() <= seat {
            self.kept.resize_with(seat + 1, || None);
        }
        self.kept[seat] = Some(bot);
    }

    /// The bot kept for a seat between its moves.
    #[cfg(test)]
    pub fn kept(&self, seat: usize) -> Option<&SeatBot> {
        self.kept.get(seat)?.as_ref()
    }

    /// The seat's own bot moved: its trouble is over.
    pub fn moved(&mut self, seat: usize) {
        if let Some(slot) = self.trouble.get_mut(seat) {
            *slot = None;
        }
    }

    /// Notes a failure of the seat's bot and says what comes next: a retry after a
    /// pause that doubles from `retry_after`, or, once [`BOT_RETRIES`] are spent (or
    /// the seat is already on its fallback), the simpler bot.
    pub fn failed(
        &mut self,
        seat: usize,
        spec: &str,
        failure: &BotFailure,
        now_ms: i64,
        retry_after: Duration,
    ) -> AfterFailure {
        if self.trouble.len() <= seat {
            self.trouble.resize_with(seat + 1, || None);
        }
        let trouble = self.trouble[seat].get_or_insert_with(|| Trouble {
            spec: spec.to_string(),
            code: failure.code(),
            since_ms: now_ms,
            retries: 0,
            fallback: false,
        });
        trouble.code = failure.code();
        if trouble.fallback || trouble.retries >= BOT_RETRIES {
            trouble.fallback = true;
            return AfterFailure::Fallback;
        }
        trouble.retries += 1;
        AfterFailure::Retry(retry_after.saturating_mul(1 << (trouble.retries - 1)))
    }

    /// The trouble the players see: seats still played by the bot that failed.
    pub fn view(&self, seats: &[Seat], over: bool) -> Vec<BotTrouble> {
        if over {
            return Vec::new();
        }
        self.trouble
            .iter()
            .enumerate()
            .filter_map(|(seat, t)| {
                let t = t.as_ref()?;
                let same_bot = seats.get(seat)?.stored.bot.as_deref() == Some(t.spec.as_str());
                same_bot.then_some(BotTrouble {
                    seat,
                    code: t.code,
                    since_ms: t.since_ms,
                    retries: t.retries,
                    fallback: t.fallback,
                })
            })
            .collect()
    }
}

/// The text of a panic's payload, for the log.
pub fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}

#[cfg(test)]
#[path = "bots_tests.rs"]
mod tests;

/// Fault injection for the server's own tests: a table's bot fails on purpose. Only
/// in test builds of this crate, so nothing outside them can reach it.
#[cfg(test)]
pub mod faults {
    use std::collections::HashMap;
    use std::sync::Mutex;

    use crate::games::{BotFailure, TableGame};
    use crate::wire::{GameAction, GameKind, RummikubAction};

    /// How the bot fails.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Fault {
        /// It answers with an error.
        Error,
        /// It panics.
        Panic,
        /// It chooses an action the rules refuse.
        Refused,
    }

    /// A table's fault, how many more times it fires, how often it fired.
    type Armed = (Fault, u32, u32);

    /// Per table, its fault.
    static FAULTS: Mutex<Option<HashMap<String, Armed>>> = Mutex::new(None);

    /// The bots of table `id` fail with `fault` on their next `times` moves.
    pub fn inject(id: &str, fault: Fault, times: u32) {
        let mut faults = FAULTS.lock().unwrap_or_else(|e| e.into_inner());
        faults
            .get_or_insert_with(HashMap::new)
            .insert(id.to_string(), (fault, times, 0));
    }

    /// How often the fault of table `id` fired.
    pub fn fired(id: &str) -> u32 {
        let faults = FAULTS.lock().unwrap_or_else(|e| e.into_inner());
        faults.as_ref().and_then(|f| f.get(id)).map_or(0, |f| f.2)
    }

    /// Fires the table's fault, if it has one left: the bot's answer instead of its own.
    pub fn fire(id: &str, game: &TableGame) -> Option<Result<GameAction, BotFailure>> {
        let fault = {
            let mut faults = FAULTS.lock().unwrap_or_else(|e| e.into_inner());
            let entry = faults.as_mut()?.get_mut(id)?;
            if entry.1 == 0 {
                return None;
            }
            entry.1 -= 1;
            entry.2 += 1;
            entry.0
        };
        Some(match fault {
            Fault::Error => Err(BotFailure::Error("a fault injected by a test".into())),
            Fault::Panic => panic!("a panic injected by a test"),
            // An action of the other game, or one only the clock may take.
            Fault::Refused => Ok(match game.kind() {
                GameKind::Rumis => GameAction::Rummikub(RummikubAction::Draw),
                GameKind::Rummikub => GameAction::Rummikub(RummikubAction::Timeout),
            }),
        })
    }
}
