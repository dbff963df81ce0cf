//! /v1/me/reports (operations 104 and 105): data reports. A caller files one per firearm and
//! section per 24 hours (the next is 429 REPORT_RATE_LIMITED with Retry-After) and follows them,
//! with the staff note, in a paged list filtered by `status`.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::body::{Problems, https_link, list_of, one_of, present, text};
use crate::access::caller::AccountCaller;
use crate::access::paging::Paging;
use crate::accounts::reports::{self, Filed, ISSUE_TYPES, NewReport, Report, SECTIONS, STATUSES};
use crate::accounts::schema::{https_link as https_link_schema, report_issue_type, report_section};
use crate::http::edge::body_limit::ApiJson;
use crate::http::extract::query::is_slug;
use crate::http::extract::query::{Declared, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState, Reason, respond};

const MIN_DESCRIPTION_CHARS: usize = 10;
const MAX_DESCRIPTION_CHARS: usize = 5_000;
const MAX_REFERENCES: usize = 10;
/// A suggested value is a number or a string of at most this many characters.
const MAX_SUGGESTION_CHARS: usize = 1_000;

fn references_schema() -> utoipa::openapi::Schema {
    utoipa::openapi::ArrayBuilder::new()
        .items(utoipa::openapi::RefOr::T(https_link_schema()))
        .max_items(Some(MAX_REFERENCES))
        .into()
}

/// POST /v1/me/reports body (the documented snake_case names; camelCase is accepted too).
#[derive(Deserialize, ToSchema)]
pub struct CreateReport {
    /// The firearm the report is about.
    #[serde(default, alias = "firearmId", deserialize_with = "present")]
    #[schema(value_type = String, required = true, pattern = "^[a-z0-9-]+$")]
    firearm_id: Option<Value>,
    /// The field group of the firearm detail that is wrong.
    #[serde(default, deserialize_with = "present")]
    #[schema(schema_with = report_section, required = true)]
    section: Option<Value>,
    #[serde(default, alias = "issueType", deserialize_with = "present")]
    #[schema(schema_with = report_issue_type, required = true)]
    issue_type: Option<Value>,
    /// What is wrong, 10 to 5,000 characters.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = String, required = true, min_length = 10, max_length = 5000, pattern = "\\S")]
    description: Option<Value>,
    /// At most 10 https links that state the right figure.
    #[serde(default, deserialize_with = "present")]
    #[schema(schema_with = references_schema)]
    references: Option<Value>,
    /// The value the reporter believes is right: text of at most 1,000 characters (a number is
    /// taken too, and kept as its text), or null.
    #[serde(default, alias = "suggestedValue", deserialize_with = "present")]
    #[schema(value_type = Option<String>, max_length = 1000)]
    suggested_value: Option<Value>,
}

/// File a data report; it starts `pending`.
#[utoipa::path(post, path = "/v1/me/reports", tag = "Account", request_body = CreateReport,
    responses((status = 201, body = schemas::One<Report>)))]
pub async fn create(
    State(state): State<AppState>,
    snapshot: CurrentSnapshot,
    AccountCaller { account_id, .. }: AccountCaller,
    ApiJson(body): ApiJson<CreateReport>,
) -> Result<Response, ApiError> {
    let mut problems = Problems::default();
    let firearm_id = problems.required("firearm_id", body.firearm_id.as_ref(), |value| {
        value
            .as_str()
            .filter(|id| is_slug(id))
            .map(str::to_owned)
            .ok_or_else(|| "must be a firearm id".to_owned())
    });
    let section = problems.required("section", body.section.as_ref(), one_of(SECTIONS));
    let issue_type = problems.required("issue_type", body.issue_type.as_ref(), one_of(ISSUE_TYPES));
    let description = problems.required(
        "description",
        body.description.as_ref(),
        text(MIN_DESCRIPTION_CHARS, MAX_DESCRIPTION_CHARS),
    );
    let references =
        problems.field("references", body.references.as_ref(), list_of(MAX_REFERENCES, https_link));
    let suggested_value =
        problems.field("suggested_value", body.suggested_value.as_ref(), suggestion).flatten();
    problems.into_result()?;
    snapshot.require_firearm(&firearm_id)?;
    let new = NewReport {
        firearm_id,
        section,
        issue_type,
        description,
        references: references.unwrap_or_default(),
        suggested_value,
    };
    match reports::file(&state.db, &account_id, new).await? {
        Filed::Filed(report) => {
            let mut response = respond::one(report);
            *response.status_mut() = StatusCode::CREATED;
            Ok(response)
        }
        Filed::TooSoon { retry_after_seconds } => Err(ApiError::new(
            Reason::ReportRateLimited,
            "You reported this section of this firearm in the last 24 hours; Retry-After says when you can again.",
        )
        .with_retry_after(retry_after_seconds)),
    }
}

fn suggestion(value: &Value) -> Result<Option<Value>, String> {
    match value {
        Value::Null => Ok(None),
        // Kept as text, as it was written, so the field has one type.
        Value::Number(number) => Ok(Some(Value::String(number.to_string()))),
        Value::String(text) if text.chars().count() <= MAX_SUGGESTION_CHARS => Ok(Some(value.clone())),
        _ => Err(format!("must be a number, or text of at most {MAX_SUGGESTION_CHARS} characters")),
    }
}

const STATUS: QueryParam<kind::OneOf> =
    QueryParam::new("status", kind::OneOf(STATUSES), "only reports in this status");

pub struct ReportListQuery {
    status: Option<String>,
}

impl QueryParams for ReportListQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&STATUS];
    fn read(params: &mut Params) -> Self {
        Self { status: params.get(&STATUS) }
    }
}

crate::query_params_doc!(ReportListQuery);

/// The caller's data reports, newest first, with the staff note.
#[utoipa::path(get, path = "/v1/me/reports", tag = "Account", params(ReportListQuery),
    responses((status = 200, body = schemas::Page<Report>)))]
pub async fn list(
    State(state): State<AppState>,
    AccountCaller { account_id, .. }: AccountCaller,
    Valid(ReportListQuery { status }): Valid<ReportListQuery>,
    paging: Paging,
) -> Result<Response, ApiError> {
    let all = reports::list(&state.db, Some(&account_id), status.as_deref()).await?;
    let (page, pagination) = paging.slice(&all);
    Ok(respond::paged(page, pagination))
}
