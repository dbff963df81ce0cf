//! The query API: what the read side answers, as typed calls over one `Snapshot`.
//!
//! Each query takes typed arguments (ids, filters, paging, the plan's view) and returns the
//! rendered answer (the body every consumer gets byte for byte, with its ETag) or a
//! `QueryError`. The HTTP handlers parse a request into these arguments and send the answer;
//! another consumer (a tool server, a page, a test) calls the same functions and never goes
//! through HTTP. Families not yet moved here are still answered from `Snapshot` by their
//! handlers.

pub mod adoption;
pub mod ammunition;
pub mod assets;
pub mod attachments;
pub mod calibers;
pub mod categories;
pub mod content;
pub mod countries;
pub mod dimensions;
pub mod facets;
pub mod firearm_pages;
pub mod firearms;
pub mod game;
pub mod manufacturer_history;
pub mod manufacturers;
pub mod media;
pub mod popular;
pub mod quality;
pub mod random;
pub mod rankings;
pub mod records;
pub mod resolve;
pub mod search;
pub mod similar;
pub mod slices;
pub mod statistics;
pub mod variants;
