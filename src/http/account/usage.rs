//! /v1/me/usage: this month's consumption against the plan's allowance (operation 98).

use axum::extract::State;
use axum::response::Response;
use serde_json::json;

use crate::access::caller::Caller;
use crate::http::extract::query::{Params, QueryParam, QueryParams, Rule, Valid};
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState, respond};

const MONTH: QueryParam = QueryParam::new("month", Rule::Month, "YYYY-MM, default the current UTC month");

pub struct UsageQuery {
    month: Option<String>,
}

impl QueryParams for UsageQuery {
    const PARAMS: &'static [QueryParam] = &[MONTH];
    fn read(params: &mut Params) -> Self {
        Self { month: params.month(&MONTH) }
    }
}

crate::query_params_doc!(UsageQuery);

/// Requests this month and today against the plan's monthly allowance and daily cap, per day.
#[utoipa::path(get, path = "/v1/me/usage", tag = "Account",
    params(UsageQuery),
    responses((status = 200, body = schemas::One<schemas::Usage>)))]
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
    let data = json!({
        "plan": caller.plan.id(),
        "month": { "month": month, "used": used, "allowance": limits.per_month },
        "today": { "date": today, "used": used_today, "cap": limits.per_day },
        "days": days.iter().map(|(date, count)| json!({ "date": date, "count": count })).collect::<Vec<_>>(),
    });
    Ok(respond::one(data))
}
