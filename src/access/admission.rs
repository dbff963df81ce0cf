//! Whether a caller may run an operation now, in the order of DESIGN.md: credential (401), plan
//! and account (403), then the per-minute and daily limits (429). Plain Rust: `http::access::gate`
//! reads the credential from the request and calls `admit`.

use std::sync::Arc;
use std::time::Duration;

use super::cache::KeyCache;
use super::caller::{Caller, authenticate};
use super::limiter::Limiter;
use super::operations::Operation;
use super::paging::BurstGuard;
use super::plan::{Plan, PlanTable};
use super::usage::Usage;
use crate::clock;
use crate::error::{ApiError, Reason};

/// The per-minute limit's sliding window.
const MINUTE: Duration = Duration::from_secs(60);

/// Everything the access layer keeps per node.
pub struct Access {
    pub keys: KeyCache,
    pub limiter: Limiter,
    pub plans: PlanTable,
    pub burst: BurstGuard,
    pub usage: Usage,
    /// Keys only over TLS, or through a trusted proxy's HTTPS.
    pub transport: super::transport::TransportPolicy,
}

/// Admit the caller whose presented key is `key` (or the 401 saying why none was) to `operation`:
/// authenticated, allowed by plan and account, and within its limits (counted here).
pub async fn admit(
    access: &Arc<Access>,
    operation: &Operation,
    key: Result<&str, ApiError>,
    now: clock::Second,
    day: &str,
) -> Result<Caller, ApiError> {
    let caller = authenticate(key?, &access.keys, &now.sql)?;
    authorize(operation, &caller)?;
    enforce_limits(access, operation, &caller, now, day).await?;
    Ok(caller)
}

/// After the answer: a 304 spent a per-minute slot but never the day's allowance, so its daily
/// unit is given back; any other answer is counted in the usage.
pub async fn settle(access: &Access, operation: &Operation, subject: &str, day: &str, not_modified: bool) {
    if operation.is_mcp() {
        return;
    }
    if not_modified {
        if let Err(e) = access.limiter.give_back(&day_key(operation, subject, day)).await {
            tracing::warn!(error = %e, "a 304's daily unit was not returned");
        }
    } else {
        access.usage.count(subject, day);
    }
}

/// One MCP tool call: a unit of the plan's MCP allowance (429 MCP_DAILY_CAP_EXCEEDED, Retry-After
/// until midnight UTC, when spent), then one of its own daily allowance (429 DAILY_CAP_EXCEEDED),
/// counted in the usage like any request. A unit of the first is given back when the second
/// refuses, so a refused call spends nothing.
pub async fn spend_mcp_call(access: &Access, caller: &Caller, now: clock::Second) -> Result<(), ApiError> {
    let limits = access.plans.get(caller.plan);
    let subject = caller.subject();
    let unavailable =
        |e: super::limiter::LimiterUnavailable| ApiError::dependency_unavailable("rate limiter", e);
    let until_midnight = now.until_after_midnight();
    let mcp_key = ["rl:mcp:d:", &subject, ":", &now.day].concat();
    if !access.limiter.take(&mcp_key, limits.mcp_per_day, until_midnight).await.map_err(unavailable)? {
        let wait = 86_400 - now.unix_second.rem_euclid(86_400);
        return Err(ApiError::new(
            Reason::McpDailyCapExceeded,
            format!(
                "The {} plan allows {} MCP tool calls a day; the allowance resets at midnight UTC.",
                limits.plan.name(),
                limits.mcp_per_day
            ),
        )
        .with_retry_after(wait as u64));
    }
    let day_key = ["rl:api:d:", &subject, ":", &now.day].concat();
    if !access.limiter.take(&day_key, limits.per_day, until_midnight).await.map_err(unavailable)? {
        if let Err(e) = access.limiter.give_back(&mcp_key).await {
            tracing::warn!(error = %e, "a refused MCP call's unit was not returned");
        }
        return Err(ApiError::new(
            Reason::DailyCapExceeded,
            format!(
                "The {} plan allows {} requests a day; the allowance resets at midnight UTC.",
                limits.plan.name(),
                limits.per_day
            ),
        )
        .with_retry_after(3600));
    }
    access.usage.count(&subject, &now.day);
    Ok(())
}

fn authorize(operation: &Operation, caller: &Caller) -> Result<(), ApiError> {
    if caller.suspended {
        return Err(ApiError::new(Reason::AccountSuspended, "The account is suspended."));
    }
    if operation.path.starts_with("/v1/me") && caller.account_id.is_none() {
        return Err(ApiError::new(Reason::KeyNotLinkedToAccount, "This key belongs to no user account."));
    }
    if operation.path.starts_with("/v1/vendor") {
        if caller.shops.is_empty() {
            return Err(ApiError::new(Reason::KeyNotLinkedToShop, "No shop names this key."));
        }
        // A shop under review may read its own offers; it may change nothing until approved. This
        // is the early answer for a key with no approved shop at all; the handler checks the one
        // shop a write acts for (`ShopCaller::may_write`).
        if operation.method != "GET" && !caller.shops.iter().any(|shop| shop.approved) {
            return Err(super::caller::shop_under_review());
        }
    }
    let required = operation.min_plan.unwrap_or(Plan::Explorer);
    if caller.plan < required {
        return Err(ApiError::new(
            Reason::PlanRequired,
            format!("This operation needs the {} plan or higher.", required.name()),
        )
        .with_details(
            serde_json::json!({ "requiredTier": required.id(), "currentTier": caller.plan.id() }),
        ));
    }
    Ok(())
}

async fn enforce_limits(
    access: &Access,
    operation: &Operation,
    caller: &Caller,
    now: clock::Second,
    day: &str,
) -> Result<(), ApiError> {
    let limits = access.plans.get(caller.plan);
    let (per_minute, per_day) = if operation.is_webhook() {
        (limits.webhook_per_minute, limits.webhook_per_day)
    } else {
        (limits.per_minute, limits.per_day)
    };
    let subject = caller.subject();
    // Refused, never let through unlimited, while the shared counters are unreachable.
    let unavailable =
        |e: super::limiter::LimiterUnavailable| ApiError::dependency_unavailable("rate limiter", e);
    // Checked and counted in one atomic step each, so concurrent requests cannot pass together.
    let minute_key = ["rl:", bucket(operation), ":m:", &subject].concat();
    if !access.limiter.admit_in_window(&minute_key, per_minute, MINUTE).await.map_err(unavailable)? {
        return Err(ApiError::new(
            Reason::RateLimited,
            format!("The {} plan allows {per_minute} requests a minute.", limits.plan.name()),
        )
        .with_retry_after(60));
    }
    // An MCP request spends the day's allowance only as a tool call, counted by the endpoint.
    if operation.is_mcp() {
        return Ok(());
    }
    let day_key = day_key(operation, &subject, day);
    if !access.limiter.take(&day_key, per_day, now.until_after_midnight()).await.map_err(unavailable)? {
        return Err(ApiError::new(
            Reason::DailyCapExceeded,
            format!(
                "The {} plan allows {per_day} requests a day; the allowance resets at midnight UTC.",
                limits.plan.name()
            ),
        )
        .with_retry_after(3600));
    }
    Ok(())
}

fn bucket(operation: &Operation) -> &'static str {
    if operation.is_webhook() { "webhooks" } else { "api" }
}

/// Concatenated rather than `format!`ed: two keys a request, and the formatting machinery cost
/// more than the counting.
fn day_key(operation: &Operation, subject: &str, day: &str) -> String {
    ["rl:", bucket(operation), ":d:", subject, ":", day].concat()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::access::cache::ShopEntry;
    use crate::access::operations;

    fn caller(plan: Plan, account: bool, shops: Vec<ShopEntry>) -> Caller {
        Caller {
            key_id: "key_1".into(),
            account_id: account.then(|| "acct_1".into()),
            plan,
            suspended: false,
            staff: false,
            shops: shops.into(),
        }
    }

    fn reason(method: &str, path: &str, caller: &Caller) -> Option<Reason> {
        authorize(operations::find(method, path).unwrap(), caller).err().map(|e| e.reason)
    }

    #[test]
    fn a_plan_below_the_tier_names_both_tiers() {
        let error = authorize(
            operations::find("GET", "/v1/firearms/compare").unwrap(),
            &caller(Plan::Explorer, true, vec![]),
        )
        .unwrap_err();
        assert_eq!(error.reason, Reason::PlanRequired);
        let details = error.details.unwrap();
        assert_eq!(
            (details["requiredTier"].as_str(), details["currentTier"].as_str()),
            (Some("builder"), Some("explorer"))
        );
        assert_eq!(reason("GET", "/v1/firearms/compare", &caller(Plan::Builder, true, vec![])), None);
    }

    #[test]
    fn vendor_operations_need_a_shop_and_writes_an_approved_one() {
        let path = "/v1/vendor/shops";
        assert_eq!(
            reason("GET", path, &caller(Plan::Enterprise, true, vec![])),
            Some(Reason::KeyNotLinkedToShop)
        );
        let pending = vec![ShopEntry { shop_id: "shop_1".into(), approved: false }];
        assert_eq!(reason("GET", path, &caller(Plan::Enterprise, true, pending.clone())), None, "reads");
        assert_eq!(
            reason("PUT", "/v1/vendor/offers", &caller(Plan::Enterprise, true, pending)),
            Some(Reason::ShopUnderReview)
        );
        let approved = vec![ShopEntry { shop_id: "shop_1".into(), approved: true }];
        assert_eq!(reason("GET", path, &caller(Plan::Enterprise, true, approved)), None);
    }

    #[test]
    fn suspension_comes_before_the_plan() {
        let mut suspended = caller(Plan::Explorer, true, vec![]);
        suspended.suspended = true;
        assert_eq!(reason("GET", "/v1/firearms/compare", &suspended), Some(Reason::AccountSuspended));
        assert_eq!(
            reason("GET", "/v1/me/usage", &caller(Plan::Studio, false, vec![])),
            Some(Reason::KeyNotLinkedToAccount)
        );
    }
}
