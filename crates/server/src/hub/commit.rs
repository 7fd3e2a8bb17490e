//! The one path of an action: checked on a copy of the game, written to the log,
//! then swapped in and shown.

use std::sync::Arc;

use crate::error::ApiError;
use crate::games::clock::leaver_bot;
use crate::games::TableGame;
use crate::store::StoredAction;

use super::drive::due_ms;
use super::{Hub, Table, TableState};
use crate::wire::{ErrorCode, GameAction};

impl Hub {
    /// The one path of every client's action: version check, seat check, rules,
    /// database, then viewers.
    pub async fn submit(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: usize,
        version: Option<u64>,
        action: &GameAction,
    ) -> Result<u64, ApiError> {
        let started = std::time::Instant::now();
        let mut state = table.state.lock().await;
        if self.cluster.is_some() && version.is_some_and(|v| v > state.version) {
            // Another node stored newer actions than this copy has heard of.
            if self
                .catch_up_locked(table, &mut state)
                .await
                .unwrap_or(false)
            {
                table.changed();
            }
        }
        check_version(&state, version)?;
        state.check_not_cancelled()?;
        if state.started_ms.is_none() {
            return Err(not_started(&state));
        }
        self.seen_player(&table.id, &mut state, seat).await;
        if let Some(bot) = state.seats.get(seat).and_then(|s| s.stored.bot.clone()) {
            return Err(ApiError::conflict(
                ErrorCode::SeatIsBot,
                format!(
                    "seat {} is played by the {bot} bot; take your seat back to play it yourself",
                    seat + 1
                ),
            ));
        }
        let mut game = state.game.clone();
        let canonical = game.apply(seat, action)?;
        let version = self
            .commit(table, &mut state, game, Some(seat), canonical)
            .await?;
        drop(state);
        table.positions.settled().await;
        self.metrics
            .action_latency
            .observe(started.elapsed().as_secs_f64());
        Ok(version)
    }

    /// Writes an action that the rules accepted on `game` (a copy of the table's
    /// game), then shows it: the database first, so nobody sees what was not stored.
    pub(super) async fn commit(
        self: &Arc<Self>,
        table: &Arc<Table>,
        state: &mut TableState,
        game: TableGame,
        actor: Option<usize>,
        canonical: GameAction,
    ) -> Result<u64, ApiError> {
        let at_ms = self.now_ms();
        let stored = StoredAction {
            version: state.version + 1,
            actor,
            action: serde_json::to_string(&canonical).expect("an action serialises"),
            at_ms,
        };
        // RD17, K7: a player whose clock ran out twice in a row left the game; a bot
        // plays their seat on, stored with the time-out that made them leave.
        let leaver = (0..state.seats.len()).find(|&s| {
            game.has_left(s) && !state.game.has_left(s) && state.seats[s].stored.bot.is_none()
        });
        let handed = leaver.map(|seat| (seat, leaver_bot(state.settings.game)));
        let old_game = std::mem::replace(&mut state.game, game);
        let old_turn = std::mem::replace(&mut state.turn_started_ms, at_ms);
        if let Some((seat, bot)) = handed {
            state.seats[seat].stored.bot = Some(bot.to_string());
        }
        let due = due_ms(state, &self.options);
        if let Err(e) = self
            .store
            .append_action(&table.id, &stored, state.game.is_over(), due, handed)
            .await
        {
            state.game = old_game;
            state.turn_started_ms = old_turn;
            if let Some((seat, _)) = handed {
                state.seats[seat].stored.bot = None;
            }
            // Another copy of this table (another node, or a copy dropped and loaded
            // again) wrote this version first: catch up, and the action is stale.
            if self.store.action_count(&table.id).await.ok() != Some(state.version) {
                let made_on = state.version;
                match self.catch_up_locked(table, state).await {
                    Ok(_) => {
                        table.changed();
                        self.schedule(table.clone());
                    }
                    Err(_) => self.forget(&table.id),
                }
                return Err(stale(made_on, state.version));
            }
            return Err(e.into());
        }
        state.version = stored.version;
        if let Some((seat, bot)) = handed {
            state.seat_epoch += 1;
            tracing::info!(
                "table {}: seat {} timed out twice in a row and left; the {bot} bot plays on",
                table.id,
                seat + 1
            );
        }
        self.keep_rated_position(table, state);
        if state.game.is_over() && !old_game.is_over() {
            // The results feature records it on its own task, off this lock.
            self.events
                .publish(super::results::finished_event(&table.id, state));
        }
        self.metrics.actions.inc();
        table.changed();
        self.announce(table, state.version, false).await;
        self.schedule(table.clone());
        Ok(state.version)
    }
}

fn check_version(state: &TableState, version: Option<u64>) -> Result<(), ApiError> {
    match version {
        Some(v) if v != state.version => Err(stale(v, state.version)),
        _ => Ok(()),
    }
}

fn stale(made_on: u64, now: u64) -> ApiError {
    ApiError::conflict(
        ErrorCode::Stale,
        format!(
            "stale action: it was made on version {made_on}, the table is at version {now}; reload and try again"
        ),
    )
}

fn not_started(state: &TableState) -> ApiError {
    let names: Vec<String> = state
        .waiting_for()
        .iter()
        .map(|&s| format!("{} (seat {})", state.seats[s].stored.name, s + 1))
        .collect();
    ApiError::conflict(
        ErrorCode::NotStarted,
        format!("the game has not started: waiting for {}", names.join(", ")),
    )
}
