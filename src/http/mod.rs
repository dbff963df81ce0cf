//! The HTTP face of the service: routing, middleware, the error contract and the description.

pub mod ammunition;
pub mod body_limit;
pub mod calibers;
pub mod categories;
pub mod conditional;
pub mod countries;
pub mod docs;
pub mod envelope;
pub mod error;
pub mod firearms;
pub mod game_stats;
pub mod health;
pub mod manufacturers;
pub mod me;
pub mod openapi;
pub mod query;
pub mod reason;
pub mod respond;
pub mod routes;
pub mod schemas;
pub mod state;
pub mod views;
pub mod webhooks;

pub use error::ApiError;
pub use reason::Reason;
pub use state::AppState;
