//! A generated asset as a response: 304 when the caller's If-None-Match names its ETag, decided
//! before the asset is drawn or read (the spec's rule for asset routes), else the file with its
//! exact content type and strong ETag. Cache-Control comes from the access gate with every
//! keyed answer.

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;
use crate::http::edge::conditional::matches_etag;
use crate::read::query::assets::Located;
use crate::read::rendered::Etag;

/// `located` sent, or 304 without drawing it.
pub fn send(request_headers: &HeaderMap, located: &Located) -> Result<Response, ApiError> {
    if let Some(not_modified) = not_modified(request_headers, &located.etag) {
        return Ok(not_modified);
    }
    let body = located.body()?;
    Ok(file(body, located.content_type, &located.etag))
}

/// The 304 for a caller already holding `etag`.
pub fn not_modified(request_headers: &HeaderMap, etag: &Etag) -> Option<Response> {
    if !matches_etag(request_headers, etag.as_str()) {
        return None;
    }
    let mut response = StatusCode::NOT_MODIFIED.into_response();
    response.headers_mut().insert(header::ETAG, etag_header(etag));
    Some(response)
}

/// A file answer.
pub fn file(body: impl Into<Body>, content_type: &'static str, etag: &Etag) -> Response {
    let mut response = Response::new(body.into());
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::ETAG, etag_header(etag));
    response
}

fn etag_header(etag: &Etag) -> HeaderValue {
    HeaderValue::from_maybe_shared(etag.bytes().clone()).expect("an ETag is a header value")
}
