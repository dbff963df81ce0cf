//! /v1/me/webhooks: the account's webhook endpoints (operations 110 to 115).
//!
//! Request bodies are read field by field, so that each bad field is named in one 400
//! (`details.url`, `details.events`, ...) rather than reported as a body that failed to parse.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;

use super::body::present;
use crate::access::caller::AccountCaller;
use crate::access::paging::Paging;
use crate::http::edge::body_limit::ApiJson;
use crate::http::extract::path::ValidPath;
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState, Reason, respond};
use crate::read::rendered::One;
use crate::webhooks::endpoints::{self, Changes, Endpoint, EndpointCreated, NewEndpoint};
use crate::webhooks::events::{EVENT_TYPES, is_event_type};
use crate::webhooks::send::TestResult;
use crate::webhooks::url::WebhookUrl;

const MAX_DESCRIPTION_CHARS: usize = 500;

/// A webhook URL as published: https, at most 2,048 characters. The rules on the host (a public
/// name, never an address) are checked by the server and named in the 400.
fn url_schema() -> utoipa::openapi::Schema {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::Type::String)
        .format(Some(utoipa::openapi::SchemaFormat::Custom("uri".to_owned())))
        .pattern(Some("^https://"))
        .max_length(Some(crate::webhooks::url::MAX_URL_CHARS))
        .into()
}

/// At least one event type, each from the Events list.
fn events_schema() -> utoipa::openapi::Schema {
    let event = utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::Type::String)
        .enum_values(Some(EVENT_TYPES.iter().copied()));
    utoipa::openapi::ArrayBuilder::new().items(event).min_items(Some(1)).into()
}

/// POST /v1/me/webhooks body.
#[derive(Deserialize, ToSchema)]
pub struct CreateWebhookEndpoint {
    /// https on port 443, a public host name (never an IP address), no credentials, at most 2,048 characters.
    #[serde(default, deserialize_with = "present")]
    #[schema(schema_with = url_schema, required = true, example = "https://hooks.example.com/armory")]
    url: Option<Value>,
    /// Event types from the Events list; catalog.resynced is delivered to every endpoint anyway.
    #[serde(default, deserialize_with = "present")]
    #[schema(schema_with = events_schema, required = true, example = json!(["firearm.updated"]))]
    events: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, max_length = 500)]
    description: Option<Value>,
}

/// PUT /v1/me/webhooks/{endpointId} body: every field optional; absent fields keep their value.
#[derive(Deserialize, ToSchema)]
pub struct UpdateWebhookEndpoint {
    #[serde(default, deserialize_with = "present")]
    #[schema(schema_with = url_schema)]
    url: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    #[schema(schema_with = events_schema)]
    events: Option<Value>,
    /// null clears it.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, max_length = 500)]
    description: Option<Value>,
    /// false pauses the endpoint (nothing delivered, pending retries dropped); true resumes it.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = bool)]
    enabled: Option<Value>,
    /// Alias of `enabled` for older clients; `enabled` wins when both are sent.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = bool)]
    active: Option<Value>,
}

/// The account's webhook endpoints, oldest first.
#[utoipa::path(get, path = "/v1/me/webhooks", tag = "Webhooks",
    responses((status = 200, body = schemas::Page<Endpoint>)))]
pub async fn list(
    State(state): State<AppState>,
    AccountCaller { account_id, .. }: AccountCaller,
    paging: Paging,
) -> Result<Response, ApiError> {
    let all = endpoints::list(&state.db, &account_id).await?;
    let (page, pagination) = paging.slice(&all);
    Ok(respond::paged(page, pagination))
}

/// Register an endpoint. The answer carries `secret`, the signing secret, this once only.
/// Holding endpoints needs Studio (5) or Enterprise (20); beyond the allowance: 403 LIMIT_REACHED.
#[utoipa::path(post, path = "/v1/me/webhooks", tag = "Webhooks", request_body = CreateWebhookEndpoint,
    responses((status = 201, body = schemas::One<EndpointCreated>)))]
pub async fn create(
    State(state): State<AppState>,
    AccountCaller { account_id, caller }: AccountCaller,
    ApiJson(body): ApiJson<CreateWebhookEndpoint>,
) -> Result<Response, ApiError> {
    let account = account_id.as_str();
    let allowance = state.access.plans.get(caller.plan).webhook_endpoints;
    let limit_reached = || {
        ApiError::new(
            Reason::LimitReached,
            format!(
                "The {} plan holds {allowance} webhook endpoints; this account holds them all.",
                caller.plan.name()
            ),
        )
        .with_details(Value::Object(Map::from_iter([
            ("limit".to_owned(), Value::from(allowance)),
            ("currentTier".to_owned(), Value::from(caller.plan.id())),
        ])))
    };
    // Checked before the body so a plan without endpoints learns that first; `create` checks again
    // under a lock, so two concurrent creates cannot pass the allowance.
    if endpoints::count(&state.db, account).await? >= i64::from(allowance) {
        return Err(limit_reached());
    }
    let mut problems = Map::new();
    for (name, value) in [("url", &body.url), ("events", &body.events)] {
        if value.is_none() {
            problems.insert(name.to_owned(), Value::from("is required"));
        }
    }
    let rules = state.webhooks.settings().url_rules();
    let url = field(&mut problems, "url", body.url.as_ref(), |v| parse_url(v, &rules));
    let events = field(&mut problems, "events", body.events.as_ref(), parse_events);
    let description = match &body.description {
        Some(value) => field(&mut problems, "description", Some(value), parse_description),
        None => Some(None),
    };
    let (Some(url), Some(events), Some(description)) = (url, events, description) else {
        return Err(ApiError::invalid_parameters(problems));
    };
    resolves_publicly(&state, &url).await?;
    let endpoint = endpoints::create(&state.db, account, NewEndpoint { url, events, description }, allowance)
        .await?
        .ok_or_else(limit_reached)?;
    // Without the ETag `respond` adds: this answer, with its secret, is never fetched again.
    let body = One { success: true, data: EndpointCreated::from(endpoint) };
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

/// One endpoint of the account (another account's endpoint is 404).
#[utoipa::path(get, path = "/v1/me/webhooks/{endpointId}", tag = "Webhooks",
    params(("endpointId" = String, Path, description = "the endpoint's id")),
    responses((status = 200, body = schemas::One<Endpoint>)))]
pub async fn detail(
    State(state): State<AppState>,
    AccountCaller { account_id, .. }: AccountCaller,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    let endpoint = endpoints::get(&state.db, &account_id, &id).await?.ok_or_else(|| not_found(&id))?;
    Ok(respond::one(endpoint))
}

/// Change url, events, description or enabled (`active` is an alias). Pausing drops pending retries;
/// resuming does not replay what the endpoint missed.
#[utoipa::path(put, path = "/v1/me/webhooks/{endpointId}", tag = "Webhooks", request_body = UpdateWebhookEndpoint,
    params(("endpointId" = String, Path, description = "the endpoint's id")),
    responses((status = 200, body = schemas::One<Endpoint>)))]
pub async fn update(
    State(state): State<AppState>,
    AccountCaller { account_id, .. }: AccountCaller,
    ValidPath(id): ValidPath<String>,
    ApiJson(body): ApiJson<UpdateWebhookEndpoint>,
) -> Result<Response, ApiError> {
    let account = account_id.as_str();
    let mut problems = Map::new();
    let rules = state.webhooks.settings().url_rules();
    let changes = Changes {
        url: field(&mut problems, "url", body.url.as_ref(), |v| parse_url(v, &rules)),
        events: field(&mut problems, "events", body.events.as_ref(), parse_events),
        description: field(&mut problems, "description", body.description.as_ref(), parse_description),
        enabled: {
            // Both are checked; `enabled` wins when both are sent.
            let active = field(&mut problems, "active", body.active.as_ref(), parse_bool);
            field(&mut problems, "enabled", body.enabled.as_ref(), parse_bool).or(active)
        },
    };
    if !problems.is_empty() {
        return Err(ApiError::invalid_parameters(problems));
    }
    if let Some(url) = &changes.url {
        resolves_publicly(&state, url).await?;
    }
    let endpoint =
        endpoints::update(&state.db, account, &id, changes).await?.ok_or_else(|| not_found(&id))?;
    Ok(respond::one(endpoint))
}

/// Remove an endpoint; its undelivered retries are dropped.
#[utoipa::path(delete, path = "/v1/me/webhooks/{endpointId}", tag = "Webhooks",
    params(("endpointId" = String, Path, description = "the endpoint's id")),
    responses((status = 200, body = schemas::One<schemas::Deleted>)))]
pub async fn delete(
    State(state): State<AppState>,
    AccountCaller { account_id, .. }: AccountCaller,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    if !endpoints::delete(&state.db, &account_id, &id).await? {
        return Err(not_found(&id));
    }
    Ok(respond::one(schemas::Deleted::new(id)))
}

/// Make a signed test delivery (type `webhook.test`) now and report what the receiver did.
#[utoipa::path(post, path = "/v1/me/webhooks/{endpointId}/test", tag = "Webhooks",
    params(("endpointId" = String, Path, description = "the endpoint's id")),
    responses((status = 200, body = schemas::One<TestResult>)))]
pub async fn test(
    State(state): State<AppState>,
    AccountCaller { account_id, .. }: AccountCaller,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    let endpoint = endpoints::get(&state.db, &account_id, &id).await?.ok_or_else(|| not_found(&id))?;
    let outcome = state.webhooks.test_delivery(&endpoint).await;
    Ok(respond::one(TestResult::from(outcome)))
}

fn not_found(id: &str) -> ApiError {
    ApiError::not_found("webhook endpoint", id)
}

/// Parse a present field, recording its problem under its name; None when absent or invalid.
fn field<T>(
    problems: &mut Map<String, Value>,
    name: &str,
    value: Option<&Value>,
    parse: impl FnOnce(&Value) -> Result<T, String>,
) -> Option<T> {
    let value = value?;
    parse(value).map_err(|problem| problems.insert(name.to_owned(), Value::String(problem))).ok()
}

/// The host must not resolve to an address webhooks may not reach (checked again at delivery).
async fn resolves_publicly(state: &AppState, url: &WebhookUrl) -> Result<(), ApiError> {
    let host = url.url().host_str().unwrap_or_default().trim_end_matches('.').to_ascii_lowercase();
    crate::webhooks::guard::check_host_now(&state.webhooks.settings().allow_targets, &host)
        .await
        .map_err(|refused| ApiError::invalid_parameter("url", refused.to_string()))
}

fn parse_url(value: &Value, rules: &crate::webhooks::url::UrlRules<'_>) -> Result<WebhookUrl, String> {
    let text = value.as_str().ok_or("must be a string")?;
    WebhookUrl::parse(text, rules)
}

/// A non-empty list of known event types, duplicates removed, in the order given.
fn parse_events(value: &Value) -> Result<Vec<String>, String> {
    let items = value.as_array().ok_or("must be an array of event types")?;
    if items.is_empty() {
        return Err("must name at least one event type".into());
    }
    let mut events: Vec<String> = Vec::with_capacity(items.len());
    for item in items {
        let text = item.as_str().ok_or("must be an array of strings")?;
        if !is_event_type(text) {
            return Err(format!("'{text}' is not an event type; use one of: {}", EVENT_TYPES.join(", ")));
        }
        if !events.iter().any(|e| e == text) {
            events.push(text.to_owned());
        }
    }
    Ok(events)
}

fn parse_description(value: &Value) -> Result<Option<String>, String> {
    match value {
        Value::Null => Ok(None),
        Value::String(text) if text.chars().count() <= MAX_DESCRIPTION_CHARS => Ok(Some(text.clone())),
        Value::String(_) => Err(format!("must be at most {MAX_DESCRIPTION_CHARS} characters")),
        _ => Err("must be a string or null".into()),
    }
}

fn parse_bool(value: &Value) -> Result<bool, String> {
    value.as_bool().ok_or_else(|| "must be true or false".to_owned())
}
