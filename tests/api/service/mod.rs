//! The service itself: probes, maintenance mode, the error envelope,
//! shutdown and the executable.

mod binary;
mod caching;
mod connections;
mod envelope;
mod health;
mod maintenance;
mod metrics;
mod outage;
mod shutdown;
mod tls;
