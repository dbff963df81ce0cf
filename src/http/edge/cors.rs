//! CORS: browsers may call the API from other origins. Keyless operations (and the description,
//! docs and probes) are open to any origin; keyed ones to `ARMORY_CORS_ORIGINS` (any origin by
//! default). No credentials mode: the key travels in a header the page sets, never in a cookie.
//! Preflights are answered here, before the access gate, so they need no key.

use std::time::Duration;

use axum::http::{HeaderName, HeaderValue, Method, header, request::Parts};
use tower_http::cors::{AllowOrigin, CorsLayer};

use crate::access::operations;

pub fn layer(allowed: Option<Vec<String>>) -> CorsLayer {
    let origins = match allowed {
        None => AllowOrigin::any(),
        Some(list) => AllowOrigin::predicate(move |origin: &HeaderValue, parts: &Parts| {
            keyless(parts.uri.path())
                || origin.to_str().is_ok_and(|o| list.iter().any(|allowed| allowed == o))
        }),
    };
    CorsLayer::new()
        .allow_origin(origins)
        .allow_methods([Method::GET, Method::HEAD, Method::POST, Method::PUT, Method::PATCH, Method::DELETE])
        .allow_headers([
            HeaderName::from_static("x-api-key"),
            header::AUTHORIZATION,
            header::CONTENT_TYPE,
            header::IF_NONE_MATCH,
            HeaderName::from_static("x-request-id"),
        ])
        .expose_headers([header::ETAG, header::RETRY_AFTER, HeaderName::from_static("x-request-id")])
        .max_age(Duration::from_secs(600))
}

/// Whether a path is answered without a key: outside /v1, or a keyless row of the table.
fn keyless(path: &str) -> bool {
    !path.starts_with("/v1/") || operations::keyless_template_matches(path)
}
