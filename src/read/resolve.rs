//! Resolving free text ("AK47", "glock 17 gen 5") to one firearm id.
//!
//! The search index proposes candidates; each is then scored by how well the query's tokens cover
//! the candidate's name or one of its alternate names (Dice coefficient over tokens, where a token
//! written without its punctuation still counts: "ak47" equals "AK-47"; a token within the typo
//! allowance of search, `read::search::allowed_edits`, or equal once doubled letters are squashed,
//! counts as 0.8 of a match). Confidence is that score, 0 to 1, rounded to two decimals; an exact
//! name match is 1.
//!
//! Below `CONFIDENCE_FLOOR` nothing is a match: id and name are null and confidence 0, and the
//! candidates that share anything with the query stay as alternatives, so an unrelated query
//! answers "no match" instead of a guess.

use serde::Serialize;

use super::search::{SearchIndex, allowed_edits, squash, tokens};

use crate::catalog::held::Held;
use crate::catalog::model::Firearm;

/// Candidates taken from the search before scoring.
const CANDIDATES: usize = 20;
/// Alternatives returned beside the best match.
const ALTERNATIVES: usize = 4;
/// The least confidence that is a match: clearly more than half of the query and name tokens
/// agree ("glock" for "Glock 17" is 0.67; a generic "semi automatic pistol" against a military
/// designation that holds those words is 0.57).
pub const CONFIDENCE_FLOOR: f64 = 0.6;
/// What a token written with a typo counts for, against 1 for the exact token.
const TYPO_MATCH: f64 = 0.8;

#[derive(Debug, Serialize, PartialEq, utoipa::ToSchema)]
pub struct Candidate {
    pub id: String,
    pub name: String,
    pub confidence: f64,
}

#[derive(Debug, Serialize, PartialEq, utoipa::ToSchema)]
pub struct Resolution {
    pub query: String,
    /// The best match; null when nothing matched.
    pub id: Option<String>,
    pub name: Option<String>,
    pub confidence: f64,
    pub alternatives: Vec<Candidate>,
}

pub fn resolve(index: &SearchIndex, firearms: &Held<Firearm>, query: &str) -> tantivy::Result<Resolution> {
    let hits = index.search(query, 0, CANDIDATES)?;
    let mut scored: Vec<Candidate> = hits
        .positions
        .iter()
        .map(|&p| {
            let firearm = firearms.get(p);
            let names = std::iter::once(&firearm.name).chain(firearm.alternate_names.iter().flatten());
            let confidence = names.map(|name| similarity(query, name)).fold(0.0, f64::max);
            Candidate { id: firearm.id.clone(), name: firearm.name.clone(), confidence: round2(confidence) }
        })
        .collect();
    // Stable: equal confidence keeps the search's relevance order.
    scored.sort_by(|a, b| b.confidence.total_cmp(&a.confidence));
    scored.retain(|c| c.confidence > 0.0);
    let mut scored = scored.into_iter().peekable();
    let best = scored.next_if(|best| best.confidence >= CONFIDENCE_FLOOR);
    Ok(Resolution {
        query: query.to_owned(),
        id: best.as_ref().map(|b| b.id.clone()),
        name: best.as_ref().map(|b| b.name.clone()),
        confidence: best.as_ref().map_or(0.0, |b| b.confidence),
        alternatives: scored.take(ALTERNATIVES).collect(),
    })
}

/// Dice coefficient of the two token sets, where a query token also matches two neighbouring name
/// tokens written together (and the reverse).
fn similarity(query: &str, name: &str) -> f64 {
    let q = tokens(query);
    let n = tokens(name);
    if q.is_empty() || n.is_empty() {
        return 0.0;
    }
    if q.concat() == n.concat() {
        return 1.0;
    }
    let covered = |from: &[String], to: &[String]| -> f64 {
        let joined: Vec<String> = to.windows(2).map(|w| w.concat()).collect();
        from.iter()
            .map(|t| {
                if to.contains(t) {
                    1.0
                } else if joined.contains(t) {
                    2.0
                } else if to.iter().any(|u| typo_of(t, u)) {
                    TYPO_MATCH
                } else {
                    0.0
                }
            })
            .sum()
    };
    let matched = covered(&q, &n).min(n.len() as f64) + covered(&n, &q).min(q.len() as f64);
    matched / (q.len() + n.len()) as f64
}

/// Whether `a` is `b` written with a typo search would forgive.
fn typo_of(a: &str, b: &str) -> bool {
    let edits = allowed_edits(a).min(allowed_edits(b));
    edits > 0 && (squash(a) == squash(b) || edit_distance(a, b) <= usize::from(edits))
}

/// Levenshtein distance with adjacent transpositions (optimal string alignment), as tantivy's
/// fuzzy matching counts edits.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (rows[i - 1][j] + 1).min(rows[i][j - 1] + 1).min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = best;
        }
    }
    rows[a.len()][b.len()]
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spelling_without_punctuation_is_an_exact_match() {
        assert_eq!(similarity("AK47", "AK-47"), 1.0);
        assert_eq!(similarity("glock 17 gen 5", "Glock 17 Gen 5"), 1.0);
    }

    #[test]
    fn partial_matches_score_between() {
        let s = similarity("glock 17", "Glock 17 Gen 5");
        assert!(s > 0.5 && s < 1.0, "{s}");
        assert_eq!(similarity("garand", "Walther PPK"), 0.0);
    }

    #[test]
    fn a_typo_counts_most_of_a_match() {
        assert_eq!(round2(similarity("berreta 92", "Beretta 92")), 0.9);
        assert_eq!(round2(similarity("glokc 17", "Glock 17")), 0.9);
        assert_eq!(edit_distance("kalashnikof", "kalashnikov"), 1);
        assert_eq!(edit_distance("glokc", "glock"), 1);
        assert!(!typo_of("m16", "m14"), "short tokens must match exactly");
    }
}
