//! Plan views: one mechanism that decides which fields a caller's plan sees.
//!
//! Explorer gets the summary field set, Builder and up the full record (decisions.md). A view is
//! a list of served field names kept from a record's JSON; provenance, where a record carries it,
//! is added on every plan.

use serde_json::{Map, Value, json};

use crate::access::plan::Plan;
use crate::catalog::model::Source;
use crate::catalog::vocabulary::best_source_kind;
use crate::read::snapshot::RecordMeta;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum View {
    Summary,
    Full,
}

impl View {
    pub fn of(plan: Plan) -> Self {
        if plan >= Plan::Builder { View::Full } else { View::Summary }
    }
}

/// The firearm list item (spec "Firearm list item").
pub const FIREARM_LIST_ITEM: &[&str] = &[
    "id",
    "name",
    "manufacturerId",
    "categoryId",
    "yearIntroduced",
    "status",
    "countryOfOrigin",
    "actionType",
    "weightEmptyG",
    "barrelLengthMm",
];
/// A manufacturer's firearms.
pub const MANUFACTURER_FIREARM_ITEM: &[&str] =
    &["id", "name", "categoryId", "yearIntroduced", "status", "actionType"];
/// A category's firearms.
pub const CATEGORY_FIREARM_ITEM: &[&str] =
    &["id", "name", "manufacturerId", "yearIntroduced", "status", "actionType"];
pub const MANUFACTURER_SUMMARY: &[&str] = &["id", "name", "countryCode", "foundedYear"];
pub const MANUFACTURER_FULL: &[&str] = &[
    "id",
    "name",
    "countryCode",
    "foundedYear",
    "website",
    "logoUrl",
    "description",
    "createdAt",
    "updatedAt",
];

/// Keep `fields` of `record` (absent ones served as null), in that order.
pub fn project(record: &Value, fields: &[&str]) -> Value {
    let mut out = Map::with_capacity(fields.len());
    for field in fields {
        out.insert((*field).to_owned(), record.get(*field).cloned().unwrap_or(Value::Null));
    }
    Value::Object(out)
}

/// A record's JSON with its stored createdAt, updatedAt and version.
pub fn with_meta(record: &impl serde::Serialize, meta: &RecordMeta) -> Value {
    let mut value = serde_json::to_value(record).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut value {
        map.insert("createdAt".into(), json!(meta.created_at));
        map.insert("updatedAt".into(), json!(meta.updated_at));
    }
    value
}

/// The provenance object served on every plan, from a record's served JSON.
pub fn provenance(record: &Value, meta: &RecordMeta) -> Value {
    let sources: Vec<Source> = serde_json::from_value(record["sources"].clone()).unwrap_or_default();
    let facts = ProvenanceFacts {
        sources: &sources,
        data_confidence: record["dataConfidence"].as_f64(),
        verified_at: record["verifiedAt"].as_str(),
        verified_fields: &record["verifiedFields"],
        spec_source: record.get("specSource").and_then(Value::as_str),
    };
    provenance_of(&facts, meta)
}

/// What a record says about where its figures come from.
pub struct ProvenanceFacts<'a> {
    pub sources: &'a [Source],
    pub data_confidence: Option<f64>,
    pub verified_at: Option<&'a str>,
    /// null while unverified, else the list of fields.
    pub verified_fields: &'a Value,
    pub spec_source: Option<&'a str>,
}

/// The provenance object, from the record's own fields (no serialisation of the record).
pub fn provenance_of(facts: &ProvenanceFacts, meta: &RecordMeta) -> Value {
    json!({
        "sources": facts.sources.iter().map(|s| s.url.as_str()).collect::<Vec<_>>(),
        "sourceKinds": facts.sources,
        "fieldSources": field_sources(facts.sources),
        "bestSourceKind": best_source_kind(facts.sources.iter().map(|s| s.kind.as_str())),
        "dataConfidence": facts.data_confidence,
        "verifiedAt": facts.verified_at,
        "verifiedFields": facts.verified_fields,
        "specSource": facts.spec_source,
        "updatedAt": meta.updated_at,
        "version": meta.version,
    })
}

/// Each field a source names, with the URLs of the sources naming it (in source order); an empty
/// object when no source names a field.
fn field_sources(sources: &[Source]) -> Value {
    let mut out: Map<String, Value> = Map::new();
    for source in sources {
        for field in &source.fields {
            let urls = out.entry(field.clone()).or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(urls) = urls
                && !urls.iter().any(|url| url == source.url.as_str())
            {
                urls.push(Value::String(source.url.clone()));
            }
        }
    }
    Value::Object(out)
}
