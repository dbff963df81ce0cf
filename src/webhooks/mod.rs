//! Webhooks: endpoints registered by accounts, and signed, retried, guarded delivery of the
//! catalog's outbox events to them.
//!
//! The import writes `catalog_events` (the outbox) in its transaction; `fanout` turns each event
//! into one `webhook_deliveries` row per subscribed endpoint, once, whichever node gets there;
//! `worker` claims due rows, sends them through the guarded client and records the outcome.

pub mod allow;
pub mod endpoints;
pub mod error;
pub mod events;
pub mod fanout;
pub mod guard;
pub mod payload;
pub mod retention;
pub mod send;
pub mod sign;
pub mod url;
pub mod wildcard_dns;
pub mod worker;

use std::time::Duration;

pub use worker::Webhooks;

/// Delivery settings (README "Configuration"); safety limits are configuration, not code paths.
#[derive(Debug, Clone)]
pub struct WebhookSettings {
    /// `ARMORY_WEBHOOK_ALLOW_TARGETS`: targets exempt from the URL rules and the address guard.
    pub allow_targets: allow::AllowList,
    /// `ARMORY_WEBHOOK_RETRY_SCHEDULE`: the wait before each retry; its length is the retry count.
    pub retry_schedule: Vec<Duration>,
    /// `ARMORY_WEBHOOK_TIMEOUT`: one attempt, connection included.
    pub timeout: Duration,
    /// `ARMORY_PUBLIC_HOSTS`: the service's own host names, which no endpoint may target.
    pub public_hosts: Vec<String>,
    /// `ARMORY_WEBHOOK_WORKER_DOMAIN`: the hosting platform's worker domain, refused likewise.
    pub worker_domain: Option<String>,
    /// Whether this process runs the delivery worker (`serve --no-worker` turns it off).
    pub run_worker: bool,
    /// How often the worker looks for new events and due deliveries.
    pub poll_interval: Duration,
    /// What the worker prunes, and when (`retention`).
    pub retention: retention::RetentionSettings,
    /// How long a claim outlives the attempt's timeout before another worker may take it over:
    /// a process killed between claim and send delays that attempt by this much, and loses nothing.
    pub claim_margin: Duration,
}

impl Default for WebhookSettings {
    fn default() -> Self {
        Self {
            allow_targets: allow::AllowList::default(),
            retry_schedule: [60, 300, 900].map(Duration::from_secs).to_vec(),
            retention: retention::RetentionSettings::default(),
            timeout: Duration::from_secs(10),
            public_hosts: Vec::new(),
            worker_domain: None,
            run_worker: true,
            poll_interval: Duration::from_secs(1),
            claim_margin: Duration::from_secs(30),
        }
    }
}

impl WebhookSettings {
    pub fn url_rules(&self) -> url::UrlRules<'_> {
        url::UrlRules {
            allow: &self.allow_targets,
            own_hosts: &self.public_hosts,
            worker_domain: self.worker_domain.as_deref(),
        }
    }
}

/// `60,300,900` → the waits in seconds; an empty string means no retries.
pub fn parse_schedule(spec: &str) -> Result<Vec<Duration>, String> {
    spec.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<u64>().map(Duration::from_secs).map_err(|_| format!("'{s}' is not whole seconds")))
        .collect()
}

/// Comma-separated host names, lower case, blanks dropped.
pub fn parse_hosts(spec: &str) -> Vec<String> {
    spec.split(',').map(|s| s.trim().to_ascii_lowercase()).filter(|s| !s.is_empty()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_parses_in_seconds() {
        assert_eq!(parse_schedule("60, 300,900").unwrap(), [60, 300, 900].map(Duration::from_secs));
        assert!(parse_schedule("").unwrap().is_empty());
        assert!(parse_schedule("1m").is_err());
        assert_eq!(WebhookSettings::default().retry_schedule.len(), 3);
    }
}
