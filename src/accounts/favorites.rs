//! Favorites (operations 99 to 102): the firearms an account marked, stored per account.

use crate::db::Db;

/// An account holds at most this many favorites; the next is 403 LIMIT_REACHED.
pub const MAX_FAVORITES: i64 = 1_000;

/// What adding a favorite did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Added {
    /// It is a favorite now.
    New,
    /// It already was one; nothing changed.
    Already,
    /// The account holds `MAX_FAVORITES` already.
    LimitReached,
}

/// Mark `firearm_id`, idempotently; the count and the insert are one transaction holding the
/// account's row, so concurrent adds cannot pass the limit together.
pub async fn add(db: &Db, account_id: &str, firearm_id: &str) -> sqlx::Result<Added> {
    let mut tx = db.begin_write().await?;
    crate::db::lock_account(&mut tx, account_id).await?;
    let existing: Option<(i64,)> =
        sqlx::query_as("SELECT added_at FROM favorites WHERE account_id = $1 AND firearm_id = $2")
            .bind(account_id)
            .bind(firearm_id)
            .fetch_optional(&mut *tx)
            .await?;
    if existing.is_some() {
        return Ok(Added::Already);
    }
    let (held,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM favorites WHERE account_id = $1")
        .bind(account_id)
        .fetch_one(&mut *tx)
        .await?;
    if held >= MAX_FAVORITES {
        return Ok(Added::LimitReached);
    }
    sqlx::query("INSERT INTO favorites (account_id, firearm_id, added_at) VALUES ($1, $2, $3)")
        .bind(account_id)
        .bind(firearm_id)
        .bind(crate::clock::unix_millis_now())
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(Added::New)
}

/// Unmark `firearm_id`; false when it was not a favorite.
pub async fn remove(db: &Db, account_id: &str, firearm_id: &str) -> sqlx::Result<bool> {
    let done = sqlx::query("DELETE FROM favorites WHERE account_id = $1 AND firearm_id = $2")
        .bind(account_id)
        .bind(firearm_id)
        .execute(db.pool())
        .await?;
    Ok(done.rows_affected() > 0)
}

/// The account's favorite firearm ids, newest first.
pub async fn ids(db: &Db, account_id: &str) -> sqlx::Result<Vec<String>> {
    let rows: Vec<(String,)> = sqlx::query_as(
        "SELECT firearm_id FROM favorites WHERE account_id = $1 ORDER BY added_at DESC, firearm_id",
    )
    .bind(account_id)
    .fetch_all(db.pool())
    .await?;
    Ok(rows.into_iter().map(|(id,)| id).collect())
}
