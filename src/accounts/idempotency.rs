//! Idempotency keys, as Stripe keeps them: the first successful answer to a caller's key is stored
//! for 24 hours with a fingerprint of the request, and a retry with the same key and the same
//! request gets that answer again instead of a second write. The claim is one insert on the
//! (caller, key) primary key, so of concurrent duplicates exactly one runs; the others wait for
//! its answer. An answer that is not a success releases the key, so a corrected retry can run.

use crate::db::Db;

/// How long a key holds its answer.
pub const KEY_LIFETIME: std::time::Duration = std::time::Duration::from_secs(24 * 60 * 60);

/// Keys created before this moment have expired.
pub fn expired_before() -> String {
    crate::clock::sql_timestamp(crate::clock::now() - KEY_LIFETIME)
}

/// A stored answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    pub status: u16,
    pub body: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// This request holds the key: run it, then `complete` or `release`.
    Claimed,
    /// The same request was answered already.
    Replay(Stored),
    /// The key was used for a different request.
    Mismatch,
    /// The same request is being served right now.
    InFlight,
}

pub async fn claim(db: &Db, subject: &str, key: &str, fingerprint: &str) -> sqlx::Result<Claim> {
    sqlx::query("DELETE FROM idempotency_keys WHERE subject = $1 AND idem_key = $2 AND created_at < $3")
        .bind(subject)
        .bind(key)
        .bind(expired_before())
        .execute(db.pool())
        .await?;
    let inserted = sqlx::query(
        "INSERT INTO idempotency_keys (subject, idem_key, fingerprint, created_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (subject, idem_key) DO NOTHING",
    )
    .bind(subject)
    .bind(key)
    .bind(fingerprint)
    .bind(crate::clock::sql_now())
    .execute(db.pool())
    .await?;
    if inserted.rows_affected() == 1 {
        return Ok(Claim::Claimed);
    }
    let row: Option<(String, Option<i64>, Option<String>)> = sqlx::query_as(
        "SELECT fingerprint, status, body FROM idempotency_keys WHERE subject = $1 AND idem_key = $2",
    )
    .bind(subject)
    .bind(key)
    .fetch_optional(db.pool())
    .await?;
    Ok(match row {
        // Released between the insert and the read: the caller tries again.
        None => Claim::InFlight,
        Some((stored, _, _)) if stored != fingerprint => Claim::Mismatch,
        Some((_, Some(status), Some(body))) => Claim::Replay(Stored { status: status as u16, body }),
        Some(_) => Claim::InFlight,
    })
}

/// Keep the answer of the request that holds the key.
pub async fn complete(db: &Db, subject: &str, key: &str, answer: &Stored) -> sqlx::Result<()> {
    sqlx::query("UPDATE idempotency_keys SET status = $1, body = $2 WHERE subject = $3 AND idem_key = $4")
        .bind(i64::from(answer.status))
        .bind(&answer.body)
        .bind(subject)
        .bind(key)
        .execute(db.pool())
        .await?;
    Ok(())
}

/// Give the key up (the request failed): the next request with it runs afresh.
pub async fn release(db: &Db, subject: &str, key: &str) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM idempotency_keys WHERE subject = $1 AND idem_key = $2 AND status IS NULL")
        .bind(subject)
        .bind(key)
        .execute(db.pool())
        .await?;
    Ok(())
}
