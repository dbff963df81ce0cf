//! The Model Context Protocol server's substance, plain Rust: the JSON-RPC messages it answers
//! (`protocol`) and the tools over the catalog (`tools`), each answered by its REST operation's
//! typed query. `http::mcp` carries it over the streamable HTTP transport at POST /v1/mcp, behind
//! the same API key and gate as every operation.

pub mod protocol;
pub mod tools;
