//! Conditional requests, answered in one layer: every catalog answer and paged page carries a
//! strong ETag (handlers return a `Rendered` body or go through `respond`), and
//! `answer_not_modified` turns a 2xx whose ETag the caller's If-None-Match already names into a
//! 304 (RFC 9110: weak comparison, lists, `*`). It runs inside the access gate, so a 304 still
//! passed the credential, plan and limits, and the gate sees the 304 it must not count.
//!
//! The 304 repeats the validator the 200 for the same request would carry (RFC 9110 15.4.5): when
//! the compression layer outside would have encoded that 200, its ETag names the coding
//! (`"abc-br"`), so the 304 names it too and a cache can match it to the response it stored.

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use super::compression;
use crate::error::ApiError;
use crate::read::rendered::Rendered;

/// Headers a catalog answer leaves with.
const ANSWER_HEADERS: usize = 12;

/// A JSON answer with its ETag.
pub fn json_with_etag(value: &impl Serialize) -> Response {
    match serde_json::to_vec(value) {
        Ok(body) => Rendered::from_body(body).into_response(),
        Err(e) => ApiError::internal(e).into_response(),
    }
}

impl IntoResponse for &Rendered {
    fn into_response(self) -> Response {
        let mut response = Response::new(Body::from(self.body.clone()));
        let headers = response.headers_mut();
        // Room for what the layers outside add (Vary, Cache-Control, CORS, request id), so the
        // map is not grown and rehashed on the way out.
        headers.reserve(ANSWER_HEADERS);
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
        let etag =
            HeaderValue::from_maybe_shared(self.etag.bytes().clone()).expect("an ETag is a header value");
        headers.insert(header::ETAG, etag);
        response
    }
}

/// Around the handler (`inner`): 304 with the ETag, and no body, when the caller already holds the
/// answer. Part of the one route layer, `operation`.
pub async fn answer_not_modified<F, Fut>(request: Request, inner: F) -> Response
where
    F: FnOnce(Request) -> Fut,
    Fut: Future<Output = Response>,
{
    let asked = request.headers().contains_key(header::IF_NONE_MATCH).then(|| request.headers().clone());
    let response = inner(request).await;
    let Some(request_headers) = asked else { return response };
    if !response.status().is_success() {
        return response;
    }
    let Some(etag) = response.headers().get(header::ETAG).and_then(|v| v.to_str().ok()) else {
        return response;
    };
    if !matches_etag(&request_headers, etag) {
        return response;
    }
    let mut not_modified = StatusCode::NOT_MODIFIED.into_response();
    for name in [header::CACHE_CONTROL, header::VARY] {
        if let Some(value) = response.headers().get(&name) {
            not_modified.headers_mut().insert(name, value.clone());
        }
    }
    let current = response.headers()[header::ETAG].clone();
    let etag = match compression::coding_for(&request_headers, &response) {
        Some(coding) => compression::encoded_etag(&current, coding).unwrap_or(current),
        None => current,
    };
    not_modified.headers_mut().insert(header::ETAG, etag);
    not_modified
}

/// If-None-Match uses the weak comparison: `W/"x"` matches `"x"`.
pub fn matches_etag(request_headers: &HeaderMap, etag: &str) -> bool {
    // The compression layer tags an encoded answer's ETag with its encoding; the representation
    // a client holds is still the same resource version, so the suffix is ignored here.
    let opaque = |tag: &str| {
        let tag = tag.trim().trim_start_matches("W/");
        let bare = tag.strip_suffix('"').unwrap_or(tag);
        let bare = compression::ENCODING_SUFFIXES.iter().find_map(|s| bare.strip_suffix(s)).unwrap_or(bare);
        bare.trim_start_matches('"').to_owned()
    };
    let current = opaque(etag);
    request_headers.get_all(header::IF_NONE_MATCH).iter().filter_map(|v| v.to_str().ok()).any(|value| {
        value.split(',').any(|candidate| candidate.trim() == "*" || opaque(candidate) == current)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::IF_NONE_MATCH, HeaderValue::from_str(value).unwrap());
        headers
    }

    #[test]
    fn weak_lists_and_star_match() {
        assert!(matches_etag(&headers("\"abc\""), "\"abc\""));
        assert!(matches_etag(&headers("W/\"abc\""), "\"abc\""));
        assert!(matches_etag(&headers("\"x\", W/\"abc\""), "\"abc\""));
        assert!(matches_etag(&headers("*"), "\"abc\""));
        assert!(!matches_etag(&headers("\"abd\""), "\"abc\""));
        assert!(!matches_etag(&HeaderMap::new(), "\"abc\""));
        assert!(matches_etag(&headers("\"abc-gzip\""), "\"abc\""), "an encoded form revalidates");
        assert!(matches_etag(&headers("W/\"abc-br\""), "\"abc\""));
    }
}
