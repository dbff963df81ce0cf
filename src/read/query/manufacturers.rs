//! Manufacturers: the list by name, and a manufacturer's firearms.

use serde_json::Value;

use crate::access::paging::Paging;
use crate::read::error::QueryError;
use crate::read::list_index::Filters;
use crate::read::query::firearm_pages::sub_list;
use crate::read::rendered::{Rendered, paged};
use crate::read::snapshot::Snapshot;
use crate::read::views::{self, View};

/// A page of manufacturers by name (reversed when `descending`), only those seated in `country`
/// (ISO 3166-1 alpha-2, upper case) when given, each with the fields of `view`.
pub fn list(
    snapshot: &Snapshot,
    country: Option<&str>,
    descending: bool,
    paging: &Paging,
    view: View,
) -> Result<Rendered, QueryError> {
    let all = &snapshot.catalog.manufacturers;
    let mut makers: Vec<_> = snapshot
        .read
        .aggregates
        .manufacturers_by_name
        .iter()
        .map(|&at| &all[at])
        .filter(|m| country.is_none_or(|c| m.country_code.as_deref() == Some(c)))
        .collect();
    if descending {
        makers.reverse();
    }
    let (page, pagination) = paging.slice(&makers);
    let fields = match view {
        View::Summary => views::MANUFACTURER_SUMMARY,
        View::Full => views::MANUFACTURER_FULL,
    };
    let data: Vec<Value> = page
        .iter()
        .map(|m| views::project(&views::with_meta(m, &snapshot.meta("manufacturers", &m.id)), fields))
        .collect();
    paged(data, pagination).map_err(|e| QueryError::Failed(e.to_string()))
}

/// A page of the firearms of manufacturer `id`, by name, each with the fields of
/// `MANUFACTURER_FIREARM_ITEM` (404 for an unknown id).
pub fn firearms(snapshot: &Snapshot, id: &str, paging: &Paging) -> Result<Rendered, QueryError> {
    let (at, _) = snapshot.manufacturer(id)?;
    let made_here = Filters { manufacturer: Some(at as u32), ..Filters::default() };
    Ok(sub_list(snapshot, paging, made_here, views::MANUFACTURER_FIREARM_ITEM))
}
