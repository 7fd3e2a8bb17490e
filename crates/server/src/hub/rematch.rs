//! Rematch: the players of a finished table play again at a new table with the same
//! game, settings and seats (the same names, bots the same bots) and a new fair deal.
//! The first player to ask creates it and sits down at once; every other person takes
//! their own seat there with their old seat's token (the same request), so nobody
//! copies links and nobody can take another's seat. The new table's id follows from
//! the old table's id and secret salt: asking again, on any node, finds that table
//! instead of making another.

use std::net::IpAddr;
use std::sync::Arc;

use sha2::{Digest, Sha256};

use crate::error::ApiError;
use crate::fairness;
use crate::store::{StoredSeat, StoredTable};
use crate::wire::{CreateTableResponse, CreatedSeat, ErrorCode, SeatGrant};

use super::view::seat_kind;
use super::{Hub, Table, TableState};

impl Hub {
    /// The rematch of the finished table `old`, asked by the player of `seat` from
    /// `from`: created on the first request (counted against `from`'s table limits),
    /// found again on every later one. Answers the new table with the asker's seat
    /// there (`you`), taken for them if it was not yet.
    pub async fn rematch(
        self: &Arc<Self>,
        old: &Arc<Table>,
        seat: usize,
        from: IpAddr,
    ) -> Result<CreateTableResponse, ApiError> {
        // Held throughout: of two players asking at once on this node, one creates.
        let mut state = old.state.lock().await;
        state.check_not_cancelled()?;
        if !state.game.is_over() {
            return Err(ApiError::conflict(
                ErrorCode::NotOver,
                "the game is still being played; a rematch can be asked for once it is over",
            ));
        }
        self.seen_player(&old.id, &mut state, seat).await;
        let id = rematch_id(&old.id, &state.salt);
        let table = match self.table(&id).await {
            Ok(table) => table,
            Err(e) if e.code == ErrorCode::NoTable => {
                let creator = self.admit_creation(from).await?;
                let stored = rematch_table(&id, &state, seat, creator);
                let due = self.first_due_ms(&stored, state.settings.rated);
                match self.store.create_table(&stored, due).await {
                    Ok(()) => self.keep_new(&stored)?,
                    // Another node stored it a moment ago (the id is the key).
                    Err(e) => self.table(&id).await.map_err(|_| ApiError::from(e))?,
                }
            }
            Err(e) => return Err(e),
        };
        let you = self.rematch_seat(&table, seat).await?;
        if state.rematch.is_none() {
            state.rematch = Some(id);
            old.changed();
            self.announce(old, state.version, true).await;
        }
        drop(state);
        let state = table.state.lock().await;
        Ok(CreateTableResponse {
            id: table.id.clone(),
            spectator: format!("/t/{}", table.id),
            you: Some(you),
            seats: state
                .seats
                .iter()
                .map(|s| CreatedSeat {
                    seat: s.stored.seat,
                    name: s.stored.name.clone(),
                    kind: seat_kind(&s.stored),
                    bot: s.stored.bot.clone(),
                    invite: None,
                })
                .collect(),
            commitment: fairness::commitment(state.seed, &state.salt),
            practice_seed: None,
        })
    }

    /// The asker's seat at the rematch: taken for them with the seat's hidden invite
    /// (the way an invite link takes a seat), or, taken already, handed to them again.
    async fn rematch_seat(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: usize,
    ) -> Result<SeatGrant, ApiError> {
        for _ in 0..2 {
            let invite = {
                let state = table.state.lock().await;
                let stored = &state
                    .seats
                    .get(seat)
                    .ok_or_else(|| ApiError::internal("the rematch lacks a seat"))?
                    .stored;
                if stored.claimed {
                    return Ok(super::accounts::grant(
                        table,
                        seat,
                        &stored.name,
                        &stored.token,
                    ));
                }
                if stored.invite.is_empty() {
                    return Err(ApiError::internal(
                        "the rematch gave a person's seat to a bot",
                    ));
                }
                stored.invite.clone()
            };
            match self.claim_invite(table, Some(&invite), None, None).await {
                // (the same player asking twice at once: the other request took it)
                Err(e) if e.code == ErrorCode::SeatTaken => continue,
                taken => return taken,
            }
        }
        Err(ApiError::conflict(
            ErrorCode::SeatTaken,
            "your seat at the rematch is being taken; ask again",
        ))
    }

    /// The rematch of a finished table, if a player asked for one (on any node).
    pub(super) async fn rematch_of(&self, id: &str, salt: &str) -> anyhow::Result<Option<String>> {
        let candidate = rematch_id(id, salt);
        Ok(self
            .store
            .load_settings(&candidate)
            .await?
            .map(|_| candidate))
    }
}

/// The rematch's table id: from the old table's id and salt (secret while it was
/// played, so nobody could take the id before), in the form of every table id.
fn rematch_id(id: &str, salt: &str) -> String {
    let digest = Sha256::digest(format!("rumi-rematch:{id}:{salt}").as_bytes());
    format!("t{}", &hex::encode(digest)[..12])
}

/// The rematch as stored: `old`'s settings and seats, the asker's seat taken, every
/// other person's seat waiting for its player (an invite only the server knows),
/// bots the same bots, and a new deal: a fresh seed (never the old one) and salt.
fn rematch_table(id: &str, old: &TableState, asker: usize, creator: String) -> StoredTable {
    let seats: Vec<StoredSeat> = old
        .seats
        .iter()
        .map(|s| {
            // A person's seat handed to a bot is still theirs; a bot's from the start
            // (or one nobody took before it went to a bot) is the bot's. A rated table
            // has account seats only: each is its holder's again, to be retaken.
            let person = old.settings.rated || s.stored.bot.is_none() || s.stored.claimed;
            let asking = s.stored.seat == asker;
            StoredSeat {
                seat: s.stored.seat,
                name: s.stored.name.clone(),
                bot: if person { None } else { s.stored.bot.clone() },
                token: fairness::new_secret(),
                claimed: asking,
                open: false,
                invite: if person && !asking {
                    fairness::new_secret()
                } else {
                    String::new()
                },
                joiner: String::new(),
                // An account's seat stays the account's (and opens by its session).
                account: s.stored.account.clone(),
                account_name: s.stored.account_name.clone(),
            }
        })
        .collect();
    let seed = std::iter::repeat_with(fairness::secure_seed)
        .find(|&seed| seed != old.seed)
        .expect("an endless supply of seeds");
    let now = old.clock.now_ms();
    let waiting = seats.iter().any(|s| s.bot.is_none() && !s.claimed);
    let mut settings = old.settings.clone();
    // A rated table made before rated tables had clocks gets one now (RT9).
    crate::games::clock::settle_rematch(&mut settings);
    StoredTable {
        id: id.to_string(),
        config: serde_json::to_string(&settings).expect("settings serialise"),
        seed,
        salt: fairness::new_secret(),
        practice: false,
        created_ms: now,
        started_ms: (!waiting).then_some(now),
        cancelled_ms: None,
        creator,
        finished: false,
        seats,
        actions: Vec::new(),
    }
}
