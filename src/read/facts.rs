//! The filterable facts of every firearm, packed small (about 40 bytes each) so that a list
//! filter walks a few megabytes instead of the full records, even at 100,000 firearms.

use std::collections::HashMap;

use crate::catalog::model::{Catalog, Firearm};
use crate::catalog::vocabulary::{ACTION_TYPES, FIREARM_STATUSES};
use crate::read::in_place::ChangedFirearm;

/// "No value" for the small indexes below.
pub const NONE: u16 = u16::MAX;

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
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
    /// A generated model (the firearm can be drawn) or a stored one.
    pub has_3d_model: bool,
    /// Any media: a generated drawing or a stored image (the media index, operation 20).
    pub has_media: bool,
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

/// Catalog positions of makers, categories and calibers, by id: what a firearm's facts point at.
pub struct Positions<'a> {
    pub manufacturer_at: &'a HashMap<String, usize>,
    pub category_at: &'a HashMap<String, usize>,
    pub caliber_at: &'a HashMap<String, usize>,
}

impl Facts {
    pub fn of(f: &Firearm, at: &Positions) -> Self {
        Self {
            manufacturer: at.manufacturer_at.get(&f.manufacturer_id).map_or(u32::MAX, |&i| i as u32),
            category: at.category_at.get(&f.category_id).map_or(NONE, |&i| i as u16),
            status: vocabulary_index(FIREARM_STATUSES, f.status.as_deref()),
            action: vocabulary_index(ACTION_TYPES, f.action_type.as_deref()),
            country: country_bytes(f.country_of_origin.as_deref()),
            year: f.year_introduced.map(|y| y as i32),
            weight: f.weight_empty_g.map_or(f32::NAN, |w| w as f32),
            barrel: f.barrel_length_mm.map_or(f32::NAN, |b| b as f32),
            has_3d_model: crate::assets::figures::drawable(f)
                || f.images.iter().any(|i| i.image_type.as_deref() == Some("3d_model")),
            has_media: crate::assets::figures::drawable(f) || !f.images.is_empty(),
            calibers: f
                .calibers
                .iter()
                .filter_map(|c| at.caliber_at.get(&c.caliber_id))
                .map(|&i| i as u32)
                .collect(),
        }
    }
}

pub fn build(catalog: &Catalog, at: &Positions) -> Vec<Facts> {
    catalog.firearms.iter().map(|f| Facts::of(&f, at)).collect()
}

/// `previous` (the facts of a catalog with the same firearms, makers, categories and calibers
/// at the same positions) with the `changed` firearms' facts taken again.
pub fn updated(previous: &[Facts], changed: &[ChangedFirearm], at: &Positions) -> Vec<Facts> {
    let mut facts = previous.to_vec();
    for firearm in changed {
        facts[firearm.at] = Facts::of(&firearm.after, at);
    }
    facts
}
