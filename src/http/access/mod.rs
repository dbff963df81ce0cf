//! The access layer's HTTP side: the gate every keyed operation passes (`gate`), the credential
//! and transport read from the request (`credential`, `transport`), and the extractors handing
//! the admitted caller and its paging to handlers (`extractors`). The decisions themselves are
//! plain Rust in `crate::access`.

pub mod credential;
pub mod extractors;
pub mod gate;
pub mod in_process;
pub mod transport;

pub use in_process::InProcessCaller;
