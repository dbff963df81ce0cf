//! What every answer passes around its handler: the edge (`service`: compression, with
//! large answers kept compressed (`compressed_answers`), the envelope
//! and request id, CORS, body limits, the timeout and panic catcher) and the route layer
//! (`operation`: the access gate, conditional 304s and the replay of idempotent POSTs).

pub mod body_limit;
pub mod compressed_answers;
pub mod compression;
pub mod conditional;
pub mod cors;
pub mod envelope;
pub mod idempotency;
pub mod operation;
pub mod service;
pub mod timeout;
