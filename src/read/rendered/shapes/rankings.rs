//! Schemas of the rankings (11, 12, 18, 19) and of a manufacturer's history (44, 45).

use serde::Serialize;
use utoipa::ToSchema;

use super::{FirearmListRecord, NamedRef};

/// A ranked firearm: its list item (the plan's view) with its rank and ranked figure.
#[derive(ToSchema, Serialize)]
pub struct TopFirearm {
    #[serde(flatten)]
    item: FirearmListRecord,
    /// 1 for the first.
    rank: i64,
    value: f64,
    unit: String,
}

#[derive(ToSchema)]
pub struct TopFirearms {
    /// The `stat` asked for.
    stat: String,
    /// The detail field ranked.
    field: String,
    /// Which end ranks first: lower or higher.
    better: String,
    firearms: Vec<TopFirearm>,
}

#[derive(ToSchema)]
pub struct HeadToHeadField {
    field: String,
    unit: String,
    /// Which end wins: lower or higher.
    better: String,
    a: Option<f64>,
    b: Option<f64>,
    /// a, b or tie; null when either figure is unknown.
    winner: Option<String>,
}

#[derive(ToSchema)]
pub struct HeadToHeadWins {
    a: i64,
    b: i64,
}

#[derive(ToSchema)]
pub struct HeadToHead {
    a: NamedRef,
    b: NamedRef,
    fields: Vec<HeadToHeadField>,
    wins: HeadToHeadWins,
}

/// A power score and what it was computed from.
#[derive(ToSchema, Serialize)]
#[schema(rename_all = "camelCase")]
pub struct PowerScore {
    /// muzzleEnergyJ × √(rate ÷ 60), one decimal.
    score: f64,
    muzzle_energy_j: f64,
    /// firearm (its own muzzleEnergyJ) or cartridge (the primary cartridge's typical energy).
    energy_source: String,
    /// The stated rate of fire; null when none is stated (then 60 is assumed).
    rate_of_fire_rpm: Option<i64>,
    rate_assumed: bool,
}

#[derive(ToSchema, Serialize)]
pub struct PowerRatedFirearm {
    #[serde(flatten)]
    item: FirearmListRecord,
    power: PowerScore,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct TimelineFirearm {
    id: String,
    name: String,
    parent_firearm_id: Option<String>,
}

#[derive(ToSchema)]
pub struct TimelineYear {
    year: i64,
    firearms: Vec<TimelineFirearm>,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct ManufacturerTimeline {
    manufacturer: NamedRef,
    /// Oldest first.
    years: Vec<TimelineYear>,
    unknown_year: Vec<TimelineFirearm>,
}

#[derive(ToSchema)]
pub struct CategoryKeyCount {
    /// The category's id.
    category: String,
    count: i64,
}

#[derive(ToSchema)]
pub struct StatusKeyCount {
    /// A production status, or unknown.
    status: String,
    count: i64,
}

#[derive(ToSchema)]
pub struct CaliberKeyCount {
    /// The cartridge's id.
    caliber: String,
    count: i64,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct ManufacturerStats {
    manufacturer: NamedRef,
    firearm_count: i64,
    base_models: i64,
    by_category: Vec<CategoryKeyCount>,
    by_status: Vec<StatusKeyCount>,
    by_caliber: Vec<CaliberKeyCount>,
    /// Oldest first.
    by_decade: Vec<crate::read::statistics::DecadeCount>,
}

/// A firearm among the most requested: its list item with its rank and request count.
#[derive(ToSchema, Serialize)]
pub struct PopularFirearm {
    #[serde(flatten)]
    item: FirearmListRecord,
    rank: i64,
    /// Detail requests in the window, every node counted.
    requests: i64,
}

#[derive(ToSchema)]
pub struct PopularFirearms {
    days: i64,
    /// The first UTC day counted, YYYY-MM-DD.
    since: String,
    firearms: Vec<PopularFirearm>,
}
