//! Who may call what, how much and how deep: plans, keys, authentication, limits, paging.

pub mod keys;
pub mod plan;
pub mod operations;
pub mod limiter;
pub mod cache;
pub mod caller;
pub mod paging;
pub mod usage;
pub mod gate;
