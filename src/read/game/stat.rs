//! The eight game stats as one closed list: their served names, in served order, and how a
//! firearm's `GameStats` is read as an array indexed by them.

use crate::catalog::game_stats::GameStats;

/// The served (camelCase) stat names, in served order: the closed list every `stat` parameter
/// publishes.
pub const STAT_NAMES: [&str; 8] = [
    "gameDamage",
    "gameAccuracy",
    "gameRange",
    "gameFireRate",
    "gameMobility",
    "gameRecoilControl",
    "gameReloadSpeed",
    "gameConcealment",
];

/// What a ranking can be by: the overall score, then each stat (the tier list's `stat`).
pub const METRIC_NAMES: [&str; 9] = [
    "overall",
    "gameDamage",
    "gameAccuracy",
    "gameRange",
    "gameFireRate",
    "gameMobility",
    "gameRecoilControl",
    "gameReloadSpeed",
    "gameConcealment",
];

/// Indexes into `Stats` and `STAT_NAMES`.
pub const DAMAGE: usize = 0;
pub const ACCURACY: usize = 1;
pub const RANGE: usize = 2;
pub const FIRE_RATE: usize = 3;
pub const MOBILITY: usize = 4;
pub const RECOIL_CONTROL: usize = 5;
pub const RELOAD_SPEED: usize = 6;
pub const CONCEALMENT: usize = 7;

/// One firearm's eight stats (0 to 100, None when unknown), indexed as `STAT_NAMES`.
pub type Stats = [Option<u8>; 8];

/// The stat at `STAT_NAMES` position of `name`.
pub fn index_of(name: &str) -> Option<usize> {
    STAT_NAMES.iter().position(|known| *known == name)
}

/// A firearm's `GameStats` as an array, each clamped to 0..=100.
pub fn of(stats: &GameStats) -> Stats {
    stats.named().map(|(_, value)| value.map(|v| v.clamp(0, 100) as u8))
}

/// The overall score: the mean of the known stats, when at least `MIN_KNOWN_FOR_OVERALL` (half
/// of them) are known (fewer would let one good figure rank a firearm at the top); rounded to two
/// decimals.
pub fn overall(stats: &Stats) -> Option<f64> {
    let known: Vec<f64> = stats.iter().flatten().map(|v| f64::from(*v)).collect();
    (known.len() >= MIN_KNOWN_FOR_OVERALL).then(|| round2(known.iter().sum::<f64>() / known.len() as f64))
}

/// How many of the eight stats a firearm needs for an overall score and an archetype.
pub const MIN_KNOWN_FOR_OVERALL: usize = 4;

pub fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

pub fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_metrics_are_overall_then_the_stats() {
        assert_eq!(METRIC_NAMES[1..], STAT_NAMES);
    }

    #[test]
    fn the_overall_score_needs_four_known_stats() {
        assert_eq!(overall(&[Some(50), Some(60), None, None, None, None, None, Some(70)]), None);
        assert_eq!(overall(&[Some(50), Some(60), Some(61), Some(0), None, None, None, Some(70)]), Some(48.2));
    }
}
