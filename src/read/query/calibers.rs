//! Cartridges: the filtered list, a cartridge's firearms, and their lineage (a cartridge's parent
//! chain and family).

use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::access::paging::Paging;
use crate::catalog::model::Caliber;
use crate::read::error::QueryError;
use crate::read::list_index::Filters;
use crate::read::query::firearm_pages::sub_list;
use crate::read::rendered::{Rendered, paged, record_json};
use crate::read::snapshot::Snapshot;
use crate::read::views::View;

/// A caliber's firearms.
pub const CALIBER_FIREARM_ITEM: &[&str] =
    &["id", "name", "manufacturerId", "categoryId", "yearIntroduced", "status", "actionType"];

/// What the caliber list keeps: closed values as the vocabularies spell them.
#[derive(Debug, Clone, Default)]
pub struct CaliberFilter {
    /// One of `CARTRIDGE_TYPES`.
    pub cartridge_type: Option<String>,
    /// One of `PRIMER_TYPES`.
    pub primer_type: Option<String>,
}

/// A page of cartridges by name (reversed when `descending`), filtered, each in `view`.
pub fn list(
    snapshot: &Snapshot,
    filter: &CaliberFilter,
    descending: bool,
    paging: &Paging,
    view: View,
) -> Result<Rendered, QueryError> {
    let all = &snapshot.catalog.calibers;
    let mut calibers: Vec<&Caliber> = snapshot
        .read
        .aggregates
        .calibers_by_name
        .iter()
        .map(|&at| &all[at])
        .filter(|c| filter.cartridge_type.as_ref().is_none_or(|t| c.cartridge_type.as_ref() == Some(t)))
        .filter(|c| filter.primer_type.as_ref().is_none_or(|t| c.primer_type.as_ref() == Some(t)))
        .collect();
    if descending {
        calibers.reverse();
    }
    let (page, pagination) = paging.slice(&calibers);
    let data: Vec<Value> =
        page.iter().map(|c| record_json::caliber_item(c, &snapshot.meta("calibers", &c.id), view)).collect();
    paged(data, pagination).map_err(|e| QueryError::Failed(e.to_string()))
}

/// A page of the firearms chambered for cartridge `id`, by name, each with the fields of
/// `CALIBER_FIREARM_ITEM` (404 for an unknown id).
pub fn firearms(snapshot: &Snapshot, id: &str, paging: &Paging) -> Result<Rendered, QueryError> {
    let (at, _) = snapshot.caliber(id)?;
    let chambered = Filters { caliber: Some(at as u32), ..Filters::default() };
    Ok(sub_list(snapshot, paging, chambered, CALIBER_FIREARM_ITEM))
}

// A cartridge in a lineage.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CaliberLink<'a> {
    id: &'a str,
    name: &'a str,
    parent_cartridge_id: Option<&'a str>,
    year_introduced: Option<i64>,
    cartridge_type: Option<&'a str>,
}

impl<'a> From<&'a Caliber> for CaliberLink<'a> {
    fn from(caliber: &'a Caliber) -> Self {
        Self {
            id: &caliber.id,
            name: &caliber.name,
            parent_cartridge_id: caliber.parent_cartridge_id.as_deref(),
            year_introduced: caliber.year_introduced,
            cartridge_type: caliber.cartridge_type.as_deref(),
        }
    }
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ParentChain<'a> {
    id: &'a str,
    root_id: &'a str,
    /// The cartridge first, then each parent up to the root.
    chain: Vec<CaliberLink<'a>>,
}

/// The cartridge `id`, then its parent, and so on up to the root (404 for an unknown id).
pub fn parent_chain<'a>(snapshot: &'a Snapshot, id: &str) -> Result<ParentChain<'a>, QueryError> {
    let (at, caliber) = snapshot.caliber(id)?;
    let all = &snapshot.catalog.calibers;
    let chain: Vec<CaliberLink> =
        snapshot.read.aggregates.parent_chain(at).into_iter().map(|at| CaliberLink::from(&all[at])).collect();
    let root_id = chain.last().map_or(caliber.id.as_str(), |root| root.id);
    Ok(ParentChain { id: &caliber.id, root_id, chain })
}

#[derive(Serialize, ToSchema)]
pub struct CaliberFamily<'a> {
    caliber: CaliberLink<'a>,
    parent: Option<CaliberLink<'a>>,
    siblings: Vec<CaliberLink<'a>>,
    children: Vec<CaliberLink<'a>>,
}

/// The cartridge `id`, its parent, siblings (same parent) and children, each by name (404 for an
/// unknown id).
pub fn family<'a>(snapshot: &'a Snapshot, id: &str) -> Result<CaliberFamily<'a>, QueryError> {
    let (_, me) = snapshot.caliber(id)?;
    let all = &snapshot.catalog.calibers;
    let by_name = |mut list: Vec<&'a Caliber>| {
        list.sort_by_key(|c| c.name.to_lowercase());
        list.into_iter().map(CaliberLink::from).collect::<Vec<_>>()
    };
    let parent = me
        .parent_cartridge_id
        .as_ref()
        .and_then(|p| snapshot.read.caliber_at.get(p))
        .map(|&at| CaliberLink::from(&all[at]));
    let siblings = match &me.parent_cartridge_id {
        Some(p) => by_name(
            all.iter().filter(|c| c.id != me.id && c.parent_cartridge_id.as_ref() == Some(p)).collect(),
        ),
        None => vec![],
    };
    let children = by_name(all.iter().filter(|c| c.parent_cartridge_id.as_ref() == Some(&me.id)).collect());
    Ok(CaliberFamily { caliber: CaliberLink::from(me), parent, siblings, children })
}
