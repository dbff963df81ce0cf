//! The published contract: the OpenAPI description (bound to the operations table, snapshot) and
//! every answer held to its published schema.

mod examples;
mod layers;
mod openapi;
mod operation_catalog;
mod refusals;
mod schemas;
mod self_check;
mod shapes;
