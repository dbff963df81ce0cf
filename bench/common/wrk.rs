//! The load tool outside the process: `wrk`, on the core the server does not use.
//!
//! An in-process client costs as much per request as a fast server, so against the fixed-JSON
//! ceiling it measures itself (about 40,000 req/s on one core here, while the ceiling answers
//! over 90,000 to wrk). Where `wrk` is installed (`apt-get install wrk`), the ratio benches load
//! through it, pinned with `taskset -c 1` while the bench runs under `taskset -c 0`.

use std::process::Command;
use std::time::Duration;

use super::load::{CONNECTIONS, Result};

/// Set in the pinned run that `rerun_pinned` starts.
const PINNED: &str = "ARMORY_BENCH_PINNED";

/// Run this bench again under `taskset -c 0` (the server's core; wrk takes core 1), its standard
/// error to a temporary file, unless this run is that one, so that `cargo bench` alone measures the way bench/README.md says. Returns
/// the pinned run's exit code, or None when this process is the one to measure (already pinned,
/// or no wrk and taskset to pin with).
#[allow(dead_code)] // used by the benches that serve in-process; catalog_reads pins its server itself
pub fn rerun_pinned() -> Option<i32> {
    if std::env::var_os(PINNED).is_some() || !available() {
        return None;
    }
    let bench = std::env::current_exe().ok()?;
    // The servers log as a node does (a request line each, `armory::telemetry`); their lines go
    // to a file, as a node's go to a file or a journal, rather than over the bench's own output.
    let log = std::env::temp_dir().join(format!("armory-bench-{}.log", std::process::id()));
    let status = Command::new("taskset")
        .args(["-c", "0"])
        .arg(bench)
        .args(std::env::args_os().skip(1))
        .env(PINNED, "1")
        .stderr(std::fs::File::create(&log).ok()?)
        .status()
        .ok()?;
    if status.success() {
        let _ = std::fs::remove_file(&log);
    } else {
        eprintln!("the pinned run failed; its standard error is in {}", log.display());
    }
    Some(status.code().unwrap_or(1))
}

/// Whether this process is the pinned run `rerun_pinned` started (its standard error is a file).
#[allow(dead_code)] // used by the benches that serve in-process
pub fn is_pinned_run() -> bool {
    std::env::var_os(PINNED).is_some()
}

/// Whether `wrk` and `taskset` are on the PATH.
pub fn available() -> bool {
    let runs = |program: &str, arg: &str| {
        Command::new(program).arg(arg).output().is_ok_and(|o| o.status.success() || !o.stdout.is_empty())
    };
    runs("taskset", "--version") && Command::new("wrk").arg("--version").output().is_ok()
}

/// Load `url` with wrk pinned to core 1 for `duration`, each request with `headers`: requests
/// per second and p50/p99.
#[allow(dead_code)] // catalog_reads loads lists of urls (`load_each`)
pub fn load(url: &str, headers: &[(&str, &str)], duration: Duration) -> Result {
    load_each(&[url.to_owned()], headers, duration)
}

/// `load`, each request asking the next of `urls` in turn (one server: they differ in path and
/// query only).
pub fn load_each(urls: &[String], headers: &[(&str, &str)], duration: Duration) -> Result {
    let mut command = Command::new("taskset");
    command.args(["-c", "1", "wrk", "-t1", "--latency"]);
    command.arg(format!("-c{CONNECTIONS}")).arg(format!("-d{}s", duration.as_secs()));
    for (name, value) in headers {
        command.args(["-H", &format!("{name}: {value}")]);
    }
    let script = (urls.len() > 1).then(|| rotation_script(urls));
    if let Some(script) = &script {
        command.arg("-s").arg(script);
    }
    let output = command.arg(&urls[0]).output().expect("wrk runs");
    if let Some(script) = script {
        let _ = std::fs::remove_file(script);
    }
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(!text.contains("Non-2xx"), "the benchmark expects 200s:\n{text}");
    let field = |prefix: &str| {
        text.lines()
            .find_map(|line| line.trim().strip_prefix(prefix).map(|rest| rest.trim().to_owned()))
            .unwrap_or_else(|| panic!("wrk printed no {prefix}:\n{text}"))
    };
    Result {
        rps: field("Requests/sec:").parse().expect("a rate"),
        p50: latency(&field("50%")),
        p99: latency(&field("99%")),
    }
}

/// A wrk script asking the paths of `urls` in turn, written to a temporary file.
fn rotation_script(urls: &[String]) -> std::path::PathBuf {
    let paths: Vec<String> = urls
        .iter()
        .map(|url| {
            let path = url.splitn(4, '/').nth(3).unwrap_or_default();
            format!("\"/{}\"", path.replace('\\', "\\\\").replace('"', "\\\""))
        })
        .collect();
    let script = format!(
        "paths = {{{}}}\nlocal at = 0\nrequest = function()\n  at = at % #paths + 1\n  return wrk.format(nil, paths[at])\nend\n",
        paths.join(", ")
    );
    let file = std::env::temp_dir().join(format!("armory-bench-paths-{}.lua", std::process::id()));
    std::fs::write(&file, script).expect("the wrk script is written");
    file
}

/// wrk's latency forms: `651.00us`, `1.25ms`, `2.01s`.
fn latency(text: &str) -> Duration {
    let (number, unit) = text.split_at(text.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(text.len()));
    let value: f64 = number.parse().unwrap_or(0.0);
    let seconds = match unit {
        "us" => value / 1e6,
        "ms" => value / 1e3,
        "s" => value,
        _ => 0.0,
    };
    Duration::from_secs_f64(seconds)
}
