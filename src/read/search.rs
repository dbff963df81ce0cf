//! Full-text search over the firearms of one snapshot (tantivy, in RAM).
//!
//! Names are not prose, so the text is tokenized here rather than by a stemmer: lower-cased
//! alphanumeric runs, plus each pair of neighbouring tokens joined ("AK-47" indexes `ak`, `47` and
//! `ak47`; "M1 Garand" indexes `m1garand`), so a query written with or without punctuation or
//! spaces meets the same terms. Fields are weighted: name 4, alternate names 3, manufacturer 2,
//! cartridge names and aliases 1.5, designer 1.5, description 0.5; tantivy's BM25 ranks within them.
//!
//! Typos: a query word of 4 to 7 letters that the name, alternate-name or manufacturer field does
//! not hold as spelled also matches there at one edit, a longer one at two (`kalashnikof` finds
//! Kalashnikov); and a doubled letter written once or a single one doubled matches too (`berreta`
//! finds Beretta, two plain edits away), through a field of the same words with runs of a letter
//! squashed to one. Typo matches weigh half, so an exact match ranks first. A word the index knows
//! is never expanded, so common words cost no fuzzy union.
//!
//! Cost: the page comes from top-k collection (block-max WAND when every clause is a plain term),
//! the total from a separate unscored count, or straight from the index when one clause alone
//! matches every firearm (a full-name search of the synthetic catalog, where every name shares a
//! word).

use tantivy::collector::{Count, TopDocs};
use tantivy::columnar::Column;
use tantivy::query::{BooleanQuery, BoostQuery, FuzzyTermQuery, Occur, Query, TermQuery};
use tantivy::schema::{FAST, Field, IndexRecordOption, Schema, TEXT};
use tantivy::{Index, IndexReader, Searcher, TantivyDocument, Term};

use std::collections::HashMap;

use crate::catalog::model::{Catalog, Firearm};

/// The weighted text fields of a firearm document; the first `TYPO_FIELDS` also match typos.
const FIELDS: [(&str, f32); 6] = [
    ("name", 4.0),
    ("alternate_names", 3.0),
    ("manufacturer", 2.0),
    ("calibers", 1.5),
    ("designer", 1.5),
    ("description", 0.5),
];
const TYPO_FIELDS: usize = 3;
/// The words of the typo fields with letter runs squashed ("beretta" → "bereta").
const SQUASHED: (&str, f32) = ("squashed", 2.0);

/// How many edits a query word may be from an indexed one: none below 4 letters, one up to 7,
/// two from 8.
pub fn allowed_edits(word: &str) -> u8 {
    match word.chars().count() {
        0..=3 => 0,
        4..=7 => 1,
        _ => 2,
    }
}

/// `word` with every run of one letter written once.
pub fn squash(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    for c in word.chars() {
        if !out.ends_with(c) {
            out.push(c);
        }
    }
    out
}

pub struct SearchIndex {
    reader: IndexReader,
    fields: Vec<(Field, f32)>,
    squashed: Field,
    /// Per segment, the firearm position of each document.
    positions: Vec<Column<u64>>,
}

/// One page of hits: firearm positions, best first, and how many matched in all.
pub struct Hits {
    pub positions: Vec<usize>,
    pub total: usize,
}

/// A built query and the most documents any one of its exact clauses matches.
struct Built {
    query: BooleanQuery,
    widest_clause: u64,
}

/// The text of each weighted field of a firearm document.
struct DocumentTexts<'a> {
    maker_names: HashMap<&'a str, &'a str>,
    /// Caliber id → its name, NATO designation and aliases.
    calibers: HashMap<&'a str, String>,
}

impl<'a> DocumentTexts<'a> {
    fn new(catalog: &'a Catalog) -> Self {
        let maker_names = catalog.manufacturers.iter().map(|m| (m.id.as_str(), m.name.as_str())).collect();
        let calibers = catalog
            .calibers
            .iter()
            .map(|c| {
                let mut names = vec![c.name.clone()];
                names.extend(c.nato_designation.clone());
                names.extend(c.aliases.clone().unwrap_or_default());
                (c.id.as_str(), names.join(" | "))
            })
            .collect();
        Self { maker_names, calibers }
    }

    /// In the order of `FIELDS`.
    fn of(&self, firearm: &Firearm) -> [String; 6] {
        [
            firearm.name.clone(),
            firearm.alternate_names.clone().unwrap_or_default().join(" | "),
            self.maker_names.get(firearm.manufacturer_id.as_str()).map(|n| n.to_string()).unwrap_or_default(),
            firearm
                .calibers
                .iter()
                .filter_map(|c| self.calibers.get(c.caliber_id.as_str()).cloned())
                .collect::<Vec<_>>()
                .join(" | "),
            firearm.designer.clone().unwrap_or_default(),
            firearm.description.clone().unwrap_or_default(),
        ]
    }
}

impl SearchIndex {
    pub fn build(catalog: &Catalog) -> tantivy::Result<Self> {
        let mut schema = Schema::builder();
        let fields: Vec<(Field, f32)> =
            FIELDS.iter().map(|(name, boost)| (schema.add_text_field(name, TEXT), *boost)).collect();
        let squashed = schema.add_text_field(SQUASHED.0, TEXT);
        let position = schema.add_u64_field("position", FAST);
        let index = Index::create_in_ram(schema.build());
        let mut writer = index.writer_with_num_threads(1, 64_000_000)?;
        let texts_of = DocumentTexts::new(catalog);
        for (i, firearm) in catalog.firearms.iter().enumerate() {
            let texts = texts_of.of(firearm);
            let mut doc = TantivyDocument::default();
            let squashed_words: Vec<String> =
                texts[..TYPO_FIELDS].iter().flat_map(|text| tokens(text)).map(|t| squash(&t)).collect();
            for ((field, _), text) in fields.iter().zip(texts) {
                doc.add_text(*field, index_terms(&text).join(" "));
            }
            doc.add_text(squashed, squashed_words.join(" "));
            doc.add_u64(position, i as u64);
            writer.add_document(doc)?;
        }
        writer.commit()?;
        let reader = index.reader()?;
        let searcher = reader.searcher();
        let positions = searcher
            .segment_readers()
            .iter()
            .map(|segment| segment.fast_fields().u64("position"))
            .collect::<tantivy::Result<Vec<_>>>()?;
        Ok(Self { reader, fields, squashed, positions })
    }

    /// Hits `offset..offset + limit` of `query`, best first, and the total.
    pub fn search(&self, query: &str, offset: usize, limit: usize) -> tantivy::Result<Hits> {
        let searcher = self.reader.searcher();
        let Some(built) = self.query(&searcher, query)? else {
            return Ok(Hits { positions: vec![], total: 0 });
        };
        let top = TopDocs::with_limit(limit.max(1)).and_offset(offset).order_by_score();
        let hits = searcher.search(&built.query, &top)?;
        let positions = hits
            .into_iter()
            .filter_map(|(_, address)| {
                self.positions.get(address.segment_ord as usize)?.first(address.doc_id)
            })
            .map(|p| p as usize)
            .take(limit)
            .collect();
        // A union holds every document as soon as one of its clauses does.
        let total = if built.widest_clause >= searcher.num_docs() {
            searcher.num_docs() as usize
        } else {
            searcher.search(&built.query, &Count)?
        };
        Ok(Hits { positions, total })
    }

    fn query(&self, searcher: &Searcher, text: &str) -> tantivy::Result<Option<Built>> {
        let terms = index_terms(text);
        if terms.is_empty() {
            return Ok(None);
        }
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        let mut widest_clause = 0;
        let boosted = |query: Box<dyn Query>, boost: f32| -> (Occur, Box<dyn Query>) {
            (Occur::Should, Box::new(BoostQuery::new(query, boost)))
        };
        for term in &terms {
            let edits = allowed_edits(term);
            let mut known_somewhere = false;
            for (i, (field, boost)) in self.fields.iter().enumerate() {
                let exact = Term::from_field_text(*field, term);
                let matching = searcher.doc_freq(&exact)?;
                widest_clause = widest_clause.max(matching);
                // A word a field holds as spelled is no typo there: only an unknown one expands.
                if i < TYPO_FIELDS && edits > 0 && matching == 0 {
                    let fuzzy = FuzzyTermQuery::new(exact.clone(), edits, true);
                    clauses.push(boosted(Box::new(fuzzy), boost / 2.0));
                }
                known_somewhere |= i < TYPO_FIELDS && matching > 0;
                clauses.push(boosted(Box::new(TermQuery::new(exact, IndexRecordOption::WithFreqs)), *boost));
            }
            if edits > 0 && !known_somewhere {
                let squashed = Term::from_field_text(self.squashed, &squash(term));
                clauses.push(boosted(
                    Box::new(TermQuery::new(squashed, IndexRecordOption::Basic)),
                    SQUASHED.1 / 2.0,
                ));
            }
        }
        Ok(Some(Built { query: BooleanQuery::new(clauses), widest_clause }))
    }
}

/// Lower-cased alphanumeric runs of `text`.
pub fn tokens(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric()).filter(|t| !t.is_empty()).map(|t| t.to_lowercase()).collect()
}

/// Tokens plus neighbouring pairs joined, so punctuation and spacing do not matter.
pub fn index_terms(text: &str) -> Vec<String> {
    let mut terms = Vec::new();
    // Pairs never span a separator between two names ("|").
    for part in text.split('|') {
        let tokens = tokens(part);
        for pair in tokens.windows(2) {
            terms.push(format!("{}{}", pair[0], pair[1]));
        }
        terms.extend(tokens);
    }
    terms
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn punctuation_and_spacing_meet_the_same_terms() {
        assert!(index_terms("AK-47").contains(&"ak47".to_owned()));
        assert!(index_terms("ak47").contains(&"ak47".to_owned()));
        assert!(index_terms("M1 Garand").contains(&"m1garand".to_owned()));
        assert_eq!(index_terms("a | b"), vec!["a", "b"]);
    }

    /// Every firearm whose text holds one of the query's terms, computed without the index.
    fn brute_force_matches(catalog: &Catalog, query: &str) -> usize {
        let texts = DocumentTexts::new(catalog);
        let wanted = index_terms(query);
        catalog
            .firearms
            .iter()
            .filter(|f| texts.of(f).iter().any(|text| index_terms(text).iter().any(|t| wanted.contains(t))))
            .count()
    }

    #[test]
    fn pages_and_totals_agree_with_the_whole_ranking_and_a_brute_force_count() {
        let catalog = crate::catalog::synth::synthesize(2_000, 5);
        let index = SearchIndex::build(&catalog).unwrap();
        let first = &catalog.firearms[0];
        let queries = [
            first.name.clone(),
            first.name.split(' ').next_back().unwrap().to_owned(),
            "synthetic".to_owned(),
            "rifle 012".to_owned(),
            catalog.calibers[3].name.clone(),
            // Nothing within the typo allowance either (a typo match is not an exact term).
            "qqqqq zzzzz".to_owned(),
        ];
        for query in &queries {
            let whole = index.search(query, 0, catalog.firearms.len()).unwrap();
            assert_eq!(whole.total, brute_force_matches(&catalog, query), "{query}");
            assert_eq!(whole.positions.len(), whole.total, "{query}");
            for (offset, limit) in [(0, 20), (20, 20), (whole.total.saturating_sub(5), 20)] {
                let page = index.search(query, offset, limit).unwrap();
                assert_eq!(page.total, whole.total, "{query}");
                let end = (offset + limit).min(whole.total);
                // Ties break by document, so a page is exactly its slice of the whole ranking.
                assert_eq!(page.positions, whole.positions[offset.min(end)..end], "{query} {offset}");
            }
        }
    }

    #[test]
    fn longer_words_allow_more_edits() {
        assert_eq!([allowed_edits("m16"), allowed_edits("glok"), allowed_edits("berreta")], [0, 1, 1]);
        assert_eq!(allowed_edits("kalashnikof"), 2);
    }

    #[test]
    fn squashing_meets_doubled_and_single_letters() {
        assert_eq!(squash("berreta"), squash("beretta"));
        assert_eq!(squash("beretta"), "bereta");
    }
}
