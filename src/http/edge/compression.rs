//! Compression of JSON and SVG answers (gzip or brotli, as the client's Accept-Encoding asks),
//! with `Vary: Accept-Encoding`. A strong ETag names one representation, so a compressed answer's
//! ETag carries its encoding (`"abc-gzip"`); `conditional` ignores that suffix when it compares,
//! so a client revalidating the compressed form still gets its 304.

use axum::http::{HeaderValue, Response, header};
use tower_http::compression::CompressionLayer;

/// How Vary names the request header compression depends on (any case).
const ACCEPT_ENCODING: &[u8] = b"accept-encoding";

/// The encodings an ETag may carry as a suffix.
pub const ENCODING_SUFFIXES: [&str; 2] = ["-gzip", "-br"];

pub fn layer() -> CompressionLayer {
    CompressionLayer::new().gzip(true).br(true).no_deflate().no_zstd()
}

/// Runs outside the compression layer: the ETag of an encoded answer names its encoding, and
/// every answer says it varies with Accept-Encoding. The compression layer says so only of the
/// bodies it would compress, so a HEAD (whose body the router has already dropped) or a tiny body
/// would otherwise differ from its GET.
pub fn tag_encoded_etags<B>(mut response: Response<B>) -> Response<B> {
    // Vary is a comma-separated list of header names: compared name by name, not searched.
    let names_encoding = |value: &HeaderValue| {
        value
            .as_bytes()
            .split(|&b| b == b',')
            .any(|name| name.trim_ascii().eq_ignore_ascii_case(ACCEPT_ENCODING))
    };
    let varies = response.headers().get_all(header::VARY).iter().any(names_encoding);
    if !varies {
        say_varies_with_encoding(&mut response);
    }
    let encoding = response.headers().get(header::CONTENT_ENCODING).and_then(|e| e.to_str().ok());
    let suffix = match encoding {
        Some("gzip") => "-gzip",
        Some("br") => "-br",
        _ => return response,
    };
    if let Some(tag) = response.headers().get(header::ETAG).and_then(|t| t.to_str().ok())
        && let Some(opaque) = tag.strip_suffix('"')
        && let Ok(value) = HeaderValue::from_str(&format!("{opaque}{suffix}\""))
    {
        response.headers_mut().insert(header::ETAG, value);
    }
    response
}

/// The answer to a request that sent no Accept-Encoding, which the compression layer never saw:
/// nothing has said yet that it varies with that header, so no Vary needs reading.
pub fn say_varies_with_encoding<B>(response: &mut Response<B>) {
    response.headers_mut().append(header::VARY, HeaderValue::from_static("accept-encoding"));
}
