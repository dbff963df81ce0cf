//! Each firearm's served forms, rendered when the snapshot is built: the list item, the flat full
//! record and the provenance, each compressed (`compact`), since together they were most of a
//! large catalog's memory (the list items alone about 25 MB raw at 100,000 firearms). Details are
//! assembled from them on request (`read::rendered::firearm_details`).
//!
//! Full records asked for are kept decompressed in a bounded cache (`SLOTS`): a tier list or a
//! Builder page nests the same few dozen records on every request, and decompressing and
//! validating each again would cost a tier list about a third of its rate at 100,000 firearms.
//! The cache holds text, not `RawValue`s: a page copies records into its body, and only a record
//! nested in a typed answer (`listed_raw`) is checked as JSON. Each kept record also keeps its
//! digest, which a page's ETag is hashed from instead of the record's text (`rendered::PageBody`).

use std::borrow::Cow;

use serde_json::value::RawValue;

use super::PageBody;
use super::kept_texts::{KeptText, KeptTexts};
use crate::compact::{Blocks, BlocksWriter, Compressed, Dictionary};
use crate::read::views::View;

/// One firearm's forms.
pub struct FirearmForms {
    /// The list item (summary field set), as JSON: about 250 bytes raw, 70 compressed, and a
    /// page decompresses twenty in a few microseconds.
    item: Compressed,
    /// The flat full record (every served scalar field), as JSON.
    full: Compressed,
    /// The provenance object, as JSON.
    provenance: Compressed,
}

impl FirearmForms {
    fn part(&self, part: usize) -> &Compressed {
        [&self.item, &self.full, &self.provenance][part]
    }
}

/// The forms of firearms in catalog order as a build writes them, straight into blocks: rendered
/// ones compressed as they come, kept ones copied from the snapshot a patch started from as they
/// are held there. Each half of a build writes its own, joined in order (`append`). Written
/// straight into blocks because a box per form until every firearm is rendered would be about
/// 140 MB of boxes for 50 MB of forms at 100,000 firearms, a building node's peak.
pub struct Writer<'a> {
    dictionary: &'a Dictionary,
    previous: Option<&'a Forms>,
    blocks: BlocksWriter,
}

impl<'a> Writer<'a> {
    /// For about `firearms` firearms, compressed against `dictionary`; `previous` holds the
    /// forms of kept firearms.
    pub fn new(dictionary: &'a Dictionary, previous: Option<&'a Forms>, firearms: usize) -> Self {
        Self { dictionary, previous, blocks: BlocksWriter::for_blocks(firearms * PARTS.len()) }
    }

    /// The next firearm's forms, rendered now.
    pub fn push_rendered(&mut self, texts: FormTexts) {
        for text in [texts.item.get(), &texts.full, &texts.provenance] {
            self.blocks.push(&self.dictionary.compress_bytes(text.as_bytes()));
        }
    }

    /// The next firearm's forms: those of the firearm at `at` in the previous snapshot.
    pub fn push_kept(&mut self, at: usize) {
        let previous = self.previous.expect("a kept firearm has previous forms");
        for part in PARTS {
            self.blocks.push(previous.block(at, part));
        }
    }

    /// `other`'s firearms after these.
    pub fn append(&mut self, other: Writer) {
        self.blocks.append(other.blocks);
    }

    /// The forms written, in one buffer.
    pub fn finish(self) -> Forms {
        Forms {
            dictionary: self.dictionary.clone(),
            blocks: self.blocks.finish(),
            full_records: empty_slots(),
        }
    }
}

/// The three texts of one firearm, before compression.
pub struct FormTexts {
    pub item: Box<RawValue>,
    pub full: String,
    pub provenance: String,
}

/// The blocks of a firearm, in the order `Forms::block` takes them.
const ITEM: usize = 0;
const FULL: usize = 1;
const PROVENANCE: usize = 2;
const PARTS: [usize; 3] = [ITEM, FULL, PROVENANCE];

/// Full records kept decompressed; a power of two (the slot is the position's low bits).
const SLOTS: usize = 4096;

/// The forms of every firearm of a snapshot, by catalog position: every block in one buffer
/// (300,000 small boxes at 100,000 firearms cost a pointer and an allocator's rounding each).
#[derive(serde::Serialize, serde::Deserialize)]
pub struct Forms {
    dictionary: Dictionary,
    /// Each firearm's item, full record and provenance blocks, one firearm after the other:
    /// firearm `at`'s three at `3 * at..3 * at + 3`.
    blocks: Blocks,
    #[serde(skip, default = "empty_slots")]
    full_records: KeptTexts,
}

fn empty_slots() -> KeptTexts {
    KeptTexts::new(SLOTS)
}

impl Forms {
    /// A dictionary for the forms of `count` firearms, from a sample of their texts
    /// (`texts_of(at)`), to compress each firearm's with (`compress`).
    pub fn dictionary(count: usize, texts_of: impl Fn(usize) -> FormTexts) -> Dictionary {
        Dictionary::sampled(count, |at| {
            let texts = texts_of(at);
            texts.full + &texts.provenance
        })
    }

    pub fn compress(dictionary: &Dictionary, texts: FormTexts) -> FirearmForms {
        FirearmForms {
            item: dictionary.compress(texts.item.get()),
            full: dictionary.compress(&texts.full),
            provenance: dictionary.compress(&texts.provenance),
        }
    }

    /// These forms with the firearms at the positions `rendered` names rendered again, the others
    /// kept where they are: a patch that moved no firearm (`read::in_place`) shares the buffer.
    pub fn patched(&self, rendered: Vec<(usize, FirearmForms)>) -> Self {
        let blocks = rendered
            .iter()
            .flat_map(|(at, forms)| PARTS.map(|part| (at * 3 + part, forms.part(part).as_bytes().to_vec())));
        Self {
            dictionary: self.dictionary.clone(),
            blocks: self.blocks.replaced(blocks),
            full_records: empty_slots(),
        }
    }

    /// Block `part` (0 item, 1 full record, 2 provenance) of the firearm at `at`.
    fn block(&self, at: usize, part: usize) -> &[u8] {
        self.blocks.get(at * 3 + part)
    }

    fn text(&self, at: usize, part: usize) -> String {
        self.dictionary.block_text(self.block(at, part))
    }

    /// What the forms are compressed against: a snapshot patched from this one compresses its
    /// new forms against it too, and keeps the others as they are (`read::update`).
    pub fn dictionary_used(&self) -> &Dictionary {
        &self.dictionary
    }

    /// The list item of the firearm at `at`.
    pub fn item(&self, at: usize) -> Box<RawValue> {
        let text = self.text(at, ITEM);
        RawValue::from_string(text).expect("a rendered item is JSON")
    }

    /// The flat full record of the firearm at `at`, to nest in a typed answer.
    pub fn full(&self, at: usize) -> Box<RawValue> {
        RawValue::from_string(self.with_full(at, str::to_owned)).expect("a rendered record is JSON")
    }

    /// `read(record)` of the firearm at `at`'s flat full record.
    pub fn with_full<T>(&self, at: usize, read: impl FnOnce(&str) -> T) -> T {
        self.with_kept_full(at, |kept| read(&kept.text))
    }

    /// `read` of the firearm at `at`'s full record as its cache slot keeps it (decompressed into
    /// the slot first when it is not there).
    fn with_kept_full<T>(&self, at: usize, read: impl FnOnce(&KeptText) -> T) -> T {
        self.full_records.with(at, || self.text(at, FULL), read)
    }

    /// The provenance object of the firearm at `at`.
    pub fn provenance(&self, at: usize) -> String {
        self.text(at, PROVENANCE)
    }

    /// The firearm as a plan lists it: Explorer the list item, Builder and up the full record.
    pub fn listed(&self, at: usize, view: View) -> Cow<'_, str> {
        match view {
            View::Summary => Cow::Owned(self.text(at, ITEM)),
            View::Full => Cow::Owned(self.with_full(at, str::to_owned)),
        }
    }

    /// `listed`, appended to `out`: a page is written straight into its body, not through a copy
    /// of each record (twenty full records are about 30 KB a page), and a full record's ETag
    /// input is its kept digest.
    pub fn append_listed(&self, at: usize, view: View, out: &mut PageBody) {
        match view {
            View::Summary => out.push_str(&self.text(at, ITEM)),
            View::Full => self.with_kept_full(at, |kept| kept.append_to(out)),
        }
    }

    /// `listed` as a `RawValue`, to nest in a typed answer.
    pub fn listed_raw(&self, at: usize, view: View) -> Box<RawValue> {
        match view {
            View::Summary => self.item(at),
            View::Full => self.full(at),
        }
    }

    /// Bytes the forms' texts hold (compressed ones as compressed), for the snapshot's log line.
    pub fn bytes(&self) -> usize {
        self.blocks.bytes_held()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forms(count: usize) -> Forms {
        let texts = |at: usize| FormTexts {
            item: RawValue::from_string(format!(r#"{{"id":"f{at}"}}"#)).unwrap(),
            full: format!(r#"{{"id":"f{at}","name":"Firearm {at}","weightEmptyG":{at}}}"#),
            provenance: format!(r#"{{"sources":["https://example.org/{at}"]}}"#),
        };
        let dictionary = Forms::dictionary(count, texts);
        // Written in two halves joined, as a build writes them.
        let (mut first, mut second) =
            (Writer::new(&dictionary, None, count), Writer::new(&dictionary, None, 0));
        (0..count)
            .for_each(|at| if at < count / 3 { &mut first } else { &mut second }.push_rendered(texts(at)));
        first.append(second);
        first.finish()
    }

    #[test]
    fn each_form_comes_back_as_rendered_whether_cached_or_not() {
        // Positions `at` and `at + SLOTS` share a cache slot: each read must still get its own.
        let forms = forms(SLOTS + 10);
        for _ in 0..2 {
            for at in [0, 7, SLOTS, SLOTS + 7] {
                let full = format!(r#"{{"id":"f{at}","name":"Firearm {at}","weightEmptyG":{at}}}"#);
                assert_eq!(forms.full(at).get(), full);
                assert_eq!(forms.listed(at, View::Full), full);
                assert_eq!(forms.listed_raw(at, View::Summary).get(), format!(r#"{{"id":"f{at}"}}"#));
                assert_eq!(forms.provenance(at), format!(r#"{{"sources":["https://example.org/{at}"]}}"#));
            }
        }
    }

    #[test]
    fn a_page_of_full_records_reads_and_tags_the_same_whether_cached_or_not() {
        let forms = forms(SLOTS + 10);
        // 7 and SLOTS + 7 share a slot, so every page below misses on one of them.
        let page = |positions: &[usize]| {
            let mut body = PageBody::with_capacity(0);
            for &at in positions {
                forms.append_listed(at, View::Full, &mut body);
            }
            body.finish()
        };
        let expected: String = [7, SLOTS + 7, 3].iter().map(|&at| forms.listed(at, View::Full)).collect();
        let first = page(&[7, SLOTS + 7, 3]);
        let again = page(&[7, SLOTS + 7, 3]);
        assert_eq!(first.body, expected.as_bytes());
        assert_eq!(again.body, first.body);
        assert_eq!(again.etag, first.etag, "a kept record's digest is the one it was kept with");
        assert_ne!(page(&[7, SLOTS + 7, 4]).etag, first.etag, "another record, another tag");
        assert_ne!(page(&[SLOTS + 7, 7, 3]).etag, first.etag, "another order, another tag");
    }
}
