//! Middleware every answer passes: the envelope and request id, body limits, conditional 304s,
//! and the replay of idempotent POSTs.

pub mod body_limit;
pub mod compression;
pub mod conditional;
pub mod cors;
pub mod envelope;
pub mod idempotency;
pub mod operation;
pub mod timeout;
