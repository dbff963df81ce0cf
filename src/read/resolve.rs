//! Resolving free text ("AK47", "glock 17 gen 5") to one firearm id.
//!
//! The search index proposes candidates; each is then scored by how well the query's tokens cover
//! the candidate's name or one of its alternate names (Dice coefficient over tokens, where a token
//! written without its punctuation still counts: "ak47" equals "AK-47"). Confidence is that score,
//! 0 to 1, rounded to two decimals; an exact name match is 1.

use serde::Serialize;

use super::search::{SearchIndex, tokens};
use crate::catalog::model::Firearm;

/// Candidates taken from the search before scoring.
const CANDIDATES: usize = 20;
/// Alternatives returned beside the best match.
const ALTERNATIVES: usize = 4;

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

pub fn resolve(index: &SearchIndex, firearms: &[Firearm], query: &str) -> tantivy::Result<Resolution> {
    let hits = index.search(query, 0, CANDIDATES)?;
    let mut scored: Vec<Candidate> = hits
        .positions
        .iter()
        .map(|&p| {
            let firearm = &firearms[p];
            let names = std::iter::once(&firearm.name).chain(firearm.alternate_names.iter().flatten());
            let confidence = names.map(|name| similarity(query, name)).fold(0.0, f64::max);
            Candidate { id: firearm.id.clone(), name: firearm.name.clone(), confidence: round2(confidence) }
        })
        .collect();
    // Stable: equal confidence keeps the search's relevance order.
    scored.sort_by(|a, b| b.confidence.total_cmp(&a.confidence));
    let mut scored = scored.into_iter();
    let best = scored.next();
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
    let covered = |from: &[String], to: &[String]| -> usize {
        let joined: Vec<String> = to.windows(2).map(|w| w.concat()).collect();
        from.iter()
            .map(|t| {
                if to.contains(t) {
                    1
                } else if joined.contains(t) {
                    2
                } else {
                    0
                }
            })
            .sum()
    };
    let matched = covered(&q, &n).min(n.len()) + covered(&n, &q).min(q.len());
    matched as f64 / (q.len() + n.len()) as f64
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
}
