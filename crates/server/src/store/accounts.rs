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

    /// A new password hash; ends every session but `keep` (the one that changed it).
    pub async fn set_password(
        &self,
        account_id: &str,
        password_hash: &str,
        keep: &str,
    ) -> anyhow::Result<()> {
        let mut tx = self.pool.begin().await?;
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
        // Its solo cube times go with it.
        sqlx::query("DELETE FROM rumi_solo_bests WHERE account_id = $1")
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
        // Its games stay, under this name.
        sqlx::query("UPDATE rumi_seats SET name = 'deleted player' WHERE account_id = $1")
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM rumi_sessions WHERE account_id = $1")
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Stores a session (by the hash of its id).
    pub async fn create_session(
        &self,
        id_hash: &str,
        account_id: &str,
        created_ms: i64,
        expires_ms: i64,
    ) -> anyhow::Result<()> {
        sqlx::query("INSERT INTO rumi_sessions (id_hash, account_id, created_ms, expires_ms) VALUES ($1, $2, $3, $4)")
            .bind(id_hash)
            .bind(account_id)
            .bind(created_ms)
            .bind(expires_ms)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The live account of a session that has not expired.
    pub async fn session_account(
        &self,
        id_hash: &str,
        now_ms: i64,
    ) -> anyhow::Result<Option<StoredAccount>> {
        let row = sqlx::query(
            "SELECT a.id, a.name, a.password_hash, a.created_ms FROM rumi_sessions s JOIN rumi_accounts a ON a.id = s.account_id WHERE s.id_hash = $1 AND s.expires_ms > $2 AND a.deleted_ms IS NULL",
        )
        .bind(id_hash)
        .bind(now_ms)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(account_of_row).transpose()?)
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
