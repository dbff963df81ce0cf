//! Shops: create, approve, link a key of the shop's account.

use super::{AccountError, Result, account_exists, bump_access_revision, new_id, now};
use crate::db::Db;

/// Create a shop owned by `account`; unapproved shops are under review. Returns its id.
pub async fn create_shop(db: &Db, account: &str, name: &str, approved: bool) -> Result<String> {
    let name = name.trim();
    if name.is_empty() {
        return Err(AccountError::EmptyShopName);
    }
    let mut tx = db.begin_write().await?;
    account_exists(&mut tx, account).await?;
    let id = new_id("shop_");
    let now = now();
    sqlx::query(
        "INSERT INTO shops (id, account_id, name, approved, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(&id)
    .bind(account)
    .bind(name)
    .bind(i64::from(approved))
    .bind(&now)
    .bind(&now)
    .execute(&mut *tx)
    .await?;
    bump_access_revision(&mut tx).await?;
    tx.commit().await?;
    Ok(id)
}

pub async fn approve_shop(db: &Db, shop_id: &str) -> Result<()> {
    let mut tx = db.begin_write().await?;
    let changed = sqlx::query("UPDATE shops SET approved = 1, updated_at = $1 WHERE id = $2")
        .bind(now())
        .bind(shop_id)
        .execute(&mut *tx)
        .await?;
    if changed.rows_affected() == 0 {
        return Err(AccountError::UnknownShop(shop_id.to_owned()));
    }
    bump_access_revision(&mut tx).await?;
    tx.commit().await?;
    Ok(())
}

/// Link a key to a shop. The key must belong to the account that owns the shop; linking twice
/// is harmless.
pub async fn add_shop_key(db: &Db, shop_id: &str, key_id: &str) -> Result<()> {
    let mut tx = db.begin_write().await?;
    let shop: Option<(String,)> = sqlx::query_as("SELECT account_id FROM shops WHERE id = $1")
        .bind(shop_id)
        .fetch_optional(&mut *tx)
        .await?;
    let (shop_account,) = shop.ok_or_else(|| AccountError::UnknownShop(shop_id.to_owned()))?;
    let key: Option<(Option<String>,)> = sqlx::query_as("SELECT account_id FROM api_keys WHERE id = $1")
        .bind(key_id)
        .fetch_optional(&mut *tx)
        .await?;
    let (key_account,) = key.ok_or_else(|| AccountError::UnknownKey(key_id.to_owned()))?;
    if key_account.as_deref() != Some(shop_account.as_str()) {
        return Err(AccountError::KeyNotOfShopAccount { key: key_id.to_owned(), shop: shop_id.to_owned() });
    }
    sqlx::query(
        "INSERT INTO shop_keys (shop_id, key_id) VALUES ($1, $2) ON CONFLICT (shop_id, key_id) DO NOTHING",
    )
    .bind(shop_id)
    .bind(key_id)
    .execute(&mut *tx)
    .await?;
    bump_access_revision(&mut tx).await?;
    tx.commit().await?;
    Ok(())
}
