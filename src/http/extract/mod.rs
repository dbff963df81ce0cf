//! What handlers take already checked: path ids (`path`) and query parameters (`query`), each
//! rule written once and published from the same definition.

pub mod path;
pub mod query;
pub mod query_string;
pub mod snapshot;
