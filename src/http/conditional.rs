//! Conditional requests: a strong ETag on every catalog answer and paged page, and 304 for a
//! matching If-None-Match (RFC 9110: weak comparison, lists, `*`).

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use sha2::{Digest, Sha256};

/// A JSON answer with its ETag, or 304 when the caller already holds it.
pub fn json_with_etag(request_headers: &HeaderMap, value: &impl Serialize) -> Response {
    let body = match serde_json::to_vec(value) {
        Ok(body) => body,
        Err(e) => return crate::http::ApiError::internal(e).into_response(),
    };
    let etag = format!("\"{}\"", hex::encode(&Sha256::digest(&body)[..12]));
    let etag_value = HeaderValue::from_str(&etag).expect("hex is a valid header value");
    let mut response = if matches_etag(request_headers, &etag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut response = Response::new(Body::from(body));
        response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
        response
    };
    response.headers_mut().insert(header::ETAG, etag_value);
    response
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
