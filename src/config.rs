//! Runtime configuration: every setting has a flag and an `ARMORY_*` variable (see README).

use std::net::SocketAddr;
use std::time::Duration;

use crate::access::plan::PlanTable;
use crate::webhooks::WebhookSettings;

#[derive(Debug, Clone)]
pub struct Config {
    pub bind: SocketAddr,
    pub database_url: String,
    /// `ARMORY_ENV`: reported by /health; `development` enables the demo accounts.
    pub environment: String,
    /// How long /ready answers 503 before the listener closes on shutdown, so a load balancer
    /// stops sending new work before connections are refused.
    pub shutdown_drain: Duration,
    /// `ARMORY_REDIS_URL`: rate-limit counters shared by every node; in memory when None.
    pub redis_url: Option<String>,
    /// `ARMORY_PUBLIC_URL`: the service's public base URL (`https://api.example.com`), the one
    /// server of the OpenAPI description and the base of every absolute link the service writes.
    /// Without it links are relative; the request's Host header is never echoed.
    pub public_url: Option<String>,
    /// `ARMORY_TLS_CERT` and `ARMORY_TLS_KEY`: serve HTTPS directly (PEM files, reloaded on change).
    pub tls: Option<TlsFiles>,
    /// `ARMORY_TRUSTED_PROXIES`: addresses or CIDRs of reverse proxies whose `X-Forwarded-Proto:
    /// https` is believed (an API key over plain HTTP is refused off loopback otherwise).
    pub trusted_proxies: Vec<String>,
    /// `ARMORY_METRICS_BIND`: a separate listen address serving only /metrics (no credential).
    pub metrics_bind: Option<SocketAddr>,
    /// `ARMORY_METRICS_TOKEN`: /metrics on the main listener behind `Authorization: Bearer`.
    pub metrics_token: Option<String>,
    /// `ARMORY_CORS_ORIGINS`: the origins browsers may call keyed operations from; None: any.
    /// Keyless operations are open to any origin either way.
    pub cors_origins: Option<Vec<String>>,
    /// Connection cap and timeouts of the accept loop, and the request timeout.
    pub connections: ConnectionSettings,
    /// The plan table: decisions.md's defaults with `ARMORY_PLAN_LIMITS` overrides.
    pub plans: PlanTable,
    /// Webhook delivery: allow-list, retry schedule, timeout, the service's own hosts, worker role.
    pub webhooks: WebhookSettings,
    /// `ARMORY_SNAPSHOT_DIR`: where catalog snapshots are persisted and reused from
    /// (`read::persisted`); none, every start builds.
    pub snapshot_dir: Option<std::path::PathBuf>,
}

impl Config {
    /// A configuration for tests and tools: loopback, an ephemeral port, no drain delay.
    pub fn for_database(database_url: impl Into<String>) -> Self {
        Self {
            bind: SocketAddr::from(([127, 0, 0, 1], 0)),
            database_url: database_url.into(),
            environment: "test".to_owned(),
            shutdown_drain: Duration::ZERO,
            redis_url: None,
            public_url: None,
            cors_origins: None,
            tls: None,
            trusted_proxies: Vec::new(),
            metrics_bind: None,
            metrics_token: None,
            connections: ConnectionSettings::default(),
            plans: PlanTable::default(),
            // Tests drive the delivery worker themselves (`Webhooks::run_once`) unless they ask.
            webhooks: WebhookSettings { run_worker: false, ..WebhookSettings::default() },
            snapshot_dir: None,
        }
    }
}

/// The accept loop's connection cap and timeouts and the request timeout (`http::server`),
/// each configurable; the defaults are in the README.
#[derive(Debug, Clone)]
pub struct ConnectionSettings {
    pub max_connections: usize,
    pub header_read_timeout: Duration,
    pub idle_timeout: Duration,
    pub request_timeout: Duration,
    pub shutdown_grace: Duration,
}

impl Default for ConnectionSettings {
    fn default() -> Self {
        Self {
            max_connections: 4096,
            header_read_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            request_timeout: Duration::from_secs(30),
            shutdown_grace: Duration::from_secs(10),
        }
    }
}

/// The PEM certificate chain and private key TLS is served with.
#[derive(Debug, Clone)]
pub struct TlsFiles {
    pub cert: std::path::PathBuf,
    pub key: std::path::PathBuf,
}
