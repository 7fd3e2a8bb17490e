//! Tables and their action log: creating, appending, loading, and the queries of
//! the lobby, the caps and the due tables.

use sqlx::Row;

use super::{
    action_of_row, seat_of_row, table_of_row, Store, StoredAction, StoredSeat, StoredTable,
};

impl Store {
    /// Stores a new table with its seats.
    /// `due_ms`: when the server must first act there (a bot or clock of a table that
    /// starts at once, or the cancellation of a rated table left waiting, RT7).
    pub async fn create_table(
        &self,
        table: &StoredTable,
        due_ms: Option<i64>,
    ) -> anyhow::Result<()> {
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
        .bind(due_ms)
        .execute(&mut *tx)
        .await?;
        for seat in &table.seats {
            sqlx::query(
                "INSERT INTO rumi_seats (table_id, seat, name, bot, token, claimed, open, invite, joiner, account_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
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
            .bind(&seat.account)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Appends one action in its own transaction; fails (and stores nothing) if that
    /// version of the table is already stored. `seat_to_bot`: a seat whose player left
    /// with this action (RD17), handed to that bot in the same transaction.
    pub async fn append_action(
        &self,
        table_id: &str,
        action: &StoredAction,
        finished: bool,
        due_ms: Option<i64>,
        seat_to_bot: Option<(usize, &str)>,
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
        if let Some((seat, bot)) = seat_to_bot {
            sqlx::query("UPDATE rumi_seats SET bot = $1 WHERE table_id = $2 AND seat = $3")
                .bind(bot)
                .bind(table_id)
                .bind(seat as i64)
                .execute(&mut *tx)
                .await?;
        }
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

    /// Unfinished tables where every seat is a bot's: of `creator`, or of everyone.
    pub async fn open_bot_tables(&self, creator: Option<&str>) -> anyhow::Result<u64> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM rumi_tables t WHERE t.finished = 0
               AND ($1 = '' OR t.creator = $1)
               AND NOT EXISTS (SELECT 1 FROM rumi_seats s WHERE s.table_id = t.id AND s.bot IS NULL)",
        )
        .bind(creator.unwrap_or(""))
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get::<i64, _>("n")? as u64)
    }

    /// Unfinished tables with a seat open to anyone (the lobby), newest first, with
    /// their seats (not their actions), in one query.
    pub async fn lobby(&self, limit: i64) -> anyhow::Result<Vec<StoredTable>> {
        let rows = sqlx::query(
            "SELECT t.id, t.config, t.seed, t.salt, t.practice, t.created_ms, t.started_ms, t.cancelled_ms, t.creator, t.finished,
                    s.seat, s.name, s.bot, s.token, s.claimed, s.open, s.invite, s.joiner,
                    s.account_id, COALESCE(a.name, '') AS account_name
             FROM (SELECT * FROM rumi_tables t WHERE t.finished = 0 AND EXISTS
                     (SELECT 1 FROM rumi_seats s WHERE s.table_id = t.id AND s.open = 1 AND s.claimed = 0 AND s.bot IS NULL)
                   ORDER BY t.created_ms DESC LIMIT $1) t
             JOIN rumi_seats s ON s.table_id = t.id
             LEFT JOIN rumi_accounts a ON a.id = s.account_id AND a.deleted_ms IS NULL
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
        let Some(mut table) = self.load_settings(id).await? else {
            return Ok(None);
        };
        table.actions = sqlx::query(
            "SELECT version, actor, action, at_ms FROM rumi_actions WHERE table_id = $1 ORDER BY version",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(action_of_row)
        .collect::<Result<Vec<_>, _>>()?;
        Ok(Some(table))
    }

    /// A table with its seats but without its actions (the lobby's line).
    pub async fn load_settings(&self, id: &str) -> anyhow::Result<Option<StoredTable>> {
        let Some(row) = sqlx::query(
            "SELECT id, config, seed, salt, practice, created_ms, started_ms, cancelled_ms, creator, finished FROM rumi_tables WHERE id = $1",
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
            "SELECT s.seat, s.name, s.bot, s.token, s.claimed, s.open, s.invite, s.joiner, s.account_id, COALESCE(a.name, '') AS account_name
             FROM rumi_seats s LEFT JOIN rumi_accounts a ON a.id = s.account_id AND a.deleted_ms IS NULL
             WHERE s.table_id = $1 ORDER BY s.seat",
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

    /// The seats, start and cancellation of a table as stored now (another node may
    /// have changed them).
    pub async fn seats_and_start(
        &self,
        table_id: &str,
    ) -> anyhow::Result<(Vec<StoredSeat>, Option<i64>, Option<i64>)> {
        let row = sqlx::query("SELECT started_ms, cancelled_ms FROM rumi_tables WHERE id = $1")
            .bind(table_id)
            .fetch_one(&self.pool)
            .await?;
        Ok((
            self.seats(table_id).await?,
            row.try_get("started_ms")?,
            row.try_get("cancelled_ms")?,
        ))
    }

    /// Cancels a rated table that still waits for a seat (RT7): false when it started,
    /// was cancelled already, or has every person's seat taken by now (another node).
    /// A seat is taken only at a table not cancelled ([`Store::take_account_seat`]).
    pub async fn cancel_table(&self, table_id: &str, at_ms: i64) -> anyhow::Result<bool> {
        let done = sqlx::query(
            "UPDATE rumi_tables SET cancelled_ms = $1, finished = 1, due_ms = NULL
             WHERE id = $2 AND started_ms IS NULL AND cancelled_ms IS NULL AND finished = 0
               AND EXISTS (SELECT 1 FROM rumi_seats s WHERE s.table_id = $2 AND s.claimed = 0 AND s.bot IS NULL)",
        )
        .bind(at_ms)
        .bind(table_id)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
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
