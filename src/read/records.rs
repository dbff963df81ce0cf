//! The served shapes of manufacturers, calibers and ammunition loads, and their details rendered
//! once per snapshot with their ETags (firearms have their own module, `firearm_json`).

use serde_json::{Value, json};

use super::rendered::Rendered;
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
    views::project(&views::with_meta(load, meta), AMMUNITION_FIELDS)
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
