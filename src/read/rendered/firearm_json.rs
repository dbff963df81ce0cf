//! The served shapes of a firearm: list item, flat full record and detail (spec "Firearm list
//! item", "Firearm detail"), built once per snapshot.
//!
//! The spec serves several list and object fields as strings that contain JSON (safetyMechanisms,
//! features, feedSystems, alternateNames, firingModes, conflicts, productionNumbers, sources), so
//! they are encoded here; a field the catalog does not know stays null, never the string "null".

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::catalog::game_stats::GameStats;
use crate::catalog::model::{Caliber, Firearm};
use crate::read::snapshot::RecordMeta;
use crate::read::views;

/// The served scalar fields of a firearm in the spec's order, before the game stats.
const SPEC_FIELDS: &[&str] = &[
    "id",
    "name",
    "manufacturerId",
    "categoryId",
    "parentFirearmId",
    "variantType",
    "yearIntroduced",
    "yearDiscontinued",
    "status",
    "countryOfOrigin",
    "weightEmptyG",
    "weightLoadedG",
    "overallLengthMm",
    "barrelLengthMm",
    "heightMm",
    "widthMm",
    "sightRadiusMm",
    "foldedLengthMm",
    "actionType",
    "firingMechanism",
    "triggerType",
    "magazineType",
    "triggerPullN",
    "magazineCapacity",
    "muzzleVelocityMps",
    "muzzleEnergyJ",
    "effectiveRangeM",
    "maxRangeM",
    "rateOfFireRpm",
    "barrelRifling",
    "riflingTwistMm",
    "numberOfGrooves",
    "frameMaterial",
    "slideMaterial",
    "barrelMaterial",
    "stockMaterial",
    "finish",
    "safetyMechanisms",
    "features",
    "feedSystems",
    "alternateNames",
    "firingModes",
    "sources",
    "conflicts",
    "productionNumbers",
];

/// Fields served as a string holding JSON.
const JSON_IN_STRING: &[&str] = &[
    "safetyMechanisms",
    "features",
    "feedSystems",
    "alternateNames",
    "firingModes",
    "conflicts",
    "productionNumbers",
];

/// The prose and bookkeeping fields that close the flat record.
const CLOSING_FIELDS: &[&str] = &["description", "notes", "lore", "designer", "dataConfidence"];

/// Every field a Builder caller can name in `fields` (the flat full record).
pub fn full_field_names() -> Vec<&'static str> {
    let stats = GameStats::default().named().map(|(name, _)| name);
    SPEC_FIELDS
        .iter()
        .copied()
        .chain(stats)
        .chain(CLOSING_FIELDS.iter().copied())
        .chain(["createdAt", "updatedAt", "version"])
        .collect()
}

/// What the detail nests beside the firearm itself, each already serialised (the manufacturer
/// and category once per record, not once per firearm).
pub struct Nested<'a> {
    pub manufacturer: &'a str,
    pub category: &'a str,
    pub calibers: Vec<(&'a Caliber, bool)>,
    /// Stored ids of the firearm's users, in the firearm's order.
    pub user_ids: &'a [i64],
}

/// The flat full record: every served scalar field, game stats, timestamps and version.
pub fn full_record(firearm: &Firearm, stats: &GameStats, meta: &RecordMeta) -> Map<String, Value> {
    let mut record = match serde_json::to_value(firearm) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    };
    let mut out = Map::with_capacity(64);
    for field in SPEC_FIELDS {
        let value = record.remove(*field).unwrap_or(Value::Null);
        let value = match *field {
            "sources" => json_string(&firearm.sources.iter().map(|s| s.url.as_str()).collect::<Vec<_>>()),
            _ if JSON_IN_STRING.contains(field) && !value.is_null() => json_string(&value),
            _ => value,
        };
        out.insert((*field).to_owned(), value);
    }
    for (name, value) in stats.named() {
        out.insert(name.to_owned(), json!(value));
    }
    for field in CLOSING_FIELDS {
        out.insert((*field).to_owned(), record.remove(*field).unwrap_or(Value::Null));
    }
    out.insert("createdAt".into(), json!(meta.created_at));
    out.insert("updatedAt".into(), json!(meta.updated_at));
    out.insert("version".into(), json!(meta.version));
    out
}

/// The detail for Builder and up: the serialised full record with its nested records and
/// provenance appended. Assembled as text, so the record is serialised once, not once per view.
pub fn detail(firearm: &Firearm, full: &str, nested: &Nested, provenance: &str) -> String {
    let calibers = Value::Array(nested.calibers.iter().map(|(c, p)| caliber_link(c, *p)).collect());
    let mut out = open_object(full);
    for (key, value) in [
        ("manufacturer", nested.manufacturer),
        ("category", nested.category),
        ("calibers", &calibers.to_string()),
        ("images", &images(firearm).to_string()),
        ("users", &users(firearm, nested.user_ids).to_string()),
        ("provenance", provenance),
    ] {
        out.push_str(&format!(",\"{key}\":{value}"));
    }
    out.push('}');
    out
}

/// The detail for Explorer: the serialised list item with provenance appended.
pub fn summary_detail(item: &str, provenance: &str) -> String {
    let mut out = open_object(item);
    out.push_str(",\"provenance\":");
    out.push_str(provenance);
    out.push('}');
    out
}

/// A serialised, non-empty JSON object without its closing brace, ready for more members.
fn open_object(object: &str) -> String {
    let body = object.strip_suffix('}').unwrap_or(object);
    let mut out = String::with_capacity(object.len() + 2048);
    out.push_str(body);
    out
}

/// The firearm list item (the summary field set).
pub fn list_item(flat: &Map<String, Value>) -> Value {
    let mut out = Map::with_capacity(views::FIREARM_LIST_ITEM.len());
    for field in views::FIREARM_LIST_ITEM {
        out.insert((*field).to_owned(), flat.get(*field).cloned().unwrap_or(Value::Null));
    }
    Value::Object(out)
}

pub fn provenance(firearm: &Firearm, meta: &RecordMeta) -> Value {
    let verified_fields = serde_json::to_value(&firearm.verified_fields).unwrap_or(Value::Null);
    let facts = views::ProvenanceFacts {
        sources: &firearm.sources,
        data_confidence: firearm.data_confidence,
        verified_at: firearm.verified_at.as_deref(),
        verified_fields: &verified_fields,
        spec_source: None,
    };
    views::provenance_of(&facts, meta)
}

/// FirearmCaliber: the cartridge as the detail nests it.
pub fn caliber_link(caliber: &Caliber, is_primary: bool) -> Value {
    json!({
        "caliberId": caliber.id,
        "isPrimary": i64::from(is_primary),
        "name": caliber.name,
        "natoDesignation": caliber.nato_designation,
        "bulletDiameterMm": caliber.bullet_diameter_mm,
        "caseLengthMm": caliber.case_length_mm,
    })
}

/// FirearmImage[]: the spec's fields, then alt text and pixel dimensions.
pub fn images(firearm: &Firearm) -> Value {
    Value::Array(
        firearm
            .images
            .iter()
            .map(|image| {
                json!({
                    "id": image.id, "firearmId": firearm.id, "url": image.url, "type": image.image_type,
                    "source": image.source, "license": image.license, "altText": image.alt_text,
                    "widthPx": image.width_px, "heightPx": image.height_px,
                })
            })
            .collect(),
    )
}

/// FirearmUser[]: each adopter with its stored id.
pub fn users(firearm: &Firearm, user_ids: &[i64]) -> Value {
    Value::Array(
        firearm
            .users
            .iter()
            .enumerate()
            .map(|(position, user)| {
                json!({
                    "id": user_ids.get(position).copied(), "firearmId": firearm.id, "userName": user.user_name,
                    "userType": user.user_type, "countryCode": user.country_code,
                    "designation": user.designation, "adoptedYear": user.adopted_year,
                })
            })
            .collect(),
    )
}

fn json_string(value: &impl Serialize) -> Value {
    Value::String(serde_json::to_string(value).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_and_objects_are_served_as_json_strings_and_absent_ones_as_null() {
        let firearm: Firearm = serde_json::from_value(json!({
            "id": "x", "name": "X", "manufacturerId": "m", "categoryId": "pistols",
            "features": ["ambidextrous slide stop"],
            "sources": [{"url": "https://example.org/x", "kind": "reference"}],
        }))
        .unwrap();
        let flat = full_record(&firearm, &GameStats::default(), &RecordMeta::default());
        assert_eq!(flat["features"], json!("[\"ambidextrous slide stop\"]"));
        assert_eq!(flat["sources"], json!("[\"https://example.org/x\"]"));
        assert_eq!(flat["conflicts"], Value::Null);
        assert_eq!(flat.keys().cloned().collect::<Vec<_>>(), full_field_names());
    }
}
