//! Shared collections (operations 103 and 130): a named list of firearms published under a share
//! id of 128 random bits, readable by anyone who holds the id; the owner is shown by display name.

use rand::RngExt;

use super::{AccountError, Result};
use crate::db::Db;

/// A stored collection, with its owner's display name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Collection {
    pub share_id: String,
    pub name: String,
    pub firearm_ids: Vec<String>,
    pub owner_display_name: Option<String>,
    pub created_at: String,
}

/// A share id nobody can guess: 128 random bits, hex.
fn new_share_id() -> String {
    let bytes: [u8; 16] = rand::rng().random();
    hex::encode(bytes)
}

pub async fn create(
    db: &Db,
    account_id: &str,
    name: &str,
    firearm_ids: &[String],
) -> sqlx::Result<Collection> {
    let share_id = new_share_id();
    let created_at = crate::clock::sql_now();
    sqlx::query(
        "INSERT INTO collections (share_id, account_id, name, firearm_ids, created_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(&share_id)
    .bind(account_id)
    .bind(name)
    .bind(serde_json::json!(firearm_ids).to_string())
    .bind(&created_at)
    .execute(db.pool())
    .await?;
    Ok(find(db, &share_id).await?.expect("the collection was just written"))
}

pub async fn find(db: &Db, share_id: &str) -> sqlx::Result<Option<Collection>> {
    let row: Option<(String, String, String, Option<String>, String)> = sqlx::query_as(
        "SELECT c.share_id, c.name, c.firearm_ids, a.display_name, c.created_at \
         FROM collections c JOIN accounts a ON a.id = c.account_id WHERE c.share_id = $1",
    )
    .bind(share_id)
    .fetch_optional(db.pool())
    .await?;
    Ok(row.map(|(share_id, name, ids, owner_display_name, created_at)| Collection {
        share_id,
        name,
        firearm_ids: serde_json::from_str(&ids).unwrap_or_default(),
        owner_display_name,
        created_at,
    }))
}

/// The share id of the newest shared collection, if there is one (the self-check's sample).
pub async fn newest_share_id(db: &Db) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar("SELECT share_id FROM collections ORDER BY created_at DESC, share_id LIMIT 1")
        .fetch_optional(db.pool())
        .await
}

/// Delete a collection (the owner asks the operator: the API has no delete operation).
pub async fn delete(db: &Db, share_id: &str) -> Result<()> {
    let done =
        sqlx::query("DELETE FROM collections WHERE share_id = $1").bind(share_id).execute(db.pool()).await?;
    if done.rows_affected() == 0 {
        return Err(AccountError::UnknownCollection(share_id.to_owned()));
    }
    Ok(())
}

/// The name shown as the owner of the account's collections (1 to 60 characters).
pub async fn set_display_name(db: &Db, account_id: &str, display_name: &str) -> Result<()> {
    let display_name = display_name.trim();
    if !(1..=60).contains(&display_name.chars().count()) {
        return Err(AccountError::InvalidDisplayName);
    }
    let done = sqlx::query("UPDATE accounts SET display_name = $1, updated_at = $2 WHERE id = $3")
        .bind(display_name)
        .bind(crate::clock::sql_now())
        .bind(account_id)
        .execute(db.pool())
        .await?;
    if done.rows_affected() == 0 {
        return Err(AccountError::UnknownAccount(account_id.to_owned()));
    }
    Ok(())
}
