//! What a table shows: the view for a seat or a spectator, and the lobby's lines.

use crate::error::ApiError;
use crate::fairness;
use crate::store::StoredSeat;
use crate::wire::{
    Fairness, GameView, LobbySeat, LobbyTable, ResultView, SeatKind, SeatView, TableSettings,
    TableView,
};

use super::replay::read_settings;
use super::{Hub, Seat, TableState};
use crate::wire::GameSettings;

impl TableState {
    fn fairness(&self) -> Fairness {
        let over = self.game.is_over();
        Fairness {
            commitment: fairness::commitment(self.seed, &self.salt),
            practice_seed: self.practice.then_some(self.seed),
            seed: over.then_some(self.seed),
            salt: over.then(|| self.salt.clone()),
        }
    }

    fn result(&self) -> Option<ResultView> {
        let r = self.game.result()?;
        let names: Vec<&str> = r
            .winners
            .iter()
            .filter_map(|&w| self.seats.get(w).map(|s| s.stored.name.as_str()))
            .collect();
        let text = match names.as_slice() {
            [one] => format!("{one} wins"),
            many => format!("{} share the win", many.join(" and ")),
        };
        Some(ResultView {
            winners: r.winners,
            scores: r.scores,
            text,
        })
    }

    fn seat_view(&self, seat: &Seat, now: i64) -> SeatView {
        let stored = &seat.stored;
        let last_seen = seat.last_seen_anywhere();
        let absent = stored.bot.is_none() && !seat.connected() && !self.game.is_over();
        let away = absent && now - last_seen > 5_000;
        SeatView {
            seat: stored.seat,
            name: stored.name.clone(),
            kind: seat_kind(stored),
            bot: stored.bot.clone(),
            claimed: stored.claimed,
            connected: seat.connected(),
            away_since_ms: away.then_some(last_seen),
            handover_ms: absent.then(|| self.handover_at(seat)),
            account: (!stored.account_name.is_empty()).then(|| stored.account_name.clone()),
            left: self.game.has_left(stored.seat),
        }
    }

    /// The whole view for a seat, or for a spectator (`None`).
    pub fn view(&self, id: &str, seat: Option<usize>) -> TableView {
        let now = self.clock.now_ms();
        TableView {
            id: id.to_string(),
            game: self.settings.game,
            version: self.version,
            you: seat,
            status: self.status(),
            waiting_for: self.waiting_for(),
            seats: self.seats.iter().map(|s| self.seat_view(s, now)).collect(),
            to_move: if self.started_ms.is_some() {
                self.game.to_move()
            } else {
                None
            },
            over: self.game.is_over(),
            deadline_ms: self.deadline_ms(),
            turn_seconds: self.turn_seconds(),
            cancels_at_ms: self.cancels_at_ms(),
            result: self.result(),
            fairness: self.fairness(),
            hints: self.settings.hints,
            rated: self.settings.rated,
            seat_token: None,
            rematch: self.rematch.clone(),
            bot_trouble: self.bots.view(&self.seats, self.game.is_over()),
            state: self.game.view(seat, true, &self.names()),
        }
    }

    /// A line for the lobby's list of tables with open seats.
    pub fn summary(&self, id: &str) -> LobbyTable {
        lobby_line(
            id,
            &self.settings,
            self.created_ms,
            self.seats.iter().map(|s| &s.stored),
        )
    }
}

impl TableView {
    /// The view without what never changes during the game (the Rumis stones'
    /// orientations): the updates a live connection without patches gets after its
    /// first, whole view.
    pub fn without_fixed_parts(mut self) -> TableView {
        match &mut self.state {
            GameView::Rumis(rumis) => rumis.stones = None,
            GameView::Rummikub(_) => {}
        }
        self
    }
}

pub(super) fn seat_kind(stored: &StoredSeat) -> SeatKind {
    if stored.bot.is_some() {
        SeatKind::Bot
    } else if stored.open {
        SeatKind::Open
    } else if stored.invite.is_empty() && !stored.account.is_empty() {
        SeatKind::Account
    } else {
        SeatKind::Human
    }
}

fn lobby_line<'a>(
    id: &str,
    settings: &TableSettings,
    created_ms: i64,
    seats: impl Iterator<Item = &'a StoredSeat> + Clone,
) -> LobbyTable {
    let detail = match &settings.settings {
        GameSettings::Rumis(rumis) => format!(
            "{}, {} players, {}",
            rumis.scenario, rumis.players, rumis.variant
        ),
        GameSettings::Rummikub(rummikub) => format!(
            "{} rules, {} players, {} round(s)",
            rummikub.rules, settings.players, rummikub.rounds
        ),
    };
    LobbyTable {
        id: id.to_string(),
        game: settings.game,
        detail,
        settings: settings.clone(),
        created_ms,
        open_seats: seats
            .clone()
            .filter(|s| s.open && !s.claimed && s.bot.is_none())
            .map(|s| s.seat)
            .collect(),
        seats: seats
            .map(|s| LobbySeat {
                seat: s.seat,
                name: s.name.clone(),
                kind: seat_kind(s),
                // Seats never open again once taken: an open seat waits since creation.
                open_since_ms: (s.open && !s.claimed && s.bot.is_none()).then_some(created_ms),
            })
            .collect(),
    }
}

impl Hub {
    /// Tables with a seat open to anyone, newest first (at most 50).
    pub async fn open_tables(&self) -> Result<Vec<LobbyTable>, ApiError> {
        // The database holds every seat change before memory does: one query answers.
        let mut out = Vec::new();
        for stored in self.store.lobby(50).await? {
            let settings = read_settings(&stored.config, &stored.seats)
                .map_err(|e| ApiError::internal(e.to_string()))?;
            let line = lobby_line(
                &stored.id,
                &settings,
                stored.created_ms,
                stored.seats.iter(),
            );
            if !line.open_seats.is_empty() {
                out.push(line);
            }
        }
        Ok(out)
    }
}
