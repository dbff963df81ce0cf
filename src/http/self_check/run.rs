//! One documented operation, called in process and checked: what is run (every catalog and
//! public GET with arguments found), what is skipped and why, the call itself through the service's
//! own router (`tower::ServiceExt::oneshot` on an `Edge`, with the `InProcessCaller` extension),
//! and the check of its answer against the description.

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::{Method, header};
use serde::Serialize;
use serde_json::Value;
use tower::ServiceExt;
use utoipa::ToSchema;

use super::arguments::Arguments;
use super::json_schema::Checker;
use crate::access::operations::{self, Style};
use crate::error::ApiError;
use crate::http::access::InProcessCaller;
use crate::http::edge::service::Edge;
use crate::http::{AppState, routes};

/// The largest answer the self-check reads.
const MAX_ANSWER_BYTES: usize = 64 << 20;

/// What became of one operation in a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Called, answered 2xx, and the answer holds to its published schema.
    Passed,
    /// Called, and the status or the answer is not what the description says.
    Failed,
    /// Not called: the reason says why. Never counted as passing.
    Skipped,
}

/// One documented operation's result.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OperationCheck {
    /// GET, POST, PUT, PATCH or DELETE.
    pub method: String,
    /// The path template, as the description spells it.
    pub path: String,
    pub operation_id: String,
    pub status: Outcome,
    /// The answer's HTTP status; null when the operation was not called.
    pub http_status: Option<u16>,
    /// Why it failed or was skipped; null when it passed.
    pub reason: Option<String>,
}

impl OperationCheck {
    /// The check of `method template` (its `operation` description) before it is run: skipped,
    /// until the run says otherwise.
    pub fn not_yet_run(method: &str, template: &str, operation: &Value) -> Self {
        Self {
            method: method.to_uppercase(),
            path: template.to_owned(),
            operation_id: operation["operationId"].as_str().unwrap_or_default().to_owned(),
            status: Outcome::Skipped,
            http_status: None,
            reason: None,
        }
    }
}

/// An answer the service gave itself.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    pub content_type: Option<String>,
    pub body: Bytes,
}

/// Which self-check is asking: each leaves out its own operations (a run that called itself would
/// wait for itself), and the samples ask for short pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Contract,
    Samples,
}

/// The service's own router, built as the node builds it.
pub fn router(state: &AppState) -> Result<Edge, ApiError> {
    routes::build(state.clone(), None).map_err(|e| ApiError::internal(e.to_string()))
}

/// Every operation `description` documents, in its order: (method as it keys it, lowercase; path
/// template; the operation's description).
pub fn documented(description: &Value) -> impl Iterator<Item = (&str, &str, &Value)> {
    let paths = description["paths"].as_object().into_iter().flatten();
    paths.flat_map(|(template, item)| {
        let methods = item.as_object().into_iter().flatten();
        methods.map(move |(method, operation)| (method.as_str(), template.as_str(), operation))
    })
}

/// The self-checks: a run never calls itself (it would wait for itself), and only the contract
/// calls the others.
pub const SELF_CHECKS: &[&str] =
    &["/v1/contract", "/v1/docs/samples", "/v1/examples/verification", "/v1/sdk/verification"];
/// Why a self-check is skipped.
pub const SELF_CHECK_SKIPPED: &str = "a self-check: a run does not call the self-checks";

/// Why `method template` (method lowercase) is never called against the live service, if it is not:
/// writes, the reads of an account or a shop, and an offer's outbound link.
pub fn not_run_live(method: &str, template: &str) -> Option<String> {
    let why = if method != "get" {
        "a write would change its data"
    } else if template.starts_with("/v1/me") || template.starts_with("/v1/vendor") {
        "it needs a key linked to an account or a shop"
    } else if template.starts_with("/v1/out/") {
        "following an offer's link counts a click for the shop"
    } else {
        return None;
    };
    Some(format!("not run against the live service: {why}"))
}

/// The request path and query to call `method template` with, or why it is not called.
pub fn request_for(
    method: &str,
    template: &str,
    arguments: &Arguments,
    purpose: Purpose,
) -> Result<String, String> {
    if let Some(reason) = not_run_live(method, template) {
        return Err(reason);
    }
    // The contract checks the other self-checks' answers too (none of them calls the contract);
    // the samples show none (a sample of a run would be a run inside a run).
    let calls_itself = match purpose {
        Purpose::Contract => template == "/v1/contract",
        Purpose::Samples => SELF_CHECKS.contains(&template),
    };
    if calls_itself {
        return Err(SELF_CHECK_SKIPPED.to_owned());
    }
    let path = arguments.path(template)?;
    let mut query = arguments.required_query(method, template)?;
    let paged = matches!(operations::find("GET", template).map(|op| op.style), Some(Style::Page { .. }));
    if purpose == Purpose::Samples && paged {
        query.push(if query.is_empty() { '?' } else { '&' });
        query.push_str("per_page=2");
    }
    Ok(path + &query)
}

/// Calls `method uri` through `edge` in process, as the service's own caller.
pub async fn call(edge: &Edge, method: &str, uri: &str) -> Result<Answer, String> {
    let method = Method::from_bytes(method.to_uppercase().as_bytes()).map_err(|e| e.to_string())?;
    let mut request = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::ACCEPT, "application/json")
        .body(Body::empty())
        .map_err(|e| format!("the request could not be built: {e}"))?;
    request.extensions_mut().insert(InProcessCaller::new());
    let Ok(response) = edge.clone().oneshot(request).await;
    let status = response.status().as_u16();
    let content_type =
        response.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let body = axum::body::to_bytes(response.into_body(), MAX_ANSWER_BYTES)
        .await
        .map_err(|e| format!("the answer could not be read: {e}"))?;
    Ok(Answer { status, content_type, body })
}

/// Whether `answer` is what `operation` (its description, as JSON) promises: a 2xx it documents,
/// of a documented content type, and for JSON a body holding to the schema of that status.
pub fn check(operation: &Value, checker: &Checker<'_>, answer: &Answer) -> Result<(), String> {
    let status = answer.status;
    if !(200..300).contains(&status) {
        let said = serde_json::from_slice::<Value>(&answer.body).ok();
        let reason =
            said.as_ref().and_then(|body| body["error"]["reason"].as_str()).unwrap_or("no reason given");
        return Err(format!("answered {status} ({reason})"));
    }
    let documented = &operation["responses"][status.to_string()];
    if documented.is_null() {
        return Err(format!("answered {status}, which the description does not document"));
    }
    let Some(content) = documented["content"].as_object() else {
        return Ok(());
    };
    let media =
        answer.content_type.as_deref().unwrap_or_default().split(';').next().unwrap_or_default().trim();
    if media == "application/json"
        && let Some(described) = content.get("application/json")
    {
        let body: Value =
            serde_json::from_slice(&answer.body).map_err(|e| format!("the body is not JSON: {e}"))?;
        let problems = checker.problems(&described["schema"], &body);
        return match problems.as_slice() {
            [] => Ok(()),
            [only] => Err(only.clone()),
            [first, rest @ ..] => Err(format!("{first} (and {} more)", rest.len())),
        };
    }
    if content.contains_key(media) {
        return Ok(());
    }
    let listed: Vec<&str> = content.keys().map(String::as_str).collect();
    Err(format!("answered Content-Type '{media}', the description documents {}", listed.join(", ")))
}

/// Runs one documented operation (`method` lowercase, as the description keys it) and says what
/// became of it.
pub async fn check_operation(
    edge: &Edge,
    checker: &Checker<'_>,
    arguments: &Arguments,
    method: &str,
    template: &str,
    operation: &Value,
) -> OperationCheck {
    let mut result = OperationCheck::not_yet_run(method, template, operation);
    let uri = match request_for(method, template, arguments, Purpose::Contract) {
        Ok(uri) => uri,
        Err(reason) => {
            result.reason = Some(reason);
            return result;
        }
    };
    let verdict = match call(edge, method, &uri).await {
        Ok(answer) => {
            result.http_status = Some(answer.status);
            check(operation, checker, &answer)
        }
        Err(reason) => Err(reason),
    };
    match verdict {
        Ok(()) => result.status = Outcome::Passed,
        Err(reason) => {
            result.status = Outcome::Failed;
            result.reason = Some(format!("{uri}: {reason}"));
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn answer(status: u16, body: Value) -> Answer {
        Answer { status, content_type: Some("application/json".into()), body: body.to_string().into() }
    }

    #[test]
    fn a_missing_required_field_fails_naming_it() {
        let document = json!({});
        let checker = Checker::new(&document);
        let operation = json!({ "responses": { "200": { "content": { "application/json": { "schema": {
            "type": "object", "required": ["data", "extra"] } } } } } });
        let reason = check(&operation, &checker, &answer(200, json!({ "data": 1 }))).unwrap_err();
        assert!(reason.contains("required extra is missing"), "{reason}");
        assert!(check(&operation, &checker, &answer(200, json!({ "data": 1, "extra": 2 }))).is_ok());
        let refused = json!({ "success": false, "error": { "reason": "NOT_FOUND" } });
        assert_eq!(
            check(&operation, &checker, &answer(404, refused)).unwrap_err(),
            "answered 404 (NOT_FOUND)"
        );
    }

    #[test]
    fn writes_and_account_reads_are_skipped_with_the_reason() {
        let arguments = Arguments::default();
        for (method, template) in
            [("post", "/v1/firearms/resolve"), ("get", "/v1/me/usage"), ("get", "/v1/out/{offerId}")]
        {
            let reason = request_for(method, template, &arguments, Purpose::Contract).unwrap_err();
            assert!(reason.starts_with("not run against the live service: "), "{reason}");
        }
        assert_eq!(request_for("get", "/health", &arguments, Purpose::Contract).unwrap(), "/health");
        assert!(request_for("get", "/v1/contract", &arguments, Purpose::Contract).is_err());
    }
}
