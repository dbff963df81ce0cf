//! Schemas of the firearm reads.

use utoipa::ToSchema;

use super::{Category, Manufacturer, Provenance};

/// A firearm in a list. Explorer gets these fields; Builder and up get every field of
/// FirearmDetail that is not nested (and `fields` narrows either).
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct FirearmListItem {
    id: String,
    name: String,
    manufacturer_id: String,
    category_id: String,
    year_introduced: Option<i64>,
    /// in_production, discontinued, prototype
    status: Option<String>,
    /// ISO 3166-1 alpha-2
    country_of_origin: Option<String>,
    action_type: Option<String>,
    weight_empty_g: Option<f64>,
    barrel_length_mm: Option<f64>,
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
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct FirearmCaliber {
    caliber_id: String,
    /// 1 for the primary chambering, else 0.
    is_primary: i64,
    name: String,
    nato_designation: Option<String>,
    bullet_diameter_mm: Option<f64>,
    case_length_mm: Option<f64>,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct FirearmImage {
    id: i64,
    firearm_id: String,
    url: String,
    /// primary, gallery, thumbnail, svg, ...
    #[schema(rename = "type")]
    image_type: Option<String>,
    source: Option<String>,
    license: Option<String>,
    alt_text: Option<String>,
    width_px: Option<i64>,
    height_px: Option<i64>,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct FirearmUser {
    id: i64,
    firearm_id: String,
    user_name: String,
    user_type: Option<String>,
    country_code: Option<String>,
    designation: Option<String>,
    adopted_year: Option<i64>,
}

/// A firearm in full. Explorer gets only the FirearmListItem fields and provenance.
/// safetyMechanisms, features, feedSystems, alternateNames, firingModes and sources are strings
/// holding a JSON array; conflicts a string holding a JSON array of {name, years, sides};
/// productionNumbers a string holding a JSON object {estimated_total, production_years, notes}.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct FirearmDetail {
    id: String,
    name: String,
    manufacturer_id: String,
    category_id: String,
    parent_firearm_id: Option<String>,
    variant_type: Option<String>,
    year_introduced: Option<i64>,
    year_discontinued: Option<i64>,
    status: Option<String>,
    country_of_origin: Option<String>,
    weight_empty_g: Option<f64>,
    weight_loaded_g: Option<f64>,
    overall_length_mm: Option<f64>,
    barrel_length_mm: Option<f64>,
    height_mm: Option<f64>,
    width_mm: Option<f64>,
    sight_radius_mm: Option<f64>,
    folded_length_mm: Option<f64>,
    action_type: Option<String>,
    firing_mechanism: Option<String>,
    trigger_type: Option<String>,
    magazine_type: Option<String>,
    #[schema(rename = "triggerPullN")]
    trigger_pull_n: Option<f64>,
    magazine_capacity: Option<i64>,
    muzzle_velocity_mps: Option<f64>,
    muzzle_energy_j: Option<f64>,
    effective_range_m: Option<f64>,
    max_range_m: Option<f64>,
    rate_of_fire_rpm: Option<i64>,
    barrel_rifling: Option<String>,
    rifling_twist_mm: Option<f64>,
    number_of_grooves: Option<i64>,
    frame_material: Option<String>,
    slide_material: Option<String>,
    barrel_material: Option<String>,
    stock_material: Option<String>,
    finish: Option<String>,
    safety_mechanisms: Option<String>,
    features: Option<String>,
    feed_systems: Option<String>,
    alternate_names: Option<String>,
    firing_modes: Option<String>,
    sources: Option<String>,
    conflicts: Option<String>,
    production_numbers: Option<String>,
    game_damage: Option<i64>,
    game_accuracy: Option<i64>,
    game_range: Option<i64>,
    game_fire_rate: Option<i64>,
    game_mobility: Option<i64>,
    game_recoil_control: Option<i64>,
    game_reload_speed: Option<i64>,
    game_concealment: Option<i64>,
    description: Option<String>,
    notes: Option<String>,
    lore: Option<String>,
    designer: Option<String>,
    data_confidence: Option<f64>,
    /// Full view (Builder and up) only, like every field but the list item's and provenance.
    #[schema(required = false)]
    created_at: String,
    #[schema(required = false)]
    updated_at: String,
    /// Opaque content version; changes only when a served field changed.
    #[schema(required = false)]
    version: String,
    manufacturer: Option<Manufacturer>,
    category: Option<Category>,
    #[schema(required = false)]
    calibers: Vec<FirearmCaliber>,
    #[schema(required = false)]
    images: Vec<FirearmImage>,
    #[schema(required = false)]
    users: Vec<FirearmUser>,
    provenance: Provenance,
}
