//! Two firearms stat by stat. Every stat is better higher (the curves already invert weight and
//! length), so a stat's winner is the higher value; equal values are a draw, and a stat either
//! firearm lacks has no winner (null). The verdict goes to the firearm that wins more stats; with
//! equal wins, to the higher overall score; otherwise it is a draw.

use super::Entry;
use super::stat::STAT_NAMES;

/// The rule in one sentence, for the OpenAPI description.
pub const RULE: &str = "Every stat is better higher: a stat's winner is the higher value (draw when equal, null \
    when either is unknown). Verdict: the firearm winning more stats; with equal wins the higher overall \
    score (mean of the known stats); else draw.";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    A,
    B,
    Draw,
}

impl Side {
    pub fn name(self) -> &'static str {
        match self {
            Side::A => "a",
            Side::B => "b",
            Side::Draw => "draw",
        }
    }
}

pub struct StatDuel {
    pub stat: &'static str,
    pub a: Option<u8>,
    pub b: Option<u8>,
    pub winner: Option<Side>,
}

pub struct Matchup {
    pub stats: Vec<StatDuel>,
    pub a_wins: usize,
    pub b_wins: usize,
    pub draws: usize,
    pub verdict: Side,
    /// Why: "more stats" or "overall score" or "even".
    pub decided_by: &'static str,
}

pub fn matchup(a: &Entry, b: &Entry) -> Matchup {
    let stats: Vec<StatDuel> = STAT_NAMES
        .iter()
        .enumerate()
        .map(|(at, &stat)| {
            let (x, y) = (a.stats[at], b.stats[at]);
            let winner = match (x, y) {
                (Some(x), Some(y)) if x > y => Some(Side::A),
                (Some(x), Some(y)) if x < y => Some(Side::B),
                (Some(_), Some(_)) => Some(Side::Draw),
                _ => None,
            };
            StatDuel { stat, a: x, b: y, winner }
        })
        .collect();
    let count = |side: Side| stats.iter().filter(|d| d.winner == Some(side)).count();
    let (a_wins, b_wins, draws) = (count(Side::A), count(Side::B), count(Side::Draw));
    let (verdict, decided_by) = if a_wins != b_wins {
        (if a_wins > b_wins { Side::A } else { Side::B }, "stats won")
    } else {
        match (a.overall, b.overall) {
            (Some(x), Some(y)) if x > y => (Side::A, "overall score"),
            (Some(x), Some(y)) if x < y => (Side::B, "overall score"),
            _ => (Side::Draw, "even"),
        }
    };
    Matchup { stats, a_wins, b_wins, draws, verdict, decided_by }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(stats: [Option<u8>; 8]) -> Entry {
        Entry {
            id: "x".into(),
            name: "X".into(),
            at: None,
            category: None,
            stats,
            overall: super::super::stat::overall(&stats),
            archetype: None,
        }
    }

    #[test]
    fn more_stats_won_decides_and_unknowns_have_no_winner() {
        let a = entry([Some(60), Some(50), Some(40), None, Some(10), Some(10), Some(10), Some(10)]);
        let b = entry([Some(50), Some(50), Some(30), Some(90), Some(90), Some(5), Some(5), Some(5)]);
        let m = matchup(&a, &b);
        assert_eq!((m.a_wins, m.b_wins, m.draws), (5, 1, 1));
        assert!(m.stats[3].winner.is_none());
        assert_eq!(m.verdict, Side::A);
    }
}
