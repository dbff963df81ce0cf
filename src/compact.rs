//! Records held compressed: each text (rendered JSON) or encoded record an LZ4 block against one
//! dictionary per snapshot (the firearms' served forms, `read::rendered::firearm_forms`, and the catalog's large
//! tables, `catalog::held`).
//!
//! A firearm's flat full record and provenance were 185 MiB of text at 100,000 firearms, most of
//! it the same keys and values from record to record. One record alone compresses poorly (LZ4
//! needs earlier bytes to refer back to), so every text is compressed against a dictionary cut
//! from the snapshot's own texts: 8 KiB of them took the 185 MiB to 30 MiB, and a record comes back
//! in under a microsecond. The dictionary is small because LZ4's table holds 4,096 positions and
//! every compression hashes the whole dictionary again.

mod blocks;

pub use blocks::{Blocks, Writer as BlocksWriter};

/// The bytes every text of one snapshot is compressed against.
#[derive(Clone, serde::Serialize, serde::Deserialize)]
pub struct Dictionary(#[serde(with = "serde_bytes")] Box<[u8]>);

/// Dictionary size: past about 8 KiB the texts shrink no further and compressing slows down.
const DICTIONARY_BYTES: usize = 8 * 1024;

impl Dictionary {
    /// A dictionary of texts sampled evenly over `count` records (`text_of(at)` gives record
    /// `at`'s), so it holds several kinds of record, cut at `DICTIONARY_BYTES`.
    pub fn sampled(count: usize, text_of: impl Fn(usize) -> String) -> Self {
        Self::sampled_bytes(count, |at| text_of(at).into_bytes())
    }

    /// `sampled`, of records held as bytes (`bytes_of(at)` gives record `at`'s).
    pub fn sampled_bytes(count: usize, bytes_of: impl Fn(usize) -> Vec<u8>) -> Self {
        const SAMPLES: usize = 32;
        let mut bytes = Vec::with_capacity(DICTIONARY_BYTES);
        for sample in 0..SAMPLES.min(count) {
            if bytes.len() >= DICTIONARY_BYTES {
                break;
            }
            bytes.extend_from_slice(&bytes_of(sample * count / SAMPLES.min(count)));
        }
        bytes.truncate(DICTIONARY_BYTES);
        Self(bytes.into_boxed_slice())
    }

    pub fn compress(&self, text: &str) -> Compressed {
        Compressed(self.compress_bytes(text.as_bytes()).into_boxed_slice())
    }

    /// `bytes` as one block: its length, then the LZ4 block.
    pub fn compress_bytes(&self, bytes: &[u8]) -> Vec<u8> {
        lz4_flex::block::compress_prepend_size_with_dict(bytes, &self.0)
    }

    /// The bytes `block` holds (it was made by `compress_bytes` against this dictionary).
    pub fn bytes(&self, block: &[u8]) -> Vec<u8> {
        lz4_flex::block::decompress_size_prepended_with_dict(block, &self.0)
            .expect("a block compressed by this snapshot decompresses")
    }

    /// The text `compressed` holds (it was compressed against this dictionary).
    pub fn text(&self, compressed: &Compressed) -> String {
        self.block_text(&compressed.0)
    }

    /// The text a block holds (a `Compressed`'s bytes, wherever they are kept).
    pub fn block_text(&self, block: &[u8]) -> String {
        String::from_utf8(self.bytes(block)).expect("a compressed text was UTF-8")
    }
}

/// One compressed text: its length, then the LZ4 block.
#[derive(Clone, serde::Serialize, serde::Deserialize)]
pub struct Compressed(#[serde(with = "serde_bytes")] Box<[u8]>);

impl Compressed {
    /// The block as held.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// Bytes held.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A large buffer of blocks persisted as its length and then chunks of at most `CHUNK` bytes
/// (`#[serde(with = "compact::chunked")]`): read back whole, MessagePack's reader held a copy of
/// the whole buffer beside the buffer itself (the firearms' forms are 50 MB at 100,000 firearms),
/// which was the peak of a node that reused its snapshot.
pub mod chunked {
    use serde::de::{Deserializer, SeqAccess, Visitor};
    use serde::ser::{SerializeSeq, Serializer};

    const CHUNK: usize = 1 << 20;

    pub fn serialize<S: Serializer>(bytes: &[u8], serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(1 + bytes.len().div_ceil(CHUNK)))?;
        seq.serialize_element(&(bytes.len() as u64))?;
        for chunk in bytes.chunks(CHUNK) {
            seq.serialize_element(serde_bytes::Bytes::new(chunk))?;
        }
        seq.end()
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<u8>, D::Error> {
        struct Chunks;
        impl<'de> Visitor<'de> for Chunks {
            type Value = Vec<u8>;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a length, then chunks of bytes")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<u8>, A::Error> {
                let length: u64 =
                    seq.next_element()?.ok_or_else(|| serde::de::Error::invalid_length(0, &self))?;
                let mut bytes = Vec::with_capacity(usize::try_from(length).unwrap_or(0));
                while let Some(chunk) = seq.next_element::<serde_bytes::ByteBuf>()? {
                    bytes.extend_from_slice(&chunk);
                }
                if bytes.len() as u64 != length {
                    return Err(serde::de::Error::invalid_length(bytes.len(), &self));
                }
                Ok(bytes)
            }
        }
        deserializer.deserialize_seq(Chunks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_come_back_as_they_went_in_and_smaller() {
        let texts: Vec<String> = (0..200)
            .map(|i| {
                format!(
                    r#"{{"id":"firearm-{i}","name":"Rifle {i}","status":"in_production","weightEmptyG":{}}}"#,
                    3000 + i
                )
            })
            .collect();
        let dictionary = Dictionary::sampled(texts.len(), |at| texts[at].clone());
        for text in &texts {
            let compressed = dictionary.compress(text);
            assert_eq!(dictionary.text(&compressed), *text);
            assert!(compressed.len() < text.len() / 2, "{} of {} bytes", compressed.len(), text.len());
        }
    }

    #[test]
    fn a_chunked_buffer_reads_back_as_written() {
        #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
        struct Held(#[serde(with = "chunked")] Vec<u8>);
        for length in [0, 1, (1 << 20) - 1, 1 << 20, (3 << 20) + 17] {
            let held = Held((0..length).map(|i| (i % 251) as u8).collect());
            let bytes = rmp_serde::to_vec(&held).unwrap();
            let back: Held = rmp_serde::from_read(bytes.as_slice()).unwrap();
            assert_eq!(back, held, "{length} bytes");
            assert_eq!(back.0.capacity(), length, "read back at its size");
        }
    }

    #[test]
    fn an_empty_catalog_gives_an_empty_dictionary_that_still_works() {
        let dictionary = Dictionary::sampled(0, |_| unreachable!("no record to sample"));
        for text in ["", "{}", "{\"a\":\"é\"}"] {
            assert_eq!(dictionary.text(&dictionary.compress(text)), text);
        }
    }
}
