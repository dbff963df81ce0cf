//! What browsers and caches see: CORS preflights answered without a key, compressed answers whose
//! ETag still revalidates, and a Cache-Control on every answer (private when it depends on the key).

use std::io::Read;

use armory::access::plan::Plan;

use crate::support::{Backend, TestApp};

const DETAIL: &str = "/v1/firearms/glock-17";

async fn catalog() -> TestApp {
    crate::support::read_catalog_app(Backend::Sqlite).await
}

#[tokio::test]
async fn a_preflight_is_answered_without_a_key_and_names_what_may_be_sent() {
    let app = catalog().await;
    let preflight = app
        .client
        .request(reqwest::Method::OPTIONS, app.url(DETAIL))
        .header("origin", "https://app.example")
        .header("access-control-request-method", "GET")
        .header("access-control-request-headers", "x-api-key, if-none-match")
        .send()
        .await
        .unwrap();
    assert!(preflight.status().is_success(), "{}", preflight.status());
    let headers = preflight.headers();
    assert_eq!(headers["access-control-allow-origin"], "*");
    let allowed = headers["access-control-allow-headers"].to_str().unwrap().to_ascii_lowercase();
    assert!(allowed.contains("x-api-key") && allowed.contains("if-none-match"), "{allowed}");
    assert!(headers.get("access-control-allow-credentials").is_none());

    let (_, _, key) = app.key(Plan::Builder).await;
    let answer =
        app.client.get(app.url(DETAIL)).header("origin", "https://app.example").header("x-api-key", &key);
    let answer = answer.send().await.unwrap();
    let exposed = answer.headers()["access-control-expose-headers"].to_str().unwrap().to_ascii_lowercase();
    assert!(exposed.contains("etag") && exposed.contains("x-request-id") && exposed.contains("retry-after"));
}

#[tokio::test]
async fn keyed_operations_follow_the_configured_origins_and_keyless_ones_any() {
    let app = TestApp::with_catalog(Backend::Sqlite, |config| {
        config.cors_origins = Some(vec!["https://studio.example".to_owned()]);
    })
    .await;
    let preflight = |path: &str, origin: &str| {
        app.client
            .request(reqwest::Method::OPTIONS, app.url(path))
            .header("origin", origin)
            .header("access-control-request-method", "GET")
            .send()
    };
    let listed = preflight(DETAIL, "https://studio.example").await.unwrap();
    assert_eq!(listed.headers()["access-control-allow-origin"], "https://studio.example");
    let stranger = preflight(DETAIL, "https://elsewhere.example").await.unwrap();
    assert!(stranger.headers().get("access-control-allow-origin").is_none());
    let keyless = preflight("/v1/docs/limits", "https://elsewhere.example").await.unwrap();
    assert_eq!(keyless.headers()["access-control-allow-origin"], "https://elsewhere.example");
}

#[tokio::test]
async fn a_compressed_answer_decodes_and_its_etag_revalidates() {
    let app = catalog().await;
    let (_, _, key) = app.key(Plan::Builder).await;
    let plain = app.get_with_key(DETAIL, &key).await;
    let plain_etag = plain.headers()["etag"].to_str().unwrap().to_owned();
    let plain_body: serde_json::Value = plain.json().await.unwrap();

    let compressed = app
        .client
        .get(app.url(DETAIL))
        .header("x-api-key", &key)
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(compressed.headers()["content-encoding"], "gzip");
    let vary = compressed
        .headers()
        .get_all("vary")
        .iter()
        .map(|v| v.to_str().unwrap().to_ascii_lowercase())
        .collect::<Vec<_>>()
        .join(",");
    assert!(vary.contains("accept-encoding"), "{vary}");
    let etag = compressed.headers()["etag"].to_str().unwrap().to_owned();
    assert_ne!(etag, plain_etag, "each representation has its own strong ETag");
    let bytes = compressed.bytes().await.unwrap();
    let mut json = String::new();
    flate2::read::GzDecoder::new(&bytes[..]).read_to_string(&mut json).unwrap();
    assert_eq!(serde_json::from_str::<serde_json::Value>(&json).unwrap(), plain_body);

    let revalidated = app
        .client
        .get(app.url(DETAIL))
        .header("x-api-key", &key)
        .header("accept-encoding", "gzip")
        .header("if-none-match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(revalidated.status(), 304);
}

/// A keyed GET of `path` accepting `coding`, revalidating `if_none_match` when given.
fn asked(
    app: &TestApp,
    path: &str,
    key: &str,
    coding: &str,
    if_none_match: Option<&str>,
) -> reqwest::RequestBuilder {
    let request = app.client.get(app.url(path)).header("x-api-key", key).header("accept-encoding", coding);
    match if_none_match {
        Some(etag) => request.header("if-none-match", etag),
        None => request,
    }
}

/// What a response's Vary headers name, lower-cased and joined.
fn vary_of(response: &reqwest::Response) -> String {
    let values = response.headers().get_all("vary").iter().map(|v| v.to_str().unwrap().to_ascii_lowercase());
    values.collect::<Vec<_>>().join(",")
}

/// RFC 9110 15.4.5: a 304 carries the ETag the 200 for the same request would carry, so a cache
/// matches it to the compressed response it stored; for a detail, a page, a ranking and a
/// statistic, in either coding and in none.
#[tokio::test]
async fn a_304_repeats_the_etag_of_the_200_it_stands_for() {
    let app = catalog().await;
    let (_, _, key) = app.key(Plan::Builder).await;
    let paths = [DETAIL, "/v1/firearms?per_page=5", "/v1/firearms/top?stat=heaviest", "/v1/stats/summary"];
    for path in paths {
        for coding in ["gzip", "br", "identity"] {
            let ask = |if_none_match| asked(&app, path, &key, coding, if_none_match);
            let full = ask(None).send().await.unwrap();
            assert_eq!(full.status(), 200, "{path} {coding}");
            let etag = full.headers()["etag"].to_str().unwrap().to_owned();
            if coding != "identity" {
                assert_eq!(full.headers()["content-encoding"], coding, "{path}");
                assert!(etag.ends_with(&format!("-{coding}\"")), "{path}: {etag}");
            }
            assert!(vary_of(&full).contains("accept-encoding"), "{path} {coding}: 200 Vary");
            let not_modified = ask(Some(&etag)).send().await.unwrap();
            assert_eq!(not_modified.status(), 304, "{path} {coding}");
            assert_eq!(not_modified.headers()["etag"].to_str().unwrap(), etag, "{path} {coding}: 304 ETag");
            assert!(vary_of(&not_modified).contains("accept-encoding"), "{path} {coding}: 304 Vary");
        }
    }
}

/// A compressed body to its plain bytes.
type Decoder = fn(&[u8]) -> Vec<u8>;

/// A large answer (a country's arsenal) in each coding: it decodes to the plain answer, its ETag
/// names the coding and revalidates, and asked again it is the same bytes (kept compressed).
#[tokio::test]
async fn a_large_answer_is_compressed_once_in_either_coding_and_decodes_to_the_plain_one() {
    const ARSENAL: &str = "/v1/countries/US/arsenal";
    let app = catalog().await;
    let (_, _, key) = app.key(Plan::Builder).await;
    let plain = app.get_with_key(ARSENAL, &key).await;
    let plain_etag = plain.headers()["etag"].to_str().unwrap().to_owned();
    let plain_body = plain.bytes().await.unwrap();
    assert!(plain_body.len() > 4096, "large enough to be kept compressed: {} bytes", plain_body.len());
    let decoders: [(&str, Decoder); 2] = [
        ("gzip", |bytes| {
            let mut decoded = Vec::new();
            flate2::read::GzDecoder::new(bytes).read_to_end(&mut decoded).unwrap();
            decoded
        }),
        ("br", |bytes| {
            let mut decoded = Vec::new();
            brotli::Decompressor::new(bytes, 4096).read_to_end(&mut decoded).unwrap();
            decoded
        }),
    ];
    for (coding, decode) in decoders {
        let ask = |if_none_match| asked(&app, ARSENAL, &key, coding, if_none_match);
        let first = ask(None).send().await.unwrap();
        assert_eq!(first.status(), 200);
        assert_eq!(first.headers()["content-encoding"], coding);
        let etag = first.headers()["etag"].to_str().unwrap().to_owned();
        assert_eq!(etag, format!("{}-{coding}\"", plain_etag.trim_end_matches('"')));
        let first = first.bytes().await.unwrap();
        assert!(
            first.len() < plain_body.len() / 2,
            "{coding}: {} of {} bytes",
            first.len(),
            plain_body.len()
        );
        assert_eq!(decode(&first), plain_body, "{coding} decodes to the plain answer");

        let again = ask(None).send().await.unwrap();
        assert_eq!(again.headers()["etag"].to_str().unwrap(), etag);
        assert!(again.headers().contains_key("x-request-id"));
        assert_eq!(again.bytes().await.unwrap(), first, "{coding}: the same bytes again");
        assert_eq!(ask(Some(&etag)).send().await.unwrap().status(), 304);
    }
    let head = app.client.head(app.url(ARSENAL)).header("x-api-key", &key).header("accept-encoding", "gzip");
    assert_eq!(head.send().await.unwrap().status(), 200);
}

#[tokio::test]
async fn every_answer_says_how_it_may_be_cached() {
    let app = catalog().await;
    let (_, _, key) = app.key(Plan::Builder).await;
    let keyed = app.get_with_key(DETAIL, &key).await;
    assert_eq!(keyed.headers()["cache-control"], "private, no-cache");
    let vary = keyed
        .headers()
        .get_all("vary")
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .collect::<Vec<_>>()
        .join(",");
    assert!(vary.contains("x-api-key"), "{vary}");
    assert_eq!(app.get("/v1/docs/limits").await.headers()["cache-control"], "public, max-age=60");
    assert_eq!(app.get("/health").await.headers()["cache-control"], "no-store");
    assert_eq!(app.get(DETAIL).await.headers()["cache-control"], "no-store", "a 401");
}
