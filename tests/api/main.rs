//! The one integration-test binary. Each module tests one area as a client sees it.

mod support;

mod access;
mod accounts;
mod binary;
mod catalog;
mod contract;
mod envelope;
mod firearms_read;
mod head;
mod health;
mod json_schema;
mod limits;
mod openapi;
mod read_contract;
mod reference_read;
mod shutdown;
mod webhooks;
