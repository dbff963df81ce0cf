//! Statistics of the whole catalog, figured once per snapshot (`read::statistics`): the record
//! counts, what each decade brought (`eras`), the most-first lists (`frequencies`) and who
//! adopted what (`adoption`).

mod adoption;
mod eras;
mod frequencies;

use serde::Serialize;
use serde_json::Value;

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

fn failed(error: serde_json::Error) -> QueryError {
    QueryError::Failed(error.to_string())
}

/// Record counts per resource, the catalog revision and the last change to a record.
pub fn summary(snapshot: &Snapshot) -> Result<Rendered, QueryError> {
    let mut data: Value = snapshot.statistics().summary.clone();
    data["catalogRevision"] = Value::from(snapshot.revision);
    one(data).map_err(failed)
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
