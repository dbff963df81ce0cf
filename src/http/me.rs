//! /v1/me/usage: this month's consumption against the plan's allowance (operation 98).

use std::collections::HashMap;

use axum::extract::{Query, State};
use axum::response::Response;
use serde_json::json;

use super::{ApiError, AppState, respond};
use crate::access::caller::Caller;

/// Requests this month and today against the plan's monthly allowance and daily cap, per day.
#[utoipa::path(get, path = "/v1/me/usage", tag = "Account",
    params(("month" = Option<String>, Query, description = "YYYY-MM, default the current UTC month")),
    responses((status = 200, description = "{plan, month: {month, used, allowance}, today: {date, used, cap}, days: [{date, count}]}")))]
pub async fn usage(
    State(state): State<AppState>,
    caller: Caller,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, ApiError> {
    let today = crate::clock::day(crate::clock::now());
    let month = match query.get("month") {
        Some(m) if is_month(m) => m.clone(),
        Some(_) => return Err(ApiError::invalid_parameter("month", "must be YYYY-MM")),
        None => today[..7].to_owned(),
    };
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

fn is_month(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 7
        && bytes[4] == b'-'
        && bytes.iter().enumerate().all(|(i, b)| i == 4 || b.is_ascii_digit())
        && matches!(text[5..].parse::<u8>(), Ok(1..=12))
}
