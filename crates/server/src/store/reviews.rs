//! Reviews of finished games: one row per table, claimed by the node computing it
//! with a conditional write, so that of several nodes exactly one computes a review,
//! and an expired claim (a node that stopped) is taken over.

use sqlx::Row;

use super::Store;

/// A review's row: its claim and progress, or the finished document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewRow {
    pub game: String,
    /// The node computing it ('' once done).
    pub node: String,
    pub expires_ms: i64,
    pub done: u64,
    pub total: u64,
    /// The finished review (JSON).
    pub document: Option<String>,
}

impl Store {
    /// The review of a table, if one was ever asked for.
    pub async fn review(&self, table_id: &str) -> anyhow::Result<Option<ReviewRow>> {
        let row = sqlx::query(
            "SELECT game, node, expires_ms, done, total, document FROM rumi_reviews WHERE table_id = $1",
        )
        .bind(table_id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| -> anyhow::Result<ReviewRow> {
            Ok(ReviewRow {
                game: r.try_get("game")?,
                node: r.try_get("node")?,
                expires_ms: r.try_get("expires_ms")?,
                done: r.try_get::<i64, _>("done")?.max(0) as u64,
                total: r.try_get::<i64, _>("total")?.max(0) as u64,
                document: r.try_get("document")?,
            })
        })
        .transpose()
    }

    /// Claims the review of a table for `node` until `expires_ms`: granted when nobody
    /// asked for it yet, or its claim ran out before `now_ms` (or is `node`'s own, left
    /// by an earlier run of it), and it is not done. Answers whether `node` holds it.
    pub async fn claim_review(
        &self,
        table_id: &str,
        game: &str,
        node: &str,
        now_ms: i64,
        expires_ms: i64,
    ) -> anyhow::Result<bool> {
        let done = sqlx::query(
            "INSERT INTO rumi_reviews (table_id, game, node, expires_ms, done, total) VALUES ($1, $2, $3, $4, 0, 0)
             ON CONFLICT (table_id) DO UPDATE SET node = excluded.node, expires_ms = excluded.expires_ms, done = 0
             WHERE rumi_reviews.document IS NULL
               AND (rumi_reviews.node = excluded.node OR rumi_reviews.expires_ms < $5)",
        )
        .bind(table_id)
        .bind(game)
        .bind(node)
        .bind(expires_ms)
        .bind(now_ms)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Renews `node`'s claim and records its progress; false when the claim is no
    /// longer `node`'s (another node took it over, or it is done).
    pub async fn review_progress(
        &self,
        table_id: &str,
        node: &str,
        done: u64,
        total: u64,
        expires_ms: i64,
    ) -> anyhow::Result<bool> {
        let updated = sqlx::query(
            "UPDATE rumi_reviews SET done = $1, total = $2, expires_ms = $3
             WHERE table_id = $4 AND node = $5 AND document IS NULL",
        )
        .bind(done as i64)
        .bind(total as i64)
        .bind(expires_ms)
        .bind(table_id)
        .bind(node)
        .execute(&self.pool)
        .await?;
        Ok(updated.rows_affected() == 1)
    }

    /// Stores the finished review, if `node` still holds the claim; answers whether
    /// it did (then this is the one computation of the review).
    pub async fn finish_review(
        &self,
        table_id: &str,
        node: &str,
        document: &str,
        turns: u64,
        now_ms: i64,
    ) -> anyhow::Result<bool> {
        let updated = sqlx::query(
            "UPDATE rumi_reviews SET document = $1, done = $2, total = $3, node = '', finished_ms = $4
             WHERE table_id = $5 AND node = $6 AND document IS NULL",
        )
        .bind(document)
        .bind(turns as i64)
        .bind(turns as i64)
        .bind(now_ms)
        .bind(table_id)
        .bind(node)
        .execute(&self.pool)
        .await?;
        Ok(updated.rows_affected() == 1)
    }

    /// Gives a claim up (the review failed): the next request may try again.
    pub async fn release_review(&self, table_id: &str, node: &str) -> anyhow::Result<()> {
        sqlx::query(
            "DELETE FROM rumi_reviews WHERE table_id = $1 AND node = $2 AND document IS NULL",
        )
        .bind(table_id)
        .bind(node)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}
