//! The access layer in front of every keyed operation, in the order of DESIGN.md:
//! credential (401) → plan and account (403) → rate limits (429) → the handler (which validates its
//! parameters and answers 304 when it can) → the day's count and usage, unless the answer was 304.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::Request;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::cache::KeyCache;
use super::caller::{Caller, authenticate};
use super::limiter::Limiter;
use super::operations::{self, Operation};
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

/// The gate around `inner` (what the operation does once admitted), for a request to the route
/// template `route`. A plain function rather than a middleware of its own: the HTTP layer calls it
/// in its one route layer, together with the layers that run inside it.
pub async fn gate<F, Fut>(access: &Arc<Access>, route: &str, request: Request, inner: F) -> Response
where
    F: FnOnce(Request) -> Fut,
    Fut: Future<Output = Response>,
{
    // The router answers HEAD with the GET handler (and drops the body), so HEAD is the GET
    // operation here too: same credential, plan, limits and counting.
    let operation = operations::for_request(request.method(), route);
    crate::telemetry::name_operation(operation.map_or("unlisted", |op| op.name));
    guard(access, operation, route, request, inner).await
}

async fn guard<F, Fut>(
    access: &Arc<Access>,
    operation: Option<&'static Operation>,
    route: &str,
    mut request: Request,
    inner: F,
) -> Response
where
    F: FnOnce(Request) -> Fut,
    Fut: Future<Output = Response>,
{
    let Some(operation) = operation else {
        // Fail closed: a routed path the operations table does not know is a programming error
        // (start-up refuses it); it must never be served without a key.
        tracing::error!(route, method = %request.method(), "a routed operation is missing from the table");
        return ApiError::new(
            Reason::InternalError,
            "The service failed to answer; quote request_id to support.",
        )
        .into_response();
    };
    if operation.min_plan.is_none() {
        let mut response = inner(request).await;
        cache_policy(&mut response, operation, false);
        return response;
    }
    let now = clock::Second::now();
    if let Err(error) = access.transport.check(request.headers(), request.extensions()) {
        let mut response = error.into_response();
        cache_policy(&mut response, operation, true);
        return response;
    }
    let day = now.day;
    let caller = match admit(access, operation, request.headers(), now, &day).await {
        Ok(caller) => caller,
        Err(error) => {
            let mut response = error.into_response();
            cache_policy(&mut response, operation, true);
            return response;
        }
    };
    let subject = caller.subject().into_owned();
    request.extensions_mut().insert(caller);
    let response = inner(request).await;
    if response.status() == StatusCode::NOT_MODIFIED {
        // A 304 spent a per-minute slot but never the day's allowance: return the unit taken.
        if let Err(e) = access.limiter.give_back(&day_key(operation, &subject, &day)).await {
            tracing::warn!(error = %e, "a 304's daily unit was not returned");
        }
    } else {
        access.usage.count(&subject, &day);
    }
    let mut response = response;
    cache_policy(&mut response, operation, true);
    response
}

/// `Cache-Control` and `Vary` of an answer: a keyed answer depends on the plan the key carries, so
/// shared caches must not keep it (`private`) and it varies with the credential headers; every
/// catalog answer carries an ETag, so `no-cache` makes a revalidation cheap (a 304). Keyless
/// answers may be cached by anyone for a minute; probes, draws and errors never.
fn cache_policy(response: &mut Response, operation: &Operation, keyed: bool) {
    use axum::http::{HeaderValue, header};
    let headers = response.headers_mut();
    if keyed {
        headers.append(header::VARY, HeaderValue::from_static("x-api-key, authorization"));
    }
    if headers.contains_key(header::CACHE_CONTROL) {
        return;
    }
    let cacheable = response.status().is_success() || response.status() == StatusCode::NOT_MODIFIED;
    let policy = match (cacheable, keyed, operation.style) {
        (false, _, _) | (_, _, super::operations::Style::Flat) => "no-store",
        (true, true, _) => "private, no-cache",
        (true, false, _) => "public, max-age=60",
    };
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(policy));
}

async fn admit(
    access: &Arc<Access>,
    operation: &Operation,
    headers: &axum::http::HeaderMap,
    now: clock::Second,
    day: &str,
) -> Result<Caller, ApiError> {
    let caller = authenticate(headers, &access.keys, &now.sql)?;
    authorize(operation, &caller)?;
    enforce_limits(access, operation, &caller, now, day).await?;
    Ok(caller)
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
