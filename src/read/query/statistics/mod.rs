//! Statistics of the whole catalog, figured once per snapshot (`read::statistics`): the figures
//! that take no parameter (kept as they are answered), what each decade brought (`eras`), the
//! most-first lists (`frequencies`) and who adopted what (`adoption`).

mod adoption;
mod eras;
mod frequencies;

use serde::Serialize;

pub use adoption::{
    ADOPTION_FIREARMS_SHOWN, AdoptionByCountry, AdoptionByType, CountryAdoption, NamedFirearm, UserTypeCount,
    adoption_by_country, adoption_by_type,
};
pub use eras::{
    CALIBERS_PER_DECADE, CategoryIdCount, CountryCount, DecadeCalibers, ERA_FIREARMS_SHOWN, Era,
    caliber_popularity_by_era, era,
};
pub use frequencies::{
    ActionTypeShare, ActionTypes, FeatureCount, ManufacturerCount, ManufacturerRef, action_types,
    feature_frequency, popular_calibers, prolific_manufacturers,
};

use crate::read::error::QueryError;
use crate::read::rendered::{Rendered, one};
use crate::read::snapshot::Snapshot;
pub use crate::read::statistics::{
    CategoryCoverage, CategoryFigures, CategoryMeans, ComponentMaterials, DecadeCount, FieldCoverage,
    FigureMean, MaterialCount, StatsFieldCoverage, StatsProductionStatus, StatsSummary, StatusCount,
};

fn failed(error: serde_json::Error) -> QueryError {
    QueryError::Failed(error.to_string())
}

/// Record counts per resource, the catalog revision and the last change to a record.
pub fn summary(snapshot: &Snapshot) -> Result<Rendered, QueryError> {
    let mut summary = snapshot.statistics().summary.clone();
    summary.catalog_revision = snapshot.revision;
    one(summary).map_err(failed)
}

/// Firearms per production status (every status listed, zero included), and those with none.
pub fn production_status(snapshot: &Snapshot) -> &StatsProductionStatus {
    &snapshot.statistics().production_status
}

/// For each optional field of the firearm detail, how many firearms have it filled, and the share
/// of all firearms (0 to 1, four places). A list counts as filled with one item.
pub fn field_coverage(snapshot: &Snapshot) -> &StatsFieldCoverage {
    &snapshot.statistics().field_coverage
}

/// Per category: firearms per decade of introduction (oldest first) and those with no year.
pub fn catalog_coverage(snapshot: &Snapshot) -> &[CategoryCoverage] {
    &snapshot.statistics().catalog_coverage
}

/// Per category: firearms, base models, and the arithmetic mean of empty weight, barrel length,
/// muzzle energy and effective range over the firearms that state each (`count`; the mean is
/// null when none does), rounded to 0.1.
pub fn by_category(snapshot: &Snapshot) -> &[CategoryFigures] {
    &snapshot.statistics().by_category
}

/// Per component (frame, slide, barrel, stock): how many firearms state its material, and each
/// material (compared in lower case) with its count and share of those, most first.
pub fn materials(snapshot: &Snapshot) -> &[ComponentMaterials] {
    &snapshot.statistics().materials
}

// A cartridge and how many firearms chamber it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CaliberCount<'a> {
    #[schema(value_type = crate::read::rendered::shapes::NamedRef)]
    pub caliber: Named<'a>,
    #[schema(value_type = i64)]
    pub firearm_count: usize,
}

/// A record's id and name (described as `NamedRef`).
#[derive(Serialize)]
pub struct Named<'a> {
    pub id: &'a str,
    pub name: &'a str,
}

/// The cartridge at `at` with its count.
fn caliber_count(snapshot: &Snapshot, (at, count): (usize, usize)) -> CaliberCount<'_> {
    let caliber = &snapshot.catalog.calibers[at];
    CaliberCount { caliber: Named { id: &caliber.id, name: &caliber.name }, firearm_count: count }
}
