//! Opening the database, and its schema: numbered sqlx migrations in `crates/server/migrations/sqlite`
//! and `…/postgres`, embedded in the binary and applied when the server opens the
//! database (one node at a time: sqlx holds a PostgreSQL advisory lock meanwhile).
//! A migration, once released, never changes (sqlx checks each one's checksum); a
//! change of schema is a new numbered file in both folders.
//!
//! Migration 1 is the baseline: the schema the releases before numbered migrations
//! left. A database they made (rumi's tables there, sqlx's `_sqlx_migrations` not) is
//! brought to the baseline and marked as at it, instead of running the baseline on it.

use std::time::Duration;

use sqlx::any::AnyPoolOptions;
use sqlx::migrate::{Migrate, Migrator};
use sqlx::{AnyConnection, AnyPool, Executor, Row};

use super::Store;

static SQLITE: Migrator = sqlx::migrate!("migrations/sqlite");
static POSTGRES: Migrator = sqlx::migrate!("migrations/postgres");

/// The version of the baseline migration.
const BASELINE: i64 = 1;

/// Columns that the releases before numbered migrations added to their own older
/// databases, in order: a database one of them made may lack the later ones.
const ADDED_COLUMNS: [(&str, &str, &str); 8] = [
    ("rumi_tables", "salt", "TEXT NOT NULL DEFAULT ''"),
    ("rumi_tables", "practice", "BIGINT NOT NULL DEFAULT 0"),
    ("rumi_tables", "started_ms", "BIGINT"),
    ("rumi_tables", "creator", "TEXT NOT NULL DEFAULT ''"),
    ("rumi_tables", "due_ms", "BIGINT"),
    ("rumi_seats", "open", "BIGINT NOT NULL DEFAULT 0"),
    ("rumi_seats", "invite", "TEXT NOT NULL DEFAULT ''"),
    ("rumi_seats", "joiner", "TEXT NOT NULL DEFAULT ''"),
];

/// Tables and indexes that those releases created when missing (after the columns).
const ADDED_TABLES: [&str; 7] = [
    "CREATE TABLE IF NOT EXISTS rumi_leases (
        table_id TEXT PRIMARY KEY,
        node TEXT NOT NULL,
        expires_ms BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS rumi_presence (
        table_id TEXT NOT NULL,
        seat BIGINT NOT NULL,
        node TEXT NOT NULL,
        connections BIGINT NOT NULL,
        seen_ms BIGINT NOT NULL,
        PRIMARY KEY (table_id, seat, node))",
    "CREATE INDEX IF NOT EXISTS rumi_tables_finished ON rumi_tables (finished)",
    "CREATE INDEX IF NOT EXISTS rumi_tables_creator ON rumi_tables (creator, finished)",
    "CREATE INDEX IF NOT EXISTS rumi_tables_due ON rumi_tables (due_ms)",
    "CREATE INDEX IF NOT EXISTS rumi_seats_joiner ON rumi_seats (joiner)",
    "CREATE INDEX IF NOT EXISTS rumi_presence_node ON rumi_presence (node, connections)",
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
        migrate(&pool, sqlite).await.map_err(|e| {
            anyhow::anyhow!(
                "cannot bring database {} to this version's schema: {e:#}",
                crate::redact_url(&url)
            )
        })?;
        Ok(Store {
            pool,
            postgres: !sqlite,
        })
    }
}

/// Brings the database to the newest schema.
async fn migrate(pool: &AnyPool, sqlite: bool) -> anyhow::Result<()> {
    let migrator = if sqlite { &SQLITE } else { &POSTGRES };
    let mut conn = pool.acquire().await?;
    // The lock is sqlx's own (re-entrant), so that the adoption below and the
    // migrations are one step for nodes started together.
    conn.lock().await?;
    let result = async {
        if !has_table(&mut conn, sqlite, "_sqlx_migrations").await?
            && has_table(&mut conn, sqlite, "rumi_tables").await?
        {
            adopt(&mut conn, sqlite).await?;
            migrator.skip(&mut *conn, Some(BASELINE)).await?;
            tracing::info!("a database from before numbered migrations: marked as at the baseline");
        }
        migrator.run(&mut *conn).await?;
        anyhow::Ok(())
    }
    .await;
    conn.unlock().await?;
    result
}

/// Brings a database of the releases before numbered migrations to the baseline, as
/// those releases did: the columns, tables and indexes it lacks, and the values that
/// the seats and tables from before a column need.
async fn adopt(conn: &mut AnyConnection, sqlite: bool) -> anyhow::Result<()> {
    let mut added = Vec::new();
    for (table, column, definition) in ADDED_COLUMNS {
        if !has_column(conn, sqlite, table, column).await? {
            let statement = format!("ALTER TABLE {table} ADD COLUMN {column} {definition}");
            conn.execute(sqlx::AssertSqlSafe(statement)).await?;
            added.push(column);
        }
    }
    for statement in ADDED_TABLES {
        conn.execute(statement).await?;
    }
    if added.contains(&"invite") {
        // Seats invited before links were spent: the link's token is the seat's token
        // until someone takes the seat (and gets a new one).
        conn.execute("UPDATE rumi_seats SET invite = token WHERE claimed = 0 AND open = 0")
            .await?;
    }
    if added.contains(&"due_ms") {
        // Tables from before `due_ms`: look at each unfinished one once.
        conn.execute(
            "UPDATE rumi_tables SET due_ms = created_ms, started_ms = created_ms WHERE finished = 0",
        )
        .await?;
    }
    Ok(())
}

async fn has_table(conn: &mut AnyConnection, sqlite: bool, table: &str) -> anyhow::Result<bool> {
    let query = if sqlite {
        "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = $1"
    } else {
        "SELECT COUNT(*) FROM information_schema.tables
         WHERE table_schema = current_schema() AND table_name = $1"
    };
    let row = sqlx::query(query).bind(table).fetch_one(&mut *conn).await?;
    Ok(row.try_get::<i64, _>(0)? > 0)
}

async fn has_column(
    conn: &mut AnyConnection,
    sqlite: bool,
    table: &str,
    column: &str,
) -> anyhow::Result<bool> {
    let query = if sqlite {
        "SELECT COUNT(*) FROM pragma_table_info($1) WHERE name = $2"
    } else {
        "SELECT COUNT(*) FROM information_schema.columns
         WHERE table_schema = current_schema() AND table_name = $1 AND column_name = $2"
    };
    let row = sqlx::query(query)
        .bind(table)
        .bind(column)
        .fetch_one(&mut *conn)
        .await?;
    Ok(row.try_get::<i64, _>(0)? > 0)
}
