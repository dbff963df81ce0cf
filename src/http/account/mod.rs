//! The account area under /v1/me: favorites, shared collections, usage and webhook endpoints.

pub mod collections;
pub mod favorites;
pub mod usage;
pub mod webhooks;
