//! The firearms' free-text traits (features, designer, component materials, conflicts) with each
//! distinct value held once, for the slices that match them by a part of the text (13, 15, 16,
//! 17) and the conflict list (61).
//!
//! Those reads lower-cased every firearm's values and searched them on every request: about 4 ms
//! at 100,000 firearms, 22 ms for a material. Here each distinct value is lowered once, a request
//! tests the few distinct values against its text, and the firearms are walked only to look up
//! which value numbers they hold. Made on the snapshot's first such request, like the similar
//! firearms' packing (`read::deferred`), in one walk over the firearms (each decoded once from
//! the packed table, `catalog::held`); neither persisted nor patched.

use std::collections::{BTreeMap, HashMap};

use crate::catalog::model::{Catalog, Firearm};
use crate::read::statistics::frequency::COMPONENTS;

/// Distinct values (lower case) and, per firearm, the numbers of the values it holds.
pub struct Interned {
    values: Vec<String>,
    /// Firearm `at` holds `held[starts[at]..starts[at + 1]]`.
    starts: Vec<u32>,
    held: Vec<u32>,
}

/// An `Interned` being made, one firearm after the other.
struct Interning {
    numbers: HashMap<String, u32>,
    interned: Interned,
}

impl Interning {
    fn new() -> Self {
        Self {
            numbers: HashMap::new(),
            interned: Interned { values: Vec::new(), starts: vec![0], held: Vec::new() },
        }
    }

    /// The next firearm's values.
    fn add<'a>(&mut self, values: impl Iterator<Item = &'a str>) {
        let interned = &mut self.interned;
        for value in values {
            let next = interned.values.len() as u32;
            let number = *self.numbers.entry(value.to_lowercase()).or_insert_with_key(|lower| {
                interned.values.push(lower.clone());
                next
            });
            interned.held.push(number);
        }
        interned.starts.push(interned.held.len() as u32);
    }
}

impl Interned {
    /// Which values contain `needle` (already lower case), by value number.
    pub fn containing(&self, needle: &str) -> Vec<bool> {
        self.values.iter().map(|value| value.contains(needle)).collect()
    }

    /// Whether the firearm at `at` holds a value `marked` (from `containing`) marks.
    pub fn holds(&self, at: usize, marked: &[bool]) -> bool {
        let (start, end) = (self.starts[at] as usize, self.starts[at + 1] as usize);
        self.held[start..end].iter().any(|&number| marked[number as usize])
    }
}

/// A conflict as the records name it (the exact name), with the firearms used in it.
pub struct Conflict {
    pub name: String,
    /// Its name in lower case, for matching.
    pub lower: String,
    /// The years as the first record naming it gives them.
    pub years: Option<String>,
    /// The firearms naming it, in catalog order, each once.
    pub firearms: Vec<u32>,
}

pub struct TextIndex {
    pub features: Interned,
    pub designers: Interned,
    /// Per component, in `COMPONENTS` order.
    pub materials: Vec<Interned>,
    pub conflict_names: Interned,
    /// Every conflict, most firearms first, then by name.
    pub conflicts: Vec<Conflict>,
}

impl TextIndex {
    pub fn build(catalog: &Catalog) -> Self {
        let (mut features_held, mut designers) = (Interning::new(), Interning::new());
        let mut materials: Vec<Interning> = COMPONENTS.iter().map(|_| Interning::new()).collect();
        let (mut names, mut conflicts) = (Interning::new(), Conflicts::default());
        for (at, firearm) in catalog.firearms.iter().enumerate() {
            features_held.add(features(&firearm));
            designers.add(designer(&firearm));
            for ((_, material_of), interning) in COMPONENTS.iter().zip(&mut materials) {
                interning.add(material_of(&firearm).into_iter());
            }
            names.add(conflict_names(&firearm));
            conflicts.add(at, &firearm);
        }
        Self {
            features: features_held.interned,
            designers: designers.interned,
            materials: materials.into_iter().map(|interning| interning.interned).collect(),
            conflict_names: names.interned,
            conflicts: conflicts.listed(),
        }
    }
}

fn features(firearm: &Firearm) -> impl Iterator<Item = &str> {
    firearm.features.iter().flatten().map(String::as_str)
}

fn designer(firearm: &Firearm) -> impl Iterator<Item = &str> {
    firearm.designer.as_deref().into_iter()
}

fn conflict_names(firearm: &Firearm) -> impl Iterator<Item = &str> {
    firearm.conflicts.iter().flatten().map(|conflict| conflict.name.as_str())
}

/// The conflicts named so far: by name, the first years given and the firearms naming it.
#[derive(Default)]
struct Conflicts(BTreeMap<String, (Option<String>, Vec<u32>)>);

impl Conflicts {
    fn add(&mut self, at: usize, firearm: &Firearm) {
        for conflict in firearm.conflicts.iter().flatten() {
            let entry = self.0.entry(conflict.name.clone()).or_default();
            if entry.0.is_none() {
                entry.0 = conflict.years.clone();
            }
            if entry.1.last() != Some(&(at as u32)) {
                entry.1.push(at as u32);
            }
        }
    }

    /// Every conflict, most firearms first, then by name.
    fn listed(self) -> Vec<Conflict> {
        let mut list: Vec<Conflict> = self
            .0
            .into_iter()
            .map(|(name, (years, firearms))| Conflict { lower: name.to_lowercase(), name, years, firearms })
            .collect();
        // Stable: ties stay in name order.
        list.sort_by_key(|conflict| std::cmp::Reverse(conflict.firearms.len()));
        list
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::synth::synthesize;

    /// The plain answer the slices gave: lower every value of every firearm and search it.
    fn plain<'a, I: Iterator<Item = &'a str>>(
        firearms: &'a [std::sync::Arc<Firearm>],
        values_of: impl Fn(&'a Firearm) -> I,
        needle: &str,
    ) -> Vec<usize> {
        firearms
            .iter()
            .enumerate()
            .filter(|(_, f)| values_of(f).any(|v| v.to_lowercase().contains(needle)))
            .map(|(at, _)| at)
            .collect()
    }

    fn fast(interned: &Interned, firearms: usize, needle: &str) -> Vec<usize> {
        let marked = interned.containing(needle);
        (0..firearms).filter(|&at| interned.holds(at, &marked)).collect()
    }

    #[test]
    fn interned_values_match_what_searching_every_record_matches() {
        let mut catalog = synthesize(1_500, 5);
        // The synthetic catalog names no designer or conflict: give some firearms both, in
        // mixed case, one conflict named twice by one firearm.
        for (at, firearm) in catalog.firearms.typed_mut().iter_mut().enumerate().filter(|(at, _)| at % 7 == 0)
        {
            let firearm = std::sync::Arc::make_mut(firearm);
            firearm.designer = Some(["Eugene Stoner", "John Browning", "MIKHAIL Kalashnikov"][at % 3].into());
            let conflict = |name: &str| crate::catalog::model::Conflict {
                name: name.into(),
                years: Some("1955-1975".into()),
                sides: Vec::new(),
            };
            firearm.conflicts =
                Some(vec![conflict(["Vietnam War", "Korean War"][at % 2]), conflict("Vietnam War")]);
        }
        for firearm in catalog.firearms.typed_mut().iter_mut().step_by(5) {
            let features = ["Picatinny rail", "Ambidextrous SAFETY", "picatinny RAIL"];
            std::sync::Arc::make_mut(firearm).features = Some(features.map(String::from).to_vec());
        }
        let typed = catalog.firearms.typed().into_owned();
        // Packed, as a served snapshot holds its firearms.
        catalog.firearms.pack();
        let index = TextIndex::build(&catalog);
        let n = catalog.firearms.len();
        for needle in ["steel", "poly", "wood", "al", "", "nothing-like-it", "e", "rail", "safety"] {
            for ((_, material_of), interned) in COMPONENTS.iter().zip(&index.materials) {
                assert_eq!(fast(interned, n, needle), plain(&typed, |f| material_of(f).into_iter(), needle));
            }
            assert_eq!(fast(&index.features, n, needle), plain(&typed, features, needle));
        }
        for needle in ["stoner", "kalash", "john", "war", "vietnam", "zzz"] {
            assert_eq!(fast(&index.designers, n, needle), plain(&typed, designer, needle));
            assert_eq!(fast(&index.conflict_names, n, needle), plain(&typed, conflict_names, needle));
        }
        assert!(!fast(&index.designers, n, "stoner").is_empty());
        assert_eq!(fast(&index.features, n, "rail").len(), n.div_ceil(5));
        let vietnam = index.conflicts.iter().find(|c| c.name == "Vietnam War").unwrap();
        assert_eq!(vietnam.firearms.len(), n.div_ceil(7), "each firearm once");
        assert_eq!(index.conflicts[0].name, "Vietnam War", "most firearms first");
    }
}
