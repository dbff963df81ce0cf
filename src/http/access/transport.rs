//! Keys travel only over TLS (spec, Authentication rule 2): a request that carries a credential
//! in the clear is refused before the key is even looked up, unless `TransportPolicy` allows it
//! (a trusted proxy's HTTPS, or a local tool on loopback).

use std::net::SocketAddr;

use axum::http::{Extensions, HeaderMap};

use crate::access::transport::TransportPolicy;
use crate::error::{ApiError, Reason};

/// How a request reached the server, set by the accept loop on every request: one extension
/// rather than axum's `ConnectInfo` beside a flag, as nothing else reads the peer's address.
#[derive(Debug, Clone, Copy)]
pub struct Transport {
    pub tls: bool,
    pub remote: SocketAddr,
}

/// Refuse a credential sent in the clear where the policy does not allow it.
pub fn check_transport(
    policy: &TransportPolicy,
    headers: &HeaderMap,
    extensions: &Extensions,
) -> Result<(), ApiError> {
    let carries_key = headers.contains_key("x-api-key") || headers.contains_key("authorization");
    // A request the accept loop did not see (an in-process test's) has no transport to refuse.
    let Some(&Transport { tls, remote }) = extensions.get::<Transport>() else {
        return Ok(());
    };
    let forwarded_proto = headers.get("x-forwarded-proto").and_then(|v| v.to_str().ok());
    if !carries_key || policy.allows_key(tls, remote, forwarded_proto) {
        return Ok(());
    }
    Err(ApiError::new(
        Reason::ActionNotAllowed,
        "API keys are accepted only over HTTPS: use HTTPS, sending this request to the https:// address (the key was not checked; treat it as exposed).",
    ))
}
