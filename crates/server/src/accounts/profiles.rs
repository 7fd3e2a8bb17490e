//! What others see of a player: the profile (ratings, totals, the rating's history,
//! recent games), the leaderboards, and the signed-in player's own tables.

use std::collections::{BTreeMap, HashMap};

use play::rating::{Rating, PROVISIONAL_ABOVE, SHOWN_PER_MU};
use serde::Deserialize;

use super::Accounts;
use crate::error::ApiError;
use crate::store::{RatingRow, ResultRow, StoredAccount};
use crate::wire::{
    ErrorCode, GameKind, Leaderboard, LeaderboardEntry, MyGame, MyGames, PlayerResult, PoolTotals,
    RatingPoint, RatingPool, RatingView, TableStatus, UserGame, UserProfile,
};

/// Recent games on a profile.
const PROFILE_GAMES: u32 = 50;
/// Rated games the rating chart goes back.
const HISTORY_GAMES: u32 = 500;
/// Lines of a leaderboard.
const LEADERBOARD_LINES: u32 = 100;
/// Tables in "my games".
const MY_GAMES: u32 = 200;

/// A shown number, rounded to a whole one.
fn shown(value: f64) -> f64 {
    value.round()
}

fn rating_view(rating: &Rating, games: u64) -> RatingView {
    RatingView {
        rating: shown(rating.shown()),
        uncertainty: shown(rating.shown_uncertainty()),
        games,
        provisional: rating.provisional(),
    }
}

fn pool_of(row_pool: &str) -> Option<RatingPool> {
    RatingPool::named(row_pool)
}

/// The games of a history, newest first, with how much each rated one moved the
/// rating (from the rated game before it in the same pool, or a new player's).
fn user_games(
    rows: &[ResultRow],
    names: &HashMap<String, Vec<String>>,
    limit: usize,
) -> Vec<UserGame> {
    rows.iter()
        .enumerate()
        .take(limit)
        .filter_map(|(i, row)| {
            let pool = pool_of(&row.pool)?;
            let before = rows[i + 1..]
                .iter()
                .find(|older| older.pool == row.pool && older.after.is_some())
                .and_then(|older| older.after)
                .unwrap_or(Rating::NEW);
            let result = match (row.place, row.winners) {
                (1, 1) => PlayerResult::Won,
                (1, _) => PlayerResult::Shared,
                _ => PlayerResult::Lost,
            };
            Some(UserGame {
                id: row.table_id.clone(),
                game: pool.game(),
                pool,
                finished_ms: row.finished_ms,
                seat: row.seat,
                names: names.get(&row.table_id).cloned().unwrap_or_default(),
                place: row.place,
                result,
                score: row.score,
                rated: row.rated,
                rating: row.after.map(|r| shown(r.shown())),
                rating_change: row.after.map(|r| shown(r.shown()) - shown(before.shown())),
            })
        })
        .collect()
}

impl Accounts {
    /// The live account of a name, or 404.
    async fn named(&self, name: &str) -> Result<StoredAccount, ApiError> {
        self.by_name(name).await?.ok_or_else(|| {
            ApiError::not_found(ErrorCode::UnknownPlayer, "there is no player of that name")
        })
    }

    /// `GET /api/users/{name}`.
    pub async fn profile(&self, name: &str) -> Result<UserProfile, ApiError> {
        let account = self.named(name).await?;
        self.profile_of(&account).await
    }

    pub(super) async fn profile_of(
        &self,
        account: &StoredAccount,
    ) -> Result<UserProfile, ApiError> {
        let ratings = self.store.ratings_of(&account.id).await?;
        let rows = self.store.results_of(&account.id, HISTORY_GAMES).await?;
        let mut names: HashMap<String, Vec<String>> = HashMap::new();
        for (table, _, name) in self
            .store
            .names_at_results_of(&account.id, PROFILE_GAMES)
            .await?
        {
            names.entry(table).or_default().push(name);
        }
        let totals = self.store.totals_of(&account.id).await?;
        Ok(UserProfile {
            name: account.name.clone(),
            created_ms: account.created_ms,
            ratings: ratings
                .iter()
                .filter_map(|r| Some((pool_of(&r.pool)?, rating_view(&r.rating, r.games))))
                .collect::<BTreeMap<_, _>>(),
            totals: totals
                .into_iter()
                .filter_map(|(pool, played, won)| {
                    Some(PoolTotals {
                        pool: pool_of(&pool)?,
                        played,
                        won,
                    })
                })
                .collect(),
            history: rows
                .iter()
                .rev()
                .filter_map(|row| {
                    Some(RatingPoint {
                        pool: pool_of(&row.pool)?,
                        at_ms: row.finished_ms,
                        rating: shown(row.after?.shown()),
                    })
                })
                .collect(),
            games: user_games(&rows, &names, PROFILE_GAMES as usize),
        })
    }

    /// `GET /api/leaderboard/{pool}`: settled ratings only, best first.
    pub async fn leaderboard(&self, pool: RatingPool) -> Result<Leaderboard, ApiError> {
        let settled_sigma = PROVISIONAL_ABOVE / SHOWN_PER_MU;
        let rows: Vec<RatingRow> = self
            .store
            .leaderboard(pool.name(), settled_sigma, LEADERBOARD_LINES)
            .await?;
        Ok(Leaderboard {
            pool,
            entries: rows
                .iter()
                .enumerate()
                .map(|(i, row)| LeaderboardEntry {
                    rank: i + 1,
                    name: row.account_name.clone(),
                    rating: shown(row.rating.shown()),
                    uncertainty: shown(row.rating.shown_uncertainty()),
                    games: row.games,
                })
                .collect(),
        })
    }

    /// `GET /api/me/games`: the tables the account has a seat at, on every device.
    pub async fn games_of(&self, account: &StoredAccount) -> Result<MyGames, ApiError> {
        #[derive(Deserialize)]
        struct GameOf {
            game: GameKind,
        }
        let entries = self.store.games_of(&account.id, MY_GAMES).await?;
        Ok(MyGames {
            games: entries
                .into_iter()
                .filter_map(|e| {
                    let GameOf { game } = serde_json::from_str(&e.config).ok()?;
                    let status = if e.cancelled {
                        TableStatus::Cancelled
                    } else if e.finished {
                        TableStatus::Over
                    } else if e.started {
                        TableStatus::Playing
                    } else {
                        TableStatus::Waiting
                    };
                    Some(MyGame {
                        id: e.table_id,
                        game,
                        seat: e.seat,
                        finished: e.finished || e.cancelled,
                        status,
                        created_ms: e.created_ms,
                        opponents: e.others,
                        place: e.place.map(|(place, _)| place),
                        players: e.place.map(|(_, players)| players),
                    })
                })
                .collect(),
        })
    }
}
