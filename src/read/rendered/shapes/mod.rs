//! The shapes of the catalog's answers, for the OpenAPI description.
//!
//! The read path serves JSON pre-rendered from the catalog records (`read::rendered::firearm_json`),
//! so these types document those bodies field by field; a contract test keeps them honest by
//! checking answers against the bundled catalog. They live beside the renderer so the read side's
//! typed answers can name them for the pre-rendered parts they carry.

#![allow(dead_code)]

use utoipa::ToSchema;

/// A consulted page and its kind.
#[derive(ToSchema)]
pub struct SourceKind {
    url: String,
    /// manufacturer, standards_body, government, reference, aggregator, press, retailer,
    /// community, other
    kind: String,
    /// The fields whose figures this page states; absent when none has been tied to it yet.
    fields: Option<Vec<String>>,
}

/// Where a record's figures come from; on every plan.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct Provenance {
    sources: Vec<String>,
    source_kinds: Vec<SourceKind>,
    /// Per field, the URLs of the sources whose `fields` name it (per-field provenance); an empty
    /// object when no source names a field yet.
    field_sources: std::collections::BTreeMap<String, Vec<String>>,
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
    /// Full view (Builder and up) only.
    created_at: Option<String>,
    /// Full view (Builder and up) only.
    updated_at: Option<String>,
}

#[derive(ToSchema)]
pub struct Category {
    id: String,
    name: String,
    description: Option<String>,
}

#[derive(ToSchema, serde::Serialize)]
pub struct NamedRef {
    pub id: String,
    pub name: String,
}

/// The items of an answer that `read::rendered::with_items` writes after the answer's other
/// fields, spliced from their pre-rendered forms: the field holding it names their shape
/// (`#[schema(value_type = ...)]`) and is never serialised with the other fields.
#[derive(Default)]
pub struct Spliced;

impl Spliced {
    /// Always: `#[serde(skip_serializing_if = "Spliced::written_after")]` on the field.
    pub fn written_after(&self) -> bool {
        true
    }
}

impl serde::Serialize for Spliced {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_unit()
    }
}

mod firearms;
mod game;
mod rankings;
mod reference;

pub use firearms::*;
pub use game::*;
pub use rankings::*;
pub use reference::*;
