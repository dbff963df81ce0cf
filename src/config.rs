//! Runtime configuration: every setting has a flag and an `ARMORY_*` variable (see README).

use std::net::SocketAddr;
use std::time::Duration;

#[derive(Debug, Clone)]
pub struct Config {
    pub bind: SocketAddr,
    pub database_url: String,
    /// `ARMORY_ENV`: reported by /health; `development` enables the demo accounts.
    pub environment: String,
    /// How long /ready answers 503 before the listener closes on shutdown, so a load balancer
    /// stops sending new work before connections are refused.
    pub shutdown_drain: Duration,
}

impl Config {
    /// A configuration for tests and tools: loopback, an ephemeral port, no drain delay.
    pub fn for_database(database_url: impl Into<String>) -> Self {
        Self {
            bind: SocketAddr::from(([127, 0, 0, 1], 0)),
            database_url: database_url.into(),
            environment: "test".to_owned(),
            shutdown_drain: Duration::ZERO,
        }
    }
}
