//! The schema, and the columns and tables added since the first one.

use std::time::Duration;

use sqlx::any::AnyPoolOptions;
use sqlx::Executor;

use super::Store;

/// Columns added after the first schema; adding one that exists fails and is ignored.
const MIGRATIONS: [&str; 14] = [
    // Which node runs a table's bots and clock (several nodes on one database).
    "CREATE TABLE IF NOT EXISTS rumi_leases (
        table_id TEXT PRIMARY KEY,
        node TEXT NOT NULL,
        expires_ms BIGINT NOT NULL)",
    "ALTER TABLE rumi_tables ADD COLUMN salt TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE rumi_tables ADD COLUMN practice BIGINT NOT NULL DEFAULT 0",
    "ALTER TABLE rumi_tables ADD COLUMN started_ms BIGINT",
    "ALTER TABLE rumi_tables ADD COLUMN creator TEXT NOT NULL DEFAULT ''",
    // When the server must act next at the table (a bot's move, the clock); lets a
    // restart resume exactly the tables that need it without rebuilding the others.
    "ALTER TABLE rumi_tables ADD COLUMN due_ms BIGINT",
    "ALTER TABLE rumi_seats ADD COLUMN open BIGINT NOT NULL DEFAULT 0",
    "CREATE INDEX IF NOT EXISTS rumi_tables_creator ON rumi_tables (creator, finished)",
    // A seat's invite link is spent when its seat is taken (a new token replaces it).
    "ALTER TABLE rumi_seats ADD COLUMN invite TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE rumi_seats ADD COLUMN joiner TEXT NOT NULL DEFAULT ''",
    "CREATE INDEX IF NOT EXISTS rumi_seats_joiner ON rumi_seats (joiner)",
    // The tables whose clock comes soon (loaded again after a drop from memory).
    "CREATE INDEX IF NOT EXISTS rumi_tables_due ON rumi_tables (due_ms)",
    // Several nodes: when each node last saw a seat's player, and the connections it
    // holds for them (`seen_ms` refreshed while any is open), so that a seat is
    // handed to a bot only when no node has seen its player for the hand-over time.
    "CREATE TABLE IF NOT EXISTS rumi_presence (
        table_id TEXT NOT NULL,
        seat BIGINT NOT NULL,
        node TEXT NOT NULL,
        connections BIGINT NOT NULL,
        seen_ms BIGINT NOT NULL,
        PRIMARY KEY (table_id, seat, node))",
    "CREATE INDEX IF NOT EXISTS rumi_presence_node ON rumi_presence (node, connections)",
];

const SCHEMA: [&str; 4] = [
    "CREATE TABLE IF NOT EXISTS rumi_tables (
        id TEXT PRIMARY KEY,
        config TEXT NOT NULL,
        seed BIGINT NOT NULL,
        created_ms BIGINT NOT NULL,
        finished BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS rumi_seats (
        table_id TEXT NOT NULL,
        seat BIGINT NOT NULL,
        name TEXT NOT NULL,
        bot TEXT,
        token TEXT NOT NULL,
        claimed BIGINT NOT NULL,
        PRIMARY KEY (table_id, seat))",
    "CREATE TABLE IF NOT EXISTS rumi_actions (
        table_id TEXT NOT NULL,
        version BIGINT NOT NULL,
        actor BIGINT NOT NULL,
        action TEXT NOT NULL,
        at_ms BIGINT NOT NULL,
        PRIMARY KEY (table_id, version))",
    "CREATE INDEX IF NOT EXISTS rumi_tables_finished ON rumi_tables (finished)",
];

impl Store {
    /// Opens (and creates, for SQLite) the database at `url` and its schema:
    /// `sqlite://rumi.db`, `sqlite::memory:` or `postgres://user@host/db`.
    pub async fn connect(url: &str) -> anyhow::Result<Store> {
        sqlx::any::install_default_drivers();
        let sqlite = url.starts_with("sqlite:");
        if !sqlite && !url.starts_with("postgres://") && !url.starts_with("postgresql://") {
            anyhow::bail!(
                "unsupported database `{}`: use sqlite://FILE or postgres://…",
                crate::redact_url(url)
            );
        }
        let url = if sqlite && !url.contains('?') && !url.contains(":memory:") {
            format!("{url}?mode=rwc")
        } else {
            url.to_string()
        };
        let pool = AnyPoolOptions::new()
            // SQLite has one writer at a time: one connection queues writes in the pool
            // instead of letting them collide and back off inside SQLite.
            .max_connections(if sqlite { 1 } else { 8 })
            .acquire_timeout(Duration::from_secs(10))
            .after_connect(move |conn, _meta| {
                Box::pin(async move {
                    if sqlite {
                        // WAL: a commit survives a crash of the process (kill -9)
                        // without an fsync per action; readers never block the writer.
                        conn.execute("PRAGMA journal_mode = WAL").await?;
                        conn.execute("PRAGMA synchronous = NORMAL").await?;
                        conn.execute("PRAGMA busy_timeout = 5000").await?;
                    }
                    Ok(())
                })
            })
            .connect(&url)
            .await
            .map_err(|e| {
                anyhow::anyhow!("cannot open database {}: {e}", crate::redact_url(&url))
            })?;
        for statement in SCHEMA {
            // Nodes started together race to create the schema; PostgreSQL may refuse
            // the loser's `IF NOT EXISTS` once: try again.
            let mut tries = 0;
            while let Err(e) = pool.execute(statement).await {
                tries += 1;
                if tries == 5 {
                    return Err(e.into());
                }
                tokio::time::sleep(Duration::from_millis(100 * tries)).await;
            }
        }
        let (mut added_due, mut added_invite) = (false, false);
        for statement in MIGRATIONS {
            let added = pool.execute(statement).await.is_ok();
            added_due |= added && statement.contains("ADD COLUMN due_ms");
            added_invite |= added && statement.contains("COLUMN invite");
        }
        if added_invite {
            // Seats invited before links were spent: the link's token is the seat's
            // token until someone takes the seat (and gets a new one).
            pool.execute("UPDATE rumi_seats SET invite = token WHERE claimed = 0 AND open = 0")
                .await?;
        }
        if added_due {
            // Tables from before `due_ms`: look at each unfinished one once.
            pool.execute("UPDATE rumi_tables SET due_ms = created_ms, started_ms = created_ms WHERE finished = 0")
                .await?;
        }
        Ok(Store { pool })
    }
}
