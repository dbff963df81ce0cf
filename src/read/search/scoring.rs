//! Query words as an index knows them, kept per index: in which fields a word is held, by how
//! many documents, how it scores there and where its postings lie depend only on the index and the
//! word, so they are looked up once and reused by every later query that asks the same word.
//!
//! A plain word is read straight from its postings (`Scoring::Word`): its BM25 weight (with the
//! field's boost) and its postings' place in each segment are kept, and the segments' postings and
//! field-norm readers are opened once with the index (`SegmentFields`). Through tantivy's
//! `TermWeight`, every clause of every search looked its word up in the term dictionary again,
//! cloned the weight's explanation (formatted strings) and moved a kilobyte of scorer into a box:
//! a sixth of a node's time under full-name searches at 100,000 firearms, for scoring a handful of
//! documents; and building a query looked up each word's count in each field in a shared map. The
//! arithmetic is tantivy's own (`Bm25Weight::score` of the field norm and term frequency), so a
//! document scores the same to the bit (a test holds it to tantivy's weight).
//!
//! A typo clause goes through tantivy's weight, made every time: it holds its Levenshtein
//! automaton, a kilobyte per state and up to a megabyte for a long word at two edits, and a few
//! thousand of them kept for queries of made-up words would be gigabytes.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tantivy::fieldnorm::FieldNormReader;
use tantivy::postings::{Postings as _, TermInfo};
use tantivy::query::{Bm25StatisticsProvider as _, Bm25Weight, EnableScoring, Weight};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocId, DocSet as _, InvertedIndexReader, Searcher, Term};

use super::patch::Statistics;
use super::{Clause, FIELDS, Found, Matcher, SPELLINGS, SearchIndex};

/// Words an index keeps; past that many they are all dropped and looked up again as asked. Each
/// holds a kilobyte per field that holds it (BM25's table of field lengths), so a few megabytes.
const KEPT_WORDS: usize = 1024;

/// The slots of a known word: the `FIELDS`, then the spellings.
const SLOTS: usize = FIELDS.len() + 1;

/// A word that at least this many documents of a segment hold is scored there from a table of
/// its frequency in each document (`frequencies`): seeking a document in a long postings list
/// walks its skip entries one by one, a few microseconds in 100,000 documents, and a full-name
/// search seeks each of its common words' lists for each document it scores.
const TABLE_FROM: u32 = 2_048;

/// The frequency tables (a byte per document) one index holds at most: 80 of them at 100,000
/// firearms, where a full-name search of the synthetic catalog uses about 10.
const TABLE_BYTES: usize = 8 << 20;

/// The words looked up in one index.
#[derive(Default)]
pub(super) struct Words {
    kept: Mutex<HashMap<String, Arc<KnownWord>>>,
    /// Bytes of the kept words' frequency tables.
    table_bytes: AtomicUsize,
}

/// What one index knows of a word, field by field (the `FIELDS`, then the spellings): how it
/// scores there, when some live document holds it there.
pub(super) struct KnownWord([Option<Arc<WordScoring>>; SLOTS]);

impl KnownWord {
    /// In the `FIELDS`, in their order.
    pub(super) fn in_fields(&self) -> &[Option<Arc<WordScoring>>] {
        &self.0[..FIELDS.len()]
    }

    /// As a spelling (a typo's squashed form, `SearchIndex::query`).
    pub(super) fn spelled(&self) -> Option<&Arc<WordScoring>> {
        self.0[FIELDS.len()].as_ref()
    }
}

/// A plain word in one field, read from its postings.
pub(super) struct WordScoring {
    pub(super) term: Term,
    /// How its postings are read (`Basic` reads every frequency as 1).
    pub(super) record: IndexRecordOption,
    /// How many live documents hold it.
    pub(super) documents: u64,
    /// BM25 of the word in its field, multiplied by the clause's weight.
    bm25: Bm25Weight,
    /// Per segment, where the word's postings lie (None: the segment does not hold it).
    postings: Vec<Option<TermInfo>>,
    /// Per segment, the word's frequency in each document, when it is common there and the
    /// index's table budget allowed (`TABLE_FROM`).
    frequencies: Vec<Option<Box<[u8]>>>,
}

/// How one clause scores and lists its documents.
pub(super) enum Scoring<'a> {
    Word(&'a WordScoring),
    /// A typo expansion, through tantivy's weight (made for the search, not kept).
    Typo(Box<dyn Weight>),
}

/// One segment's readers of the text fields, by field id, opened once with the index.
pub(super) struct SegmentFields(Vec<Option<(Arc<InvertedIndexReader>, FieldNormReader)>>);

impl SegmentFields {
    /// The readers of `fields` in every segment of `searcher`.
    pub(super) fn open(searcher: &Searcher, fields: &[Field]) -> tantivy::Result<Vec<Self>> {
        let slots = fields.iter().map(|field| field.field_id() as usize + 1).max().unwrap_or(0);
        searcher
            .segment_readers()
            .iter()
            .map(|reader| {
                let mut readers = vec![None; slots];
                for &field in fields {
                    let norms = reader.get_fieldnorms_reader(field)?;
                    readers[field.field_id() as usize] = Some((reader.inverted_index(field)?, norms));
                }
                Ok(Self(readers))
            })
            .collect()
    }

    fn of(&self, field: Field) -> &(Arc<InvertedIndexReader>, FieldNormReader) {
        self.0[field.field_id() as usize].as_ref().expect("a text field's readers are opened with the index")
    }
}

impl SearchIndex {
    /// What this index knows of `word`, looked up on first use.
    pub(super) fn known(&self, statistics: &Statistics, word: &str) -> tantivy::Result<Arc<KnownWord>> {
        if let Some(known) = self.words.kept.lock().expect("never poisoned").get(word) {
            return Ok(known.clone());
        }
        let exact = self.fields.iter().map(|&(field, boost)| (field, boost, IndexRecordOption::WithFreqs));
        let spelled = (self.spellings, SPELLINGS.1 / 2.0, IndexRecordOption::Basic);
        let mut slots: [Option<Arc<WordScoring>>; SLOTS] = Default::default();
        for (slot, (field, boost, record)) in slots.iter_mut().zip(exact.chain([spelled])) {
            let term = Term::from_field_text(field, word);
            *slot = self.word_scoring(statistics, term, record, boost)?.map(Arc::new);
        }
        let known = Arc::new(KnownWord(slots));
        let mut kept = self.words.kept.lock().expect("never poisoned");
        if kept.len() >= KEPT_WORDS {
            kept.clear();
            // Their tables are freed as the searches still holding them end.
            self.words.table_bytes.store(0, Ordering::Relaxed);
        }
        kept.insert(word.to_owned(), known.clone());
        Ok(known)
    }

    /// A plain word's scoring in its field, None when no live document holds it there: BM25 as
    /// `TermQuery` weighs one term (the index's statistics), boosted as `BoostQuery` boosts it,
    /// and its postings in each segment.
    fn word_scoring(
        &self,
        statistics: &Statistics,
        term: Term,
        record: IndexRecordOption,
        boost: f32,
    ) -> tantivy::Result<Option<WordScoring>> {
        let documents = statistics.doc_freq(&term)?;
        if documents == 0 {
            return Ok(None);
        }
        let field = term.field();
        let postings: Vec<Option<TermInfo>> = self
            .segment_fields
            .iter()
            .map(|segment| segment.of(field).0.get_term_info(&term))
            .collect::<std::io::Result<_>>()?;
        let frequencies = postings
            .iter()
            .zip(&self.segment_fields)
            .enumerate()
            .map(|(segment, (info, fields))| match info {
                Some(info) if info.doc_freq >= TABLE_FROM => {
                    let documents = self.searcher.segment_reader(segment as u32).max_doc() as usize;
                    self.frequency_table(&fields.of(field).0, info, record, documents)
                }
                _ => Ok(None),
            })
            .collect::<std::io::Result<_>>()?;
        // `Bm25Weight::for_terms` of one term, without the explanation it formats.
        let total = statistics.total_num_docs()?;
        let average_length = statistics.total_num_tokens(field)? as f32 / total as f32;
        let bm25 = Bm25Weight::for_one_term_without_explain(documents, total, average_length).boost_by(boost);
        Ok(Some(WordScoring { term, record, documents, bm25, postings, frequencies }))
    }

    /// A word's frequency in each of a segment's `documents` (0 where it is not held), if the
    /// index's budget has room for it and no frequency passes a byte.
    fn frequency_table(
        &self,
        inverted: &InvertedIndexReader,
        info: &TermInfo,
        record: IndexRecordOption,
        documents: usize,
    ) -> std::io::Result<Option<Box<[u8]>>> {
        let budget = &self.words.table_bytes;
        if budget.fetch_add(documents, Ordering::Relaxed) + documents > TABLE_BYTES {
            budget.fetch_sub(documents, Ordering::Relaxed);
            return Ok(None);
        }
        let mut table = vec![0u8; documents];
        let mut block = inverted.read_block_postings_from_terminfo(info, record)?;
        while !block.docs().is_empty() {
            for (at, &doc) in block.docs().iter().enumerate() {
                // Read without frequencies, every one is 1 (as `TermScorer` reads it).
                let frequency = if record.has_freq() { block.freqs()[at] } else { 1 };
                let Ok(frequency) = u8::try_from(frequency) else {
                    budget.fetch_sub(documents, Ordering::Relaxed);
                    return Ok(None);
                };
                table[doc as usize] = frequency;
            }
            block.advance();
        }
        Ok(Some(table.into_boxed_slice()))
    }

    /// How `clause` scores on this index.
    pub(super) fn scoring<'a>(
        &self,
        statistics: &Statistics,
        clause: &'a Clause,
    ) -> tantivy::Result<Scoring<'a>> {
        Ok(match &clause.matcher {
            Matcher::Word(word) => Scoring::Word(word),
            Matcher::Typo(_) => {
                let enable = EnableScoring::enabled_from_statistics_provider(statistics, &self.searcher);
                Scoring::Typo(clause.query().weight(enable)?)
            }
        })
    }
}

impl Scoring<'_> {
    /// Adds this clause's score of each of `documents` (one segment's, by document id) to its
    /// entry of `scores`.
    pub(super) fn add_scores(
        &self,
        index: &SearchIndex,
        documents: &[Found],
        scores: &mut [f32],
    ) -> tantivy::Result<()> {
        let Some(Found { segment, .. }) = documents.first() else { return Ok(()) };
        let segment = *segment;
        match self {
            Scoring::Word(word) => {
                let Some(info) = &word.postings[segment as usize] else { return Ok(()) };
                let (inverted, norms) = index.segment_fields[segment as usize].of(word.term.field());
                if let Some(table) = &word.frequencies[segment as usize] {
                    for (score, document) in scores.iter_mut().zip(documents) {
                        let frequency = table[document.doc as usize];
                        if frequency > 0 {
                            *score += word.bm25.score(norms.fieldnorm_id(document.doc), u32::from(frequency));
                        }
                    }
                    return Ok(());
                }
                let mut postings = inverted.read_postings_from_terminfo(info, word.record)?;
                for (score, document) in scores.iter_mut().zip(documents) {
                    if postings.doc() < document.doc {
                        postings.seek(document.doc);
                    }
                    if postings.doc() == document.doc {
                        *score += word.bm25.score(norms.fieldnorm_id(document.doc), postings.term_freq());
                    }
                }
            }
            Scoring::Typo(weight) => {
                let mut scorer = weight.scorer(index.searcher.segment_reader(segment), 1.0)?;
                for (score, document) in scores.iter_mut().zip(documents) {
                    if scorer.doc() < document.doc {
                        scorer.seek(document.doc);
                    }
                    if scorer.doc() == document.doc {
                        *score += scorer.score();
                    }
                }
            }
        }
        Ok(())
    }

    /// Calls `each` with every document of `segment` this clause matches, deleted ones included,
    /// in document order.
    pub(super) fn for_each_document(
        &self,
        index: &SearchIndex,
        segment: u32,
        each: &mut dyn FnMut(DocId),
    ) -> tantivy::Result<()> {
        match self {
            Scoring::Word(word) => {
                let Some(info) = &word.postings[segment as usize] else { return Ok(()) };
                let (inverted, _) = index.segment_fields[segment as usize].of(word.term.field());
                let mut block = inverted.read_block_postings_from_terminfo(info, IndexRecordOption::Basic)?;
                while !block.docs().is_empty() {
                    block.docs().iter().for_each(|&doc| each(doc));
                    block.advance();
                }
            }
            Scoring::Typo(weight) => {
                weight.for_each_no_score(index.searcher.segment_reader(segment), &mut |docs| {
                    docs.iter().for_each(|&doc| each(doc))
                })?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use tantivy::query::EnableScoring;

    use super::{KEPT_WORDS, TABLE_BYTES};
    use crate::catalog::synth::synthesize;
    use crate::read::search::{Found, Matcher, SearchIndex};

    #[test]
    fn a_word_scores_every_document_as_tantivys_own_weight_does() {
        let catalog = synthesize(3_000, 9);
        let index = SearchIndex::build(&catalog).unwrap();
        let statistics = index.statistics();
        // A full name (rare and common words in every field), a maker, and a doubled letter whose
        // squashed spelling is read without frequencies.
        let queries = [catalog.firearms.as_typed()[40].name.clone(), catalog.manufacturers[3].name.clone()]
            .into_iter()
            .chain(["ssynthetic".to_owned()]);
        let (mut compared, mut spellings, mut tables) = (0, 0, 0);
        for query in queries {
            let built = index.query(&statistics, &query).unwrap().unwrap();
            for clause in &built.clauses {
                let Matcher::Word(word) = &clause.matcher else { continue };
                spellings += usize::from(clause.asks.0 == "squashed");
                tables += usize::from(word.frequencies[0].is_some());
                let enable = EnableScoring::enabled_from_statistics_provider(&statistics, &index.searcher);
                let weight = clause.query().weight(enable).unwrap();
                let segment = index.searcher.segment_reader(0);
                let mut tantivys = Vec::new();
                weight.for_each(segment, &mut |doc, score| tantivys.push((doc, score))).unwrap();
                let documents: Vec<Found> = tantivys
                    .iter()
                    .map(|&(doc, _)| Found { segment: 0, doc, position: doc as usize })
                    .collect();
                let scoring = index.scoring(&statistics, clause).unwrap();
                let mut ours = vec![0.0f32; documents.len()];
                scoring.add_scores(&index, &documents, &mut ours).unwrap();
                for ((doc, theirs), ours) in tantivys.iter().zip(&ours) {
                    assert_eq!(theirs.to_bits(), ours.to_bits(), "{:?} in document {doc}", clause.asks);
                }
                let mut listed = Vec::new();
                scoring.for_each_document(&index, 0, &mut |doc| listed.push(doc)).unwrap();
                assert_eq!(
                    listed,
                    tantivys.iter().map(|&(doc, _)| doc).collect::<Vec<_>>(),
                    "{:?}",
                    clause.asks
                );
                compared += documents.len();
                // A document that does not hold the word scores nothing for it.
                let held = |doc: &u32| tantivys.binary_search_by_key(doc, |&(held, _)| held).is_ok();
                if let Some(doc) = (0..3_000).find(|doc| !held(doc)) {
                    let (mut score, missing) =
                        ([0.0f32], [Found { segment: 0, doc, position: doc as usize }]);
                    scoring.add_scores(&index, &missing, &mut score).unwrap();
                    assert_eq!(score[0], 0.0, "{:?} in document {doc}", clause.asks);
                }
            }
        }
        assert!(compared > 3_000, "{compared} scores compared");
        assert_eq!(spellings, 1, "the squashed spelling was compared");
        assert!(tables >= 2, "common words were scored from their frequency tables ({tables})");
    }

    #[test]
    fn past_the_table_budget_a_common_word_scores_from_its_postings_alike() {
        let catalog = synthesize(3_000, 9);
        let query = catalog.firearms.as_typed()[40].name.clone();
        let with_tables = SearchIndex::build(&catalog).unwrap();
        let without = SearchIndex::build(&catalog).unwrap();
        without.words.table_bytes.store(TABLE_BYTES, std::sync::atomic::Ordering::Relaxed);
        let (a, b) = (with_tables.search(&query, 0, 100).unwrap(), without.search(&query, 0, 100).unwrap());
        let kept_tables = |index: &SearchIndex| {
            let kept = index.words.kept.lock().unwrap();
            kept.values()
                .flat_map(|known| known.0.iter().flatten())
                .filter(|word| word.frequencies[0].is_some())
                .count()
        };
        assert!(kept_tables(&with_tables) > 0);
        assert_eq!(kept_tables(&without), 0, "no room for a table");
        assert_eq!((a.positions, a.scores, a.total), (b.positions, b.scores, b.total));
    }

    #[test]
    fn a_kept_word_scores_as_a_fresh_one() {
        let catalog = synthesize(2_000, 5);
        let index = SearchIndex::build(&catalog).unwrap();
        let query = catalog.firearms.as_typed()[17].name.clone();
        let first = index.search(&query, 0, 50).unwrap();
        assert!(!index.words.kept.lock().unwrap().is_empty(), "the query's words are kept");
        let again = index.search(&query, 0, 50).unwrap();
        assert_eq!(first.positions, again.positions);
        assert_eq!(first.scores, again.scores);
        assert_eq!(first.total, again.total);
        let fresh = SearchIndex::build(&catalog).unwrap().search(&query, 0, 50).unwrap();
        assert_eq!(again.positions, fresh.positions);
        assert_eq!(again.scores, fresh.scores);
    }

    #[test]
    fn kept_words_stay_bounded() {
        let catalog = synthesize(300, 5);
        let index = SearchIndex::build(&catalog).unwrap();
        for n in 0..KEPT_WORDS + 10 {
            index.search(&format!("rifle q{n}"), 0, 5).unwrap();
        }
        let kept = index.words.kept.lock().unwrap();
        assert!(kept.len() <= KEPT_WORDS, "{}", kept.len());
        assert!(kept.contains_key(&format!("q{}", KEPT_WORDS + 9)), "the newest word is kept");
    }
}
