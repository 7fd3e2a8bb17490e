//! Blocks between accounts and the counts that cap challenges (#56), and the keys of
//! running rated games' positions (`positions`).

use sqlx::Row;

use super::Store;

/// An account someone blocked, as their list shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredBlock {
    pub name: String,
    pub at_ms: i64,
}

impl Store {
    /// Blocks `blocked` for `account`; false if it was blocked already.
    pub async fn block(&self, account: &str, blocked: &str, at_ms: i64) -> anyhow::Result<bool> {
        let done = sqlx::query(
            "INSERT INTO rumi_blocks (account_id, blocked_id, at_ms) VALUES ($1, $2, $3) \
             ON CONFLICT (account_id, blocked_id) DO NOTHING",
        )
        .bind(account)
        .bind(blocked)
        .bind(at_ms)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Lifts a block; false if there was none.
    pub async fn unblock(&self, account: &str, blocked: &str) -> anyhow::Result<bool> {
        let done = sqlx::query("DELETE FROM rumi_blocks WHERE account_id = $1 AND blocked_id = $2")
            .bind(account)
            .bind(blocked)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// The accounts `account` blocked, by name, most recent first.
    pub async fn blocks_of(&self, account: &str) -> anyhow::Result<Vec<StoredBlock>> {
        let rows = sqlx::query(
            "SELECT a.name, b.at_ms FROM rumi_blocks b JOIN rumi_accounts a ON a.id = b.blocked_id \
             WHERE b.account_id = $1 ORDER BY b.at_ms DESC, a.name",
        )
        .bind(account)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(StoredBlock {
                    name: row.try_get("name")?,
                    at_ms: row.try_get("at_ms")?,
                })
            })
            .collect()
    }

    /// How many accounts `account` blocked.
    pub async fn block_count(&self, account: &str) -> anyhow::Result<u64> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM rumi_blocks WHERE account_id = $1")
            .bind(account)
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get::<i64, _>("n")? as u64)
    }

    /// The ids of the accounts `account` blocked.
    pub async fn blocked_ids(&self, account: &str) -> anyhow::Result<Vec<String>> {
        let rows = sqlx::query("SELECT blocked_id FROM rumi_blocks WHERE account_id = $1")
            .bind(account)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|row| Ok(row.try_get("blocked_id")?))
            .collect()
    }

    /// Whether `account` blocked `other`.
    pub async fn is_blocked(&self, account: &str, other: &str) -> anyhow::Result<bool> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM rumi_blocks WHERE account_id = $1 AND blocked_id = $2",
        )
        .bind(account)
        .bind(other)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get::<i64, _>("n")? > 0)
    }

    /// Challenges `account` has open as a creator: waiting tables where it holds a
    /// taken seat and a seat is kept for another account.
    pub async fn challenges_sent(&self, account: &str) -> anyhow::Result<u64> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM rumi_tables t WHERE t.finished = 0 AND t.started_ms IS NULL \
               AND EXISTS (SELECT 1 FROM rumi_seats s WHERE s.table_id = t.id AND s.account_id = $1 AND s.claimed = 1) \
               AND EXISTS (SELECT 1 FROM rumi_seats s WHERE s.table_id = t.id AND s.account_id <> '' AND s.account_id <> $1 AND s.claimed = 0)",
        )
        .bind(account)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get::<i64, _>("n")? as u64)
    }

    /// Challenges waiting for `account`: seats kept for it at waiting tables.
    pub async fn challenges_waiting(&self, account: &str) -> anyhow::Result<u64> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM rumi_seats s JOIN rumi_tables t ON t.id = s.table_id \
             WHERE s.account_id = $1 AND s.claimed = 0 AND t.finished = 0 AND t.started_ms IS NULL",
        )
        .bind(account)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get::<i64, _>("n")? as u64)
    }

    /// Keeps `keys` as the current position of the rated table `table_id` (none: its
    /// game is over), in place of the ones kept before.
    pub async fn set_rated_positions(&self, table_id: &str, keys: &[String]) -> anyhow::Result<()> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM rumi_rated_positions WHERE table_id = $1")
            .bind(table_id)
            .execute(&mut *tx)
            .await?;
        for key in keys {
            sqlx::query(
                "INSERT INTO rumi_rated_positions (position, table_id) VALUES ($1, $2) \
                 ON CONFLICT (position, table_id) DO NOTHING",
            )
            .bind(key)
            .bind(table_id)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Whether a running rated game stands at the position `key`.
    pub async fn is_rated_position(&self, key: &str) -> anyhow::Result<bool> {
        // A table that ended by another path than its last action (its keys not yet
        // dropped) no longer counts.
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM rumi_rated_positions p JOIN rumi_tables t ON t.id = p.table_id \
             WHERE p.position = $1 AND t.finished = 0",
        )
            .bind(key)
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get::<i64, _>("n")? > 0)
    }
}
