//! The one integration-test binary, grouped as the service is: each module tests one area as a
//! client sees it. `support` holds the harness and the one `on_each_database!` macro.

mod support;

mod access;
mod account;
mod catalog;
mod content;
mod contract;
mod game;
mod mcp;
mod sellers;
mod service;
