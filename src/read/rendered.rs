//! A response body rendered once, with its strong ETag, so a read is a lookup and a copy.

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

use crate::http::conditional::matches_etag;

#[derive(Debug, Clone)]
pub struct Rendered {
    pub body: Bytes,
    pub etag: HeaderValue,
}

const ENVELOPE_OPEN: &str = "{\"success\":true,\"data\":";

impl Rendered {
    /// `{"success":true,"data":<data>}` from already-serialised data.
    pub fn envelope(data: &str) -> Self {
        let mut body = String::with_capacity(data.len() + ENVELOPE_OPEN.len() + 1);
        body.push_str(ENVELOPE_OPEN);
        body.push_str(data);
        body.push('}');
        Self::from_body(body.into_bytes())
    }

    /// The `data` of a body made by `envelope`, so it can be nested in another answer.
    pub fn data(&self) -> &str {
        let body = std::str::from_utf8(&self.body).unwrap_or_default();
        body.strip_prefix(ENVELOPE_OPEN).and_then(|rest| rest.strip_suffix('}')).unwrap_or("null")
    }

    pub fn from_body(body: Vec<u8>) -> Self {
        let etag = format!("\"{}\"", hex::encode(&Sha256::digest(&body)[..12]));
        Self {
            body: Bytes::from(body),
            etag: HeaderValue::from_str(&etag).expect("hex is a valid header value"),
        }
    }

    /// The body, or 304 when the caller's If-None-Match already names it.
    pub fn respond(&self, request_headers: &HeaderMap) -> Response {
        let fresh = self.etag.to_str().is_ok_and(|etag| matches_etag(request_headers, etag));
        let mut response = if fresh {
            StatusCode::NOT_MODIFIED.into_response()
        } else {
            let mut response = Response::new(Body::from(self.body.clone()));
            response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
            response
        };
        response.headers_mut().insert(header::ETAG, self.etag.clone());
        response
    }
}
