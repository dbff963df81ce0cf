//! The success envelope as a response, with an ETag on every answer (see `conditional`); the
//! bodies are `read::rendered`'s, so another consumer of the read side gets the same bytes.

use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::access::paging::Pagination;
use crate::error::ApiError;
use crate::read::rendered::{self, PageBody, Rendered};

/// A rendered answer, or the 500 of one that failed to serialise.
fn sent(rendered: serde_json::Result<Rendered>) -> Response {
    match rendered {
        Ok(rendered) => rendered.into_response(),
        Err(e) => ApiError::internal(e).into_response(),
    }
}

/// `{success: true, data}`.
pub fn one(data: impl Serialize) -> Response {
    sent(rendered::one(data))
}

/// `one`'s body, kept to serve again: for an answer that depends on nothing but the snapshot.
pub fn one_kept(data: impl Serialize) -> serde_json::Result<Rendered> {
    rendered::one(data)
}

/// `{success: true, data, pagination}`.
pub fn paged(data: impl Serialize, pagination: Pagination) -> Response {
    sent(rendered::paged(data, pagination))
}

/// `{success: true, data: [items], pagination}` from items already serialised (`rendered::paged_raw`).
pub fn paged_raw(count: usize, write: impl FnMut(usize, &mut PageBody), pagination: Pagination) -> Response {
    rendered::paged_raw(count, write, pagination).into_response()
}

/// `{success: true, data: {..head, key: [items]}}` (`rendered::with_items`).
pub fn one_with_items(
    head: &impl Serialize,
    key: &str,
    count: usize,
    write: impl FnMut(usize, &mut PageBody),
) -> Response {
    sent(rendered::with_items(head, key, count, write))
}
