//! HTTPS served directly: a client that checks the certificate is served (and one that does not
//! trust it is refused), a renewed certificate is picked up without a restart, and an API key sent
//! in the clear from off this machine is refused unless a trusted proxy says the client used HTTPS.

use std::time::{Duration, Instant};

use armory::access::plan::Plan;
use armory::config::TlsFiles;

use crate::support::{Backend, TestApp, error_reason};

struct Certificate {
    pem: String,
}

/// A self-signed certificate for localhost, written to `dir` as cert.pem and key.pem.
fn issue(dir: &std::path::Path) -> Certificate {
    let issued = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).unwrap();
    let pem = issued.cert.pem();
    // Written to a temporary name and renamed, as a renewal tool would.
    std::fs::write(dir.join("key.pem.new"), issued.signing_key.serialize_pem()).unwrap();
    std::fs::write(dir.join("cert.pem.new"), &pem).unwrap();
    std::fs::rename(dir.join("key.pem.new"), dir.join("key.pem")).unwrap();
    std::fs::rename(dir.join("cert.pem.new"), dir.join("cert.pem")).unwrap();
    Certificate { pem }
}

fn client_trusting(certificate: &Certificate) -> reqwest::Client {
    reqwest::Client::builder()
        .add_root_certificate(reqwest::Certificate::from_pem(certificate.pem.as_bytes()).unwrap())
        .build()
        .unwrap()
}

#[tokio::test]
async fn https_with_a_checked_certificate_that_reloads_without_a_restart() {
    let dir = std::env::temp_dir().join(format!("armory-tls-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let first = issue(&dir);
    let files = TlsFiles { cert: dir.join("cert.pem"), key: dir.join("key.pem") };
    let app = TestApp::spawn_with(Backend::Sqlite, None, |config| config.tls = Some(files)).await;
    let url = format!("https://localhost:{}/health", app.addr.port());

    let answer =
        client_trusting(&first).get(&url).send().await.expect("a client that checks the certificate");
    assert_eq!(answer.status(), 200);
    assert!(answer.headers().contains_key("x-request-id"));
    assert!(reqwest::Client::new().get(&url).send().await.is_err(), "an untrusted certificate is refused");

    // Renewal: new files, picked up within a few seconds, no restart.
    std::thread::sleep(Duration::from_millis(1100)); // a new modification time
    let second = issue(&dir);
    let renewed = Instant::now();
    loop {
        if let Ok(answer) = client_trusting(&second).get(&url).send().await {
            assert_eq!(answer.status(), 200);
            break;
        }
        assert!(renewed.elapsed() < Duration::from_secs(10), "the renewed certificate is served");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    assert!(client_trusting(&first).get(&url).send().await.is_err(), "the old certificate is gone");
    let _ = std::fs::remove_dir_all(&dir);
}

/// This machine's address on its default route, if it has one (the test needs a non-loopback path).
fn non_loopback_address() -> Option<std::net::IpAddr> {
    let socket = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
    socket.connect("192.0.2.1:9").or_else(|_| socket.connect("8.8.8.8:53")).ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_loopback() && !ip.is_unspecified()).then_some(ip)
}

#[tokio::test]
async fn a_key_in_the_clear_from_off_this_machine_is_refused() {
    let Some(ip) = non_loopback_address() else {
        eprintln!("skipped: no non-loopback address on this machine");
        return;
    };
    let app = TestApp::with_catalog(Backend::Sqlite, |config| {
        config.bind = "0.0.0.0:0".parse().unwrap();
        config.trusted_proxies = vec![format!("{ip}/32")];
    })
    .await;
    let (_, _, key) = app.key(Plan::Builder).await;
    let port = app.addr.port();
    let path = "/v1/manufacturers/glock";
    let off_machine = format!("http://{ip}:{port}{path}");

    let refused = app.client.get(&off_machine).header("x-api-key", &key).send().await.unwrap();
    let (status, reason, body) = error_reason(refused).await;
    assert_eq!((status, reason.as_str()), (403, "ACTION_NOT_ALLOWED"));
    assert!(body["error"]["message"].as_str().unwrap().contains("HTTPS"));

    let on_loopback = app.client.get(format!("http://127.0.0.1:{port}{path}")).header("x-api-key", &key);
    assert_eq!(on_loopback.send().await.unwrap().status(), 200);
    // The trusted proxy (this test, from `ip`) says its client used HTTPS.
    let proxied = app.client.get(&off_machine).header("x-api-key", &key).header("x-forwarded-proto", "https");
    assert_eq!(proxied.send().await.unwrap().status(), 200);
    // Without a key there is nothing to protect: the usual 401.
    let (status, reason, _) = error_reason(app.client.get(&off_machine).send().await.unwrap()).await;
    assert_eq!((status, reason.as_str()), (401, "AUTH_REQUIRED"));
}

/// nginx or Caddy on the same host: the proxy is loopback, and its X-Forwarded-Proto decides. A
/// loopback peer that is not a configured proxy stays exempt (local tools).
#[tokio::test]
async fn a_local_trusted_proxys_plain_http_is_refused() {
    let app = TestApp::with_catalog(Backend::Sqlite, |config| {
        config.trusted_proxies = vec!["127.0.0.1".to_owned()];
    })
    .await;
    let (_, _, key) = app.key(Plan::Builder).await;
    let path = "/v1/manufacturers/glock";
    let through_proxy = |proto: &'static str| {
        app.client
            .get(app.url(path))
            .header("x-api-key", &key)
            .header("x-forwarded-for", "198.51.100.7")
            .header("x-forwarded-proto", proto)
            .send()
    };
    let (status, reason, body) = error_reason(through_proxy("http").await.unwrap()).await;
    assert_eq!((status, reason.as_str()), (403, "ACTION_NOT_ALLOWED"));
    assert!(body["error"]["message"].as_str().unwrap().contains("use HTTPS"));
    assert_eq!(through_proxy("https").await.unwrap().status(), 200);
    // The proxy's host itself, asked directly with no forwarded scheme: a local tool.
    assert_eq!(app.client.get(app.url(path)).header("x-api-key", &key).send().await.unwrap().status(), 200);

    // Without the proxy configured, loopback is exempt and the header is nobody's word.
    let plain = TestApp::with_catalog(Backend::Sqlite, |_| {}).await;
    let (_, _, key) = plain.key(Plan::Builder).await;
    let asked =
        plain.client.get(plain.url(path)).header("x-api-key", &key).header("x-forwarded-proto", "http");
    assert_eq!(asked.send().await.unwrap().status(), 200);
}
