//! Creating a table: the per-address caps, the settings, seats, names and bots
//! checked, then the table stored and loaded.

use std::net::IpAddr;
use std::sync::Arc;

use crate::error::ApiError;
use crate::fairness;
use crate::games;
use crate::games::clock::{settle_new_table, ClockRefusal};
use crate::names::{check_distinct, distinct_default};
use crate::store::{StoredAccount, StoredSeat, StoredTable};
use crate::transport::client_key;
use crate::wire::{
    CreateTableRequest, CreateTableResponse, CreatedSeat, ErrorCode, GameKind, GameSettings,
    SeatGrant, SeatKind, SeatRequest, TableSettings,
};

use super::registry::evict_idle;
use super::replay::rebuild;
use super::view::seat_kind;
use super::{clean_name, Hub, Table};

/// `Retry-After` for a client at its cap of unfinished tables.
const OPEN_TABLES_RETRY_AFTER: std::time::Duration = std::time::Duration::from_secs(60);

impl Hub {
    /// Creates a table for the client at `from`, signed in as `account` or a guest.
    /// Refusals for too many tables say when to try again (`Retry-After`).
    pub async fn create(
        self: &Arc<Self>,
        request: CreateTableRequest,
        from: IpAddr,
        account: Option<&StoredAccount>,
    ) -> Result<CreateTableResponse, ApiError> {
        let creator = self.admit_creation(from).await?;
        let seats = &request.seats;
        let people = seats.iter().filter(|s| s.kind != SeatKind::Bot).count();
        if people == 0 {
            self.admit_bot_table(&creator).await?;
        }
        let rated = request.rated.unwrap_or(false);
        if rated {
            check_rated(&request, account)?;
        }
        let mut settings = GameSettings::of(
            request.game,
            request.rumis.clone(),
            request.rummikub.clone(),
        )
        .map(|game| TableSettings {
            hints: !rated
                && request
                    .hints
                    .unwrap_or(TableSettings::hints_by_default(people)),
            rated,
            ..TableSettings::new(game, seats.len())
        })
        .map_err(|e| ApiError::bad_request(ErrorCode::BadSettings, e))?;
        // The settings first: a bad scenario is the first thing to say.
        let game = games::new_game(&settings, fairness::secure_seed())
            .map_err(|e| ApiError::bad_request(ErrorCode::BadSettings, e))?;
        // The clock (RT9): a rated table gets one when it names none; kept with the
        // settings, so the stored table keeps it.
        settle_new_table(&mut settings, game.turn_seconds()).map_err(|e| match e {
            ClockRefusal::Bad(m) => ApiError::bad_request(ErrorCode::BadSettings, m),
            ClockRefusal::Rated(m) => ApiError::bad_request(ErrorCode::RatedClock, m),
        })?;
        let game = games::new_game(&settings, fairness::secure_seed())
            .map_err(|e| ApiError::bad_request(ErrorCode::BadSettings, e))?;
        if seats.len() != game.seat_count() {
            return Err(ApiError::bad_request(
                ErrorCode::BadSeats,
                format!(
                    "this game has {} seats, but {} were given",
                    game.seat_count(),
                    seats.len()
                ),
            ));
        }
        let creator_seat = match request.creator_seat {
            Some(seat) if seats.get(seat).map(|s| s.kind) != Some(SeatKind::Human) => {
                return Err(ApiError::bad_request(
                    ErrorCode::BadCreatorSeat,
                    format!(
                        "the creator's seat {} must be one of the table's human seats",
                        seat + 1
                    ),
                ))
            }
            Some(seat) => Some(seat),
            None => seats.iter().position(|s| s.kind == SeatKind::Human),
        };
        let practice = request.seed.is_some();
        if let Some(seed) = request.seed {
            let others_human = seats
                .iter()
                .enumerate()
                .any(|(i, s)| s.kind != SeatKind::Bot && Some(i) != creator_seat);
            if others_human && !self.options.chosen_seeds_with_people {
                return Err(ApiError::bad_request(
                    ErrorCode::SeedNotAllowed,
                    "a fixed seed is only for practice tables, where every other seat is a bot; \
                     with other people the server draws the deal",
                ));
            }
            if seed >= fairness::SEED_LIMIT {
                return Err(ApiError::bad_request(
                    ErrorCode::BadSeed,
                    "a seed is a whole number below 2^53",
                ));
            }
        }
        let seed = request.seed.unwrap_or_else(fairness::secure_seed);
        // Who owns which seat: the signed-in creator theirs, each account seat the
        // account it names.
        let mut owners: Vec<Option<StoredAccount>> = Vec::new();
        for (index, seat) in seats.iter().enumerate() {
            owners.push(match seat.kind {
                SeatKind::Account => Some(self.seat_account(index, seat, account, &owners).await?),
                _ if Some(index) == creator_seat => account.cloned(),
                _ => None,
            });
        }
        let challenged: Vec<&StoredAccount> = seats
            .iter()
            .zip(&owners)
            .filter(|(seat, _)| seat.kind == SeatKind::Account)
            .filter_map(|(_, owner)| owner.as_ref())
            .collect();
        self.admit_challenges(account, &challenged).await?;
        // The names asked for must differ; then each default steps aside from them.
        let mut names: Vec<Option<String>> = Vec::new();
        for (index, request) in seats.iter().enumerate() {
            let name = match &owners[index] {
                Some(owner) => Some(owner.name.clone()),
                None => clean_name(request.name.as_deref())?,
            };
            if let Some(name) = &name {
                let earlier = names.iter().enumerate();
                check_distinct(name, earlier.filter_map(|(i, n)| Some((i, n.as_deref()?))))
                    .map_err(|e| ApiError {
                        message: format!("seat {}: {}", index + 1, e.message),
                        ..e
                    })?;
            }
            names.push(name);
        }
        let mut taken: Vec<String> = names.iter().flatten().cloned().collect();
        let mut stored_seats = Vec::new();
        for (index, request) in seats.iter().enumerate() {
            let bot = match request.kind {
                SeatKind::Bot => {
                    let bot = request.bot.as_deref().unwrap_or("random").to_string();
                    check_bot(settings.game, &bot)?;
                    Some(bot)
                }
                _ if request.bot.is_some() => {
                    return Err(ApiError::bad_request(
                        ErrorCode::BadSeats,
                        format!("seat {}: only a bot seat names a bot", index + 1),
                    ))
                }
                _ => None,
            };
            let name = match (names[index].take(), &bot) {
                (Some(name), _) => name,
                (None, bot) => {
                    let base = match bot {
                        Some(bot) => format!("{bot} bot"),
                        None => format!("Player {}", index + 1),
                    };
                    let name = distinct_default(base, &taken);
                    taken.push(name.clone());
                    name
                }
            };
            let invited = request.kind == SeatKind::Human && Some(index) != creator_seat;
            stored_seats.push(StoredSeat {
                seat: index,
                name,
                bot,
                token: fairness::new_secret(),
                claimed: Some(index) == creator_seat,
                open: request.kind == SeatKind::Open,
                invite: if invited {
                    fairness::new_secret()
                } else {
                    String::new()
                },
                joiner: String::new(),
                account: owners[index]
                    .as_ref()
                    .map_or_else(String::new, |a| a.id.clone()),
                account_name: owners[index]
                    .as_ref()
                    .map_or_else(String::new, |a| a.name.clone()),
            });
        }
        let now = self.now_ms();
        let waiting = stored_seats.iter().any(|s| s.bot.is_none() && !s.claimed);
        let id = format!("t{}", &fairness::new_secret()[..12]);
        let stored = StoredTable {
            id: id.clone(),
            config: serde_json::to_string(&settings)
                .map_err(|e| ApiError::internal(e.to_string()))?,
            seed,
            salt: fairness::new_secret(),
            practice,
            created_ms: now,
            started_ms: (!waiting).then_some(now),
            cancelled_ms: None,
            creator,
            finished: false,
            seats: stored_seats.clone(),
            actions: Vec::new(),
        };
        self.store
            .create_table(&stored, self.first_due_ms(&stored, rated))
            .await?;
        self.keep_new(&stored)?;
        let link = |token: &str| format!("/t/{id}#token={token}");
        Ok(CreateTableResponse {
            you: creator_seat.map(|seat| SeatGrant {
                seat,
                name: stored_seats[seat].name.clone(),
                token: stored_seats[seat].token.clone(),
                url: link(&stored_seats[seat].token),
            }),
            seats: stored_seats
                .iter()
                .map(|s| CreatedSeat {
                    seat: s.seat,
                    name: s.name.clone(),
                    kind: seat_kind(s),
                    bot: s.bot.clone(),
                    invite: (!s.invite.is_empty()).then(|| link(&s.invite)),
                })
                .collect(),
            spectator: format!("/t/{id}"),
            commitment: fairness::commitment(seed, &stored.salt),
            practice_seed: practice.then_some(seed),
            id,
        })
    }
}

impl Hub {
    /// Whether the client at `from` may create a table now: at most
    /// [`HubOptions::tables_per_minute_per_address`](super::HubOptions) a minute and
    /// [`HubOptions::max_open_tables_per_address`](super::HubOptions) unfinished ones.
    /// Answers the creator's key, as the table stores it.
    pub(super) async fn admit_creation(&self, from: IpAddr) -> Result<String, ApiError> {
        let from = client_key(from);
        if let Some(limiter) = &self.creations {
            if let Err(wait) = limiter.check(from) {
                return Err(ApiError::too_many_for(
                    ErrorCode::TooManyTablesPerMinute,
                    format!(
                        "you have created {} tables in the last minute; wait a moment",
                        self.options.tables_per_minute_per_address
                    ),
                    wait,
                ));
            }
        }
        let creator = from.to_string();
        let cap = self.options.max_open_tables_per_address;
        if cap > 0 && self.store.open_tables_of(&creator).await? >= cap {
            // Tables end as games finish or are abandoned; no clock says when.
            return Err(ApiError::too_many_for(
                ErrorCode::TooManyOpenTables,
                format!("you already have {cap} unfinished tables; finish or leave one first"),
                OPEN_TABLES_RETRY_AFTER,
            ));
        }
        Ok(creator)
    }

    /// When the server first acts at a new table: at once where it starts at once (a
    /// bot's move or its clock, planned when loaded), else, at a rated table, when it
    /// is cancelled unless its seats are taken by then (RT7).
    pub(super) fn first_due_ms(&self, stored: &StoredTable, rated: bool) -> Option<i64> {
        match stored.started_ms {
            Some(started) => Some(started),
            None => {
                rated.then(|| stored.created_ms + self.options.rated_seats_wait.as_millis() as i64)
            }
        }
    }

    /// Whether `creator` may start another table of bots only: at most
    /// [`HubOptions::max_bot_tables_per_address`](super::HubOptions) of theirs and
    /// [`HubOptions::max_bot_tables`](super::HubOptions) in all run at once, so that
    /// the memory their bots keep has a ceiling.
    async fn admit_bot_table(&self, creator: &str) -> Result<(), ApiError> {
        let cap = self.options.max_bot_tables_per_address;
        if cap > 0 && self.store.open_bot_tables(Some(creator)).await? >= cap {
            return Err(ApiError::too_many_for(
                ErrorCode::TooManyBotTables,
                format!("your address already runs {cap} tables of bots only; wait until one ends"),
                OPEN_TABLES_RETRY_AFTER,
            ));
        }
        let cap = self.options.max_bot_tables;
        if cap > 0 && self.store.open_bot_tables(None).await? >= cap {
            return Err(ApiError::too_many_for(
                ErrorCode::BotTablesFull,
                format!("the server runs {cap} tables of bots only, its most; try again later"),
                OPEN_TABLES_RETRY_AFTER,
            ));
        }
        Ok(())
    }

    /// A table just stored: built, kept in memory and its drivers started.
    pub(super) fn keep_new(self: &Arc<Self>, stored: &StoredTable) -> Result<Arc<Table>, ApiError> {
        let table = Arc::new(
            rebuild(stored, stored.created_ms, &self.options)
                .map_err(|e| ApiError::internal(format!("the new table cannot be built: {e}")))?,
        );
        {
            let mut tables = self.tables.lock();
            tables.insert(stored.id.clone(), table.clone());
            if tables.len() > self.options.max_loaded_tables {
                let idle_ms = self.options.idle_after.as_millis() as i64;
                evict_idle(
                    &mut tables,
                    self.options.max_loaded_tables,
                    &stored.id,
                    idle_ms,
                    self.now_ms(),
                );
            }
        }
        if let Ok(state) = table.state.try_lock() {
            self.events.publish(crate::events::TableEvent::Created {
                table: stored.id.clone(),
                game: state.settings.game,
                rated: state.settings.rated,
                seats: state.seats.len(),
            });
        }
        self.schedule(table.clone());
        Ok(table)
    }
}

impl Hub {
    /// The account an `account` seat names: one that exists, not the creator's own
    /// and not named by an earlier seat.
    async fn seat_account(
        &self,
        index: usize,
        seat: &SeatRequest,
        creator: Option<&StoredAccount>,
        earlier: &[Option<StoredAccount>],
    ) -> Result<StoredAccount, ApiError> {
        let bad = |message: String| {
            ApiError::bad_request(
                ErrorCode::BadSeats,
                format!("seat {}: {message}", index + 1),
            )
        };
        let name = seat
            .name
            .as_deref()
            .ok_or_else(|| bad("an account seat names its player's account (`name`)".into()))?;
        let found = self.accounts.by_name(name).await?.ok_or_else(|| {
            ApiError::bad_request(
                ErrorCode::UnknownPlayer,
                format!(
                    "seat {}: there is no player named `{}`",
                    index + 1,
                    name.chars().take(40).collect::<String>()
                ),
            )
        })?;
        if creator.is_some_and(|c| c.id == found.id) {
            return Err(bad(
                "that is your own account: your seat is the creator's".into()
            ));
        }
        if earlier.iter().flatten().any(|a| a.id == found.id) {
            return Err(bad(format!("{} has a seat already", found.name)));
        }
        Ok(found)
    }
}

/// A rated table (RT2): made signed in, the creator's seat and account seats only (no
/// bots, no open or invited seats), no hints and a deal the server draws.
fn check_rated(
    request: &CreateTableRequest,
    account: Option<&StoredAccount>,
) -> Result<(), ApiError> {
    let refuse = |message: &str| Err(ApiError::bad_request(ErrorCode::RatedRules, message));
    if account.is_none() {
        return refuse("a rated table is made signed in: every seat is an account holder's");
    }
    let guests = request
        .seats
        .iter()
        .filter(|s| s.kind != SeatKind::Account)
        .count();
    if guests != 1
        || request
            .seats
            .iter()
            .any(|s| s.kind != SeatKind::Human && s.kind != SeatKind::Account)
    {
        return refuse(
            "a rated table has your seat and account seats only (`{\"kind\": \"account\", \"name\": …}`): no bots, no open or invited seats",
        );
    }
    if request.hints == Some(true) {
        return refuse("a rated table has no hints");
    }
    if request.seed.is_some() {
        return refuse("a rated table's deal is drawn by the server, never chosen");
    }
    Ok(())
}

pub(super) fn check_bot(game: GameKind, bot: &str) -> Result<(), ApiError> {
    if games::is_bot(game, bot) {
        Ok(())
    } else {
        let known: Vec<&str> = games::bots(game).map(|b| b.spec).collect();
        Err(ApiError::bad_request(
            ErrorCode::UnknownBot,
            format!(
                "unknown {} bot `{}` (bots: {})",
                game.name(),
                bot.chars().take(40).collect::<String>(),
                known.join(", ")
            ),
        ))
    }
}
