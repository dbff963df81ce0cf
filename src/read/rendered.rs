//! A response body rendered once, with its strong ETag, so a read is a lookup and a copy.

use axum::body::Bytes;
use axum::http::HeaderValue;

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
#[serde(into = "Persisted", try_from = "Persisted")]
pub struct Rendered {
    pub body: Bytes,
    pub etag: HeaderValue,
}

/// A rendered body as the persisted snapshot holds it.
#[derive(serde::Serialize, serde::Deserialize)]
struct Persisted {
    #[serde(with = "serde_bytes")]
    body: Vec<u8>,
    etag: String,
}

impl From<Rendered> for Persisted {
    fn from(rendered: Rendered) -> Self {
        let etag = rendered.etag.to_str().unwrap_or_default().to_owned();
        Self { body: rendered.body.to_vec(), etag }
    }
}

impl TryFrom<Persisted> for Rendered {
    type Error = axum::http::header::InvalidHeaderValue;

    fn try_from(persisted: Persisted) -> Result<Self, Self::Error> {
        Ok(Self { body: Bytes::from(persisted.body), etag: HeaderValue::from_str(&persisted.etag)? })
    }
}

const ENVELOPE_OPEN: &str = "{\"success\":true,\"data\":";

impl Rendered {
    /// `{"success":true,"data":<data>}` from already-serialised data.
    pub fn envelope(data: &str) -> Self {
        let mut body = String::with_capacity(data.len() + ENVELOPE_OPEN.len() + 1);
        body.push_str(ENVELOPE_OPEN);
        body.push_str(data);
        body.push('}');
        Self::from_body(body.into_bytes())
    }

    /// The `data` of a body made by `envelope`, so it can be nested in another answer.
    pub fn data(&self) -> &str {
        let body = std::str::from_utf8(&self.body).unwrap_or_default();
        body.strip_prefix(ENVELOPE_OPEN).and_then(|rest| rest.strip_suffix('}')).unwrap_or("null")
    }

    /// The body with its strong ETag: 24 hex digits of the body's 128-bit XXH3. A content hash,
    /// not a signature, so not SHA-256, which took a quarter of a 80 KiB answer's time.
    pub fn from_body(body: Vec<u8>) -> Self {
        let etag = etag_of(&body);
        Self { body: Bytes::from(body), etag }
    }
}

/// The strong ETag of what `hashed` holds: 24 hex digits of its 128-bit XXH3.
fn etag_of(hashed: &[u8]) -> HeaderValue {
    let digest = xxhash_rust::xxh3::xxh3_128(hashed).to_be_bytes();
    let mut etag = [b'"'; 26];
    hex::encode_to_slice(&digest[..12], &mut etag[1..25]).expect("24 hex digits fit");
    HeaderValue::from_bytes(&etag).expect("hex is a valid header value")
}

/// A body written piece by piece, with what its ETag is hashed from.
///
/// Text pushed plainly goes into both. A piece that comes with a digest of its own text (a
/// firearm's full record, digested once when its cache slot is filled, `read::forms`) adds its
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

#[cfg(test)]
mod tests {
    use super::*;

    fn page(pieces: &[(&str, bool)]) -> Rendered {
        let mut body = PageBody::with_capacity(0);
        for &(text, digested) in pieces {
            if digested {
                body.push_digested(text, digest_of(text));
            } else {
                body.push_str(text);
            }
        }
        body.finish()
    }

    #[test]
    fn a_page_is_its_pieces_and_its_tag_tells_pages_apart() {
        let pieces = [("[", false), ("{\"a\":1}", true), (",", false), ("{\"b\":2}", true), ("]", false)];
        let first = page(&pieces);
        assert_eq!(first.body, "[{\"a\":1},{\"b\":2}]".as_bytes());
        let etag = first.etag.to_str().unwrap();
        assert_eq!(etag.len(), 26);
        assert!(etag.starts_with('"') && etag.ends_with('"'));
        assert!(etag[1..25].bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(page(&pieces).etag, first.etag);
        // Any change of the body changes the tag: a digested record, a plain piece, the order.
        let mut other_record = pieces;
        other_record[3] = ("{\"b\":3}", true);
        let mut other_comma = pieces;
        other_comma[2] = (";", false);
        let mut swapped = pieces;
        swapped.swap(1, 3);
        for other in [other_record, other_comma, swapped] {
            assert_ne!(page(&other).etag, first.etag);
        }
    }

    #[test]
    fn plain_text_never_passes_for_a_digest() {
        // The text of a digest's bytes pushed plainly is not the digest: the mark is no UTF-8 byte.
        let text = "{\"a\":1}";
        let digested = page(&[(text, true)]);
        let digest = digest_of(text).to_le_bytes();
        let lookalike = String::from_utf8_lossy(&digest).into_owned();
        assert_ne!(page(&[(&lookalike, false)]).etag, digested.etag);
        assert_ne!(page(&[(text, false)]).etag, digested.etag);
    }

    #[test]
    fn a_body_of_plain_pieces_is_tagged_as_the_whole_body_is() {
        let pieces = page(&[("{\"success\":true,", false), ("\"data\":[]}", false)]);
        assert_eq!(pieces.etag, Rendered::from_body(pieces.body.to_vec()).etag);
    }
}
