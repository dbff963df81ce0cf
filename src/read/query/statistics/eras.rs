//! Decade questions: what a decade brought (78) and the cartridges most chambered by the
//! firearms of each decade in a range (84).

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;
use serde_json::value::RawValue;

use super::{CaliberCount, caliber_count, failed};
use crate::read::error::QueryError;
use crate::read::facts::country_text;
use crate::read::rendered::{Rendered, one};
use crate::read::snapshot::Snapshot;
use crate::read::statistics::{decade_label, most_first};

/// What a decade brought lists at most this many firearms (the first by year, then name);
/// `firearmCount` counts all.
pub const ERA_FIREARMS_SHOWN: usize = 100;
/// The caliber popularity by era shows this many cartridges per decade.
pub const CALIBERS_PER_DECADE: usize = 5;

/// What `decade` brought: the firearms introduced in it (the first `ERA_FIREARMS_SHOWN` by year,
/// then name, as list items; `firearmCount` counts all), and how many per category, per country
/// of origin and per cartridge. A decade with none answers zeros. A decade that has firearms is
/// kept answered for the snapshot's life.
pub fn era(snapshot: &Snapshot, decade: i64) -> Result<Rendered, QueryError> {
    let Some(positions) = snapshot.statistics().eras.firearms.get(&decade) else {
        // Not kept: any decade may be asked for, and one with no firearm answers zeros at once.
        return render_era(snapshot, decade, &[]).map_err(failed);
    };
    snapshot
        .read
        .era_answers
        .get_or_render(decade, || render_era(snapshot, decade, positions))
        .map_err(failed)
}

/// For each decade from `from` to `to` (each unbounded when None) that introduced firearms, the
/// `CALIBERS_PER_DECADE` cartridges most chambered by them, most first (ties by cartridge). A
/// range that ends before it starts holds no decade.
pub fn caliber_popularity_by_era(
    snapshot: &Snapshot,
    from: Option<i64>,
    to: Option<i64>,
) -> Result<Rendered, QueryError> {
    let eras = &snapshot.statistics().eras;
    let rows: Vec<DecadeCalibers> = eras
        .firearms
        .iter()
        .filter(|(decade, _)| from.is_none_or(|from| **decade >= from) && to.is_none_or(|to| **decade <= to))
        .map(|(&decade, positions)| DecadeCalibers {
            decade: decade_label(decade),
            firearm_count: positions.len(),
            calibers: calibers_of(snapshot, decade, CALIBERS_PER_DECADE),
        })
        .collect();
    one(rows).map_err(failed)
}

/// The answer of `decade`, whose firearms are at `positions`.
fn render_era(snapshot: &Snapshot, decade: i64, positions: &[usize]) -> serde_json::Result<Rendered> {
    // Counted on the packed facts and the items spliced as rendered: at 100,000 firearms a
    // decade holds thousands, and tallying their records' strings and parsing each shown item
    // back into a value took about 7 ms.
    let catalog = &snapshot.catalog;
    let mut per_category = vec![0; catalog.categories.len()];
    let mut per_country: HashMap<[u8; 2], usize> = HashMap::new();
    for &at in positions {
        let facts = &snapshot.read.facts[at];
        if let Some(category) = facts.category_position() {
            per_category[category] += 1;
        }
        *per_country.entry(facts.country).or_default() += 1;
    }
    let per_country: BTreeMap<&str, usize> =
        per_country.iter().filter_map(|(code, &count)| Some((country_text(code)?, count))).collect();
    let per_category = per_category.into_iter().enumerate().filter(|&(_, count)| count > 0);
    let by_category =
        most_first(per_category.map(|(at, count)| (catalog.categories[at].id.as_str(), count)).collect());
    one(Era {
        decade: decade_label(decade),
        firearm_count: positions.len(),
        by_category: by_category
            .into_iter()
            .map(|(category, count)| CategoryIdCount { category, count })
            .collect(),
        by_country: most_first(per_country)
            .into_iter()
            .map(|(country_code, count)| CountryCount { country_code, count })
            .collect(),
        calibers: calibers_of(snapshot, decade, usize::MAX),
        firearms: positions.iter().take(ERA_FIREARMS_SHOWN).map(|&at| snapshot.read.forms.item(at)).collect(),
    })
}

// What a decade brought (78), in the order of its fields.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = StatsByEra)]
pub struct Era<'a> {
    pub decade: String,
    #[schema(value_type = i64)]
    pub firearm_count: usize,
    pub by_category: Vec<CategoryIdCount<'a>>,
    pub by_country: Vec<CountryCount<'a>>,
    pub calibers: Vec<CaliberCount<'a>>,
    /// The first 100 by year, then name, as list items.
    #[schema(value_type = Vec<crate::read::rendered::shapes::FirearmListItem>)]
    pub firearms: Vec<Box<RawValue>>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct CategoryIdCount<'a> {
    /// The category's id.
    pub category: &'a str,
    #[schema(value_type = i64)]
    pub count: usize,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CountryCount<'a> {
    pub country_code: &'a str,
    #[schema(value_type = i64)]
    pub count: usize,
}

/// The cartridges most chambered by the decade's firearms, most first.
fn calibers_of(snapshot: &Snapshot, decade: i64, top: usize) -> Vec<CaliberCount<'_>> {
    let counted = snapshot.statistics().eras.calibers.get(&decade).map_or(&[][..], Vec::as_slice);
    counted.iter().take(top).map(|&counted| caliber_count(snapshot, counted)).collect()
}

// One decade of the caliber popularity by era.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DecadeCalibers<'a> {
    pub decade: String,
    #[schema(value_type = i64)]
    pub firearm_count: usize,
    /// At most five, most first.
    pub calibers: Vec<CaliberCount<'a>>,
}
