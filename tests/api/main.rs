//! The one integration-test binary. Each module tests one area as a client sees it.

mod support;

mod access;
mod accounts;
mod binary;
mod catalog;
mod envelope;
mod health;
mod openapi;
mod shutdown;
mod webhooks;
