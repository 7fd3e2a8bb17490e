//! Accounts and their sessions. A name is unique by its folded key and by its
//! confusable skeleton, each a UNIQUE column, so two nodes cannot both give it away.

use sqlx::any::AnyRow;
use sqlx::Row;

use super::Store;

/// An account as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAccount {
    pub id: String,
    pub name: String,
    /// `None` once deleted.
    pub password_hash: Option<String>,
    pub created_ms: i64,
}

/// A new account: its name, the name's key and skeleton, and the password's hash.
pub struct NewAccount<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub name_key: &'a str,
    pub skeleton: &'a str,
    pub password_hash: &'a str,
    pub created_ms: i64,
}

/// Why a name cannot be had.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameClash {
    /// Another account has this name (folded).
    Taken,
    /// Another account's name looks like it.
    LooksLike,
}

fn account_of_row(row: &AnyRow) -> Result<StoredAccount, sqlx::Error> {
    Ok(StoredAccount {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        password_hash: row.try_get("password_hash")?,
        created_ms: row.try_get("created_ms")?,
    })
}

impl Store {
    /// Creates an account, or says whose name is in the way.
    pub async fn create_account(
        &self,
        account: &NewAccount<'_>,
    ) -> anyhow::Result<Result<(), NameClash>> {
        let done = sqlx::query(
            "INSERT INTO rumi_accounts (id, name, name_key, skeleton, password_hash, created_ms) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(account.id)
        .bind(account.name)
        .bind(account.name_key)
        .bind(account.skeleton)
        .bind(account.password_hash)
        .bind(account.created_ms)
        .execute(&self.pool)
        .await;
        match done {
            Ok(_) => Ok(Ok(())),
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                let taken = sqlx::query("SELECT 1 FROM rumi_accounts WHERE name_key = $1")
                    .bind(account.name_key)
                    .fetch_optional(&self.pool)
                    .await?
                    .is_some();
                Ok(Err(if taken {
                    NameClash::Taken
                } else {
                    NameClash::LooksLike
                }))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// The live account whose folded name is `name_key`.
    pub async fn account_by_key(&self, name_key: &str) -> anyhow::Result<Option<StoredAccount>> {
        let row = sqlx::query(
            "SELECT id, name, password_hash, created_ms FROM rumi_accounts WHERE name_key = $1 AND deleted_ms IS NULL",
        )
        .bind(name_key)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(account_of_row).transpose()?)
    }

    /// The live account of an id.
    pub async fn account_by_id(&self, id: &str) -> anyhow::Result<Option<StoredAccount>> {
        let row = sqlx::query(
            "SELECT id, name, password_hash, created_ms FROM rumi_accounts WHERE id = $1 AND deleted_ms IS NULL",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(account_of_row).transpose()?)
    }

    /// A new password hash; ends every session but `keep` (the one that changed it,
    /// which has just proved the password), and with `remove_passkeys` every passkey.
    pub async fn set_password(
        &self,
        account_id: &str,
        password_hash: &str,
        keep: &str,
        remove_passkeys: bool,
        now_ms: i64,
    ) -> anyhow::Result<()> {
        let mut tx = self.pool.begin().await?;
        if remove_passkeys {
            sqlx::query("DELETE FROM rumi_passkeys WHERE account_id = $1")
                .bind(account_id)
                .execute(&mut *tx)
                .await?;
        }
        sqlx::query("UPDATE rumi_sessions SET reauth_ms = $1 WHERE id_hash = $2")
            .bind(now_ms)
            .bind(keep)
            .execute(&mut *tx)
            .await?;
        sqlx::query("UPDATE rumi_accounts SET password_hash = $1 WHERE id = $2")
            .bind(password_hash)
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM rumi_sessions WHERE account_id = $1 AND id_hash <> $2")
            .bind(account_id)
            .bind(keep)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Deletes an account: its name becomes "deleted player" and is free again, its
    /// password, sessions and solo cube times go; the games it played stay.
    pub async fn delete_account(&self, account_id: &str, now_ms: i64) -> anyhow::Result<()> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE rumi_accounts SET name = 'deleted player', name_key = id, skeleton = id, password_hash = NULL, deleted_ms = $1 WHERE id = $2")
            .bind(now_ms)
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM rumi_passkeys WHERE account_id = $1")
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
        // Its solo cube times go with it, and its blocks both ways.
        for table in [
            "DELETE FROM rumi_solo_bests WHERE account_id = $1",
            "DELETE FROM rumi_solo_attempts WHERE account_id = $1",
            "DELETE FROM rumi_blocks WHERE account_id = $1 OR blocked_id = $1",
        ] {
            sqlx::query(table)
                .bind(account_id)
                .execute(&mut *tx)
                .await?;
        }
        // Its games stay, under this name.
        sqlx::query("UPDATE rumi_seats SET name = 'deleted player' WHERE account_id = $1")
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM rumi_sessions WHERE account_id = $1")
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM rumi_devices WHERE account_id = $1")
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The tables where an account has (or had) a seat, newest first, at most `limit`.
    pub async fn tables_of_account(
        &self,
        account_id: &str,
        limit: i64,
    ) -> anyhow::Result<Vec<String>> {
        let rows = sqlx::query("SELECT s.table_id FROM rumi_seats s JOIN rumi_tables t ON t.id = s.table_id WHERE s.account_id = $1 ORDER BY t.created_ms DESC LIMIT $2")
            .bind(account_id)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| r.try_get("table_id").map_err(Into::into))
            .collect()
    }

    /// Stores a session (by the hash of its id); signing in proves the password, so
    /// it starts re-authenticated.
    pub async fn create_session(
        &self,
        id_hash: &str,
        account_id: &str,
        created_ms: i64,
        expires_ms: i64,
    ) -> anyhow::Result<()> {
        sqlx::query("INSERT INTO rumi_sessions (id_hash, account_id, created_ms, expires_ms, reauth_ms) VALUES ($1, $2, $3, $4, $3)")
            .bind(id_hash)
            .bind(account_id)
            .bind(created_ms)
            .bind(expires_ms)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The live account of a session that has not expired, and when the session
    /// last proved the password (0: never, a session of an older release).
    pub async fn session_account(
        &self,
        id_hash: &str,
        now_ms: i64,
    ) -> anyhow::Result<Option<(StoredAccount, i64)>> {
        let row = sqlx::query(
            "SELECT a.id, a.name, a.password_hash, a.created_ms, s.reauth_ms FROM rumi_sessions s JOIN rumi_accounts a ON a.id = s.account_id WHERE s.id_hash = $1 AND s.expires_ms > $2 AND a.deleted_ms IS NULL",
        )
        .bind(id_hash)
        .bind(now_ms)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref()
            .map(|row| {
                let reauth: Option<i64> = row.try_get("reauth_ms")?;
                Ok((account_of_row(row)?, reauth.unwrap_or(0)))
            })
            .transpose()
    }

    /// The session proved the password (or a passkey) again.
    pub async fn set_reauth(&self, id_hash: &str, now_ms: i64) -> anyhow::Result<()> {
        sqlx::query("UPDATE rumi_sessions SET reauth_ms = $1 WHERE id_hash = $2")
            .bind(now_ms)
            .bind(id_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Browsers an account keeps as known: the most recently used.
    const KNOWN_DEVICES: i64 = 20;

    /// Remembers that the browser of a device cookie signed in to the account (the
    /// oldest beyond [`Self::KNOWN_DEVICES`] are forgotten).
    pub async fn remember_device(
        &self,
        id_hash: &str,
        account_id: &str,
        now_ms: i64,
    ) -> anyhow::Result<()> {
        sqlx::query("INSERT INTO rumi_devices (id_hash, account_id, used_ms) VALUES ($1, $2, $3) ON CONFLICT (id_hash, account_id) DO UPDATE SET used_ms = excluded.used_ms")
            .bind(id_hash)
            .bind(account_id)
            .bind(now_ms)
            .execute(&self.pool)
            .await?;
        sqlx::query("DELETE FROM rumi_devices WHERE account_id = $1 AND id_hash NOT IN (SELECT id_hash FROM rumi_devices WHERE account_id = $1 ORDER BY used_ms DESC LIMIT $2)")
            .bind(account_id)
            .bind(Self::KNOWN_DEVICES)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Whether the browser of a device cookie has signed in to the account before.
    pub async fn is_known_device(&self, id_hash: &str, account_id: &str) -> anyhow::Result<bool> {
        let row = sqlx::query("SELECT 1 FROM rumi_devices WHERE id_hash = $1 AND account_id = $2")
            .bind(id_hash)
            .bind(account_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.is_some())
    }

    /// Takes one try of `key` from a limit every node shares (GCRA: one try every
    /// `interval_ms`, `burst` at once), in one statement; or says how many ms until
    /// there is one. Rows whose time has passed (a full allowance) go now and then.
    pub async fn take_shared_try(
        &self,
        key: &str,
        now_ms: i64,
        interval_ms: i64,
        burst: i64,
    ) -> anyhow::Result<Result<(), i64>> {
        let window = interval_ms * burst;
        let taken = sqlx::query(
            "INSERT INTO rumi_sign_in_limits (limit_key, tat_ms) VALUES ($1, $2 + $3) \
             ON CONFLICT (limit_key) DO UPDATE SET tat_ms = GREATEST(rumi_sign_in_limits.tat_ms, $2) + $3 \
             WHERE GREATEST(rumi_sign_in_limits.tat_ms, $2) + $3 - $2 <= $4 RETURNING tat_ms",
        )
        .bind(key)
        .bind(now_ms)
        .bind(interval_ms)
        .bind(window)
        .fetch_optional(&self.pool)
        .await?;
        if taken.is_some() {
            if rand::random::<u8>() == 0 {
                sqlx::query("DELETE FROM rumi_sign_in_limits WHERE tat_ms < $1")
                    .bind(now_ms)
                    .execute(&self.pool)
                    .await?;
            }
            return Ok(Ok(()));
        }
        let row = sqlx::query("SELECT tat_ms FROM rumi_sign_in_limits WHERE limit_key = $1")
            .bind(key)
            .fetch_optional(&self.pool)
            .await?;
        let tat: i64 = match row {
            Some(row) => row.try_get("tat_ms")?,
            None => now_ms,
        };
        Ok(Err((tat.max(now_ms) + interval_ms - now_ms - window).max(1)))
    }

    /// Ends one session.
    pub async fn delete_session(&self, id_hash: &str) -> anyhow::Result<()> {
        sqlx::query("DELETE FROM rumi_sessions WHERE id_hash = $1")
            .bind(id_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Ends every session of an account ("sign out everywhere").
    pub async fn delete_sessions_of(&self, account_id: &str) -> anyhow::Result<u64> {
        let done = sqlx::query("DELETE FROM rumi_sessions WHERE account_id = $1")
            .bind(account_id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    /// The sessions of an account: (created, expires), newest first.
    pub async fn sessions_of(&self, account_id: &str) -> anyhow::Result<Vec<(i64, i64)>> {
        let rows = sqlx::query("SELECT created_ms, expires_ms FROM rumi_sessions WHERE account_id = $1 ORDER BY created_ms DESC")
            .bind(account_id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("created_ms")?, r.try_get("expires_ms")?)))
            .collect()
    }
}
