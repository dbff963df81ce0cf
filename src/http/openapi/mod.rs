//! The machine-readable description and its Swagger UI.
//!
//! Paths come from the handlers' own `#[utoipa::path]` annotations, collected by the router in
//! `routes.rs`; this module adds what belongs to the whole API: info, security schemes and the
//! shared components (envelopes, pagination, the error reasons).

use axum::Json;
use axum::extract::State;
use serde::Serialize;
use utoipa::openapi::extensions::ExtensionsBuilder;
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::server::Server;
use utoipa::openapi::{OpenApi as OpenApiDocument, RefOr, Schema};
use utoipa::{Modify, OpenApi, ToSchema};
use utoipa_swagger_ui::{Config, SwaggerUi};

pub mod binding;
pub mod examples;
pub mod schemas;

use crate::error::Reason;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Armory: Firearms Specification Database API",
        version = "1.0.0",
        description = "A JSON catalog of firearm specifications. Every /v1 operation needs an API key \
            (X-API-Key or Authorization: Bearer) unless marked otherwise. Every non-2xx answer is the \
            error envelope; branch on error.code and error.reason (see the ErrorReason schema).\n\n\
            Rate limits (GET /v1/docs/limits lists them per plan): the per-minute limit is a sliding \
            window: a request is admitted while fewer than the plan's limit were admitted in the 60 \
            seconds before it, so no 60-second span ever holds more than the limit (worst case: \
            exactly the limit in any 60 s, never twice it across a minute boundary). The daily \
            allowance is checked and counted in one atomic step and resets at midnight UTC; a 304 \
            spends a per-minute slot but not the day. Ten or more consecutive pages of one list \
            operation within 90 seconds is 429 PAGINATION_BURST, whatever other parameters change. \
            A 429 carries Retry-After (60 per minute, 3600 for the day, 90 for a page burst).\n\n\
            Maintenance: while the operator pauses the API, every operation that needs a key answers \
            503 SERVICE_UNAVAILABLE, reason MAINTENANCE, with Retry-After and the operator's message, \
            before the key is checked (no limit is spent, no usage counted); the operations without a \
            key, /health, /ready and this description still answer. GET /v1/docs/operations lists \
            every operation with its plan, paging and rate-limit bucket."
    ),
    security(("ApiKeyHeader" = []), ("BearerKey" = [])),
    components(schemas(ErrorEnvelope, ErrorBody, crate::access::paging::Pagination)),
    modifiers(&ContractComponents),
)]
pub struct ApiDoc;

/// Every non-2xx response.
#[derive(Serialize, ToSchema)]
pub struct ErrorEnvelope {
    /// Always false.
    pub success: bool,
    pub error: ErrorBody,
    /// Echoes the X-Request-Id response header.
    pub request_id: String,
}

#[derive(Serialize, ToSchema)]
pub struct ErrorBody {
    /// Stable family: VALIDATION_ERROR, UNAUTHORIZED, FORBIDDEN, NOT_FOUND, CONFLICT,
    /// PAYLOAD_TOO_LARGE, RATE_LIMITED, INTERNAL_ERROR, SERVICE_UNAVAILABLE.
    pub code: String,
    /// One of ErrorReason.
    #[schema(schema_with = reason_ref)]
    pub reason: String,
    /// Human text; never match on it.
    pub message: String,
    /// Structured context: the invalid fields for INVALID_PARAMETER; requiredTier and currentTier
    /// for PLAN_REQUIRED.
    #[schema(value_type = Option<Object>)]
    pub details: Option<serde_json::Value>,
    /// Only on 413: the largest accepted body in bytes.
    #[serde(rename = "maxBytes")]
    #[schema(rename = "maxBytes")]
    pub max_bytes: Option<u64>,
}

fn reason_ref() -> RefOr<Schema> {
    RefOr::Ref(utoipa::openapi::Ref::from_schema_name("ErrorReason"))
}

struct ContractComponents;

impl Modify for ContractComponents {
    fn modify(&self, openapi: &mut OpenApiDocument) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "ApiKeyHeader",
            SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::new("X-API-Key"))),
        );
        components.add_security_scheme(
            "BearerKey",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        );
        components.schemas.insert("ErrorReason".to_owned(), RefOr::T(error_reason_schema()));
    }
}

/// One row of the `x-reasons` extension.
#[derive(Serialize)]
struct ReasonRow {
    reason: String,
    status: u16,
    code: &'static str,
    summary: &'static str,
    action: &'static str,
}

/// The closed list of reasons, with each one's status, code, summary and action published both as
/// a table in the description and as the `x-reasons` extension for tools.
fn error_reason_schema() -> Schema {
    let mut table = String::from(
        "Why a request failed (error.reason).\n\n| reason | status | code | situation | action |\n|---|---|---|---|---|\n",
    );
    let mut rows = Vec::new();
    for reason in Reason::ALL {
        let id = reason.identifier();
        table.push_str(&format!(
            "| {id} | {} | {} | {} | {} |\n",
            reason.status(),
            reason.code(),
            reason.summary(),
            reason.action()
        ));
        rows.push(ReasonRow {
            reason: id,
            status: reason.status(),
            code: reason.code(),
            summary: reason.summary(),
            action: reason.action(),
        });
    }
    let values: Vec<String> = Reason::ALL.iter().map(|r| r.identifier()).collect();
    Schema::Object(
        ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(values))
            .description(Some(table))
            .extensions(Some(
                ExtensionsBuilder::new()
                    .add("x-reasons", serde_json::to_value(rows).expect("plain fields serialise"))
                    .build(),
            ))
            .build(),
    )
}

/// The description's one server: `ARMORY_PUBLIC_URL` when configured, else `/` (relative to
/// wherever the description was fetched from). The request's Host header is never echoed.
pub fn set_server(document: &mut OpenApiDocument, public_url: Option<&str>) {
    document.servers = Some(vec![Server::new(public_url.unwrap_or("/"))]);
}

/// GET /openapi.json: the description, built once at start-up.
pub async fn openapi_json(State(document): State<std::sync::Arc<OpenApiDocument>>) -> Json<OpenApiDocument> {
    Json((*document).clone())
}

/// Swagger UI at /docs, its assets compiled into the binary (no other host is contacted).
pub fn swagger_ui() -> SwaggerUi {
    SwaggerUi::new("/docs").config(Config::new(["/openapi.json"]))
}
