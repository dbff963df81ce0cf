//! Records' JSON texts kept for the snapshot's life in a bounded, direct-mapped cache, each with its
//! digest: a page copies the text into its body and hashes only the digest into its ETag
//! (`rendered::PageBody`).
//!
//! Used for what a page nests on every request and would otherwise make again each time: the
//! firearms' full records, decompressed (`read::rendered::firearm_forms`), and the ammunition loads' list items,
//! decoded and serialised (`http::catalog::ammunition`; twenty of them were most of a cartridge's
//! loads page, 55 µs a request at 100,000 firearms). Neither persisted nor patched: a new
//! snapshot starts empty.

use std::sync::Mutex;

use super::{PageBody, digest_of};

/// One kept text.
pub struct KeptText {
    /// The record's position.
    at: u32,
    /// The text's digest (`rendered::digest_of`).
    pub digest: u128,
    pub text: Box<str>,
}

impl KeptText {
    /// The text appended to `page`, its ETag input the digest.
    pub fn append_to(&self, page: &mut PageBody) {
        page.push_digested(&self.text, self.digest);
    }
}

/// Texts by record position; a position's slot is its low bits, so two positions a multiple of
/// the slot count apart take turns.
pub struct KeptTexts {
    slots: Box<[Mutex<Option<KeptText>>]>,
}

impl KeptTexts {
    /// `slots` texts at most; a power of two.
    pub fn new(slots: usize) -> Self {
        assert!(slots.is_power_of_two(), "a slot is a position's low bits");
        Self { slots: (0..slots).map(|_| Mutex::new(None)).collect() }
    }

    /// `read` of the text of the record at `at`, as its slot keeps it (under the slot's lock when
    /// it is there; made by `make` and digested into the slot first when not).
    pub fn with<T>(&self, at: usize, make: impl FnOnce() -> String, read: impl FnOnce(&KeptText) -> T) -> T {
        let slot = &self.slots[at & (self.slots.len() - 1)];
        if let Some(kept) = &*slot.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
            && kept.at as usize == at
        {
            return read(kept);
        }
        let text = make().into_boxed_str();
        let kept = KeptText { at: at as u32, digest: digest_of(&text), text };
        let answer = read(&kept);
        // A panic while holding it cannot leave the slot half written (one assignment).
        *slot.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(kept);
        answer
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn a_text_is_made_once_while_its_slot_keeps_it() {
        let texts = KeptTexts::new(8);
        let made = Cell::new(0);
        let text_of = |at: usize| {
            made.set(made.get() + 1);
            format!("{{\"at\":{at}}}")
        };
        for _ in 0..3 {
            assert_eq!(texts.with(3, || text_of(3), |kept| kept.text.to_string()), "{\"at\":3}");
        }
        assert_eq!(made.get(), 1);
        // 11 takes 3's slot; each read still gets its own record, made again when displaced.
        for at in [11, 3, 11] {
            let (text, digest) = texts.with(at, || text_of(at), |kept| (kept.text.to_string(), kept.digest));
            assert_eq!(text, format!("{{\"at\":{at}}}"));
            assert_eq!(digest, digest_of(&text));
        }
        assert_eq!(made.get(), 4);
    }
}
