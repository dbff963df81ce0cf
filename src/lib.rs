//! Armory: a JSON-over-HTTPS catalog of firearm specifications.
//!
//! `main.rs` only calls `cli::main`; everything else lives here so the tests drive the same code.
//! See ARCHITECTURE.md for the module map and the path of a request.

/// mimalloc rather than the system allocator, here rather than in `main.rs` so the tests and the
/// in-process benches run on the allocator the service does: the import, the snapshot build and each
/// request allocate many small short-lived objects, and glibc's malloc spent about a third of an
/// import's time in its free lists (`unlink_chunk`, `malloc_consolidate`); see bench/README.md.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub mod access;
pub mod accounts;
pub mod app;
pub mod build_info;
pub mod catalog;
pub mod cli;
pub mod clock;
pub mod config;
pub mod db;
pub mod error;
pub mod http;
pub mod metrics;
pub mod read;
pub mod sellers;
pub mod shutdown;
pub mod telemetry;
pub mod webhooks;
