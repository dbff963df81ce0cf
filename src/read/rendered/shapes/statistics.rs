//! Schemas of the statistics kept rendered per snapshot (71 to 74, 77, 79); the answers computed
//! per request are typed in `read::query::statistics`.

use utoipa::ToSchema;

use super::NamedRef;

/// Record counts per resource, the catalog revision and the last change to a record.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct StatsSummary {
    firearms: i64,
    /// Firearms with no parent model.
    base_models: i64,
    variants: i64,
    manufacturers: i64,
    calibers: i64,
    categories: i64,
    ammunition: i64,
    /// Distinct countries of origin of firearms and manufacturers.
    countries: i64,
    attachments: i64,
    interfaces: i64,
    platforms: i64,
    /// The catalog revision being served (it moves with every import that changes a record).
    catalog_revision: i64,
    /// The latest updatedAt of any firearm, manufacturer, cartridge or load ('YYYY-MM-DD HH:MM:SS').
    last_updated_at: Option<String>,
}

#[derive(ToSchema)]
pub struct StatusCount {
    /// in_production, discontinued, prototype
    status: String,
    count: i64,
    /// Of all firearms, 0 to 1.
    share: f64,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct StatsProductionStatus {
    total: i64,
    statuses: Vec<StatusCount>,
    /// Firearms with no status.
    unknown: i64,
    unknown_share: f64,
}

#[derive(ToSchema)]
pub struct FieldCoverage {
    /// The detail field's served name.
    field: String,
    filled: i64,
    /// Of all firearms, 0 to 1 (four places).
    share: f64,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct StatsFieldCoverage {
    total: i64,
    field_count: i64,
    mean_filled_per_firearm: f64,
    fields: Vec<FieldCoverage>,
}

#[derive(ToSchema)]
pub struct DecadeCount {
    /// e.g. 1940s
    decade: String,
    count: i64,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct CategoryCoverage {
    category: NamedRef,
    total: i64,
    /// Oldest first.
    decades: Vec<DecadeCount>,
    unknown_year: i64,
}

/// A mean over the firearms that state the figure.
#[derive(ToSchema)]
pub struct FigureMean {
    /// null when no firearm of the category states it.
    mean: Option<f64>,
    /// How many firearms state it.
    count: i64,
    unit: String,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct CategoryMeans {
    weight_empty_g: FigureMean,
    barrel_length_mm: FigureMean,
    muzzle_energy_j: FigureMean,
    effective_range_m: FigureMean,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct CategoryFigures {
    category: NamedRef,
    firearm_count: i64,
    base_models: i64,
    means: CategoryMeans,
}

#[derive(ToSchema)]
pub struct MaterialCount {
    /// In lower case.
    material: String,
    count: i64,
    /// Of the firearms stating the component's material.
    share: f64,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct ComponentMaterials {
    /// frame, slide, barrel, stock
    component: String,
    firearms_stating: i64,
    materials: Vec<MaterialCount>,
}
