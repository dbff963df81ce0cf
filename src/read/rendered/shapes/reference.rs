//! Schemas of the cartridge, ammunition, country, conflict and game-stats-version reads.

use serde::Deserialize;
use utoipa::ToSchema;

use super::{Manufacturer, NamedRef, Provenance};

/// Every served caliber field; Explorer gets id, name, natoDesignation, cartridgeType,
/// bulletDiameterMm, caseLengthMm, yearIntroduced (and provenance on detail). aliases is a string
/// holding a JSON array.
#[derive(ToSchema, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Caliber {
    pub id: String,
    pub name: String,
    pub aliases: Option<String>,
    pub nato_designation: Option<String>,
    pub bullet_diameter_mm: Option<f64>,
    pub neck_diameter_mm: Option<f64>,
    pub base_diameter_mm: Option<f64>,
    pub case_length_mm: Option<f64>,
    pub overall_length_mm: Option<f64>,
    pub max_pressure_mpa: Option<f64>,
    pub max_pressure_psi: Option<f64>,
    pub typical_bullet_weight_g: Option<f64>,
    pub typical_muzzle_velocity_mps: Option<f64>,
    pub typical_muzzle_energy_j: Option<f64>,
    pub primer_type: Option<String>,
    pub cartridge_type: Option<String>,
    pub parent_cartridge_id: Option<String>,
    pub designer: Option<String>,
    pub year_introduced: Option<i64>,
    pub description: Option<String>,
    /// Full view (Builder and up) only.
    #[schema(required = false)]
    #[serde(default)]
    pub created_at: String,
    #[schema(required = false)]
    #[serde(default)]
    pub updated_at: String,
    /// On detail and compare.
    pub provenance: Option<Provenance>,
}

#[derive(ToSchema, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Ammunition {
    pub id: String,
    pub name: String,
    pub caliber_id: String,
    pub manufacturer_id: Option<String>,
    pub product_line: Option<String>,
    pub bullet_weight_g: Option<f64>,
    /// fmj, jhp, ... (vocabularies.md)
    pub bullet_type: Option<String>,
    pub muzzle_velocity_mps: Option<f64>,
    pub muzzle_energy_j: Option<f64>,
    #[serde(rename = "ballisticCoefficientG1")]
    pub ballistic_coefficient_g1: Option<f64>,
    pub test_barrel_length_mm: Option<f64>,
    pub is_common: Option<bool>,
    pub description: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    /// On detail only.
    pub caliber: Option<NamedRef>,
    /// On detail only; null when the maker is not in the catalog.
    pub manufacturer: Option<NamedRef>,
    /// On detail only.
    pub provenance: Option<Provenance>,
}

/// A manufacturer with provenance (Explorer: id, name, countryCode, foundedYear and provenance).
#[derive(ToSchema, Deserialize)]
pub struct ManufacturerDetail {
    #[schema(inline)]
    #[serde(flatten)]
    pub manufacturer: Manufacturer,
    pub provenance: Provenance,
}

/// A firearm in a manufacturer's list.
#[derive(ToSchema, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ManufacturerFirearm {
    pub id: String,
    pub name: String,
    pub category_id: String,
    pub year_introduced: Option<i64>,
    pub status: Option<String>,
    pub action_type: Option<String>,
}

/// A firearm in a category's list.
#[derive(ToSchema, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CategoryFirearm {
    pub id: String,
    pub name: String,
    pub manufacturer_id: String,
    pub year_introduced: Option<i64>,
    pub status: Option<String>,
    pub action_type: Option<String>,
}
