//! Clause weights kept per index: a clause's weight depends only on the index and the clause, so
//! it is computed once and reused by every later query that asks the same word in the same field.
//!
//! Computing one was most of what scoring a few documents cost: tantivy's BM25 weight looks up the
//! word's document count and field statistics and builds an explanation (formatted strings) each
//! time, and a fuzzy clause builds its Levenshtein automaton. A full-name search scores its rare
//! words' documents under every clause (`SearchIndex::scored`), about ten weights a query, and
//! those were a sixth of its time at 100,000 firearms.
//!
//! A typo clause's weight is made every time: it holds its Levenshtein automaton, a kilobyte per
//! state and up to a megabyte for a long word at two edits, and a few thousand of them kept for
//! queries of made-up words would be gigabytes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tantivy::query::{EnableScoring, Weight};

use super::patch::Statistics;
use super::{Clause, SearchIndex};

/// Weights an index keeps; past that many they are all dropped and computed again as asked.
const KEPT_WEIGHTS: usize = 4096;

/// What a clause asks (`Clause::asks`), with its weight as bits so the key can be hashed.
type Asks = (&'static str, String, u32);

#[derive(Default)]
pub(super) struct Weights {
    kept: Mutex<HashMap<Asks, Arc<dyn Weight>>>,
}

impl SearchIndex {
    /// The scoring weight of `clause` on this index, computed on first use.
    pub(super) fn weight(
        &self,
        statistics: &Statistics,
        clause: &Clause,
    ) -> tantivy::Result<Arc<dyn Weight>> {
        let enable = EnableScoring::enabled_from_statistics_provider(statistics, &self.searcher);
        if clause.fuzzy {
            return Ok(Arc::from(clause.query.weight(enable)?));
        }
        let (field, word, boost) = &clause.asks;
        let key: Asks = (field, word.clone(), boost.to_bits());
        if let Some(weight) = self.weights.kept.lock().expect("never poisoned").get(&key) {
            return Ok(weight.clone());
        }
        let weight: Arc<dyn Weight> = Arc::from(clause.query.weight(enable)?);
        let mut kept = self.weights.kept.lock().expect("never poisoned");
        if kept.len() >= KEPT_WEIGHTS {
            kept.clear();
        }
        kept.insert(key, weight.clone());
        Ok(weight)
    }
}

#[cfg(test)]
mod tests {
    use crate::catalog::synth::synthesize;
    use crate::read::search::SearchIndex;

    #[test]
    fn a_kept_weight_scores_as_a_fresh_one() {
        let catalog = synthesize(2_000, 5);
        let index = SearchIndex::build(&catalog).unwrap();
        let query = catalog.firearms.as_typed()[17].name.clone();
        let first = index.search(&query, 0, 50).unwrap();
        assert!(!index.weights.kept.lock().unwrap().is_empty(), "the clauses' weights are kept");
        let again = index.search(&query, 0, 50).unwrap();
        assert_eq!(first.positions, again.positions);
        assert_eq!(first.scores, again.scores);
        assert_eq!(first.total, again.total);
        let fresh = SearchIndex::build(&catalog).unwrap().search(&query, 0, 50).unwrap();
        assert_eq!(again.positions, fresh.positions);
        assert_eq!(again.scores, fresh.scores);
    }

    #[test]
    fn typo_automata_are_not_kept() {
        let catalog = synthesize(500, 5);
        let index = SearchIndex::build(&catalog).unwrap();
        let first = index.search("synthetc rfle", 0, 20).unwrap();
        assert!(first.total > 0, "the typos still match");
        let kept = index.weights.kept.lock().unwrap();
        assert!(
            kept.keys().all(|(field, _, _)| !field.contains("edit")),
            "{:?}",
            kept.keys().collect::<Vec<_>>()
        );
        assert!(kept.keys().any(|(field, _, _)| *field == "squashed"), "plain clauses are kept");
    }
}
