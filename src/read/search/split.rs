//! Rare words apart from common ones: the page of a query that mixes both is made of the
//! documents holding a rare word and the best documents of the common words alone, and the
//! latter ranking is kept for the next query that shares those words.
//!
//! A full name ("Synthetic Rifle 000006") is a few words held by one firearm and a few held by
//! tens of thousands. The rare words decide the first hit; the rest of the page is the firearms
//! that score best on the common words, thousands of them tied, which the pruned walk (`best`)
//! cannot skip: about 140 µs at 100,000 firearms, the same walk for every rifle's name. Split,
//! and with the document counts remembered (`patch::Counted`), such a search takes about 17 µs.
//!
//! Exact: a document that holds no rare word scores under the whole query what it scores under
//! the common words alone (the rare clauses add nothing to its clause-by-clause sum). So if it is
//! among the query's `k` best, fewer than `k` documents without a rare word rank above it, and it
//! is among the common words' `k + r` best, where `r` counts the documents holding a rare word.
//! The candidates are those `r` documents, scored under the whole query, and those `k + r` with
//! their common words' scores; the caller ranks and cuts. Ties within `TIE` are kept as the
//! pruned walk keeps them (`SearchIndex::best`).
//!
//! The common words' ranking depends only on the index and its words, so each index keeps the
//! last few it computed (`Rankings`): every rifle's name shares "rifle" and "syntheticrifle", and
//! every Glock's shares "glock".

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::patch::Statistics;
use super::{Clause, Found, SearchIndex, boolean};

/// The most documents a word may be held by, in a field, to count as rare.
const RARE_DOCUMENTS: u64 = 256;

/// Common words' rankings an index keeps; past that many the oldest half is dropped.
const KEPT_RANKINGS: usize = 256;

/// The deepest ranking kept (`k`): a deeper one (a last page, a descending order, which ranks
/// every match) is computed for its query and dropped, so the kept rankings stay a few
/// megabytes however deep clients page (256 of 100,000 documents each would be 400 MB).
const KEPT_DEPTH: usize = 1_000;

/// Whether a word held by `documents` documents in a field is rare.
pub(super) fn rare(documents: u64) -> bool {
    documents <= RARE_DOCUMENTS
}

/// Documents with their scores (summed clause by clause, as `SearchIndex::scored` sums), by
/// firearm position.
type Scored = Arc<Vec<(f32, usize)>>;

/// The common words' rankings an index computed: clause keys and `k` → its `k` best documents.
#[derive(Default)]
pub(super) struct Rankings {
    kept: Mutex<HashMap<(String, usize), Scored>>,
    /// Keys in the order they were kept, to drop the oldest.
    order: Mutex<Vec<(String, usize)>>,
}

impl Rankings {
    fn get(&self, key: &(String, usize)) -> Option<Scored> {
        self.kept.lock().expect("never poisoned").get(key).cloned()
    }

    fn keep(&self, key: (String, usize), ranking: Scored) {
        let mut kept = self.kept.lock().expect("never poisoned");
        let mut order = self.order.lock().expect("never poisoned");
        if kept.len() >= KEPT_RANKINGS {
            for old in order.drain(..KEPT_RANKINGS / 2) {
                kept.remove(&old);
            }
        }
        if kept.insert(key.clone(), ranking).is_none() {
            order.push(key);
        }
    }
}

impl SearchIndex {
    /// The `k` best documents of the query of `clauses` and maybe a few more, each with its score
    /// (summed clause by clause, `scored`) and position, in no order: the caller ranks and cuts.
    pub(super) fn top(
        &self,
        statistics: &Statistics,
        clauses: &[&Clause],
        k: usize,
    ) -> tantivy::Result<Vec<(f32, usize)>> {
        let (rare, common): (Vec<&Clause>, Vec<&Clause>) = clauses.iter().partition(|clause| clause.rare);
        if common.is_empty() {
            // Only rare words: their few documents are every candidate, scored once, with no
            // pruned walk before (a one-word search of a serial number, a model's designation).
            let every = self.every_match(statistics, clauses)?;
            return self.scored(statistics, clauses, every);
        }
        if rare.is_empty() {
            let found = self.best(statistics, &boolean(clauses), k)?;
            return self.scored(statistics, clauses, found);
        }
        let holding_rare = self.every_match(statistics, &rare)?;
        // Sorted, not hashed: a few hundred positions at most, looked up a page's worth of times.
        let mut held: Vec<usize> = holding_rare.iter().map(|found| found.position).collect();
        held.sort_unstable();
        let common_best = self.common_best(statistics, &common, k + holding_rare.len())?;
        // A document holding no rare word scores under the whole query what it scores under the
        // common words: its clause sums are the same, the rare clauses adding nothing.
        let mut hits = self.scored(statistics, clauses, holding_rare)?;
        hits.reserve(common_best.len());
        hits.extend(common_best.iter().filter(|(_, position)| held.binary_search(position).is_err()));
        Ok(hits)
    }

    /// Every live document one of `clauses` matches, unscored (they are rare words: a few
    /// hundred documents at most each), once each, by segment and document.
    pub(super) fn every_match(
        &self,
        statistics: &Statistics,
        clauses: &[&Clause],
    ) -> tantivy::Result<Vec<Found>> {
        let scorings = clauses
            .iter()
            .map(|clause| self.scoring(statistics, clause))
            .collect::<tantivy::Result<Vec<_>>>()?;
        let mut found = Vec::new();
        for (segment, reader) in self.searcher.segment_readers().iter().enumerate() {
            let positions = &self.positions[segment];
            let alive = reader.alive_bitset();
            for scoring in &scorings {
                scoring.for_each_document(self, segment as u32, &mut |doc| {
                    if alive.is_some_and(|alive| alive.is_deleted(doc)) {
                        return;
                    }
                    if let Some(position) = positions.first(doc) {
                        found.push(Found { segment: segment as u32, doc, position: position as usize });
                    }
                })?;
            }
        }
        found.sort_unstable_by_key(|f| (f.segment, f.doc));
        found.dedup_by_key(|f| (f.segment, f.doc));
        Ok(found)
    }

    /// The `k` best documents of the common words `clauses` alone, scored, computed once per
    /// index.
    fn common_best(&self, statistics: &Statistics, clauses: &[&Clause], k: usize) -> tantivy::Result<Scored> {
        // Written out by hand: `format!` per clause was a tenth of a full-name search's ranking.
        let mut words = String::new();
        for Clause { asks: (field, word, weight), .. } in clauses {
            words.push_str(field);
            words.push('\u{1f}');
            words.push_str(word);
            words.push('\u{1f}');
            words.extend(weight.to_bits().to_le_bytes().map(char::from));
            words.push('\n');
        }
        let key = (words, k);
        if let Some(ranking) = self.rankings.get(&key) {
            return Ok(ranking);
        }
        let found = self.best(statistics, &boolean(clauses), k)?;
        let ranking = Arc::new(self.scored(statistics, clauses, found)?);
        if k <= KEPT_DEPTH {
            self.rankings.keep(key, ranking.clone());
        }
        Ok(ranking)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::synth::synthesize;
    use crate::read::search::TIE;

    /// The exact ranking of `query`: every document of the clauses the search ranks by, scored
    /// clause by clause, sorted by score and position.
    fn exact_ranking(index: &SearchIndex, query: &str) -> Vec<(f32, usize)> {
        let statistics = index.statistics();
        let built = index.query(&statistics, query).unwrap().unwrap();
        let strong: Vec<&Clause> = built.clauses.iter().filter(|clause| !clause.faint).collect();
        let clauses = if strong.is_empty() { built.clauses.iter().collect() } else { strong };
        let every = index.every_match(&statistics, &clauses).unwrap();
        let mut hits = index.scored(&statistics, &clauses, every).unwrap();
        hits.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        hits
    }

    #[test]
    fn a_query_of_rare_and_common_words_pages_as_the_whole_ranking_does() {
        let catalog = synthesize(6_000, 11);
        let index = SearchIndex::build(&catalog).unwrap();
        let statistics = index.statistics();
        let queries: Vec<String> = [0, 1, 2, 777, 3_001, 5_999]
            .iter()
            .map(|&at| catalog.firearms.as_typed()[at].name.clone())
            .chain([format!("{} {}", catalog.manufacturers[5].name, "rifle")])
            .collect();
        let mut split_queries = 0;
        for query in &queries {
            let built = index.query(&statistics, query).unwrap().unwrap();
            let rare = built.clauses.iter().filter(|clause| clause.rare && !clause.faint).count();
            let common = built.clauses.iter().filter(|clause| !clause.rare && !clause.faint).count();
            split_queries += usize::from(rare > 0 && common > 0);
            // Twice: the second time the common words' ranking is the one kept.
            for _ in 0..2 {
                for (offset, limit) in [(0, 20), (20, 20), (45, 50)] {
                    let page = index.search(query, offset, limit).unwrap();
                    let exact = &exact_ranking(&index, query)[offset..offset + limit];
                    let scores: HashMap<usize, f32> =
                        exact_ranking(&index, query).into_iter().map(|(score, at)| (at, score)).collect();
                    assert_eq!(page.positions.len(), limit, "{query} at {offset}");
                    for (rank, (score, at)) in page.scores.iter().zip(&page.positions).enumerate() {
                        // Each hit is scored as the whole ranking scores it, to the bit...
                        assert_eq!(scores[at], *score, "{query} at {offset}: firearm {at}");
                        // ...and holds the relevance of its rank there, within the ties the
                        // collection allows (`TIE`: scores within a millionth are one relevance).
                        let (want, _) = exact[rank];
                        assert!(
                            (score - want).abs() <= 4.0 * TIE * want,
                            "{query} at {}: {score} vs {want}",
                            offset + rank
                        );
                    }
                    if offset == 0 {
                        assert_eq!(page.positions[0], exact[0].1, "{query}: the exact name first");
                    }
                }
            }
        }
        assert!(split_queries >= 6, "the full names mix rare and common words ({split_queries})");
        let kept = index.rankings.kept.lock().unwrap().len();
        assert!(kept > 0 && kept < 3 * split_queries, "common words' rankings are shared ({kept})");
    }

    #[test]
    fn a_deep_ranking_is_not_kept() {
        let catalog = synthesize(3_000, 11);
        let index = SearchIndex::build(&catalog).unwrap();
        let query = catalog.firearms.as_typed()[5].name.clone();
        let deep = index.search(&query, 0, KEPT_DEPTH + 1).unwrap();
        assert!(deep.positions.len() > KEPT_DEPTH, "the whole depth is answered");
        assert!(index.rankings.kept.lock().unwrap().is_empty(), "and not kept");
        index.search(&query, 0, 20).unwrap();
        assert!(!index.rankings.kept.lock().unwrap().is_empty(), "a page's ranking is kept");
    }

    #[test]
    fn kept_rankings_stay_bounded() {
        let rankings = Rankings::default();
        for k in 0..KEPT_RANKINGS * 3 {
            rankings.keep(("words".to_owned(), k), Arc::new(vec![(1.0, k)]));
        }
        assert!(rankings.kept.lock().unwrap().len() <= KEPT_RANKINGS);
        assert_eq!(rankings.kept.lock().unwrap().len(), rankings.order.lock().unwrap().len());
        assert!(rankings.get(&("words".to_owned(), KEPT_RANKINGS * 3 - 1)).is_some(), "the newest is kept");
    }
}
