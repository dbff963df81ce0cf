//! Who may call what, how much and how deep: plans, keys, authentication, limits, paging.

pub mod cache;
pub mod caller;
pub mod gate;
pub mod keys;
pub mod limiter;
pub mod operations;
pub mod paging;
pub mod plan;
pub mod query_string;
pub mod transport;
pub mod usage;
