//! Finished games' results and the ratings they move (docs/ratings.md). A game is
//! recorded once (RT4): the row in `rumi_recorded` is written in the same transaction
//! as its results, so that of several nodes (or a retry after a crash) exactly one
//! records it. A rating is changed only if nobody changed it since it was read (its
//! game count), else the whole record is tried again: two games that end at once both
//! count.

use play::rating::{rate, Rating};
use sqlx::any::AnyRow;
use sqlx::Row;

use super::Store;

/// How often a record is tried again when another game moved a rating meanwhile.
const RECORD_ATTEMPTS: usize = 8;

/// One account holder's seat at a finished table.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SeatResult {
    pub seat: usize,
    pub account: String,
    /// 1 for the winner; tied players share a place (`play::rating::places`).
    pub place: usize,
    pub score: i64,
}

/// A finished table, as its results are recorded.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FinishedGame {
    pub table_id: String,
    /// The rating pool (`RatingPool`'s name).
    pub pool: String,
    pub rated: bool,
    pub players: usize,
    /// How many seats share the win.
    pub winners: usize,
    pub finished_ms: i64,
}

/// A recorded result, as a history shows it.
#[derive(Clone, Debug)]
pub struct ResultRow {
    pub table_id: String,
    pub seat: usize,
    pub pool: String,
    pub players: usize,
    pub place: usize,
    pub winners: usize,
    pub score: i64,
    pub rated: bool,
    /// The rating after the game (rated games only).
    pub after: Option<Rating>,
    pub finished_ms: i64,
}

/// An account's rating in one pool.
#[derive(Clone, Debug)]
pub struct RatingRow {
    pub account_name: String,
    pub pool: String,
    pub rating: Rating,
    pub games: u64,
}

/// A table an account has a seat at, finished or not.
#[derive(Clone, Debug)]
pub struct GameEntry {
    pub table_id: String,
    pub seat: usize,
    pub config: String,
    pub finished: bool,
    pub started: bool,
    pub cancelled: bool,
    pub created_ms: i64,
    /// The other seats' names, by seat.
    pub others: Vec<String>,
    /// The account's recorded result: its place and how many played.
    pub place: Option<(usize, usize)>,
}

fn result_of_row(row: &AnyRow) -> Result<ResultRow, sqlx::Error> {
    let mu: Option<f64> = row.try_get("mu")?;
    let sigma: Option<f64> = row.try_get("sigma")?;
    Ok(ResultRow {
        table_id: row.try_get("table_id")?,
        seat: row.try_get::<i64, _>("seat")? as usize,
        pool: row.try_get("pool")?,
        players: row.try_get::<i64, _>("players")? as usize,
        place: row.try_get::<i64, _>("place")? as usize,
        winners: row.try_get::<i64, _>("winners")? as usize,
        score: row.try_get("score")?,
        rated: row.try_get::<i64, _>("rated")? != 0,
        after: mu.zip(sigma).map(|(mu, sigma)| Rating { mu, sigma }),
        finished_ms: row.try_get("finished_ms")?,
    })
}

impl Store {
    /// Records a finished table's results for its account holders and, if it is
    /// rated, moves their ratings in its pool. False if it was recorded already.
    pub async fn record_game(
        &self,
        game: &FinishedGame,
        seats: &[SeatResult],
    ) -> anyhow::Result<bool> {
        let FinishedGame {
            table_id,
            pool,
            rated,
            players,
            winners,
            finished_ms,
        } = game;
        let (rated, players, winners, finished_ms) = (*rated, *players, *winners, *finished_ms);
        for _ in 0..RECORD_ATTEMPTS {
            let mut tx = self.pool.begin().await?;
            let claimed = sqlx::query(
                "INSERT INTO rumi_recorded (table_id, at_ms) VALUES ($1, $2) ON CONFLICT (table_id) DO NOTHING",
            )
            .bind(table_id)
            .bind(finished_ms)
            .execute(&mut *tx)
            .await?;
            if claimed.rows_affected() == 0 {
                tx.rollback().await?;
                return Ok(false);
            }
            let mut after: Vec<Option<Rating>> = vec![None; seats.len()];
            let mut moved = true;
            if rated {
                let mut before = Vec::new();
                for seat in seats {
                    let row = sqlx::query("SELECT mu, sigma, games FROM rumi_ratings WHERE account_id = $1 AND pool = $2")
                        .bind(&seat.account)
                        .bind(pool)
                        .fetch_optional(&mut *tx)
                        .await?;
                    before.push(match row {
                        Some(row) => (
                            Rating {
                                mu: row.try_get("mu")?,
                                sigma: row.try_get("sigma")?,
                            },
                            Some(row.try_get::<i64, _>("games")?),
                        ),
                        None => (Rating::NEW, None),
                    });
                }
                let ranked: Vec<(Rating, usize)> = before
                    .iter()
                    .zip(seats)
                    .map(|((r, _), s)| (*r, s.place))
                    .collect();
                let rated_now = rate(&ranked);
                for (i, (seat, (_, games))) in seats.iter().zip(&before).enumerate() {
                    let new = rated_now[i];
                    let done = match games {
                        Some(games) => sqlx::query("UPDATE rumi_ratings SET mu = $1, sigma = $2, games = games + 1 WHERE account_id = $3 AND pool = $4 AND games = $5")
                            .bind(new.mu)
                            .bind(new.sigma)
                            .bind(&seat.account)
                            .bind(pool)
                            .bind(*games)
                            .execute(&mut *tx)
                            .await?,
                        None => sqlx::query("INSERT INTO rumi_ratings (account_id, pool, mu, sigma, games) VALUES ($1, $2, $3, $4, 1) ON CONFLICT (account_id, pool) DO NOTHING")
                            .bind(&seat.account)
                            .bind(pool)
                            .bind(new.mu)
                            .bind(new.sigma)
                            .execute(&mut *tx)
                            .await?,
                    };
                    moved &= done.rows_affected() == 1;
                    after[i] = Some(new);
                }
            }
            if !moved {
                // Another game moved one of these ratings since it was read.
                tx.rollback().await?;
                continue;
            }
            for (seat, after) in seats.iter().zip(&after) {
                sqlx::query("INSERT INTO rumi_results (table_id, seat, account_id, pool, players, place, winners, score, rated, mu, sigma, finished_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)")
                    .bind(table_id)
                    .bind(seat.seat as i64)
                    .bind(&seat.account)
                    .bind(pool)
                    .bind(players as i64)
                    .bind(seat.place as i64)
                    .bind(winners as i64)
                    .bind(seat.score)
                    .bind(i64::from(rated))
                    .bind(after.map(|r| r.mu))
                    .bind(after.map(|r| r.sigma))
                    .bind(finished_ms)
                    .execute(&mut *tx)
                    .await?;
            }
            match tx.commit().await {
                Ok(()) => return Ok(true),
                // A concurrent writer won (SQLite busy, PostgreSQL serialization).
                Err(_) => continue,
            }
        }
        anyhow::bail!("the results of {table_id} could not be recorded: ratings kept moving")
    }

    /// An account's ratings, one per pool it has played rated games in.
    pub async fn ratings_of(&self, account: &str) -> anyhow::Result<Vec<RatingRow>> {
        let rows = sqlx::query("SELECT a.name, r.pool, r.mu, r.sigma, r.games FROM rumi_ratings r JOIN rumi_accounts a ON a.id = r.account_id WHERE r.account_id = $1 ORDER BY r.pool")
            .bind(account)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(rating_of_row).collect()
    }

    /// The best settled ratings of a pool (`settled_sigma`: the largest uncertainty
    /// that is no longer provisional), best first.
    pub async fn leaderboard(
        &self,
        pool: &str,
        settled_sigma: f64,
        limit: u32,
    ) -> anyhow::Result<Vec<RatingRow>> {
        let rows = sqlx::query("SELECT a.name, r.pool, r.mu, r.sigma, r.games FROM rumi_ratings r JOIN rumi_accounts a ON a.id = r.account_id WHERE r.pool = $1 AND r.sigma <= $2 AND a.deleted_ms IS NULL ORDER BY r.mu DESC, a.name LIMIT $3")
            .bind(pool)
            .bind(settled_sigma)
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(rating_of_row).collect()
    }

    /// An account's recorded results, newest first.
    pub async fn results_of(&self, account: &str, limit: u32) -> anyhow::Result<Vec<ResultRow>> {
        let rows = sqlx::query("SELECT table_id, seat, pool, players, place, winners, score, rated, mu, sigma, finished_ms FROM rumi_results WHERE account_id = $1 ORDER BY finished_ms DESC, table_id LIMIT $2")
            .bind(account)
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(result_of_row).collect::<Result<_, _>>()?)
    }

    /// Games played and won per pool: `(pool, played, won)`.
    pub async fn totals_of(&self, account: &str) -> anyhow::Result<Vec<(String, u64, u64)>> {
        let rows = sqlx::query("SELECT pool, COUNT(*) AS played, SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END) AS won FROM rumi_results WHERE account_id = $1 GROUP BY pool ORDER BY pool")
            .bind(account)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|row| {
                Ok((
                    row.try_get("pool")?,
                    row.try_get::<i64, _>("played")? as u64,
                    row.try_get::<i64, _>("won")? as u64,
                ))
            })
            .collect()
    }

    /// The names at the tables of an account's latest `limit` results, per table in
    /// seat order: `(table, seat, name)`.
    pub async fn names_at_results_of(
        &self,
        account: &str,
        limit: u32,
    ) -> anyhow::Result<Vec<(String, usize, String)>> {
        let rows = sqlx::query("SELECT table_id, seat, name FROM rumi_seats WHERE table_id IN (SELECT table_id FROM rumi_results WHERE account_id = $1 ORDER BY finished_ms DESC, table_id LIMIT $2) ORDER BY table_id, seat")
            .bind(account)
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|row| {
                Ok((
                    row.try_get("table_id")?,
                    row.try_get::<i64, _>("seat")? as usize,
                    row.try_get("name")?,
                ))
            })
            .collect()
    }

    /// The tables an account has a seat at, newest first, finished or not.
    pub async fn games_of(&self, account: &str, limit: u32) -> anyhow::Result<Vec<GameEntry>> {
        let rows = sqlx::query("SELECT s.table_id, s.seat, t.config, t.finished, t.started_ms, t.cancelled_ms, t.created_ms, r.place, r.players FROM rumi_seats s JOIN rumi_tables t ON t.id = s.table_id LEFT JOIN rumi_results r ON r.table_id = s.table_id AND r.account_id = s.account_id WHERE s.account_id = $1 ORDER BY t.created_ms DESC, s.table_id LIMIT $2")
            .bind(account)
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
        let mut games = rows
            .iter()
            .map(|row| {
                let place: Option<i64> = row.try_get("place")?;
                let players: Option<i64> = row.try_get("players")?;
                Ok(GameEntry {
                    table_id: row.try_get("table_id")?,
                    seat: row.try_get::<i64, _>("seat")? as usize,
                    config: row.try_get("config")?,
                    finished: row.try_get::<i64, _>("finished")? != 0,
                    started: row.try_get::<Option<i64>, _>("started_ms")?.is_some(),
                    cancelled: row.try_get::<Option<i64>, _>("cancelled_ms")?.is_some(),
                    created_ms: row.try_get("created_ms")?,
                    others: Vec::new(),
                    place: place.zip(players).map(|(p, n)| (p as usize, n as usize)),
                })
            })
            .collect::<anyhow::Result<Vec<GameEntry>>>()?;
        // The other seats of those same tables, in one query.
        let others = sqlx::query("SELECT o.table_id, o.seat, o.name FROM rumi_seats o JOIN rumi_seats s ON s.table_id = o.table_id AND s.seat <> o.seat WHERE s.account_id = $1 AND o.table_id IN (SELECT s2.table_id FROM rumi_seats s2 JOIN rumi_tables t ON t.id = s2.table_id WHERE s2.account_id = $1 ORDER BY t.created_ms DESC, s2.table_id LIMIT $2) ORDER BY o.table_id, o.seat")
            .bind(account)
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
        let mut by_table: std::collections::HashMap<String, Vec<String>> = Default::default();
        for row in &others {
            by_table
                .entry(row.try_get("table_id")?)
                .or_default()
                .push(row.try_get("name")?);
        }
        for game in &mut games {
            game.others = by_table.remove(&game.table_id).unwrap_or_default();
        }
        Ok(games)
    }

    /// Whether a finished table's results are recorded.
    pub async fn is_recorded(&self, table_id: &str) -> anyhow::Result<bool> {
        let row = sqlx::query("SELECT 1 AS one FROM rumi_recorded WHERE table_id = $1")
            .bind(table_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.is_some())
    }

    /// Finished tables with an account holder's seat whose results are not recorded
    /// (their node stopped before it recorded them).
    pub async fn unrecorded_games(&self, limit: u32) -> anyhow::Result<Vec<String>> {
        let rows = sqlx::query("SELECT DISTINCT s.table_id FROM rumi_seats s JOIN rumi_tables t ON t.id = s.table_id WHERE s.account_id <> '' AND t.finished = 1 AND t.cancelled_ms IS NULL AND NOT EXISTS (SELECT 1 FROM rumi_recorded r WHERE r.table_id = s.table_id) LIMIT $1")
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .map(|row| row.try_get("table_id"))
            .collect::<Result<_, _>>()?)
    }
}

fn rating_of_row(row: &AnyRow) -> anyhow::Result<RatingRow> {
    Ok(RatingRow {
        account_name: row.try_get("name")?,
        pool: row.try_get("pool")?,
        rating: Rating {
            mu: row.try_get("mu")?,
            sigma: row.try_get("sigma")?,
        },
        games: row.try_get::<i64, _>("games")? as u64,
    })
}
