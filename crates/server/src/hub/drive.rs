//! The server-side drivers: a bot on its turn (the seat's kept bot, retried and
//! replaced for the move when it fails: `bots`), the next round at an all-bot table,
//! the turn clock (K7), and the wake-up of tables whose clock comes due.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use crate::fairness;
use crate::games::{ActionError, BotFailure, SeatBot, TableGame};
use crate::thinking::Priority;

use super::bots::{panic_text, AfterFailure};
use super::{DriverCount, Hub, HubOptions, Table, TableState};
use crate::wire::GameAction;

impl Hub {
    /// Starts the driver for the table's next server-side action, if any: a bot's
    /// move, the next round at an all-bot table, or the turn clock (K7). Every driver
    /// acts on the version (and seats) it saw; if anything changed first, it drops out.
    pub fn schedule(self: &Arc<Self>, table: Arc<Table>) {
        let hub = self.clone();
        let count = DriverCount::new(table.clone());
        tokio::spawn(async move {
            let mut count = Some(count);
            let (version, epoch, plan, priority) = {
                let state = table.state.lock().await;
                let priority = if state.people_play() {
                    Priority::People
                } else {
                    Priority::BotsOnly
                };
                (state.version, state.seat_epoch, plan(&state), priority)
            };
            let current =
                |state: &TableState| state.version == version && state.seat_epoch == epoch;
            if !matches!(plan, Plan::Nothing) && !hub.may_drive(&table).await {
                return;
            }
            let cancel = matches!(plan, Plan::Cancel { .. });
            match plan {
                Plan::Nothing => {}
                Plan::Bot { seat, bot } => {
                    tokio::time::sleep(hub.options.bot_delay).await;
                    hub.bot_turn(&table, seat, &bot, (version, epoch), priority)
                        .await;
                }
                Plan::NextRound => {
                    tokio::time::sleep(hub.options.bot_delay).await;
                    hub.drive(&table, |state| {
                        if !current(state) {
                            return None;
                        }
                        let mut game = state.game.clone();
                        Some(game.next_round().map(|c| (game, Some(0), c)))
                    })
                    .await;
                }
                Plan::Clock { deadline_ms } | Plan::Cancel { at_ms: deadline_ms } => {
                    let far = deadline_ms - hub.ahead_ms() - hub.now_ms();
                    let table = if far > 0 {
                        // Far away: the table may leave memory meanwhile (then this
                        // driver stops, and the copy loaded again in time drives it);
                        // meanwhile the driver does not hold it there.
                        let weak = Arc::downgrade(&table);
                        drop(count.take());
                        drop(table);
                        hub.clock().sleep_until(deadline_ms - hub.ahead_ms()).await;
                        let Some(table) = weak.upgrade() else { return };
                        if !hub.holds(&table) {
                            return;
                        }
                        count = Some(DriverCount::new(table.clone()));
                        table
                    } else {
                        table
                    };
                    hub.clock().sleep_until(deadline_ms).await;
                    if !hub.holds(&table) {
                        return;
                    }
                    if cancel {
                        hub.cancel_waiting(&table).await;
                        return;
                    }
                    hub.drive(&table, |state| {
                        if !current(state) {
                            return None;
                        }
                        let mut game = state.game.clone();
                        Some(game.time_out().map(|c| (game, None, c)))
                    })
                    .await;
                }
            }
            drop(count);
        });
    }

    /// A bot's turn at `table` as of `(version, seat epoch)`: the seat's kept bot thinks
    /// on the thinking pool and its action is committed; a failure is logged, shown and
    /// retried, then a simpler bot moves for the seat (see `bots`). Drops out when the
    /// table moved on meanwhile.
    async fn bot_turn(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: usize,
        spec: &str,
        (version, epoch): (u64, u64),
        priority: Priority,
    ) {
        let current = |state: &TableState| state.version == version && state.seat_epoch == epoch;
        let mut first = true;
        loop {
            let (game, bot, seed) = {
                let mut guard = table.state.lock().await;
                if !current(&guard) {
                    return;
                }
                let state = &mut *guard;
                // Another driver planned from the same state may be on this turn already.
                if first && !state.bots.claim_turn(version, epoch) {
                    return;
                }
                first = false;
                let seed = fairness::bot_seed(&state.salt, version);
                state.bots.sync(&state.seats);
                let bot = state.bots.take(seat, spec, || {
                    state.game.new_bot(spec, seed, self.options.bot_trees)
                });
                (state.game.clone(), bot, seed)
            };
            let (bot, answer) = match bot {
                Err(e) => (None, Err(BotFailure::Error(e.to_string()))),
                Ok(bot) => {
                    let id = table.id.clone();
                    match self
                        .thinking
                        .run(priority, move || think(bot, &game, seat, &id))
                        .await
                    {
                        Ok(thought) => thought,
                        Err(e) => {
                            // The pool is gone: the server is shutting down.
                            tracing::warn!("table {}: seat {} not played: {e}", table.id, seat + 1);
                            return;
                        }
                    }
                }
            };
            let mut guard = table.state.lock().await;
            let state = &mut *guard;
            if !current(state) {
                // The table moved on meanwhile; the bot stays for the seat's next move.
                if let Some(bot) = bot {
                    state.bots.put_back(seat, bot);
                    state.bots.sync(&state.seats);
                }
                return;
            }
            let applied = answer.and_then(|action| {
                let mut game = state.game.clone();
                match game.apply(seat, &action) {
                    Ok(canonical) => Ok((game, canonical)),
                    Err(e) => Err(BotFailure::Refused(e.to_string())),
                }
            });
            let failure = match applied {
                Ok((game, canonical)) => {
                    if let Some(bot) = bot {
                        state.bots.put_back(seat, bot);
                    }
                    state.bots.moved(seat);
                    if let Err(e) = self.commit(table, state, game, Some(seat), canonical).await {
                        tracing::warn!("table {}: bot move not stored: {e}", table.id);
                    }
                    return;
                }
                // The failed bot is dropped: a retry builds a fresh one.
                Err(failure) => failure,
            };
            let after = state.bots.failed(
                seat,
                spec,
                &failure,
                self.now_ms(),
                self.options.bot_retry_after,
            );
            tracing::warn!(
                "table {}: the {spec} bot of seat {}: {failure}; {}",
                table.id,
                seat + 1,
                match after {
                    AfterFailure::Retry(pause) => format!("retrying in {pause:?}"),
                    AfterFailure::Fallback => "a simpler bot moves instead".to_string(),
                }
            );
            match after {
                AfterFailure::Retry(pause) => {
                    table.changed();
                    drop(guard);
                    tokio::time::sleep(pause).await;
                }
                AfterFailure::Fallback => {
                    let fallback = state.game.fallback_action(seat, seed).and_then(|action| {
                        let mut game = state.game.clone();
                        let canonical = game.apply(seat, &action).ok()?;
                        Some((game, canonical))
                    });
                    match fallback {
                        Some((game, canonical)) => {
                            if let Err(e) =
                                self.commit(table, state, game, Some(seat), canonical).await
                            {
                                tracing::warn!("table {}: fallback move not stored: {e}", table.id);
                            }
                        }
                        None => tracing::error!(
                            "table {}: seat {} has no fallback move either",
                            table.id,
                            seat + 1
                        ),
                    }
                    return;
                }
            }
        }
    }

    /// A server-side action: `act` returns `None` when the table moved on meanwhile.
    async fn drive(
        self: &Arc<Self>,
        table: &Arc<Table>,
        act: impl FnOnce(
            &TableState,
        ) -> Option<Result<(TableGame, Option<usize>, GameAction), ActionError>>,
    ) {
        let mut state = table.state.lock().await;
        match act(&state) {
            None => {}
            Some(Err(e)) => tracing::warn!("table {}: server action refused: {e}", table.id),
            Some(Ok((game, actor, canonical))) => {
                if let Err(e) = self.commit(table, &mut state, game, actor, canonical).await {
                    tracing::warn!("table {}: server action not stored: {e}", table.id);
                }
            }
        }
    }
}

/// Alone on its database, a node loads the tables whose clock comes within
/// [`HubOptions::keep_loaded_ahead`] (dropped from memory while it was far away) so
/// that it runs out on time. Ends with the hub.
pub(super) async fn wake_due(hub: std::sync::Weak<Hub>) {
    let period = {
        let Some(hub) = hub.upgrade() else { return };
        (hub.options.keep_loaded_ahead / 2).clamp(Duration::from_millis(50), Duration::from_secs(1))
    };
    // The due time each table was last woken for: a table whose driver did not act
    // (and so kept its due time) is not loaded again and again.
    let mut woken: HashMap<String, i64> = HashMap::new();
    loop {
        tokio::time::sleep(period).await;
        let Some(hub) = hub.upgrade() else { return };
        if hub.is_draining() {
            continue;
        }
        let due = match hub.store.due_before(hub.now_ms() + hub.ahead_ms()).await {
            Ok(due) => due,
            Err(e) => {
                tracing::warn!("cannot look for due tables: {e:#}");
                continue;
            }
        };
        let mut now_woken = HashMap::with_capacity(due.len());
        for (id, due_ms) in due {
            if woken.get(&id) != Some(&due_ms) && !hub.is_loaded(&id) {
                if let Err(e) = hub.table(&id).await {
                    tracing::warn!("table {id} does not wake: {e}");
                }
            }
            now_woken.insert(id, due_ms);
        }
        woken = now_woken;
    }
}

/// A bot thinks (on the thinking pool): its answer, and the bot back unless it
/// panicked.
#[cfg_attr(not(test), allow(unused_variables))]
fn think(
    mut bot: SeatBot,
    game: &TableGame,
    seat: usize,
    table_id: &str,
) -> (Option<SeatBot>, Result<GameAction, BotFailure>) {
    let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        #[cfg(test)]
        if let Some(answer) = super::bots::faults::fire(table_id, game) {
            return answer;
        }
        bot.act(game, seat)
    }));
    match answer {
        Ok(answer) => (Some(bot), answer),
        Err(payload) => (None, Err(BotFailure::Panic(panic_text(&*payload)))),
    }
}

enum Plan {
    Nothing,
    Bot {
        seat: usize,
        bot: String,
    },
    NextRound,
    Clock {
        deadline_ms: i64,
    },
    /// A rated table still waiting for a seat: cancelled then (RT7).
    Cancel {
        at_ms: i64,
    },
}

fn plan(state: &TableState) -> Plan {
    if let Some(at_ms) = state.cancels_at_ms() {
        return Plan::Cancel { at_ms };
    }
    if state.game.is_over() || state.started_ms.is_none() || state.cancelled_ms.is_some() {
        return Plan::Nothing;
    }
    if let Some(seat) = state.game.to_move() {
        if let Some(bot) = &state.seats[seat].stored.bot {
            return Plan::Bot {
                seat,
                bot: bot.clone(),
            };
        }
        if let Some(deadline_ms) = state.deadline_ms() {
            return Plan::Clock { deadline_ms };
        }
        return Plan::Nothing;
    }
    if state.game.awaits_next_round() && !state.people_play() {
        return Plan::NextRound;
    }
    Plan::Nothing
}

/// When the server must next act at the table, for the database (restarts resume
/// exactly the tables that are due).
pub(super) fn due_ms(state: &TableState, options: &HubOptions) -> Option<i64> {
    match plan(state) {
        Plan::Nothing => None,
        Plan::Bot { .. } | Plan::NextRound => {
            Some(options.clock.now_ms() + options.bot_delay.as_millis() as i64)
        }
        Plan::Clock { deadline_ms } | Plan::Cancel { at_ms: deadline_ms } => Some(deadline_ms),
    }
}

impl Hub {
    /// Cancels a rated table still waiting for a seat once its wait is over (RT7):
    /// stored first, checked there against a seat taken meanwhile on another node.
    pub(super) async fn cancel_waiting(self: &Arc<Self>, table: &Arc<Table>) {
        let mut state = table.state.lock().await;
        let now = self.now_ms();
        match state.cancels_at_ms() {
            Some(at_ms) if now >= at_ms && !state.waiting_for().is_empty() => {}
            _ => return,
        }
        match self.store.cancel_table(&table.id, now).await {
            Ok(true) => {
                tracing::info!(
                    "table {}: cancelled, its seats were not all taken",
                    table.id
                );
                state.cancelled_ms = Some(now);
                table.changed();
                self.announce(table, state.version, true).await;
            }
            Ok(false) => {
                // Another node took the last seat (or cancelled it) meanwhile.
                // Whoever did drives the table on.
                if self
                    .catch_up_locked(table, &mut state)
                    .await
                    .unwrap_or(false)
                {
                    table.changed();
                }
            }
            Err(e) => tracing::warn!("table {}: not cancelled: {e:#}", table.id),
        }
    }
}
