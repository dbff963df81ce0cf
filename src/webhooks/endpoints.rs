//! Stored webhook endpoints, always addressed through their owning account so that another
//! account's endpoint is simply not found.

use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;

use super::url::WebhookUrl;
use crate::clock::{iso_millis_now, sql_now};
use crate::db::Db;

/// A webhook endpoint of the caller's account.
// Served without its secret, which only the create answer (`EndpointCreated`) shows.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = WebhookEndpoint)]
pub struct Endpoint {
    /// Opaque; addressed at /v1/me/webhooks/{endpointId}.
    pub id: String,
    #[serde(skip)]
    pub account_id: String,
    pub url: String,
    pub events: Vec<String>,
    pub description: Option<String>,
    /// False while paused: nothing is delivered and pending retries are dropped.
    pub enabled: bool,
    #[serde(skip)]
    pub secret: String,
    /// YYYY-MM-DD HH:MM:SS (UTC).
    pub created_at: String,
    /// ISO 8601 (UTC).
    pub updated_at: String,
}

/// The endpoint as created, with its signing secret: shown here once, never again.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = WebhookEndpointCreated)]
pub struct EndpointCreated {
    #[serde(flatten)]
    pub endpoint: Endpoint,
    /// `whsec_` and 64 hex digits, used whole as the HMAC-SHA256 key.
    pub secret: String,
}

impl From<Endpoint> for EndpointCreated {
    fn from(endpoint: Endpoint) -> Self {
        Self { secret: endpoint.secret.clone(), endpoint }
    }
}

/// A validated create request.
pub struct NewEndpoint {
    pub url: WebhookUrl,
    pub events: Vec<String>,
    pub description: Option<String>,
}

/// A validated update: None leaves a field as it is (`description: Some(None)` clears it).
#[derive(Default)]
pub struct Changes {
    pub url: Option<WebhookUrl>,
    pub events: Option<Vec<String>>,
    pub description: Option<Option<String>>,
    pub enabled: Option<bool>,
}

type Row = (String, String, String, String, Option<String>, i64, String, String, String);

const COLUMNS: &str = "id, account_id, url, events, description, enabled, secret, created_at, updated_at";

fn from_row(row: Row) -> Endpoint {
    let (id, account_id, url, events, description, enabled, secret, created_at, updated_at) = row;
    Endpoint {
        id,
        account_id,
        url,
        events: serde_json::from_str(&events).unwrap_or_default(),
        description,
        enabled: enabled != 0,
        secret,
        created_at,
        updated_at,
    }
}

/// Register an endpoint unless the account already holds `allowance` of them (None). The account
/// row is locked first, so concurrent creates for one account queue and the count they see is
/// final (PostgreSQL row lock; SQLite's write lock).
pub async fn create(
    db: &Db,
    account_id: &str,
    new: NewEndpoint,
    allowance: u32,
) -> Result<Option<Endpoint>, sqlx::Error> {
    let endpoint = Endpoint {
        id: format!("whe_{}", uuid::Uuid::now_v7().simple()),
        account_id: account_id.to_owned(),
        url: new.url.as_str().to_owned(),
        events: new.events,
        description: new.description,
        enabled: true,
        secret: super::sign::new_secret(),
        created_at: sql_now(),
        updated_at: iso_millis_now(),
    };
    let sql = format!(
        "INSERT INTO webhook_endpoints ({COLUMNS}, receives_from) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)"
    );
    let mut tx = db.begin_write().await?;
    crate::db::lock_account(&mut tx, account_id).await?;
    let (held,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM webhook_endpoints WHERE account_id = $1")
        .bind(account_id)
        .fetch_one(&mut *tx)
        .await?;
    if held >= i64::from(allowance) {
        return Ok(None);
    }
    sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(&endpoint.id)
        .bind(&endpoint.account_id)
        .bind(&endpoint.url)
        .bind(json!(endpoint.events).to_string())
        .bind(&endpoint.description)
        .bind(1_i64)
        .bind(&endpoint.secret)
        .bind(&endpoint.created_at)
        .bind(&endpoint.updated_at)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(Some(endpoint))
}

/// The account's endpoints, oldest first.
pub async fn list(db: &Db, account_id: &str) -> Result<Vec<Endpoint>, sqlx::Error> {
    let sql =
        format!("SELECT {COLUMNS} FROM webhook_endpoints WHERE account_id = $1 ORDER BY created_at, id");
    let rows: Vec<Row> =
        sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(account_id).fetch_all(db.pool()).await?;
    Ok(rows.into_iter().map(from_row).collect())
}

pub async fn count(db: &Db, account_id: &str) -> Result<i64, sqlx::Error> {
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM webhook_endpoints WHERE account_id = $1")
        .bind(account_id)
        .fetch_one(db.pool())
        .await?;
    Ok(n)
}

/// The account's endpoint `id`; None for an unknown id or another account's endpoint.
pub async fn get(db: &Db, account_id: &str, id: &str) -> Result<Option<Endpoint>, sqlx::Error> {
    let sql = format!("SELECT {COLUMNS} FROM webhook_endpoints WHERE id = $1 AND account_id = $2");
    let row: Option<Row> =
        sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(id).bind(account_id).fetch_optional(db.pool()).await?;
    Ok(row.map(from_row))
}

/// Any account's endpoint, for the worker.
pub async fn find(db: &Db, id: &str) -> Result<Option<Endpoint>, sqlx::Error> {
    let sql = format!("SELECT {COLUMNS} FROM webhook_endpoints WHERE id = $1");
    let row: Option<Row> =
        sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(id).fetch_optional(db.pool()).await?;
    Ok(row.map(from_row))
}

/// Apply `changes`. Pausing drops the endpoint's pending deliveries in the same transaction: a
/// paused endpoint is not retried, and resuming does not replay what it missed.
pub async fn update(
    db: &Db,
    account_id: &str,
    id: &str,
    changes: Changes,
) -> Result<Option<Endpoint>, sqlx::Error> {
    let Some(mut endpoint) = get(db, account_id, id).await? else { return Ok(None) };
    let before =
        (endpoint.url.clone(), endpoint.events.clone(), endpoint.description.clone(), endpoint.enabled);
    let pausing = endpoint.enabled && changes.enabled == Some(false);
    let resuming = !endpoint.enabled && changes.enabled == Some(true);
    if let Some(url) = changes.url {
        endpoint.url = url.as_str().to_owned();
    }
    if let Some(events) = changes.events {
        endpoint.events = events;
    }
    if let Some(description) = changes.description {
        endpoint.description = description;
    }
    if let Some(enabled) = changes.enabled {
        endpoint.enabled = enabled;
    }
    if before
        == (endpoint.url.clone(), endpoint.events.clone(), endpoint.description.clone(), endpoint.enabled)
    {
        return Ok(Some(endpoint)); // nothing changed: updatedAt stays
    }
    endpoint.updated_at = iso_millis_now();
    let mut tx = db.begin_write().await?;
    sqlx::query(
        "UPDATE webhook_endpoints SET url = $1, events = $2, description = $3, enabled = $4, updated_at = $5, \
         receives_from = CASE WHEN $8 = 1 THEN $5 ELSE receives_from END WHERE id = $6 AND account_id = $7",
    )
    .bind(&endpoint.url)
    .bind(json!(endpoint.events).to_string())
    .bind(&endpoint.description)
    .bind(i64::from(endpoint.enabled))
    .bind(&endpoint.updated_at)
    .bind(id)
    .bind(account_id)
    .bind(i64::from(resuming))
    .execute(&mut *tx)
    .await?;
    if pausing {
        sqlx::query(
            "UPDATE webhook_deliveries SET state = 'dropped', claimed_until = NULL, updated_at = $1 \
             WHERE endpoint_id = $2 AND state = 'pending'",
        )
        .bind(&endpoint.updated_at)
        .bind(id)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(Some(endpoint))
}

/// Remove the endpoint and every delivery of it, pending retries included. False when the
/// account holds no such endpoint.
pub async fn delete(db: &Db, account_id: &str, id: &str) -> Result<bool, sqlx::Error> {
    let mut tx = db.begin_write().await?;
    let owned = sqlx::query("SELECT id FROM webhook_endpoints WHERE id = $1 AND account_id = $2")
        .bind(id)
        .bind(account_id)
        .fetch_optional(&mut *tx)
        .await?
        .is_some();
    if owned {
        sqlx::query("DELETE FROM webhook_deliveries WHERE endpoint_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM webhook_endpoints WHERE id = $1").bind(id).execute(&mut *tx).await?;
    }
    tx.commit().await?;
    Ok(owned)
}
