//! The access layer's answers as handler arguments: the admitted `Caller` (and the narrower
//! `AccountCaller` and `ShopCaller`), and the `Paging` or `Limit` of the matched operation.

use std::sync::Arc;

use axum::extract::{FromRef, FromRequestParts, MatchedPath};
use axum::http::request::Parts;

use crate::access::admission::Access;
use crate::access::caller::{AccountCaller, Caller, ShopCaller};
use crate::access::operations::{self, Style};
use crate::access::paging::{Limit, Paging};
use crate::error::{ApiError, Reason};
use crate::http::extract::query_string;

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        parts
            .extensions
            .get::<Caller>()
            .cloned()
            .ok_or_else(|| ApiError::internal("a keyed handler ran without the access layer"))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for AccountCaller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let caller = Caller::from_request_parts(parts, state).await?;
        let account_id = caller.account_id.as_deref().map(str::to_owned).ok_or_else(|| {
            ApiError::new(Reason::KeyNotLinkedToAccount, "This key belongs to no user account.")
        })?;
        Ok(Self { account_id, caller })
    }
}

impl<S: Send + Sync> FromRequestParts<S> for ShopCaller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let caller = Caller::from_request_parts(parts, state).await?;
        if caller.shops.is_empty() {
            return Err(ApiError::new(Reason::KeyNotLinkedToShop, "No shop names this key."));
        }
        let shop_ids = caller.shops.iter().map(|shop| shop.shop_id.clone()).collect();
        Ok(Self { shop_ids, caller })
    }
}

impl<S> FromRequestParts<S> for Paging
where
    S: Send + Sync,
    Arc<Access>: FromRef<S>,
{
    type Rejection = ApiError;

    /// Paging for the matched operation, the caller's plan, and the burst guard. A keyless
    /// operation (the changelog, the blog) has no plan: `Paging::parse_public`, and no burst
    /// guard, since there is no key to count a streak against.
    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let access = Arc::<Access>::from_ref(state);
        let path = parts.extensions.get::<MatchedPath>().map(|m| m.as_str().to_owned()).unwrap_or_default();
        let operation = operations::for_request(parts.method.as_str(), &path);
        let Some((number, keyed, Style::Page { default, max })) =
            operation.map(|op| (op.number, op.min_plan.is_some(), op.style))
        else {
            tracing::error!(route = path, "a paged handler on an operation the table does not page");
            return Err(ApiError::new(
                Reason::InternalError,
                "The service failed to answer; quote request_id to support.",
            ));
        };
        let query = query_string::of(parts);
        if !keyed {
            return Paging::parse_public(&query, default, max);
        }
        let caller = Caller::from_request_parts(parts, state).await?;
        let paging = Paging::parse(&query, default, max, access.plans.get(caller.plan))?;
        access.burst.check(&caller.subject(), number, paging.page)?;
        Ok(paging)
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Limit {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        let path = parts.extensions.get::<MatchedPath>().map(|m| m.as_str().to_owned()).unwrap_or_default();
        let operation = operations::for_request(parts.method.as_str(), &path);
        let Some(Style::Limit { default, max }) = operation.map(|op| op.style) else {
            tracing::error!(route = path, "a ranking handler on an operation the table does not rank");
            return Err(ApiError::internal("a ranking handler on an operation without a limit"));
        };
        Limit::parse(&query_string::of(parts), default, max)
    }
}
