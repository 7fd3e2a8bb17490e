//! Seats: which seat a token opens, and the changes of who sits where (joining
//! from the lobby, taking an invited seat, renaming, handing a seat to a bot and
//! taking it back), each stored before it is shown.

use std::net::IpAddr;
use std::sync::Arc;

use crate::error::ApiError;
use crate::fairness;
use crate::names::check_distinct;
use crate::store::{StoredAccount, StoredSeat};
use crate::transport::client_key;
use crate::wire::SeatGrant;

use super::accounts::grant;
use super::create::check_bot;
use super::drive::due_ms;
use super::{clean_name, Hub, Seat, Table, TableState};
use crate::wire::ErrorCode;

impl TableState {
    /// The seat a token belongs to. No token: a spectator. A token of no seat: refused.
    /// Only a taken seat has a token; an invite link's token is not one (it only takes
    /// the seat, [`Hub::claim_invite`]), and once used it says that the seat is taken.
    pub fn seat_of(&self, token: Option<&str>) -> Result<Option<usize>, ApiError> {
        let Some(token) = token.filter(|t| !t.is_empty()) else {
            return Ok(None);
        };
        let forged = || {
            ApiError::forbidden(
                ErrorCode::BadToken,
                "this seat token does not belong to any seat at this table",
            )
        };
        if token.len() != 32 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(forged());
        }
        if let Some(seat) = self.seats.iter().position(|s| {
            s.stored.claimed && constant_time_eq(s.stored.token.as_bytes(), token.as_bytes())
        }) {
            return Ok(Some(seat));
        }
        match self.invited_seat(token) {
            Some(seat) if self.seats[seat].stored.claimed => Err(seat_taken(seat)),
            Some(seat) => Err(ApiError::conflict(
                ErrorCode::ClaimNeeded,
                format!(
                    "this is the invite link of seat {}: take the seat with it first (POST …/claim), which answers the seat's own token",
                    seat + 1
                ),
            )),
            None => Err(forged()),
        }
    }

    /// The invited seat whose link carries `token`, taken or not.
    fn invited_seat(&self, token: &str) -> Option<usize> {
        self.seats.iter().position(|s| {
            !s.stored.invite.is_empty()
                && constant_time_eq(s.stored.invite.as_bytes(), token.as_bytes())
        })
    }

    /// When the others may hand a seat to a bot: the hand-over time after any node
    /// last saw its player (another node's sighting may be written late by up to the
    /// slack).
    pub(super) fn handover_at(&self, seat: &Seat) -> i64 {
        let elsewhere = seat
            .elsewhere
            .seen_ms
            .map_or(i64::MIN, |s| s + self.presence_slack_ms);
        seat.last_seen_ms.max(elsewhere) + self.handover_after_ms
    }

    /// Why another player may not hand `seat` to a bot now, if they may not: its
    /// player is connected (to any node), or was seen within the hand-over time.
    fn handover_refusal(&self, seat: usize, now: i64) -> Option<ApiError> {
        let target = &self.seats[seat];
        if target.connected() {
            return Some(ApiError::conflict(
                ErrorCode::PlayerPresent,
                format!(
                    "{} (seat {}) is connected; only they can hand their seat to a bot",
                    target.stored.name,
                    seat + 1
                ),
            ));
        }
        let allowed_ms = self.handover_at(target);
        (now < allowed_ms).then(|| {
            ApiError::conflict(
                ErrorCode::PlayerNotAwayLongEnough,
                format!(
                    "{} (seat {}) has been away for {} s; you may hand their seat to a bot in {} s",
                    target.stored.name,
                    seat + 1,
                    (now - target.last_seen_anywhere()).max(0) / 1000,
                    (allowed_ms - now + 999) / 1000
                ),
            )
        })
    }
}

impl Hub {
    /// Hands a seat to a bot, asked by the player of seat `caller`: their own seat at
    /// any time, another player's once they have been away for
    /// [`HubOptions::handover_after`](super::HubOptions::handover_after); never on a
    /// finished table.
    pub async fn hand_to_bot(
        self: &Arc<Self>,
        table: &Arc<Table>,
        caller: usize,
        seat: usize,
        bot: &str,
    ) -> Result<(), ApiError> {
        let mut state = table.state.lock().await;
        state.check_not_cancelled()?;
        check_bot(state.settings.game, bot)?;
        if state.game.is_over() {
            return Err(ApiError::conflict(ErrorCode::GameOver, "the game is over"));
        }
        self.seen_player(&table.id, &mut state, caller).await;
        let target = state.seats.get(seat).ok_or_else(|| {
            ApiError::not_found(ErrorCode::NoSeat, format!("there is no seat {}", seat + 1))
        })?;
        if let Some(current) = &target.stored.bot {
            return Err(ApiError::conflict(
                ErrorCode::SeatIsBot,
                format!("seat {} is already played by the {current} bot", seat + 1),
            ));
        }
        if caller != seat && state.settings.rated && !target.stored.claimed {
            // Nobody sat down there: a bot would win or lose a rating for an account
            // that never played (RT3, docs/ratings.md). The table waits, and is
            // cancelled if the seat stays empty.
            return Err(ApiError::conflict(
                ErrorCode::SeatNeverTaken,
                format!(
                    "{} (seat {}) never sat down: at a rated table a seat nobody took is never handed to a bot",
                    target.stored.name,
                    seat + 1
                ),
            ));
        }
        if caller == seat && state.settings.rated {
            // A bot would play for your rating (RT3, docs/ratings.md).
            return Err(ApiError::conflict(
                ErrorCode::RatedTable,
                "at a rated table you play your own seat: it cannot be handed to a bot",
            ));
        }
        if caller != seat {
            // Another node may see the player: ask the database what they all saw.
            self.refresh_presence(&table.id, &mut state).await?;
            if let Some(refusal) = state.handover_refusal(seat, self.now_ms()) {
                return Err(refusal);
            }
        }
        let mut updated = state.seats[seat].stored.clone();
        updated.bot = Some(bot.to_string());
        match &self.cluster {
            Some(cluster) if caller != seat => {
                // Checked again in the same statement as the change: a player who
                // came back on another node meanwhile keeps their seat.
                let now = self.now_ms();
                let seen_after = now - state.handover_after_ms - state.presence_slack_ms;
                let live_after = now - cluster.lease_ttl.as_millis() as i64;
                if !self
                    .store
                    .hand_seat_to_bot(&table.id, seat, bot, seen_after, live_after)
                    .await?
                {
                    self.refresh_presence(&table.id, &mut state).await?;
                    let _ = self.catch_up_locked(table, &mut state).await;
                    table.changed();
                    return Err(state
                        .handover_refusal(seat, self.now_ms())
                        .or_else(|| {
                            let s = &state.seats[seat];
                            s.stored.bot.as_ref().map(|current| {
                                ApiError::conflict(
                                    ErrorCode::SeatIsBot,
                                    format!(
                                        "seat {} is already played by the {current} bot",
                                        seat + 1
                                    ),
                                )
                            })
                        })
                        .unwrap_or_else(|| {
                            ApiError::conflict(
                                ErrorCode::PlayerNotAwayLongEnough,
                                format!(
                                    "seat {} was just seen on another server; try again later",
                                    seat + 1
                                ),
                            )
                        }));
                }
            }
            _ => self.store.update_seat(&table.id, &updated).await?,
        }
        state.seats[seat].stored = updated;
        state.seat_epoch += 1;
        if !self.start_if_ready(table, &mut state).await? {
            self.store
                .set_due(&table.id, due_ms(&state, &self.options))
                .await?;
        }
        table.changed();
        self.announce(table, state.version, true).await;
        drop(state);
        table.positions.settled().await;
        self.schedule(table.clone());
        Ok(())
    }

    /// Renames your own seat (an invitee says who they are before sitting down);
    /// `caller` is the asker's seat ([`TableState::seat_of`]).
    pub async fn rename(
        self: &Arc<Self>,
        table: &Arc<Table>,
        caller: Option<usize>,
        seat: usize,
        name: &str,
    ) -> Result<(), ApiError> {
        let name = clean_name(Some(name))?.ok_or_else(|| {
            ApiError::bad_request(ErrorCode::BadName, "a name needs at least one character")
        })?;
        let mut state = table.state.lock().await;
        state.check_not_cancelled()?;
        if caller != Some(seat) {
            return Err(ApiError::forbidden(
                ErrorCode::NotYourSeat,
                format!("only the player of seat {} can rename it", seat + 1),
            ));
        }
        if !state.seats[seat].stored.account.is_empty() {
            return Err(ApiError::forbidden(
                ErrorCode::AccountSeat,
                format!(
                    "seat {} is played under its account's name, which cannot be changed here",
                    seat + 1
                ),
            ));
        }
        check_distinct(&name, state.other_names(seat))?;
        let mut updated = state.seats[seat].stored.clone();
        updated.name = name;
        self.store.update_seat(&table.id, &updated).await?;
        state.seats[seat].stored = updated;
        self.seen_player(&table.id, &mut state, seat).await;
        table.changed();
        self.announce(table, state.version, true).await;
        drop(state);
        // The names show in every step of the replay.
        self.events
            .publish(crate::events::TableEvent::NamesChanged {
                table: table.id.clone(),
            });
        Ok(())
    }

    /// Gives a seat that was handed to a bot back to its owner; `caller` is the
    /// asker's seat ([`TableState::seat_of`]).
    pub async fn take_back(
        self: &Arc<Self>,
        table: &Arc<Table>,
        caller: Option<usize>,
        seat: usize,
    ) -> Result<(), ApiError> {
        let mut state = table.state.lock().await;
        state.check_not_cancelled()?;
        if caller != Some(seat) {
            return Err(ApiError::forbidden(
                ErrorCode::NotYourSeat,
                format!("only the owner of seat {} can take it back", seat + 1),
            ));
        }
        if state.game.is_over() {
            return Err(ApiError::conflict(ErrorCode::GameOver, "the game is over"));
        }
        if state.seats[seat].stored.bot.is_none() {
            return Err(ApiError::conflict(
                ErrorCode::SeatNotBot,
                format!("seat {} is not played by a bot", seat + 1),
            ));
        }
        let mut updated = state.seats[seat].stored.clone();
        updated.bot = None;
        updated.claimed = true;
        self.store.update_seat(&table.id, &updated).await?;
        state.seats[seat].stored = updated;
        self.seen_player(&table.id, &mut state, seat).await;
        state.seat_epoch += 1;
        self.store
            .set_due(&table.id, due_ms(&state, &self.options))
            .await?;
        table.changed();
        self.announce(table, state.version, true).await;
        let account = &state.seats[seat].stored.account;
        let account = (!account.is_empty()).then(|| account.clone());
        drop(state);
        self.events.publish(crate::events::TableEvent::SeatTaken {
            table: table.id.clone(),
            seat,
            account,
        });
        self.schedule(table.clone());
        Ok(())
    }

    /// Takes an open seat for a person who joins from the lobby at `from`, with a
    /// fresh token; one address holds at most
    /// [`HubOptions::max_open_seats_per_table_per_address`] open seats at a table and
    /// [`HubOptions::max_open_seats_per_address`] at unfinished tables.
    pub async fn join(
        self: &Arc<Self>,
        table: &Arc<Table>,
        name: Option<&str>,
        wanted: Option<usize>,
        from: IpAddr,
        account: Option<&StoredAccount>,
    ) -> Result<SeatGrant, ApiError> {
        let name = clean_name(name)?;
        let joiner = client_key(from).to_string();
        let mut state = table.state.lock().await;
        state.check_not_cancelled()?;
        if state.game.is_over() {
            return Err(ApiError::conflict(ErrorCode::GameOver, "the game is over"));
        }
        state.check_no_seat_of(account)?;
        if state.settings.rated && account.is_none() {
            // A seat declined at a rated table is open to account holders only (RT2).
            return Err(ApiError::forbidden(
                ErrorCode::RatedRules,
                "this table is rated: sign in to take its open seat",
            ));
        }
        let open: Vec<usize> = state
            .seats
            .iter()
            .filter(|s| s.stored.open && !s.stored.claimed && s.stored.bot.is_none())
            .map(|s| s.stored.seat)
            .collect();
        let seat = match wanted {
            Some(seat) if open.contains(&seat) => seat,
            Some(seat) => {
                return Err(ApiError::conflict(
                    ErrorCode::SeatNotOpen,
                    format!("seat {} is not open to join", seat + 1),
                ))
            }
            None => *open.first().ok_or_else(|| {
                ApiError::conflict(
                    ErrorCode::NoOpenSeat,
                    "no seat at this table is open to join",
                )
            })?,
        };
        let per_table = self.options.max_open_seats_per_table_per_address;
        let here: Vec<usize> = state
            .seats
            .iter()
            .filter(|s| s.stored.joiner == joiner)
            .map(|s| s.stored.seat + 1)
            .collect();
        if per_table > 0 && here.len() as u64 >= per_table {
            return Err(ApiError::conflict(
                ErrorCode::AlreadySeated,
                format!(
                    "your address already holds seat {} of this table; one address takes at most {per_table} open seat(s) of a table",
                    here.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", ")
                ),
            ));
        }
        let cap = self.options.max_open_seats_per_address;
        if cap > 0 && self.store.open_seats_of(&joiner).await? >= cap {
            return Err(ApiError::conflict(
                ErrorCode::TooManySeats,
                format!(
                    "your address already holds {cap} open seats at unfinished tables; finish a game or hand a seat to a bot first"
                ),
            ));
        }
        let mut updated = state.seats[seat].stored.clone();
        updated.claimed = true;
        updated.token = fairness::new_secret();
        updated.joiner = joiner;
        take_for(&mut updated, name, account, &state)?;
        if !self.store.take_seat(&table.id, &updated).await? {
            // Taken a moment ago through another node (or the table was cancelled).
            let _ = self.catch_up_locked(table, &mut state).await;
            state.check_not_cancelled()?;
            return Err(ApiError::conflict(
                ErrorCode::SeatNotOpen,
                format!("seat {} was just taken", seat + 1),
            ));
        }
        self.seated(table, state, updated).await
    }

    /// Takes an invited seat with its invite link's token: the link is spent, and the
    /// seat gets a new token that only this answer carries (the creator, who had the
    /// link, cannot play the seat). Of two uses of one link, also on two nodes, exactly
    /// one gets the seat; the other hears that the seat is taken. Starts the game once
    /// every human seat is taken.
    pub async fn claim_invite(
        self: &Arc<Self>,
        table: &Arc<Table>,
        invite: Option<&str>,
        name: Option<&str>,
        account: Option<&StoredAccount>,
    ) -> Result<SeatGrant, ApiError> {
        let name = clean_name(name)?;
        let invite = invite.filter(|t| !t.is_empty()).ok_or_else(|| {
            ApiError::forbidden(
                ErrorCode::TokenNeeded,
                "taking an invited seat needs the invite link's token",
            )
        })?;
        let mut state = table.state.lock().await;
        state.check_not_cancelled()?;
        let Some(seat) = state.invited_seat(invite) else {
            // A seat's own token is no invite; anything else is forged.
            state.seat_of(Some(invite))?;
            return Err(ApiError::forbidden(
                ErrorCode::NotAnInvite,
                "this token is a seat's own token, not an invite link; open the table with it",
            ));
        };
        if state.seats[seat].stored.claimed {
            return Err(seat_taken(seat));
        }
        state.check_no_seat_of(account)?;
        let mut updated = state.seats[seat].stored.clone();
        updated.claimed = true;
        updated.token = fairness::new_secret();
        take_for(&mut updated, name, account, &state)?;
        if !self.store.claim_invite(&table.id, &updated).await? {
            // The link was used a moment ago through another node.
            if self
                .catch_up_locked(table, &mut state)
                .await
                .unwrap_or(false)
            {
                table.changed();
            }
            return Err(seat_taken(seat));
        }
        self.seated(table, state, updated).await
    }

    /// A seat just taken (stored already): seen, the game started once no person's
    /// seat is free, shown; answers the seat's grant.
    pub(super) async fn seated(
        self: &Arc<Self>,
        table: &Arc<Table>,
        mut state: tokio::sync::MutexGuard<'_, TableState>,
        updated: StoredSeat,
    ) -> Result<SeatGrant, ApiError> {
        let seat = updated.seat;
        state.seats[seat].stored = updated.clone();
        self.seen_player(&table.id, &mut state, seat).await;
        let started = self.start_if_ready(table, &mut state).await?;
        table.changed();
        self.announce(table, state.version, true).await;
        drop(state);
        table.positions.settled().await;
        self.events.publish(crate::events::TableEvent::SeatTaken {
            table: table.id.clone(),
            seat,
            account: (!updated.account.is_empty()).then(|| updated.account.clone()),
        });
        if started {
            self.schedule(table.clone());
        }
        Ok(grant(table, seat, &updated.name, &updated.token))
    }

    /// Starts a waiting table once no human seat is free; true if it started now.
    pub(super) async fn start_if_ready(
        &self,
        table: &Arc<Table>,
        state: &mut TableState,
    ) -> Result<bool, ApiError> {
        if state.started_ms.is_some() || !state.waiting_for().is_empty() {
            return Ok(false);
        }
        let now = self.now_ms();
        self.store.set_started(&table.id, now).await?;
        state.started_ms = Some(now);
        state.turn_started_ms = now;
        self.store
            .set_due(&table.id, due_ms(state, &self.options))
            .await?;
        self.keep_rated_position(table, state);
        Ok(true)
    }
}

/// Who takes `seat`: a signed-in `account` plays under its account's name, and the
/// seat becomes the account's; a guest under the name they asked for, if any.
fn take_for(
    seat: &mut StoredSeat,
    name: Option<String>,
    account: Option<&StoredAccount>,
    state: &TableState,
) -> Result<(), ApiError> {
    let name = match account {
        Some(account) => {
            seat.account = account.id.clone();
            seat.account_name = account.name.clone();
            Some(account.name.clone())
        }
        None => name,
    };
    if let Some(name) = name {
        check_distinct(&name, state.other_names(seat.seat))?;
        seat.name = name;
    }
    Ok(())
}

/// An invite link used after its seat was taken.
fn seat_taken(seat: usize) -> ApiError {
    ApiError::conflict(
        ErrorCode::SeatTaken,
        format!(
            "this seat is taken: the invite link of seat {} was used already, and it no longer opens the seat",
            seat + 1
        ),
    )
}

/// Compares secrets in time independent of where they differ.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
