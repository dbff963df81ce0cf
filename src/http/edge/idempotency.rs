//! `Idempotency-Key` on the account area's POSTs (every POST under /v1/me, webhooks included), as
//! Stripe does it: the same caller, key and request within 24 hours get the first answer again
//! (status and body, marked `Idempotent-Replayed: true`) without a second write; the same key with
//! a different request is 409 CONFLICT. Only successful answers are kept: a refused request (a 400,
//! a 404, a 429) releases its key, so the corrected retry runs. Concurrent duplicates wait for the
//! first one's answer. Storage and the claim are `accounts::idempotency`.
//!
//! Runs inside the access gate: the caller is known, and a replay spends a request like any other.

use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::{HeaderName, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures_util::future::{BoxFuture, Either};
use sha2::{Digest, Sha256};

use crate::access::caller::Caller;
use crate::accounts::idempotency::{self, Claim, Stored};
use crate::db::Db;
use crate::error::{ApiError, MAX_JSON_BODY_BYTES, Reason};

pub static IDEMPOTENCY_KEY: HeaderName = HeaderName::from_static("idempotency-key");
pub static REPLAYED: HeaderName = HeaderName::from_static("idempotent-replayed");
/// The longest key taken (Stripe's bound).
pub const MAX_KEY_CHARS: usize = 255;
/// The key's published pattern: visible ASCII, no spaces.
pub const KEY_PATTERN: &str = "^[\\x21-\\x7E]{1,255}$";
/// How long a duplicate waits for the first request's answer before it is told to retry.
const WAIT_FOR_FIRST: Duration = Duration::from_secs(10);
const POLL_EVERY: Duration = Duration::from_millis(20);

/// Whether an operation (by method and path template) honours `Idempotency-Key`.
pub fn applies_to(method: &str, path: &str) -> bool {
    method.eq_ignore_ascii_case("POST") && path.starts_with("/v1/me/")
}

/// Around the handler (`inner`), inside the gate; part of the one route layer, `operation`.
///
/// A request that names no idempotency key runs `inner` as it is; only a keyed POST pays for the
/// boxed future that holds the database round trips. Unboxed, those states sized every request's
/// future at kilobytes, copied as each layer moved it.
pub fn replay_or_record<'a, F, Fut>(
    db: &'a Db,
    request: Request,
    inner: F,
) -> Either<Fut, BoxFuture<'a, Response>>
where
    F: FnOnce(Request) -> Fut + Send + 'a,
    Fut: Future<Output = Response> + Send + 'a,
{
    let keyed = request.method() == Method::POST
        && applies_to("POST", request.uri().path())
        && request.headers().contains_key(&IDEMPOTENCY_KEY);
    if keyed { Either::Right(Box::pin(record(db, request, inner))) } else { Either::Left(inner(request)) }
}

/// A keyed POST: replayed, refused, or served and its answer recorded.
async fn record<F, Fut>(db: &Db, request: Request, inner: F) -> Response
where
    F: FnOnce(Request) -> Fut,
    Fut: Future<Output = Response>,
{
    let Some(raw_key) = request.headers().get(&IDEMPOTENCY_KEY) else {
        return inner(request).await;
    };
    let Some(key) = raw_key.to_str().ok().filter(|key| is_key(key)).map(str::to_owned) else {
        return ApiError::invalid_parameter(
            "Idempotency-Key",
            format!("must be 1 to {MAX_KEY_CHARS} visible ASCII characters"),
        )
        .into_response();
    };
    let Some(subject) = request.extensions().get::<Caller>().map(|caller| caller.subject().into_owned())
    else {
        return inner(request).await;
    };
    let (parts, body) = request.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_JSON_BODY_BYTES as usize).await else {
        return ApiError::payload_too_large().into_response();
    };
    let fingerprint = fingerprint(parts.method.as_str(), parts.uri.path(), &bytes);

    let waited_since = tokio::time::Instant::now();
    loop {
        let claim = match idempotency::claim(db, &subject, &key, &fingerprint).await {
            Ok(claim) => claim,
            Err(error) => return ApiError::dependency_unavailable("database", error).into_response(),
        };
        match claim {
            Claim::Claimed => break,
            Claim::Replay(stored) => return replay(stored),
            Claim::Mismatch => {
                return ApiError::new(
                    Reason::Conflict,
                    "This Idempotency-Key was used for a different request; use a new key.",
                )
                .with_detail("Idempotency-Key", key)
                .into_response();
            }
            Claim::InFlight if waited_since.elapsed() >= WAIT_FOR_FIRST => {
                return ApiError::new(
                    Reason::Conflict,
                    "A request with this Idempotency-Key is still being served; retry shortly.",
                )
                .into_response();
            }
            Claim::InFlight => tokio::time::sleep(POLL_EVERY).await,
        }
    }

    let response = inner(Request::from_parts(parts, Body::from(bytes))).await;
    if !response.status().is_success() {
        // Nothing was written that a retry must not repeat; give the key back. Should this fail,
        // the key stays claimed without an answer, and a duplicate is told to retry later.
        let _ = idempotency::release(db, &subject, &key).await;
        return response;
    }
    let (parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, usize::MAX).await else {
        let _ = idempotency::release(db, &subject, &key).await;
        return ApiError::internal("the answer could not be read back").into_response();
    };
    let stored = Stored { status: parts.status.as_u16(), body: String::from_utf8_lossy(&bytes).into_owned() };
    if let Err(error) = idempotency::complete(db, &subject, &key, &stored).await {
        // The write happened; the client gets its answer, but a retry could not be recognised.
        tracing::warn!(%error, "an idempotent answer could not be stored");
        let _ = idempotency::release(db, &subject, &key).await;
    }
    Response::from_parts(parts, Body::from(bytes))
}

fn is_key(key: &str) -> bool {
    (1..=MAX_KEY_CHARS).contains(&key.len()) && key.bytes().all(|b| b.is_ascii_graphic())
}

/// What makes two requests the same: method, path and the exact body.
fn fingerprint(method: &str, path: &str, body: &Bytes) -> String {
    let mut hash = Sha256::new();
    hash.update(method.as_bytes());
    hash.update(b" ");
    hash.update(path.as_bytes());
    hash.update(b"\n");
    hash.update(body);
    hex::encode(hash.finalize())
}

fn replay(stored: Stored) -> Response {
    let status = StatusCode::from_u16(stored.status).unwrap_or(StatusCode::OK);
    let mut response = (status, stored.body).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers.insert(REPLAYED.clone(), HeaderValue::from_static("true"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_visible_ascii_up_to_255() {
        assert!(is_key("order-42_a:b"));
        assert!(!is_key(""));
        assert!(!is_key("with space"));
        assert!(!is_key(&"k".repeat(256)));
        assert!(is_key(&"k".repeat(255)));
    }

    #[test]
    fn it_covers_posts_under_me_only() {
        assert!(applies_to("POST", "/v1/me/reports"));
        assert!(applies_to("POST", "/v1/me/webhooks"));
        assert!(!applies_to("GET", "/v1/me/reports"));
        assert!(!applies_to("POST", "/v1/firearms/resolve"));
    }
}
