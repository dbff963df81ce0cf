//! A large table's records as a snapshot holds them (`Catalog::firearms`): typed while a catalog
//! is read and the read model is built from it, then packed, each record MessagePack in an LZ4
//! block against one dictionary cut from the table's own records (`compact`), all blocks in one
//! buffer.
//!
//! At 100,000 firearms the typed records were about 180 MB of a node's 460 MiB (984 bytes inline
//! each, rounded up to mimalloc's 1,024-byte class, and about 800 bytes of strings and lists in a
//! few dozen heap blocks); packed they are a few dozen megabytes. The read model answers from its
//! own forms and indexes, so after the build a record is decoded only where a read needs a
//! figure the read model does not keep (a family tree, an arsenal, a webhook's payload): a few
//! microseconds each. A builder over the whole table reads the fields it needs in one pass
//! (`column`), each record decoded once and dropped; `typed` decodes them all at once, for a
//! patch's read model and the figures it defers.

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::sync::Arc;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::compact::{Blocks, BlocksWriter, Dictionary};

/// A record with a unique key its table is sorted by.
pub trait Keyed {
    fn key(&self) -> &str;
}

/// A table's records in key order, typed or packed (the module's doc).
#[derive(Clone, serde::Serialize, serde::Deserialize)]
pub struct Held<T> {
    form: Form<T>,
}

#[derive(Clone, serde::Serialize, serde::Deserialize)]
enum Form<T> {
    Typed(Vec<Arc<T>>),
    Packed(Packed),
}

/// Every record's block (`compact::Blocks`: a patch shares its predecessor's buffer).
#[derive(Clone, serde::Serialize, serde::Deserialize)]
struct Packed {
    dictionary: Dictionary,
    blocks: Blocks,
}

impl Packed {
    fn block_of<T: Serialize>(&self, record: &T) -> Vec<u8> {
        self.dictionary.compress_bytes(&encode(record))
    }

    fn decode<T: DeserializeOwned>(&self, at: usize) -> T {
        rmp_serde::from_slice(&self.dictionary.bytes(self.blocks.get(at))).expect("a packed record decodes")
    }
}

fn encode<T: Serialize>(record: &T) -> Vec<u8> {
    rmp_serde::to_vec(record).expect("a catalog record encodes")
}

impl<T> Default for Held<T> {
    fn default() -> Self {
        Self { form: Form::Typed(Vec::new()) }
    }
}

impl<T> From<Vec<Arc<T>>> for Held<T> {
    fn from(records: Vec<Arc<T>>) -> Self {
        Self { form: Form::Typed(records) }
    }
}

impl<T> Held<T> {
    pub fn len(&self) -> usize {
        match &self.form {
            Form::Typed(records) => records.len(),
            Form::Packed(packed) => packed.blocks.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn is_packed(&self) -> bool {
        matches!(self.form, Form::Packed(_))
    }

    /// The records of a typed table: a catalog as files, an import or a build hold it. Panics
    /// on a packed one (a served snapshot's), which is read with `get`, `iter` or `typed`.
    pub fn as_typed(&self) -> &[Arc<T>] {
        match &self.form {
            Form::Typed(records) => records,
            Form::Packed(_) => panic!("a packed table is read with get, iter or typed"),
        }
    }
}

impl<T: Serialize + DeserializeOwned + Send + Sync> Held<T> {
    /// The record at `at` (decoded when packed). Panics past the end, as indexing does.
    pub fn get(&self, at: usize) -> Arc<T> {
        match &self.form {
            Form::Typed(records) => records[at].clone(),
            Form::Packed(packed) => Arc::new(packed.decode(at)),
        }
    }

    /// Every record in order, one at a time (a packed table decodes each as it is reached).
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Arc<T>> + '_ {
        (0..self.len()).map(|at| self.get(at))
    }

    /// `column(record)` of every record, in order: read off the records when the table is typed,
    /// each record decoded once (the two halves on two threads) when it is packed. A builder over
    /// the whole table takes the few fields it needs this way rather than the table typed: at
    /// 100,000 firearms a typed copy is about 180 MB, the half of a building node's peak.
    pub fn column<C: Send>(&self, column: impl Fn(&T) -> C + Sync) -> Vec<C> {
        match &self.form {
            Form::Typed(records) => records.iter().map(|record| column(record)).collect(),
            Form::Packed(packed) => self.in_halves(|at| column(&packed.decode::<T>(at))),
        }
    }

    /// Every record typed: borrowed when the table is, else decoded for the caller's build.
    pub fn typed(&self) -> Cow<'_, [Arc<T>]> {
        match &self.form {
            Form::Typed(records) => Cow::Borrowed(records),
            Form::Packed(_) => Cow::Owned(self.decoded_in_halves()),
        }
    }

    /// Every record decoded, the two halves on two threads (a patch decodes 150,000 at 100,000
    /// firearms, about a quarter of a second on one core).
    fn decoded_in_halves(&self) -> Vec<Arc<T>> {
        self.in_halves(|at| self.get(at))
    }

    /// `of(at)` of every position, in order, the second half on a thread of its own.
    fn in_halves<C: Send>(&self, of: impl Fn(usize) -> C + Sync) -> Vec<C> {
        let middle = self.len() / 2;
        std::thread::scope(|scope| {
            let second = scope.spawn(|| (middle..self.len()).map(&of).collect::<Vec<_>>());
            let mut values: Vec<C> = Vec::with_capacity(self.len());
            values.extend((0..middle).map(&of));
            values.extend(second.join().expect("decoding never panics"));
            values
        })
    }

    /// The records to change in place (a packed table is unpacked first).
    pub fn typed_mut(&mut self) -> &mut Vec<Arc<T>> {
        if let Form::Packed(_) = self.form {
            self.form = Form::Typed(self.typed().into_owned());
        }
        match &mut self.form {
            Form::Typed(records) => records,
            Form::Packed(_) => unreachable!("unpacked above"),
        }
    }

    /// Hold the records packed from now on (kept as they are when they already are).
    pub fn pack(&mut self) {
        let Form::Typed(records) = &self.form else { return };
        let dictionary = Dictionary::sampled_bytes(records.len(), |at| encode(&*records[at]));
        let mut blocks = BlocksWriter::for_blocks(records.len());
        for record in records {
            blocks.push(&dictionary.compress_bytes(&encode(&**record)));
        }
        self.form = Form::Packed(Packed { dictionary, blocks: blocks.finish() });
    }
}

impl<T: Keyed + Serialize + DeserializeOwned + Send + Sync> Held<T> {
    /// Where the record keyed `key` is (`Ok`), or where it would go (`Err`), as
    /// `slice::binary_search` answers.
    pub fn position(&self, key: &str) -> Result<usize, usize> {
        match &self.form {
            Form::Typed(records) => records.binary_search_by(|r| r.key().cmp(key)),
            Form::Packed(packed) => {
                let (mut low, mut high) = (0, packed.blocks.len());
                while low < high {
                    let middle = (low + high) / 2;
                    match packed.decode::<T>(middle).key().cmp(key) {
                        std::cmp::Ordering::Less => low = middle + 1,
                        std::cmp::Ordering::Greater => high = middle,
                        std::cmp::Ordering::Equal => return Ok(middle),
                    }
                }
                Err(low)
            }
        }
    }

    /// These records but those `changed` names, with `fresh` added, in key order; held as these
    /// are (a packed table copies the kept records' blocks as they are and packs only `fresh`).
    pub fn merged(&self, changed: &BTreeSet<String>, fresh: Vec<Arc<T>>) -> Self {
        let Form::Packed(old) = &self.form else {
            let Form::Typed(records) = &self.form else { unreachable!("typed when not packed") };
            let mut out: Vec<Arc<T>> =
                records.iter().filter(|r| !changed.contains(r.key())).cloned().collect();
            out.extend(fresh);
            // Two sorted runs: the sort merges them in one pass.
            out.sort_by(|a, b| a.key().cmp(b.key()));
            return out.into();
        };
        let mut removed: BTreeSet<usize> = changed.iter().filter_map(|key| self.position(key).ok()).collect();
        let mut fresh: Vec<(Result<usize, usize>, Arc<T>)> =
            fresh.into_iter().map(|record| (self.position(record.key()), record)).collect();
        // Every fresh record in place of the one it changes, and none deleted: the buffer shared.
        let replaces = |(at, _): &(Result<usize, usize>, Arc<T>)| at.is_ok_and(|at| removed.contains(&at));
        if fresh.len() == removed.len() && fresh.iter().all(replaces) {
            let blocks = old
                .blocks
                .replaced(fresh.iter().map(|(at, record)| (at.expect("checked"), old.block_of(&**record))));
            return Self { form: Form::Packed(Packed { dictionary: old.dictionary.clone(), blocks }) };
        }
        for (at, _) in &fresh {
            if let Ok(at) = at {
                removed.insert(*at);
            }
        }
        fresh.sort_by(|a, b| a.1.key().cmp(b.1.key()));
        let mut fresh = fresh.into_iter().map(|(at, record)| (at.unwrap_or_else(|at| at), record)).peekable();
        let mut out = BlocksWriter::for_blocks(old.blocks.len() + fresh.len());
        for at in 0..=old.blocks.len() {
            while let Some((_, record)) = fresh.next_if(|(before, _)| *before == at) {
                out.push(&old.block_of(&*record));
            }
            if at < old.blocks.len() && !removed.contains(&at) {
                out.push(old.blocks.get(at));
            }
        }
        Self { form: Form::Packed(Packed { dictionary: old.dictionary.clone(), blocks: out.finish() }) }
    }
}

impl<'a, T: Serialize + DeserializeOwned + Send + Sync> IntoIterator for &'a Held<T> {
    type Item = Arc<T>;
    type IntoIter = Box<dyn ExactSizeIterator<Item = Arc<T>> + 'a>;

    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

impl<T: PartialEq + Serialize + DeserializeOwned + Send + Sync> PartialEq for Held<T> {
    /// The same records in the same order, however each side holds them.
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().zip(other.iter()).all(|(a, b)| a == b)
    }
}

impl<T> std::fmt::Debug for Held<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Held").field("records", &self.len()).field("packed", &self.is_packed()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::model::Firearm;
    use crate::catalog::synth::synthesize;

    fn firearms(count: usize) -> Held<Firearm> {
        synthesize(count, 7).firearms
    }

    #[test]
    fn packed_records_come_back_as_they_went_in() {
        let typed = firearms(600);
        let mut packed = typed.clone();
        packed.pack();
        assert!(packed.is_packed() && !typed.is_packed());
        assert_eq!(packed.len(), 600);
        for at in [0, 1, 299, 599] {
            assert_eq!(packed.get(at), typed.get(at));
        }
        assert!(packed == typed);
        assert_eq!(*packed.typed(), *typed.typed());
        let bytes = rmp_serde::to_vec(&packed).unwrap();
        let read_back: Held<Firearm> = rmp_serde::from_slice(&bytes).unwrap();
        assert!(read_back.is_packed() && read_back == typed);
    }

    #[test]
    fn a_packed_table_finds_keys_where_a_typed_one_does() {
        let typed = firearms(300);
        let mut packed = typed.clone();
        packed.pack();
        let keys: Vec<String> = typed.iter().map(|f| f.id.clone()).collect();
        for key in keys.iter().map(String::as_str).chain(["", "a", "zzz", "synthetic-000150x"]) {
            assert_eq!(packed.position(key), typed.position(key), "{key}");
        }
    }

    #[test]
    fn merging_into_a_packed_table_equals_merging_into_a_typed_one() {
        let typed = firearms(400);
        let mut packed = typed.clone();
        packed.pack();
        let mut renamed = (*typed.get(10)).clone();
        renamed.name = "Renamed".into();
        let mut added = (*typed.get(20)).clone();
        added.id = format!("{}-b", added.id);
        let mut first = (*typed.get(0)).clone();
        first.id = "0-first".into();
        let mut last = (*typed.get(399)).clone();
        last.id = "zz-last".into();
        let gone = typed.get(300).id.clone();
        let fresh: Vec<Arc<Firearm>> = [last, renamed, added, first].into_iter().map(Arc::new).collect();
        let changed: BTreeSet<String> =
            fresh.iter().map(|f| f.id.clone()).chain([gone, "never-stored".into()]).collect();
        let from_typed = typed.merged(&changed, fresh.clone());
        let from_packed = packed.merged(&changed, fresh);
        assert!(from_packed.is_packed() && !from_typed.is_packed());
        assert_eq!(from_typed.len(), 402);
        assert!(from_packed == from_typed);
        assert_eq!(from_packed.get(0).id, "0-first");
        assert_eq!(from_packed.get(401).id, "zz-last");
        let nothing = packed.merged(&BTreeSet::new(), Vec::new());
        assert!(nothing == typed);

        // Records changed in place only: the packed table shares its buffer (`compact::Blocks`).
        let mut renamed = (*typed.get(7)).clone();
        renamed.name = "Renamed in place".into();
        let fresh = vec![Arc::new(renamed)];
        let changed: BTreeSet<String> = fresh.iter().map(|f| f.id.clone()).collect();
        let (from_typed, from_packed) =
            (typed.merged(&changed, fresh.clone()), packed.merged(&changed, fresh));
        assert!(from_packed.is_packed() && from_packed == from_typed);
        assert_eq!(from_packed.get(7).name, "Renamed in place");
    }

    #[test]
    fn a_packed_table_is_a_fraction_of_its_records_encoded() {
        let mut packed = firearms(2_000);
        let encoded: usize = packed.iter().map(|f| encode(&*f).len()).sum();
        packed.pack();
        let Form::Packed(held) = &packed.form else { unreachable!() };
        let held = held.blocks.bytes_held();
        assert!(held * 2 < encoded, "{held} of {encoded} bytes");
    }
}
