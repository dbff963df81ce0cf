//! /v1/me/support (operations 106 to 109): support tickets. A caller opens one, lists them (paged,
//! `status`, `sort`, `order`), reads one with its messages oldest first, and replies; staff answer
//! with `armory support`. Another account's ticket is 404, never shown.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::body::{Problems, https_link, list_of, one_of, present, text};
use crate::access::caller::AccountCaller;
use crate::access::paging::Paging;
use crate::accounts::AccountError;
use crate::accounts::schema::{ticket_category, ticket_priority};
use crate::accounts::support::{
    self, Attachment, Author, CATEGORIES, MAX_ATTACHMENTS, NewTicket, Order, PRIORITIES, SORTS, STATUSES,
    Ticket, TicketDetail,
};
use crate::http::edge::body_limit::ApiJson;
use crate::http::extract::path::ValidPath;
use crate::http::extract::query::{Declared, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState, Reason, respond};

const MAX_SUBJECT_CHARS: usize = 200;
const MAX_DESCRIPTION_CHARS: usize = 10_000;
const MAX_MESSAGE_CHARS: usize = 10_000;
const MAX_ATTACHMENT_NAME_CHARS: usize = 200;

fn attachments_schema() -> utoipa::openapi::Schema {
    let item = utoipa::openapi::Ref::from_schema_name(<Attachment as utoipa::ToSchema>::name());
    utoipa::openapi::ArrayBuilder::new().items(item).max_items(Some(MAX_ATTACHMENTS)).into()
}

/// POST /v1/me/support body.
#[derive(Deserialize, ToSchema)]
pub struct CreateTicket {
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = String, required = true, min_length = 1, max_length = 200, pattern = "\\S")]
    subject: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = String, required = true, min_length = 1, max_length = 10000, pattern = "\\S")]
    description: Option<Value>,
    /// Default `other`.
    #[serde(default, deserialize_with = "present")]
    #[schema(schema_with = ticket_category)]
    category: Option<Value>,
    /// Default `normal`.
    #[serde(default, deserialize_with = "present")]
    #[schema(schema_with = ticket_priority)]
    priority: Option<Value>,
    /// At most 20 links to files, each `{name, url}` with an https url.
    #[serde(default, deserialize_with = "present")]
    #[schema(schema_with = attachments_schema)]
    attachments: Option<Value>,
}

/// POST /v1/me/support/{id}/replies body.
#[derive(Deserialize, ToSchema)]
pub struct ReplyToTicket {
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = String, required = true, min_length = 1, max_length = 10000, pattern = "\\S")]
    message: Option<Value>,
    /// Links to files; the ticket holds at most 20 in all.
    #[serde(default, deserialize_with = "present")]
    #[schema(schema_with = attachments_schema)]
    attachments: Option<Value>,
}

fn attachment(value: &Value) -> Result<Attachment, String> {
    let object = value.as_object().ok_or("must be an object {name, url}")?;
    let name = text(1, MAX_ATTACHMENT_NAME_CHARS)(object.get("name").unwrap_or(&Value::Null))
        .map_err(|problem| format!("name {problem}"))?;
    let url =
        https_link(object.get("url").unwrap_or(&Value::Null)).map_err(|problem| format!("url {problem}"))?;
    Ok(Attachment { name, url })
}

fn attachments(problems: &mut Problems, value: Option<&Value>) -> Vec<Attachment> {
    problems.field("attachments", value, list_of(MAX_ATTACHMENTS, attachment)).unwrap_or_default()
}

/// Open a ticket; it starts `open`.
#[utoipa::path(post, path = "/v1/me/support", tag = "Account", request_body = CreateTicket,
    responses((status = 201, body = schemas::One<Ticket>)))]
pub async fn create(
    State(state): State<AppState>,
    AccountCaller { account_id, .. }: AccountCaller,
    ApiJson(body): ApiJson<CreateTicket>,
) -> Result<Response, ApiError> {
    let mut problems = Problems::default();
    let subject = problems.required("subject", body.subject.as_ref(), text(1, MAX_SUBJECT_CHARS));
    let description =
        problems.required("description", body.description.as_ref(), text(1, MAX_DESCRIPTION_CHARS));
    let category = problems.field("category", body.category.as_ref(), one_of(CATEGORIES));
    let priority = problems.field("priority", body.priority.as_ref(), one_of(PRIORITIES));
    let attachments = attachments(&mut problems, body.attachments.as_ref());
    problems.into_result()?;
    let new = NewTicket {
        subject,
        description,
        category: category.unwrap_or_else(|| "other".to_owned()),
        priority: priority.unwrap_or_else(|| "normal".to_owned()),
        attachments,
    };
    let ticket = support::open(&state.db, &account_id, new).await?;
    let mut response = respond::one(ticket);
    *response.status_mut() = StatusCode::CREATED;
    Ok(response)
}

const STATUS: QueryParam<kind::OneOf> =
    QueryParam::new("status", kind::OneOf(STATUSES), "only tickets in this status");
const SORT: QueryParam<kind::OneOf> = QueryParam::new(
    "sort",
    kind::OneOf(SORTS),
    "order by (default created_at); status and priority follow their lists, not the alphabet",
);
const ORDER: QueryParam<kind::OneOf> =
    QueryParam::new("order", kind::OneOf(&["asc", "desc"]), "direction (default desc)");

pub struct TicketListQuery {
    status: Option<String>,
    order: Order,
}

impl QueryParams for TicketListQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&STATUS, &SORT, &ORDER];
    fn read(params: &mut Params) -> Self {
        let status = params.get(&STATUS);
        let sort = params.get(&SORT);
        let descending = params.get(&ORDER).is_none_or(|order| order == "desc");
        let sort =
            SORTS.iter().copied().find(|known| Some(*known) == sort.as_deref()).unwrap_or("created_at");
        Self { status, order: Order { sort, descending } }
    }
}

crate::query_params_doc!(TicketListQuery);

/// The caller's tickets, newest first unless `sort` and `order` say otherwise.
#[utoipa::path(get, path = "/v1/me/support", tag = "Account", params(TicketListQuery),
    responses((status = 200, body = schemas::Page<Ticket>)))]
pub async fn list(
    State(state): State<AppState>,
    AccountCaller { account_id, .. }: AccountCaller,
    Valid(TicketListQuery { status, order }): Valid<TicketListQuery>,
    paging: Paging,
) -> Result<Response, ApiError> {
    let all = support::list(&state.db, Some(&account_id), status.as_deref(), order).await?;
    let (page, pagination) = paging.slice(&all);
    Ok(respond::paged(page, pagination))
}

/// One of the caller's tickets with its messages, oldest first.
#[utoipa::path(get, path = "/v1/me/support/{id}", tag = "Account",
    params(("id" = String, Path, description = "the ticket's id")),
    responses((status = 200, body = schemas::One<TicketDetail>)))]
pub async fn detail(
    State(state): State<AppState>,
    AccountCaller { account_id, .. }: AccountCaller,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    let ticket = support::find(&state.db, Some(&account_id), &id).await?.ok_or_else(|| not_found(&id))?;
    Ok(respond::one(with_messages(&state, ticket).await?))
}

/// Add a message. A `waiting` or `resolved` ticket goes back to `open`; a `closed` one is 403
/// ACTION_NOT_ALLOWED.
#[utoipa::path(post, path = "/v1/me/support/{id}/replies", tag = "Account", request_body = ReplyToTicket,
    params(("id" = String, Path, description = "the ticket's id")),
    responses((status = 201, body = schemas::One<TicketDetail>)))]
pub async fn reply(
    State(state): State<AppState>,
    AccountCaller { account_id, .. }: AccountCaller,
    ValidPath(id): ValidPath<String>,
    ApiJson(body): ApiJson<ReplyToTicket>,
) -> Result<Response, ApiError> {
    let mut problems = Problems::default();
    let message = problems.required("message", body.message.as_ref(), text(1, MAX_MESSAGE_CHARS));
    let attachments = attachments(&mut problems, body.attachments.as_ref());
    problems.into_result()?;
    let ticket =
        match support::reply(&state.db, Some(&account_id), &id, Author::Customer, &message, &attachments)
            .await
        {
            Ok(ticket) => ticket,
            Err(AccountError::UnknownTicket(_)) => return Err(not_found(&id)),
            Err(AccountError::TicketClosed(_)) => {
                return Err(ApiError::new(
                    Reason::ActionNotAllowed,
                    "This ticket is closed and takes no more replies; open a new one.",
                ));
            }
            Err(AccountError::TooManyAttachments { held, limit }) => {
                return Err(ApiError::invalid_parameter(
                    "attachments",
                    format!("a ticket holds at most {limit} attachments; it holds {held}"),
                ));
            }
            Err(AccountError::Database(cause)) => return Err(cause.into()),
            Err(other) => return Err(ApiError::internal(other)),
        };
    let mut response = respond::one(with_messages(&state, ticket).await?);
    *response.status_mut() = StatusCode::CREATED;
    Ok(response)
}

async fn with_messages(state: &AppState, ticket: Ticket) -> Result<TicketDetail, ApiError> {
    let messages = support::messages(&state.db, &ticket.id).await?;
    Ok(TicketDetail { ticket, messages })
}

fn not_found(id: &str) -> ApiError {
    ApiError::not_found("support ticket", id)
}
