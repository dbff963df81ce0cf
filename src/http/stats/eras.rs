//! Decade questions: 78 what a decade brought, 84 the cartridges most chambered by the firearms
//! of each decade in a range.

use std::collections::{BTreeMap, HashMap};

use axum::response::{IntoResponse, Response};
use serde_json::value::RawValue;
use serde_json::{Value, json};

use crate::http::extract::query::{Params, QueryParam, QueryParams, Rule, Valid};
use crate::http::extract::snapshot::SnapshotWithFigures;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};
use crate::read::facts::country_text;
use crate::read::rendered::Rendered;
use crate::read::statistics::{decade_label, most_first};

/// 78 lists at most this many firearms (the first by year, then name); `firearmCount` counts all.
pub const ERA_FIREARMS_SHOWN: usize = 100;
/// 84 shows this many cartridges per decade.
pub const CALIBERS_PER_DECADE: usize = 5;

const DECADE: QueryParam = QueryParam::new("decade", Rule::Decade, "a decade, such as 1980s").required();

pub struct EraQuery {
    decade: i64,
}

impl QueryParams for EraQuery {
    const PARAMS: &'static [QueryParam] = &[DECADE];
    fn read(params: &mut Params) -> Self {
        Self { decade: params.decade(&DECADE).unwrap_or_default() }
    }
}

crate::query_params_doc!(EraQuery);

/// What the decade brought: the firearms introduced in it (the first 100 by year, then name, as
/// list items; `firearmCount` counts all), and how many per category, per country of origin and
/// per cartridge. A decade with none answers zeros.
#[utoipa::path(get, path = "/v1/stats/by-era", tag = "Statistics", params(EraQuery),
    responses((status = 200, body = schemas::StatsByEraResponse)))]
pub async fn by_era(
    snapshot: SnapshotWithFigures,
    Valid(query): Valid<EraQuery>,
) -> Result<Response, ApiError> {
    let decade = query.decade;
    let Some(positions) = snapshot.statistics().eras.firearms.get(&decade) else {
        // Not kept: any decade may be asked for, and one with no firearm answers zeros at once.
        return era(&snapshot, decade, &[]).map(|era| era.into_response()).map_err(ApiError::internal);
    };
    let kept = snapshot.era_answer(decade, || era(&snapshot, decade, positions));
    kept.map(|era| era.into_response()).map_err(ApiError::internal)
}

/// The answer of `decade`, whose firearms are at `positions`.
fn era(snapshot: &SnapshotWithFigures, decade: i64, positions: &[usize]) -> serde_json::Result<Rendered> {
    // Counted on the packed facts and the items spliced as rendered: at 100,000 firearms a
    // decade holds thousands, and tallying their records' strings and parsing each shown item
    // back into a value took about 7 ms.
    let catalog = &snapshot.catalog;
    let mut per_category = vec![0; catalog.categories.len()];
    let mut per_country: HashMap<[u8; 2], usize> = HashMap::new();
    for &at in positions {
        let facts = &snapshot.facts()[at];
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
    respond::one_kept(Era {
        decade: decade_label(decade),
        firearm_count: positions.len(),
        by_category: by_category
            .into_iter()
            .map(|(category, count)| CategoryCount { category, count })
            .collect(),
        by_country: most_first(per_country)
            .into_iter()
            .map(|(country_code, count)| CountryCount { country_code, count })
            .collect(),
        calibers: calibers_of(snapshot, decade, usize::MAX),
        firearms: positions.iter().take(ERA_FIREARMS_SHOWN).map(|&at| snapshot.list_item(at)).collect(),
    })
}

/// What a decade brought (78), in the order of its fields.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Era<'a> {
    decade: String,
    firearm_count: usize,
    by_category: Vec<CategoryCount<'a>>,
    by_country: Vec<CountryCount<'a>>,
    calibers: Vec<Value>,
    firearms: Vec<Box<RawValue>>,
}

#[derive(serde::Serialize)]
struct CategoryCount<'a> {
    category: &'a str,
    count: usize,
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct CountryCount<'a> {
    country_code: &'a str,
    count: usize,
}

/// The cartridges most chambered by the decade's firearms, most first.
fn calibers_of(snapshot: &SnapshotWithFigures, decade: i64, top: usize) -> Vec<Value> {
    let counted = snapshot.statistics().eras.calibers.get(&decade).map_or(&[][..], Vec::as_slice);
    counted
        .iter()
        .take(top)
        .map(|&(at, count)| {
            let caliber = &snapshot.catalog.calibers[at];
            json!({ "caliber": { "id": caliber.id, "name": caliber.name }, "firearmCount": count })
        })
        .collect()
}

const FROM: QueryParam =
    QueryParam::new("from_decade", Rule::Decade, "the first decade, such as 1900s (default: the earliest)");
const TO: QueryParam =
    QueryParam::new("to_decade", Rule::Decade, "the last decade, such as 1990s (default: the latest)");

pub struct EraRangeQuery {
    from: Option<i64>,
    to: Option<i64>,
}

impl QueryParams for EraRangeQuery {
    const PARAMS: &'static [QueryParam] = &[FROM, TO];
    fn read(params: &mut Params) -> Self {
        Self { from: params.decade(&FROM), to: params.decade(&TO) }
    }
}

crate::query_params_doc!(EraRangeQuery);

/// For each decade from `from_decade` to `to_decade` that introduced firearms, the five
/// cartridges most chambered by them, most first (ties by cartridge). A range that ends before it
/// starts holds no decade: the answer is empty.
#[utoipa::path(get, path = "/v1/stats/caliber-popularity-by-era", tag = "Statistics", params(EraRangeQuery),
    responses((status = 200, body = schemas::StatsCaliberPopularityByEraResponse)))]
pub async fn caliber_popularity_by_era(
    snapshot: SnapshotWithFigures,
    Valid(EraRangeQuery { from, to }): Valid<EraRangeQuery>,
) -> Result<Response, ApiError> {
    let eras = &snapshot.statistics().eras;
    let rows: Vec<Value> = eras
        .firearms
        .iter()
        .filter(|(decade, _)| from.is_none_or(|from| **decade >= from) && to.is_none_or(|to| **decade <= to))
        .map(|(&decade, positions)| {
            json!({
                "decade": decade_label(decade),
                "firearmCount": positions.len(),
                "calibers": calibers_of(&snapshot, decade, CALIBERS_PER_DECADE),
            })
        })
        .collect();
    Ok(respond::one(rows))
}
