//! Schemas of the firearm reads.

use serde::Deserialize;
use utoipa::ToSchema;

use super::{Category, Manufacturer, Provenance};

/// A firearm in a list. Explorer gets these fields; Builder and up get every field of
/// FirearmDetail that is not nested (and `fields` narrows either).
#[derive(ToSchema, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FirearmListItem {
    pub id: String,
    pub name: String,
    pub manufacturer_id: String,
    pub category_id: String,
    pub year_introduced: Option<i64>,
    /// in_production, discontinued, prototype
    pub status: Option<String>,
    /// ISO 3166-1 alpha-2
    pub country_of_origin: Option<String>,
    pub action_type: Option<String>,
    pub weight_empty_g: Option<f64>,
    pub barrel_length_mm: Option<f64>,
}

/// A firearm in the list of GET /v1/firearms: the list item (Explorer) or the full flat record
/// (Builder and up), or, with `fields`, only `id` and the fields asked for; so only `id` is
/// always present.
#[derive(ToSchema, serde::Serialize)]
#[schema(rename_all = "camelCase")]
pub struct FirearmListRecord {
    id: String,
    name: Option<String>,
    manufacturer_id: Option<String>,
    category_id: Option<String>,
    year_introduced: Option<i64>,
    status: Option<String>,
    country_of_origin: Option<String>,
    action_type: Option<String>,
    weight_empty_g: Option<f64>,
    barrel_length_mm: Option<f64>,
}

/// A cartridge the firearm chambers.
#[derive(ToSchema, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FirearmCaliber {
    pub caliber_id: String,
    /// 1 for the primary chambering, else 0.
    pub is_primary: i64,
    pub name: String,
    pub nato_designation: Option<String>,
    pub bullet_diameter_mm: Option<f64>,
    pub case_length_mm: Option<f64>,
}

#[derive(ToSchema, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FirearmImage {
    pub id: i64,
    pub firearm_id: String,
    pub url: String,
    /// primary, gallery, thumbnail, svg, ...
    #[serde(rename = "type")]
    pub image_type: Option<String>,
    pub source: Option<String>,
    pub license: Option<String>,
    pub alt_text: Option<String>,
    pub width_px: Option<i64>,
    pub height_px: Option<i64>,
}

#[derive(ToSchema, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FirearmUser {
    pub id: i64,
    pub firearm_id: String,
    pub user_name: String,
    pub user_type: Option<String>,
    pub country_code: Option<String>,
    pub designation: Option<String>,
    pub adopted_year: Option<i64>,
}

/// A firearm in full. Explorer gets only the FirearmListItem fields and provenance.
/// safetyMechanisms, features, feedSystems, alternateNames, firingModes and sources are strings
/// holding a JSON array; conflicts a string holding a JSON array of {name, years, sides};
/// productionNumbers a string holding a JSON object {estimated_total, production_years, notes}.
#[derive(ToSchema, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FirearmDetail {
    pub id: String,
    pub name: String,
    pub manufacturer_id: String,
    pub category_id: String,
    pub parent_firearm_id: Option<String>,
    pub variant_type: Option<String>,
    pub year_introduced: Option<i64>,
    pub year_discontinued: Option<i64>,
    pub status: Option<String>,
    pub country_of_origin: Option<String>,
    pub weight_empty_g: Option<f64>,
    pub weight_loaded_g: Option<f64>,
    pub overall_length_mm: Option<f64>,
    pub barrel_length_mm: Option<f64>,
    pub height_mm: Option<f64>,
    pub width_mm: Option<f64>,
    pub sight_radius_mm: Option<f64>,
    pub folded_length_mm: Option<f64>,
    pub action_type: Option<String>,
    pub firing_mechanism: Option<String>,
    pub trigger_type: Option<String>,
    pub magazine_type: Option<String>,
    #[serde(rename = "triggerPullN")]
    pub trigger_pull_n: Option<f64>,
    pub magazine_capacity: Option<i64>,
    pub muzzle_velocity_mps: Option<f64>,
    pub muzzle_energy_j: Option<f64>,
    pub effective_range_m: Option<f64>,
    pub max_range_m: Option<f64>,
    pub rate_of_fire_rpm: Option<i64>,
    pub barrel_rifling: Option<String>,
    pub rifling_twist_mm: Option<f64>,
    pub number_of_grooves: Option<i64>,
    pub frame_material: Option<String>,
    pub slide_material: Option<String>,
    pub barrel_material: Option<String>,
    pub stock_material: Option<String>,
    pub finish: Option<String>,
    pub safety_mechanisms: Option<String>,
    pub features: Option<String>,
    pub feed_systems: Option<String>,
    pub alternate_names: Option<String>,
    pub firing_modes: Option<String>,
    pub sources: Option<String>,
    pub conflicts: Option<String>,
    pub production_numbers: Option<String>,
    pub game_damage: Option<i64>,
    pub game_accuracy: Option<i64>,
    pub game_range: Option<i64>,
    pub game_fire_rate: Option<i64>,
    pub game_mobility: Option<i64>,
    pub game_recoil_control: Option<i64>,
    pub game_reload_speed: Option<i64>,
    pub game_concealment: Option<i64>,
    pub description: Option<String>,
    pub notes: Option<String>,
    pub lore: Option<String>,
    pub designer: Option<String>,
    pub data_confidence: Option<f64>,
    /// Full view (Builder and up) only, like every field but the list item's and provenance.
    #[schema(required = false)]
    #[serde(default)]
    pub created_at: String,
    #[schema(required = false)]
    #[serde(default)]
    pub updated_at: String,
    /// Opaque content version; changes only when a served field changed.
    #[schema(required = false)]
    #[serde(default)]
    pub version: String,
    pub manufacturer: Option<Manufacturer>,
    pub category: Option<Category>,
    #[schema(required = false)]
    #[serde(default)]
    pub calibers: Vec<FirearmCaliber>,
    #[schema(required = false)]
    #[serde(default)]
    pub images: Vec<FirearmImage>,
    #[schema(required = false)]
    #[serde(default)]
    pub users: Vec<FirearmUser>,
    pub provenance: Provenance,
}
