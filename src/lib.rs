//! Armory: a JSON-over-HTTPS catalog of firearm specifications.
//!
//! `main.rs` only calls `cli::main`; everything else lives here so the tests drive the same code.
//! See ARCHITECTURE.md for the module map and the path of a request.

pub mod access;
pub mod accounts;
pub mod allocator;
pub mod app;
pub mod assets;
pub mod build_info;
pub mod catalog;
pub mod cli;
pub mod clock;
pub mod compact;
pub mod config;
pub mod db;
pub mod error;
pub mod fast_hash;
pub mod http;
pub mod low_priority;
pub mod mcp;
pub mod metrics;
pub mod read;
pub mod sellers;
pub mod shutdown;
pub mod telemetry;
pub mod webhooks;
pub mod xml;
