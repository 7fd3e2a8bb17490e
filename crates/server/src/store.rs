//! Persistence: tables, seats and the action log, on SQLite (WAL, the default) or
//! PostgreSQL, with one schema and one set of queries through sqlx's `Any` driver.
//!
//! The action log is the truth: a table's state is its configuration and seed replayed
//! through its actions. An action is written, in its own transaction, before the
//! server shows it to anyone; `(table_id, version)` is the key, so an action can never
//! be stored twice.

use std::time::Duration;

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Executor, Row};

/// A stored table: what is needed to rebuild it.
#[derive(Clone, Debug)]
pub struct StoredTable {
    pub id: String,
    /// The game configuration as JSON (`games::GameConfig`).
    pub config: String,
    pub seed: u64,
    /// The secret that hides the seed in the published commitment (hex).
    pub salt: String,
    /// The creator chose the seed (a practice table, R: only with bots as opponents).
    pub practice: bool,
    pub created_ms: i64,
    /// When every human seat was taken and the game began; `None` while waiting.
    pub started_ms: Option<i64>,
    /// The address that created the table (for the per-address cap).
    pub creator: String,
    pub finished: bool,
    pub seats: Vec<StoredSeat>,
    pub actions: Vec<StoredAction>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredSeat {
    pub seat: usize,
    pub name: String,
    /// The bot playing the seat, or `None` for a person.
    pub bot: Option<String>,
    pub token: String,
    /// Whether a person has taken the seat (by invite link or by joining).
    pub claimed: bool,
    /// Open to anyone from the lobby (else invited: only the link's holder).
    pub open: bool,
    /// An invited seat's link token: it takes the seat once, for a fresh token that
    /// only the one who took it gets; kept afterwards to tell a spent link ("this seat
    /// is taken") from a forged one. Empty for other seats.
    pub invite: String,
    /// The address (`transport::client_key`) that joined this open seat from the
    /// lobby, for the per-address seat caps; empty for other seats.
    pub joiner: String,
}

/// What one node saw of a seat's player (several nodes on one database).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatPresence {
    pub seat: usize,
    /// Connections the node holds for the seat (its heartbeat refreshes `seen_ms`
    /// while there are any).
    pub connections: u64,
    /// The last time the node saw the player (Unix ms).
    pub seen_ms: i64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAction {
    /// 1 for the first action.
    pub version: u64,
    /// The seat, or `None` for the server's clock.
    pub actor: Option<usize>,
    /// The action in canonical JSON.
    pub action: String,
    pub at_ms: i64,
}

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

/// The database behind the server.
#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
}

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

    /// Stores a new table with its seats.
    pub async fn create_table(&self, table: &StoredTable) -> anyhow::Result<()> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO rumi_tables (id, config, seed, salt, practice, created_ms, started_ms, creator, finished, due_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(&table.id)
        .bind(&table.config)
        .bind(table.seed as i64)
        .bind(&table.salt)
        .bind(i64::from(table.practice))
        .bind(table.created_ms)
        .bind(table.started_ms)
        .bind(&table.creator)
        .bind(i64::from(table.finished))
        .bind(table.started_ms)
        .execute(&mut *tx)
        .await?;
        for seat in &table.seats {
            sqlx::query(
                "INSERT INTO rumi_seats (table_id, seat, name, bot, token, claimed, open, invite, joiner) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            )
            .bind(&table.id)
            .bind(seat.seat as i64)
            .bind(&seat.name)
            .bind(seat.bot.clone())
            .bind(&seat.token)
            .bind(i64::from(seat.claimed))
            .bind(i64::from(seat.open))
            .bind(&seat.invite)
            .bind(&seat.joiner)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Appends one action in its own transaction; fails (and stores nothing) if that
    /// version of the table is already stored.
    pub async fn append_action(
        &self,
        table_id: &str,
        action: &StoredAction,
        finished: bool,
        due_ms: Option<i64>,
    ) -> anyhow::Result<()> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO rumi_actions (table_id, version, actor, action, at_ms) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(table_id)
        .bind(action.version as i64)
        .bind(action.actor.map_or(-1, |a| a as i64))
        .bind(&action.action)
        .bind(action.at_ms)
        .execute(&mut *tx)
        .await?;
        sqlx::query("UPDATE rumi_tables SET finished = $1, due_ms = $2 WHERE id = $3")
            .bind(i64::from(finished))
            .bind(due_ms)
            .bind(table_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Notes when the server must next act at a table (`None`: nothing to do).
    pub async fn set_due(&self, table_id: &str, due_ms: Option<i64>) -> anyhow::Result<()> {
        sqlx::query("UPDATE rumi_tables SET due_ms = $1 WHERE id = $2")
            .bind(due_ms)
            .bind(table_id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Marks the game begun: every human seat is taken.
    pub async fn set_started(&self, table_id: &str, started_ms: i64) -> anyhow::Result<()> {
        sqlx::query("UPDATE rumi_tables SET started_ms = $1 WHERE id = $2")
            .bind(started_ms)
            .bind(table_id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Unfinished tables whose server-side action is due, soonest first.
    pub async fn due_tables(&self) -> anyhow::Result<Vec<(String, i64)>> {
        let rows = sqlx::query(
            "SELECT id, due_ms FROM rumi_tables WHERE finished = 0 AND due_ms IS NOT NULL ORDER BY due_ms",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get::<String, _>("id")?,
                    r.try_get::<i64, _>("due_ms")?,
                ))
            })
            .collect()
    }

    /// Unfinished tables whose server-side action is due by `until_ms`, soonest first.
    pub async fn due_before(&self, until_ms: i64) -> anyhow::Result<Vec<(String, i64)>> {
        let rows = sqlx::query(
            "SELECT id, due_ms FROM rumi_tables WHERE finished = 0 AND due_ms IS NOT NULL AND due_ms <= $1 ORDER BY due_ms LIMIT 5000",
        )
        .bind(until_ms)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get::<String, _>("id")?,
                    r.try_get::<i64, _>("due_ms")?,
                ))
            })
            .collect()
    }

    /// How many unfinished tables an address has created.
    pub async fn open_tables_of(&self, creator: &str) -> anyhow::Result<u64> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM rumi_tables WHERE creator = $1 AND finished = 0",
        )
        .bind(creator)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get::<i64, _>("n")? as u64)
    }

    /// Unfinished tables with a seat open to anyone (the lobby), newest first, with
    /// their seats (not their actions), in one query.
    pub async fn lobby(&self, limit: i64) -> anyhow::Result<Vec<StoredTable>> {
        let rows = sqlx::query(
            "SELECT t.id, t.config, t.seed, t.salt, t.practice, t.created_ms, t.started_ms, t.creator, t.finished,
                    s.seat, s.name, s.bot, s.token, s.claimed, s.open, s.invite, s.joiner
             FROM (SELECT * FROM rumi_tables t WHERE t.finished = 0 AND EXISTS
                     (SELECT 1 FROM rumi_seats s WHERE s.table_id = t.id AND s.open = 1 AND s.claimed = 0 AND s.bot IS NULL)
                   ORDER BY t.created_ms DESC LIMIT $1) t
             JOIN rumi_seats s ON s.table_id = t.id
             ORDER BY t.created_ms DESC, t.id, s.seat",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let mut tables: Vec<StoredTable> = Vec::new();
        for row in &rows {
            let id: String = row.try_get("id")?;
            if tables.last().is_none_or(|t| t.id != id) {
                tables.push(table_of_row(row, Vec::new(), Vec::new())?);
            }
            let table = tables.last_mut().expect("just pushed");
            table.seats.push(seat_of_row(row)?);
        }
        Ok(tables)
    }

    /// Changes who plays a seat, its name, or whether it is taken.
    pub async fn update_seat(&self, table_id: &str, seat: &StoredSeat) -> anyhow::Result<()> {
        sqlx::query("UPDATE rumi_seats SET name = $1, bot = $2, claimed = $3, token = $4 WHERE table_id = $5 AND seat = $6")
            .bind(&seat.name)
            .bind(seat.bot.clone())
            .bind(i64::from(seat.claimed))
            .bind(&seat.token)
            .bind(table_id)
            .bind(seat.seat as i64)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Takes an open seat nobody has taken yet for `seat.joiner`: false when someone
    /// (on another node) took it first.
    pub async fn take_seat(&self, table_id: &str, seat: &StoredSeat) -> anyhow::Result<bool> {
        let done = sqlx::query("UPDATE rumi_seats SET name = $1, claimed = 1, token = $2, joiner = $3 WHERE table_id = $4 AND seat = $5 AND claimed = 0 AND bot IS NULL")
            .bind(&seat.name)
            .bind(&seat.token)
            .bind(&seat.joiner)
            .bind(table_id)
            .bind(seat.seat as i64)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Takes an invited seat with its link (`seat.invite`), giving it the new token
    /// `seat.token`: false when the link was used first (here or on another node), so
    /// that of two racing uses exactly one gets the seat.
    pub async fn claim_invite(&self, table_id: &str, seat: &StoredSeat) -> anyhow::Result<bool> {
        let done = sqlx::query("UPDATE rumi_seats SET name = $1, claimed = 1, token = $2 WHERE table_id = $3 AND seat = $4 AND invite = $5 AND invite <> '' AND claimed = 0")
            .bind(&seat.name)
            .bind(&seat.token)
            .bind(table_id)
            .bind(seat.seat as i64)
            .bind(&seat.invite)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// How many open seats an address holds (joined from the lobby) at unfinished
    /// tables.
    pub async fn open_seats_of(&self, joiner: &str) -> anyhow::Result<u64> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM rumi_seats s JOIN rumi_tables t ON t.id = s.table_id WHERE s.joiner = $1 AND t.finished = 0",
        )
        .bind(joiner)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get::<i64, _>("n")? as u64)
    }

    /// Ids of the tables whose game is not over: those to resume after a restart.
    pub async fn unfinished_ids(&self) -> anyhow::Result<Vec<String>> {
        let rows = sqlx::query("SELECT id FROM rumi_tables WHERE finished = 0 ORDER BY created_ms")
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| Ok(r.try_get::<String, _>("id")?))
            .collect()
    }

    /// A table with its seats and whole action log.
    pub async fn load(&self, id: &str) -> anyhow::Result<Option<StoredTable>> {
        let Some(row) = sqlx::query(
            "SELECT id, config, seed, salt, practice, created_ms, started_ms, creator, finished FROM rumi_tables WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        let seats = self.seats(id).await?;
        let actions = sqlx::query(
            "SELECT version, actor, action, at_ms FROM rumi_actions WHERE table_id = $1 ORDER BY version",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(action_of_row)
        .collect::<Result<Vec<_>, _>>()?;
        Ok(Some(table_of_row(&row, seats, actions)?))
    }

    /// A table with its seats but without its actions (the lobby's line).
    pub async fn load_settings(&self, id: &str) -> anyhow::Result<Option<StoredTable>> {
        let Some(row) = sqlx::query(
            "SELECT id, config, seed, salt, practice, created_ms, started_ms, creator, finished FROM rumi_tables WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        let seats = self.seats(id).await?;
        Ok(Some(table_of_row(&row, seats, Vec::new())?))
    }

    async fn seats(&self, id: &str) -> anyhow::Result<Vec<StoredSeat>> {
        Ok(sqlx::query(
            "SELECT seat, name, bot, token, claimed, open, invite, joiner FROM rumi_seats WHERE table_id = $1 ORDER BY seat",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(seat_of_row)
        .collect::<Result<Vec<_>, _>>()?)
    }

    /// The actions of a table after `version`, in order (a node catching up).
    pub async fn actions_since(
        &self,
        table_id: &str,
        version: u64,
    ) -> anyhow::Result<Vec<StoredAction>> {
        Ok(sqlx::query(
            "SELECT version, actor, action, at_ms FROM rumi_actions WHERE table_id = $1 AND version > $2 ORDER BY version",
        )
        .bind(table_id)
        .bind(version as i64)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(action_of_row)
        .collect::<Result<Vec<_>, _>>()?)
    }

    /// The seats and start of a table as stored now (another node may have changed
    /// them).
    pub async fn seats_and_start(
        &self,
        table_id: &str,
    ) -> anyhow::Result<(Vec<StoredSeat>, Option<i64>)> {
        let row = sqlx::query("SELECT started_ms FROM rumi_tables WHERE id = $1")
            .bind(table_id)
            .fetch_one(&self.pool)
            .await?;
        Ok((self.seats(table_id).await?, row.try_get("started_ms")?))
    }

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

    /// Hands a person's seat to `bot` unless it is a bot's already or some node saw
    /// its player after `seen_after_ms`, or holds a connection for them and beat after
    /// `live_after_ms`: checked in the same statement as the change, so that a player
    /// who is present on another node keeps their seat.
    pub async fn hand_seat_to_bot(
        &self,
        table_id: &str,
        seat: usize,
        bot: &str,
        seen_after_ms: i64,
        live_after_ms: i64,
    ) -> anyhow::Result<bool> {
        let done = sqlx::query(
            "UPDATE rumi_seats SET bot = $1 WHERE table_id = $2 AND seat = $3 AND bot IS NULL
               AND NOT EXISTS (SELECT 1 FROM rumi_presence p
                 WHERE p.table_id = rumi_seats.table_id AND p.seat = rumi_seats.seat
                   AND (p.seen_ms > $4 OR (p.connections > 0 AND p.seen_ms > $5)))",
        )
        .bind(bot)
        .bind(table_id)
        .bind(seat as i64)
        .bind(seen_after_ms)
        .bind(live_after_ms)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Whether the database answers.
    pub async fn ping(&self) -> bool {
        sqlx::query("SELECT 1").execute(&self.pool).await.is_ok()
    }

    /// How many actions are stored for a table (for tests and the load benchmark).
    pub async fn action_count(&self, table_id: &str) -> anyhow::Result<u64> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM rumi_actions WHERE table_id = $1")
            .bind(table_id)
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get::<i64, _>("n")? as u64)
    }
}

fn table_of_row(
    row: &AnyRow,
    seats: Vec<StoredSeat>,
    actions: Vec<StoredAction>,
) -> Result<StoredTable, sqlx::Error> {
    Ok(StoredTable {
        id: row.try_get("id")?,
        config: row.try_get("config")?,
        seed: row.try_get::<i64, _>("seed")? as u64,
        salt: row.try_get("salt")?,
        practice: row.try_get::<i64, _>("practice")? != 0,
        created_ms: row.try_get("created_ms")?,
        started_ms: row.try_get("started_ms")?,
        creator: row.try_get("creator")?,
        finished: row.try_get::<i64, _>("finished")? != 0,
        seats,
        actions,
    })
}

fn seat_of_row(row: &AnyRow) -> Result<StoredSeat, sqlx::Error> {
    Ok(StoredSeat {
        seat: row.try_get::<i64, _>("seat")? as usize,
        name: row.try_get("name")?,
        bot: row.try_get("bot")?,
        token: row.try_get("token")?,
        claimed: row.try_get::<i64, _>("claimed")? != 0,
        open: row.try_get::<i64, _>("open")? != 0,
        invite: row.try_get("invite")?,
        joiner: row.try_get("joiner")?,
    })
}

fn action_of_row(row: &AnyRow) -> Result<StoredAction, sqlx::Error> {
    let actor: i64 = row.try_get("actor")?;
    Ok(StoredAction {
        version: row.try_get::<i64, _>("version")? as u64,
        actor: usize::try_from(actor).ok(),
        action: row.try_get("action")?,
        at_ms: row.try_get("at_ms")?,
    })
}
