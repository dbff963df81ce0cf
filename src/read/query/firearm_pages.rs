//! Pages of firearms as the read side renders them: positions already filtered and ordered,
//! each written from its pre-rendered form (the plan's, or some of its fields), never parsed.

use serde::Serialize;

use crate::access::paging::Paging;
use crate::read::list_index::Filters;
use crate::read::orders::Sort;
use crate::read::rendered::kept_fields::append_kept;
use crate::read::rendered::{PageBody, Rendered, paged_raw};
use crate::read::snapshot::Snapshot;
use crate::read::views::{FIREARM_LIST_ITEM, View};

/// Which form of each list item a page carries.
pub enum ItemForm<'a> {
    /// The plan's own: the list item for Explorer, the full record from Builder up.
    Plan(View),
    /// Only these fields (the `fields` parameter, or a sub-list's item), from the given form.
    Fields(View, &'a [&'a str]),
}

/// One page of firearms (positions already filtered and ordered) as list items.
pub fn page_of(snapshot: &Snapshot, paging: &Paging, positions: &[usize], form: ItemForm) -> Rendered {
    page_with_total(snapshot, paging, positions, positions.len(), form)
}

/// One page of the firearms `ids` names, in that order, in `view`'s list form; an id the catalog
/// no longer has is left out (an account's favorites).
pub fn page_of_ids(snapshot: &Snapshot, paging: &Paging, ids: &[String], view: View) -> Rendered {
    let positions: Vec<usize> = ids.iter().filter_map(|id| snapshot.firearm_position(id).ok()).collect();
    page_of(snapshot, paging, &positions, ItemForm::Plan(view))
}

/// The summary list items of the firearms `ids` names, in that order; an id the catalog no longer
/// has is left out (a shared collection).
pub fn summary_items(snapshot: &Snapshot, ids: &[String]) -> Vec<Box<serde_json::value::RawValue>> {
    ids.iter()
        .filter_map(|id| snapshot.firearm_position(id).ok())
        .map(|at| snapshot.read.forms.item(at))
        .collect()
}

/// Like `page_of`, for `positions` that hold only the first hits of `total` (a search).
pub fn page_with_total(
    snapshot: &Snapshot,
    paging: &Paging,
    positions: &[usize],
    total: usize,
    form: ItemForm,
) -> Rendered {
    let start = paging.offset().min(positions.len());
    let end = (start + paging.per_page as usize).min(positions.len());
    page_from(snapshot, paging, &positions[start..end], total, form)
}

/// One page already selected (`page`), of `total` matches.
pub fn page_from(
    snapshot: &Snapshot,
    paging: &Paging,
    page: &[usize],
    total: usize,
    form: ItemForm,
) -> Rendered {
    let pagination = paging.pagination(total as u64);
    let forms = &snapshot.read.forms;
    match form {
        ItemForm::Plan(view) => {
            paged_raw(page.len(), |i, body| forms.append_listed(page[i], view, body), pagination)
        }
        ItemForm::Fields(view, fields) => {
            // The list item is a few hundred bytes against a full record's few thousand, and holds
            // the same values: read it when it holds every field kept (a sub-list's always does).
            let view = if fields.iter().all(|field| FIREARM_LIST_ITEM.contains(field)) {
                View::Summary
            } else {
                view
            };
            let keep = |key: &str| key == "id" || fields.contains(&key);
            paged_raw(page.len(), |i, body| append_kept(&forms.listed(page[i], view), keep, body), pagination)
        }
    }
}

/// The list item of the firearm at `at` in the plan's view, with the fields of `extra` (a struct:
/// a rank, a ranked value, a score) added, appended to `body` as JSON text: the pre-rendered item
/// is spliced, never parsed (answer with `rendered::paged_raw` or `rendered::with_items`).
pub fn write_item_with(
    body: &mut PageBody,
    snapshot: &Snapshot,
    view: View,
    at: usize,
    extra: &impl Serialize,
) {
    let item = snapshot.read.forms.listed(at, view);
    let extra = serde_json::to_string(extra).unwrap_or_default();
    let fields = extra.strip_prefix('{').and_then(|e| e.strip_suffix('}')).unwrap_or_default();
    match (item.strip_suffix('}'), fields.is_empty()) {
        (Some(open), false) if open.trim_end() != "{" => {
            body.push_str(open);
            body.push(',');
            body.push_str(fields);
            body.push('}');
        }
        (Some(_), false) => {
            body.push('{');
            body.push_str(fields);
            body.push('}');
        }
        _ => body.push_str(&item),
    }
}

/// Whether the firearm at `at` is in the category at `category` (no category: every firearm).
pub fn in_category(snapshot: &Snapshot, at: usize, category: Option<usize>) -> bool {
    category.is_none_or(|c| usize::from(snapshot.read.facts[at].category) == c)
}

/// A sub-list of firearms (a manufacturer's, a caliber's, a category's: one filter), by name,
/// each item holding `fields`: the page is read off the list index's set of that filter.
pub fn sub_list(snapshot: &Snapshot, paging: &Paging, filters: Filters, fields: &[&str]) -> Rendered {
    let offset = paging.offset();
    let window = offset..offset.saturating_add(paging.per_page as usize);
    let page = snapshot.read.select(&filters, (Sort::Name, false), window);
    page_from(snapshot, paging, &page.positions, page.total, ItemForm::Fields(View::Full, fields))
}
