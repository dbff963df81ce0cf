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
        let digest = xxhash_rust::xxh3::xxh3_128(&body).to_be_bytes();
        let etag = format!("\"{}\"", hex::encode(&digest[..12]));
        Self {
            body: Bytes::from(body),
            etag: HeaderValue::from_str(&etag).expect("hex is a valid header value"),
        }
    }
}
