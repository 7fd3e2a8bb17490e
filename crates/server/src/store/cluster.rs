//! Several nodes on one database: leases on tables' bots and clocks, and what each
//! node saw of the players (`rumi_presence`).

use sqlx::Row;

use super::{SeatPresence, Store};

impl Store {
    /// Takes or renews the lease on a table's bots and clock for `node` until
    /// `expires_ms`: granted when nobody holds it, `node` holds it, or the holder's
    /// lease ran out before `now_ms`. Answers whether `node` holds it now, and the
    /// node it was taken from (a take-over).
    pub async fn acquire_lease(
        &self,
        table_id: &str,
        node: &str,
        now_ms: i64,
        expires_ms: i64,
    ) -> anyhow::Result<(bool, Option<String>)> {
        let previous = sqlx::query("SELECT node, expires_ms FROM rumi_leases WHERE table_id = $1")
            .bind(table_id)
            .fetch_optional(&self.pool)
            .await?
            .map(|row| -> Result<(String, i64), sqlx::Error> {
                Ok((row.try_get("node")?, row.try_get("expires_ms")?))
            })
            .transpose()?;
        let done = sqlx::query(
            "INSERT INTO rumi_leases (table_id, node, expires_ms) VALUES ($1, $2, $3)
             ON CONFLICT (table_id) DO UPDATE SET node = excluded.node, expires_ms = excluded.expires_ms
             WHERE rumi_leases.node = excluded.node OR rumi_leases.expires_ms < $4",
        )
        .bind(table_id)
        .bind(node)
        .bind(expires_ms)
        .bind(now_ms)
        .execute(&self.pool)
        .await?;
        let held = done.rows_affected() == 1;
        let taken_from = previous
            .filter(|(holder, _)| held && holder != node)
            .map(|(holder, _)| holder);
        Ok((held, taken_from))
    }

    /// Renews every lease `node` holds.
    pub async fn renew_leases(&self, node: &str, expires_ms: i64) -> anyhow::Result<u64> {
        Ok(
            sqlx::query("UPDATE rumi_leases SET expires_ms = $1 WHERE node = $2")
                .bind(expires_ms)
                .bind(node)
                .execute(&self.pool)
                .await?
                .rows_affected(),
        )
    }

    /// Gives up every lease of `node` (a node that stops hands its tables over).
    pub async fn release_leases(&self, node: &str) -> anyhow::Result<u64> {
        Ok(sqlx::query("DELETE FROM rumi_leases WHERE node = $1")
            .bind(node)
            .execute(&self.pool)
            .await?
            .rows_affected())
    }

    /// Unfinished tables whose bot or clock is due by `until_ms` and whose lease is
    /// free or ran out before `now_ms` (the tables no live node drives), or is held by
    /// `node` (which may have dropped the table from memory while its clock was far
    /// away). Each with whether `node` holds its lease.
    pub async fn due_without_lease(
        &self,
        node: &str,
        now_ms: i64,
        until_ms: i64,
    ) -> anyhow::Result<Vec<(String, bool)>> {
        let rows = sqlx::query(
            "SELECT t.id, l.node FROM rumi_tables t LEFT JOIN rumi_leases l ON l.table_id = t.id
             WHERE t.finished = 0 AND t.due_ms IS NOT NULL AND t.due_ms <= $1
               AND (l.table_id IS NULL OR l.expires_ms < $2 OR l.node = $3)
             ORDER BY t.due_ms LIMIT 500",
        )
        .bind(until_ms)
        .bind(now_ms)
        .bind(node)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let holder: Option<String> = r.try_get("node")?;
                Ok((
                    r.try_get::<String, _>("id")?,
                    holder.as_deref() == Some(node),
                ))
            })
            .collect()
    }

    /// Records what `node` saw of a seat's player: its connections and when it last
    /// saw them.
    pub async fn set_presence(
        &self,
        table_id: &str,
        seat: usize,
        node: &str,
        connections: usize,
        seen_ms: i64,
    ) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO rumi_presence (table_id, seat, node, connections, seen_ms) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (table_id, seat, node) DO UPDATE SET connections = excluded.connections, seen_ms = excluded.seen_ms",
        )
        .bind(table_id)
        .bind(seat as i64)
        .bind(node)
        .bind(connections as i64)
        .bind(seen_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The heartbeat: `node` still sees every player it holds a connection for.
    pub async fn presence_heartbeat(&self, node: &str, now_ms: i64) -> anyhow::Result<u64> {
        Ok(
            sqlx::query(
                "UPDATE rumi_presence SET seen_ms = $1 WHERE node = $2 AND connections > 0",
            )
            .bind(now_ms)
            .bind(node)
            .execute(&self.pool)
            .await?
            .rows_affected(),
        )
    }

    /// `node` holds no connection any more (it starts, or stops): its players were
    /// last seen at `seen_ms`, or at its last heartbeat (`None`).
    pub async fn presence_closed(&self, node: &str, seen_ms: Option<i64>) -> anyhow::Result<u64> {
        let query = match seen_ms {
            Some(seen_ms) => sqlx::query(
                "UPDATE rumi_presence SET connections = 0, seen_ms = $1 WHERE node = $2 AND connections > 0",
            )
            .bind(seen_ms),
            None => sqlx::query(
                "UPDATE rumi_presence SET connections = 0 WHERE node = $1 AND connections > 0",
            ),
        };
        Ok(query.bind(node).execute(&self.pool).await?.rows_affected())
    }

    /// What the nodes other than `except_node` saw of a table's players.
    pub async fn presence_of(
        &self,
        table_id: &str,
        except_node: &str,
    ) -> anyhow::Result<Vec<SeatPresence>> {
        let rows = sqlx::query(
            "SELECT seat, connections, seen_ms FROM rumi_presence WHERE table_id = $1 AND node <> $2",
        )
        .bind(table_id)
        .bind(except_node)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(SeatPresence {
                    seat: r.try_get::<i64, _>("seat")? as usize,
                    connections: r.try_get::<i64, _>("connections")?.max(0) as u64,
                    seen_ms: r.try_get("seen_ms")?,
                })
            })
            .collect()
    }

    /// Forgets sightings older than `before_ms` (they no longer stop a hand-over).
    pub async fn forget_presence(&self, before_ms: i64) -> anyhow::Result<u64> {
        Ok(sqlx::query("DELETE FROM rumi_presence WHERE seen_ms < $1")
            .bind(before_ms)
            .execute(&self.pool)
            .await?
            .rows_affected())
    }
}
