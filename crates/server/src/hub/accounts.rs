//! Seats of account holders. A seat taken signed in belongs to the account: it opens
//! on any of the account's devices by the session, without a token. A seat kept for
//! an account (created for it by name) waits until the account takes it. A guest who
//! signs up keeps the seats this browser holds.

use std::sync::Arc;

use crate::error::ApiError;
use crate::fairness;
use crate::names::distinct_default;
use crate::store::StoredAccount;
use crate::wire::{Challenge, ErrorCode, GuestSeat, SeatGrant, TableStatus};

use super::{Hub, Table, TableState};

/// Challenges one list shows.
const MAX_CHALLENGES: u32 = 50;

/// How long a cancelled rated table stays in its accounts' challenges (RT7), so that
/// it is seen to be cancelled rather than gone.
const CANCELLED_SHOWN_FOR_MS: i64 = 7 * 24 * 3600 * 1000;

/// The most guest seats one request may hand to an account.
pub const MAX_ADOPTED_SEATS: usize = 100;

impl TableState {
    /// The seat of `account` at this table, taken or kept for it.
    pub fn seat_of_account(&self, account: &str) -> Option<usize> {
        (!account.is_empty())
            .then(|| self.seats.iter().position(|s| s.stored.account == account))
            .flatten()
    }

    /// The taken seat of `account`, which its session opens.
    pub fn taken_seat_of_account(&self, account: &str) -> Option<usize> {
        self.seat_of_account(account)
            .filter(|&seat| self.seats[seat].stored.claimed)
    }

    /// Refuses a second seat at one table for one account.
    pub(super) fn check_no_seat_of(&self, account: Option<&StoredAccount>) -> Result<(), ApiError> {
        match account.and_then(|a| self.seat_of_account(&a.id)) {
            Some(seat) => Err(ApiError::conflict(
                ErrorCode::AlreadySeated,
                format!("your account already has seat {} at this table", seat + 1),
            )),
            None => Ok(()),
        }
    }
}

/// The grant of a seat: its number, name, token and link.
pub(super) fn grant(table: &Table, seat: usize, name: &str, token: &str) -> SeatGrant {
    SeatGrant {
        seat,
        name: name.to_string(),
        url: format!("/t/{}#token={token}", table.id),
        token: token.to_string(),
    }
}

impl Hub {
    /// Takes the seat kept for the signed-in `account` (or, once taken, answers it
    /// again, for another of its devices): a new token the first time. Starts the
    /// game once every person's seat is taken.
    pub async fn take_account_seat(
        self: &Arc<Self>,
        table: &Arc<Table>,
        account: &StoredAccount,
    ) -> Result<SeatGrant, ApiError> {
        let mut state = table.state.lock().await;
        state.check_not_cancelled()?;
        let seat = state.seat_of_account(&account.id).ok_or_else(|| {
            ApiError::forbidden(
                ErrorCode::TokenNeeded,
                "your account has no seat at this table: taking an invited seat needs the invite link's token",
            )
        })?;
        let stored = &state.seats[seat].stored;
        if stored.claimed {
            let answer = grant(table, seat, &stored.name, &stored.token);
            self.seen_player(&table.id, &mut state, seat).await;
            return Ok(answer);
        }
        let mut updated = stored.clone();
        updated.claimed = true;
        updated.token = fairness::new_secret();
        if !self.store.take_account_seat(&table.id, &updated).await? {
            // Taken a moment ago by another of the account's devices, on another node,
            // or the table was cancelled meanwhile (RT7).
            let _ = self.catch_up_locked(table, &mut state).await;
            table.changed();
            state.check_not_cancelled()?;
            let stored = &state.seats[seat].stored;
            return Ok(grant(table, seat, &stored.name, &stored.token));
        }
        self.seated(table, state, updated).await
    }

    /// The seats kept for `account` at tables that wait for it: its challenges; and
    /// for a while the rated tables it had a seat at that were cancelled (RT7).
    pub async fn challenges(
        self: &Arc<Self>,
        account: &StoredAccount,
    ) -> Result<Vec<Challenge>, ApiError> {
        let mut challenges = Vec::new();
        // A blocked account's challenges do not reach this one (#56).
        let blocked = self.store.blocked_ids(&account.id).await?;
        for (id, _, _, created_ms) in self
            .store
            .kept_seats_of(
                &account.id,
                MAX_CHALLENGES,
                self.now_ms() - CANCELLED_SHOWN_FOR_MS,
            )
            .await?
        {
            let Ok(table) = self.table(&id).await else {
                continue;
            };
            let state = table.state.lock().await;
            let Some(seat) = state.seat_of_account(&account.id) else {
                continue;
            };
            let status = state.status();
            let waiting = status == TableStatus::Waiting && !state.seats[seat].stored.claimed;
            let from_blocked = state
                .seats
                .iter()
                .any(|s| s.stored.claimed && blocked.contains(&s.stored.account));
            if (!waiting && status != TableStatus::Cancelled) || from_blocked {
                continue;
            }
            challenges.push(Challenge {
                id: id.clone(),
                game: state.settings.game,
                seat,
                names: state.names(),
                from: state
                    .seats
                    .iter()
                    .filter(|s| s.stored.claimed && !s.stored.account_name.is_empty())
                    .map(|s| s.stored.account_name.clone())
                    .collect(),
                rated: state.settings.rated,
                created_ms,
                status,
                turn_seconds: state.turn_seconds(),
                cancels_at_ms: state.cancels_at_ms(),
            });
        }
        Ok(challenges)
    }

    /// Declines the seat kept for `account`: it opens to anyone from the lobby (to
    /// account holders only at a rated table), under a name of its own.
    pub async fn decline(
        self: &Arc<Self>,
        table: &Arc<Table>,
        account: &StoredAccount,
    ) -> Result<(), ApiError> {
        let mut state = table.state.lock().await;
        state.check_not_cancelled()?;
        let seat = state
            .seat_of_account(&account.id)
            .filter(|&s| !state.seats[s].stored.claimed)
            .ok_or_else(|| {
                ApiError::conflict(
                    ErrorCode::NoSeat,
                    "no seat at this table waits for your account",
                )
            })?;
        let taken: Vec<String> = state
            .other_names(seat)
            .map(|(_, n)| n.to_string())
            .collect();
        let name = distinct_default(format!("Player {}", seat + 1), &taken);
        if !self
            .store
            .release_account_seat(&table.id, seat, &account.id, &name)
            .await?
        {
            let _ = self.catch_up_locked(table, &mut state).await;
            table.changed();
            return Err(ApiError::conflict(
                ErrorCode::SeatTaken,
                "your account took this seat meanwhile",
            ));
        }
        let stored = &mut state.seats[seat].stored;
        stored.account.clear();
        stored.account_name.clear();
        stored.open = true;
        stored.name = name;
        table.changed();
        self.announce(table, state.version, true).await;
        Ok(())
    }

    /// Gives the guest seats a browser holds (table and seat token) to `account`: a
    /// seat of another account, a token of no seat, a table where the account has a
    /// seat already and an unknown table are left out. Answers the tables whose seat
    /// is now the account's.
    pub async fn adopt_seats(
        self: &Arc<Self>,
        account: &StoredAccount,
        seats: &[GuestSeat],
    ) -> Result<Vec<String>, ApiError> {
        if seats.len() > MAX_ADOPTED_SEATS {
            return Err(ApiError::bad_request(
                ErrorCode::BadRequest,
                format!("at most {MAX_ADOPTED_SEATS} seats at once"),
            ));
        }
        let mut adopted = Vec::new();
        for guest in seats {
            let Ok(table) = self.table(&guest.table).await else {
                continue;
            };
            let mut state = table.state.lock().await;
            let Ok(Some(seat)) = state.seat_of(Some(&guest.token)) else {
                continue;
            };
            if !state.seats[seat].stored.account.is_empty()
                || state.seat_of_account(&account.id).is_some()
                || !self.store.adopt_seat(&table.id, seat, &account.id).await?
            {
                continue;
            }
            let stored = &mut state.seats[seat].stored;
            stored.account = account.id.clone();
            stored.account_name = account.name.clone();
            table.changed();
            self.announce(&table, state.version, true).await;
            adopted.push(table.id.clone());
        }
        Ok(adopted)
    }
}

/// The tables of a deleted account that are told at once (the newest; an older one
/// shows the name from the database when it is loaded again).
const DELETED_ACCOUNT_TABLES: i64 = 1000;

impl Hub {
    /// An account was deleted: its seats at the tables this node holds show "deleted
    /// player" at once (RT5), in views and in others' challenges, and the other nodes
    /// are told to read those seats again.
    pub async fn account_deleted(self: &Arc<Self>, account_id: &str) -> Result<(), ApiError> {
        let ids = self
            .store
            .tables_of_account(account_id, DELETED_ACCOUNT_TABLES)
            .await?;
        for id in ids {
            let loaded = self.tables.lock().get(&id).cloned();
            if let Some(table) = loaded {
                self.catch_up(&table).await;
            }
            self.events
                .publish(crate::events::TableEvent::NamesChanged { table: id.clone() });
            if let Some(cluster) = &self.cluster {
                cluster.publish(&id, 0, true).await;
            }
        }
        Ok(())
    }
}
