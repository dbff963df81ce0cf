//! Response schemas of the catalog reads and the webhook operations, for the OpenAPI description
//! only.
//!
//! The read path serves JSON pre-rendered from the catalog records (`read::firearm_json`), so
//! these types are never serialised; they document the shapes, field by field, and a contract
//! test keeps them honest by checking answers against the bundled catalog.

#![allow(dead_code)]

use std::collections::BTreeMap;

use utoipa::openapi::{RefOr, Response, ResponseBuilder, content::ContentBuilder};
use utoipa::{IntoResponses, ToSchema};

use super::openapi::Pagination;
use crate::catalog::stats_versions::{GameStatsSnapshotEntry, GameStatsVersion};
use crate::read::resolve::Resolution;

/// `{success: true, data: $data}`.
macro_rules! envelope {
    ($name:ident, $data:ty) => {
        #[derive(ToSchema)]
        pub struct $name {
            /// Always true.
            success: bool,
            data: $data,
        }
    };
}

/// `{success: true, data: [$item], pagination}`.
macro_rules! paged {
    ($name:ident, $item:ty) => {
        #[derive(ToSchema)]
        pub struct $name {
            /// Always true.
            success: bool,
            data: Vec<$item>,
            pagination: Pagination,
        }
    };
}

/// The errors of a read operation: 400, 401, 403, 404, 429 and 500, each the error envelope.
pub struct ReadErrors;
/// The errors of a paged list: those of a read, with 403 PAGINATION_DEPTH_EXCEEDED and 429
/// PAGINATION_BURST among them.
pub struct ListErrors;

fn error_responses() -> BTreeMap<String, RefOr<Response>> {
    let statuses = [
        ("400", "Invalid parameter (details names each) or request"),
        ("401", "Missing or invalid API key"),
        ("403", "Plan, account or page depth does not allow it"),
        ("404", "No record has this id"),
        ("429", "Rate limit, daily cap or page burst; Retry-After says when"),
        ("500", "Internal error; quote request_id"),
    ];
    statuses
        .into_iter()
        .map(|(status, description)| {
            let content = ContentBuilder::new()
                .schema(Some(RefOr::Ref(utoipa::openapi::Ref::from_schema_name("ErrorEnvelope"))))
                .build();
            let response =
                ResponseBuilder::new().description(description).content("application/json", content).build();
            (status.to_owned(), RefOr::T(response))
        })
        .collect()
}

impl IntoResponses for ReadErrors {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        error_responses()
    }
}

impl IntoResponses for ListErrors {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        error_responses()
    }
}

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

/// A consulted page and its kind.
#[derive(ToSchema)]
pub struct SourceKind {
    url: String,
    /// manufacturer, standards_body, government, reference, aggregator, press, retailer,
    /// community, other
    kind: String,
}

/// Where a record's figures come from; on every plan.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct Provenance {
    sources: Vec<String>,
    source_kinds: Vec<SourceKind>,
    best_source_kind: Option<String>,
    data_confidence: Option<f64>,
    verified_at: Option<String>,
    /// Fields a source was checked to state; null while unverified.
    verified_fields: Option<Vec<String>>,
    /// Cartridges: the standard their figures come from.
    spec_source: Option<String>,
    updated_at: String,
    version: String,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct Manufacturer {
    id: String,
    name: String,
    country_code: Option<String>,
    founded_year: Option<i64>,
    website: Option<String>,
    logo_url: Option<String>,
    description: Option<String>,
    created_at: String,
    updated_at: String,
}

#[derive(ToSchema)]
pub struct Category {
    id: String,
    name: String,
    description: Option<String>,
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
    created_at: String,
    updated_at: String,
    /// Opaque content version; changes only when a served field changed.
    version: String,
    manufacturer: Option<Manufacturer>,
    category: Option<Category>,
    calibers: Vec<FirearmCaliber>,
    images: Vec<FirearmImage>,
    users: Vec<FirearmUser>,
    provenance: Provenance,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct FirearmVariant {
    id: String,
    name: String,
    variant_type: Option<String>,
    year_introduced: Option<i64>,
    status: Option<String>,
}

/// Live game stats, each 0 to 100 or null.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct FirearmGameStats {
    id: String,
    name: String,
    game_damage: Option<i64>,
    game_accuracy: Option<i64>,
    game_range: Option<i64>,
    game_fire_rate: Option<i64>,
    game_mobility: Option<i64>,
    game_recoil_control: Option<i64>,
    game_reload_speed: Option<i64>,
    game_concealment: Option<i64>,
}

#[derive(ToSchema)]
pub struct Measure {
    value: Option<f64>,
    /// mm, g, in or lb
    unit: String,
}

#[derive(ToSchema)]
pub struct Dimension {
    /// The detail field, e.g. overallLengthMm.
    field: String,
    known: bool,
    metric: Measure,
    imperial: Measure,
}

#[derive(ToSchema)]
pub struct Dimensions {
    id: String,
    name: String,
    /// The fields with a value.
    known: Vec<String>,
    dimensions: Vec<Dimension>,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct AdoptionCountry {
    /// ISO 3166-1 alpha-2; null for users without a country.
    country_code: Option<String>,
    count: i64,
    users: Vec<FirearmUser>,
}

#[derive(ToSchema)]
pub struct AdoptionMap {
    id: String,
    name: String,
    countries: Vec<AdoptionCountry>,
}

/// A firearm in a family tree; `variants` nests its own variants (same shape) where present.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct FamilyNode {
    id: String,
    name: String,
    parent_firearm_id: Option<String>,
    variant_type: Option<String>,
    year_introduced: Option<i64>,
    provenance: Provenance,
    #[schema(value_type = Option<Vec<Object>>)]
    variants: Option<Vec<serde_json::Value>>,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct FamilyTree {
    id: String,
    /// The oldest ancestor (the firearm itself when it has no parent).
    root_id: String,
    /// From the root down to the parent.
    ancestors: Vec<FamilyNode>,
    firearm: FamilyNode,
}

/// A list item with its similarity score (0 to 1).
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct SimilarFirearm {
    id: String,
    name: String,
    manufacturer_id: String,
    category_id: String,
    year_introduced: Option<i64>,
    status: Option<String>,
    country_of_origin: Option<String>,
    action_type: Option<String>,
    weight_empty_g: Option<f64>,
    barrel_length_mm: Option<f64>,
    score: f64,
}

#[derive(ToSchema)]
pub struct FacetCount {
    value: String,
    count: i64,
}

#[derive(ToSchema)]
pub struct ValueRange {
    min: Option<f64>,
    max: Option<f64>,
}

/// Each filter of GET /v1/firearms with its values and counts.
#[derive(ToSchema)]
pub struct FilterOptions {
    manufacturer: Vec<FacetCount>,
    category: Vec<FacetCount>,
    caliber: Vec<FacetCount>,
    action_type: Vec<FacetCount>,
    country_of_origin: Vec<FacetCount>,
    status: Vec<FacetCount>,
    has_3d_model: Vec<FacetCount>,
    year_introduced: ValueRange,
    weight: ValueRange,
    barrel_length: ValueRange,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct ActionTypeCount {
    action_type: String,
    count: i64,
}

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
    created_at: String,
    updated_at: String,
    /// On detail and compare.
    provenance: Option<Provenance>,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct CaliberLink {
    id: String,
    name: String,
    parent_cartridge_id: Option<String>,
    year_introduced: Option<i64>,
    cartridge_type: Option<String>,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct ParentChain {
    id: String,
    root_id: String,
    /// The cartridge first, then each parent up to the root.
    chain: Vec<CaliberLink>,
}

#[derive(ToSchema)]
pub struct CaliberFamily {
    caliber: CaliberLink,
    parent: Option<CaliberLink>,
    siblings: Vec<CaliberLink>,
    children: Vec<CaliberLink>,
}

#[derive(ToSchema)]
pub struct NamedRef {
    id: String,
    name: String,
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

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct Country {
    code: String,
    firearms_of_origin: i64,
    manufacturers: i64,
    adopted_firearms: i64,
    adopters: i64,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct ArsenalFirearm {
    id: String,
    name: String,
    user_name: String,
    designation: Option<String>,
    adopted_year: Option<i64>,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct ArsenalGroup {
    user_type: String,
    count: i64,
    firearms: Vec<ArsenalFirearm>,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct Arsenal {
    code: String,
    user_types: Vec<ArsenalGroup>,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct Conflict {
    name: String,
    years: Option<String>,
    firearm_count: i64,
    firearm_ids: Vec<String>,
}

/// A webhook endpoint of the caller's account.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct WebhookEndpoint {
    /// Opaque; addressed at /v1/me/webhooks/{endpointId}.
    id: String,
    url: String,
    events: Vec<String>,
    description: Option<String>,
    /// False while paused: nothing is delivered and pending retries are dropped.
    enabled: bool,
    /// YYYY-MM-DD HH:MM:SS (UTC).
    created_at: String,
    /// ISO 8601 (UTC).
    updated_at: String,
}

/// The endpoint as created, with its signing secret: shown here once, never again.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct WebhookEndpointCreated {
    id: String,
    url: String,
    events: Vec<String>,
    description: Option<String>,
    enabled: bool,
    created_at: String,
    updated_at: String,
    /// `whsec_` and 64 hex digits, used whole as the HMAC-SHA256 key.
    secret: String,
}

#[derive(ToSchema)]
pub struct WebhookDeleted {
    /// Always true.
    deleted: bool,
    id: String,
}

/// What a test delivery met.
#[derive(ToSchema)]
pub struct WebhookTestResult {
    /// True when the receiver answered 2xx.
    success: bool,
    /// The receiver's HTTP status; null when there was no response (refused target, DNS failure,
    /// timeout, TLS error).
    status: Option<i64>,
    /// What went wrong, or null.
    error: Option<String>,
}

paged!(WebhookEndpointPage, WebhookEndpoint);
envelope!(WebhookEndpointResponse, WebhookEndpoint);
envelope!(WebhookEndpointCreatedResponse, WebhookEndpointCreated);
envelope!(WebhookDeletedResponse, WebhookDeleted);
envelope!(WebhookTestResponse, WebhookTestResult);
paged!(FirearmPage, FirearmListItem);
envelope!(FirearmItemResponse, FirearmListItem);
envelope!(FirearmDetailResponse, FirearmDetail);
envelope!(FirearmDetailsResponse, Vec<FirearmDetail>);
envelope!(FirearmVariantsResponse, Vec<FirearmVariant>);
envelope!(FirearmImagesResponse, Vec<FirearmImage>);
envelope!(FirearmUsersResponse, Vec<FirearmUser>);
envelope!(FirearmGameStatsResponse, FirearmGameStats);
envelope!(DimensionsResponse, Dimensions);
envelope!(AdoptionMapResponse, AdoptionMap);
envelope!(FamilyTreeResponse, FamilyTree);
envelope!(SimilarResponse, Vec<SimilarFirearm>);
envelope!(FilterOptionsResponse, FilterOptions);
envelope!(ActionTypesResponse, Vec<ActionTypeCount>);
envelope!(ResolutionResponse, Resolution);
envelope!(ResolutionsResponse, Vec<Resolution>);
paged!(CaliberPage, Caliber);
envelope!(CaliberResponse, Caliber);
envelope!(CalibersResponse, Vec<Caliber>);
envelope!(ParentChainResponse, ParentChain);
envelope!(CaliberFamilyResponse, CaliberFamily);
paged!(AmmunitionPage, Ammunition);
envelope!(AmmunitionResponse, Ammunition);
envelope!(CountriesResponse, Vec<Country>);
envelope!(ArsenalResponse, Arsenal);
envelope!(ConflictsResponse, Vec<Conflict>);
envelope!(GameStatsVersionsResponse, Vec<GameStatsVersion>);
paged!(GameStatsEntryPage, GameStatsSnapshotEntry);
envelope!(GameStatsEntryResponse, GameStatsSnapshotEntry);
