//! Fan-out: each new outbox event (`catalog_events`) becomes one pending delivery per enabled
//! endpoint subscribed to its type.
//!
//! A cursor row (`webhook_fanout.last_seq`) records how far the outbox was fanned out. A node
//! first writes that row, which takes its lock (PostgreSQL) or the database's write lock (SQLite),
//! and only then reads it, so with several nodes one fans out a batch while the others wait and
//! then find nothing new. The (event, endpoint) unique key makes a repeated fan-out harmless anyway.

use std::collections::HashMap;

use serde_json::{Value, json};

use super::error::WebhookError;
use super::events;
use super::payload::{event_data, resync_data};
use crate::access::plan::Plan;
use crate::clock::{iso_millis_now, sql_now, unix_millis_now};
use crate::db::Db;
use crate::read::snapshot::CatalogHandle;

/// Events fanned out per transaction.
const BATCH: i64 = 200;

type EventRow = (i64, String, String, Option<String>, Option<String>, i64, String);

struct Subscriber {
    id: String,
    events: Vec<String>,
    plan: Plan,
    /// Events older than this are not for this endpoint (registered or resumed after them).
    receives_from: String,
}

/// Fan out the next batch of events; the number of events handled.
pub async fn fan_out(db: &Db, catalog: &CatalogHandle) -> Result<usize, WebhookError> {
    // Read first: an idle pass must not take the write lock (on SQLite it would compete, every
    // poll, with every other writer).
    let (pending,): (i64,) = sqlx::query_as(
        "SELECT COUNT(*) FROM catalog_events WHERE seq > (SELECT last_seq FROM webhook_fanout WHERE id = 1)",
    )
    .fetch_one(db.pool())
    .await?;
    if pending == 0 {
        return Ok(0);
    }
    let mut tx = db.begin_write().await?;
    sqlx::query("UPDATE webhook_fanout SET last_seq = last_seq WHERE id = 1").execute(&mut *tx).await?;
    let (last_seq,): (i64,) =
        sqlx::query_as("SELECT last_seq FROM webhook_fanout WHERE id = 1").fetch_one(&mut *tx).await?;
    let batch: Vec<EventRow> = sqlx::query_as(
        "SELECT seq, id, type, resource, resource_id, revision, created_at FROM catalog_events \
         WHERE seq > $1 ORDER BY seq LIMIT $2",
    )
    .bind(last_seq)
    .bind(BATCH)
    .fetch_all(&mut *tx)
    .await?;
    let Some(newest) = batch.last().map(|row| row.0) else { return Ok(0) };

    // Render from a snapshot at least as new as the events (the node's poll may lag a moment).
    let needed = batch.iter().map(|row| row.5).max().unwrap_or_default();
    if catalog.current().revision < needed {
        catalog.catch_up(needed).await?;
    }
    let snapshot = catalog.current();
    if snapshot.revision < needed {
        return Err(WebhookError::SnapshotBehind(needed));
    }

    let subscribers = subscribers(&mut tx).await?;
    let now = iso_millis_now();
    let due = unix_millis_now();
    for (_, event_id, event_type, resource, resource_id, revision, created_at) in &batch {
        let mut bodies: HashMap<Plan, String> = HashMap::new();
        let receiving = subscribers
            .iter()
            .filter(|s| events::receives(&s.events, event_type) && *created_at >= s.receives_from);
        for subscriber in receiving {
            let body = bodies.entry(subscriber.plan).or_insert_with(|| {
                let data = match (resource, resource_id) {
                    (Some(resource), Some(id)) => event_data(&snapshot, resource, id, subscriber.plan),
                    _ => resync_data(*revision),
                };
                body_of(event_id, event_type, created_at, data)
            });
            sqlx::query(
                "INSERT INTO webhook_deliveries \
                 (id, event_id, event_type, endpoint_id, body, next_attempt_at, created_at, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $7) ON CONFLICT (event_id, endpoint_id) DO NOTHING",
            )
            .bind(uuid::Uuid::now_v7().to_string())
            .bind(event_id)
            .bind(event_type)
            .bind(&subscriber.id)
            .bind(body.as_str())
            .bind(due)
            .bind(&now)
            .execute(&mut *tx)
            .await?;
        }
    }
    sqlx::query("UPDATE webhook_fanout SET last_seq = $1 WHERE id = 1")
        .bind(newest)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(batch.len())
}

/// The delivery body: `{id, type, created_at, data}`, serialised once and signed as these bytes.
pub fn body_of(event_id: &str, event_type: &str, created_at: &str, data: Value) -> String {
    json!({ "id": event_id, "type": event_type, "created_at": created_at, "data": data }).to_string()
}

/// Enabled endpoints with their owner's plan in force (Explorer once a paid period ended).
async fn subscribers(conn: &mut sqlx::AnyConnection) -> Result<Vec<Subscriber>, sqlx::Error> {
    let rows: Vec<(String, String, String, Option<String>, String)> = sqlx::query_as(
        "SELECT e.id, e.events, a.plan, a.paid_until, e.receives_from FROM webhook_endpoints e \
         JOIN accounts a ON a.id = e.account_id WHERE e.enabled = 1",
    )
    .fetch_all(conn)
    .await?;
    let now = sql_now();
    Ok(rows
        .into_iter()
        .map(|(id, events, plan, paid_until, receives_from)| {
            let ended = paid_until.is_some_and(|end| end <= now);
            let plan = if ended { Plan::Explorer } else { Plan::parse(&plan).unwrap_or(Plan::Explorer) };
            Subscriber { id, events: serde_json::from_str(&events).unwrap_or_default(), plan, receives_from }
        })
        .collect())
}
