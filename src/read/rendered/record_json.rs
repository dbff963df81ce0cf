//! The served shapes of manufacturers, calibers and ammunition loads, and their details rendered
//! once per snapshot with their ETags (firearms have their own module, `firearm_json`).

use serde_json::{Value, json};

use super::Rendered;
use crate::catalog::model::{Ammunition, Caliber, Manufacturer};
use crate::read::snapshot::RecordMeta;
use crate::read::views::{self, View};

/// Explorer's caliber fields.
pub const CALIBER_SUMMARY: &[&str] =
    &["id", "name", "natoDesignation", "cartridgeType", "bulletDiameterMm", "caseLengthMm", "yearIntroduced"];
/// Every served caliber field, in the spec's order (aliases is a string holding JSON).
pub const CALIBER_FULL: &[&str] = &[
    "id",
    "name",
    "aliases",
    "natoDesignation",
    "bulletDiameterMm",
    "neckDiameterMm",
    "baseDiameterMm",
    "caseLengthMm",
    "overallLengthMm",
    "maxPressureMpa",
    "maxPressurePsi",
    "typicalBulletWeightG",
    "typicalMuzzleVelocityMps",
    "typicalMuzzleEnergyJ",
    "primerType",
    "cartridgeType",
    "parentCartridgeId",
    "designer",
    "yearIntroduced",
    "description",
    "createdAt",
    "updatedAt",
];
/// Every served ammunition field.
pub const AMMUNITION_FIELDS: &[&str] = &[
    "id",
    "name",
    "caliberId",
    "manufacturerId",
    "productLine",
    "bulletWeightG",
    "bulletType",
    "muzzleVelocityMps",
    "muzzleEnergyJ",
    "ballisticCoefficientG1",
    "testBarrelLengthMm",
    "isCommon",
    "description",
    "createdAt",
    "updatedAt",
];

/// The manufacturer as its detail serves it: the plan's fields and provenance.
pub fn manufacturer_detail(maker: &Manufacturer, meta: &RecordMeta, view: View) -> Value {
    let record = views::with_meta(maker, meta);
    let fields = match view {
        View::Summary => views::MANUFACTURER_SUMMARY,
        View::Full => views::MANUFACTURER_FULL,
    };
    let mut data = views::project(&record, fields);
    data["provenance"] = views::provenance(&record, meta);
    data
}

/// The caliber's served record (aliases as a JSON string), before projection.
fn caliber_record(caliber: &Caliber, meta: &RecordMeta) -> Value {
    let mut value = views::with_meta(caliber, meta);
    if let Some(aliases) = caliber.aliases.as_ref() {
        value["aliases"] = json!(serde_json::to_string(aliases).unwrap_or_default());
    }
    value
}

/// The caliber as lists serve it: the plan's fields.
pub fn caliber_item(caliber: &Caliber, meta: &RecordMeta, view: View) -> Value {
    let fields = match view {
        View::Summary => CALIBER_SUMMARY,
        View::Full => CALIBER_FULL,
    };
    views::project(&caliber_record(caliber, meta), fields)
}

/// The caliber as its detail serves it: the plan's fields and provenance (specSource among it).
pub fn caliber_detail(caliber: &Caliber, meta: &RecordMeta, view: View) -> Value {
    let mut out = caliber_item(caliber, meta, view);
    out["provenance"] = views::provenance(&caliber_record(caliber, meta), meta);
    out
}

/// The load as lists serve it.
pub fn ammunition_item(load: &Ammunition, meta: &RecordMeta) -> Value {
    serde_json::to_value(AmmunitionItem::of(load, meta)).unwrap_or(Value::Null)
}

/// A load as lists serve it: `AMMUNITION_FIELDS` in their order, written straight from the
/// record. Projected from the record's whole JSON tree (`views::project`), a page of twenty cost a
/// cartridge's loads about 0.1 ms a request, most of it building maps that were thrown away.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AmmunitionItem<'a> {
    id: &'a str,
    name: &'a str,
    caliber_id: &'a str,
    manufacturer_id: Option<&'a str>,
    product_line: Option<&'a str>,
    bullet_weight_g: Option<f64>,
    bullet_type: Option<&'a str>,
    muzzle_velocity_mps: Option<f64>,
    muzzle_energy_j: Option<f64>,
    #[serde(rename = "ballisticCoefficientG1")]
    ballistic_coefficient_g1: Option<f64>,
    test_barrel_length_mm: Option<f64>,
    is_common: Option<bool>,
    description: Option<&'a str>,
    created_at: &'a str,
    updated_at: &'a str,
}

impl<'a> AmmunitionItem<'a> {
    pub fn of(load: &'a Ammunition, meta: &'a RecordMeta) -> Self {
        Self {
            id: &load.id,
            name: &load.name,
            caliber_id: &load.caliber_id,
            manufacturer_id: load.manufacturer_id.as_deref(),
            product_line: load.product_line.as_deref(),
            bullet_weight_g: load.bullet_weight_g,
            bullet_type: load.bullet_type.as_deref(),
            muzzle_velocity_mps: load.muzzle_velocity_mps,
            muzzle_energy_j: load.muzzle_energy_j,
            ballistic_coefficient_g1: load.ballistic_coefficient_g1,
            test_barrel_length_mm: load.test_barrel_length_mm,
            is_common: load.is_common,
            description: load.description.as_deref(),
            created_at: &meta.created_at,
            updated_at: &meta.updated_at,
        }
    }
}

/// The load with its cartridge and maker named (null when the maker is not in the catalog), and
/// provenance.
pub fn ammunition_detail(
    load: &Ammunition,
    meta: &RecordMeta,
    caliber: Option<&Caliber>,
    maker: Option<&Manufacturer>,
) -> Value {
    let mut data = ammunition_item(load, meta);
    data["caliber"] = caliber.map_or(Value::Null, |c| json!({ "id": c.id, "name": c.name }));
    data["manufacturer"] = maker.map_or(Value::Null, |m| json!({ "id": m.id, "name": m.name }));
    data["provenance"] = views::provenance(&views::with_meta(load, meta), meta);
    data
}

/// Both plan views of a detail, rendered.
pub fn both_views(render: impl Fn(View) -> Value) -> [Rendered; 2] {
    [View::Summary, View::Full].map(|view| Rendered::envelope(&render(view).to_string()))
}

pub fn view_index(view: View) -> usize {
    match view {
        View::Summary => 0,
        View::Full => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta() -> RecordMeta {
        RecordMeta {
            version: "1".into(),
            created_at: "2026-11-01 10:00:00".into(),
            updated_at: "2026-11-02 11:00:00".into(),
        }
    }

    #[test]
    fn a_listed_load_is_the_projection_of_its_whole_record() {
        let full: Ammunition = serde_json::from_value(serde_json::json!({
            "id": "a-load", "name": "A \"quoted\" load", "caliberId": "9x19", "manufacturerId": "maker",
            "productLine": "Line", "bulletWeightG": 7.45, "bulletType": "fmj", "muzzleVelocityMps": 360.0,
            "muzzleEnergyJ": 0.1_f64 + 0.2, "ballisticCoefficientG1": 0.14, "testBarrelLengthMm": 117.0,
            "isCommon": true, "description": "Words.", "dataConfidence": 0.8, "sources": [],
            "verifiedAt": null, "verifiedFields": null
        }))
        .unwrap();
        let bare: Ammunition =
            serde_json::from_value(serde_json::json!({ "id": "b", "name": "B", "caliberId": "c" })).unwrap();
        for load in [&full, &bare] {
            let projected = views::project(&views::with_meta(load, &meta()), AMMUNITION_FIELDS);
            assert_eq!(ammunition_item(load, &meta()), projected);
            // Field order too: the served text, not only the value.
            assert_eq!(
                serde_json::to_string(&AmmunitionItem::of(load, &meta())).unwrap(),
                serde_json::to_string(&projected).unwrap()
            );
        }
    }
}
