//! Full-text search over the firearms of one snapshot (tantivy, in RAM).
//!
//! Names are not prose, so the text is tokenized here rather than by a stemmer: lower-cased
//! alphanumeric runs, plus each pair of neighbouring tokens joined ("AK-47" indexes `ak`, `47` and
//! `ak47`; "M1 Garand" indexes `m1garand`), so a query written with or without punctuation or
//! spaces meets the same terms. Fields are weighted: name 4, alternate names 3, manufacturer 2,
//! cartridge names and aliases 1.5, designer 1.5, description 0.5; tantivy's BM25 ranks within them.
//!
//! Typos: a query word of 4 to 7 letters that the name, alternate-name or manufacturer field does
//! not hold as spelled matches one of their words at one edit, a longer one at two (`kalashnikof`
//! finds Kalashnikov); and a doubled letter written once or a single one doubled matches too
//! (`berreta` finds Beretta, two plain edits away). Both go through one `spellings` field: the
//! words of those three fields that hold a letter (no joined pairs, no bare numbers), each as
//! written and with runs of a letter squashed to one, so the fuzzy automaton walks a small
//! dictionary even at 100,000 firearms. Typo matches weigh half of a name match, so an exact match
//! ranks first. A word the index knows is never expanded, so common words cost no fuzzy union.
//!
//! Cost: the page comes from top-k collection (block-max WAND when every clause is a plain term;
//! our own collector, `best`, so ties do not defeat the pruning), ranked without the faint clauses
//! of words nearly every document holds when the rest fills the page (`faint`),
//! the total from a separate unscored count, or straight from the index when one clause alone
//! matches every firearm (a full-name search of the synthetic catalog, where every name shares a
//! word). A query of rare and common words takes every document of its rare words and the
//! common words' best, kept per index for the next query that shares them (`split`).
//!
//! Change: a patched snapshot keeps the index, or patches a few firearms' documents in (`patch`)
//! and scores exactly as a fresh build would.

mod patch;
mod scoring;
mod split;

pub use patch::{SearchChange, change};

use tantivy::collector::Count;
use tantivy::columnar::Column;
use tantivy::directory::{Directory as _, RamDirectory};
use tantivy::indexer::NoMergePolicy;
use tantivy::query::{
    Bm25StatisticsProvider, BooleanQuery, BoostQuery, EnableScoring, FuzzyTermQuery, Occur, Query, TermQuery,
};
use tantivy::schema::{FAST, Field, INDEXED, Schema, TEXT};
use tantivy::{Index, IndexWriter, Searcher, TantivyDocument, Term};

use std::collections::{BinaryHeap, HashMap};
use std::sync::Arc;

use self::patch::{Counted, Patch, Statistics};
use crate::catalog::model::{Catalog, Firearm};

/// What the index writer may hold before it writes a segment: tantivy's least (its private
/// `MEMORY_BUDGET_NUM_BYTES_MIN`), as the patch writer uses. A build writes
/// several segments and merges them into one (`merge_in_catalog_order`); with 64 MB the writer
/// held about as much beside the forms being rendered, the peak of a node building 100,000
/// firearms, and one segment came out of it.
const WRITER_BUDGET: usize = 15_000_000;

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
/// The lettered words of the typo fields, as written and squashed ("beretta bereta"), and the
/// weight of a typo match there.
const SPELLINGS: (&str, f32) = ("spellings", 2.0);
/// The firearm position of a document.
const POSITION: &str = "position";

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
    /// The index as committed once: no reader reloads or merges can change its segments under
    /// `positions`.
    searcher: Searcher,
    /// Where the index's files are held (`files` reads them as written).
    directory: RamDirectory,
    fields: Vec<(Field, f32)>,
    spellings: Field,
    /// Each document's firearm position (a fast field, and indexed so a patch can delete it).
    position: Field,
    /// Per segment, the firearm position of each document.
    positions: Vec<Column<u64>>,
    /// The built segments' ordinals in catalog order: each holds a run of firearms in the order
    /// they were added (one indexing thread, no merges), so visiting segments in this order visits
    /// documents by catalog position.
    in_catalog_order: Vec<usize>,
    /// The patch segment's ordinal, if the index was patched (`patch`).
    patch_segment: Option<usize>,
    patch: Patch,
    /// The common words' rankings computed on this index (`split`).
    rankings: split::Rankings,
    /// Words' document counts looked up in this index (`patch::Statistics`).
    counted: Counted,
    /// Each segment's readers of the text fields (`scoring`).
    segment_fields: Vec<scoring::SegmentFields>,
    /// The query words looked up in this index (`scoring`).
    words: scoring::Words,
}

/// A search index persisted as its files (`#[serde(with = "search::persisted")]`).
pub mod persisted {
    use std::sync::Arc;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::{IndexFile, SearchIndex};

    pub fn serialize<S: Serializer>(index: &SearchIndex, serializer: S) -> Result<S::Ok, S::Error> {
        let files = index.files().map_err(serde::ser::Error::custom)?;
        let files: Vec<HeldFile> =
            files.iter().map(|(path, bytes)| HeldFile { path, bytes: bytes.as_slice() }).collect();
        (files, &index.patch).serialize(serializer)
    }

    /// An `IndexFile` as written: its bytes read where the index holds them, not copied (about
    /// 10 MB at 100,000 firearms, which a node kept resident after persisting its snapshot).
    #[derive(Serialize)]
    struct HeldFile<'a> {
        path: &'a str,
        #[serde(with = "serde_bytes")]
        bytes: &'a [u8],
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Arc<SearchIndex>, D::Error> {
        let (files, patch) = <(Vec<IndexFile>, super::Patch)>::deserialize(deserializer)?;
        let index = SearchIndex::from_files(files, patch).map_err(serde::de::Error::custom)?;
        Ok(Arc::new(index))
    }
}

/// One file of a persisted search index.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct IndexFile {
    pub path: String,
    #[serde(with = "serde_bytes")]
    pub bytes: Vec<u8>,
}

/// One page of hits: firearm positions, best first, and how many matched in all.
pub struct Hits {
    pub positions: Vec<usize>,
    /// The relevance of each hit, as ranked (summed clause by clause, `SearchIndex::scored`).
    pub scores: Vec<f32>,
    pub total: usize,
}

/// A built query: its clauses, and the most documents any one of its exact clauses matches.
struct Built {
    clauses: Vec<Clause>,
    widest_clause: u64,
}

/// One clause of a built query (a word in one field, or a word's typo expansion).
struct Clause {
    matcher: Matcher,
    /// It adds at most `FAINT` to a score (see `faint`).
    faint: bool,
    /// A plain word that few documents hold: every one of them is a candidate (`split`).
    rare: bool,
    /// What it asks: the field (or the kind of typo match), the word and the weight, to key the
    /// rankings `split` keeps.
    asks: (&'static str, String, f32),
}

/// What a clause matches.
enum Matcher {
    /// A plain word in one field, as the index knows it (`scoring`).
    Word(Arc<scoring::WordScoring>),
    /// A word's typo expansion: its weight holds a Levenshtein automaton (a kilobyte a state),
    /// which is made for the search and not kept.
    Typo(FuzzyTermQuery),
}

impl Clause {
    /// The clause as a tantivy query, weighted.
    fn query(&self) -> Box<dyn Query> {
        let matcher: Box<dyn Query> = match &self.matcher {
            Matcher::Word(word) => Box::new(TermQuery::new(word.term.clone(), word.record)),
            Matcher::Typo(fuzzy) => Box::new(fuzzy.clone()),
        };
        Box::new(BoostQuery::new(matcher, self.asks.2))
    }
}

/// The query of `clauses`, in their order (which is the order scores are summed in, `scored`).
fn boolean(clauses: &[&Clause]) -> BooleanQuery {
    BooleanQuery::new(clauses.iter().map(|clause| (Occur::Should, clause.query())).collect())
}

/// What a firearm's document indexes, field by field: the `FIELDS` in order, then the spellings.
type FieldTexts = [String; 7];

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

    /// The texts `firearm`'s document indexes: each field's terms (`index_terms`), and the
    /// spellings (each lettered word of the typo fields, as written and squashed).
    fn document(&self, firearm: &Firearm) -> FieldTexts {
        let texts = self.of(firearm);
        let mut words: Vec<String> = texts[..TYPO_FIELDS]
            .iter()
            .flat_map(|text| tokens(text))
            .filter(|t| t.chars().any(char::is_alphabetic))
            .flat_map(|t| [squash(&t), t])
            .collect();
        words.sort_unstable();
        words.dedup();
        let [name, alternate_names, maker, calibers, designer, description] =
            texts.map(|text| index_terms(&text).join(" "));
        [name, alternate_names, maker, calibers, designer, description, words.join(" ")]
    }
}

impl SearchIndex {
    pub fn build(catalog: &Catalog) -> tantivy::Result<Self> {
        let mut schema = Schema::builder();
        let fields: Vec<(Field, f32)> =
            FIELDS.iter().map(|(name, boost)| (schema.add_text_field(name, TEXT), *boost)).collect();
        let spellings = schema.add_text_field(SPELLINGS.0, TEXT);
        let position_field = schema.add_u64_field(POSITION, FAST | INDEXED);
        let directory = RamDirectory::create();
        let index = Index::create(directory.clone(), schema.build(), tantivy::IndexSettings::default())?;
        let mut writer: IndexWriter = index.writer_with_num_threads(1, WRITER_BUDGET)?;
        writer.set_merge_policy(Box::new(NoMergePolicy));
        let text_fields: Vec<Field> = fields.iter().map(|(field, _)| *field).chain([spellings]).collect();
        let texts_of = DocumentTexts::new(catalog);
        for (position, firearm) in catalog.firearms.iter().enumerate() {
            let texts = texts_of.document(&firearm);
            writer.add_document(document(&text_fields, position_field, &texts, position))?;
        }
        writer.commit()?;
        merge_in_catalog_order(&index, &mut writer)?;
        writer.wait_merging_threads()?;
        Self::over(&index, directory, Patch::default())
    }

    /// The text fields, in the order of `FieldTexts`.
    fn text_fields(&self) -> Vec<Field> {
        self.fields.iter().map(|(field, _)| *field).chain([self.spellings]).collect()
    }

    /// The search side of a committed index: its fields by name, a searcher, and each
    /// document's firearm position.
    fn over(index: &Index, directory: RamDirectory, patch: Patch) -> tantivy::Result<Self> {
        let schema = index.schema();
        let fields = FIELDS
            .iter()
            .map(|(name, boost)| Ok((schema.get_field(name)?, *boost)))
            .collect::<tantivy::Result<Vec<_>>>()?;
        let spellings = schema.get_field(SPELLINGS.0)?;
        let position = schema.get_field(POSITION)?;
        let searcher = index.reader()?.searcher();
        let positions = searcher
            .segment_readers()
            .iter()
            .map(|segment| segment.fast_fields().u64(POSITION))
            .collect::<tantivy::Result<Vec<_>>>()?;
        let patch_segment = searcher
            .segment_readers()
            .iter()
            .position(|segment| Some(segment.segment_id().uuid_string().as_str()) == patch.segment());
        let mut in_catalog_order: Vec<usize> =
            (0..positions.len()).filter(|segment| Some(*segment) != patch_segment).collect();
        in_catalog_order.sort_by_key(|&segment| positions[segment].first(0));
        let text_fields: Vec<Field> = fields.iter().map(|(field, _)| *field).chain([spellings]).collect();
        let segment_fields = scoring::SegmentFields::open(&searcher, &text_fields)?;
        Ok(Self {
            searcher,
            directory,
            fields,
            spellings,
            position,
            positions,
            in_catalog_order,
            patch_segment,
            patch,
            rankings: split::Rankings::default(),
            counted: Counted::default(),
            segment_fields,
            words: scoring::Words::default(),
        })
    }

    /// BM25 statistics of the live documents (see `patch`).
    fn statistics(&self) -> Statistics<'_> {
        Statistics { searcher: &self.searcher, patch: &self.patch, counted: &self.counted }
    }

    /// The index's files (its segments and meta), to persist with the snapshot.
    pub fn files(&self) -> tantivy::Result<Vec<(String, tantivy::directory::OwnedBytes)>> {
        let managed = self.searcher.index().directory();
        let mut paths: Vec<std::path::PathBuf> = managed.list_managed_files().into_iter().collect();
        // The list of managed files too, so an index opened from these files (a patched copy,
        // `patch`) knows them as its own and its writer's garbage collection keeps to them.
        paths.extend(["meta.json", ".managed.json"].map(std::path::PathBuf::from));
        paths.sort();
        paths.dedup();
        paths
            .into_iter()
            .filter(|path| self.directory.exists(path).unwrap_or(false))
            .map(|path| {
                // From the RAM directory itself: the index's managed directory reads a file
                // without its footer, and a file written without one (meta.json) not at all.
                let bytes = self
                    .directory
                    .open_read(&path)
                    .map_err(|e| tantivy::TantivyError::InternalError(e.to_string()))?
                    .read_bytes()?;
                Ok((path.to_string_lossy().into_owned(), bytes))
            })
            .collect()
    }

    /// The index `files` wrote, back in RAM, with its patch.
    pub fn from_files(files: Vec<IndexFile>, patch: Patch) -> tantivy::Result<Self> {
        let directory = patch::copy_of(files.into_iter().map(|file| (file.path, file.bytes)))?;
        Self::over(&Index::open(directory.clone())?, directory, patch)
    }

    /// Hits `offset..offset + limit` of `query`, best first, and the total.
    pub fn search(&self, query: &str, offset: usize, limit: usize) -> tantivy::Result<Hits> {
        let searcher = &self.searcher;
        let statistics = self.statistics();
        let Some(built) = self.query(&statistics, query)? else {
            return Ok(Hits { positions: vec![], scores: vec![], total: 0 });
        };
        let wanted = offset + limit.max(1);
        let all: Vec<&Clause> = built.clauses.iter().collect();
        let (mut hits, counted) = if all.iter().all(|clause| clause.rare) {
            // Rare words only: their few documents are every candidate and the whole count, found
            // once and scored under the whole query (no pruned walk, no weights built to count).
            let every = self.every_match(&statistics, &all)?;
            let total = every.len();
            (self.scored(&statistics, &all, every)?, Some(total))
        } else {
            // Faint clauses match (nearly) every document and add at most a ten-thousandth of a
            // point each: they are left out of the ranking when the rest of the query fills the
            // page alone, which spares the pruned walk a union over the whole catalog. The total
            // still counts them.
            let strong: Vec<&Clause> = all.iter().copied().filter(|clause| !clause.faint).collect();
            let ranked = if strong.is_empty() || strong.len() == all.len() {
                None
            } else {
                Some(self.top(&statistics, &strong, wanted)?).filter(|hits| hits.len() >= wanted)
            };
            let hits = match ranked {
                Some(hits) => hits,
                None => self.top(&statistics, &all, wanted)?,
            };
            (hits, None)
        };
        hits.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        let (scores, positions) = hits.into_iter().skip(offset).take(limit).unzip();
        // A union holds every document as soon as one of its clauses does.
        let total = match counted {
            Some(total) => total,
            None if built.widest_clause >= searcher.num_docs() => searcher.num_docs() as usize,
            None => searcher.search(&boolean(&all), &Count)?,
        };
        Ok(Hits { positions, scores, total })
    }

    /// The `k` best documents of `query`, in no order (the caller scores them again, ranks and
    /// cuts).
    ///
    /// Collected here rather than by `TopDocs` for ties. When thousands of documents share the
    /// k-th best score (a full-name search of a catalog whose names share their words), the
    /// upper bound block-max WAND computes for a block is that score give or take the last bits of
    /// a float sum, so `TopDocs`, which skips a block only when its bound is not above the
    /// threshold, scored nearly every document. Here the threshold sits a millionth above the k-th
    /// score: a document within that of it is a tie, and a tie never displaces the earlier
    /// document it ties with (documents arrive in catalog order), so the answer is the same.
    /// The patch segment's documents are scored first and offered in their catalog order as the
    /// walk passes their positions, so the threshold rises as it does in a fresh build.
    fn best(&self, statistics: &Statistics, query: &BooleanQuery, k: usize) -> tantivy::Result<Vec<Found>> {
        let searcher = &self.searcher;
        let weight = query.weight(EnableScoring::enabled_from_statistics_provider(statistics, searcher))?;
        let mut patched = Vec::new();
        if let Some(segment) = self.patch_segment {
            let positions = &self.positions[segment];
            weight.for_each(searcher.segment_reader(segment as u32), &mut |doc, score| {
                let found =
                    |position| (score, Found { segment: segment as u32, doc, position: position as usize });
                patched.extend(positions.first(doc).map(found));
            })?;
        }
        patched.sort_by_key(|(_, found)| std::cmp::Reverse(found.position));
        let mut top = TopK::new(k);
        for &segment in &self.in_catalog_order {
            let positions = &self.positions[segment];
            let reader = searcher.segment_reader(segment as u32);
            // A patched firearm's built document is deleted; pruning does not skip deleted ones.
            let alive = reader.alive_bitset();
            weight.for_each_pruning(top.threshold, reader, &mut |doc, score| {
                if alive.is_some_and(|alive| alive.is_deleted(doc)) {
                    return top.threshold;
                }
                let Some(position) = positions.first(doc) else { return top.threshold };
                let position = position as usize;
                while patched.last().is_some_and(|(_, earlier)| earlier.position < position) {
                    let (score, earlier) = patched.pop().expect("a patched document");
                    top.offer(score, earlier);
                }
                top.offer(score, Found { segment: segment as u32, doc, position })
            })?;
        }
        while let Some((score, found)) = patched.pop() {
            top.offer(score, found);
        }
        Ok(top.best.into_iter().map(|Worst(_, found)| found).collect())
    }

    /// Each found document's score under the query of `clauses` and its position. The score is
    /// summed clause by clause in their order (each clause's scoring kept, `scoring`), so a
    /// document scores the same to the bit whichever way it was found: the pruned walk and a full
    /// evaluation add clause scores in different orders, and a patched firearm's document sits in
    /// another segment than a fresh build puts it in.
    fn scored(
        &self,
        statistics: &Statistics,
        clauses: &[&Clause],
        mut found: Vec<Found>,
    ) -> tantivy::Result<Vec<(f32, usize)>> {
        let clauses = clauses
            .iter()
            .map(|clause| self.scoring(statistics, clause))
            .collect::<tantivy::Result<Vec<_>>>()?;
        found.sort_unstable_by_key(|f| (f.segment, f.doc));
        let mut scored = Vec::with_capacity(found.len());
        for documents in found.chunk_by(|a, b| a.segment == b.segment) {
            let mut scores = vec![0.0f32; documents.len()];
            for clause in &clauses {
                clause.add_scores(self, documents, &mut scores)?;
            }
            scored.extend(
                scores.into_iter().zip(documents).map(|(score, document)| (score, document.position)),
            );
        }
        Ok(scored)
    }

    fn query(&self, statistics: &Statistics, text: &str) -> tantivy::Result<Option<Built>> {
        let terms = index_terms(text);
        if terms.is_empty() {
            return Ok(None);
        }
        let mut clauses: Vec<Clause> = Vec::new();
        let documents = statistics.total_num_docs()?;
        let mut widest_clause = 0;
        for term in &terms {
            let known = self.known(statistics, term)?;
            let matching = |fields: &[Option<Arc<scoring::WordScoring>>]| {
                fields.iter().flatten().map(|word| word.documents).max().unwrap_or(0)
            };
            widest_clause = widest_clause.max(matching(known.in_fields()));
            // A word the name, alternate names or maker hold as spelled is no typo: only a word
            // none of them knows expands (this keeps common words from costly fuzzy unions).
            let edits = allowed_edits(term);
            let typo = edits > 0 && matching(&known.in_fields()[..TYPO_FIELDS]) == 0;
            // A field that never holds the word adds nothing but a clause for the union to visit.
            for (word, (field_name, boost)) in known.in_fields().iter().zip(FIELDS) {
                if let Some(word) = word {
                    clauses.push(Clause {
                        asks: (field_name, term.clone(), boost),
                        faint: faint(word.documents, documents, boost),
                        rare: split::rare(word.documents),
                        matcher: Matcher::Word(word.clone()),
                    });
                }
            }
            if typo {
                let weight = SPELLINGS.1 / 2.0;
                let written = Term::from_field_text(self.spellings, term);
                clauses.push(Clause {
                    asks: (if edits == 1 { "one edit" } else { "two edits" }, term.clone(), weight),
                    matcher: Matcher::Typo(FuzzyTermQuery::new(written, edits, true)),
                    faint: false,
                    rare: false,
                });
                let squashed = squash(term);
                if let Some(spelled) = self.known(statistics, &squashed)?.spelled() {
                    clauses.push(Clause {
                        asks: ("squashed", squashed, weight),
                        matcher: Matcher::Word(spelled.clone()),
                        faint: false,
                        rare: false,
                    });
                }
            }
        }
        if clauses.is_empty() {
            return Ok(None);
        }
        Ok(Some(Built { clauses, widest_clause }))
    }
}

/// A firearm's document: its `texts` in the `text_fields`, and its position.
fn document(
    text_fields: &[Field],
    position_field: Field,
    texts: &FieldTexts,
    position: usize,
) -> TantivyDocument {
    let mut doc = TantivyDocument::default();
    for (field, text) in text_fields.iter().zip(texts) {
        doc.add_text(*field, text);
    }
    doc.add_u64(position_field, position as u64);
    doc
}

/// The most a faint clause may add to a score (see `faint`).
const FAINT: f32 = 1e-4;

/// Whether a word that `matches` of `documents` hold in a field of weight `boost` can add at most
/// `FAINT` to a score: BM25's inverse document frequency of a word every document holds is
/// ln(1 + 0.5 / (N + 0.5)), and its term-frequency factor is below k1 + 1 = 2.2. Such a word says
/// nothing about which firearm is meant ("synthetic" in a catalog where every name holds it).
fn faint(matches: u64, documents: u64, boost: f32) -> bool {
    let (n, total) = (matches as f64, documents as f64);
    let idf = (1.0 + (total - n + 0.5) / (n + 0.5)).ln();
    (idf * 2.2 * f64::from(boost)) < f64::from(FAINT)
}

/// Scores this close, relative to their size, are one relevance when collecting (see `best`).
const TIE: f32 = 1e-6;

/// A document found by a search: its segment and document id, and its firearm position.
#[derive(Clone, Copy)]
struct Found {
    segment: u32,
    doc: tantivy::DocId,
    position: usize,
}

/// The `k` best documents offered, and the score a document must beat to join them.
struct TopK {
    best: BinaryHeap<Worst>,
    k: usize,
    threshold: f32,
}

impl TopK {
    fn new(k: usize) -> Self {
        Self { best: BinaryHeap::with_capacity(k + 1), k, threshold: f32::MIN }
    }

    /// Take `found` in if it beats the threshold; the new threshold.
    fn offer(&mut self, score: f32, found: Found) -> f32 {
        if score <= self.threshold {
            return self.threshold;
        }
        self.best.push(Worst(score, found));
        if self.best.len() > self.k {
            self.best.pop();
        }
        if self.best.len() == self.k
            && let Some(Worst(kth, _)) = self.best.peek()
        {
            self.threshold = kth + kth.abs() * TIE;
        }
        self.threshold
    }
}

/// A hit ordered worst first: the lower score, or at one score the later firearm.
struct Worst(f32, Found);

impl Ord for Worst {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other.0.total_cmp(&self.0).then(self.1.position.cmp(&other.1.position))
    }
}

impl PartialOrd for Worst {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Worst {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for Worst {}

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

/// The committed segments of `index` merged into one, in catalog order (a segment's documents
/// are a run of positions; the merge stacks them in the order given), and the old segments'
/// files dropped: one segment searches faster than several (a one-word search at 100,000
/// firearms is about 8% slower over four).
fn merge_in_catalog_order(index: &Index, writer: &mut IndexWriter) -> tantivy::Result<()> {
    let searcher = index.reader()?.searcher();
    let mut segments = searcher
        .segment_readers()
        .iter()
        .map(|segment| Ok((segment.fast_fields().u64(POSITION)?.first(0), segment.segment_id())))
        .collect::<tantivy::Result<Vec<_>>>()?;
    if segments.len() < 2 {
        return Ok(());
    }
    segments.sort_by_key(|(first, _)| *first);
    drop(searcher);
    let ids: Vec<_> = segments.into_iter().map(|(_, id)| id).collect();
    writer.merge(&ids).wait()?;
    writer.garbage_collect_files().wait()?;
    Ok(())
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
        let first = &catalog.firearms.as_typed()[0];
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
                // The same relevance at every rank; among equal scores the documents may differ,
                // but each hit is scored as the whole ranking scores it.
                let expected = &whole.scores[offset.min(end)..end];
                assert_eq!(page.scores.len(), expected.len(), "{query} {offset}");
                for (got, want) in page.scores.iter().zip(expected) {
                    assert!(
                        (got - want).abs() <= 1e-4 * want.abs().max(1.0),
                        "{query} {offset}: {got} vs {want}"
                    );
                }
                for (position, score) in page.positions.iter().zip(&page.scores) {
                    let at = whole.positions.iter().position(|p| p == position).expect("a hit of the whole");
                    assert!((whole.scores[at] - score).abs() <= 1e-4 * score.abs().max(1.0), "{query}");
                }
            }
        }
    }

    #[test]
    fn leaving_faint_words_out_of_the_ranking_changes_no_page() {
        // At 6,000 firearms "synthetic" in the descriptions is faint (weight 0.5); in the names
        // (weight 4) it is not yet.
        let catalog = crate::catalog::synth::synthesize(6_000, 3);
        let index = SearchIndex::build(&catalog).unwrap();
        let query = catalog.firearms.as_typed()[0].name.clone();
        let built = index.query(&index.statistics(), &query).unwrap().unwrap();
        let faint_clauses = built.clauses.iter().filter(|clause| clause.faint).count();
        assert!(
            faint_clauses > 0 && faint_clauses < built.clauses.len(),
            "the query has a faint clause and others: {query}"
        );
        let whole = index.search(&query, 0, catalog.firearms.len()).unwrap();
        assert_eq!(whole.total, brute_force_matches(&catalog, &query));
        for (offset, limit) in [(0, 20), (20, 20), (100, 50)] {
            let page = index.search(&query, offset, limit).unwrap();
            assert_eq!(page.total, whole.total);
            let expected = &whole.scores[offset..offset + limit];
            for (got, want) in page.scores.iter().zip(expected) {
                // A faint clause adds at most FAINT to a score.
                assert!((got - want).abs() <= 3.0 * FAINT + 1e-4 * want.abs(), "{offset}: {got} vs {want}");
            }
        }
    }

    #[test]
    fn only_a_word_nearly_every_firearm_holds_is_faint() {
        // Every one of 100,000 names: at most about 4e-5 of a point, even in the name (weight 4).
        assert!(faint(100_000, 100_000, 4.0));
        // Every one of 2,000: up to 2e-3, which can order two firearms, so it counts.
        assert!(!faint(2_000, 2_000, 4.0));
        // Half of 100,000: worth about 2.4 points in the name.
        assert!(!faint(50_000, 100_000, 4.0));
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
