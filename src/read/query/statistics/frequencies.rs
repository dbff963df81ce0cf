//! Most-first lists: cartridges (75) and makers (76) by number of firearms, action types (82)
//! and features (83) by frequency, the last three optionally within one `category`. Ties break
//! by id (cartridges, makers) or by name (action types, features), so an answer never shuffles.

use serde::Serialize;

use super::{CaliberCount, caliber_count};
use crate::read::error::QueryError;
use crate::read::snapshot::Snapshot;
use crate::read::statistics::share;

/// Cartridges by the number of firearms chambered for them (a firearm counts once per cartridge
/// it lists, primary or not), most first, at most `limit`.
pub fn popular_calibers(snapshot: &Snapshot, limit: usize) -> Vec<CaliberCount<'_>> {
    let counted = &snapshot.statistics().frequencies.calibers;
    counted.iter().take(limit).map(|&counted| caliber_count(snapshot, counted)).collect()
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ManufacturerCount<'a> {
    pub manufacturer: ManufacturerRef<'a>,
    #[schema(value_type = i64)]
    pub firearm_count: usize,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ManufacturerRef<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub country_code: Option<&'a str>,
}

/// Manufacturers by the number of firearms they make (within `category` when given, else
/// `NotFound` naming it), most first, at most `limit`.
pub fn prolific_manufacturers<'a>(
    snapshot: &'a Snapshot,
    category: Option<&str>,
    limit: usize,
) -> Result<Vec<ManufacturerCount<'a>>, QueryError> {
    let category = snapshot.category_filter("category", category)?;
    let counted = snapshot.statistics().frequencies.manufacturers.get(category);
    Ok(counted
        .iter()
        .take(limit)
        .map(|&(at, count)| {
            let maker = &snapshot.catalog.manufacturers[at];
            ManufacturerCount {
                manufacturer: ManufacturerRef {
                    id: &maker.id,
                    name: &maker.name,
                    country_code: maker.country_code.as_deref(),
                },
                firearm_count: count,
            }
        })
        .collect())
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = StatsActionTypes)]
pub struct ActionTypes<'a> {
    /// Firearms considered (all, or the category's).
    #[schema(value_type = i64)]
    pub total: usize,
    pub action_types: Vec<ActionTypeShare<'a>>,
    /// Firearms with no action type.
    #[schema(value_type = i64)]
    pub unknown: usize,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ActionTypeShare<'a> {
    pub action_type: &'a str,
    #[schema(value_type = i64)]
    pub count: usize,
    pub share: f64,
}

/// How often each action type occurs (within `category` when given, else `NotFound` naming it),
/// with its share of the firearms considered; firearms without an action type are `unknown`.
pub fn action_types<'a>(
    snapshot: &'a Snapshot,
    category: Option<&str>,
) -> Result<ActionTypes<'a>, QueryError> {
    let category = snapshot.category_filter("category", category)?;
    let frequencies = &snapshot.statistics().frequencies;
    let total = frequencies.firearms_in(category, snapshot.catalog.firearms.len());
    let counted = frequencies.action_types.get(category);
    let known: usize = counted.iter().map(|(_, count)| count).sum();
    Ok(ActionTypes {
        total,
        action_types: counted
            .iter()
            .map(|(action, count)| ActionTypeShare {
                action_type: action,
                count: *count,
                share: share(*count, total),
            })
            .collect(),
        unknown: total - known,
    })
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct FeatureCount<'a> {
    /// In lower case.
    pub feature: &'a str,
    #[schema(value_type = i64)]
    pub count: usize,
    pub share: f64,
}

/// Features (compared in lower case) by the number of firearms listing them (within `category`
/// when given, else `NotFound` naming it), most first, at most `limit`, with the share of the
/// firearms considered.
pub fn feature_frequency<'a>(
    snapshot: &'a Snapshot,
    category: Option<&str>,
    limit: usize,
) -> Result<Vec<FeatureCount<'a>>, QueryError> {
    let category = snapshot.category_filter("category", category)?;
    let frequencies = &snapshot.statistics().frequencies;
    let total = frequencies.firearms_in(category, snapshot.catalog.firearms.len());
    Ok(frequencies
        .features
        .get(category)
        .iter()
        .take(limit)
        .map(|(feature, count)| FeatureCount { feature, count: *count, share: share(*count, total) })
        .collect())
}
