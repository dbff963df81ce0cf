//! Requests counted per subject (account, or ownerless key) and UTC day: in memory on the hot path,
//! flushed to `usage_daily` in batches every few seconds and at shutdown.
//!
//! The same pipeline counts the requests for each firearm's detail, under the subject
//! `firearm:<id>` (no account or key subject has that prefix), so the popular firearms (operation
//! 40) are counted from real requests on every node and read back from the shared database.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::db::Db;
use crate::fast_hash::FastMap;

#[derive(Clone)]
pub struct Usage {
    db: Db,
    pending: Arc<Mutex<Pending>>,
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
        self.pending.lock().expect("never poisoned").day(day).add(Kind::Caller, subject, 1);
    }

    /// Count one request for a firearm's detail.
    pub fn count_view(&self, firearm_id: &str, day: &str) {
        self.pending.lock().expect("never poisoned").day(day).add(Kind::View, firearm_id, 1);
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
        let batch = self.pending.lock().expect("never poisoned").drain();
        if batch.is_empty() {
            return Ok(());
        }
        let written = self.write(&batch).await;
        if written.is_err() {
            let mut pending = self.pending.lock().expect("never poisoned");
            for ((subject, day), count) in batch {
                let (kind, subject) = match subject.strip_prefix(VIEW_SUBJECT_PREFIX) {
                    Some(firearm_id) => (Kind::View, firearm_id),
                    None => (Kind::Caller, subject.as_str()),
                };
                pending.day(&day).add(kind, subject, count);
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
        for (day, counts) in pending.0.iter().filter(|(day, _)| day.starts_with(month)) {
            if let Some(&count) = counts.callers.get(subject) {
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

/// The counts not yet written, by day, then by caller subject or firearm. Looked up by borrowed
/// text, so a request counted for a day and subject already pending allocates nothing (every
/// keyed request counts once, a firearm's detail twice).
#[derive(Default)]
struct Pending(FastMap<String, DayCounts>);

#[derive(Default)]
struct DayCounts {
    callers: FastMap<String, i64>,
    /// By firearm id; written under `VIEW_SUBJECT_PREFIX` and the id.
    views: FastMap<String, i64>,
}

#[derive(Clone, Copy)]
enum Kind {
    Caller,
    View,
}

impl Pending {
    fn day(&mut self, day: &str) -> &mut DayCounts {
        if !self.0.contains_key(day) {
            self.0.insert(day.to_owned(), DayCounts::default());
        }
        self.0.get_mut(day).expect("just inserted")
    }

    /// Every pending count as ((subject, day), count), leaving none.
    fn drain(&mut self) -> Vec<((String, String), i64)> {
        let mut batch = Vec::new();
        for (day, counts) in self.0.drain() {
            let views = counts.views.into_iter().map(|(id, n)| (format!("{VIEW_SUBJECT_PREFIX}{id}"), n));
            batch.extend(
                counts.callers.into_iter().chain(views).map(|(subject, n)| ((subject, day.clone()), n)),
            );
        }
        batch
    }
}

impl DayCounts {
    fn add(&mut self, kind: Kind, subject: &str, count: i64) {
        let counts = match kind {
            Kind::Caller => &mut self.callers,
            Kind::View => &mut self.views,
        };
        match counts.get_mut(subject) {
            Some(held) => *held += count,
            None => {
                counts.insert(subject.to_owned(), count);
            }
        }
    }
}
