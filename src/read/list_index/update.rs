//! The list index of a patched catalog whose firearms kept their positions (`read::in_place`):
//! the previous index with each changed firearm taken out of the sets it was in and put into
//! the sets it is in now, instead of a build over every firearm's facts (about a tenth of a
//! second at 100,000 firearms). Equals `ListIndex::build` of the new facts and orders (tested).

use super::ranked::SetKey;
use super::{Facts, ListIndex, Orders};

impl ListIndex {
    /// `previous` facts are those this index was built from; `facts` and `orders` the new ones;
    /// `changed`: the positions whose facts may differ.
    pub fn updated(&self, previous: &[Facts], facts: &[Facts], orders: &Orders, changed: &[usize]) -> Self {
        let mut index = self.clone();
        for &at in changed {
            let at32 = at as u32;
            SetKey::of(&previous[at], |key| {
                if let Some(set) = index.set_mut(key)
                    && let Ok(i) = set.binary_search(&at32)
                {
                    set.remove(i);
                }
            });
            if !previous[at].barrel.is_nan() {
                let i = index.barrel.iter().position(|&p| p == at32).expect("a known barrel is listed");
                index.barrel.remove(i);
            }
        }
        // A build lists only the countries some firearm has.
        index.country.retain(|_, set| !set.is_empty());
        for &at in changed {
            let at32 = at as u32;
            SetKey::of(&facts[at], |key| {
                if let Some(set) = index.set_mut(key)
                    && let Err(i) = set.binary_search(&at32)
                {
                    set.insert(i, at32);
                }
            });
            let barrel = facts[at].barrel;
            if !barrel.is_nan() {
                // A build sorts positions in order by barrel, stably: ties stay by position.
                let i = index.barrel.partition_point(|&p| {
                    facts[p as usize].barrel.total_cmp(&barrel).then(p.cmp(&at32)).is_lt()
                });
                index.barrel.insert(i, at32);
            }
        }
        index.ranked = self.ranked.updated(previous, facts, orders, changed);
        index
    }

    /// The plain (position-ordered) set `key`, if a build would hold it: a country's is made on
    /// first use, a maker's, category's or caliber's exists when the catalog has it.
    fn set_mut(&mut self, key: SetKey) -> Option<&mut Vec<u32>> {
        match key {
            SetKey::Manufacturer(m) => self.manufacturer.get_mut(m as usize),
            SetKey::Category(c) => self.category.get_mut(usize::from(c)),
            SetKey::Caliber(c) => self.caliber.get_mut(c as usize),
            SetKey::Action(a) => self.action.get_mut(usize::from(a)),
            SetKey::Status(s) => self.status.get_mut(usize::from(s)),
            SetKey::Country(c) => Some(self.country.entry(c).or_default()),
            SetKey::Has3dModel(with) => Some(&mut self.has_3d_model[usize::from(with)]),
        }
    }
}
