//! Response schemas of the catalog reads and the webhook operations, for the OpenAPI description
//! only.
//!
//! The read path serves JSON pre-rendered from the catalog records (`read::firearm_json`), so
//! these types are never serialised; they document the shapes, field by field, and a contract
//! test keeps them honest by checking answers against the bundled catalog.

#![allow(dead_code)]

use std::collections::BTreeMap;

use utoipa::openapi::{RefOr, Response, ResponseBuilder, content::ContentBuilder};
use utoipa::{IntoResponses, ToSchema};

pub(crate) use super::openapi::Pagination;

/// `{success: true, data: $data}`.
macro_rules! envelope {
    ($name:ident, $data:ty) => {
        #[derive(ToSchema)]
        pub struct $name {
            /// Always true.
            success: bool,
            data: $data,
        }
    };
}

/// `{success: true, data: [$item], pagination}`.
macro_rules! paged {
    ($name:ident, $item:ty) => {
        #[derive(ToSchema)]
        pub struct $name {
            /// Always true.
            success: bool,
            data: Vec<$item>,
            pagination: Pagination,
        }
    };
}

/// The errors of a read operation: 400, 401, 403, 404, 429 and 500, each the error envelope.
pub struct ReadErrors;
/// The errors of a paged list: those of a read, with 403 PAGINATION_DEPTH_EXCEEDED and 429
/// PAGINATION_BURST among them.
pub struct ListErrors;

fn error_responses() -> BTreeMap<String, RefOr<Response>> {
    let statuses = [
        ("400", "Invalid parameter (details names each) or request"),
        ("401", "Missing or invalid API key"),
        ("403", "Plan, account or page depth does not allow it"),
        ("404", "No record has this id"),
        ("429", "Rate limit, daily cap or page burst; Retry-After says when"),
        ("500", "Internal error; quote request_id"),
    ];
    statuses
        .into_iter()
        .map(|(status, description)| {
            let content = ContentBuilder::new()
                .schema(Some(RefOr::Ref(utoipa::openapi::Ref::from_schema_name("ErrorEnvelope"))))
                .build();
            let response =
                ResponseBuilder::new().description(description).content("application/json", content).build();
            (status.to_owned(), RefOr::T(response))
        })
        .collect()
}

impl IntoResponses for ReadErrors {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        error_responses()
    }
}

impl IntoResponses for ListErrors {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        error_responses()
    }
}

/// A consulted page and its kind.
#[derive(ToSchema)]
pub struct SourceKind {
    url: String,
    /// manufacturer, standards_body, government, reference, aggregator, press, retailer,
    /// community, other
    kind: String,
}

/// Where a record's figures come from; on every plan.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct Provenance {
    sources: Vec<String>,
    source_kinds: Vec<SourceKind>,
    best_source_kind: Option<String>,
    data_confidence: Option<f64>,
    verified_at: Option<String>,
    /// Fields a source was checked to state; null while unverified.
    verified_fields: Option<Vec<String>>,
    /// Cartridges: the standard their figures come from.
    spec_source: Option<String>,
    updated_at: String,
    version: String,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct Manufacturer {
    id: String,
    name: String,
    country_code: Option<String>,
    founded_year: Option<i64>,
    website: Option<String>,
    logo_url: Option<String>,
    description: Option<String>,
    created_at: String,
    updated_at: String,
}

#[derive(ToSchema)]
pub struct Category {
    id: String,
    name: String,
    description: Option<String>,
}

#[derive(ToSchema)]
pub struct NamedRef {
    id: String,
    name: String,
}

mod firearms;
mod reference;
mod webhooks;

pub use firearms::*;
pub use reference::*;
pub use webhooks::*;
