//! A search index patched in place when a few firearms' indexed texts change (a rename, a maker
//! or cartridge renamed), so a patched snapshot does not index 100,000 firearms again (about
//! 2.5 s on one core) for one new name.
//!
//! The built index keeps its segments. The documents of every firearm re-indexed since the build
//! are deleted from them and held, with their current texts, in one small patch segment, written
//! again whole at each patch (so there is never more than one). Deleted documents still count in
//! tantivy's statistics (a term's document frequency, a field's token count, the document count),
//! so a patched index scores through `Statistics`, which takes away what the deleted documents
//! added: their texts as the build indexed them are tokenized again by the field's own analyzer
//! (`Removed`). Every document then scores as in a fresh build of the same catalog (a page's
//! scores are summed clause by clause, `SearchIndex::scored`, so not even the order of a float
//! sum differs), and every page is a fresh build's: `SearchIndex::best` scores the patch segment
//! in full and offers its documents as the pruned walk of the built segments passes their
//! positions. A patch that would hold more than `MAX_PATCHED` firearms, or any other change (a
//! firearm created or deleted moves every position after it), builds whole.

use std::collections::{BTreeSet, HashMap};
use std::sync::Mutex;

use tantivy::indexer::NoMergePolicy;
use tantivy::query::Bm25StatisticsProvider;
use tantivy::schema::Field;
use tantivy::tokenizer::{TextAnalyzer, TokenStream};
use tantivy::{Index, IndexWriter, Searcher, Term};

use super::{DocumentTexts, FieldTexts, SearchIndex, document};
use crate::catalog::model::Catalog;

/// At most this many firearms re-indexed since the build; a patch past it builds the index whole.
/// The patch segment is scored in full by every search that matches it, so it stays small.
pub const MAX_PATCHED: usize = 512;

/// How a changed catalog's search index follows from the previous one.
pub enum SearchChange {
    /// Every indexed text is as it was: the index is kept as it is.
    Same,
    /// Only these firearms' texts changed (same positions): the index is patched.
    Documents(ChangedDocuments),
    /// Firearms were created or deleted: the index is built.
    Rebuild,
}

/// Firearms whose indexed texts changed, by position, with their texts as the old catalog had
/// them (what the index holds for the ones it has not re-indexed yet).
pub struct ChangedDocuments {
    pub positions: Vec<usize>,
    old_texts: Vec<FieldTexts>,
}

/// What the index of `old` lacks to index `new`, when only the records `changed` names (by
/// table) differ between the two.
pub fn change<'a>(
    old: &Catalog,
    new: &Catalog,
    changed: impl Fn(&str) -> &'a BTreeSet<String>,
) -> SearchChange {
    if !old.same_firearm_positions(new, changed("firearms")) {
        return SearchChange::Rebuild;
    }
    let find = |id: &str| old.firearms.position(id).ok();
    let mut candidates: BTreeSet<usize> = changed("firearms").iter().filter_map(|id| find(id)).collect();
    let (before, after) = (DocumentTexts::new(old), DocumentTexts::new(new));
    let renamed_makers: BTreeSet<&str> = changed("manufacturers")
        .iter()
        .filter(|id| before.maker_names.get(id.as_str()) != after.maker_names.get(id.as_str()))
        .map(String::as_str)
        .collect();
    let renamed_calibers: BTreeSet<&str> = changed("calibers")
        .iter()
        .filter(|id| before.calibers.get(id.as_str()) != after.calibers.get(id.as_str()))
        .map(String::as_str)
        .collect();
    if !renamed_makers.is_empty() || !renamed_calibers.is_empty() {
        for (position, firearm) in new.firearms.iter().enumerate() {
            if renamed_makers.contains(firearm.manufacturer_id.as_str())
                || firearm.calibers.iter().any(|c| renamed_calibers.contains(c.caliber_id.as_str()))
            {
                candidates.insert(position);
            }
        }
    }
    let mut documents = ChangedDocuments { positions: Vec::new(), old_texts: Vec::new() };
    for position in candidates {
        let old_texts = before.document(&old.firearms.get(position));
        if old_texts != after.document(&new.firearms.get(position)) {
            documents.positions.push(position);
            documents.old_texts.push(old_texts);
        }
    }
    if documents.positions.is_empty() { SearchChange::Same } else { SearchChange::Documents(documents) }
}

/// The firearms re-indexed since the build and what their deleted documents added to the
/// statistics. Persisted with the index.
#[derive(Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct Patch {
    /// Positions whose documents are in the patch segment, ascending.
    positions: BTreeSet<usize>,
    /// The patch segment's id (`SegmentId::uuid_string`).
    segment: Option<String>,
    removed: Removed,
}

impl Patch {
    pub fn segment(&self) -> Option<&str> {
        self.segment.as_deref()
    }
}

/// What the documents deleted from the built segments add to tantivy's statistics.
#[derive(Clone, Default, serde::Serialize, serde::Deserialize)]
struct Removed {
    documents: u64,
    /// Field id → tokens.
    tokens: HashMap<u32, u64>,
    /// Field id → term → documents holding it (by field first, so a lookup borrows the term).
    documents_with: HashMap<u32, HashMap<String, u64>>,
}

impl Removed {
    /// Account for one deleted document's texts, tokenized as the index tokenized them.
    fn add(&mut self, analyzers: &mut [(Field, TextAnalyzer)], texts: &FieldTexts) {
        self.documents += 1;
        for ((field, analyzer), text) in analyzers.iter_mut().zip(texts.iter()) {
            let mut terms = BTreeSet::new();
            let mut stream = analyzer.token_stream(text);
            let mut tokens = 0;
            while stream.advance() {
                tokens += 1;
                terms.insert(stream.token().text.clone());
            }
            *self.tokens.entry(field.field_id()).or_default() += tokens;
            let documents_with = self.documents_with.entry(field.field_id()).or_default();
            for term in terms {
                *documents_with.entry(term).or_default() += 1;
            }
        }
    }
}

/// The BM25 statistics of the live documents: the searcher's, less what deleted ones add.
///
/// A search asks each word's document count several times (to build the query, then for each
/// weight built from it), and searches ask the same words again: each count is looked up in the
/// segments' term dictionaries once per index and remembered (`Counted`).
pub struct Statistics<'a> {
    pub searcher: &'a Searcher,
    pub patch: &'a Patch,
    pub counted: &'a Counted,
}

/// Words' document counts already looked up in one index (its segments never change).
#[derive(Default)]
pub struct Counted(Mutex<HashMap<Term, u64>>);

/// Counts remembered per index; past that many they are forgotten and counted again.
const COUNTED_WORDS: usize = 65_536;

impl Counted {
    fn get(&self, term: &Term) -> Option<u64> {
        self.0.lock().expect("never poisoned").get(term).copied()
    }

    fn keep(&self, term: &Term, count: u64) {
        let mut counted = self.0.lock().expect("never poisoned");
        if counted.len() >= COUNTED_WORDS {
            counted.clear();
        }
        counted.insert(term.clone(), count);
    }
}

impl Bm25StatisticsProvider for Statistics<'_> {
    fn total_num_tokens(&self, field: Field) -> tantivy::Result<u64> {
        let removed = self.patch.removed.tokens.get(&field.field_id()).copied().unwrap_or(0);
        Ok(Bm25StatisticsProvider::total_num_tokens(self.searcher, field)? - removed)
    }

    fn total_num_docs(&self) -> tantivy::Result<u64> {
        Ok(Bm25StatisticsProvider::total_num_docs(self.searcher)? - self.patch.removed.documents)
    }

    fn doc_freq(&self, term: &Term) -> tantivy::Result<u64> {
        if let Some(count) = self.counted.get(term) {
            return Ok(count);
        }
        let removed = term
            .value()
            .as_str()
            .and_then(|text| self.patch.removed.documents_with.get(&term.field().field_id())?.get(text))
            .copied()
            .unwrap_or(0);
        let count = self.searcher.doc_freq(term)? - removed;
        self.counted.keep(term, count);
        Ok(count)
    }
}

impl SearchIndex {
    /// How many firearms were re-indexed into the patch segment since the index was built.
    pub fn patched_firearms(&self) -> usize {
        self.patch.positions.len()
    }

    /// This index with `changed`'s firearms indexed again from `catalog`, or None when the
    /// patch would grow past `MAX_PATCHED` firearms (the caller builds then). The index is
    /// patched in a copy of its files: the snapshot serving it goes on reading the original.
    pub fn patched(&self, catalog: &Catalog, changed: &ChangedDocuments) -> tantivy::Result<Option<Self>> {
        let mut positions = self.patch.positions.clone();
        positions.extend(changed.positions.iter().copied());
        if positions.len() > MAX_PATCHED || positions.len() * 4 > catalog.firearms.len() {
            return Ok(None);
        }
        let directory = copy_of(self.files()?)?;
        let index = Index::open(directory.clone())?;
        let text_fields = self.text_fields();
        let mut analyzers = text_fields
            .iter()
            .map(|&field| Ok((field, index.tokenizer_for_field(field)?)))
            .collect::<tantivy::Result<Vec<_>>>()?;
        let mut removed = self.patch.removed.clone();
        for (position, old_texts) in changed.positions.iter().zip(&changed.old_texts) {
            // A firearm already re-indexed has its built document deleted and counted.
            if !self.patch.positions.contains(position) {
                removed.add(&mut analyzers, old_texts);
            }
        }

        let mut writer: IndexWriter = index.writer_with_num_threads(1, 15_000_000)?;
        writer.set_merge_policy(Box::new(NoMergePolicy));
        // Every patched document goes, from the built segments and the old patch segment (which
        // then holds none and is dropped), and comes back in one new patch segment.
        for &position in &positions {
            writer.delete_term(Term::from_field_u64(self.position, position as u64));
        }
        let texts_of = DocumentTexts::new(catalog);
        for &position in &positions {
            let texts = texts_of.document(&catalog.firearms.get(position));
            writer.add_document(document(&text_fields, self.position, &texts, position))?;
        }
        writer.commit()?;
        writer.wait_merging_threads()?;

        let before: BTreeSet<String> =
            self.searcher.segment_readers().iter().map(|s| s.segment_id().uuid_string()).collect();
        let searcher = index.reader()?.searcher();
        let added: Vec<&tantivy::SegmentReader> = searcher
            .segment_readers()
            .iter()
            .filter(|s| !before.contains(&s.segment_id().uuid_string()))
            .collect();
        let deleted: u64 =
            searcher.segment_readers().iter().map(|s| u64::from(s.max_doc() - s.num_docs())).sum();
        // The statistics are exact only when every deleted document is one `removed` counts and the
        // new segment holds the patched ones alone; otherwise build.
        let [segment] = added.as_slice() else { return Ok(None) };
        if deleted != removed.documents || segment.num_docs() as usize != positions.len() {
            return Ok(None);
        }
        let patch = Patch { positions, segment: Some(segment.segment_id().uuid_string()), removed };
        Self::over(&index, directory, patch).map(Some)
    }
}

/// A RAM directory holding `files`.
pub(super) fn copy_of(
    files: impl IntoIterator<Item = (String, impl AsRef<[u8]>)>,
) -> tantivy::Result<tantivy::directory::RamDirectory> {
    use tantivy::directory::Directory as _;
    let directory = tantivy::directory::RamDirectory::create();
    for (path, bytes) in files {
        directory.atomic_write(std::path::Path::new(&path), bytes.as_ref())?;
    }
    Ok(directory)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::search::IndexFile;

    /// The tables' changed ids, as the change log gives them.
    fn changed(ids: &[(&str, &str)]) -> HashMap<String, BTreeSet<String>> {
        let mut tables: HashMap<String, BTreeSet<String>> = HashMap::new();
        for (table, id) in ids {
            tables.entry((*table).to_owned()).or_default().insert((*id).to_owned());
        }
        tables
    }

    fn change_of(old: &Catalog, new: &Catalog, ids: &[(&str, &str)]) -> SearchChange {
        let tables = changed(ids);
        let none = BTreeSet::new();
        change(old, new, |table| tables.get(table).unwrap_or(&none))
    }

    fn positions_of(change: SearchChange) -> Option<Vec<usize>> {
        match change {
            SearchChange::Same => Some(Vec::new()),
            SearchChange::Documents(documents) => Some(documents.positions),
            SearchChange::Rebuild => None,
        }
    }

    #[test]
    fn figures_keep_the_index_texts_patch_it_and_positions_rebuild_it() {
        let old = crate::catalog::synth::synthesize(50, 1);
        let first = old.firearms.as_typed()[0].id.clone();
        let maker = old.firearms.as_typed()[0].manufacturer_id.clone();

        let mut figures = old.clone();
        std::sync::Arc::make_mut(&mut figures.firearms.typed_mut()[0]).weight_empty_g = Some(1.0);
        figures.manufacturers.iter_mut().find(|m| m.id == maker).unwrap().founded_year = Some(1900);
        let ids = [("firearms", first.as_str()), ("manufacturers", maker.as_str())];
        assert_eq!(positions_of(change_of(&old, &figures, &ids)), Some(vec![]));

        let mut renamed = old.clone();
        std::sync::Arc::make_mut(&mut renamed.firearms.typed_mut()[0]).name = "Another Name".into();
        assert_eq!(positions_of(change_of(&old, &renamed, &[("firearms", &first)])), Some(vec![0]));

        let mut maker_renamed = old.clone();
        maker_renamed.manufacturers.iter_mut().find(|m| m.id == maker).unwrap().name = "Other Works".into();
        let made: Vec<usize> = (0..old.firearms.len())
            .filter(|&i| old.firearms.as_typed()[i].manufacturer_id == maker)
            .collect();
        assert_eq!(positions_of(change_of(&old, &maker_renamed, &[("manufacturers", &maker)])), Some(made));

        let mut fewer = old.clone();
        fewer.firearms.typed_mut().remove(0);
        assert_eq!(positions_of(change_of(&old, &fewer, &[("firearms", &first)])), None);
    }

    /// `index` answers every query as `fresh` does: the whole ranking (positions, and scores to
    /// a millionth), pages and totals.
    fn assert_same_answers(index: &SearchIndex, fresh: &SearchIndex, queries: &[String]) {
        for query in queries {
            for (offset, limit) in [(0, 100_000), (0, 20), (20, 20), (100, 7)] {
                let (got, want) = (
                    index.search(query, offset, limit).unwrap(),
                    fresh.search(query, offset, limit).unwrap(),
                );
                assert_eq!(got.total, want.total, "{query} {offset}");
                assert_eq!(got.positions, want.positions, "{query} {offset}");
                // Equal to a millionth, as the search ranks them: the patch segment is scored in
                // full, which adds a document's clause scores in another order than pruning does.
                for (got, want) in got.scores.iter().zip(&want.scores) {
                    assert!(
                        (got - want).abs() <= want.abs() * super::super::TIE,
                        "{query} {offset}: {got} {want}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_patched_index_answers_as_a_fresh_build_of_the_same_catalog() {
        let old = crate::catalog::synth::synthesize(3_000, 7);
        let index = SearchIndex::build(&old).unwrap();

        // A firearm renamed, another given alternate names, a maker renamed (every firearm it
        // makes is indexed again).
        let mut new = old.clone();
        std::sync::Arc::make_mut(&mut new.firearms.typed_mut()[10]).name =
            "Kalashnikov Patchwork Carbine".into();
        std::sync::Arc::make_mut(&mut new.firearms.typed_mut()[2_500]).alternate_names =
            Some(vec!["Beretta Patch".into(), "AK-47".into()]);
        let maker = new.firearms.as_typed()[40].manufacturer_id.clone();
        new.manufacturers.iter_mut().find(|m| m.id == maker).unwrap().name = "Patchwork Rifle Company".into();
        let ids = [
            ("firearms", old.firearms.as_typed()[10].id.as_str()),
            ("firearms", old.firearms.as_typed()[2_500].id.as_str()),
            ("manufacturers", maker.as_str()),
        ];
        let SearchChange::Documents(documents) = change_of(&old, &new, &ids) else { panic!("texts changed") };
        let patched = index.patched(&new, &documents).unwrap().expect("a small patch");
        let fresh = SearchIndex::build(&new).unwrap();
        let mut queries: Vec<String> = [
            "kalashnikov patchwork carbine",
            "patchwork",
            "kalashnikof",
            "berreta",
            "ak47",
            "synthetic",
            "rifle company",
            "rifle 012",
            "qqqqq zzzzz",
        ]
        .iter()
        .map(|q| (*q).to_owned())
        .collect();
        queries.extend(
            [
                &old.firearms.as_typed()[10].name,
                &new.firearms.as_typed()[11].name,
                &old.firearms.as_typed()[2_500].name,
            ]
            .map(|n| n.clone()),
        );
        assert_same_answers(&patched, &fresh, &queries);

        // A second patch renames the first firearm back and another one: the patch segment is
        // written again whole, and the answers still equal a fresh build's.
        let mut newer = new.clone();
        std::sync::Arc::make_mut(&mut newer.firearms.typed_mut()[10]).name =
            old.firearms.as_typed()[10].name.clone();
        std::sync::Arc::make_mut(&mut newer.firearms.typed_mut()[700]).name =
            "Patchwork Marksman Rifle".into();
        let ids = [
            ("firearms", old.firearms.as_typed()[10].id.as_str()),
            ("firearms", old.firearms.as_typed()[700].id.as_str()),
        ];
        let SearchChange::Documents(documents) = change_of(&new, &newer, &ids) else {
            panic!("texts changed")
        };
        let twice = patched.patched(&newer, &documents).unwrap().expect("a small patch");
        assert_eq!(twice.searcher.segment_readers().len(), 2, "the built segment and one patch segment");
        let fresh = SearchIndex::build(&newer).unwrap();
        queries.push("patchwork marksman".to_owned());
        assert_same_answers(&twice, &fresh, &queries);

        // Persisted and read back, it answers the same.
        let files =
            twice.files().unwrap().into_iter().map(|(path, bytes)| IndexFile { path, bytes: bytes.to_vec() });
        let restored = SearchIndex::from_files(files.collect(), twice.patch.clone()).unwrap();
        assert_same_answers(&restored, &fresh, &queries);
    }

    #[test]
    fn a_patch_past_its_limit_builds_instead() {
        let old = crate::catalog::synth::synthesize(200, 2);
        let index = SearchIndex::build(&old).unwrap();
        let mut new = old.clone();
        let mut ids = Vec::new();
        for firearm in new.firearms.typed_mut().iter_mut().take(60) {
            let firearm = std::sync::Arc::make_mut(firearm);
            firearm.name = format!("{} Renamed", firearm.name);
            ids.push(("firearms", firearm.id.clone()));
        }
        let ids: Vec<(&str, &str)> = ids.iter().map(|(t, id)| (*t, id.as_str())).collect();
        let SearchChange::Documents(documents) = change_of(&old, &new, &ids) else { panic!("texts changed") };
        assert!(index.patched(&new, &documents).unwrap().is_none(), "60 of 200 is past a quarter");
    }
}
