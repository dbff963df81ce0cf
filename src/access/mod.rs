//! Who may call what, how much and how deep: plans, keys, authentication, limits, paging,
//! maintenance mode and the operation catalog, as plain Rust (`http::access` applies them to
//! requests).

pub mod admission;
pub mod cache;
pub mod caller;
pub mod keys;
pub mod limiter;
pub mod maintenance;
pub mod operation_catalog;
pub mod operations;
pub mod paging;
pub mod plan;
pub mod transport;
pub mod usage;
