//! Full-text search over the firearms (`read::search`).

use crate::access::paging::Paging;
use crate::read::error::QueryError;
use crate::read::query::firearm_pages::{ItemForm, page_with_total};
use crate::read::rendered::Rendered;
use crate::read::snapshot::Snapshot;
use crate::read::views::View;

/// A page of the firearms matching `q`, most relevant first (`descending`: least relevant
/// first), as list items in `view`.
pub fn firearms(
    snapshot: &Snapshot,
    q: &str,
    descending: bool,
    paging: &Paging,
    view: View,
) -> Result<Rendered, QueryError> {
    let index = &snapshot.read.search;
    let failed = |e: tantivy::TantivyError| QueryError::Failed(e.to_string());
    // The page is cut by `page_with_total`; the index returns hits up to its end (all of them
    // for desc).
    let wanted = paging.offset() + paging.per_page as usize;
    let mut hits = index.search(q, 0, wanted).map_err(failed)?;
    if descending {
        hits = index.search(q, 0, hits.total).map_err(failed)?;
        hits.positions.reverse();
    }
    Ok(page_with_total(snapshot, paging, &hits.positions, hits.total, ItemForm::Plan(view)))
}
