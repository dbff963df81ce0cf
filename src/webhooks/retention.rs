//! Retention: what a node that runs for years must not keep forever. The worker prunes, in small
//! batches (so no delete holds a lock for long), delivered and abandoned webhook deliveries and
//! outbox events every endpoint has been fanned out from, once older than their windows, the
//! per-day usage rows older than theirs (the monthly figures read only the current month), and
//! idempotency keys past their 24 hours. Pending deliveries, events not yet fanned out and the
//! catalog itself are never touched.

use std::time::Duration;

use crate::db::Db;

/// The lifetime of an idempotency key (`accounts::idempotency::KEY_LIFETIME`, a peer layer).
const IDEMPOTENCY_KEY_HOURS: i64 = 24;

/// How long each kind of row is kept, each configurable (README: `ARMORY_RETAIN_*`).
#[derive(Debug, Clone)]
pub struct RetentionSettings {
    /// Delivered and abandoned deliveries (their outcome is what `/test` and support look at).
    pub deliveries: Duration,
    /// Outbox events already fanned out to every endpoint.
    pub events: Duration,
    /// Per-day usage counts.
    pub usage: Duration,
    /// Rows deleted per statement.
    pub batch: u32,
    /// How often the worker prunes.
    pub every: Duration,
}

impl Default for RetentionSettings {
    fn default() -> Self {
        const DAY: u64 = 86_400;
        Self {
            deliveries: Duration::from_secs(30 * DAY),
            events: Duration::from_secs(30 * DAY),
            usage: Duration::from_secs(400 * DAY),
            batch: 500,
            every: Duration::from_secs(600),
        }
    }
}

/// Rows removed by one pruning pass.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Pruned {
    pub deliveries: u64,
    pub events: u64,
    pub usage_days: u64,
    pub idempotency_keys: u64,
}

/// Delete what is past its window, batch by batch, until nothing is left to delete.
pub async fn prune(db: &Db, settings: &RetentionSettings) -> sqlx::Result<Pruned> {
    let now = crate::clock::now();
    let before = |window: Duration| now - time::Duration::try_from(window).unwrap_or(time::Duration::ZERO);
    let iso = |at: time::OffsetDateTime| {
        at.format(time::macros::format_description!(
            "[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z"
        ))
        .expect("UTC formats")
    };
    let deliveries = batches(
        db,
        "DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM webhook_deliveries \
         WHERE state IN ('delivered', 'abandoned') AND updated_at < $1 LIMIT $2)",
        iso(before(settings.deliveries)),
        settings.batch,
    )
    .await?;
    let events = batches(
        db,
        "DELETE FROM catalog_events WHERE seq IN (SELECT seq FROM catalog_events \
         WHERE created_at < $1 AND seq <= (SELECT COALESCE(MAX(last_seq), 0) FROM webhook_fanout) LIMIT $2)",
        iso(before(settings.events)),
        settings.batch,
    )
    .await?;
    let usage_days = batches(
        db,
        "DELETE FROM usage_daily WHERE (subject, day) IN (SELECT subject, day FROM usage_daily \
         WHERE day < $1 LIMIT $2)",
        crate::clock::day(before(settings.usage)),
        settings.batch,
    )
    .await?;
    // Expired idempotency keys (24 hours; the cutoff is the one `claim` applies).
    let idempotency_keys = batches(
        db,
        "DELETE FROM idempotency_keys WHERE (subject, idem_key) IN (SELECT subject, idem_key \
         FROM idempotency_keys WHERE created_at < $1 LIMIT $2)",
        crate::clock::sql_timestamp(now - time::Duration::hours(IDEMPOTENCY_KEY_HOURS)),
        settings.batch,
    )
    .await?;
    Ok(Pruned { deliveries, events, usage_days, idempotency_keys })
}

async fn batches(db: &Db, statement: &'static str, cutoff: String, batch: u32) -> sqlx::Result<u64> {
    let mut removed = 0;
    loop {
        let done = sqlx::query(statement).bind(&cutoff).bind(i64::from(batch)).execute(db.pool()).await?;
        removed += done.rows_affected();
        if done.rows_affected() < u64::from(batch) {
            return Ok(removed);
        }
    }
}
