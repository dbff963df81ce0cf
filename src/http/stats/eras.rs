//! Decade questions: 78 what a decade brought, 84 the cartridges most chambered by the firearms
//! of each decade in a range.

use axum::response::{IntoResponse, Response};

use crate::http::ApiError;
use crate::http::extract::query::{Declared, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::extract::snapshot::SnapshotWithFigures;
use crate::http::openapi::schemas;
use crate::read::query::statistics;

const DECADE: QueryParam<kind::Decade> =
    QueryParam::new("decade", kind::Decade, "a decade, such as 1980s").required();

pub struct EraQuery {
    decade: i64,
}

impl QueryParams for EraQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&DECADE];
    fn read(params: &mut Params) -> Self {
        Self { decade: params.get(&DECADE).unwrap_or_default() }
    }
}

crate::query_params_doc!(EraQuery);

/// What the decade brought: the firearms introduced in it (the first 100 by year, then name, as
/// list items; `firearmCount` counts all), and how many per category, per country of origin and
/// per cartridge. A decade with none answers zeros.
#[utoipa::path(get, path = "/v1/stats/by-era", tag = "Statistics", params(EraQuery),
    responses((status = 200, body = schemas::One<statistics::Era>)))]
pub async fn by_era(
    snapshot: SnapshotWithFigures,
    Valid(query): Valid<EraQuery>,
) -> Result<Response, ApiError> {
    Ok(statistics::era(&snapshot, query.decade)?.into_response())
}

const FROM: QueryParam<kind::Decade> =
    QueryParam::new("from_decade", kind::Decade, "the first decade, such as 1900s (default: the earliest)");
const TO: QueryParam<kind::Decade> =
    QueryParam::new("to_decade", kind::Decade, "the last decade, such as 1990s (default: the latest)");

pub struct EraRangeQuery {
    from: Option<i64>,
    to: Option<i64>,
}

impl QueryParams for EraRangeQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&FROM, &TO];
    fn read(params: &mut Params) -> Self {
        Self { from: params.get(&FROM), to: params.get(&TO) }
    }
}

crate::query_params_doc!(EraRangeQuery);

/// For each decade from `from_decade` to `to_decade` that introduced firearms, the five
/// cartridges most chambered by them, most first (ties by cartridge). A range that ends before it
/// starts holds no decade: the answer is empty.
#[utoipa::path(get, path = "/v1/stats/caliber-popularity-by-era", tag = "Statistics", params(EraRangeQuery),
    responses((status = 200, body = schemas::One<Vec<statistics::DecadeCalibers>>)))]
pub async fn caliber_popularity_by_era(
    snapshot: SnapshotWithFigures,
    Valid(EraRangeQuery { from, to }): Valid<EraRangeQuery>,
) -> Result<Response, ApiError> {
    Ok(statistics::caliber_popularity_by_era(&snapshot, from, to)?.into_response())
}
