//! How often things occur: cartridges (75) and makers (76) by number of firearms, action types
//! (82) and features (83), over the whole catalog and per category; materials per component (79).

use std::collections::HashMap;

use serde_json::{Value, json};

use super::{share, tally};
use crate::catalog::model::{Catalog, Firearm};

/// Counts over all firearms (`None`) and over each category (`Some(position)`).
#[derive(serde::Serialize, serde::Deserialize)]
pub struct PerCategory<K> {
    all: Vec<(K, usize)>,
    by_category: Vec<Vec<(K, usize)>>,
}

impl<K: Ord + Clone> PerCategory<K> {
    fn build<I: IntoIterator<Item = K>>(
        catalog: &Catalog,
        category_of: &[Option<usize>],
        keys: impl Fn(&Firearm) -> I,
    ) -> Self {
        let all = tally(catalog.firearms.iter().flat_map(&keys));
        let by_category = (0..catalog.categories.len())
            .map(|at| {
                let members = catalog.firearms.iter().zip(category_of).filter(|(_, c)| **c == Some(at));
                tally(members.flat_map(|(f, _)| keys(f)))
            })
            .collect();
        Self { all, by_category }
    }

    /// Most first; `category` is a position in the catalog's categories.
    pub fn get(&self, category: Option<usize>) -> &[(K, usize)] {
        match category {
            Some(at) => &self.by_category[at],
            None => &self.all,
        }
    }
}

#[derive(serde::Serialize, serde::Deserialize)]
pub struct Frequencies {
    /// Caliber positions by the number of firearms chambered for them (any of their calibers).
    pub calibers: Vec<(usize, usize)>,
    /// Manufacturer positions by the number of firearms they make.
    pub manufacturers: PerCategory<usize>,
    /// Action types (firearms without one are not counted).
    pub action_types: PerCategory<String>,
    /// Features, compared in lower case.
    pub features: PerCategory<String>,
    /// Firearms per category (the denominators of the shares).
    pub firearms_per_category: Vec<usize>,
}

impl Frequencies {
    pub fn build(
        catalog: &Catalog,
        category_of: &[Option<usize>],
        caliber_at: &HashMap<String, usize>,
    ) -> Self {
        let manufacturer_at: HashMap<&str, usize> =
            catalog.manufacturers.iter().enumerate().map(|(at, m)| (m.id.as_str(), at)).collect();
        let calibers = tally(catalog.firearms.iter().flat_map(|f| {
            let mut chambered: Vec<usize> =
                f.calibers.iter().filter_map(|link| caliber_at.get(&link.caliber_id).copied()).collect();
            chambered.dedup();
            chambered
        }));
        let firearms_per_category = (0..catalog.categories.len())
            .map(|at| category_of.iter().filter(|c| **c == Some(at)).count())
            .collect();
        Self {
            calibers,
            manufacturers: PerCategory::build(catalog, category_of, |f| {
                manufacturer_at.get(f.manufacturer_id.as_str()).copied()
            }),
            action_types: PerCategory::build(catalog, category_of, |f| {
                f.action_type.as_deref().map(str::to_owned)
            }),
            features: PerCategory::build(catalog, category_of, |f| {
                let mut features: Vec<String> =
                    f.features.iter().flatten().map(|feature| feature.trim().to_lowercase()).collect();
                features.sort_unstable();
                features.dedup();
                features
            }),
            firearms_per_category,
        }
    }

    /// How many firearms a share is taken of: all, or the category's.
    pub fn firearms_in(&self, category: Option<usize>, all: usize) -> usize {
        category.map_or(all, |at| self.firearms_per_category[at])
    }
}

/// A component's material, as a firearm states it.
pub type MaterialOf = fn(&Firearm) -> Option<&str>;

/// The components 79 reports on, with the field holding each one's material.
pub const COMPONENTS: &[(&str, MaterialOf)] = &[
    ("frame", |f| f.frame_material.as_deref()),
    ("slide", |f| f.slide_material.as_deref()),
    ("barrel", |f| f.barrel_material.as_deref()),
    ("stock", |f| f.stock_material.as_deref()),
];

/// Per component: how many firearms state its material, and each material (lower case) with its
/// count and share of those.
pub fn materials(catalog: &Catalog) -> Value {
    let rows: Vec<Value> = COMPONENTS
        .iter()
        .map(|(component, material)| {
            let stated: Vec<String> =
                catalog.firearms.iter().filter_map(|f| material(f)).map(|m| m.trim().to_lowercase()).collect();
            let total = stated.len();
            let materials: Vec<Value> = tally(stated)
                .into_iter()
                .map(|(material, count)| json!({ "material": material, "count": count, "share": share(count, total) }))
                .collect();
            json!({ "component": component, "firearmsStating": total, "materials": materials })
        })
        .collect();
    json!(rows)
}
