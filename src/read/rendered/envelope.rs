//! The catalog's answer format, `{"success":true,"data":...}` with `pagination` on a page, as
//! rendered bodies: every consumer of the read side gets the same bytes and ETag (the HTTP layer
//! sends them as they are, `Rendered::data` gives another consumer the `data` alone).

use serde::Serialize;
use utoipa::ToSchema;

use super::{PageBody, Rendered};
use crate::access::paging::Pagination;

/// `{success: true, data}`: the envelope of every answer that is not a page, and its schema in
/// the description. Typed so `data` is written straight out: `json!` would first turn it into a
/// `Value` tree, parsing back every pre-rendered record (`RawValue`) it holds.
#[derive(Serialize, ToSchema)]
pub struct One<T> {
    /// Always true.
    pub success: bool,
    pub data: T,
}

/// `{success: true, data: [items], pagination}`: the envelope of every page.
#[derive(Serialize, ToSchema)]
pub struct Page<T> {
    /// Always true.
    pub success: bool,
    pub data: Vec<T>,
    pub pagination: Pagination,
}

/// A page's envelope over items of any serialisable form (a slice, an iterator's collection, raw
/// records); `Page<T>` is its description.
#[derive(Serialize)]
struct PageOf<D> {
    success: bool,
    data: D,
    pagination: Pagination,
}

/// `{success: true, data}`.
pub fn one(data: impl Serialize) -> serde_json::Result<Rendered> {
    serde_json::to_vec(&One { success: true, data }).map(Rendered::from_body)
}

/// `{success: true, data, pagination}`.
pub fn paged(data: impl Serialize, pagination: Pagination) -> serde_json::Result<Rendered> {
    serde_json::to_vec(&PageOf { success: true, data, pagination }).map(Rendered::from_body)
}

/// `{success: true, data: [items], pagination}` from items already serialised (the read model's
/// pre-rendered forms), so a page is assembled without re-serialising its records: `write(i,
/// body)` appends item `i` of `count` to the body.
pub fn paged_raw(count: usize, write: impl FnMut(usize, &mut PageBody), pagination: Pagination) -> Rendered {
    let mut body = PageBody::with_capacity(256);
    body.push_str("{\"success\":true,\"data\":");
    write_items(&mut body, count, write);
    body.push_str(",\"pagination\":");
    body.push_str(&serde_json::to_string(&pagination).unwrap_or_else(|_| "null".to_owned()));
    body.push('}');
    body.finish()
}

/// `{success: true, data: {..head, key: [items]}}`: the fields of `head` (a struct), then the
/// items written as `paged_raw` writes them. Items as `RawValue`s were parsed back to be checked,
/// a third of a ranking's time at 100,000 firearms.
pub fn with_items(
    head: &impl Serialize,
    key: &str,
    count: usize,
    write: impl FnMut(usize, &mut PageBody),
) -> serde_json::Result<Rendered> {
    let head = serde_json::to_string(head)?;
    let fields = head.strip_prefix('{').and_then(|h| h.strip_suffix('}')).unwrap_or_default();
    let mut body = PageBody::with_capacity(256);
    body.push_str("{\"success\":true,\"data\":{");
    body.push_str(fields);
    if !fields.is_empty() {
        body.push(',');
    }
    body.push_str(&serde_json::to_string(key)?);
    body.push(':');
    write_items(&mut body, count, write);
    body.push_str("}}");
    Ok(body.finish())
}

/// `[items]` appended to `body`: `write(i, body)` appends item `i` of `count`.
fn write_items(body: &mut PageBody, count: usize, mut write: impl FnMut(usize, &mut PageBody)) {
    body.push('[');
    for i in 0..count {
        if i > 0 {
            body.push(',');
        }
        let before = body.len();
        write(i, body);
        if i == 0 {
            // Items of one page are about one size: one reservation instead of doubling, with
            // half again for items longer than the first and what follows the items (the first
            // item of a search is often its shortest, and growing a 30 KB page copied it whole).
            body.reserve((body.len() - before + 1) * (count - 1) * 3 / 2 + 256);
        }
    }
    body.push(']');
}
