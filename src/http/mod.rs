//! The HTTP face of the service: routing, middleware, the error contract and the description.

pub mod body_limit;
pub mod envelope;
pub mod error;
pub mod health;
pub mod openapi;
pub mod reason;
pub mod routes;
pub mod state;

pub use error::ApiError;
pub use reason::Reason;
pub use state::AppState;
