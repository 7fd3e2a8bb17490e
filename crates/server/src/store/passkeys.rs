//! Passkeys and their ceremonies. A ceremony's state lives here between its start and
//! its finish, so that any node may take either, and is taken once.

use sqlx::Row;

use super::Store;

/// A stored passkey: its credential id (base64url), name and webauthn-rs JSON.
#[derive(Clone, Debug)]
pub struct StoredPasskey {
    pub id: String,
    pub account_id: String,
    pub name: String,
    pub passkey: String,
    pub created_ms: i64,
    pub used_ms: Option<i64>,
}

/// A ceremony taken back at its finish.
pub struct Ceremony {
    pub account_id: String,
    pub state: String,
    pub expires_ms: i64,
}

impl Store {
    pub async fn add_passkey(&self, passkey: &StoredPasskey) -> anyhow::Result<bool> {
        let done = sqlx::query("INSERT INTO rumi_passkeys (id, account_id, name, passkey, created_ms) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING")
            .bind(&passkey.id)
            .bind(&passkey.account_id)
            .bind(&passkey.name)
            .bind(&passkey.passkey)
            .bind(passkey.created_ms)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    pub async fn passkeys_of(&self, account_id: &str) -> anyhow::Result<Vec<StoredPasskey>> {
        let rows = sqlx::query("SELECT id, account_id, name, passkey, created_ms, used_ms FROM rumi_passkeys WHERE account_id = $1 ORDER BY created_ms, id")
            .bind(account_id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|row| {
                Ok(StoredPasskey {
                    id: row.try_get("id")?,
                    account_id: row.try_get("account_id")?,
                    name: row.try_get("name")?,
                    passkey: row.try_get("passkey")?,
                    created_ms: row.try_get("created_ms")?,
                    used_ms: row.try_get("used_ms")?,
                })
            })
            .collect()
    }

    /// The passkey after a sign-in (its counter moved) and when it was used.
    pub async fn update_passkey(
        &self,
        id: &str,
        passkey: &str,
        used_ms: i64,
    ) -> anyhow::Result<()> {
        sqlx::query("UPDATE rumi_passkeys SET passkey = $1, used_ms = $2 WHERE id = $3")
            .bind(passkey)
            .bind(used_ms)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Removes one of an account's passkeys: false if it has none of that id.
    pub async fn remove_passkey(&self, account_id: &str, id: &str) -> anyhow::Result<bool> {
        let done = sqlx::query("DELETE FROM rumi_passkeys WHERE account_id = $1 AND id = $2")
            .bind(account_id)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    pub async fn put_ceremony(
        &self,
        id: &str,
        kind: &str,
        account_id: &str,
        state: &str,
        expires_ms: i64,
    ) -> anyhow::Result<()> {
        // Expired ceremonies go as new ones come.
        sqlx::query("DELETE FROM rumi_ceremonies WHERE expires_ms < $1")
            .bind(expires_ms - 3_600_000)
            .execute(&self.pool)
            .await?;
        sqlx::query("INSERT INTO rumi_ceremonies (id, kind, account_id, state, expires_ms) VALUES ($1, $2, $3, $4, $5)")
            .bind(id)
            .bind(kind)
            .bind(account_id)
            .bind(state)
            .bind(expires_ms)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Takes a ceremony of `kind` (it is gone afterwards), if there is one.
    pub async fn take_ceremony(&self, id: &str, kind: &str) -> anyhow::Result<Option<Ceremony>> {
        let row = sqlx::query("DELETE FROM rumi_ceremonies WHERE id = $1 AND kind = $2 RETURNING account_id, state, expires_ms")
            .bind(id)
            .bind(kind)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|row| {
            Ok(Ceremony {
                account_id: row.try_get("account_id")?,
                state: row.try_get("state")?,
                expires_ms: row.try_get("expires_ms")?,
            })
        })
        .transpose()
    }
}
