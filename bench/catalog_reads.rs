//! Catalog reads from the in-memory snapshot: firearm detail, a filtered and sorted list, and a
//! search, against the real `armory` binary serving the bundled catalog and then a synthetic
//! catalog of 100,000 firearms (`ARMORY_BENCH_FIREARMS` changes the size; 0 skips it).
//!
//! Run: `cargo bench --bench catalog_reads` (see bench/README.md). Prints, per catalog and
//! operation, requests per second and p50/p99 latency, then the server's peak resident memory
//! (VmHWM from /proc) and how long it took to answer /ready after start; at the large catalog,
//! each figure the issues set a target for with the target and pass or fail, including the import's
//! time and peak memory on SQLite and on PostgreSQL, and how long one changed record takes from
//! `catalog import` to being served by the running node.
//!
//! Where `wrk` and `taskset` are installed, the server runs on core 0 and wrk loads it from
//! core 1 (the way the issues measured); otherwise an in-process client shares the cores.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use armory::access::plan::Plan;
use armory::db::Db;

#[path = "common/load.rs"]
mod load;
#[path = "common/wrk.rs"]
mod wrk;

use load::{CONNECTIONS, Result, load_each};

/// Each read is loaded `ROUNDS` times for `ROUND` and judged by the medians. One load of 6 s
/// (until the twenty-second session) let a burst of another tenant's work on this shared box set
/// the p99 of whichever read it fell on: a 100 ms stall holds all 16 connections, and at 30,000
/// requests a second a few such stalls are the slowest per cent. Three loads (until the
/// twenty-fourth session) still let such bursts reach two of the three: the full-name search's
/// loads ran 2.14, 2.25 and 1.28 ms at a p50 of 0.53 ms. Every round's p99 is printed.
const ROUNDS: usize = 5;
const ROUND: Duration = Duration::from_secs(2);
const ARMORY: &str = env!("CARGO_BIN_EXE_armory");

#[tokio::main]
async fn main() {
    let scratch = std::env::temp_dir().join(format!("armory-bench-reads-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let client = if wrk::available() {
        "server on core 0, wrk on core 1"
    } else {
        "no wrk: an in-process client shares the cores"
    };
    println!(
        "{CONNECTIONS} connections, {ROUNDS} loads of {} s per operation (medians), release server process, {client}",
        ROUND.as_secs()
    );

    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    measure("bundled catalog", &data, &scratch.join("bundled.db")).await;

    let firearms: usize =
        std::env::var("ARMORY_BENCH_FIREARMS").ok().and_then(|v| v.parse().ok()).unwrap_or(100_000);
    if firearms > 0 {
        let dir = scratch.join("synth");
        run(Command::new(ARMORY)
            .args(["catalog", "synth", "--firearms", &firearms.to_string(), "--seed", "1"])
            .arg(&dir));
        measure(&format!("synthetic catalog, {firearms} firearms"), &dir, &scratch.join("synth.db")).await;
        import_into_postgres(&dir).await;
    }
    let _ = std::fs::remove_dir_all(&scratch);
}

async fn measure(label: &str, data: &Path, db_file: &Path) {
    let url = format!("sqlite://{}", db_file.display());
    let (import, import_peak) = timed_import(&url, data);
    println!("\n== {label} (import {import:.1} s, peak {import_peak} MiB)");
    let large = label.starts_with("synthetic");
    if large {
        verdict("import (SQLite), s", import, 10.0);
        verdict("import (SQLite) peak memory, MiB", import_peak as f64, 1024.0);
    }
    let key = enterprise_key(&url).await;

    // The first start reads and renders the catalog; it then persists the snapshot beside the
    // database (`read::persisted`), which every later start on the same catalog reuses.
    let snapshots = db_file.with_extension("db.snapshots");
    let _ = std::fs::remove_dir_all(&snapshots);
    let (server, base, built) = start_server(&url).await;
    println!("ready after {built:.2} s (first start: the snapshot built)");
    // The node writes the snapshot it built right after it is ready (about a second of its core
    // at 100,000 firearms): the reads are measured once that one-off write is done, not beside it
    // (beside it, the detail's p99 was 3.6 ms against 0.3 ms at p50).
    wait_for_snapshot_file(&snapshots).await;
    // Then, on its low-priority thread, it builds the text index and the arsenals
    // (`Snapshot::build_lazy_indexes`, about a third of a second): a request that needs one waits
    // for that build, so one of each, untimed, waits until the node has settled. Measured beside
    // the build, the first rows' p99 carried it (detail 3.9 ms against 0.3 ms at p50).
    for settled in ["/v1/firearms/by-material?material=steel", "/v1/countries/US/arsenal"] {
        get_json(&reqwest::Client::new(), &format!("{base}{settled}"), &key).await;
    }

    // Generated assets at many different firearms in turn: each is drawn on its first request
    // (that cost is printed apart, drawn once per firearm), then kept (`read::kept_assets`).
    let drawn = sample_firearms(&base, &key, 1000).await;
    first_renders(&base, &key, &drawn).await;
    let asset_urls = |suffix: &str| -> Vec<String> {
        drawn.iter().map(|id| format!("{base}/v1/firearms/{id}/{suffix}")).collect()
    };

    let rifles = sample_rifles(&base, &key).await;
    let (id, name) = rifles[0].clone();
    let detail = get_json(&reqwest::Client::new(), &format!("{base}/v1/firearms/{id}"), &key).await;
    let caliber =
        detail["data"]["calibers"][0]["caliberId"].as_str().expect("the rifle has a cartridge").to_owned();
    let last_word = name.split_whitespace().last().unwrap_or(&name).to_owned();
    // Many firearms' full names in turn, not one name again and again: a search keeps the common
    // words' ranking per index (`read::search::split`), not answers to whole queries.
    let full_names: Vec<String> = rifles
        .iter()
        .map(|(_, name)| format!("{base}/v1/firearms/search?q={}&per_page=20", name.replace(' ', "%20")))
        .collect();
    let one = |name: &'static str, url: String| Row::new(name, vec![url]);
    let arsenal = format!("{base}/v1/countries/US/arsenal");
    let rows = [
        one("detail", format!("{base}/v1/firearms/{id}")),
        one(
            "list (category, sorted by weight)",
            format!("{base}/v1/firearms?category=rifles&sort=weight&per_page=20"),
        ),
        Row::new("search, full name", full_names),
        one("search, one word", format!("{base}/v1/firearms/search?q={last_word}&per_page=20")),
        one(
            "top (heaviest rifles)",
            format!("{base}/v1/firearms/top?stat=heaviest&category=rifles&limit=10"),
        ),
        one(
            "slice by action, page 3",
            format!("{base}/v1/firearms/by-action?action=bolt_action&page=3&per_page=20"),
        ),
        one("stats by category", format!("{base}/v1/stats/by-category")),
        one("game tier-list (overall)", format!("{base}/v1/game/tier-list")),
        one(
            "game tier-list (rifles, damage)",
            format!("{base}/v1/game/tier-list?category=rifles&stat=gameDamage"),
        ),
        // Reads that walked every record per request until the fourteenth session. The filter
        // options name every maker, cartridge and country: some 165 KB at 100,000 firearms, so
        // measured as the arsenal below is.
        one("filter options, gzip", format!("{base}/v1/firearms/filter-options")).asking_gzip(),
        one("filter options, plain", format!("{base}/v1/firearms/filter-options")).for_information(),
        one("a category's firearms, page 3", format!("{base}/v1/categories/rifles/firearms?page=3")),
        one("a cartridge's loads", format!("{base}/v1/calibers/{caliber}/ammunition")),
        one("timeline (rifles from 1950)", format!("{base}/v1/firearms/timeline?category=rifles&from=1950")),
        one("slice by material (steel)", format!("{base}/v1/firearms/by-material?material=steel")),
        one("stats by era (1990s)", format!("{base}/v1/stats/by-era?decade=1990s")),
        // Some 300 KB at 100,000 firearms, answered whole (the contract pages it not). Measured as
        // the HTTP clients most callers use ask for it (Python's requests, browsers: gzip); the
        // uncompressed answer is printed beside it, without a target: its time is copying 300 KB
        // through loopback, not the service's work.
        one("a country's arsenal (US), gzip", arsenal.clone()).asking_gzip(),
        one("a country's arsenal (US), plain", arsenal).for_information(),
        Row::new("silhouette (SVG), 1,000 firearms in turn", asset_urls("silhouette")),
        Row::new("3D model (GLB), 1,000 firearms in turn", asset_urls("model")),
    ];
    for row in &rows {
        let mut headers = vec![("x-api-key", key.as_str())];
        if row.gzip {
            headers.push(("accept-encoding", "gzip"));
        }
        let mut rounds = Vec::with_capacity(ROUNDS);
        for _ in 0..ROUNDS {
            rounds.push(if wrk::available() {
                wrk::load_each(&row.urls, &headers, ROUND)
            } else {
                load_each(&row.urls, &headers, ROUND).await
            });
        }
        let result = Result::median(&rounds);
        result.print(row.name);
        let each: Vec<String> =
            rounds.iter().map(|round| format!("{:.3}", round.p99.as_secs_f64() * 1000.0)).collect();
        println!("{:<36} p99 of each load: {} ms", "", each.join(", "));
        if large && row.targeted {
            // Issue 17: every read under 2 ms p99, one-word search under 1 ms; issue 13: the same 2 ms.
            let target = if row.name == "search, one word" { 1.0 } else { 2.0 };
            verdict(&format!("{}, p99 ms", row.name), result.p99.as_secs_f64() * 1000.0, target);
        }
    }
    let memory = peak_memory_kib(server.0.id()) / 1024;
    println!("server peak memory: {memory} MiB (the node that built the snapshot)");
    drop(server);
    let (server, base, reused) = start_server(&url).await;
    let reused_memory = peak_memory_kib(server.0.id()) / 1024;
    println!(
        "ready after {reused:.2} s (restart: the persisted snapshot reused), peak memory {reused_memory} MiB"
    );
    if large {
        verdict("ready after start (snapshot reused), s", reused, 1.0);
        verdict("server peak memory, MiB", memory.max(reused_memory) as f64, 300.0);
        let served = one_record_change(data, &url, &base, &key, &id, Edit::Rename).await;
        verdict("one-record import until served, s", served, 1.0);
        let served = one_record_change(data, &url, &base, &key, &id, Edit::Reweigh).await;
        verdict("one-record import until served (a figure only), s", served, 1.0);
    }
}

/// One read the bench loads: its label, the urls asked in turn, how it asks and whether its p99
/// is held to a target.
struct Row {
    name: &'static str,
    urls: Vec<String>,
    /// With `Accept-Encoding: gzip`.
    gzip: bool,
    targeted: bool,
}

impl Row {
    fn new(name: &'static str, urls: Vec<String>) -> Self {
        Self { name, urls, gzip: false, targeted: true }
    }

    fn asking_gzip(self) -> Self {
        Self { gzip: true, ..self }
    }

    fn for_information(self) -> Self {
        Self { targeted: false, ..self }
    }
}

/// Start the server on the catalog database `url` and wait until it is ready: the server, its
/// base URL and the seconds it took.
async fn start_server(url: &str) -> (Server, String, f64) {
    let port = free_port();
    let started = Instant::now();
    let mut command = if wrk::available() {
        let mut pinned = Command::new("taskset");
        pinned.args(["-c", "0", ARMORY]);
        pinned
    } else {
        Command::new(ARMORY)
    };
    let server = Server(
        command
            .env("ARMORY_DATABASE_URL", url)
            .env("ARMORY_BIND", format!("127.0.0.1:{port}"))
            .env("ARMORY_ENV", "bench")
            .env("ARMORY_PLAN_LIMITS", "enterprise.per_minute=1000000000,enterprise.per_day=1000000000")
            // The node's default log level (a request line each), to a file as a node's log goes.
            .env_remove("RUST_LOG")
            .stdout(Stdio::null())
            .stderr(server_log())
            .spawn()
            .expect("the armory binary starts"),
    );
    let base = format!("http://127.0.0.1:{port}");
    wait_ready(&base).await;
    (server, base, started.elapsed().as_secs_f64())
}

/// Where the node's log lines go: one file beside the bench's databases, appended to by each
/// start (removed with the scratch folder).
fn server_log() -> Stdio {
    let path =
        std::env::temp_dir().join(format!("armory-bench-reads-{}", std::process::id())).join("server.log");
    match std::fs::OpenOptions::new().create(true).append(true).open(&path) {
        Ok(file) => Stdio::from(file),
        Err(_) => Stdio::null(),
    }
}

/// Wait until the node has persisted its snapshot in `dir`.
async fn wait_for_snapshot_file(dir: &Path) {
    let deadline = Instant::now() + Duration::from_secs(300);
    while Instant::now() < deadline {
        let written = std::fs::read_dir(dir).is_ok_and(|entries| {
            entries.flatten().any(|e| e.path().extension().is_some_and(|ext| ext == "msgpack"))
        });
        if written {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the server never persisted its snapshot in {}", dir.display());
}

/// A one-record change: a new name (the node patches its search index, `search::patch`) or a
/// new weight (it keeps it, `search::change`).
#[derive(Clone, Copy, Debug)]
enum Edit {
    Rename,
    Reweigh,
}

impl Edit {
    /// The line of the record this edit rewrites.
    fn field(self) -> &'static str {
        match self {
            Edit::Rename => "name = ",
            Edit::Reweigh => "weightEmptyG = ",
        }
    }

    /// The rewritten line.
    fn rewrite(self, line: &str) -> String {
        match self {
            Edit::Rename => format!("{} (changed)\"", line.trim_end_matches('"')),
            Edit::Reweigh => format!("weightEmptyG = {}", 1 + weight_on(line).expect("a weight")),
        }
    }

    /// Whether the detail `data` serves the edit made to `line`.
    fn served(self, data: &serde_json::Value, line: &str) -> bool {
        match self {
            Edit::Rename => data["name"].as_str().is_some_and(|name| name.ends_with("(changed)")),
            Edit::Reweigh => {
                data["weightEmptyG"].as_f64().map(|g| g as u64) == weight_on(line).map(|g| g + 1)
            }
        }
    }
}

fn weight_on(line: &str) -> Option<u64> {
    line.strip_prefix("weightEmptyG = ")?.trim().parse::<f64>().ok().map(|g| g as u64)
}

/// Make `edit` to one firearm in the catalog's files, import them again while the server runs,
/// and time until the server serves it: the whole path of a small change (the import's diff, the
/// node noticing the catalog revision, the snapshot it patches).
async fn one_record_change(data: &Path, url: &str, base: &str, key: &str, id: &str, edit: Edit) -> f64 {
    let marker = format!("id = \"{id}\"\n");
    let file = files_under(data)
        .into_iter()
        .find(|file| std::fs::read_to_string(file).is_ok_and(|text| text.contains(&marker)))
        .expect("the sampled firearm is in a catalog file");
    let text = std::fs::read_to_string(&file).unwrap();
    let at = text.find(&marker).unwrap() + marker.len();
    let line =
        text[at..].lines().find(|line| line.starts_with(edit.field())).expect("the record has the field");
    let line = line.to_owned();
    let changed = format!("{}{}", &text[..at], text[at..].replacen(&line, &edit.rewrite(&line), 1));
    std::fs::write(&file, changed).unwrap();

    let started = Instant::now();
    run(Command::new(ARMORY).env("ARMORY_DATABASE_URL", url).args(["catalog", "import"]).arg(data));
    let imported = started.elapsed().as_secs_f64();
    let client = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(300);
    while Instant::now() < deadline {
        let body = get_json(&client, &format!("{base}/v1/firearms/{id}"), key).await;
        if edit.served(&body["data"], &line) {
            let served = started.elapsed().as_secs_f64();
            let swapped = served - imported;
            println!(
                "one-record change ({edit:?}): imported in {imported:.2} s, served after {served:.2} s \
                 ({swapped:.2} s after the import: noticing the revision and patching the snapshot)"
            );
            return served;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the changed record was never served");
}

fn files_under(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() { files.extend(files_under(&path)) } else { files.push(path) }
    }
    files
}

/// The same import into a fresh PostgreSQL database (`ARMORY_BENCH_POSTGRES_URL`, by default the
/// machine's `postgres://postgres@127.0.0.1:5432/test`, where the bench creates and drops a
/// database of its own). Skipped, and said so, when PostgreSQL does not answer.
async fn import_into_postgres(data: &Path) {
    let admin_url = std::env::var("ARMORY_BENCH_POSTGRES_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_owned());
    let Ok(admin) = Db::connect(&admin_url).await else {
        println!("\nPostgreSQL at {admin_url} does not answer: its import is not measured");
        return;
    };
    let name = format!("armory_bench_{}", std::process::id());
    let create = format!("CREATE DATABASE {name}");
    sqlx::query(sqlx::AssertSqlSafe(create))
        .execute(admin.pool())
        .await
        .expect("a bench database is created");
    let (root, _) = admin_url.rsplit_once('/').expect("the URL names a database");
    let (seconds, peak) = timed_import(&format!("{root}/{name}"), data);
    println!("\n== the synthetic catalog into PostgreSQL (import {seconds:.1} s, peak {peak} MiB)");
    verdict("import (PostgreSQL), s", seconds, 10.0);
    verdict("import (PostgreSQL) peak memory, MiB", peak as f64, 1024.0);
    let drop = format!("DROP DATABASE {name} WITH (FORCE)");
    let _ = sqlx::query(sqlx::AssertSqlSafe(drop)).execute(admin.pool()).await;
    admin.close().await;
}

/// `armory catalog import` into `url`: seconds, and the process's peak resident memory in MiB
/// (its VmHWM, read every 20 ms while it runs; the last reading before it exits).
fn timed_import(url: &str, data: &Path) -> (f64, u64) {
    let started = Instant::now();
    let mut child = Command::new(ARMORY)
        .env("ARMORY_DATABASE_URL", url)
        .args(["catalog", "import"])
        .arg(data)
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the armory binary runs");
    let mut peak = 0;
    loop {
        peak = peak.max(peak_memory_kib(child.id()));
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "the import failed");
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    (started.elapsed().as_secs_f64(), peak / 1024)
}

/// A figure against its target (lower is better), with pass or fail.
fn verdict(what: &str, figure: f64, target: f64) {
    let outcome = if figure < target { "pass" } else { "fail" };
    println!("  target: {what:<40} {figure:>9.2} (under {target}): {outcome}");
}

/// A keyed GET's JSON body.
async fn get_json(client: &reqwest::Client, url: &str, key: &str) -> serde_json::Value {
    client.get(url).header("x-api-key", key).send().await.unwrap().json().await.unwrap()
}

/// The first rifles of the catalog (up to 100): ids and names (searched for whole in turn, and the
/// first by its last word).
async fn sample_rifles(base: &str, key: &str) -> Vec<(String, String)> {
    let url = format!("{base}/v1/firearms?per_page=100&category=rifles");
    let body = get_json(&reqwest::Client::new(), &url, key).await;
    let rifles: Vec<(String, String)> = body["data"]
        .as_array()
        .expect("a page of rifles")
        .iter()
        .map(|rifle| (rifle["id"].as_str().unwrap().to_owned(), rifle["name"].as_str().unwrap().to_owned()))
        .collect();
    assert!(!rifles.is_empty(), "the catalog has a rifle");
    rifles
}

/// Up to `count` (at most 1,000) ids of firearms with generated media, from the media index's
/// first page: one request, where paging the list quickly would meet the page-burst guard.
async fn sample_firearms(base: &str, key: &str, count: usize) -> Vec<String> {
    let url = format!("{base}/v1/firearms/media?per_page={}", count.min(1000));
    let body = get_json(&reqwest::Client::new(), &url, key).await;
    let listed = body["data"].as_array().expect("a page of the media index");
    listed.iter().map(|f| f["id"].as_str().unwrap().to_owned()).collect()
}

/// The cost of drawing: the first request of each asset of the first 200 of `ids`, one at a
/// time, median and p99 (the network round trip included).
async fn first_renders(base: &str, key: &str, ids: &[String]) {
    let client = reqwest::Client::new();
    for (what, suffix) in [
        ("silhouette (SVG)", "silhouette"),
        ("3D model (GLB)", "model"),
        ("thumbnail (PNG, 320 px)", "media/thumbnail"),
    ] {
        let mut times = Vec::new();
        for id in ids.iter().take(200) {
            let started = Instant::now();
            let response = client
                .get(format!("{base}/v1/firearms/{id}/{suffix}"))
                .header("x-api-key", key)
                .send()
                .await
                .unwrap();
            let ok = response.status().is_success();
            let _ = response.bytes().await;
            if ok {
                times.push(started.elapsed());
            }
        }
        times.sort();
        let at = |q: f64| times.get(((times.len() as f64 * q) as usize).min(times.len().saturating_sub(1)));
        let ms = |d: Option<&Duration>| d.map_or(f64::NAN, |d| d.as_secs_f64() * 1000.0);
        println!(
            "first request of a {what}, {} firearms one at a time: median {:.2} ms, p99 {:.2} ms",
            times.len(),
            ms(at(0.5)),
            ms(at(0.99))
        );
    }
}

async fn enterprise_key(url: &str) -> String {
    let db = Db::connect(url).await.unwrap();
    let email = format!("bench-{}@armory.local", uuid::Uuid::new_v4().simple());
    let account = armory::accounts::create_account(&db, &email, Plan::Enterprise).await.unwrap();
    let (_, key) = armory::accounts::create_key(&db, Some(&account), None, None).await.unwrap();
    db.close().await;
    key
}

async fn wait_ready(base: &str) {
    let client = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(300);
    while Instant::now() < deadline {
        if let Ok(response) = client.get(format!("{base}/ready")).send().await
            && response.status() == 200
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the server did not become ready");
}

/// Peak resident set size of a process (VmHWM), in KiB.
fn peak_memory_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn run(command: &mut Command) {
    let output = command.output().expect("the armory binary runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
}

/// The server process, stopped when the measurement ends.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
