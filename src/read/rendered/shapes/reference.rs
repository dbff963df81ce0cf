//! Schemas of the cartridge, ammunition, country, conflict and game-stats-version reads.

use utoipa::ToSchema;

use super::{Manufacturer, NamedRef, Provenance};

/// Every served caliber field; Explorer gets id, name, natoDesignation, cartridgeType,
/// bulletDiameterMm, caseLengthMm, yearIntroduced (and provenance on detail). aliases is a string
/// holding a JSON array.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct Caliber {
    id: String,
    name: String,
    aliases: Option<String>,
    nato_designation: Option<String>,
    bullet_diameter_mm: Option<f64>,
    neck_diameter_mm: Option<f64>,
    base_diameter_mm: Option<f64>,
    case_length_mm: Option<f64>,
    overall_length_mm: Option<f64>,
    max_pressure_mpa: Option<f64>,
    max_pressure_psi: Option<f64>,
    typical_bullet_weight_g: Option<f64>,
    typical_muzzle_velocity_mps: Option<f64>,
    typical_muzzle_energy_j: Option<f64>,
    primer_type: Option<String>,
    cartridge_type: Option<String>,
    parent_cartridge_id: Option<String>,
    designer: Option<String>,
    year_introduced: Option<i64>,
    description: Option<String>,
    /// Full view (Builder and up) only.
    #[schema(required = false)]
    created_at: String,
    #[schema(required = false)]
    updated_at: String,
    /// On detail and compare.
    provenance: Option<Provenance>,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct Ammunition {
    id: String,
    name: String,
    caliber_id: String,
    manufacturer_id: Option<String>,
    product_line: Option<String>,
    bullet_weight_g: Option<f64>,
    /// fmj, jhp, ... (vocabularies.md)
    bullet_type: Option<String>,
    muzzle_velocity_mps: Option<f64>,
    muzzle_energy_j: Option<f64>,
    #[schema(rename = "ballisticCoefficientG1")]
    ballistic_coefficient_g1: Option<f64>,
    test_barrel_length_mm: Option<f64>,
    is_common: Option<bool>,
    description: Option<String>,
    created_at: String,
    updated_at: String,
    /// On detail only.
    caliber: Option<NamedRef>,
    /// On detail only; null when the maker is not in the catalog.
    manufacturer: Option<NamedRef>,
    /// On detail only.
    provenance: Option<Provenance>,
}

/// A manufacturer with provenance (Explorer: id, name, countryCode, foundedYear and provenance).
#[derive(ToSchema)]
pub struct ManufacturerDetail {
    #[schema(inline)]
    #[serde(flatten)]
    manufacturer: Manufacturer,
    provenance: Provenance,
}

/// A firearm in a manufacturer's list.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct ManufacturerFirearm {
    id: String,
    name: String,
    category_id: String,
    year_introduced: Option<i64>,
    status: Option<String>,
    action_type: Option<String>,
}

/// A firearm in a category's list.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct CategoryFirearm {
    id: String,
    name: String,
    manufacturer_id: String,
    year_introduced: Option<i64>,
    status: Option<String>,
    action_type: Option<String>,
}
