//! The shapes of the catalog's pre-rendered answers: their OpenAPI description, and the types a
//! Rust client reads them into.
//!
//! The read path serves JSON pre-rendered from the catalog records (`read::rendered::firearm_json`),
//! so these types are not what writes those bodies: they describe them field by field and read
//! them back (`Deserialize`). A contract test (`contract::shapes`) reads the pre-rendered answers
//! of the bundled catalog into them in both plan views, and fails on a served field the
//! description does not name. They live beside the renderer so the read side's
//! typed answers can name them for the pre-rendered parts they carry.

use serde::Deserialize;
use utoipa::ToSchema;

/// A consulted page and its kind.
#[derive(ToSchema, Deserialize)]
pub struct SourceKind {
    pub url: String,
    /// manufacturer, standards_body, government, reference, aggregator, press, retailer,
    /// community, other
    pub kind: String,
    /// The fields whose figures this page states; absent when none has been tied to it yet.
    pub fields: Option<Vec<String>>,
}

/// Where a record's figures come from; on every plan.
#[derive(ToSchema, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Provenance {
    pub sources: Vec<String>,
    pub source_kinds: Vec<SourceKind>,
    /// Per field, the URLs of the sources whose `fields` name it (per-field provenance); an empty
    /// object when no source names a field yet.
    pub field_sources: std::collections::BTreeMap<String, Vec<String>>,
    pub best_source_kind: Option<String>,
    pub data_confidence: Option<f64>,
    pub verified_at: Option<String>,
    /// Fields a source was checked to state; null while unverified.
    pub verified_fields: Option<Vec<String>>,
    /// Cartridges: the standard their figures come from.
    pub spec_source: Option<String>,
    pub updated_at: String,
    pub version: String,
}

#[derive(ToSchema, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Manufacturer {
    pub id: String,
    pub name: String,
    pub country_code: Option<String>,
    pub founded_year: Option<i64>,
    pub website: Option<String>,
    pub logo_url: Option<String>,
    pub description: Option<String>,
    /// Full view (Builder and up) only.
    pub created_at: Option<String>,
    /// Full view (Builder and up) only.
    pub updated_at: Option<String>,
}

#[derive(ToSchema, Deserialize)]
pub struct Category {
    pub id: String,
    pub name: String,
    pub description: Option<String>,
}

#[derive(ToSchema, serde::Serialize, Deserialize)]
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
