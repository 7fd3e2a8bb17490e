//! A finished game's results: recorded once for its account holders (their history)
//! and, at a rated table, their ratings moved by the final ranking
//! (`play::rating`). A feature of its own on the bus (`events`): the core publishes
//! [`TableEvent::Finished`] with what to record, this records it on its own task and
//! publishes [`TableEvent::ResultsRecorded`]. A node that stopped in between leaves
//! them to the next start.

use std::sync::Arc;

use play::game::Outcome;
use play::rating::places;

use crate::events::{GameResults, Heard, TableEvent};
use crate::store::{FinishedGame, SeatResult};
use crate::wire::RatingPool;

use super::{Hub, TableState};

/// The event of a table whose game just ended.
pub(super) fn finished_event(id: &str, state: &TableState) -> TableEvent {
    TableEvent::Finished {
        table: id.to_string(),
        game: state.settings.game,
        rated: state.settings.rated,
        results: finished_game(id, state),
    }
}

/// What a finished table records: the game, and one result per account holder's seat.
/// `None` while it runs, or when no account holder sat there.
pub(super) fn finished_game(id: &str, state: &TableState) -> Option<GameResults> {
    let result = state.game.result()?;
    if state.seats.iter().all(|s| s.stored.account.is_empty()) {
        return None;
    }
    let outcome = Outcome {
        scores: result.scores.iter().map(|&s| s as f64).collect(),
        winners: result.winners.clone(),
    };
    let places = places_with_leavers(&outcome, &state.game.left());
    let players = state.seats.len();
    let game = FinishedGame {
        table_id: id.to_string(),
        pool: RatingPool::of(state.settings.game, players)
            .name()
            .to_string(),
        // Every seat an account's, as the table was made (a seat handed to a bot
        // still plays for its account).
        rated: state.settings.rated && state.seats.iter().all(|s| !s.stored.account.is_empty()),
        players,
        // Who shares first place once those who left come last (RT8).
        winners: places.iter().filter(|&&place| place == 1).count(),
        finished_ms: state.turn_started_ms,
    };
    let seats = state
        .seats
        .iter()
        .filter(|s| !s.stored.account.is_empty())
        .map(|s| SeatResult {
            seat: s.stored.seat,
            account: s.stored.account.clone(),
            place: places[s.stored.seat],
            score: result.scores.get(s.stored.seat).copied().unwrap_or(0),
        })
        .collect();
    Some(GameResults { game, seats })
}

/// Each seat's place (1 for the best): RT1's places, except that a player who left
/// the game (RD17, K7) comes after every player who did not, whatever the bot that
/// played their seat on reached (RT8); among several who left, RT1's order.
pub(super) fn places_with_leavers(outcome: &Outcome, left: &[bool]) -> Vec<usize> {
    let by_result = places(outcome);
    let key = |seat: usize| (left.get(seat).copied().unwrap_or(false), by_result[seat]);
    (0..by_result.len())
        .map(|seat| 1 + (0..by_result.len()).filter(|&o| key(o) < key(seat)).count())
        .collect()
}

/// Subscribes the results feature to the hub's bus: it records the games that end on
/// this node (another node records its own).
pub(super) fn subscribe(hub: &Arc<Hub>) {
    let weak = Arc::downgrade(hub);
    hub.events
        .subscribe("results", Heard::Here, move |published| {
            let weak = weak.clone();
            async move {
                let (Some(hub), TableEvent::Finished { results, .. }) =
                    (weak.upgrade(), &published.event)
                else {
                    return;
                };
                hub.record_results(results.clone()).await;
            }
        });
}

impl Hub {
    /// Records a finished table's results (`finished_game`), unless they are
    /// recorded already, and says so on the bus.
    async fn record_results(&self, finished: Option<GameResults>) {
        let Some(GameResults { game, seats }) = finished else {
            return;
        };
        match self.store.record_game(&game, &seats).await {
            Ok(true) => self.events.publish(TableEvent::ResultsRecorded {
                table: game.table_id,
                rated: game.rated,
            }),
            Ok(false) => {}
            Err(e) => tracing::warn!(
                "the results of table {} are not recorded yet: {e:#}",
                game.table_id
            ),
        }
    }

    /// Records the results a stopped node left unrecorded (in the background).
    pub(super) fn record_left_results(self: &Arc<Self>) {
        let hub = self.clone();
        tokio::spawn(async move {
            let ids = match hub.store.unrecorded_games(1000).await {
                Ok(ids) => ids,
                Err(e) => return tracing::warn!("unrecorded results not read: {e:#}"),
            };
            for id in ids {
                if let Ok(table) = hub.table(&id).await {
                    let finished = finished_game(&id, &*table.state.lock().await);
                    hub.record_results(finished).await;
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RT8: who left comes last whatever their score; RT1 among the rest and among
    /// those who left; shared places stay shared.
    #[test]
    fn a_player_who_left_is_ranked_after_everyone_who_stayed() {
        let outcome = Outcome {
            scores: vec![30.0, 20.0, 10.0, 25.0],
            winners: vec![0],
        };
        assert_eq!(places(&outcome), vec![1, 3, 4, 2]);
        assert_eq!(
            places_with_leavers(&outcome, &[true, false, false, true]),
            vec![3, 1, 2, 4]
        );
        assert_eq!(places_with_leavers(&outcome, &[false; 4]), places(&outcome));
        let shared = Outcome {
            scores: vec![10.0, 10.0, 5.0],
            winners: vec![0, 1],
        };
        assert_eq!(
            places_with_leavers(&shared, &[false, false, true]),
            vec![1, 1, 3]
        );
        assert_eq!(
            places_with_leavers(&shared, &[true, false, false]),
            vec![3, 1, 2]
        );
    }
}
