//! Requests counted per subject (account, or ownerless key) and UTC day: in memory on the hot path,
//! flushed to `usage_daily` in batches every few seconds and at shutdown.
//!
//! The same pipeline counts the requests for each firearm's detail, under the subject
//! `firearm:<id>` (no account or key subject has that prefix), so the popular firearms (operation
//! 40) are counted from real requests on every node and read back from the shared database.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::db::Db;

#[derive(Clone)]
pub struct Usage {
    db: Db,
    pending: Arc<Mutex<HashMap<(String, String), i64>>>,
    /// Held by a flush from taking the pending counts to committing them, and by a read of the
    /// counts: otherwise a read in between finds a batch in neither place and counts too few.
    flushing: Arc<tokio::sync::Mutex<()>>,
}

const FLUSH_EVERY: Duration = Duration::from_secs(2);
/// The usage subject under which a firearm's detail requests are counted.
const VIEW_SUBJECT_PREFIX: &str = "firearm:";

impl Usage {
    pub fn new(db: Db) -> Self {
        Self { db, pending: Arc::default(), flushing: Arc::default() }
    }

    pub fn count(&self, subject: &str, day: &str) {
        let mut pending = self.pending.lock().expect("never poisoned");
        *pending.entry((subject.to_owned(), day.to_owned())).or_default() += 1;
    }

    /// Count one request for a firearm's detail.
    pub fn count_view(&self, firearm_id: &str, day: &str) {
        self.count(&format!("{VIEW_SUBJECT_PREFIX}{firearm_id}"), day);
    }

    /// The most requested firearm details since `first_day` (inclusive, `YYYY-MM-DD`), as stored
    /// by every node: (firearm id, requests), most first, ties by id.
    pub async fn most_viewed(&self, first_day: &str, limit: usize) -> sqlx::Result<Vec<(String, i64)>> {
        let rows: Vec<(String, i64)> = sqlx::query_as(
            "SELECT subject, CAST(SUM(count) AS BIGINT) AS requests FROM usage_daily WHERE subject LIKE $1 AND day >= $2 \
             GROUP BY subject ORDER BY requests DESC, subject LIMIT $3",
        )
        .bind(format!("{VIEW_SUBJECT_PREFIX}%"))
        .bind(first_day)
        .bind(limit as i64)
        .fetch_all(self.db.pool())
        .await?;
        let strip = |subject: String| subject[VIEW_SUBJECT_PREFIX.len()..].to_owned();
        Ok(rows.into_iter().map(|(subject, requests)| (strip(subject), requests)).collect())
    }

    /// Write the pending counts in one transaction. When it fails (the database is down), the
    /// counts go back to pending, so none is lost: the transaction wrote nothing.
    pub async fn flush(&self) -> sqlx::Result<()> {
        let _flushing = self.flushing.lock().await;
        let batch: Vec<((String, String), i64)> = {
            let mut pending = self.pending.lock().expect("never poisoned");
            pending.drain().collect()
        };
        if batch.is_empty() {
            return Ok(());
        }
        let written = self.write(&batch).await;
        if written.is_err() {
            let mut pending = self.pending.lock().expect("never poisoned");
            for (key, count) in batch {
                *pending.entry(key).or_default() += count;
            }
        }
        written
    }

    async fn write(&self, batch: &[((String, String), i64)]) -> sqlx::Result<()> {
        let mut tx = self.db.begin_write().await?;
        for ((subject, day), count) in batch {
            sqlx::query(
                "INSERT INTO usage_daily (subject, day, count) VALUES ($1, $2, $3) \
                 ON CONFLICT (subject, day) DO UPDATE SET count = usage_daily.count + excluded.count",
            )
            .bind(subject)
            .bind(day)
            .bind(*count)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await
    }

    /// Requests per day of one month (`YYYY-MM`), flushed and pending together, oldest first.
    pub async fn month(&self, subject: &str, month: &str) -> sqlx::Result<Vec<(String, i64)>> {
        let _flushing = self.flushing.lock().await;
        let rows: Vec<(String, i64)> = sqlx::query_as(
            "SELECT day, count FROM usage_daily WHERE subject = $1 AND day LIKE $2 ORDER BY day",
        )
        .bind(subject)
        .bind(format!("{month}-%"))
        .fetch_all(self.db.pool())
        .await?;
        let mut days: std::collections::BTreeMap<String, i64> = rows.into_iter().collect();
        let pending = self.pending.lock().expect("never poisoned");
        for ((who, day), count) in pending.iter() {
            if who == subject && day.starts_with(month) {
                *days.entry(day.clone()).or_default() += count;
            }
        }
        Ok(days.into_iter().collect())
    }

    /// Flush every few seconds until `stop`, then once more.
    pub async fn keep_flushing(self, stop: crate::shutdown::Shutdown) {
        let mut tick = tokio::time::interval(FLUSH_EVERY);
        loop {
            let stopping = tokio::select! {
                _ = stop.triggered() => true,
                _ = tick.tick() => false,
            };
            if let Err(e) = self.flush().await {
                tracing::warn!(error = %e, "flushing usage counts failed; they are kept for the next flush");
            }
            if stopping {
                return;
            }
        }
    }
}
