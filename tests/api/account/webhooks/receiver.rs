//! A webhook receiver on a real loopback socket: it records every request and answers the
//! statuses it was scripted with, then a fixed one.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::response::IntoResponse;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

#[derive(Clone, Debug)]
pub struct Received {
    pub path: String,
    pub headers: HeaderMap,
    pub body: Bytes,
    pub at: Instant,
}

impl Received {
    pub fn header(&self, name: &str) -> String {
        self.headers.get(name).unwrap_or_else(|| panic!("{name} is sent")).to_str().unwrap().to_owned()
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("the body is JSON")
    }

    /// Check X-Webhook-Signature with an HMAC computed here, independently of the service's signer:
    /// `t=<unix>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`, no spaces, t within 300 s.
    pub fn assert_signed_with(&self, secret: &str) {
        let header = self.header("x-webhook-signature");
        assert!(!header.contains(' '), "{header}");
        let (t, v1) = header.split_once(",v1=").expect("t=...,v1=...");
        let t = t.strip_prefix("t=").expect("starts with t=");
        let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
        mac.update(t.as_bytes());
        mac.update(b".");
        mac.update(&self.body);
        let expected = hex::encode(mac.finalize().into_bytes());
        assert_eq!(v1, expected, "the signature verifies");
        assert!(v1.chars().all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c)), "lower-case hex");
        let now = time::OffsetDateTime::now_utc().unix_timestamp();
        assert!((now - t.parse::<i64>().unwrap()).abs() <= 300, "a fresh timestamp");
    }
}

#[derive(Clone)]
struct Shared {
    log: Arc<Mutex<Vec<Received>>>,
    script: Arc<Mutex<VecDeque<u16>>>,
    otherwise: u16,
    /// How long each answer takes.
    delay: std::time::Duration,
}

pub struct Receiver {
    pub addr: SocketAddr,
    shared: Shared,
    task: tokio::task::JoinHandle<()>,
}

impl Receiver {
    /// Answers `script` in order, then `otherwise` forever.
    pub async fn start(script: &[u16], otherwise: u16) -> Self {
        Self::slow(script, otherwise, std::time::Duration::ZERO).await
    }

    /// Like `start`, but each answer comes `delay` after the request arrived.
    pub async fn slow(script: &[u16], otherwise: u16, delay: std::time::Duration) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let shared = Shared {
            log: Arc::default(),
            script: Arc::new(Mutex::new(script.iter().copied().collect())),
            otherwise,
            delay,
        };
        let router = Router::new().fallback(record).with_state(shared.clone());
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, router).await;
        });
        Self { addr, shared, task }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub fn received(&self) -> Vec<Received> {
        self.shared.log.lock().unwrap().clone()
    }

    pub fn count(&self) -> usize {
        self.shared.log.lock().unwrap().len()
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn record(
    State(shared): State<Shared>,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> impl IntoResponse {
    let path = uri.path().to_owned();
    shared.log.lock().unwrap().push(Received { path, headers, body, at: Instant::now() });
    let status = shared.script.lock().unwrap().pop_front().unwrap_or(shared.otherwise);
    tokio::time::sleep(shared.delay).await;
    // A redirect names a target, which the service must not follow.
    (StatusCode::from_u16(status).unwrap(), [(header::LOCATION, "/elsewhere")])
}
