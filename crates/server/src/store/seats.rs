//! Who sits where: seat changes, each checked in the statement that makes it when
//! another node may race it.

use sqlx::Row;

use super::{Store, StoredSeat};

impl Store {
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
        let done = sqlx::query("UPDATE rumi_seats SET name = $1, claimed = 1, token = $2, joiner = $3, account_id = $4 WHERE table_id = $5 AND seat = $6 AND claimed = 0 AND bot IS NULL AND NOT EXISTS (SELECT 1 FROM rumi_tables t WHERE t.id = $5 AND t.cancelled_ms IS NOT NULL)")
            .bind(&seat.name)
            .bind(&seat.token)
            .bind(&seat.joiner)
            .bind(&seat.account)
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
        let done = sqlx::query("UPDATE rumi_seats SET name = $1, claimed = 1, token = $2, account_id = $3 WHERE table_id = $4 AND seat = $5 AND invite = $6 AND invite <> '' AND claimed = 0")
            .bind(&seat.name)
            .bind(&seat.token)
            .bind(&seat.account)
            .bind(table_id)
            .bind(seat.seat as i64)
            .bind(&seat.invite)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Takes a seat kept for an account (created for it by name) for that account,
    /// with a new token: false when it was taken first (another of its devices, on
    /// another node) or the table was cancelled meanwhile (RT7).
    pub async fn take_account_seat(
        &self,
        table_id: &str,
        seat: &StoredSeat,
    ) -> anyhow::Result<bool> {
        let done = sqlx::query("UPDATE rumi_seats SET claimed = 1, token = $1 WHERE table_id = $2 AND seat = $3 AND account_id = $4 AND claimed = 0 AND NOT EXISTS (SELECT 1 FROM rumi_tables t WHERE t.id = $2 AND t.cancelled_ms IS NOT NULL)")
            .bind(&seat.token)
            .bind(table_id)
            .bind(seat.seat as i64)
            .bind(&seat.account)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Opens a seat kept for `account` to anyone (its player declined), under `name`:
    /// false when the account took it meanwhile.
    pub async fn release_account_seat(
        &self,
        table_id: &str,
        seat: usize,
        account: &str,
        name: &str,
    ) -> anyhow::Result<bool> {
        let done = sqlx::query("UPDATE rumi_seats SET account_id = '', open = 1, name = $1 WHERE table_id = $2 AND seat = $3 AND account_id = $4 AND claimed = 0")
            .bind(name)
            .bind(table_id)
            .bind(seat as i64)
            .bind(account)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The seats kept for an account at unfinished tables (challenges), and its seats
    /// at tables cancelled since `cancelled_since` (RT7), newest first:
    /// `(table, seat, config, created_ms)`.
    pub async fn kept_seats_of(
        &self,
        account: &str,
        limit: u32,
        cancelled_since: i64,
    ) -> anyhow::Result<Vec<(String, usize, String, i64)>> {
        let rows = sqlx::query("SELECT s.table_id, s.seat, t.config, t.created_ms FROM rumi_seats s JOIN rumi_tables t ON t.id = s.table_id WHERE s.account_id = $1 AND ((s.claimed = 0 AND t.finished = 0) OR t.cancelled_ms >= $3) ORDER BY t.created_ms DESC, s.table_id LIMIT $2")
            .bind(account)
            .bind(i64::from(limit))
            .bind(cancelled_since)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|row| {
                Ok((
                    row.try_get("table_id")?,
                    row.try_get::<i64, _>("seat")? as usize,
                    row.try_get("config")?,
                    row.try_get("created_ms")?,
                ))
            })
            .collect()
    }

    /// Gives a guest's seat to an account (one who signs up keeps this browser's
    /// seats): false when it belongs to an account already.
    pub async fn adopt_seat(
        &self,
        table_id: &str,
        seat: usize,
        account: &str,
    ) -> anyhow::Result<bool> {
        let done = sqlx::query("UPDATE rumi_seats SET account_id = $1 WHERE table_id = $2 AND seat = $3 AND account_id = ''")
            .bind(account)
            .bind(table_id)
            .bind(seat as i64)
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
}
