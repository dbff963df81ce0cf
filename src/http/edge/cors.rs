//! CORS: browsers may call the API from other origins. Keyless operations (and the description,
//! docs and probes) are open to any origin; keyed ones to `ARMORY_CORS_ORIGINS` (any origin by
//! default). No credentials mode: the key travels in a header the page sets, never in a cookie.
//! Preflights are answered here, before the access gate, so they need no key.

use std::convert::Infallible;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderName, HeaderValue, Method, header, request::Parts};
use axum::response::Response;
use tower::{Layer, Service};
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

/// Whether `request` needs the CORS layer: it names an origin, or it is a preflight (the layer
/// answers every OPTIONS itself).
pub fn is_cross_origin(request: &Request) -> bool {
    request.method() == Method::OPTIONS || request.headers().contains_key(header::ORIGIN)
}

/// The headers the CORS layer adds to the answer of a request that is not cross-origin: asked
/// once of the layer itself, so the edge can leave the layer out of the most common request and
/// still answer the same bytes. With no origin and no preflight they depend on nothing in the
/// request (the origin predicate is not consulted).
pub fn headers_without_origin(layer: &CorsLayer) -> Vec<(HeaderName, HeaderValue)> {
    let answered = |_: Request| std::future::ready(Ok::<_, Infallible>(Response::new(Body::empty())));
    let mut probe = layer.layer(tower::service_fn(answered));
    let request = Request::get("/v1/firearms").body(Body::empty()).expect("a valid request");
    let mut future = std::pin::pin!(probe.call(request));
    let Poll::Ready(Ok(response)) = future.as_mut().poll(&mut Context::from_waker(Waker::noop())) else {
        unreachable!("the CORS layer adds its headers to an answer that is ready at once");
    };
    response.headers().iter().map(|(name, value)| (name.clone(), value.clone())).collect()
}

/// Add `headers` (from `headers_without_origin`) as the CORS layer would: Vary beside the values
/// already there, the rest in place of any.
pub fn add_headers_without_origin(response: &mut Response, headers: &[(HeaderName, HeaderValue)]) {
    for (name, value) in headers {
        if name == header::VARY {
            response.headers_mut().append(name, value.clone());
        } else {
            response.headers_mut().insert(name, value.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderMap;

    /// A response with a Vary of its own, so appending is told apart from replacing.
    fn answered() -> Response {
        let mut response = Response::new(Body::empty());
        response.headers_mut().insert(header::VARY, HeaderValue::from_static("x-api-key"));
        response
    }

    /// What the CORS layer itself adds to `answered()` for `request`.
    fn through_layer(layer: &CorsLayer, request: Request) -> HeaderMap {
        let answer = |_: Request| std::future::ready(Ok::<_, Infallible>(answered()));
        let mut cors = layer.layer(tower::service_fn(answer));
        let mut future = std::pin::pin!(cors.call(request));
        let Poll::Ready(Ok(response)) = future.as_mut().poll(&mut Context::from_waker(Waker::noop())) else {
            unreachable!("ready at once");
        };
        response.headers().clone()
    }

    #[test]
    fn the_headers_found_once_are_what_the_layer_adds_to_a_same_origin_request() {
        for allowed in [None, Some(vec!["https://app.example".to_owned()])] {
            let layer = layer(allowed.clone());
            let found = headers_without_origin(&layer);
            for (method, path) in
                [("GET", "/v1/firearms/glock-17"), ("POST", "/v1/me/reports"), ("GET", "/health")]
            {
                let request = Request::builder().method(method).uri(path).body(Body::empty()).unwrap();
                assert!(!is_cross_origin(&request));
                let mut shortcut = answered();
                add_headers_without_origin(&mut shortcut, &found);
                assert_eq!(
                    shortcut.headers(),
                    &through_layer(&layer, request),
                    "{allowed:?} {method} {path}"
                );
            }
        }
        let preflight = Request::builder().method("OPTIONS").uri("/v1/firearms").body(Body::empty()).unwrap();
        assert!(is_cross_origin(&preflight), "every OPTIONS goes through the layer");
    }
}
