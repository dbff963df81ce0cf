//! Middleware every answer passes: the envelope and request id, body limits, conditional 304s.

pub mod body_limit;
pub mod conditional;
pub mod envelope;
pub mod timeout;
