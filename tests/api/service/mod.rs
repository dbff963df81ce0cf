//! The service itself: probes, the error envelope, shutdown and the executable.

mod binary;
mod caching;
mod connections;
mod envelope;
mod health;
mod metrics;
mod outage;
mod shutdown;
mod tls;
