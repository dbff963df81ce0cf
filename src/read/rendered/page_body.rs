//! A body written piece by piece, with what its ETag is hashed from.

use bytes::Bytes;

use super::{Rendered, etag_of};

/// A body written piece by piece, with what its ETag is hashed from.
///
/// Text pushed plainly goes into both. A piece that comes with a digest of its own text (a
/// firearm's full record, digested once when its cache slot is filled, `read::rendered::firearm_forms`) adds its
/// text to the body and only a marker and the digest to the ETag's input: a byte UTF-8 never
/// holds, then the 16 digest bytes. The input therefore still tells every body apart (the same
/// input means the same plain text and the same digests in the same places), and a page of twenty
/// full records hashes a few hundred bytes instead of 30 KB (hashing the body was a sixth of a
/// full-name search's instructions).
pub struct PageBody {
    text: String,
    hashed: Vec<u8>,
}

/// Marks a digest in a `PageBody`'s ETag input: 0xFF is no byte of any UTF-8 text.
const DIGEST_MARK: u8 = 0xFF;

impl PageBody {
    pub fn with_capacity(bytes: usize) -> Self {
        Self { text: String::with_capacity(bytes), hashed: Vec::with_capacity(256) }
    }

    pub fn push_str(&mut self, text: &str) {
        self.text.push_str(text);
        self.hashed.extend_from_slice(text.as_bytes());
    }

    pub fn push(&mut self, c: char) {
        self.push_str(c.encode_utf8(&mut [0; 4]));
    }

    /// `text`, whose 128-bit XXH3 is `digest` (`digest_of`), hashed as its digest.
    pub fn push_digested(&mut self, text: &str, digest: u128) {
        debug_assert_eq!(digest, digest_of(text), "a digest pushed is its text's");
        self.text.push_str(text);
        self.hashed.push(DIGEST_MARK);
        self.hashed.extend_from_slice(&digest.to_le_bytes());
    }

    /// Bytes of body written so far.
    pub fn len(&self) -> usize {
        self.text.len()
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    pub fn reserve(&mut self, bytes: usize) {
        self.text.reserve(bytes);
    }

    /// The body written so far.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    pub fn finish(self) -> Rendered {
        Rendered { etag: etag_of(&self.hashed), body: Bytes::from(self.text.into_bytes()) }
    }
}

/// The digest `PageBody::push_digested` takes for `text`.
pub fn digest_of(text: &str) -> u128 {
    xxhash_rust::xxh3::xxh3_128(text.as_bytes())
}
