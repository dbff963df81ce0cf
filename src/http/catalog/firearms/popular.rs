//! GET /v1/popular/firearms (operation 40): the most requested firearm details over the last
//! `days`, counted from real detail requests by every node and read from the shared database
//! (`access::usage`), so two nodes agree once their counts are flushed (every 2 seconds).

use axum::extract::State;
use axum::response::{IntoResponse, Response};

use crate::access::caller::Caller;
use crate::access::paging::Limit;
use crate::http::extract::query::{Declared, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState};
use crate::read::query::popular::{self, PopularFirearms};
use crate::read::views::View;

const DAYS: QueryParam<kind::Int> = QueryParam::new(
    "days",
    kind::Int { min: 1, max: 90 },
    "the window in UTC days, today included (default 30)",
);
const DEFAULT_DAYS: i64 = 30;

pub struct PopularQuery {
    days: Option<i64>,
}

impl QueryParams for PopularQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&DAYS];
    fn read(params: &mut Params) -> Self {
        Self { days: params.get(&DAYS) }
    }
}

crate::query_params_doc!(PopularQuery);

/// The firearms whose detail was requested most over the last `days` UTC days (today included),
/// most first, ties by id; each row is the list item in the caller's plan view with `rank` and
/// `requests`. A firearm the catalog no longer has is left out.
#[utoipa::path(get, path = "/v1/popular/firearms", tag = "Rankings", params(PopularQuery),
    responses((status = 200, body = schemas::One<PopularFirearms>)))]
pub async fn popular(
    State(state): State<AppState>,
    snapshot: CurrentSnapshot,
    caller: Caller,
    Valid(PopularQuery { days }): Valid<PopularQuery>,
    Limit(limit): Limit,
) -> Result<Response, ApiError> {
    let days = days.unwrap_or(DEFAULT_DAYS);
    let first_day = crate::clock::day(crate::clock::now() - time::Duration::days(days - 1));
    // A few more than asked, in case some were dropped from the catalog since.
    let viewed = state.access.usage.most_viewed(&first_day, limit + 10).await?;
    let view = View::of(caller.plan);
    Ok(popular::firearms(&snapshot, &viewed, (days, &first_day), limit, view)?.into_response())
}
