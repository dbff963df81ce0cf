//! The fields data quality looks at, per resource: every optional field of the record by its
//! served name, whether a record fills it, and how much a missing or unverified value of it
//! weighs in a data task (`weight`, 0 for a field whose absence is usually the truth, such as a
//! parent that does not exist or a date of discontinuation for a firearm still made).

use crate::catalog::model::{Ammunition, Attachment, Caliber, Firearm, Interface, Manufacturer, Platform};
use crate::read::statistics::COVERED_FIELDS;
use crate::read::statistics::coverage::Filled;

/// One field of a resource: its served name and whether a record fills it.
pub struct Field<T> {
    pub name: &'static str,
    pub filled: fn(&T) -> bool,
}

macro_rules! fields {
    ($record:ty: $($name:literal => $field:ident),* $(,)?) => {
        &[$(Field::<$record> { name: $name, filled: |r: &$record| r.$field.filled() }),*]
    };
}

pub const MANUFACTURER: &[Field<Manufacturer>] = fields![Manufacturer:
    "countryCode" => country_code,
    "foundedYear" => founded_year,
    "website" => website,
    "logoUrl" => logo_url,
    "description" => description,
    "dataConfidence" => data_confidence,
    "sources" => sources,
];

pub const CALIBER: &[Field<Caliber>] = fields![Caliber:
    "aliases" => aliases,
    "natoDesignation" => nato_designation,
    "bulletDiameterMm" => bullet_diameter_mm,
    "neckDiameterMm" => neck_diameter_mm,
    "baseDiameterMm" => base_diameter_mm,
    "caseLengthMm" => case_length_mm,
    "overallLengthMm" => overall_length_mm,
    "maxPressureMpa" => max_pressure_mpa,
    "maxPressurePsi" => max_pressure_psi,
    "typicalBulletWeightG" => typical_bullet_weight_g,
    "typicalMuzzleVelocityMps" => typical_muzzle_velocity_mps,
    "typicalMuzzleEnergyJ" => typical_muzzle_energy_j,
    "primerType" => primer_type,
    "cartridgeType" => cartridge_type,
    "parentCartridgeId" => parent_cartridge_id,
    "designer" => designer,
    "yearIntroduced" => year_introduced,
    "description" => description,
    "specSource" => spec_source,
    "dataConfidence" => data_confidence,
    "sources" => sources,
];

pub const AMMUNITION: &[Field<Ammunition>] = fields![Ammunition:
    "manufacturerId" => manufacturer_id,
    "productLine" => product_line,
    "bulletWeightG" => bullet_weight_g,
    "bulletType" => bullet_type,
    "muzzleVelocityMps" => muzzle_velocity_mps,
    "muzzleEnergyJ" => muzzle_energy_j,
    "ballisticCoefficientG1" => ballistic_coefficient_g1,
    "testBarrelLengthMm" => test_barrel_length_mm,
    "isCommon" => is_common,
    "description" => description,
    "dataConfidence" => data_confidence,
    "sources" => sources,
];

pub const INTERFACE: &[Field<Interface>] = fields![Interface:
    "kind" => kind,
    "standardBody" => standard_body,
    "description" => description,
    "dataConfidence" => data_confidence,
    "sources" => sources,
];

pub const ATTACHMENT: &[Field<Attachment>] = fields![Attachment:
    "vendor" => vendor,
    "kind" => kind,
    "interfaces" => interfaces,
    "weightG" => weight_g,
    "lengthMm" => length_mm,
    "description" => description,
    "dataConfidence" => data_confidence,
    "sources" => sources,
];

pub const PLATFORM: &[Field<Platform>] = fields![Platform:
    "description" => description,
    "interfaces" => interfaces,
    "dataConfidence" => data_confidence,
    "sources" => sources,
];

/// The firearm's fields: those of its field coverage (operation 73), so the two reports agree.
pub fn firearm() -> Vec<Field<Firearm>> {
    COVERED_FIELDS.iter().map(|(name, filled)| Field { name, filled: *filled }).collect()
}

/// How much a missing or unverified value of `field` of `resource` weighs in a data task: 3 for
/// the figures a reader looks up first and for the sources behind the record, 2 for the figures
/// that tell one record from another, 1 for the rest a reader would miss, 0 for the fields whose
/// absence is usually the truth (no parent, no folding stock, still in production, no notes).
pub fn weight(resource: &str, field: &str) -> u32 {
    match (resource, field) {
        (_, "sources") => 3,
        ("firearms", "weightEmptyG" | "overallLengthMm" | "barrelLengthMm") => 3,
        ("firearms", "yearIntroduced" | "countryOfOrigin" | "actionType" | "magazineCapacity") => 2,
        ("firearms", "muzzleVelocityMps" | "designer" | "manufacturerId") => 2,
        ("firearms", "heightMm" | "widthMm" | "effectiveRangeM" | "rateOfFireRpm" | "description") => 1,
        ("firearms", "feedSystems" | "firingModes" | "users" | "status" | "triggerType") => 1,
        ("calibers", "bulletDiameterMm" | "caseLengthMm") => 3,
        ("calibers", "overallLengthMm" | "typicalBulletWeightG" | "typicalMuzzleVelocityMps") => 2,
        ("calibers", "maxPressureMpa" | "baseDiameterMm" | "neckDiameterMm" | "yearIntroduced") => 1,
        ("calibers", "typicalMuzzleEnergyJ" | "description") => 1,
        ("manufacturers", "countryCode") => 2,
        ("manufacturers", "foundedYear" | "description") => 1,
        ("ammunition", "bulletWeightG" | "muzzleVelocityMps") => 3,
        ("ammunition", "ballisticCoefficientG1" | "bulletType") => 2,
        ("ammunition", "testBarrelLengthMm" | "muzzleEnergyJ" | "manufacturerId") => 1,
        ("interfaces", "standardBody" | "kind") => 2,
        ("attachments", "interfaces" | "kind" | "vendor") => 2,
        ("attachments", "weightG" | "lengthMm") => 1,
        ("platforms", "interfaces") => 2,
        _ => 0,
    }
}
