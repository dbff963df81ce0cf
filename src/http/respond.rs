//! The success envelope, with an ETag on every answer (see `conditional`).

use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::json;

use crate::access::paging::Pagination;
use crate::http::edge::conditional::json_with_etag;
use crate::read::rendered::Rendered;

/// `{success: true, data}`.
pub fn one(data: impl Serialize) -> Response {
    json_with_etag(&json!({ "success": true, "data": data }))
}

/// `{success: true, data, pagination}`.
pub fn paged(data: impl Serialize, pagination: Pagination) -> Response {
    json_with_etag(&json!({ "success": true, "data": data, "pagination": pagination }))
}

/// `{success: true, data: [items], pagination}` from items already serialised (the read model's
/// pre-rendered forms), so a page is assembled without re-serialising its records.
pub fn paged_raw(items: &[impl AsRef<str>], pagination: Pagination) -> Response {
    let mut body = String::with_capacity(items.iter().map(|i| i.as_ref().len() + 1).sum::<usize>() + 128);
    body.push_str("{\"success\":true,\"data\":[");
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            body.push(',');
        }
        body.push_str(item.as_ref());
    }
    body.push_str("],\"pagination\":");
    body.push_str(&serde_json::to_string(&pagination).unwrap_or_else(|_| "null".to_owned()));
    body.push('}');
    Rendered::from_body(body.into_bytes()).into_response()
}
