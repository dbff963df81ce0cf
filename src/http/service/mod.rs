//! The service's own operations: the health probes and the public documentation reads.

pub mod docs;
pub mod health;
pub mod metrics;
