use armory::http::AppState;
use armory::http::edge::body_limit::ApiJson;
use axum::Router;
use axum::routing::{get, post};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::support::{Backend, TestApp, error_reason};

crate::on_each_database!(setup = crate::support::fresh_app; an_unknown_path_is_route_not_found, an_unknown_method_is_route_not_found);

async fn an_unknown_path_is_route_not_found(app: TestApp) {
    let (status, reason, body) = error_reason(app.get("/v1/nope").await).await;
    assert_eq!((status, reason.as_str()), (404, "ROUTE_NOT_FOUND"));
    assert_eq!(body["error"]["code"], "NOT_FOUND");
}

async fn an_unknown_method_is_route_not_found(app: TestApp) {
    let response = app.client.delete(app.url("/health")).send().await.unwrap();
    let (status, reason, _) = error_reason(response).await;
    assert_eq!((status, reason.as_str()), (404, "ROUTE_NOT_FOUND"));
}

/// Handlers the product does not have, to reach the middleware from a test.
fn probe_routes() -> Router<AppState> {
    Router::new()
        .route(
            "/test/echo",
            post(|ApiJson(body): ApiJson<serde_json::Value>| async move { axum::Json(body) }),
        )
        .route("/test/panic", get(deliberate_panic))
}

async fn deliberate_panic() -> &'static str {
    panic!("deliberate test panic")
}

async fn probe_app() -> TestApp {
    TestApp::spawn_with(Backend::Sqlite, Some(probe_routes()), |_| {}).await
}

#[tokio::test]
async fn a_caller_request_id_is_echoed_and_a_bad_one_replaced() {
    let app = probe_app().await;
    let response =
        app.client.get(app.url("/health")).header("x-request-id", "trace-42.a_b").send().await.unwrap();
    assert_eq!(response.headers()["x-request-id"], "trace-42.a_b");

    let response = app
        .client
        .get(app.url("/v1/nope"))
        .header("x-request-id", "bad id\twith spaces")
        .send()
        .await
        .unwrap();
    let id = response.headers()["x-request-id"].to_str().unwrap().to_owned();
    assert_ne!(id, "bad id\twith spaces");
    let (_, _, body) = error_reason(response).await;
    assert_eq!(body["request_id"], id.as_str());
}

#[tokio::test]
async fn malformed_json_is_invalid_json() {
    let app = probe_app().await;
    let response = app
        .client
        .post(app.url("/test/echo"))
        .header("content-type", "application/json")
        .body("{\"a\": ")
        .send()
        .await
        .unwrap();
    let (status, reason, body) = error_reason(response).await;
    assert_eq!((status, reason.as_str()), (400, "INVALID_JSON"));
    assert_eq!(body["error"]["code"], "VALIDATION_ERROR");

    let ok = app.client.post(app.url("/test/echo")).json(&serde_json::json!({"a": 1})).send().await.unwrap();
    assert_eq!(ok.status(), 200);
}

/// Every body is a JSON object: an array where an object is expected is refused, not read as the
/// struct's fields in order.
#[tokio::test]
async fn a_json_body_that_is_not_an_object_is_refused() {
    let app = probe_app().await;
    for body in [serde_json::json!([]), serde_json::json!([1, 2]), serde_json::json!("text")] {
        let response = app.client.post(app.url("/test/echo")).json(&body).send().await.unwrap();
        let (status, reason, _) = error_reason(response).await;
        assert_eq!((status, reason.as_str()), (400, "INVALID_REQUEST"), "{body}");
    }
}

#[tokio::test]
async fn a_declared_oversize_body_is_refused_before_it_is_read() {
    let app = probe_app().await;
    // Declare 2 MB and send nothing: the answer must come from the header alone.
    let mut stream = tokio::net::TcpStream::connect(app.addr).await.unwrap();
    stream
        .write_all(b"POST /test/echo HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 2000000\r\n\r\n")
        .await
        .unwrap();
    let head = read_response(&mut stream).await;
    assert!(head.starts_with("HTTP/1.1 413"), "{head}");
    assert!(head.contains("\"reason\":\"PAYLOAD_TOO_LARGE\""), "{head}");
    assert!(head.contains("\"maxBytes\":1048576"), "{head}");
}

#[tokio::test]
async fn an_oversize_chunked_body_is_refused_by_counting() {
    let app = probe_app().await;
    let mut stream = tokio::net::TcpStream::connect(app.addr).await.unwrap();
    stream
        .write_all(b"POST /test/echo HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n")
        .await
        .unwrap();
    let chunk = vec![b' '; 64 * 1024];
    for _ in 0..20 {
        let header = format!("{:x}\r\n", chunk.len());
        if stream.write_all(header.as_bytes()).await.is_err()
            || stream.write_all(&chunk).await.is_err()
            || stream.write_all(b"\r\n").await.is_err()
        {
            break; // the server may stop reading once it has refused the body
        }
    }
    let _ = stream.write_all(b"0\r\n\r\n").await;
    let head = read_response(&mut stream).await;
    assert!(head.starts_with("HTTP/1.1 413"), "{head}");
    assert!(head.contains("\"maxBytes\":1048576"), "{head}");
}

async fn read_response(stream: &mut tokio::net::TcpStream) -> String {
    let mut buffer = vec![0u8; 8192];
    let mut read = 0;
    loop {
        let n = tokio::time::timeout(std::time::Duration::from_secs(5), stream.read(&mut buffer[read..]))
            .await
            .expect("the server answers")
            .unwrap_or(0);
        read += n;
        let text = String::from_utf8_lossy(&buffer[..read]).to_string();
        if n == 0 || text.contains("\"success\":false") && text.ends_with('}') {
            return text;
        }
    }
}

#[tokio::test]
async fn a_panic_is_internal_error_and_the_server_keeps_serving() {
    let app = probe_app().await;
    let (status, reason, body) = error_reason(app.get("/test/panic").await).await;
    assert_eq!((status, reason.as_str()), (500, "INTERNAL_ERROR"));
    assert!(!body.to_string().contains("deliberate"), "5xx bodies carry no internals");
    assert_eq!(app.get("/health").await.status(), 200);
}

#[tokio::test]
async fn undeclared_query_parameters_are_ignored() {
    let app = probe_app().await;
    assert_eq!(app.get("/health?verbose=1&foo=bar").await.status(), 200);
}

/// Sends raw bytes and reads the whole answer: (status, head, body).
async fn raw_exchange(addr: std::net::SocketAddr, request: &[u8]) -> (u16, String, serde_json::Value) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(request).await.unwrap();
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(std::time::Duration::from_secs(5), stream.read_to_end(&mut answer)).await;
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let (head, body) = answer.split_once("\r\n\r\n").expect("a whole answer");
    let status = head[9..12].parse().unwrap();
    (status, head.to_ascii_lowercase(), serde_json::from_str(body).unwrap_or(serde_json::Value::Null))
}

/// What the framework or hyper answers by itself (a path that is not UTF-8, an unknown method, a
/// URI or header section too large, a Content-Length that is not a number) is the envelope too.
#[tokio::test]
async fn framework_rejections_are_in_the_envelope_with_a_request_id() {
    let app = probe_app().await;
    let long_uri = [
        b"GET /v1/firearms?q=".as_slice(),
        &vec![b'a'; 70_000],
        b" HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n",
    ]
    .concat();
    let big_header = [
        b"GET /health HTTP/1.1\r\nhost: x\r\nx-big: ".as_slice(),
        &vec![b'a'; 500_000],
        b"\r\nconnection: close\r\n\r\n",
    ]
    .concat();
    // Past the service's own limit (64 KiB) but within what hyper buffers: refused all the same.
    let header_over_limit = [
        b"GET /health HTTP/1.1\r\nhost: x\r\nx-big: ".as_slice(),
        &vec![b'a'; 70_000],
        b"\r\nconnection: close\r\n\r\n",
    ]
    .concat();
    let cases: [(&[u8], u16); 6] = [
        (b"GET /v1/firearms/%FF HTTP/1.1\r\nhost: x\r\nx-api-key: nope\r\nconnection: close\r\n\r\n", 401),
        (b"PATCH /health HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n", 404),
        (&long_uri, 414),
        (&big_header, 431),
        (&header_over_limit, 431),
        (b"POST /test/echo HTTP/1.1\r\nhost: x\r\ncontent-length: abc\r\nconnection: close\r\n\r\n", 400),
    ];
    for (request, expected) in cases {
        let (status, head, body) = raw_exchange(app.addr, request).await;
        assert_eq!(status, expected, "{head}");
        assert!(head.contains("content-type: application/json"), "{head}");
        let request_id = head.lines().find_map(|l| l.strip_prefix("x-request-id: ")).expect("X-Request-Id");
        assert_eq!(body["success"], false);
        assert_eq!(body["request_id"], request_id);
        assert!(body["error"]["reason"].is_string());
    }
}

/// A path id that is not valid UTF-8 once decoded is a 400 naming the path, in the envelope.
#[tokio::test]
async fn a_path_that_is_not_utf8_is_invalid_parameter() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (_, _, key) = app.key(armory::access::plan::Plan::Builder).await;
    let response = app.get_with_key("/v1/firearms/%FF", &key).await;
    let (status, reason, _) = error_reason(response).await;
    assert_eq!((status, reason.as_str()), (400, "INVALID_PARAMETER"));
}
