//! The solo cube's best times: one row per account and level, kept at its smallest;
//! and the cubes begun (when the server first saw them, the hints asked since).

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

    /// Notes that `account_id` begins a cube of `level` now (again: the earlier one
    /// is forgotten, hints and all).
    pub async fn begin_solo(
        &self,
        account_id: &str,
        level: &SoloLevelKey,
        now_ms: i64,
    ) -> anyhow::Result<()> {
        self.note_solo(account_id, level, now_ms, 0).await
    }

    /// Counts a hint for the cube of `level` that `account_id` builds (one begun now
    /// if none was).
    pub async fn solo_hint_used(
        &self,
        account_id: &str,
        level: &SoloLevelKey,
        now_ms: i64,
    ) -> anyhow::Result<()> {
        self.note_solo(account_id, level, now_ms, 1).await
    }

    /// A cube begun (`hints` 0) or a hint for it (1).
    async fn note_solo(
        &self,
        account_id: &str,
        level: &SoloLevelKey,
        now_ms: i64,
        hints: i64,
    ) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO rumi_solo_attempts (account_id, edge, colours, rules, alternate, started_ms, hints) \
             VALUES ($1, $2, $3, $4, $5, $6, $7) \
             ON CONFLICT (account_id, edge, colours, rules, alternate) DO UPDATE SET \
             started_ms = CASE WHEN excluded.hints = 0 THEN excluded.started_ms ELSE rumi_solo_attempts.started_ms END, \
             hints = CASE WHEN excluded.hints = 0 THEN 0 ELSE rumi_solo_attempts.hints + 1 END",
        )
        .bind(account_id)
        .bind(i64::from(level.0))
        .bind(i64::from(level.1))
        .bind(i64::from(level.2))
        .bind(i64::from(level.3))
        .bind(now_ms)
        .bind(hints)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Ends the cube of `level` that `account_id` builds: when it began and the
    /// hints asked for it, if the server saw it begin.
    pub async fn end_solo(
        &self,
        account_id: &str,
        level: &SoloLevelKey,
    ) -> anyhow::Result<Option<(i64, u32)>> {
        let row = sqlx::query(
            "DELETE FROM rumi_solo_attempts \
             WHERE account_id = $1 AND edge = $2 AND colours = $3 AND rules = $4 AND alternate = $5 \
             RETURNING started_ms, hints",
        )
        .bind(account_id)
        .bind(i64::from(level.0))
        .bind(i64::from(level.1))
        .bind(i64::from(level.2))
        .bind(i64::from(level.3))
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| -> anyhow::Result<(i64, u32)> {
            Ok((
                row.try_get("started_ms")?,
                row.try_get::<i64, _>("hints")? as u32,
            ))
        })
        .transpose()
    }
}

/// A solo level as stored: (edge, colours, rules, alternate).
pub type SoloLevelKey = (u8, u8, bool, bool);
