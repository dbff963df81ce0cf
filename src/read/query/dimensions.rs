//! A firearm's sizes and weights in metric and imperial units.

use serde::Serialize;
use utoipa::ToSchema;

use crate::read::error::QueryError;
use crate::read::snapshot::Snapshot;

/// Millimetres in an inch.
const MM_PER_INCH: f64 = 25.4;
/// Grams in a pound.
const G_PER_POUND: f64 = 453.592_37;

#[derive(Serialize, ToSchema)]
pub struct Measure {
    value: Option<f64>,
    /// mm, g, in or lb
    unit: &'static str,
}

#[derive(Serialize, ToSchema)]
pub struct Dimension {
    /// The detail field, e.g. overallLengthMm.
    field: &'static str,
    known: bool,
    metric: Measure,
    imperial: Measure,
}

#[derive(Serialize, ToSchema)]
pub struct Dimensions {
    id: String,
    name: String,
    /// The fields with a value.
    known: Vec<&'static str>,
    dimensions: Vec<Dimension>,
}

/// Each dimension of the firearm `id` with its metric and imperial value (null when unknown),
/// converted exactly to two decimals: millimetres to inches (÷ 25.4), grams to pounds
/// (÷ 453.59237); 404 for an unknown id.
pub fn of_firearm(snapshot: &Snapshot, id: &str) -> Result<Dimensions, QueryError> {
    let (_, f) = snapshot.firearm(id)?;
    let lengths = [
        ("overallLengthMm", f.overall_length_mm),
        ("barrelLengthMm", f.barrel_length_mm),
        ("heightMm", f.height_mm),
        ("widthMm", f.width_mm),
        ("sightRadiusMm", f.sight_radius_mm),
        ("foldedLengthMm", f.folded_length_mm),
        ("riflingTwistMm", f.rifling_twist_mm),
    ];
    let weights = [("weightEmptyG", f.weight_empty_g), ("weightLoadedG", f.weight_loaded_g)];
    let dimensions: Vec<Dimension> = lengths
        .into_iter()
        .map(|(field, value)| dimension(field, value, ("mm", "in"), MM_PER_INCH))
        .chain(weights.into_iter().map(|(field, value)| dimension(field, value, ("g", "lb"), G_PER_POUND)))
        .collect();
    let known = dimensions.iter().filter(|d| d.known).map(|d| d.field).collect();
    Ok(Dimensions { id: f.id.clone(), name: f.name.clone(), known, dimensions })
}

/// `field`'s `value` in its metric unit and in the imperial one (`per_imperial` metric units each).
fn dimension(
    field: &'static str,
    value: Option<f64>,
    (unit, imperial_unit): (&'static str, &'static str),
    per_imperial: f64,
) -> Dimension {
    Dimension {
        field,
        known: value.is_some(),
        metric: Measure { value, unit },
        imperial: Measure { value: value.map(|v| round2(v / per_imperial)), unit: imperial_unit },
    }
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}
