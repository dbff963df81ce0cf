//! The success envelope, with an ETag on every answer (see `conditional`).

use axum::http::HeaderMap;
use axum::response::Response;
use serde::Serialize;
use serde_json::json;

use super::conditional::json_with_etag;
use crate::access::paging::Pagination;

/// `{success: true, data}`.
pub fn one(request_headers: &HeaderMap, data: impl Serialize) -> Response {
    json_with_etag(request_headers, &json!({ "success": true, "data": data }))
}

/// `{success: true, data, pagination}`.
pub fn paged(request_headers: &HeaderMap, data: impl Serialize, pagination: Pagination) -> Response {
    json_with_etag(request_headers, &json!({ "success": true, "data": data, "pagination": pagination }))
}
