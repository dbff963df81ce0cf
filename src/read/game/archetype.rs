//! The archetype rule: the one function that names a firearm's role from its eight stats, used by
//! game-profile, game-meta, role-roster and tier-list alike (the same text is in the OpenAPI
//! descriptions, `RULE`, and in ARCHITECTURE.md "Game analytics").
//!
//! Each specialist archetype has a fitness, the mean of four terms, where a term is a stat or its
//! complement (100 − stat) and an unknown stat counts as 50 (neutral):
//!
//! | archetype | terms |
//! |---|---|
//! | sniper | range, accuracy, accuracy, damage |
//! | assault | fire rate, range, accuracy, reload speed |
//! | tank | damage, recoil control, 100 − mobility, 100 − concealment |
//! | glass-cannon | damage, damage, mobility, 100 − recoil control |
//! | support | fire rate, recoil control, range, 100 − mobility |
//! | stealth | concealment, concealment, mobility, accuracy |
//! | speedster | mobility, mobility, fire rate, reload speed |
//!
//! The archetype is the specialist with the highest fitness (ties go to the earlier row) when
//! that fitness is at least `SPECIALIST_FITNESS` (58); otherwise the firearm is an all-rounder, whose
//! fitness is 100 − the spread (highest − lowest) of its known stats. A firearm with fewer than
//! four known stats has no archetype (null). Fitness is rounded to two decimals.

use super::stat::{
    ACCURACY, CONCEALMENT, DAMAGE, FIRE_RATE, MIN_KNOWN_FOR_OVERALL, MOBILITY, RANGE, RECOIL_CONTROL,
    RELOAD_SPEED, Stats, round2,
};

/// The closed list of vocabularies.md, in its order.
pub const ARCHETYPE_NAMES: [&str; 8] =
    ["sniper", "assault", "tank", "glass-cannon", "all-rounder", "support", "stealth", "speedster"];

/// Positions in `ARCHETYPE_NAMES`.
pub const SNIPER: usize = 0;
pub const ASSAULT: usize = 1;
pub const TANK: usize = 2;
pub const GLASS_CANNON: usize = 3;
pub const ALL_ROUNDER: usize = 4;
pub const SUPPORT: usize = 5;
pub const STEALTH: usize = 6;
pub const SPEEDSTER: usize = 7;

/// The fitness a specialist needs; below it the firearm is an all-rounder.
pub const SPECIALIST_FITNESS: f64 = 58.0;

/// The rule in one sentence, for the OpenAPI descriptions.
pub const RULE: &str = "Archetype rule (one function for every game operation): each specialist's fitness is \
    the mean of four terms, a stat or its complement (100 − stat), an unknown stat counting 50: \
    sniper = range, accuracy twice, damage; assault = fire rate, range, accuracy, reload speed; \
    tank = damage, recoil control, 100 − mobility, 100 − concealment; glass-cannon = damage twice, mobility, \
    100 − recoil control; support = fire rate, recoil control, range, 100 − mobility; \
    stealth = concealment twice, mobility, accuracy; speedster = mobility twice, fire rate, reload speed. \
    The archetype is the fittest specialist (ties to the earlier one in that list) when its fitness is at \
    least 58, else all-rounder, whose fitness is 100 − (highest − lowest known stat). Fewer than four \
    known stats: no archetype (null).";

/// A term: a stat, or its complement.
#[derive(Clone, Copy)]
enum Term {
    High(usize),
    Low(usize),
}

use Term::{High, Low};

/// The specialists' terms, by archetype position (all-rounder has none).
const TERMS: [[Term; 4]; 8] = [
    [High(RANGE), High(ACCURACY), High(ACCURACY), High(DAMAGE)],
    [High(FIRE_RATE), High(RANGE), High(ACCURACY), High(RELOAD_SPEED)],
    [High(DAMAGE), High(RECOIL_CONTROL), Low(MOBILITY), Low(CONCEALMENT)],
    [High(DAMAGE), High(DAMAGE), High(MOBILITY), Low(RECOIL_CONTROL)],
    [High(DAMAGE); 4], // all-rounder: unused, its fitness is the spread rule
    [High(FIRE_RATE), High(RECOIL_CONTROL), High(RANGE), Low(MOBILITY)],
    [High(CONCEALMENT), High(CONCEALMENT), High(MOBILITY), High(ACCURACY)],
    [High(MOBILITY), High(MOBILITY), High(FIRE_RATE), High(RELOAD_SPEED)],
];

/// How well the stats fit `archetype` (a position in `ARCHETYPE_NAMES`), 0 to 100.
pub fn fitness(stats: &Stats, archetype: usize) -> f64 {
    if archetype == ALL_ROUNDER {
        let known = stats.iter().flatten();
        let (low, high) = known.fold((100u8, 0u8), |(lo, hi), v| (lo.min(*v), hi.max(*v)));
        return round2(100.0 - f64::from(high.saturating_sub(low)));
    }
    let value = |at: usize| stats[at].map_or(50.0, f64::from);
    let sum: f64 = TERMS[archetype]
        .iter()
        .map(|term| match *term {
            High(at) => value(at),
            Low(at) => 100.0 - value(at),
        })
        .sum();
    round2(sum / 4.0)
}

/// The firearm's archetype and its fitness for it: see the module's rule.
pub fn archetype(stats: &Stats) -> Option<(usize, f64)> {
    if stats.iter().flatten().count() < MIN_KNOWN_FOR_OVERALL {
        return None;
    }
    let mut best: Option<(usize, f64)> = None;
    for at in (0..ARCHETYPE_NAMES.len()).filter(|at| *at != ALL_ROUNDER) {
        let fit = fitness(stats, at);
        if best.is_none_or(|(_, known)| fit > known) {
            best = Some((at, fit));
        }
    }
    match best {
        Some((at, fit)) if fit >= SPECIALIST_FITNESS => Some((at, fit)),
        _ => Some((ALL_ROUNDER, fitness(stats, ALL_ROUNDER))),
    }
}

pub fn index_of(name: &str) -> Option<usize> {
    ARCHETYPE_NAMES.iter().position(|known| *known == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(values: [u8; 8]) -> Stats {
        values.map(Some)
    }

    #[test]
    fn a_long_precise_slow_rifle_is_a_sniper() {
        // damage, accuracy, range, fire rate, mobility, recoil, reload, concealment
        let s = stats([70, 75, 80, 5, 30, 60, 40, 20]);
        // sniper: (80 + 75 + 75 + 70) / 4 = 75
        assert_eq!(archetype(&s), Some((SNIPER, 75.0)));
    }

    #[test]
    fn a_small_light_pistol_is_stealthy() {
        let s = stats([40, 45, 50, 45, 80, 50, 70, 75]);
        // stealth: (75 + 75 + 80 + 45) / 4 = 68.75; speedster: (80 + 80 + 45 + 70) / 4 = 68.75; the
        // tie goes to stealth, the earlier of the two in the list.
        assert_eq!(archetype(&s), Some((STEALTH, 68.75)));
    }

    #[test]
    fn balanced_stats_make_an_all_rounder() {
        let s = stats([50, 55, 45, 50, 52, 48, 50, 47]);
        assert_eq!(archetype(&s), Some((ALL_ROUNDER, 90.0)));
    }

    #[test]
    fn too_few_known_stats_give_no_archetype() {
        let s = [Some(90), None, None, None, None, None, Some(90), Some(90)];
        assert_eq!(archetype(&s), None);
    }

    #[test]
    fn unknown_stats_count_as_fifty() {
        let s = [Some(90), Some(90), Some(90), None, Some(10), Some(50), Some(50), Some(10)];
        assert_eq!(fitness(&s, SUPPORT), 70.0, "fire rate unknown: (50 + 50 + 90 + 90) / 4");
    }
}
