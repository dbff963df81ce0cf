//! Schemas of data reports (104, 105) and support tickets (106 to 109), and the closed lists their
//! bodies use, published from the same constants the server checks against.

use serde::Serialize;
use utoipa::ToSchema;
use utoipa::openapi::Schema;

use crate::accounts::{reports, support};

/// A string from a closed list.
fn closed_list(values: &'static [&'static str]) -> Schema {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::Type::String)
        .enum_values(Some(values.iter().copied()))
        .into()
}

/// What `http::account::body::https_link` takes, exactly.
pub const HTTPS_LINK_PATTERN: &str =
    "^https://([A-Za-z0-9-]+\\.)*[A-Za-z][A-Za-z0-9-]*(/[-A-Za-z0-9._~%!$&'()*+,;=:@/?#]*)?$";

/// An https link of at most 2,048 characters, without credentials.
pub fn https_link() -> Schema {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::Type::String)
        .format(Some(utoipa::openapi::SchemaFormat::Custom("uri".to_owned())))
        // The host is a DNS name (its last label starts with a letter), so every value the pattern
        // admits is one the server takes; credentials and IP literals cannot be written in it.
        .pattern(Some(HTTPS_LINK_PATTERN))
        .max_length(Some(crate::http::account::body::MAX_LINK_CHARS))
        .into()
}

pub fn report_section() -> Schema {
    closed_list(reports::SECTIONS)
}
pub fn report_issue_type() -> Schema {
    closed_list(reports::ISSUE_TYPES)
}
pub fn report_status() -> Schema {
    closed_list(reports::STATUSES)
}
pub fn ticket_status() -> Schema {
    closed_list(support::STATUSES)
}
pub fn ticket_priority() -> Schema {
    closed_list(support::PRIORITIES)
}
pub fn ticket_category() -> Schema {
    closed_list(support::CATEGORIES)
}

/// A data report as its author sees it, with the staff note once staff wrote one.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct DataReport {
    id: String,
    firearm_id: String,
    #[schema(schema_with = report_section)]
    section: String,
    #[schema(schema_with = report_issue_type)]
    issue_type: String,
    description: String,
    /// https links the reporter gave.
    references: Vec<String>,
    /// What the reporter believes is right, as text, or null.
    suggested_value: Option<String>,
    /// pending → reviewed → resolved or dismissed, or pending → dismissed.
    #[schema(schema_with = report_status)]
    status: String,
    staff_note: Option<String>,
    created_at: String,
    updated_at: String,
    reviewed_at: Option<String>,
}

/// A file linked to a ticket or a message (the service keeps the link, not the file).
#[derive(ToSchema, Serialize)]
pub struct TicketAttachment {
    #[schema(min_length = 1, max_length = 200, pattern = "\\S")]
    name: String,
    #[schema(schema_with = https_link)]
    url: String,
}

#[derive(ToSchema, Serialize)]
#[schema(rename_all = "camelCase")]
pub struct SupportTicket {
    id: String,
    subject: String,
    description: String,
    #[schema(schema_with = ticket_category)]
    category: String,
    #[schema(schema_with = ticket_priority)]
    priority: String,
    /// open, in_progress, waiting (for the customer), resolved, closed.
    #[schema(schema_with = ticket_status)]
    status: String,
    attachments: Vec<TicketAttachment>,
    message_count: i64,
    created_at: String,
    updated_at: String,
    closed_at: Option<String>,
}

/// One message of a ticket's thread.
#[derive(ToSchema, Serialize)]
#[schema(rename_all = "camelCase")]
pub struct TicketMessage {
    /// 1, 2, ... in the order the messages were added.
    id: i64,
    /// customer or staff
    author: String,
    message: String,
    attachments: Vec<TicketAttachment>,
    created_at: String,
}

/// A ticket with its messages, oldest first.
#[derive(ToSchema, Serialize)]
#[schema(rename_all = "camelCase")]
pub struct SupportTicketDetail {
    #[serde(flatten)]
    ticket: SupportTicket,
    messages: Vec<TicketMessage>,
}
