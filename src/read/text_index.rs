//! The firearms' free-text traits (features, designer, component materials, conflicts) with each
//! distinct value held once, for the slices that match them by a part of the text (13, 15, 16,
//! 17) and the conflict list (61).
//!
//! Those reads lower-cased every firearm's values and searched them on every request: about 4 ms
//! at 100,000 firearms, 22 ms for a material. Here each distinct value is lowered once with the
//! firearms holding it, and a request tests the distinct values against its text and marks the
//! holders of those that match: the cost is the values and the matches, not the catalog. Made in
//! one walk over the firearms (each decoded once from the packed table, `catalog::held`) off the
//! serving path once a snapshot is served (`Snapshot::build_lazy_indexes`), or by the first
//! request that needs it before then; neither persisted nor patched.

use std::collections::{BTreeMap, HashMap};

use crate::catalog::model::{Catalog, Firearm};
use crate::read::statistics::frequency::COMPONENTS;

/// Distinct values (lower case) and, per value, the firearms holding it.
pub struct Interned {
    values: Vec<String>,
    /// Per value, in the order of `values`.
    holders: Vec<Holders>,
}

/// The firearms holding one value: listed by position, or a bit each once that is smaller (more
/// than one firearm in 32 holds it), so a common value ("steel") is marked a word at a time.
enum Holders {
    Listed(Box<[u32]>),
    Marked(Marks),
}

/// An `Interned` being made, one firearm after the other.
struct Interning {
    numbers: HashMap<String, u32>,
    values: Vec<String>,
    holders: Vec<Vec<u32>>,
    /// The next firearm's position.
    at: u32,
}

impl Interning {
    fn new() -> Self {
        Self { numbers: HashMap::new(), values: Vec::new(), holders: Vec::new(), at: 0 }
    }

    /// The next firearm's values.
    fn add<'a>(&mut self, values: impl Iterator<Item = &'a str>) {
        for value in values {
            let next = self.values.len() as u32;
            let number = *self.numbers.entry(value.to_lowercase()).or_insert_with_key(|lower| {
                self.values.push(lower.clone());
                self.holders.push(Vec::new());
                next
            });
            let holders = &mut self.holders[number as usize];
            if holders.last() != Some(&self.at) {
                holders.push(self.at);
            }
        }
        self.at += 1;
    }

    fn interned(self) -> Interned {
        let firearms = self.at as usize;
        let holders = self
            .holders
            .into_iter()
            .map(|listed| {
                if listed.len() > firearms / 32 {
                    let mut marks = Marks::new(firearms);
                    listed.iter().for_each(|&at| marks.set(at as usize));
                    Holders::Marked(marks)
                } else {
                    Holders::Listed(listed.into_boxed_slice())
                }
            })
            .collect();
        Interned { values: self.values, holders }
    }
}

impl Interned {
    /// Mark in `marks` the firearms holding a value that contains `needle` (already lower case).
    /// The cost is the distinct values and the matches, never the whole catalog.
    pub fn mark_containing(&self, needle: &str, marks: &mut Marks) {
        for (value, holders) in self.values.iter().zip(&self.holders) {
            if value.contains(needle) {
                match holders {
                    Holders::Listed(listed) => listed.iter().for_each(|&at| marks.set(at as usize)),
                    Holders::Marked(marked) => marks.add(marked),
                }
            }
        }
    }
}

/// Firearm positions, a bit each.
pub struct Marks(Vec<u64>);

impl Marks {
    /// None marked, of `len` firearms.
    pub fn new(len: usize) -> Self {
        Self(vec![0; len.div_ceil(64)])
    }

    pub fn set(&mut self, at: usize) {
        self.0[at / 64] |= 1 << (at % 64);
    }

    pub fn holds(&self, at: usize) -> bool {
        self.0[at / 64] & (1 << (at % 64)) != 0
    }

    /// Mark every position `other` marks too (of as many firearms).
    pub fn add(&mut self, other: &Marks) {
        self.0.iter_mut().zip(&other.0).for_each(|(word, more)| *word |= more);
    }

    pub fn count(&self) -> usize {
        self.0.iter().map(|word| word.count_ones() as usize).sum()
    }

    /// The marked positions, ascending.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    i * 64 + bit
                })
            })
        })
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
            features: features_held.interned(),
            designers: designers.interned(),
            materials: materials.into_iter().map(Interning::interned).collect(),
            conflict_names: names.interned(),
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
        let mut marks = Marks::new(firearms);
        interned.mark_containing(needle, &mut marks);
        let marked: Vec<usize> = marks.iter().collect();
        assert_eq!(marked.len(), marks.count());
        assert!(marked.iter().all(|&at| marks.holds(at)));
        marked
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
