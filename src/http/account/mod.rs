//! The account area under /v1/me: favorites, usage and webhook endpoints.

pub mod favorites;
pub mod usage;
pub mod webhooks;
