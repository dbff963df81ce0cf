//! How alike two firearms are (the similar-firearms operation, 31), and the catalog packed for
//! that comparison.
//!
//! The operation compares one firearm with every other. Read off the records, each comparison
//! chased the category id, the cartridges and four figures through a 1 KB record and its heap
//! blocks: 16 ms a request at 100,000 firearms. Packed (`Packed`: ids as interned numbers,
//! equal exactly when the ids are, and the four figures side by side), the scan reads 48 bytes a
//! firearm and scores exactly as the records did, operation for operation (a test compares the
//! two), keeping the best as it goes. The packing is made on the snapshot's first such request
//! and kept with it.

use std::collections::HashMap;

use crate::catalog::model::Catalog;

/// One firearm as the score reads it: 48 bytes, its cartridges in the packing's shared list.
struct Compared {
    category: u32,
    /// `NO_ACTION` when the action is unknown (an unknown action never matches).
    action: u32,
    /// Where its cartridges start in `Packed::calibers`, and how many.
    calibers: (u32, u32),
    /// Bit `i` set when `figures[i]` is known.
    known: u8,
    /// Empty weight, barrel length, overall length, muzzle energy, in the order they are summed.
    figures: [f64; 4],
}

const NO_ACTION: u32 = u32::MAX;

/// Ids as numbers, one per distinct id.
#[derive(Default)]
struct Interned(HashMap<String, u32>);

impl Interned {
    fn number(&mut self, id: &str) -> u32 {
        if let Some(&number) = self.0.get(id) {
            return number;
        }
        let number = self.0.len() as u32;
        self.0.insert(id.to_owned(), number);
        number
    }
}

/// Every firearm of a catalog, packed for `score`, by catalog position.
pub struct Packed {
    firearms: Vec<Compared>,
    calibers: Vec<u32>,
}

impl Packed {
    pub fn build(catalog: &Catalog) -> Self {
        let mut ids = Interned::default();
        let mut calibers = Vec::new();
        let firearms = catalog
            .firearms
            .iter()
            .map(|firearm| {
                let start = calibers.len() as u32;
                calibers.extend(firearm.calibers.iter().map(|link| ids.number(&link.caliber_id)));
                let stated = [
                    firearm.weight_empty_g,
                    firearm.barrel_length_mm,
                    firearm.overall_length_mm,
                    firearm.muzzle_energy_j,
                ];
                let known = stated.iter().enumerate().fold(0, |known, (i, figure)| match figure {
                    Some(_) => known | 1 << i,
                    None => known,
                });
                Compared {
                    category: ids.number(&firearm.category_id),
                    action: firearm.action_type.as_deref().map_or(NO_ACTION, |action| ids.number(action)),
                    calibers: (start, calibers.len() as u32 - start),
                    known,
                    figures: stated.map(|figure| figure.unwrap_or(0.0)),
                }
            })
            .collect();
        Self { firearms, calibers }
    }

    fn calibers_of(&self, firearm: &Compared) -> &[u32] {
        let (start, count) = firearm.calibers;
        &self.calibers[start as usize..(start + count) as usize]
    }

    /// How alike two firearms are, 0 to 1: same category 0.3, a shared cartridge 0.3, same
    /// action 0.2 (`shared`), and 0.2 × closeness of the known specifications (empty weight,
    /// barrel and overall length, muzzle energy), where closeness is 1 − the mean of
    /// |a − b| / max(a, b) (`with_closeness`); rounded to thousandths.
    #[cfg(test)]
    fn score(&self, a: &Compared, b: &Compared) -> f64 {
        thousandths(with_closeness(self.shared(a, b), a, b))
    }

    /// The score's first three terms.
    fn shared(&self, a: &Compared, b: &Compared) -> f64 {
        let mut score = 0.0;
        if a.category == b.category {
            score += 0.3;
        }
        let theirs = self.calibers_of(b);
        if self.calibers_of(a).iter().any(|x| theirs.contains(x)) {
            score += 0.3;
        }
        if a.action != NO_ACTION && a.action == b.action {
            score += 0.2;
        }
        score
    }

    /// The `limit` firearms most like the one at `at` (itself left out, a score of 0 too), best
    /// first, ties by catalog position, each with its score. Kept as the scan goes: the scan
    /// visits positions in order, so a later firearm that ties the worst kept one stays out.
    pub fn most_similar(&self, at: usize, limit: usize) -> Vec<(f64, usize)> {
        let one = &self.firearms[at];
        let mut best: Vec<(f64, usize)> = Vec::with_capacity(limit + 1);
        for (i, other) in self.firearms.iter().enumerate() {
            if i == at || limit == 0 {
                continue;
            }
            let shared = self.shared(one, other);
            // Closeness adds at most 0.2: a firearm that cannot beat the worst kept one even
            // with it is not worth its four divisions (most of a scan, once the best are found).
            if best.len() == limit && thousandths(shared + 0.2) <= best[limit - 1].0 {
                continue;
            }
            let score = thousandths(with_closeness(shared, one, other));
            if score.is_nan() || score <= 0.0 || (best.len() == limit && score <= best[limit - 1].0) {
                continue;
            }
            let place = best.partition_point(|&(kept, _)| kept >= score);
            best.insert(place, (score, i));
            best.truncate(limit);
        }
        best
    }
}

/// `shared` plus 0.2 × the closeness of the specifications both firearms state.
fn with_closeness(shared: f64, a: &Compared, b: &Compared) -> f64 {
    let (mut gaps, mut known) = (0.0, 0usize);
    for i in 0..4 {
        let (x, y) = (a.figures[i], b.figures[i]);
        if a.known & b.known & (1 << i) != 0 && x.max(y) > 0.0 {
            gaps += (x - y).abs() / x.max(y);
            known += 1;
        }
    }
    if known > 0 { shared + 0.2 * (1.0 - gaps / known as f64) } else { shared }
}

fn thousandths(score: f64) -> f64 {
    (score * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::model::Firearm;
    use crate::catalog::synth::synthesize;
    use serde_json::{Value, json};

    /// The score read off two records, as the operation computed it before the packing.
    fn similarity(a: &Firearm, b: &Firearm) -> f64 {
        let mut score = 0.0;
        if a.category_id == b.category_id {
            score += 0.3;
        }
        if a.calibers.iter().any(|x| b.calibers.iter().any(|y| x.caliber_id == y.caliber_id)) {
            score += 0.3;
        }
        if a.action_type.is_some() && a.action_type == b.action_type {
            score += 0.2;
        }
        let pairs = [
            (a.weight_empty_g, b.weight_empty_g),
            (a.barrel_length_mm, b.barrel_length_mm),
            (a.overall_length_mm, b.overall_length_mm),
            (a.muzzle_energy_j, b.muzzle_energy_j),
        ];
        let gaps: Vec<f64> = pairs
            .iter()
            .filter_map(|pair| match pair {
                (Some(x), Some(y)) if x.max(*y) > 0.0 => Some((x - y).abs() / x.max(*y)),
                _ => None,
            })
            .collect();
        if !gaps.is_empty() {
            score += 0.2 * (1.0 - gaps.iter().sum::<f64>() / gaps.len() as f64);
        }
        (score * 1000.0).round() / 1000.0
    }

    fn firearm(value: Value) -> Firearm {
        let mut base = json!({"id": "x", "name": "X", "manufacturerId": "m", "categoryId": "pistols"});
        base.as_object_mut().unwrap().extend(value.as_object().unwrap().clone());
        serde_json::from_value(base).unwrap()
    }

    #[test]
    fn twins_score_one_and_strangers_little() {
        let a = firearm(json!({"actionType": "short_recoil", "weightEmptyG": 600.0,
                               "calibers": [{"caliberId": "9x19mm-parabellum", "isPrimary": true}]}));
        assert_eq!(similarity(&a, &a.clone()), 1.0);
        let b = firearm(json!({"categoryId": "rifles", "weightEmptyG": 1200.0}));
        assert_eq!(similarity(&a, &b), 0.1);
        let no_action = firearm(json!({"categoryId": "shotguns"}));
        assert_eq!(similarity(&no_action, &no_action.clone()), 0.3, "an unknown action never matches");
        let catalog = Catalog {
            firearms: vec![a.into(), b.into(), no_action.clone().into(), no_action.into()].into(),
            ..Default::default()
        };
        let packed = Packed::build(&catalog);
        assert_eq!(packed.most_similar(0, 10), vec![(0.1, 1)], "a score of 0 is left out");
        assert_eq!(packed.most_similar(2, 10), vec![(0.3, 3)]);
    }

    #[test]
    fn the_packed_catalog_ranks_as_the_records_do() {
        let catalog = synthesize(2_000, 3);
        let packed = Packed::build(&catalog);
        let firearms = catalog.firearms.typed();
        for at in [0, 1, 17, 999, 1_999] {
            for i in 0..firearms.len() {
                let packed_score = packed.score(&packed.firearms[at], &packed.firearms[i]);
                assert_eq!(packed_score.to_bits(), similarity(&firearms[at], &firearms[i]).to_bits());
            }
            let mut whole: Vec<(f64, usize)> = (0..firearms.len())
                .filter(|&i| i != at)
                .map(|i| (similarity(&firearms[at], &firearms[i]), i))
                .filter(|(score, _)| *score > 0.0)
                .collect();
            whole.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            for limit in [1, 10, 25] {
                assert_eq!(packed.most_similar(at, limit), whole[..limit], "firearm {at}, limit {limit}");
            }
        }
    }
}
