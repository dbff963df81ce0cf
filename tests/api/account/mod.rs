//! The account area under /v1/me: favorites, collections, data reports, support tickets,
//! idempotent POSTs, webhook endpoints and their deliveries.

mod collections;
mod favorites;
mod idempotency;
mod ownership;
mod reports;
mod retention;
mod support;
pub(crate) mod webhooks;
