//! The samples (operation 131): for each documented GET the contract run calls, the real request
//! and the real answer, made in process; kept until the catalog revision moves.

use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::arguments::Arguments;
use super::run::{self, Purpose};
use crate::error::ApiError;
use crate::http::{AppState, routes};

/// Items kept of each list in a sample's body.
pub const ITEMS_KEPT: usize = 3;
/// Characters kept of each text in a sample's body.
pub const CHARS_KEPT: usize = 400;

/// Every sample, from one catalog revision.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Samples {
    /// The catalog revision the samples were taken from.
    pub revision: i64,
    /// When they were taken (RFC 3339, UTC).
    pub generated_at: String,
    pub samples: Vec<Sample>,
    /// The documented operations without a sample, and why.
    pub skipped: Vec<SkippedSample>,
}

/// One operation's request and answer.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Sample {
    pub operation_id: String,
    pub method: String,
    /// The path template.
    pub path: String,
    pub request: SampleRequest,
    pub response: SampleResponse,
}

/// The request as it was sent (relative to the service's base URL).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SampleRequest {
    pub method: String,
    /// Path and query, e.g. /v1/firearms?per_page=2.
    pub url: String,
}

/// The answer as it was received; long lists and texts are cut (`truncated`).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SampleResponse {
    pub status: u16,
    pub content_type: Option<String>,
    /// The JSON body (a text for another content type), each list cut to its first 3 items and each
    /// text to 400 characters.
    pub body: Value,
    /// Whether anything was cut from the body.
    pub truncated: bool,
}

/// A documented operation without a sample.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SkippedSample {
    pub method: String,
    pub path: String,
    pub reason: String,
}

/// Takes the samples through the service's own router.
pub async fn take(state: &AppState) -> Result<Samples, ApiError> {
    let generated_at = crate::clock::rfc3339_now();
    let revision = state.catalog.current().revision;
    let edge = run::router(state)?;
    let arguments = Arguments::find(state).await;
    let description = serde_json::to_value(routes::openapi_document()).expect("the description serialises");
    let (mut samples, mut skipped) = (Vec::new(), Vec::new());
    for (method, template, operation) in run::documented(&description) {
        let method_name = method.to_uppercase();
        let answer = match run::request_for(method, template, &arguments, Purpose::Samples) {
            Ok(url) => run::call(&edge, method, &url).await.map(|answer| (url, answer)),
            Err(reason) => Err(reason),
        };
        let (url, answer) = match answer {
            Ok(called) => called,
            Err(reason) => {
                skipped.push(SkippedSample { method: method_name, path: template.to_owned(), reason });
                continue;
            }
        };
        let mut body = body_value(&answer.body);
        let truncated = cut(&mut body);
        samples.push(Sample {
            operation_id: operation["operationId"].as_str().unwrap_or_default().to_owned(),
            method: method_name.clone(),
            path: template.to_owned(),
            request: SampleRequest { method: method_name, url },
            response: SampleResponse {
                status: answer.status,
                content_type: answer.content_type,
                body,
                truncated,
            },
        });
    }
    Ok(Samples { revision, generated_at, samples, skipped })
}

/// An answer's body as a sample shows it: JSON as itself, other text as a string, and a binary
/// file (a PNG, a GLB) as a string saying how many bytes it is, since its bytes mean nothing in a
/// JSON document.
pub fn body_value(body: &[u8]) -> Value {
    serde_json::from_slice(body).unwrap_or_else(|_| match std::str::from_utf8(body) {
        Ok(text) => Value::String(text.to_owned()),
        Err(_) => Value::String(format!("({} bytes of binary data)", body.len())),
    })
}

/// Cuts every list in `value` to `ITEMS_KEPT` items and every text to `CHARS_KEPT` characters;
/// whether anything was cut.
pub fn cut(value: &mut Value) -> bool {
    match value {
        Value::Array(items) => {
            let mut cut_any = items.len() > ITEMS_KEPT;
            items.truncate(ITEMS_KEPT);
            for item in items {
                cut_any |= cut(item);
            }
            cut_any
        }
        Value::Object(fields) => fields.values_mut().fold(false, |cut_any, field| cut(field) | cut_any),
        Value::String(text) => match text.char_indices().nth(CHARS_KEPT) {
            Some((at, _)) => {
                text.truncate(at);
                text.push('…');
                true
            }
            None => false,
        },
        _ => false,
    }
}

/// The samples of the current revision, taken again when the revision moves. The lock is held
/// while they are taken, so concurrent requests share one taking.
#[derive(Default)]
pub struct SamplesCache {
    kept: tokio::sync::Mutex<Option<Arc<Samples>>>,
}

impl SamplesCache {
    pub async fn current(&self, state: &AppState) -> Result<Arc<Samples>, ApiError> {
        let mut kept = self.kept.lock().await;
        let revision = state.catalog.current().revision;
        if let Some(samples) = kept.as_ref()
            && samples.revision == revision
        {
            return Ok(samples.clone());
        }
        let fresh = Arc::new(take(state).await?);
        *kept = Some(fresh.clone());
        Ok(fresh)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn long_lists_and_texts_are_cut() {
        let mut body = json!({ "data": [1, 2, 3, 4, 5], "name": "x".repeat(500), "short": [1] });
        assert!(cut(&mut body));
        assert_eq!(body["data"], json!([1, 2, 3]));
        assert_eq!(body["name"].as_str().unwrap().chars().count(), CHARS_KEPT + 1);
        let mut small = json!({ "data": [1], "name": "short" });
        assert!(!cut(&mut small));
    }
}
