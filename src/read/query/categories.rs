//! The categories, each with how many firearms it holds, and a category's firearms.

use serde::Serialize;
use utoipa::ToSchema;

use crate::access::paging::Paging;
use crate::read::error::QueryError;
use crate::read::list_index::Filters;
use crate::read::query::firearm_pages::sub_list;
use crate::read::rendered::Rendered;
use crate::read::snapshot::Snapshot;
use crate::read::views::CATEGORY_FIREARM_ITEM;

/// A category with how many firearms it holds.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CategoryWithCount<'a> {
    id: &'a str,
    name: &'a str,
    description: Option<&'a str>,
    firearm_count: i64,
}

/// Every category, in catalog order, with its number of firearms.
pub fn list(snapshot: &Snapshot) -> Vec<CategoryWithCount<'_>> {
    (0..snapshot.catalog.categories.len()).map(|at| with_count(snapshot, at)).collect()
}

/// The category `id` with its number of firearms (404 for an unknown id).
pub fn detail<'a>(snapshot: &'a Snapshot, id: &str) -> Result<CategoryWithCount<'a>, QueryError> {
    let (at, _) = snapshot.category(id)?;
    Ok(with_count(snapshot, at))
}

/// A page of the firearms of category `id`, by name, each with the fields of
/// `CATEGORY_FIREARM_ITEM` (404 for an unknown id).
pub fn firearms(snapshot: &Snapshot, id: &str, paging: &Paging) -> Result<Rendered, QueryError> {
    let (at, _) = snapshot.category(id)?;
    let in_category = Filters { category: Some(at as u16), ..Filters::default() };
    Ok(sub_list(snapshot, paging, in_category, CATEGORY_FIREARM_ITEM))
}

fn with_count(snapshot: &Snapshot, at: usize) -> CategoryWithCount<'_> {
    let category = &snapshot.catalog.categories[at];
    CategoryWithCount {
        id: &category.id,
        name: &category.name,
        description: category.description.as_deref(),
        firearm_count: snapshot.read.aggregates.firearms_per_category[at] as i64,
    }
}
