//! One signed POST to a receiver through the guarded client.

use std::sync::Arc;
use std::time::Duration;

use reqwest::header::CONTENT_TYPE;

use super::WebhookSettings;
use super::error::WebhookError;
use super::guard::{GuardedResolver, TargetRefused};
use super::sign::signature;
use super::url::WebhookUrl;

/// The delivery client: redirects never followed (a 3xx is a failure), no proxy (a proxy would
/// resolve the name itself, past the guard), every new connection resolved through the guard.
pub fn client(settings: &WebhookSettings) -> Result<reqwest::Client, WebhookError> {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .timeout(settings.timeout)
        .dns_resolver(GuardedResolver { allow: Arc::new(settings.allow_targets.clone()) })
        .user_agent(concat!("Armory-Webhooks/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(WebhookError::Client)
}

/// What one attempt came to: the receiver's status when it answered, and the problem if any.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub status: Option<u16>,
    pub error: Option<String>,
}

/// What a test delivery met.
// An `Outcome` with its verdict, as the caller reads it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, utoipa::ToSchema)]
#[schema(as = WebhookTestResult)]
pub struct TestResult {
    /// True when the receiver answered 2xx.
    pub success: bool,
    /// The receiver's HTTP status; null when there was no response (refused target, DNS failure,
    /// timeout, TLS error).
    #[schema(value_type = Option<i64>)]
    pub status: Option<u16>,
    /// What went wrong, or null.
    pub error: Option<String>,
}

impl From<Outcome> for TestResult {
    fn from(outcome: Outcome) -> Self {
        Self { success: outcome.success(), status: outcome.status, error: outcome.error }
    }
}

impl Outcome {
    pub fn success(&self) -> bool {
        self.status.is_some_and(|s| (200..300).contains(&s))
    }

    fn failed(error: String) -> Self {
        Self { status: None, error: Some(error) }
    }
}

/// The message to sign and send.
pub struct Message<'a> {
    pub event_id: &'a str,
    pub event_type: &'a str,
    pub body: &'a str,
}

/// POST `message` to `url`, signed with `secret`. The stored URL is checked against the rules
/// again first (rule 6: the configuration may have changed since it was registered).
pub async fn send(
    client: &reqwest::Client,
    settings: &WebhookSettings,
    url: &str,
    secret: &str,
    message: &Message<'_>,
) -> Outcome {
    let url = match WebhookUrl::parse(url, &settings.url_rules()) {
        Ok(url) => url,
        Err(problem) => return Outcome::failed(format!("the endpoint URL {problem}")),
    };
    let timestamp = time::OffsetDateTime::now_utc().unix_timestamp();
    let request = client
        .post(url.url().clone())
        .header(CONTENT_TYPE, "application/json")
        .header("X-Webhook-Id", message.event_id)
        .header("X-Webhook-Event", message.event_type)
        // New for every attempt: receivers deduplicate on X-Webhook-Id, never on this.
        .header("X-Webhook-Delivery", uuid::Uuid::new_v4().to_string())
        .header("X-Webhook-Signature", signature(secret, timestamp, message.body.as_bytes()))
        .body(message.body.to_owned());
    match request.send().await {
        Ok(response) => {
            let status = response.status();
            let error = match status.as_u16() {
                200..=299 => None,
                300..=399 => Some(format!("the receiver answered {status}; redirects are not followed")),
                _ => Some(format!("the receiver answered {status}")),
            };
            Outcome { status: Some(status.as_u16()), error }
        }
        Err(error) => Outcome::failed(describe(&error, settings.timeout)),
    }
}

/// A one-line account of a failed request: the guard's refusal when it was one, else the chain
/// of causes (DNS failure, refused connection, TLS error).
fn describe(error: &reqwest::Error, timeout: Duration) -> String {
    if error.is_timeout() {
        return format!("no answer within {} s", timeout.as_secs_f32());
    }
    let mut causes = Vec::new();
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(cause) = source {
        if let Some(refused) = cause.downcast_ref::<TargetRefused>() {
            return refused.to_string();
        }
        let text = cause.to_string();
        if !causes.iter().any(|c: &String| c.contains(&text)) {
            causes.push(text);
        }
        source = cause.source();
    }
    causes.join(": ")
}
