//! The service itself: probes, the error envelope, shutdown and the executable.

mod binary;
mod caching;
mod connections;
mod envelope;
mod health;
mod outage;
mod shutdown;
