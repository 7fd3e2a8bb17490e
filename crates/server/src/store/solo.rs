//! The solo cube's best times: one row per account and level, kept at its smallest.

use sqlx::Row;

use super::Store;

/// A best time as stored: the level as (edge, colours, rules, alternate).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredSoloBest {
    pub edge: u8,
    pub colours: u8,
    pub rules: bool,
    pub alternate: bool,
    pub millis: u64,
    pub stones: u32,
    pub at_ms: i64,
}

impl Store {
    /// The account's best times, level by level.
    pub async fn solo_bests(&self, account_id: &str) -> anyhow::Result<Vec<StoredSoloBest>> {
        let rows = sqlx::query(
            "SELECT edge, colours, rules, alternate, millis, stones, at_ms FROM rumi_solo_bests WHERE account_id = $1 ORDER BY edge, colours, rules, alternate",
        )
        .bind(account_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(StoredSoloBest {
                    edge: row.try_get::<i64, _>("edge")? as u8,
                    colours: row.try_get::<i64, _>("colours")? as u8,
                    rules: row.try_get::<i64, _>("rules")? != 0,
                    alternate: row.try_get::<i64, _>("alternate")? != 0,
                    millis: row.try_get::<i64, _>("millis")? as u64,
                    stones: row.try_get::<i64, _>("stones")? as u32,
                    at_ms: row.try_get("at_ms")?,
                })
            })
            .collect()
    }

    /// Keeps `best` as the account's best on its level if it is faster than the one
    /// kept (or the first). True if it was kept.
    pub async fn record_solo(
        &self,
        account_id: &str,
        best: &StoredSoloBest,
    ) -> anyhow::Result<bool> {
        let done = sqlx::query(
            "INSERT INTO rumi_solo_bests (account_id, edge, colours, rules, alternate, millis, stones, at_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
             ON CONFLICT (account_id, edge, colours, rules, alternate) DO UPDATE \
             SET millis = excluded.millis, stones = excluded.stones, at_ms = excluded.at_ms \
             WHERE excluded.millis < rumi_solo_bests.millis",
        )
        .bind(account_id)
        .bind(i64::from(best.edge))
        .bind(i64::from(best.colours))
        .bind(i64::from(best.rules))
        .bind(i64::from(best.alternate))
        .bind(best.millis as i64)
        .bind(i64::from(best.stones))
        .bind(best.at_ms)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() > 0)
    }
}
