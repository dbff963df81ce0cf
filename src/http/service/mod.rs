//! The service's own operations: the health probes, the public documentation reads and the live
//! self-checks (`contract`, `samples`, `verification`).

pub mod contract;
pub mod docs;
pub mod health;
pub mod metrics;
pub mod samples;
pub mod verification;
