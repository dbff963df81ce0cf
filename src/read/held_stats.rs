//! Each firearm's live game stats by catalog position, a byte a stat. The stats are 0–100
//! integers by construction (`catalog::game_stats`); as eight `Option<i64>` they took 128 bytes a
//! firearm, 12.8 MB at 100,000 firearms held for the snapshot's life (and copied by every patch
//! taken in place). A value outside a byte's range (a row written by hand) is kept beside, so the
//! stats read back exactly as stored.

use std::collections::BTreeMap;

use crate::catalog::game_stats::GameStats;

/// A stat with no value.
const NONE: u8 = u8::MAX;
/// A value held in `outside`.
const OUTSIDE: u8 = u8::MAX - 1;

#[derive(Clone, Default, PartialEq, Debug, serde::Serialize, serde::Deserialize)]
pub struct HeldStats {
    bytes: Vec<[u8; 8]>,
    /// Values outside `0..OUTSIDE`, by `8 * position + stat`.
    outside: BTreeMap<u64, i64>,
}

impl HeldStats {
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The stats of the firearm at `at`. Panics past the end, as indexing does.
    pub fn get(&self, at: usize) -> GameStats {
        let values = self.bytes[at].iter().enumerate().map(|(stat, &byte)| match byte {
            NONE => None,
            OUTSIDE => self.outside.get(&key(at, stat)).copied(),
            value => Some(i64::from(value)),
        });
        let mut all = [None; 8];
        for (slot, value) in all.iter_mut().zip(values) {
            *slot = value;
        }
        GameStats::from_values(all)
    }

    /// Every firearm's stats, in position order.
    pub fn iter(&self) -> impl Iterator<Item = GameStats> + '_ {
        (0..self.len()).map(|at| self.get(at))
    }

    /// `stats` for the next position.
    pub fn push(&mut self, stats: GameStats) {
        self.bytes.push([NONE; 8]);
        self.set(self.bytes.len() - 1, stats);
    }

    /// `stats` in place of the firearm at `at`'s.
    pub fn set(&mut self, at: usize, stats: GameStats) {
        for (stat, (_, value)) in stats.named().into_iter().enumerate() {
            self.outside.remove(&key(at, stat));
            self.bytes[at][stat] = match value {
                None => NONE,
                Some(value) => match u8::try_from(value) {
                    Ok(byte) if byte < OUTSIDE => byte,
                    _ => {
                        self.outside.insert(key(at, stat), value);
                        OUTSIDE
                    }
                },
            };
        }
    }
}

fn key(at: usize, stat: usize) -> u64 {
    8 * at as u64 + stat as u64
}

impl FromIterator<GameStats> for HeldStats {
    fn from_iter<I: IntoIterator<Item = GameStats>>(stats: I) -> Self {
        let mut held = Self::default();
        stats.into_iter().for_each(|stats| held.push(stats));
        held
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_reads_back_as_held_in_range_or_not() {
        let stats = [
            GameStats::default(),
            GameStats::from_values([Some(0), Some(100), None, Some(253), Some(50), None, Some(1), Some(99)]),
            GameStats::from_values([
                Some(254),
                Some(255),
                Some(-1),
                Some(i64::MAX),
                None,
                None,
                None,
                Some(7),
            ]),
        ];
        let mut held: HeldStats = stats.iter().copied().collect();
        assert_eq!(held.iter().collect::<Vec<_>>(), stats);
        assert_eq!(held.outside.len(), 4, "only the values outside a byte are kept beside");
        // Set in place: a value outside a byte replaced by one inside leaves nothing beside.
        held.set(2, stats[1]);
        assert_eq!((held.get(2), held.outside.len()), (stats[1], 0));
    }
}
