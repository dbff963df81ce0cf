//! Schemas of the ranked firearms (11, 18, 40): each a pre-rendered list item with what its
//! ranking adds.

use serde::Serialize;
use utoipa::ToSchema;

use super::FirearmListRecord;

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

/// A power score and what it was computed from.
#[derive(ToSchema, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PowerScore {
    /// muzzleEnergyJ × √(rate ÷ 60), one decimal.
    pub score: f64,
    pub muzzle_energy_j: f64,
    /// firearm (its own muzzleEnergyJ) or cartridge (the primary cartridge's typical energy).
    pub energy_source: &'static str,
    /// The stated rate of fire; null when none is stated (then 60 is assumed).
    pub rate_of_fire_rpm: Option<i64>,
    pub rate_assumed: bool,
}

#[derive(ToSchema, Serialize)]
pub struct PowerRatedFirearm {
    #[serde(flatten)]
    item: FirearmListRecord,
    power: PowerScore,
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
