//! Firearms: one's detail, several side by side, and the filtered, sorted list.

use std::collections::HashMap;

use crate::access::paging::Paging;
use crate::catalog::vocabulary::{ACTION_TYPES, FIREARM_STATUSES};
use crate::read::error::QueryError;
use crate::read::facts::{country_bytes, vocabulary_index};
use crate::read::list_index::Filters;
use crate::read::orders::Sort;
use crate::read::query::firearm_pages::{ItemForm, page_from};
use crate::read::rendered::Rendered;
use crate::read::snapshot::Snapshot;
use crate::read::views::{self, View};

/// The firearm `id`'s detail in `view` (404 for an unknown id).
pub fn detail(snapshot: &Snapshot, id: &str, view: View) -> Result<Rendered, QueryError> {
    let at = snapshot.firearm_position(id)?;
    Ok(snapshot.firearm_detail(at, view))
}

/// The details of the firearms `ids` in `view`, as one answer listing them in the order given;
/// every unknown id is named at once.
pub fn compare(snapshot: &Snapshot, ids: &[String], view: View) -> Result<Rendered, QueryError> {
    let missing: Vec<&String> = ids.iter().filter(|id| !snapshot.has_firearm(id)).collect();
    if !missing.is_empty() {
        return Err(QueryError::MissingIds { kind: "firearm", ids: missing.into_iter().cloned().collect() });
    }
    let details = ids.iter().map(|id| detail(snapshot, id, view)).collect::<Result<Vec<_>, _>>()?;
    let details: Vec<&str> = details.iter().map(Rendered::data).collect();
    Ok(Rendered::envelope(&format!("[{}]", details.join(","))))
}

/// What the firearm list keeps: references by id, closed values as the vocabularies spell them,
/// bounds as given (bounds that cross match nothing).
#[derive(Debug, Clone, Default)]
pub struct FirearmFilter {
    pub manufacturer: Option<String>,
    pub caliber: Option<String>,
    pub category: Option<String>,
    /// One of `ACTION_TYPES`.
    pub action: Option<String>,
    /// ISO 3166-1 alpha-2, upper case.
    pub country: Option<String>,
    pub year_min: Option<i64>,
    pub year_max: Option<i64>,
    pub weight_min: Option<f64>,
    pub weight_max: Option<f64>,
    pub barrel_length_min: Option<f64>,
    /// One of `FIREARM_STATUSES`.
    pub status: Option<String>,
    pub has_3d_model: Option<bool>,
}

/// One page of the firearm list.
#[derive(Debug, Clone)]
pub struct ListRequest {
    pub filter: FirearmFilter,
    pub sort: Sort,
    pub descending: bool,
    /// Only these fields of each item (`id` always); Explorer may name only the list item's.
    pub fields: Option<Vec<String>>,
    pub paging: Paging,
    pub view: View,
}

/// A page of firearms, filtered and sorted: Explorer gets the list item (summary set), Builder
/// and up the full record, or the `fields` asked for. A filter naming a record the catalog does
/// not have is `NotFound` naming the filter; firearms without the sort value come last.
pub fn list(snapshot: &Snapshot, request: &ListRequest) -> Result<Rendered, QueryError> {
    fields_for_view(&request.fields, request.view)?;
    let filters = resolve(&request.filter, snapshot)?;
    let read = &snapshot.read;
    let offset = request.paging.offset();
    let window = offset..offset + request.paging.per_page as usize;
    let page =
        read.list.select(&read.facts, &read.orders, &filters, (request.sort, request.descending), window);
    let field_names: Option<Vec<&str>> =
        request.fields.as_ref().map(|f| f.iter().map(String::as_str).collect());
    let form = match &field_names {
        Some(fields) => ItemForm::Fields(request.view, fields),
        None => ItemForm::Plan(request.view),
    };
    Ok(page_from(snapshot, &request.paging, &page.positions, page.total, form))
}

/// The filter's references resolved to positions, 404 naming the parameter of one the catalog
/// does not have.
fn resolve(filter: &FirearmFilter, snapshot: &Snapshot) -> Result<Filters, QueryError> {
    let read = &snapshot.read;
    let reference = |parameter: &'static str, id: &Option<String>, known: &HashMap<String, usize>| {
        let Some(id) = id else { return Ok(None) };
        match known.get(id) {
            Some(&at) => Ok(Some(at)),
            None => Err(QueryError::not_found_in(parameter, id, parameter)),
        }
    };
    Ok(Filters {
        manufacturer: reference("manufacturer", &filter.manufacturer, &read.manufacturer_at)?
            .map(|i| i as u32),
        caliber: reference("caliber", &filter.caliber, &read.caliber_at)?.map(|i| i as u32),
        category: reference("category", &filter.category, &read.category_at)?.map(|i| i as u16),
        action: filter.action.as_deref().map(|a| vocabulary_index(ACTION_TYPES, Some(a))),
        country: filter.country.as_deref().map(|c| country_bytes(Some(c))),
        year_min: filter.year_min.map(|y| y as i32),
        year_max: filter.year_max.map(|y| y as i32),
        weight_min: filter.weight_min.map(|w| w as f32),
        weight_max: filter.weight_max.map(|w| w as f32),
        barrel_length_min: filter.barrel_length_min.map(|b| b as f32),
        status: filter.status.as_deref().map(|s| vocabulary_index(FIREARM_STATUSES, Some(s))),
        has_3d_model: filter.has_3d_model,
    })
}

/// `fields` in this view: the summary view may name only the list item's fields.
fn fields_for_view(fields: &Option<Vec<String>>, view: View) -> Result<(), QueryError> {
    let Some(names) = fields else { return Ok(()) };
    if view == View::Full {
        return Ok(());
    }
    let unavailable: Vec<&str> =
        names.iter().map(String::as_str).filter(|n| !views::FIREARM_LIST_ITEM.contains(n)).collect();
    if unavailable.is_empty() {
        return Ok(());
    }
    Err(QueryError::Invalid {
        field: "fields",
        reason: format!(
            "unavailable on this plan: {}; allowed: {}",
            unavailable.join(", "),
            views::FIREARM_LIST_ITEM.join(", ")
        ),
    })
}
