//! Rebuilding from the log: a table from its stored configuration and actions,
//! replay documents, and the checks `rumi verify` makes.

use std::sync::atomic::{AtomicI64, AtomicUsize};

use serde_json::Value;
use tokio::sync::{watch, Mutex};

use crate::games;
use crate::store::{StoredAction, StoredSeat, StoredTable};
use crate::wire::{GameKind, GameView, LoggedAction, ReplayAnswer, SeatKind, TableSettings};

use super::presence::presence_every_ms;
use super::{Elsewhere, HubOptions, Seat, Table, TableState};
use crate::wire::GameAction;

/// A table's state from its stored configuration and action log.
pub(super) fn rebuild(
    stored: &StoredTable,
    loaded_ms: i64,
    options: &HubOptions,
) -> anyhow::Result<Table> {
    let settings: TableSettings = read_settings(&stored.config, &stored.seats)?;
    let mut game = games::new_game(&settings, stored.seed).map_err(anyhow::Error::msg)?;
    let mut turn_started_ms = stored.started_ms.unwrap_or(stored.created_ms);
    for action in &stored.actions {
        let logged: GameAction = serde_json::from_str(&action.action)?;
        games::replay_action(&mut game, action.actor, &logged).map_err(|e| {
            anyhow::anyhow!(
                "table {}: stored action {} ({}) no longer replays: {e}",
                stored.id,
                action.version,
                action.action
            )
        })?;
        turn_started_ms = action.at_ms;
    }
    let state = TableState {
        settings,
        seed: stored.seed,
        salt: stored.salt.clone(),
        practice: stored.practice,
        created_ms: stored.created_ms,
        started_ms: stored.started_ms,
        cancelled_ms: stored.cancelled_ms,
        seats: stored
            .seats
            .iter()
            .map(|s| Seat {
                stored: s.clone(),
                connections: 0,
                last_seen_ms: loaded_ms,
                elsewhere: Elsewhere::default(),
                written: None,
            })
            .collect(),
        game,
        version: stored.actions.len() as u64,
        seat_epoch: 0,
        turn_started_ms,
        rematch: None,
        bots: Default::default(),
        handover_after_ms: options.handover_after.as_millis() as i64,
        rated_seats_wait_ms: options.rated_seats_wait.as_millis() as i64,
        presence_slack_ms: presence_every_ms(options),
        clock: options.clock.clone(),
    };
    Ok(Table {
        id: stored.id.clone(),
        state: Mutex::new(state),
        changes: watch::channel(0).0,
        views: Default::default(),
        last_used_ms: AtomicI64::new(loaded_ms),
        drivers: AtomicUsize::new(0),
        positions: Default::default(),
        clock: options.clock.clone(),
    })
}

/// Reads stored settings, also those of tables created before the typed contract
/// (`{"game": "rumis", "rumis": {…}}` with the Rummikub player count inside) and
/// before the hints setting (then hints are as such a table has them by default: a
/// seat is a person's unless a bot had it from the start).
pub(crate) fn read_settings(config: &str, seats: &[StoredSeat]) -> anyhow::Result<TableSettings> {
    let mut value: Value = serde_json::from_str(config)?;
    if let Some(players) = value.pointer("/rummikub/players").cloned() {
        if let Some(rummikub) = value.get_mut("rummikub").and_then(Value::as_object_mut) {
            rummikub.remove("players");
        }
        value["players"] = players;
    }
    if value.get("hints").is_none() {
        let people = seats
            .iter()
            .filter(|s| s.bot.is_none() || s.claimed)
            .count();
        value["hints"] = TableSettings::hints_by_default(people).into();
    }
    let mut settings: TableSettings = serde_json::from_value(value)?;
    if settings.players == 0 {
        settings.players = seats.len();
    }
    Ok(settings)
}

/// A stored table's replay: its settings, fairness, actions, the spectator's view
/// before the first action and after each, the record and the result. The views
/// leave out who is connected or away (the moment's state, not the game's), so that
/// the document depends on the stored table alone: `rumi verify` builds it again from
/// a downloaded replay and compares.
pub fn replay_document(stored: &StoredTable) -> anyhow::Result<ReplayAnswer> {
    let mut partial = stored.clone();
    partial.actions.clear();
    let table = rebuild(&partial, 0, &HubOptions::default())?;
    let mut state = table.state.into_inner();
    let step = |state: &TableState| {
        let mut view = state.view(&stored.id, None);
        for seat in &mut view.seats {
            seat.connected = false;
            seat.away_since_ms = None;
            seat.handover_ms = None;
        }
        view
    };
    // Rummikub: each seat's rack after each step, kept only if the game is over.
    let rummikub = state.settings.game == GameKind::Rummikub;
    let racks_of = |state: &TableState| -> Option<Vec<Vec<String>>> {
        if !rummikub {
            return None;
        }
        (0..state.seats.len())
            .map(|seat| match state.view(&stored.id, Some(seat)).state {
                GameView::Rummikub(view) => view.rack,
                GameView::Rumis(_) => None,
            })
            .collect()
    };
    let mut steps = vec![step(&state)];
    let mut racks = Vec::new();
    racks.extend(racks_of(&state));
    for action in &stored.actions {
        let logged: GameAction = serde_json::from_str(&action.action)?;
        games::replay_action(&mut state.game, action.actor, &logged)
            .map_err(|e| anyhow::anyhow!("action {} does not replay: {e}", action.version))?;
        state.version = action.version;
        state.turn_started_ms = action.at_ms;
        steps.push(step(&state));
        racks.extend(racks_of(&state));
    }
    let last = steps.last().expect("the first step").clone();
    // No rack of a running game leaves the server.
    let racks = (rummikub && last.over && racks.len() == steps.len()).then_some(racks);
    Ok(ReplayAnswer {
        id: stored.id.clone(),
        settings: state.settings.clone(),
        fairness: last.fairness,
        actions: stored
            .actions
            .iter()
            .map(|a| {
                Ok(LoggedAction {
                    version: a.version,
                    actor: a.actor,
                    action: serde_json::from_str(&a.action)?,
                    at_ms: a.at_ms,
                })
            })
            .collect::<serde_json::Result<_>>()?,
        steps,
        record: state.game.record(),
        result: last.result,
        racks,
    })
}

/// The replay document a replay's own settings, revealed seed and salt, seats and
/// actions give, for `rumi verify` to compare with the document it was given. The
/// seats (names, bots) come from the replay's first step, and the start from its
/// first deadline (or its first action): they are not part of the deal.
pub fn rebuild_replay(replay: &ReplayAnswer) -> anyhow::Result<ReplayAnswer> {
    let fairness = &replay.fairness;
    let (Some(seed), Some(salt)) = (fairness.seed, fairness.salt.clone()) else {
        anyhow::bail!("the replay reveals no seed and salt");
    };
    let first = replay
        .steps
        .first()
        .ok_or_else(|| anyhow::anyhow!("the replay has no steps"))?;
    let game = games::new_game(&replay.settings, seed).map_err(anyhow::Error::msg)?;
    let started_ms = match (first.deadline_ms, game.turn_seconds()) {
        (Some(deadline), Some(seconds)) => deadline - i64::from(seconds) * 1000,
        _ => replay.actions.first().map_or(0, |a| a.at_ms),
    };
    let stored = StoredTable {
        id: replay.id.clone(),
        config: serde_json::to_string(&replay.settings)?,
        seed,
        salt,
        practice: fairness.practice_seed.is_some(),
        created_ms: started_ms,
        started_ms: Some(started_ms),
        cancelled_ms: None,
        creator: String::new(),
        finished: true,
        seats: first
            .seats
            .iter()
            .map(|s| StoredSeat {
                seat: s.seat,
                name: s.name.clone(),
                bot: s.bot.clone(),
                token: String::new(),
                claimed: s.claimed,
                open: s.kind == SeatKind::Open,
                invite: String::new(),
                joiner: String::new(),
                // The replay names the account, not its id: a mark is enough for
                // the seat to read as an account's.
                account: if s.kind == SeatKind::Account {
                    "account".into()
                } else {
                    String::new()
                },
                account_name: s.account.clone().unwrap_or_default(),
            })
            .collect(),
        actions: replay
            .actions
            .iter()
            .map(|a| StoredAction {
                version: a.version,
                actor: a.actor,
                action: serde_json::to_string(&a.action).expect("an action serialises"),
                at_ms: a.at_ms,
            })
            .collect(),
    };
    replay_document(&stored)
}

/// Rebuilds a finished game from its settings, seed and actions, as `rumi verify`
/// does with a downloaded replay: the result it reaches, and the game's record.
pub fn replay_game(
    settings: &TableSettings,
    seed: u64,
    actions: &[(Option<usize>, GameAction)],
) -> Result<(Option<games::GameResult>, String), String> {
    let mut game = games::new_game(settings, seed)?;
    for (index, (actor, action)) in actions.iter().enumerate() {
        games::replay_action(&mut game, *actor, action)
            .map_err(|e| format!("action {} does not replay: {e}", index + 1))?;
    }
    Ok((game.result(), game.record()))
}
