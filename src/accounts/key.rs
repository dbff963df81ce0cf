//! API keys: create (the secret is returned once), list, disable, enable, revoke.

use sqlx::AnyConnection;
use time::Date;

use super::{AccountError, Result, account_exists, bump_access_revision, new_id, now, start_of_day};
use crate::access::keys::{display_prefix, generate_secret, hash_secret};
use crate::db::Db;

/// A key's state. A revoked key stays revoked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyStatus {
    Active,
    Disabled,
    Revoked,
}

impl KeyStatus {
    /// The stored form.
    pub fn id(self) -> &'static str {
        match self {
            KeyStatus::Active => "active",
            KeyStatus::Disabled => "disabled",
            KeyStatus::Revoked => "revoked",
        }
    }

    pub fn parse(text: &str) -> Option<KeyStatus> {
        [KeyStatus::Active, KeyStatus::Disabled, KeyStatus::Revoked].into_iter().find(|s| s.id() == text)
    }
}

/// One key as `list_keys` returns it: never the secret or its hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyRow {
    pub id: String,
    pub account_id: Option<String>,
    /// The first characters of the secret, enough to tell keys apart.
    pub prefix: String,
    pub name: Option<String>,
    /// `active`, `disabled` or `revoked`.
    pub status: String,
    /// `YYYY-MM-DD 00:00:00`: the key stops working from that moment (UTC).
    pub expires_at: Option<String>,
    pub created_at: String,
}

/// Create an active key, owned by `account` or by no account. Returns `(key id, secret)`; the
/// secret is not stored and cannot be shown again.
pub async fn create_key(
    db: &Db,
    account: Option<&str>,
    name: Option<&str>,
    expires_at: Option<Date>,
) -> Result<(String, String)> {
    let mut tx = db.begin_write().await?;
    let created = insert_key(&mut tx, account, name, expires_at).await?;
    bump_access_revision(&mut tx).await?;
    tx.commit().await?;
    Ok(created)
}

pub(super) async fn insert_key(
    conn: &mut AnyConnection,
    account: Option<&str>,
    name: Option<&str>,
    expires_at: Option<Date>,
) -> Result<(String, String)> {
    if let Some(account) = account {
        account_exists(conn, account).await?;
    }
    let name = name.map(str::trim).filter(|name| !name.is_empty());
    let id = new_id("key_");
    let secret = generate_secret();
    let now = now();
    sqlx::query(
        "INSERT INTO api_keys (id, account_id, key_hash, prefix, name, status, expires_at, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(&id)
    .bind(account)
    .bind(hash_secret(&secret))
    .bind(display_prefix(&secret))
    .bind(name)
    .bind(KeyStatus::Active.id())
    .bind(expires_at.map(start_of_day))
    .bind(&now)
    .bind(&now)
    .execute(&mut *conn)
    .await?;
    Ok((id, secret))
}

/// The keys of `account` (None: the keys no account owns), oldest first.
pub async fn list_keys(db: &Db, account: Option<&str>) -> Result<Vec<KeyRow>> {
    type Row = (String, Option<String>, String, Option<String>, String, Option<String>, String);
    let rows: Vec<Row> = match account {
        Some(account) => {
            let mut conn = db.pool().acquire().await?;
            account_exists(&mut conn, account).await?;
            sqlx::query_as(
                "SELECT id, account_id, prefix, name, status, expires_at, created_at FROM api_keys \
                 WHERE account_id = $1 ORDER BY created_at, id",
            )
            .bind(account)
            .fetch_all(&mut *conn)
            .await?
        }
        None => {
            sqlx::query_as(
                "SELECT id, account_id, prefix, name, status, expires_at, created_at FROM api_keys \
                 WHERE account_id IS NULL ORDER BY created_at, id",
            )
            .fetch_all(db.pool())
            .await?
        }
    };
    Ok(rows
        .into_iter()
        .map(|(id, account_id, prefix, name, status, expires_at, created_at)| KeyRow {
            id,
            account_id,
            prefix,
            name,
            status,
            expires_at,
            created_at,
        })
        .collect())
}

/// Disable (`Disabled`), enable (`Active`) or revoke (`Revoked`) a key. Revoking is final: a
/// revoked key can be neither enabled nor disabled.
pub async fn set_key_status(db: &Db, key_id: &str, status: KeyStatus) -> Result<()> {
    let mut tx = db.begin_write().await?;
    // A revoked key is left as it is, so two operators racing cannot bring it back.
    let changed =
        sqlx::query("UPDATE api_keys SET status = $1, updated_at = $2 WHERE id = $3 AND status <> 'revoked'")
            .bind(status.id())
            .bind(now())
            .bind(key_id)
            .execute(&mut *tx)
            .await?;
    if changed.rows_affected() == 0 {
        let current: Option<(String,)> = sqlx::query_as("SELECT status FROM api_keys WHERE id = $1")
            .bind(key_id)
            .fetch_optional(&mut *tx)
            .await?;
        return match current {
            None => Err(AccountError::UnknownKey(key_id.to_owned())),
            Some(_) if status == KeyStatus::Revoked => Ok(()),
            Some(_) => Err(AccountError::KeyRevoked(key_id.to_owned())),
        };
    }
    bump_access_revision(&mut tx).await?;
    tx.commit().await?;
    Ok(())
}
