//! Schemas of the webhook endpoint operations.

use utoipa::ToSchema;

/// A webhook endpoint of the caller's account.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct WebhookEndpoint {
    /// Opaque; addressed at /v1/me/webhooks/{endpointId}.
    id: String,
    url: String,
    events: Vec<String>,
    description: Option<String>,
    /// False while paused: nothing is delivered and pending retries are dropped.
    enabled: bool,
    /// YYYY-MM-DD HH:MM:SS (UTC).
    created_at: String,
    /// ISO 8601 (UTC).
    updated_at: String,
}

/// The endpoint as created, with its signing secret: shown here once, never again.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct WebhookEndpointCreated {
    id: String,
    url: String,
    events: Vec<String>,
    description: Option<String>,
    enabled: bool,
    created_at: String,
    updated_at: String,
    /// `whsec_` and 64 hex digits, used whole as the HMAC-SHA256 key.
    secret: String,
}

#[derive(ToSchema)]
pub struct WebhookDeleted {
    /// Always true.
    deleted: bool,
    id: String,
}

/// What a test delivery met.
#[derive(ToSchema)]
pub struct WebhookTestResult {
    /// True when the receiver answered 2xx.
    success: bool,
    /// The receiver's HTTP status; null when there was no response (refused target, DNS failure,
    /// timeout, TLS error).
    status: Option<i64>,
    /// What went wrong, or null.
    error: Option<String>,
}
