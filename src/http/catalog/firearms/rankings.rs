//! Rankings of the whole catalog: 11 the superlatives (`top`), 12 two firearms head to head,
//! 18 the power rating, 19 the timeline, each answered by `read::query::rankings`.

use axum::response::{IntoResponse, Response};

use crate::access::caller::Caller;
use crate::access::paging::{Limit, Paging};
use crate::http::ApiError;
use crate::http::extract::query::{Declared, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::extract::snapshot::{CurrentSnapshot, SnapshotWithFigures};
use crate::http::openapi::schemas;
use crate::read::query::rankings;
use crate::read::rankings::{Better, HEAD_TO_HEAD, RANKED_STAT_NAMES, RANKED_STATS, RankedStat};
use crate::read::views::View;

const STAT: QueryParam<kind::OneOf> =
    QueryParam::new("stat", kind::OneOf(RANKED_STAT_NAMES), "what to rank by").required();
const CATEGORY: QueryParam<kind::Slug> =
    QueryParam::new("category", kind::Slug, "only firearms of this category (404 when no category has it)");

pub struct TopQuery {
    stat: String,
    category: Option<String>,
}

impl QueryParams for TopQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&STAT, &CATEGORY];
    fn read(params: &mut Params) -> Self {
        Self { stat: params.get(&STAT).unwrap_or_default(), category: params.get(&CATEGORY) }
    }
}

crate::query_params_doc!(TopQuery);

/// The firearms with the most extreme figure for `stat`, within `category` when given; which
/// end ranks first is read from `RANKED_STATS` (`describe_top`), so the description cannot drift
/// from the answers.
#[utoipa::path(get, path = "/v1/firearms/top", tag = "Rankings", params(TopQuery),
    responses((status = 200, body = schemas::One<rankings::TopFirearms>)),
    description = describe_top())]
pub async fn top(
    snapshot: SnapshotWithFigures,
    caller: Caller,
    Valid(TopQuery { stat, category }): Valid<TopQuery>,
    Limit(limit): Limit,
) -> Result<Response, ApiError> {
    let view = View::of(caller.plan);
    Ok(rankings::top(&snapshot, &stat, category.as_deref(), limit, view)?.into_response())
}

/// `stats` split by the end that wins, each named by `label`: "lower: a, b; higher: c".
fn ends(stats: &[RankedStat], label: fn(&RankedStat) -> String) -> (String, String) {
    let named = |better: Better| {
        stats.iter().filter(|s| s.better == better).map(label).collect::<Vec<_>>().join(", ")
    };
    (named(Better::Lower), named(Better::Higher))
}

/// The description of `/v1/firearms/top`, from the table its answers come from.
pub fn describe_top() -> String {
    let (lowest, highest) = ends(RANKED_STATS, |s| format!("{} ({})", s.name, s.field));
    format!(
        "The firearms with the most extreme figure for `stat`, within `category` when given. \
         Lowest figure first: {lowest}. Highest figure first: {highest}. The answer's `better` says \
         which (`lower` or `higher`) and `field` which detail field was ranked. A firearm whose \
         figure is unknown is never ranked; ties break by name. Each row is the firearm's list item \
         with `rank`, `value` and `unit`."
    )
}

/// The description of `/v1/firearms/head-to-head`, from the table its answers come from.
pub fn describe_head_to_head() -> String {
    let (lower, higher) = ends(HEAD_TO_HEAD, |s| s.field.to_owned());
    format!(
        "Two firearms field by field: each measurable field with both figures, which end wins \
         (`better`) and the winner (`a`, `b`, `tie`, or null when either figure is unknown), and the \
         count of wins. Lower wins: {lower}. Higher wins: {higher}."
    )
}

const A: QueryParam<kind::Slug> = QueryParam::new("a", kind::Slug, "the first firearm's id").required();
const B: QueryParam<kind::Slug> = QueryParam::new("b", kind::Slug, "the second firearm's id").required();

pub struct HeadToHeadQuery {
    a: String,
    b: String,
}

impl QueryParams for HeadToHeadQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&A, &B];
    fn read(params: &mut Params) -> Self {
        Self { a: params.get(&A).unwrap_or_default(), b: params.get(&B).unwrap_or_default() }
    }
}

crate::query_params_doc!(HeadToHeadQuery);

/// Two firearms field by field (`describe_head_to_head`).
#[utoipa::path(get, path = "/v1/firearms/head-to-head", tag = "Rankings", params(HeadToHeadQuery),
    responses((status = 200, body = schemas::One<rankings::HeadToHead>)),
    description = describe_head_to_head())]
pub async fn head_to_head(
    snapshot: CurrentSnapshot,
    Valid(HeadToHeadQuery { a, b }): Valid<HeadToHeadQuery>,
) -> Result<Response, ApiError> {
    Ok(rankings::head_to_head(&snapshot, &a, &b)?.into_response())
}

pub struct CategoryOnlyQuery {
    category: Option<String>,
}

impl QueryParams for CategoryOnlyQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&CATEGORY];
    fn read(params: &mut Params) -> Self {
        Self { category: params.get(&CATEGORY) }
    }
}

crate::query_params_doc!(CategoryOnlyQuery);

/// Firearms by power score, highest first (ties by name), within `category` when given. The score
/// is muzzle energy (J) × √(rate of fire ÷ 60): the firearm's `muzzleEnergyJ`, else its primary
/// cartridge's `typicalMuzzleEnergyJ`; a firearm with no stated rate of fire counts as 60 rounds
/// a minute (the square root of 1); a firearm with no energy at all is not rated. Each row is the
/// list item with `power`: the score and the inputs it used.
#[utoipa::path(get, path = "/v1/firearms/power-rating", tag = "Rankings", params(CategoryOnlyQuery),
    responses((status = 200, body = schemas::Page<schemas::PowerRatedFirearm>)))]
pub async fn power_rating(
    snapshot: SnapshotWithFigures,
    caller: Caller,
    Valid(CategoryOnlyQuery { category }): Valid<CategoryOnlyQuery>,
    paging: Paging,
) -> Result<Response, ApiError> {
    Ok(rankings::power_rating(&snapshot, category.as_deref(), &paging, View::of(caller.plan))?
        .into_response())
}

const FROM: QueryParam<kind::Int> =
    QueryParam::new("from", kind::Int { min: 1000, max: 2100 }, "earliest year introduced");
const TO: QueryParam<kind::Int> =
    QueryParam::new("to", kind::Int { min: 1000, max: 2100 }, "latest year introduced");

pub struct TimelineQuery {
    from: Option<i64>,
    to: Option<i64>,
    category: Option<String>,
}

impl QueryParams for TimelineQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&FROM, &TO, &CATEGORY];
    fn read(params: &mut Params) -> Self {
        Self { from: params.get(&FROM), to: params.get(&TO), category: params.get(&CATEGORY) }
    }
}

crate::query_params_doc!(TimelineQuery);

/// Firearms by year introduced, oldest first (ties by name), between `from` and `to` inclusive
/// and within `category` when given; firearms with no year are left out. A range that ends before
/// it starts is empty.
#[utoipa::path(get, path = "/v1/firearms/timeline", tag = "Rankings", params(TimelineQuery),
    responses((status = 200, body = schemas::Page<schemas::FirearmListRecord>)))]
pub async fn timeline(
    snapshot: CurrentSnapshot,
    caller: Caller,
    Valid(TimelineQuery { from, to, category }): Valid<TimelineQuery>,
    paging: Paging,
) -> Result<Response, ApiError> {
    let view = View::of(caller.plan);
    Ok(rankings::timeline(&snapshot, (from, to), category.as_deref(), &paging, view)?.into_response())
}
