//! How often things occur: cartridges (75) and makers (76) by number of firearms, action types
//! (82) and features (83), over the whole catalog and per category; materials per component (79).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Read, most_first, share, tally};
use crate::catalog::model::{Catalog, Firearm};
use crate::read::facts::Facts;

/// Counts over all firearms (`None`) and over each category (`Some(position)`).
#[derive(serde::Serialize, serde::Deserialize)]
pub struct PerCategory<K> {
    all: Vec<(K, usize)>,
    by_category: Vec<Vec<(K, usize)>>,
}

impl<K: Ord + Clone> PerCategory<K> {
    /// `keys(position)` are what firearm `position` counts for; each is counted over all
    /// firearms and in the firearm's category, in one pass.
    fn build<I: IntoIterator<Item = K>>(
        categories: usize,
        category_of: &[Option<usize>],
        keys: impl Fn(usize) -> I,
    ) -> Self {
        let mut all: BTreeMap<K, usize> = BTreeMap::new();
        let mut by_category: Vec<BTreeMap<K, usize>> = (0..categories).map(|_| BTreeMap::new()).collect();
        for (position, category) in category_of.iter().enumerate() {
            for key in keys(position) {
                if let Some(category) = category {
                    *by_category[*category].entry(key.clone()).or_default() += 1;
                }
                *all.entry(key).or_default() += 1;
            }
        }
        Self { all: most_first(all), by_category: by_category.into_iter().map(most_first).collect() }
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
    /// `category_of` and `facts`: each firearm's category position and packed facts.
    pub fn build(
        catalog: &Catalog,
        firearms: &[Read],
        category_of: &[Option<usize>],
        facts: &[Facts],
    ) -> Self {
        let calibers = tally(facts.iter().flat_map(|f| {
            let mut chambered: Vec<usize> = f.calibers.iter().map(|&caliber| caliber as usize).collect();
            chambered.dedup();
            chambered
        }));
        let categories = catalog.categories.len();
        let mut firearms_per_category = vec![0; categories];
        for category in category_of.iter().flatten() {
            firearms_per_category[*category] += 1;
        }
        Self {
            calibers,
            manufacturers: PerCategory::build(categories, category_of, |at| {
                facts[at].manufacturer_position()
            }),
            action_types: PerCategory::build(categories, category_of, |at| firearms[at].action_type.clone()),
            features: PerCategory::build(categories, category_of, |at| firearms[at].features.clone()),
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
pub const COMPONENTS: [(&str, MaterialOf); 4] = [
    ("frame", |f| f.frame_material.as_deref()),
    ("slide", |f| f.slide_material.as_deref()),
    ("barrel", |f| f.barrel_material.as_deref()),
    ("stock", |f| f.stock_material.as_deref()),
];

#[derive(Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ComponentMaterials {
    /// frame, slide, barrel, stock
    pub component: String,
    #[schema(value_type = i64)]
    pub firearms_stating: usize,
    pub materials: Vec<MaterialCount>,
}

#[derive(Serialize, Deserialize, utoipa::ToSchema)]
pub struct MaterialCount {
    /// In lower case.
    pub material: String,
    #[schema(value_type = i64)]
    pub count: usize,
    /// Of the firearms stating the component's material.
    pub share: f64,
}

/// Per component: how many firearms state its material, and each material (lower case) with its
/// count and share of those.
pub fn materials(firearms: &[Read]) -> Vec<ComponentMaterials> {
    COMPONENTS
        .iter()
        .enumerate()
        .map(|(at, (component, _))| {
            let stated: Vec<String> =
                firearms.iter().filter_map(|firearm| firearm.materials[at].clone()).collect();
            let total = stated.len();
            let materials = tally(stated)
                .into_iter()
                .map(|(material, count)| MaterialCount { material, count, share: share(count, total) })
                .collect();
            ComponentMaterials { component: (*component).to_owned(), firearms_stating: total, materials }
        })
        .collect()
}
