//! /v1/me/usage: this month's consumption against the plan's allowance (operation 98).

use axum::extract::State;
use axum::response::Response;
use serde::Serialize;
use utoipa::ToSchema;

use crate::access::caller::Caller;
use crate::http::extract::query::{Declared, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState, respond};

const MONTH: QueryParam<kind::Month> =
    QueryParam::new("month", kind::Month, "YYYY-MM, default the current UTC month");

pub struct UsageQuery {
    month: Option<String>,
}

impl QueryParams for UsageQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&MONTH];
    fn read(params: &mut Params) -> Self {
        Self { month: params.get(&MONTH) }
    }
}

crate::query_params_doc!(UsageQuery);

#[derive(Serialize, ToSchema)]
pub struct Usage {
    /// explorer, builder, studio, enterprise
    plan: &'static str,
    month: UsageMonth,
    today: UsageToday,
    days: Vec<UsageDay>,
}

/// This month's requests against the monthly allowance.
#[derive(Serialize, ToSchema)]
pub struct UsageMonth {
    /// YYYY-MM
    month: String,
    used: i64,
    #[schema(value_type = i64)]
    allowance: u64,
}

/// Today's requests against the daily cap (UTC).
#[derive(Serialize, ToSchema)]
pub struct UsageToday {
    /// YYYY-MM-DD
    date: String,
    used: i64,
    #[schema(value_type = i64)]
    cap: u64,
}

#[derive(Serialize, ToSchema)]
pub struct UsageDay {
    date: String,
    count: i64,
}

/// Requests this month and today against the plan's monthly allowance and daily cap, per day.
#[utoipa::path(get, path = "/v1/me/usage", tag = "Account",
    params(UsageQuery),
    responses((status = 200, body = schemas::One<Usage>)))]
pub async fn usage(
    State(state): State<AppState>,
    caller: Caller,
    Valid(UsageQuery { month }): Valid<UsageQuery>,
) -> Result<Response, ApiError> {
    let today = crate::clock::day(crate::clock::now());
    let month = month.unwrap_or_else(|| today[..7].to_owned());
    let days = state.access.usage.month(&caller.subject(), &month).await?;
    let used: i64 = days.iter().map(|(_, n)| n).sum();
    let used_today = days.iter().find(|(day, _)| *day == today).map_or(0, |(_, n)| *n);
    let limits = state.access.plans.get(caller.plan);
    Ok(respond::one(Usage {
        plan: caller.plan.id(),
        month: UsageMonth { month, used, allowance: limits.per_month },
        today: UsageToday { date: today, used: used_today, cap: limits.per_day },
        days: days.into_iter().map(|(date, count)| UsageDay { date, count }).collect(),
    }))
}
