//! Compressed answers kept for the next request in the same coding. A catalog answer is the same
//! bytes for everyone who asks for that version (which its ETag names), and the large ones (a
//! country's arsenal is some 300 KB at 100,000 firearms) cost far more to compress than to serve:
//! compressed once per version and coding, each later request is a lookup.
//!
//! Only answers with an ETag (the catalog's), whole in memory and between `SMALLEST` and
//! `LARGEST` bytes, are kept; smaller ones and streams are left to the compression layer. A kept
//! form is used only for the very bytes it was made from (the ETag finds it, the identity body
//! is compared), so no ETag scheme can make one answer served in place of another. At most
//! `BUDGET` bytes are held, the oldest forms dropped first.

use std::collections::{HashMap, VecDeque};
use std::io::Write;
use std::sync::Mutex;

use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;

use super::compression::{Coding, LEVEL};
use super::envelope::REQUEST_ID_HEADER;
use crate::error::ApiError;

/// Below this an answer compresses in a few microseconds; keeping it would cost more.
const SMALLEST: usize = 1024;
/// Identity and compressed bytes held in all.
const BUDGET: usize = 32 << 20;
/// The largest answer kept, so that one cannot push out all the others.
const LARGEST: usize = BUDGET / 8;

#[derive(Default)]
pub struct CompressedAnswers {
    kept: Mutex<Kept>,
    /// Held while an answer is compressed.
    compressing: Mutex<()>,
}

#[derive(Default)]
struct Kept {
    forms: HashMap<(Coding, HeaderValue), Form>,
    /// Keys in the order they were first kept: the front is dropped first.
    order: VecDeque<(Coding, HeaderValue)>,
    bytes: usize,
}

struct Form {
    identity: Bytes,
    encoded: Bytes,
}

impl Form {
    fn bytes(&self) -> usize {
        self.identity.len() + self.encoded.len()
    }
}

impl CompressedAnswers {
    /// `response` in `coding` when it is an answer worth keeping compressed; otherwise as it is,
    /// for the compression layer.
    pub async fn encode(&self, response: Response, coding: Coding) -> Response {
        let Some(etag) = keepable(&response) else { return response };
        let (mut parts, body) = response.into_parts();
        let identity = match body.collect().await {
            Ok(collected) => collected.to_bytes(),
            // A body whole in memory does not fail; were one to, the answer is lost.
            Err(e) => return failed(e, parts.headers.get(&REQUEST_ID_HEADER)),
        };
        let key = (coding, etag);
        let encoded = match self.kept_form(&key, &identity) {
            Some(encoded) => encoded,
            None => {
                // One compression at a time: the first requests for a large answer arrive
                // together, and each would compress it again; after the wait, the form the one
                // before made is found.
                let _one_at_a_time = self.compressing.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                if let Some(encoded) = self.kept_form(&key, &identity) {
                    encoded
                } else if let Some(encoded) = compress(coding, &identity) {
                    self.keep(key, Form { identity, encoded: encoded.clone() });
                    encoded
                } else {
                    return Response::from_parts(parts, Body::from(identity));
                }
            }
        };
        let headers = &mut parts.headers;
        headers.remove(header::CONTENT_LENGTH);
        headers.remove(header::ACCEPT_RANGES);
        headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(coding.name()));
        Response::from_parts(parts, Body::from(encoded))
    }

    /// The kept form of exactly these identity bytes.
    fn kept_form(&self, key: &(Coding, HeaderValue), identity: &Bytes) -> Option<Bytes> {
        let kept = self.lock();
        let form = kept.forms.get(key)?;
        // A kept answer's body is the same allocation each time: equal without reading it.
        let same = (form.identity.as_ptr() == identity.as_ptr() && form.identity.len() == identity.len())
            || form.identity == identity;
        same.then(|| form.encoded.clone())
    }

    fn keep(&self, key: (Coding, HeaderValue), form: Form) {
        let mut kept = self.lock();
        let size = form.bytes();
        match kept.forms.insert(key.clone(), form) {
            Some(replaced) => kept.bytes -= replaced.bytes(),
            None => kept.order.push_back(key),
        }
        kept.bytes += size;
        while kept.bytes > BUDGET {
            let Some(oldest) = kept.order.pop_front() else { break };
            if let Some(dropped) = kept.forms.remove(&oldest) {
                kept.bytes -= dropped.bytes();
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Kept> {
        // Each change leaves the map, the order and the count agreeing before it can panic.
        self.kept.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// A 500 for a body that failed while read here, outside the envelope: it keeps the request id
/// the envelope gave the answer.
fn failed(cause: impl std::fmt::Display, request_id: Option<&HeaderValue>) -> Response {
    let mut response = ApiError::internal(cause).into_response();
    if let Some(id) = request_id {
        response.headers_mut().insert(REQUEST_ID_HEADER.clone(), id.clone());
    }
    response
}

/// The ETag of an answer worth keeping compressed: a success with an ETag, not yet encoded, not a
/// range, JSON or SVG, and whole in memory at a size within the bounds.
fn keepable(response: &Response) -> Option<HeaderValue> {
    let headers = response.headers();
    if !response.status().is_success()
        || headers.contains_key(header::CONTENT_ENCODING)
        || headers.contains_key(header::CONTENT_RANGE)
    {
        return None;
    }
    let content_type = headers.get(header::CONTENT_TYPE)?.as_bytes();
    if !(content_type.starts_with(b"application/json") || content_type.starts_with(b"image/svg+xml")) {
        return None;
    }
    let size = usize::try_from(axum::body::HttpBody::size_hint(response.body()).exact()?).ok()?;
    (SMALLEST..=LARGEST).contains(&size).then(|| headers.get(header::ETAG).cloned()).flatten()
}

/// `identity` in `coding`, at the compression layer's level.
fn compress(coding: Coding, identity: &[u8]) -> Option<Bytes> {
    let mut encoded = Vec::with_capacity(identity.len() / 4);
    match coding {
        Coding::Gzip => {
            let mut encoder = flate2::write::GzEncoder::new(&mut encoded, flate2::Compression::new(LEVEL));
            encoder.write_all(identity).ok()?;
            encoder.finish().ok()?;
        }
        Coding::Brotli => {
            let params = brotli::enc::BrotliEncoderParams {
                quality: LEVEL as i32,
                size_hint: identity.len(),
                ..Default::default()
            };
            brotli::BrotliCompress(&mut &identity[..], &mut encoded, &params).ok()?;
        }
    }
    Some(Bytes::from(encoded))
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use axum::http::StatusCode;

    use super::*;

    fn answer(body: &[u8], etag: &str) -> Response {
        let mut response = Response::new(Body::from(body.to_vec()));
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
        headers.insert(header::ETAG, HeaderValue::from_str(etag).unwrap());
        response
    }

    async fn body_of(response: Response) -> Bytes {
        response.into_body().collect().await.unwrap().to_bytes()
    }

    fn gunzip(bytes: &[u8]) -> Vec<u8> {
        let mut plain = Vec::new();
        flate2::read::GzDecoder::new(bytes).read_to_end(&mut plain).unwrap();
        plain
    }

    #[tokio::test]
    async fn an_answer_is_compressed_once_and_only_for_its_own_bytes() {
        let kept = CompressedAnswers::default();
        let first = format!("[{}]", vec!["\"glock-17\""; 200].join(",")).into_bytes();
        let encoded = kept.encode(answer(&first, "\"v1\""), Coding::Gzip).await;
        assert_eq!(encoded.headers()[header::CONTENT_ENCODING], "gzip");
        let encoded = body_of(encoded).await;
        assert_eq!(gunzip(&encoded), first);

        // The same bytes in another allocation: the kept form itself.
        let again = body_of(kept.encode(answer(&first, "\"v1\""), Coding::Gzip).await).await;
        assert_eq!(again.as_ptr(), encoded.as_ptr(), "served from what was kept");

        // Other bytes under the same ETag are compressed for themselves, never served the kept form.
        let other = format!("[{}]", vec!["\"m1-garand\""; 200].join(",")).into_bytes();
        let replaced = body_of(kept.encode(answer(&other, "\"v1\""), Coding::Gzip).await).await;
        assert_eq!(gunzip(&replaced), other);

        let brotli = kept.encode(answer(&first, "\"v1\""), Coding::Brotli).await;
        assert_eq!(brotli.headers()[header::CONTENT_ENCODING], "br");
        let mut plain = Vec::new();
        brotli::Decompressor::new(&body_of(brotli).await[..], 4096).read_to_end(&mut plain).unwrap();
        assert_eq!(plain, first);
        assert_eq!(kept.lock().forms.len(), 2, "one form per ETag and coding");
    }

    #[tokio::test]
    async fn what_is_not_a_whole_catalog_answer_is_left_to_the_layer() {
        let kept = CompressedAnswers::default();
        let large = vec![b'1'; 4096];
        let small = answer(&large[..SMALLEST - 1], "\"s\"");
        let mut untagged = answer(&large, "\"u\"");
        untagged.headers_mut().remove(header::ETAG);
        let mut failed = answer(&large, "\"f\"");
        *failed.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
        let mut text = answer(&large, "\"t\"");
        text.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain"));
        let mut encoded = answer(&large, "\"e\"");
        encoded.headers_mut().insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        for response in [small, untagged, failed, text, encoded] {
            let before = response.headers().get(header::CONTENT_ENCODING).cloned();
            let after = kept.encode(response, Coding::Gzip).await;
            assert_eq!(after.headers().get(header::CONTENT_ENCODING), before.as_ref());
        }
        assert!(kept.lock().forms.is_empty());
    }

    #[test]
    fn the_oldest_forms_go_first_past_the_budget() {
        let kept = CompressedAnswers::default();
        let form =
            || Form { identity: Bytes::from(vec![0; LARGEST - 1024]), encoded: Bytes::from(vec![0; 1024]) };
        let count = BUDGET / LARGEST + 2;
        for at in 0..count {
            kept.keep((Coding::Gzip, HeaderValue::from(at)), form());
        }
        let held = kept.lock();
        assert!(held.bytes <= BUDGET);
        assert_eq!(held.bytes, held.forms.values().map(Form::bytes).sum::<usize>());
        assert_eq!(held.forms.len(), held.order.len());
        assert!(
            !held.forms.contains_key(&(Coding::Gzip, HeaderValue::from(0))),
            "the first one kept went first"
        );
        assert!(held.forms.contains_key(&(Coding::Gzip, HeaderValue::from(count - 1))));
    }
}
