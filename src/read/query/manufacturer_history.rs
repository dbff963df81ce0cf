//! A manufacturer's output through time: its firearms by year introduced, and its counts by
//! category, status, cartridge and decade.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;
use utoipa::ToSchema;

use crate::catalog::model::{Firearm, Manufacturer};
use crate::read::error::QueryError;
use crate::read::list_index::Filters;
use crate::read::orders::Sort;
use crate::read::rendered::shapes::NamedRef;
use crate::read::snapshot::Snapshot;
use crate::read::statistics::DecadeCount;
use crate::read::statistics::{decade_label, tally};

// A firearm in a manufacturer's timeline.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TimelineFirearm {
    id: String,
    name: String,
    parent_firearm_id: Option<String>,
}

impl From<&Firearm> for TimelineFirearm {
    fn from(firearm: &Firearm) -> Self {
        Self {
            id: firearm.id.clone(),
            name: firearm.name.clone(),
            parent_firearm_id: firearm.parent_firearm_id.clone(),
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct TimelineYear {
    year: i64,
    firearms: Vec<TimelineFirearm>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ManufacturerTimeline {
    manufacturer: NamedRef,
    /// Oldest first.
    years: Vec<TimelineYear>,
    unknown_year: Vec<TimelineFirearm>,
}

/// The firearms of manufacturer `id` grouped by year introduced, oldest first (by name within a
/// year), and those with no year (404 for an unknown id).
pub fn timeline(snapshot: &Snapshot, id: &str) -> Result<ManufacturerTimeline, QueryError> {
    let (at, maker) = snapshot.manufacturer(id)?;
    let mut years: BTreeMap<i64, Vec<TimelineFirearm>> = BTreeMap::new();
    let mut unknown_year = Vec::new();
    for firearm in made_by(snapshot, at) {
        match firearm.year_introduced {
            Some(year) => years.entry(year).or_default().push(TimelineFirearm::from(&*firearm)),
            None => unknown_year.push(TimelineFirearm::from(&*firearm)),
        }
    }
    Ok(ManufacturerTimeline {
        manufacturer: named(maker),
        years: years.into_iter().map(|(year, firearms)| TimelineYear { year, firearms }).collect(),
        unknown_year,
    })
}

#[derive(Serialize, ToSchema)]
pub struct CategoryKeyCount {
    /// The category's id.
    category: String,
    count: i64,
}

#[derive(Serialize, ToSchema)]
pub struct StatusKeyCount {
    /// A production status, or unknown.
    status: String,
    count: i64,
}

#[derive(Serialize, ToSchema)]
pub struct CaliberKeyCount {
    /// The cartridge's id.
    caliber: String,
    count: i64,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ManufacturerStats {
    manufacturer: NamedRef,
    firearm_count: i64,
    base_models: i64,
    by_category: Vec<CategoryKeyCount>,
    by_status: Vec<StatusKeyCount>,
    by_caliber: Vec<CaliberKeyCount>,
    /// Oldest first.
    by_decade: Vec<DecadeCount>,
}

/// The firearms of manufacturer `id` counted by category, production status, cartridge (each one
/// a firearm lists) and decade introduced, most first (decades oldest first); 404 for an unknown
/// id.
pub fn stats(snapshot: &Snapshot, id: &str) -> Result<ManufacturerStats, QueryError> {
    let (at, maker) = snapshot.manufacturer(id)?;
    let firearms = made_by(snapshot, at);
    let counted = |pairs: Vec<(&str, usize)>| -> Vec<(String, i64)> {
        pairs.into_iter().map(|(key, count)| (key.to_owned(), count as i64)).collect()
    };
    let categories = tally(firearms.iter().map(|f| f.category_id.as_str()));
    let statuses = tally(firearms.iter().map(|f| f.status.as_deref().unwrap_or("unknown")));
    let calibers = tally(firearms.iter().flat_map(|f| f.calibers.iter().map(|c| c.caliber_id.as_str())));
    let mut decades: BTreeMap<i64, i64> = BTreeMap::new();
    for year in firearms.iter().filter_map(|f| f.year_introduced) {
        *decades.entry(year - year.rem_euclid(10)).or_default() += 1;
    }
    Ok(ManufacturerStats {
        manufacturer: named(maker),
        firearm_count: firearms.len() as i64,
        base_models: firearms.iter().filter(|f| f.parent_firearm_id.is_none()).count() as i64,
        by_category: counted(categories)
            .into_iter()
            .map(|(category, count)| CategoryKeyCount { category, count })
            .collect(),
        by_status: counted(statuses)
            .into_iter()
            .map(|(status, count)| StatusKeyCount { status, count })
            .collect(),
        by_caliber: counted(calibers)
            .into_iter()
            .map(|(caliber, count)| CaliberKeyCount { caliber, count })
            .collect(),
        by_decade: decades
            .into_iter()
            .map(|(decade, count)| DecadeCount { decade: decade_label(decade), count: count as usize })
            .collect(),
    })
}

/// The maker's firearms, by name (off the list index's set of the maker's firearms).
fn made_by(snapshot: &Snapshot, at: usize) -> Vec<Arc<Firearm>> {
    let filters = Filters { manufacturer: Some(at as u32), ..Filters::default() };
    let made = snapshot.read.select(&filters, (Sort::Name, false), 0..usize::MAX);
    made.positions.into_iter().map(|at| snapshot.catalog.firearms.get(at)).collect()
}

fn named(maker: &Manufacturer) -> NamedRef {
    NamedRef { id: maker.id.clone(), name: maker.name.clone() }
}
