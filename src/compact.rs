//! Records held compressed: each text (rendered JSON) or encoded record an LZ4 block against one
//! dictionary per snapshot (the firearms' served forms, `read::forms`, and the catalog's large
//! tables, `catalog::held`).
//!
//! A firearm's flat full record and provenance were 185 MiB of text at 100,000 firearms, most of
//! it the same keys and values from record to record. One record alone compresses poorly (LZ4
//! needs earlier bytes to refer back to), so every text is compressed against a dictionary cut
//! from the snapshot's own texts: 8 KiB of them took the 185 MiB to 30 MiB, and a record comes back
//! in under a microsecond. The dictionary is small because LZ4's table holds 4,096 positions and
//! every compression hashes the whole dictionary again.

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
        String::from_utf8(self.bytes(&compressed.0)).expect("a compressed text was UTF-8")
    }
}

/// One compressed text: its length, then the LZ4 block.
#[derive(Clone, serde::Serialize, serde::Deserialize)]
pub struct Compressed(#[serde(with = "serde_bytes")] Box<[u8]>);

impl Compressed {
    /// Bytes held.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
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
    fn an_empty_catalog_gives_an_empty_dictionary_that_still_works() {
        let dictionary = Dictionary::sampled(0, |_| unreachable!("no record to sample"));
        for text in ["", "{}", "{\"a\":\"é\"}"] {
            assert_eq!(dictionary.text(&dictionary.compress(text)), text);
        }
    }
}
