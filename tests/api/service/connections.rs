//! Connection hygiene over real sockets: slow clients are cut by the header-read timeout while a
//! normal client is served, a slow handler is answered 503 in the envelope, and shutdown finishes
//! within its grace period even with a half-sent request open.

use std::time::{Duration, Instant};

use axum::Router;
use axum::routing::get;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::support::{Backend, TestApp, error_reason};

/// One slowloris client: a request head sent a byte at a time and never finished. Answers how long
/// the server kept it open (None: still open after `give_up`).
async fn slow_client(addr: std::net::SocketAddr, give_up: Duration) -> Option<Duration> {
    let started = Instant::now();
    let mut stream = TcpStream::connect(addr).await.ok()?;
    stream.write_all(b"GET /health HTTP/1.1\r\nhost: x\r\nx-slow: ").await.ok()?;
    let mut buffer = [0u8; 256];
    while started.elapsed() < give_up {
        tokio::select! {
            read = stream.read(&mut buffer) => match read {
                Ok(0) | Err(_) => return Some(started.elapsed()),
                Ok(_) => {}
            },
            _ = tokio::time::sleep(Duration::from_millis(250)) => {
                if stream.write_all(b"a").await.is_err() {
                    return Some(started.elapsed());
                }
            }
        }
    }
    None
}

#[tokio::test]
async fn five_hundred_slow_connections_are_cut_and_a_normal_client_is_served() {
    let app = TestApp::spawn_with(Backend::Sqlite, None, |config| {
        config.connections.header_read_timeout = Duration::from_secs(1);
    })
    .await;
    let slow: Vec<_> =
        (0..500).map(|_| tokio::spawn(slow_client(app.addr, Duration::from_secs(8)))).collect();
    tokio::time::sleep(Duration::from_millis(300)).await;

    let asked = Instant::now();
    let normal = app.get("/health").await;
    assert_eq!(normal.status(), 200);
    assert!(asked.elapsed() < Duration::from_secs(1), "a normal client waited {:?}", asked.elapsed());

    let mut cut = 0;
    for client in slow {
        let held = client.await.unwrap().expect("a slow client was cut, not held open");
        assert!(held < Duration::from_secs(4), "held {held:?}");
        cut += 1;
    }
    assert_eq!(cut, 500);
}

#[tokio::test]
async fn a_request_past_the_request_timeout_is_503_in_the_envelope() {
    let slow = Router::new().route(
        "/test/slow",
        get(|| async {
            tokio::time::sleep(Duration::from_secs(5)).await;
            "late"
        }),
    );
    let app = TestApp::spawn_with(Backend::Sqlite, Some(slow), |config| {
        config.connections.request_timeout = Duration::from_millis(300);
    })
    .await;
    let response = app.get("/test/slow").await;
    assert_eq!(response.headers()["retry-after"], "5");
    let (status, reason, _) = error_reason(response).await;
    assert_eq!((status, reason.as_str()), (503, "DEPENDENCY_UNAVAILABLE"));
}

#[tokio::test]
async fn shutdown_finishes_within_the_grace_period_with_a_half_sent_request_open() {
    let app = TestApp::spawn_with(Backend::Sqlite, None, |config| {
        config.connections.header_read_timeout = Duration::from_secs(60);
        config.connections.shutdown_grace = Duration::from_millis(500);
    })
    .await;
    let mut half_sent = TcpStream::connect(app.addr).await.unwrap();
    half_sent
        .write_all(b"POST /v1/firearms/resolve HTTP/1.1\r\nhost: x\r\ncontent-length: 100\r\n\r\n{\"qu")
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;

    let stopping = Instant::now();
    tokio::time::timeout(Duration::from_secs(5), app.stop())
        .await
        .expect("the server stops within its grace period")
        .unwrap();
    assert!(stopping.elapsed() < Duration::from_secs(3), "took {:?}", stopping.elapsed());
    let mut buffer = [0u8; 64];
    let closed = tokio::time::timeout(Duration::from_secs(1), half_sent.read(&mut buffer)).await;
    assert!(matches!(closed, Ok(Ok(_)) | Ok(Err(_))), "the half-sent request's connection was closed");
}
