//! The account area under /v1/me: webhook endpoints and their deliveries.

mod collections;
mod favorites;
mod retention;
mod webhooks;
