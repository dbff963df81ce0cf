//! The catalog's records, exactly as the files under `data/` hold them (see data/README.md).
//!
//! Field names are the served camelCase names. Every struct refuses unknown keys, so a typo in a
//! data file is an error rather than a silently dropped figure. Vocabulary values are plain strings
//! here and checked by `validate` (which can name the file, record and field).
//!
//! The provenance fields (dataConfidence, sources, verifiedAt, verifiedFields) are repeated in
//! each record rather than flattened from one struct: serde cannot combine `flatten` with
//! `deny_unknown_fields`, and refusing unknown keys matters more here.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::held::{Held, Keyed};
pub use super::term::Term;

/// One consulted page, how strong a source it is, and which figures it states.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    pub url: String,
    pub kind: Term,
    /// The served field names whose figures this page states (per-field provenance). Empty means the
    /// page was cited for the record as a whole and no figure has been tied to it yet.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Category {
    pub id: String,
    pub name: String,
    pub description: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Manufacturer {
    pub id: String,
    pub name: String,
    pub country_code: Option<String>,
    pub founded_year: Option<i64>,
    pub website: Option<String>,
    pub logo_url: Option<String>,
    pub description: Option<String>,
    pub data_confidence: Option<f64>,
    #[serde(default)]
    pub sources: Vec<Source>,
    pub verified_at: Option<String>,
    pub verified_fields: Option<Vec<String>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Caliber {
    pub id: String,
    pub name: String,
    pub aliases: Option<Vec<String>>,
    pub nato_designation: Option<String>,
    pub bullet_diameter_mm: Option<f64>,
    pub neck_diameter_mm: Option<f64>,
    pub base_diameter_mm: Option<f64>,
    pub case_length_mm: Option<f64>,
    pub overall_length_mm: Option<f64>,
    pub max_pressure_mpa: Option<f64>,
    pub max_pressure_psi: Option<f64>,
    pub typical_bullet_weight_g: Option<f64>,
    pub typical_muzzle_velocity_mps: Option<f64>,
    pub typical_muzzle_energy_j: Option<f64>,
    pub primer_type: Option<String>,
    pub cartridge_type: Option<String>,
    pub parent_cartridge_id: Option<String>,
    pub designer: Option<String>,
    pub year_introduced: Option<i64>,
    pub description: Option<String>,
    pub spec_source: Option<String>,
    pub data_confidence: Option<f64>,
    #[serde(default)]
    pub sources: Vec<Source>,
    pub verified_at: Option<String>,
    pub verified_fields: Option<Vec<String>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Conflict {
    pub name: String,
    pub years: Option<String>,
    #[serde(default)]
    pub sides: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProductionNumbers {
    pub estimated_total: Option<i64>,
    pub production_years: Option<String>,
    pub notes: Option<String>,
}

/// A firearm's link to a cartridge it chambers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CaliberLink {
    pub caliber_id: String,
    #[serde(default)]
    pub is_primary: bool,
}

/// An adopter of a firearm (military, police and others).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Adopter {
    pub user_name: String,
    pub user_type: Option<Term>,
    pub country_code: Option<Term>,
    pub designation: Option<String>,
    pub adopted_year: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Image {
    pub id: i64,
    pub url: String,
    #[serde(rename = "type")]
    pub image_type: Option<String>,
    pub source: Option<String>,
    pub license: Option<String>,
    pub alt_text: Option<String>,
    pub width_px: Option<i64>,
    pub height_px: Option<i64>,
    /// A PNG, JPEG or WebP file under the data folder that the service serves as it is
    /// (`catalog::image_files`); `url` stays the address it was published at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The SHA-256 of `file`'s bytes, set by the import (a data file's own value is replaced).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_digest: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Firearm {
    pub id: String,
    pub name: String,
    pub manufacturer_id: String,
    pub category_id: String,
    pub parent_firearm_id: Option<String>,
    pub variant_type: Option<Term>,
    pub year_introduced: Option<i64>,
    pub year_discontinued: Option<i64>,
    pub status: Option<Term>,
    pub country_of_origin: Option<Term>,
    pub designer: Option<String>,
    pub weight_empty_g: Option<f64>,
    pub weight_loaded_g: Option<f64>,
    pub overall_length_mm: Option<f64>,
    pub barrel_length_mm: Option<f64>,
    pub height_mm: Option<f64>,
    pub width_mm: Option<f64>,
    pub sight_radius_mm: Option<f64>,
    pub folded_length_mm: Option<f64>,
    pub action_type: Option<Term>,
    pub firing_mechanism: Option<Term>,
    pub trigger_type: Option<Term>,
    pub magazine_type: Option<Term>,
    #[serde(rename = "triggerPullN")]
    pub trigger_pull_n: Option<f64>,
    pub magazine_capacity: Option<i64>,
    pub muzzle_velocity_mps: Option<f64>,
    pub muzzle_energy_j: Option<f64>,
    pub effective_range_m: Option<f64>,
    pub max_range_m: Option<f64>,
    pub rate_of_fire_rpm: Option<i64>,
    pub barrel_rifling: Option<Term>,
    pub rifling_twist_mm: Option<f64>,
    pub number_of_grooves: Option<i64>,
    pub frame_material: Option<Term>,
    pub slide_material: Option<Term>,
    pub barrel_material: Option<Term>,
    pub stock_material: Option<Term>,
    pub finish: Option<Term>,
    pub safety_mechanisms: Option<Vec<String>>,
    pub features: Option<Vec<String>>,
    pub feed_systems: Option<Vec<String>>,
    pub alternate_names: Option<Vec<String>>,
    pub firing_modes: Option<Vec<String>>,
    pub conflicts: Option<Vec<Conflict>>,
    /// Boxed: few records have it, and unboxed it took 72 bytes of every firearm.
    pub production_numbers: Option<Box<ProductionNumbers>>,
    pub description: Option<String>,
    pub notes: Option<String>,
    pub lore: Option<String>,
    pub platform_id: Option<String>,
    #[serde(default)]
    pub interfaces: Vec<String>,
    #[serde(default)]
    pub calibers: Vec<CaliberLink>,
    #[serde(default)]
    pub users: Vec<Adopter>,
    #[serde(default)]
    pub images: Vec<Image>,
    pub data_confidence: Option<f64>,
    #[serde(default)]
    pub sources: Vec<Source>,
    pub verified_at: Option<String>,
    pub verified_fields: Option<Vec<String>>,
}

impl Keyed for Firearm {
    fn key(&self) -> &str {
        &self.id
    }
}

impl Keyed for Ammunition {
    fn key(&self) -> &str {
        &self.id
    }
}

impl Firearm {
    /// Give back the room a parser left in the record's lists: a list read from JSON grows from
    /// four places, so one cartridge link or one source held room for four (about 40 MB over
    /// 100,000 firearms held by a node that built its snapshot).
    pub fn shrink_to_fit(&mut self) {
        let optional = [
            &mut self.safety_mechanisms,
            &mut self.features,
            &mut self.feed_systems,
            &mut self.alternate_names,
            &mut self.firing_modes,
            &mut self.verified_fields,
        ];
        for list in optional.into_iter().flatten() {
            list.shrink_to_fit();
        }
        for conflict in self.conflicts.iter_mut().flatten() {
            conflict.sides.shrink_to_fit();
        }
        if let Some(conflicts) = &mut self.conflicts {
            conflicts.shrink_to_fit();
        }
        for source in &mut self.sources {
            source.fields.shrink_to_fit();
        }
        self.interfaces.shrink_to_fit();
        self.calibers.shrink_to_fit();
        self.users.shrink_to_fit();
        self.images.shrink_to_fit();
        self.sources.shrink_to_fit();
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Ammunition {
    pub id: String,
    pub name: String,
    pub caliber_id: String,
    pub manufacturer_id: Option<String>,
    pub product_line: Option<String>,
    pub bullet_weight_g: Option<f64>,
    pub bullet_type: Option<String>,
    pub muzzle_velocity_mps: Option<f64>,
    pub muzzle_energy_j: Option<f64>,
    #[serde(rename = "ballisticCoefficientG1")]
    pub ballistic_coefficient_g1: Option<f64>,
    pub test_barrel_length_mm: Option<f64>,
    pub is_common: Option<bool>,
    pub description: Option<String>,
    pub data_confidence: Option<f64>,
    #[serde(default)]
    pub sources: Vec<Source>,
    pub verified_at: Option<String>,
    pub verified_fields: Option<Vec<String>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Interface {
    pub id: String,
    pub name: String,
    pub kind: Option<String>,
    pub standard_body: Option<String>,
    pub description: Option<String>,
    pub data_confidence: Option<f64>,
    #[serde(default)]
    pub sources: Vec<Source>,
    pub verified_at: Option<String>,
    pub verified_fields: Option<Vec<String>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Attachment {
    pub id: String,
    pub name: String,
    pub vendor: Option<String>,
    pub kind: Option<String>,
    #[serde(default)]
    pub interfaces: Vec<String>,
    pub weight_g: Option<f64>,
    pub length_mm: Option<f64>,
    pub description: Option<String>,
    pub data_confidence: Option<f64>,
    #[serde(default)]
    pub sources: Vec<Source>,
    pub verified_at: Option<String>,
    pub verified_fields: Option<Vec<String>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Platform {
    pub id: String,
    pub name: String,
    pub description: Option<String>,
    #[serde(default)]
    pub interfaces: Vec<String>,
    pub data_confidence: Option<f64>,
    #[serde(default)]
    pub sources: Vec<Source>,
    pub verified_at: Option<String>,
    pub verified_fields: Option<Vec<String>>,
}

/// One data file: any of the top-level keys, each optional.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DataFile {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub manufacturer: Option<Manufacturer>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub manufacturers: Vec<Manufacturer>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub categories: Vec<Category>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub firearms: Vec<Firearm>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calibers: Vec<Caliber>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ammunition: Vec<Ammunition>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub interfaces: Vec<Interface>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attachments: Vec<Attachment>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub platforms: Vec<Platform>,
}

/// The whole catalog, every resource sorted by id (serialised only into a persisted snapshot).
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct Catalog {
    pub categories: Vec<Category>,
    pub manufacturers: Vec<Manufacturer>,
    pub calibers: Vec<Caliber>,
    /// Packed once a snapshot's read model is built (`held`); a patch keeps the other records'
    /// blocks as they are (`patched`).
    pub firearms: Held<Firearm>,
    /// Held as the firearms are.
    pub ammunition: Held<Ammunition>,
    pub interfaces: Vec<Interface>,
    pub attachments: Vec<Attachment>,
    pub platforms: Vec<Platform>,
}

impl Catalog {
    pub fn sort(&mut self) {
        self.categories.sort_by(|a, b| a.id.cmp(&b.id));
        self.manufacturers.sort_by(|a, b| a.id.cmp(&b.id));
        self.calibers.sort_by(|a, b| a.id.cmp(&b.id));
        self.firearms.typed_mut().sort_by(|a, b| a.id.cmp(&b.id));
        self.ammunition.typed_mut().sort_by(|a, b| a.id.cmp(&b.id));
        self.interfaces.sort_by(|a, b| a.id.cmp(&b.id));
        self.attachments.sort_by(|a, b| a.id.cmp(&b.id));
        self.platforms.sort_by(|a, b| a.id.cmp(&b.id));
    }

    /// This catalog with the records `changed` names (by table) replaced by those of `fresh`,
    /// which holds the ones still stored and nothing else: the rest kept, each kind in id order.
    pub fn patched<'a>(&self, changed: impl Fn(&str) -> &'a BTreeSet<String>, fresh: Catalog) -> Catalog {
        Catalog {
            categories: merged(&self.categories, changed("categories"), fresh.categories, |r| &r.id),
            manufacturers: merged(&self.manufacturers, changed("manufacturers"), fresh.manufacturers, |r| {
                &r.id
            }),
            calibers: merged(&self.calibers, changed("calibers"), fresh.calibers, |r| &r.id),
            firearms: self.firearms.merged(changed("firearms"), fresh.firearms.typed().into_owned()),
            ammunition: self.ammunition.merged(changed("ammunition"), fresh.ammunition.typed().into_owned()),
            interfaces: merged(&self.interfaces, changed("interfaces"), fresh.interfaces, |r| &r.id),
            attachments: merged(&self.attachments, changed("attachments"), fresh.attachments, |r| &r.id),
            platforms: merged(&self.platforms, changed("platforms"), fresh.platforms, |r| &r.id),
        }
    }

    /// Whether every firearm of `self` is at the same position in `other`, when only the
    /// firearms `changed` names differ between the two: the firearm ids are sorted and unique, so
    /// with as many firearms and each changed one at one position in both, every other one is too.
    pub fn same_firearm_positions(&self, other: &Catalog, changed: &BTreeSet<String>) -> bool {
        let find = |catalog: &Catalog, id: &str| catalog.firearms.position(id).ok();
        self.firearms.len() == other.firearms.len()
            && changed
                .iter()
                .all(|id| matches!((find(self, id), find(other, id)), (Some(a), Some(b)) if a == b))
    }

    /// This catalog with its large tables typed: itself when they are, else a copy for a build
    /// over the whole catalog (a patch's read model, the figures it defers), since such a build
    /// reads every record several times over (`held`).
    pub fn typed(&self) -> std::borrow::Cow<'_, Catalog> {
        if !self.firearms.is_packed() && !self.ammunition.is_packed() {
            return std::borrow::Cow::Borrowed(self);
        }
        std::borrow::Cow::Owned(Catalog {
            categories: self.categories.clone(),
            manufacturers: self.manufacturers.clone(),
            calibers: self.calibers.clone(),
            firearms: self.firearms.typed().into_owned().into(),
            ammunition: self.ammunition.typed().into_owned().into(),
            interfaces: self.interfaces.clone(),
            attachments: self.attachments.clone(),
            platforms: self.platforms.clone(),
        })
    }

    /// Hold the large tables packed from now on (a served snapshot's, once its read model is
    /// built: `held`).
    pub fn pack(&mut self) {
        self.firearms.pack();
        self.ammunition.pack();
    }

    pub fn record_count(&self) -> usize {
        self.categories.len()
            + self.manufacturers.len()
            + self.calibers.len()
            + self.firearms.len()
            + self.ammunition.len()
            + self.interfaces.len()
            + self.attachments.len()
            + self.platforms.len()
    }
}

/// `old`'s records but those `changed` names, with `fresh` added, in id order.
fn merged<T: Clone>(old: &[T], changed: &BTreeSet<String>, fresh: Vec<T>, id: fn(&T) -> &String) -> Vec<T> {
    let mut out: Vec<T> = if changed.is_empty() {
        old.to_vec()
    } else {
        old.iter().filter(|record| !changed.contains(id(record))).cloned().collect()
    };
    out.extend(fresh);
    // Two sorted runs: the sort merges them in one pass.
    out.sort_by(|a, b| id(a).cmp(id(b)));
    out
}
