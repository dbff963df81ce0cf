//! A response body rendered once, with its strong ETag, so a read is a lookup and a copy.
//!
//! Plain bytes: `http` turns the ETag into a header without copying it (both are `Bytes`).

use bytes::Bytes;

mod envelope;
pub mod firearm_details;
pub mod firearm_forms;
pub mod firearm_json;
pub mod kept_answers;
pub mod kept_fields;
pub mod kept_texts;
mod page_body;
pub mod record_json;
pub mod shapes;

pub use envelope::{One, Page, one, paged, paged_raw, with_items};
pub use page_body::{PageBody, digest_of};

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
#[serde(into = "Persisted", try_from = "Persisted")]
pub struct Rendered {
    pub body: Bytes,
    pub etag: Etag,
}

/// A strong ETag, quotes included: `"` 24 hex digits `"`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Etag(Bytes);

impl Etag {
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.0).expect("an ETag is ASCII")
    }

    /// The tag's bytes, shared.
    pub fn bytes(&self) -> &Bytes {
        &self.0
    }

    /// `raw` when it is a tag this module makes.
    fn parse(raw: String) -> Result<Self, String> {
        let hex = raw.strip_prefix('"').and_then(|r| r.strip_suffix('"'));
        match hex {
            Some(hex) if hex.len() == 24 && hex.bytes().all(|b| b.is_ascii_hexdigit()) => {
                Ok(Self(Bytes::from(raw)))
            }
            _ => Err(format!("'{raw}' is not a strong ETag of 24 hex digits")),
        }
    }
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
        let etag = rendered.etag.as_str().to_owned();
        Self { body: rendered.body.to_vec(), etag }
    }
}

impl TryFrom<Persisted> for Rendered {
    type Error = String;

    fn try_from(persisted: Persisted) -> Result<Self, Self::Error> {
        Ok(Self { body: Bytes::from(persisted.body), etag: Etag::parse(persisted.etag)? })
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
pub(crate) fn etag_of(hashed: &[u8]) -> Etag {
    let digest = xxhash_rust::xxh3::xxh3_128(hashed).to_be_bytes();
    let mut etag = [b'"'; 26];
    hex::encode_to_slice(&digest[..12], &mut etag[1..25]).expect("24 hex digits fit");
    Etag(Bytes::copy_from_slice(&etag))
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
        let etag = first.etag.as_str();
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
