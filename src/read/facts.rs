//! The filterable facts of every firearm, packed small (about 40 bytes each) so that a list
//! filter walks a few megabytes instead of the full records, even at 100,000 firearms.

use std::collections::HashMap;

use crate::catalog::model::Catalog;
use crate::catalog::vocabulary::{ACTION_TYPES, FIREARM_STATUSES};

/// "No value" for the small indexes below.
pub const NONE: u16 = u16::MAX;

#[derive(serde::Serialize, serde::Deserialize)]
pub struct Facts {
    pub manufacturer: u32,
    pub category: u16,
    pub status: u16,
    pub action: u16,
    /// ISO code bytes, or [0, 0].
    pub country: [u8; 2],
    pub year: Option<i32>,
    /// NaN when unknown.
    pub weight: f32,
    pub barrel: f32,
    pub has_3d_model: bool,
    /// Caliber positions.
    pub calibers: Box<[u32]>,
}

impl Facts {
    /// The category's catalog position, if the category is known.
    pub fn category_position(&self) -> Option<usize> {
        (self.category != NONE).then_some(self.category as usize)
    }

    /// The manufacturer's catalog position, if the manufacturer is known.
    pub fn manufacturer_position(&self) -> Option<usize> {
        (self.manufacturer != u32::MAX).then_some(self.manufacturer as usize)
    }
}

pub fn vocabulary_index(list: &[&str], value: Option<&str>) -> u16 {
    value.and_then(|v| list.iter().position(|x| *x == v)).map_or(NONE, |i| i as u16)
}

pub fn country_bytes(code: Option<&str>) -> [u8; 2] {
    match code.map(str::as_bytes) {
        Some([a, b]) => [*a, *b],
        _ => [0, 0],
    }
}

/// A packed country code as text (None for no code).
pub fn country_text(code: &[u8; 2]) -> Option<&str> {
    (*code != [0, 0]).then(|| std::str::from_utf8(code).ok()).flatten()
}

pub fn build(
    catalog: &Catalog,
    manufacturer_at: &HashMap<String, usize>,
    category_at: &HashMap<String, usize>,
    caliber_at: &HashMap<String, usize>,
) -> Vec<Facts> {
    catalog
        .firearms
        .iter()
        .map(|f| Facts {
            manufacturer: manufacturer_at.get(&f.manufacturer_id).map_or(u32::MAX, |&i| i as u32),
            category: category_at.get(&f.category_id).map_or(NONE, |&i| i as u16),
            status: vocabulary_index(FIREARM_STATUSES, f.status.as_deref()),
            action: vocabulary_index(ACTION_TYPES, f.action_type.as_deref()),
            country: country_bytes(f.country_of_origin.as_deref()),
            year: f.year_introduced.map(|y| y as i32),
            weight: f.weight_empty_g.map_or(f32::NAN, |w| w as f32),
            barrel: f.barrel_length_mm.map_or(f32::NAN, |b| b as f32),
            has_3d_model: f.images.iter().any(|i| i.image_type.as_deref() == Some("3d_model")),
            calibers: f
                .calibers
                .iter()
                .filter_map(|c| caliber_at.get(&c.caliber_id))
                .map(|&i| i as u32)
                .collect(),
        })
        .collect()
}
