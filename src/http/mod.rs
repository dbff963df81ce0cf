//! The HTTP face of the service: routing, middleware, the error contract and the description.

pub mod ammunition;
pub mod body_limit;
pub mod calibers;
pub mod categories;
pub mod conditional;
pub mod countries;
pub mod docs;
pub mod envelope;
pub mod firearms;
pub mod game_stats;
pub mod health;
pub mod manufacturers;
pub mod me;
pub mod openapi;
pub mod path;
pub mod query;
pub mod respond;
pub mod routes;
pub mod schemas;
pub mod state;
pub mod webhooks;

pub use crate::error::{ApiError, Reason};
pub use state::AppState;
