//! Each firearm's served forms, rendered when the snapshot is built: the list item as it is
//! served, the flat full record and the provenance compressed (`compact`), since together they
//! were most of a large catalog's memory. Details are assembled from them on request
//! (`read::details`).

use std::borrow::Cow;

use serde_json::value::RawValue;

use super::compact::{Compressed, Dictionary};
use super::views::View;

/// One firearm's forms.
pub struct FirearmForms {
    /// The list item (summary field set): a `RawValue` written once from its `Value`, so a list
    /// clones or borrows it with no validation pass per request. Small and read by every list.
    item: Box<RawValue>,
    /// The flat full record (every served scalar field), as JSON.
    full: Compressed,
    /// The provenance object, as JSON.
    provenance: Compressed,
}

/// The three texts of one firearm, before compression.
pub struct FormTexts {
    pub item: Box<RawValue>,
    pub full: String,
    pub provenance: String,
}

/// The forms of every firearm of a snapshot, by catalog position.
pub struct Forms {
    dictionary: Dictionary,
    firearms: Vec<FirearmForms>,
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
            item: texts.item,
            full: dictionary.compress(&texts.full),
            provenance: dictionary.compress(&texts.provenance),
        }
    }

    pub fn new(dictionary: Dictionary, firearms: Vec<FirearmForms>) -> Self {
        Self { dictionary, firearms }
    }

    /// The list item of the firearm at `at`.
    pub fn item(&self, at: usize) -> &RawValue {
        &self.firearms[at].item
    }

    /// The flat full record of the firearm at `at`.
    pub fn full(&self, at: usize) -> String {
        self.dictionary.text(&self.firearms[at].full)
    }

    /// The provenance object of the firearm at `at`.
    pub fn provenance(&self, at: usize) -> String {
        self.dictionary.text(&self.firearms[at].provenance)
    }

    /// The firearm as a plan lists it: Explorer the list item, Builder and up the full record.
    pub fn listed(&self, at: usize, view: View) -> Cow<'_, str> {
        match view {
            View::Summary => Cow::Borrowed(self.item(at).get()),
            View::Full => Cow::Owned(self.full(at)),
        }
    }

    /// `listed` as a `RawValue`, to nest in a typed answer.
    pub fn listed_raw(&self, at: usize, view: View) -> Box<RawValue> {
        match view {
            View::Summary => self.item(at).to_owned(),
            View::Full => RawValue::from_string(self.full(at)).expect("a rendered record is JSON"),
        }
    }

    /// Bytes the forms' texts hold (compressed ones as compressed), for the snapshot's log line.
    pub fn bytes(&self) -> usize {
        self.firearms.iter().map(|f| f.item.get().len() + f.full.len() + f.provenance.len()).sum()
    }
}
