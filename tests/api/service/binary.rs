//! The `armory` executable itself: start-up errors and signals.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::support::{Backend, TestDatabase};

const ARMORY: &str = env!("CARGO_BIN_EXE_armory");

#[test]
fn a_malformed_database_url_is_one_line_and_exit_1() {
    let output = Command::new(ARMORY).args(["migrate", "--database-url", "nosuch://x"]).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("ARMORY_DATABASE_URL"), "{stderr}");
}

#[test]
fn an_unreachable_database_is_one_line_and_exit_1() {
    let output = Command::new(ARMORY)
        .args(["serve", "--bind", "127.0.0.1:0"])
        .env("ARMORY_DATABASE_URL", "postgres://armory@127.0.0.1:1/gone")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("ARMORY_DATABASE_URL"), "{stderr}");
}

#[test]
fn synth_refuses_a_directory_that_is_not_empty() {
    let dir = std::env::temp_dir().join(format!("armory-synth-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("keep.toml"), "# real data\n").unwrap();
    let output = Command::new(ARMORY)
        .args(["catalog", "synth", "--firearms", "10", "--seed", "1"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("not empty"));
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "nothing was written beside it");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `GET /` points a newcomer to the documentation.
#[tokio::test]
async fn the_root_is_a_small_index_of_where_to_go() {
    let app = crate::support::TestApp::spawn(Backend::Sqlite).await;
    let index: serde_json::Value = app.get("/").await.json().await.unwrap();
    assert_eq!((index["docs"].as_str(), index["openapi"].as_str()), (Some("/docs"), Some("/openapi.json")));
}

#[tokio::test]
async fn sigterm_stops_the_server_with_exit_0() {
    let database = TestDatabase::create(Backend::Sqlite).await;
    // No subcommand: `armory` alone serves, with serve's options.
    let mut child = Command::new(ARMORY)
        .args(["--bind", "127.0.0.1:0"])
        .env("ARMORY_DATABASE_URL", &database.url)
        .env("ARMORY_ENV", "test")
        .env_remove("ARMORY_LOG_FORMAT")
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    // Keep draining stderr for the server's whole life; it logs every request there.
    let (address_tx, address_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if let Some(rest) = line.split("listening on http://").nth(1) {
                let _ = address_tx.send(rest.split_whitespace().next().unwrap_or_default().to_owned());
            }
        }
    });
    let address = match address_rx.recv_timeout(Duration::from_secs(20)) {
        Ok(address) => address,
        Err(_) => {
            let _ = child.kill();
            panic!("the server did not announce its address");
        }
    };

    let health = reqwest::get(format!("http://{address}/health")).await.unwrap();
    assert_eq!(health.status(), 200);

    Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    let status = tokio::task::spawn_blocking(move || {
        for _ in 0..100 {
            if let Some(status) = child.try_wait().unwrap() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = child.kill();
        None
    })
    .await
    .unwrap()
    .expect("the server exits within 10 s");
    assert_eq!(status.code(), Some(0));
}
