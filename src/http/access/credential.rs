//! The API key a request presents: `X-API-Key`, else `Authorization: Bearer` (the scheme matched
//! in any case), or the 401 that says what is missing.

use axum::http::HeaderMap;
use axum::http::header::AUTHORIZATION;

use crate::error::{ApiError, Reason};

/// The key a request carries: X-API-Key wins over `Authorization: Bearer` (scheme case-insensitive).
pub fn presented_key(headers: &HeaderMap) -> Result<&str, ApiError> {
    let missing = || ApiError::new(Reason::KeyMissing, "The credential header carries no API key.");
    if let Some(value) = headers.get("x-api-key") {
        let key = value.to_str().map_err(|_| missing())?.trim();
        return if key.is_empty() { Err(missing()) } else { Ok(key) };
    }
    if let Some(value) = headers.get(AUTHORIZATION) {
        let value = value.to_str().map_err(|_| missing())?.trim();
        let (scheme, key) = value.split_once(' ').unwrap_or((value, ""));
        let key = key.trim();
        return if scheme.eq_ignore_ascii_case("bearer") && !key.is_empty() {
            Ok(key)
        } else {
            Err(missing())
        };
    }
    Err(ApiError::new(
        Reason::AuthRequired,
        "This operation needs an API key: send X-API-Key or Authorization: Bearer.",
    ))
}
