//! How the fields of data reports and support tickets are published in the OpenAPI description:
//! the closed lists from the same constants the server checks against, and the https link.

use utoipa::openapi::{ObjectBuilder, Schema, SchemaFormat, Type};

use super::{reports, support};

/// A string from a closed list.
fn closed_list(values: &'static [&'static str]) -> Schema {
    ObjectBuilder::new().schema_type(Type::String).enum_values(Some(values.iter().copied())).into()
}

/// What `http::account::body::https_link` takes, exactly.
pub const HTTPS_LINK_PATTERN: &str =
    "^https://([A-Za-z0-9-]+\\.)*[A-Za-z][A-Za-z0-9-]*(/[-A-Za-z0-9._~%!$&'()*+,;=:@/?#]*)?$";

/// The longest link the account area stores (the same bound as a webhook URL).
pub const MAX_LINK_CHARS: usize = crate::webhooks::url::MAX_URL_CHARS;

/// An https link of at most 2,048 characters, without credentials.
pub fn https_link() -> Schema {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .format(Some(SchemaFormat::Custom("uri".to_owned())))
        // The host is a DNS name (its last label starts with a letter), so every value the pattern
        // admits is one the server takes; credentials and IP literals cannot be written in it.
        .pattern(Some(HTTPS_LINK_PATTERN))
        .max_length(Some(MAX_LINK_CHARS))
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
