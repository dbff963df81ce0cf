//! Compression of JSON and SVG answers (gzip or brotli, as the client's Accept-Encoding asks),
//! with `Vary: Accept-Encoding`. A strong ETag names one representation, so a compressed answer's
//! ETag carries its encoding (`"abc-gzip"`); `conditional` ignores that suffix when it compares,
//! so a client revalidating the compressed form still gets its 304.

use axum::http::{HeaderMap, HeaderValue, Response, header};
use tower_http::CompressionLevel;
use tower_http::compression::CompressionLayer;
use tower_http::compression::predicate::{DefaultPredicate, Predicate};

/// How Vary names the request header compression depends on (any case).
const ACCEPT_ENCODING: &[u8] = b"accept-encoding";

/// The encodings an ETag may carry as a suffix.
pub const ENCODING_SUFFIXES: [&str; 2] = ["-gzip", "-br"];

/// The gzip level and brotli quality of every compressed answer. Brotli's own default is its
/// slowest quality, 11: a few milliseconds for a firearm's detail and most of a second for a
/// 300 KB answer, per request. At 4 both codings cost about as much as the answer's own work and
/// brotli still writes smaller bodies than gzip.
pub const LEVEL: u32 = 4;

/// The codings the service answers in besides the identity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Coding {
    Gzip,
    Brotli,
}

impl Coding {
    pub fn name(self) -> &'static str {
        match self {
            Coding::Gzip => "gzip",
            Coding::Brotli => "br",
        }
    }
}

pub fn layer() -> CompressionLayer {
    CompressionLayer::new()
        .gzip(true)
        .br(true)
        .no_deflate()
        .no_zstd()
        .quality(CompressionLevel::Precise(LEVEL as i32))
}

/// The coding the compression layer chooses for a request's Accept-Encoding (RFC 9110 12.5.3):
/// the highest q-value wins, brotli before gzip on a tie, `*` stands for every coding not named;
/// `None` is the identity. It decides here too because `compressed_answers` answers before the
/// layer sees the response; a test holds the two to the same choice.
pub fn preferred(headers: &HeaderMap) -> Option<Coding> {
    // Each coding's q-value in thousandths, as named or through `*`; unknown codings and
    // malformed parameters are ignored, as the layer ignores them.
    let (mut gzip, mut brotli, mut identity, mut any) = (None, None, None, None);
    let listed = headers.get_all(header::ACCEPT_ENCODING).iter().filter_map(|v| v.to_str().ok());
    for item in listed.flat_map(|value| value.split(',')) {
        let mut parts = item.splitn(2, ';');
        let name = parts.next().unwrap_or_default().trim();
        let Some(q) = parts.next().map_or(Some(1000), |q| q_value(q.trim())) else { continue };
        let slot = if name.eq_ignore_ascii_case("gzip") || name.eq_ignore_ascii_case("x-gzip") {
            &mut gzip
        } else if name.eq_ignore_ascii_case("br") {
            &mut brotli
        } else if name.eq_ignore_ascii_case("identity") {
            &mut identity
        } else if name == "*" {
            &mut any
        } else {
            continue;
        };
        slot.get_or_insert(q);
    }
    let weight = |named: Option<u16>| named.or(any).unwrap_or(0);
    // Ordered as the layer breaks ties: identity below gzip below brotli.
    let choices = [
        (weight(identity), None),
        (weight(gzip), Some(Coding::Gzip)),
        (weight(brotli), Some(Coding::Brotli)),
    ];
    choices
        .into_iter()
        .filter(|(q, _)| *q > 0)
        .max_by_key(|&(q, coding)| (q, coding))
        .and_then(|(_, coding)| coding)
}

/// `q=0.5` in thousandths (at most three decimals, at most 1).
fn q_value(parameter: &str) -> Option<u16> {
    let value = parameter.strip_prefix(['q', 'Q'])?.strip_prefix('=')?;
    let (whole, fraction) = value.split_once('.').unwrap_or((value, ""));
    let whole = match whole {
        "0" => 0,
        "1" => 1000,
        _ => return None,
    };
    if fraction.len() > 3 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let thousandths =
        fraction.bytes().zip([100, 10, 1]).map(|(digit, scale)| u16::from(digit - b'0') * scale).sum::<u16>();
    let q = whole + thousandths;
    (q <= 1000).then_some(q)
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
    let coding = match response.headers().get(header::CONTENT_ENCODING).map(HeaderValue::as_bytes) {
        Some(b"gzip") => Coding::Gzip,
        Some(b"br") => Coding::Brotli,
        _ => return response,
    };
    if let Some(tag) = response.headers().get(header::ETAG)
        && let Some(value) = encoded_etag(tag, coding)
    {
        response.headers_mut().insert(header::ETAG, value);
    }
    response
}

/// The ETag of `coding`'s form of the answer whose identity ETag is `tag` (`"abc"` -> `"abc-br"`).
pub fn encoded_etag(tag: &HeaderValue, coding: Coding) -> Option<HeaderValue> {
    let opaque = tag.to_str().ok()?.strip_suffix('"')?;
    HeaderValue::from_str(&format!("{opaque}-{}\"", coding.name())).ok()
}

/// The coding the compression layer will give `response`, asked for with `request_headers`: the
/// request's preferred one, if the layer's own predicate (size, content type) would compress
/// the answer and nothing has encoded it yet. A 304 made from the answer names the same coding.
pub fn coding_for<B: axum::body::HttpBody>(
    request_headers: &HeaderMap,
    response: &Response<B>,
) -> Option<Coding> {
    let coding = preferred(request_headers)?;
    let headers = response.headers();
    let untouched =
        !headers.contains_key(header::CONTENT_ENCODING) && !headers.contains_key(header::CONTENT_RANGE);
    (untouched && DefaultPredicate::new().should_compress(response)).then_some(coding)
}

/// The answer to a request that sent no Accept-Encoding, which the compression layer never saw:
/// nothing has said yet that it varies with that header, so no Vary needs reading.
pub fn say_varies_with_encoding<B>(response: &mut Response<B>) {
    response.headers_mut().append(header::VARY, HeaderValue::from_static("accept-encoding"));
}

#[cfg(test)]
mod tests {
    use std::convert::Infallible;

    use axum::body::Body;
    use axum::extract::Request;
    use tower::{Layer, ServiceExt};

    use super::*;

    /// The coding the compression layer itself gives a 2 KB JSON answer for `accept_encoding`.
    async fn layer_choice(accept_encoding: &str) -> Option<String> {
        let answer = tower::service_fn(|_: Request| async {
            let mut response = Response::new(Body::from(vec![b'7'; 2048]));
            response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
            Ok::<_, Infallible>(response)
        });
        let request =
            Request::builder().header(header::ACCEPT_ENCODING, accept_encoding).body(Body::empty()).unwrap();
        let response = layer().layer(answer).oneshot(request).await.unwrap();
        response.headers().get(header::CONTENT_ENCODING).map(|e| e.to_str().unwrap().to_owned())
    }

    #[tokio::test]
    async fn the_preferred_coding_is_the_one_the_compression_layer_chooses() {
        let asked = [
            "gzip",
            "br",
            "gzip, br",
            "gzip, deflate, br, zstd",
            "br;q=0.5, gzip",
            "gzip;q=0.5, br;q=0.5",
            "gzip; q=0.8, br ;q=0.9",
            "gzip;Q=0.7, br;q=0.70",
            "x-gzip",
            "GZIP",
            "deflate",
            "deflate, gzip;q=0.001",
            "*",
            "*;q=0",
            "identity",
            "identity;q=0",
            "identity;q=0, *;q=0",
            "identity;q=1, gzip;q=0.5",
            "gzip;q=0, *",
            "br;q=0, *;q=0.5",
            "compress, *;q=0.2, identity;q=0.3",
            "gzip;q=1.5",
            "gzip;q=0.1234, br;q=",
            "br;q=1., gzip;q=0.999",
            "gzip;level=9, br;q=0",
            "",
        ];
        for accept_encoding in asked {
            let mut headers = HeaderMap::new();
            headers.insert(header::ACCEPT_ENCODING, HeaderValue::from_str(accept_encoding).unwrap());
            let ours = preferred(&headers).map(|coding| coding.name().to_owned());
            assert_eq!(ours, layer_choice(accept_encoding).await, "Accept-Encoding: {accept_encoding}");
        }
    }

    #[test]
    fn q_values_are_read_in_thousandths() {
        assert_eq!(q_value("q=1"), Some(1000));
        assert_eq!(q_value("Q=0.25"), Some(250));
        assert_eq!(q_value("q=0.005"), Some(5));
        assert_eq!(q_value("q=1.000"), Some(1000));
        for malformed in ["q=1.001", "q=2", "q=", "q=0.0001", "q = 0.5", "level=1", "q=0.5x"] {
            assert_eq!(q_value(malformed), None, "{malformed}");
        }
    }
}
