//! The delivery worker: fan out new events, claim due deliveries, send them, record the outcome.
//!
//! A claim sets `claimed_until` (the attempt's timeout plus a margin) on rows selected with
//! `FOR UPDATE SKIP LOCKED` on PostgreSQL, so concurrent workers on several nodes take disjoint
//! rows; on SQLite the single writer makes the claiming UPDATE atomic by itself. A worker killed
//! after claiming loses nothing: once the claim expires the row is due again. An attempt that
//! finishes records its outcome only if the row is still pending (not dropped by a pause).

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use tokio::task::JoinSet;

use super::WebhookSettings;
use super::endpoints::{self, Endpoint};
use super::error::WebhookError;
use super::events::TEST;
use super::fanout::{body_of, fan_out};
use super::send::{self, Message, Outcome};
use crate::clock::{iso_millis_now, unix_millis_now};
use crate::db::{Backend, Db};
use crate::read::snapshot::CatalogHandle;
use crate::shutdown::Shutdown;

/// Deliveries claimed (and sent concurrently) per pass.
const CLAIM_BATCH: i64 = 32;

#[derive(Clone)]
pub struct Webhooks {
    inner: Arc<Inner>,
}

struct Inner {
    db: Db,
    catalog: CatalogHandle,
    settings: WebhookSettings,
    client: reqwest::Client,
}

/// What one pass did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Pass {
    pub events_fanned_out: usize,
    pub attempts: usize,
    pub delivered: usize,
}

struct Claimed {
    id: String,
    event_id: String,
    event_type: String,
    endpoint_id: String,
    body: String,
    attempts: i64,
}

impl Webhooks {
    /// The delivery side over `db`, with its guarded HTTP client built from `settings`.
    pub fn try_new(db: Db, catalog: CatalogHandle, settings: WebhookSettings) -> Result<Self, WebhookError> {
        let client = send::client(&settings)?;
        Ok(Self { inner: Arc::new(Inner { db, catalog, settings, client }) })
    }

    pub fn settings(&self) -> &WebhookSettings {
        &self.inner.settings
    }

    /// Until `stop` fires: a pass, then a pause. Shutdown is only noticed between passes, so an
    /// attempt in flight finishes and its outcome is recorded.
    pub async fn run(self, stop: Shutdown) {
        let mut last_pruned: Option<std::time::Instant> = None;
        loop {
            match self.run_once().await {
                Ok(_) => {}
                Err(e) if e.is_unavailable() => {
                    tracing::warn!(error = %e, unavailable = true, "webhook worker pass failed; retrying on the next one");
                }
                Err(e) => tracing::error!(error = %e, "webhook worker pass failed; retrying on the next one"),
            }
            let retention = &self.inner.settings.retention;
            if last_pruned.is_none_or(|at| at.elapsed() >= retention.every) {
                last_pruned = Some(std::time::Instant::now());
                match super::retention::prune(&self.inner.db, retention).await {
                    Ok(pruned) => tracing::info!(?pruned, "pruned rows past their retention"),
                    Err(e) => tracing::warn!(error = %e, "pruning failed; retrying on the next round"),
                }
            }
            tokio::select! {
                _ = stop.triggered() => return,
                _ = tokio::time::sleep(self.inner.settings.poll_interval) => {}
            }
        }
    }

    /// One pass: fan out every new event, then make every attempt that is due now.
    pub async fn run_once(&self) -> Result<Pass, WebhookError> {
        let mut pass = Pass::default();
        loop {
            let n = fan_out(&self.inner.db, &self.inner.catalog).await?;
            if n == 0 {
                break;
            }
            pass.events_fanned_out += n;
        }
        loop {
            let claimed = self.claim().await?;
            if claimed.is_empty() {
                return Ok(pass);
            }
            let mut attempts = JoinSet::new();
            for delivery in claimed {
                let this = self.clone();
                attempts.spawn(async move { this.attempt(delivery).await });
            }
            while let Some(result) = attempts.join_next().await {
                match result {
                    Ok(Ok(Some(outcome))) => {
                        pass.attempts += 1;
                        pass.delivered += usize::from(outcome.success());
                    }
                    Ok(Ok(None)) => {}
                    Ok(Err(e)) => tracing::warn!(error = %e, "recording a webhook attempt failed"),
                    Err(e) => tracing::error!(error = %e, "a webhook attempt panicked"),
                }
            }
        }
    }

    /// A signed test delivery to `endpoint`, made now, whatever its state.
    pub async fn test_delivery(&self, endpoint: &Endpoint) -> Outcome {
        let event_id = uuid::Uuid::now_v7().to_string();
        let data = json!({
            "endpointId": endpoint.id,
            "message": "A test delivery: answer 2xx once the signature verifies.",
        });
        let body = body_of(&event_id, TEST, &iso_millis_now(), data);
        let message = Message { event_id: &event_id, event_type: TEST, body: &body };
        let inner = &self.inner;
        send::send(&inner.client, &inner.settings, &endpoint.url, &endpoint.secret, &message).await
    }

    async fn claim(&self) -> Result<Vec<Claimed>, sqlx::Error> {
        let now = unix_millis_now();
        let settings = &self.inner.settings;
        let until = now + millis(settings.timeout + settings.claim_margin);
        // Read first: an idle pass must not take the write lock (see `fanout`).
        let due: Option<(String,)> = sqlx::query_as(
            "SELECT id FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= $1 \
             AND (claimed_until IS NULL OR claimed_until <= $1) LIMIT 1",
        )
        .bind(now)
        .fetch_optional(self.inner.db.pool())
        .await?;
        if due.is_none() {
            return Ok(Vec::new());
        }
        let lock = match self.inner.db.backend() {
            Backend::Postgres => "FOR UPDATE OF d SKIP LOCKED",
            Backend::Sqlite => "",
        };
        let sql = format!(
            "UPDATE webhook_deliveries SET claimed_until = $1 WHERE id IN (\
               SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id \
               WHERE d.state = 'pending' AND d.next_attempt_at <= $2 \
                 AND (d.claimed_until IS NULL OR d.claimed_until <= $2) AND e.enabled = 1 \
               ORDER BY d.next_attempt_at LIMIT $3 {lock}) \
             RETURNING id, event_id, event_type, endpoint_id, body, attempts"
        );
        let rows: Vec<(String, String, String, String, String, i64)> =
            sqlx::query_as(sqlx::AssertSqlSafe(sql))
                .bind(until)
                .bind(now)
                .bind(CLAIM_BATCH)
                .fetch_all(self.inner.db.pool())
                .await?;
        Ok(rows
            .into_iter()
            .map(|(id, event_id, event_type, endpoint_id, body, attempts)| Claimed {
                id,
                event_id,
                event_type,
                endpoint_id,
                body,
                attempts,
            })
            .collect())
    }

    /// Send one claimed delivery and record the outcome; None when there was nothing to send.
    async fn attempt(&self, delivery: Claimed) -> Result<Option<Outcome>, sqlx::Error> {
        let inner = &self.inner;
        let Some(endpoint) = endpoints::find(&inner.db, &delivery.endpoint_id).await? else {
            return Ok(None); // deleted meanwhile, and its deliveries with it
        };
        if !endpoint.enabled {
            return Ok(None); // paused meanwhile: the pause dropped this row
        }
        let message =
            Message { event_id: &delivery.event_id, event_type: &delivery.event_type, body: &delivery.body };
        let outcome =
            send::send(&inner.client, &inner.settings, &endpoint.url, &endpoint.secret, &message).await;
        self.record(&delivery, &outcome).await?;
        Ok(Some(outcome))
    }

    async fn record(&self, delivery: &Claimed, outcome: &Outcome) -> Result<(), sqlx::Error> {
        let attempts = delivery.attempts + 1;
        let schedule = &self.inner.settings.retry_schedule;
        let (state, next) = if outcome.success() {
            ("delivered", unix_millis_now())
        } else {
            // Attempt n failed: retry n waits schedule[n - 1]; past the schedule, give up.
            match schedule.get(attempts as usize - 1) {
                Some(wait) => ("pending", unix_millis_now() + millis(*wait)),
                None => ("abandoned", unix_millis_now()),
            }
        };
        crate::metrics::global().delivery(match state {
            "pending" => "retry_scheduled",
            other => other,
        });
        if state == "abandoned" {
            tracing::info!(delivery = %delivery.id, endpoint = %delivery.endpoint_id, "webhook delivery abandoned");
        }
        sqlx::query(
            "UPDATE webhook_deliveries SET state = $1, attempts = $2, next_attempt_at = $3, claimed_until = NULL, \
             last_status = $4, last_error = $5, updated_at = $6 WHERE id = $7 AND state = 'pending'",
        )
        .bind(state)
        .bind(attempts)
        .bind(next)
        .bind(outcome.status.map(i64::from))
        .bind(&outcome.error)
        .bind(iso_millis_now())
        .bind(&delivery.id)
        .execute(self.inner.db.pool())
        .await?;
        Ok(())
    }
}

fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX / 2)
}
