//! Full-text search over the firearms of one snapshot (tantivy, in RAM).
//!
//! Names are not prose, so the text is tokenized here rather than by a stemmer: lower-cased
//! alphanumeric runs, plus each pair of neighbouring tokens joined ("AK-47" indexes `ak`, `47` and
//! `ak47`; "M1 Garand" indexes `m1garand`), so a query written with or without punctuation or
//! spaces meets the same terms. A name token of four or more characters also matches at one edit
//! (one typo) when the index does not know it as spelled. Fields are weighted: name 4, alternate names 3, manufacturer 2, cartridge names
//! and aliases 1.5, designer 1.5, description 0.5; tantivy's BM25 ranks within them.

use tantivy::collector::{Count, TopDocs};
use tantivy::columnar::Column;
use tantivy::query::{BooleanQuery, BoostQuery, FuzzyTermQuery, Occur, Query, TermQuery};
use tantivy::schema::{FAST, Field, IndexRecordOption, Schema, TEXT};
use tantivy::{Index, IndexReader, TantivyDocument, Term};

use crate::catalog::model::Catalog;

/// The weighted text fields of a firearm document.
const FIELDS: [(&str, f32); 6] = [
    ("name", 4.0),
    ("alternate_names", 3.0),
    ("manufacturer", 2.0),
    ("calibers", 1.5),
    ("designer", 1.5),
    ("description", 0.5),
];

/// Name tokens this long or longer also match at one edit.
const FUZZY_MIN_LEN: usize = 4;

pub struct SearchIndex {
    reader: IndexReader,
    fields: Vec<(Field, f32)>,
    /// Per segment, the firearm position of each document.
    positions: Vec<Column<u64>>,
}

/// One page of hits: firearm positions, best first, and how many matched in all.
pub struct Hits {
    pub positions: Vec<usize>,
    pub total: usize,
}

impl SearchIndex {
    pub fn build(catalog: &Catalog) -> tantivy::Result<Self> {
        let mut schema = Schema::builder();
        let fields: Vec<(Field, f32)> =
            FIELDS.iter().map(|(name, boost)| (schema.add_text_field(name, TEXT), *boost)).collect();
        let position = schema.add_u64_field("position", FAST);
        let index = Index::create_in_ram(schema.build());
        let mut writer = index.writer_with_num_threads(1, 64_000_000)?;
        let maker_names: std::collections::HashMap<&str, &str> =
            catalog.manufacturers.iter().map(|m| (m.id.as_str(), m.name.as_str())).collect();
        let calibers: std::collections::HashMap<&str, String> = catalog
            .calibers
            .iter()
            .map(|c| {
                let mut names = vec![c.name.clone()];
                names.extend(c.nato_designation.clone());
                names.extend(c.aliases.clone().unwrap_or_default());
                (c.id.as_str(), names.join(" | "))
            })
            .collect();
        for (i, firearm) in catalog.firearms.iter().enumerate() {
            let texts = [
                firearm.name.clone(),
                firearm.alternate_names.clone().unwrap_or_default().join(" | "),
                maker_names.get(firearm.manufacturer_id.as_str()).map(|n| n.to_string()).unwrap_or_default(),
                firearm
                    .calibers
                    .iter()
                    .filter_map(|c| calibers.get(c.caliber_id.as_str()).cloned())
                    .collect::<Vec<_>>()
                    .join(" | "),
                firearm.designer.clone().unwrap_or_default(),
                firearm.description.clone().unwrap_or_default(),
            ];
            let mut doc = TantivyDocument::default();
            for ((field, _), text) in fields.iter().zip(texts) {
                doc.add_text(*field, index_terms(&text).join(" "));
            }
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
        Ok(Self { reader, fields, positions })
    }

    /// Hits `offset..offset + limit` of `query`, best first.
    pub fn search(&self, query: &str, offset: usize, limit: usize) -> tantivy::Result<Hits> {
        let Some(query) = self.query(query) else { return Ok(Hits { positions: vec![], total: 0 }) };
        let searcher = self.reader.searcher();
        let top = TopDocs::with_limit(limit.max(1)).and_offset(offset).order_by_score();
        let (hits, total) = searcher.search(&query, &(top, Count))?;
        let positions = hits
            .into_iter()
            .filter_map(|(_, address)| {
                self.positions.get(address.segment_ord as usize)?.first(address.doc_id)
            })
            .map(|p| p as usize)
            .take(limit)
            .collect();
        Ok(Hits { positions, total })
    }

    fn query(&self, text: &str) -> Option<Box<dyn Query>> {
        let terms = index_terms(text);
        if terms.is_empty() {
            return None;
        }
        let searcher = self.reader.searcher();
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        for term in &terms {
            for (i, (field, boost)) in self.fields.iter().enumerate() {
                let exact = Term::from_field_text(*field, term);
                // A name word the index knows is spelled right: only an unknown one may be a typo
                // (this also keeps common words from expanding into costly fuzzy unions).
                let typo = i == 0
                    && term.chars().count() >= FUZZY_MIN_LEN
                    && searcher.doc_freq(&exact).map_or(true, |n| n == 0);
                if typo {
                    let fuzzy = FuzzyTermQuery::new(exact.clone(), 1, true);
                    clauses.push((Occur::Should, Box::new(BoostQuery::new(Box::new(fuzzy), boost / 2.0))));
                }
                let exact = TermQuery::new(exact, IndexRecordOption::WithFreqs);
                clauses.push((Occur::Should, Box::new(BoostQuery::new(Box::new(exact), *boost))));
            }
        }
        Some(Box::new(BooleanQuery::new(clauses)))
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
}
