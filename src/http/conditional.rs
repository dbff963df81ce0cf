//! Conditional requests: a strong ETag on every catalog answer and paged page, and 304 for a
//! matching If-None-Match (RFC 9110: weak comparison, lists, `*`).

use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::read::rendered::Rendered;

/// A JSON answer with its ETag, or 304 when the caller already holds it.
pub fn json_with_etag(request_headers: &HeaderMap, value: &impl Serialize) -> Response {
    match serde_json::to_vec(value) {
        Ok(body) => Rendered::from_body(body).respond(request_headers),
        Err(e) => crate::http::ApiError::internal(e).into_response(),
    }
}

/// If-None-Match uses the weak comparison: `W/"x"` matches `"x"`.
pub fn matches_etag(request_headers: &HeaderMap, etag: &str) -> bool {
    let opaque = |tag: &str| tag.trim().trim_start_matches("W/").to_owned();
    let current = opaque(etag);
    request_headers.get_all(header::IF_NONE_MATCH).iter().filter_map(|v| v.to_str().ok()).any(|value| {
        value.split(',').any(|candidate| candidate.trim() == "*" || opaque(candidate) == current)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

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
    }
}
