//! The HTTP face of the service, grouped by what each part does:
//! - `catalog`, `account`, `vendor`, `service`, `game`: the handlers, one file per resource family (per operation
//!   where a family is large, as under `catalog::firearms`), holding only their own logic;
//! - `content`: the changelog, its feed, the blog and the notices (keyless);
//! - `access`: the gate of keyed operations and the extractors of the admitted caller and paging;
//! - `extract`: what handlers take already checked (path ids, query parameters);
//! - `error`: `ApiError` as a response;
//! - `edge`: the middleware every answer passes (envelope and request id, body limits, 304s);
//! - `openapi`: the description, bound to the operations table, and its response schemas;
//! - `self_check`: the service calling its own router in process (contract runs, samples);
//! - `routes`: every route in one place; `respond`: the success envelopes; `state`: `AppState`.

pub mod access;
pub mod account;
pub mod asset_file;
pub mod catalog;
pub mod content;
pub mod data;
pub mod edge;
pub mod error;
pub mod extract;
pub mod game;
pub mod image_files;
pub mod mcp;
pub mod openapi;
pub mod respond;
pub mod routes;
pub mod self_check;
pub mod server;
pub mod service;
pub mod state;
pub mod stats;
pub mod tls;
pub mod vendor;

pub use crate::error::{ApiError, Reason};
pub use state::AppState;
