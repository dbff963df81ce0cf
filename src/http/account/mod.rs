//! The account area under /v1/me: favorites, shared collections, data reports, support tickets,
//! usage and webhook endpoints; `body` reads their JSON bodies field by field.

pub mod body;
pub mod collections;
pub mod favorites;
pub mod reports;
pub mod support;
pub mod usage;
pub mod webhooks;
