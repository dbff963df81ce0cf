//! The account area under /v1/me: usage and webhook endpoints.

pub mod usage;
pub mod webhooks;
