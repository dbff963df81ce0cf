//! The categories, each with how many firearms it holds.

use serde::Serialize;
use utoipa::ToSchema;

use crate::read::error::QueryError;
use crate::read::snapshot::Snapshot;

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

fn with_count(snapshot: &Snapshot, at: usize) -> CategoryWithCount<'_> {
    let category = &snapshot.catalog.categories[at];
    CategoryWithCount {
        id: &category.id,
        name: &category.name,
        description: category.description.as_deref(),
        firearm_count: snapshot.read.aggregates.firearms_per_category[at] as i64,
    }
}
