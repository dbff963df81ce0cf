//! The service itself: probes, the public docs reads, maintenance mode, the error envelope,
//! shutdown and the executable.

mod binary;
mod caching;
mod connections;
mod docs;
mod envelope;
mod health;
mod maintenance;
mod metrics;
mod outage;
mod shutdown;
mod tls;
