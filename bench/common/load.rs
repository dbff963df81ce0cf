//! The load generator the benchmarks share: keep-alive connections sending one request each in a
//! loop, every latency recorded, percentiles over all of them.

use std::sync::Arc;
use std::time::{Duration, Instant};

pub const CONNECTIONS: usize = 16;

/// Requests per second and latency percentiles of one load run.
pub struct Result {
    pub rps: f64,
    pub p50: Duration,
    pub p99: Duration,
}

impl Result {
    pub fn print(&self, label: &str) {
        println!(
            "{label:<36} {:>9.0} req/s   p50 {:>7.3} ms   p99 {:>7.3} ms",
            self.rps,
            ms(self.p50),
            ms(self.p99)
        );
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Load `url` from `CONNECTIONS` concurrent connections for `duration`, after a warm-up.
#[allow(dead_code)] // catalog_reads loads lists of urls (`load_each`)
pub async fn load(url: &str, key: Option<&str>, duration: Duration) -> Result {
    load_each(&[url.to_owned()], key, duration).await
}

/// `load`, each connection asking the next of `urls` in turn.
pub async fn load_each(urls: &[String], key: Option<&str>, duration: Duration) -> Result {
    let client = reqwest::Client::new();
    // Warm up connections and caches.
    for url in urls.iter().cycle().take(200) {
        send(&client, url, key).await;
    }
    let started = Instant::now();
    let latencies = Arc::new(std::sync::Mutex::new(Vec::new()));
    let mut workers = Vec::new();
    for _ in 0..CONNECTIONS {
        let (client, urls, key, latencies) =
            (client.clone(), urls.to_vec(), key.map(str::to_owned), latencies.clone());
        workers.push(tokio::spawn(async move {
            let mut mine = Vec::new();
            let mut next = urls.iter().cycle();
            while started.elapsed() < duration {
                let t = Instant::now();
                send(&client, next.next().expect("a url"), key.as_deref()).await;
                mine.push(t.elapsed());
            }
            latencies.lock().unwrap().extend(mine);
        }));
    }
    for worker in workers {
        worker.await.unwrap();
    }
    let mut all = latencies.lock().unwrap().clone();
    all.sort();
    let at = |q: f64| all[((all.len() as f64 * q) as usize).min(all.len() - 1)];
    Result { rps: all.len() as f64 / started.elapsed().as_secs_f64(), p50: at(0.50), p99: at(0.99) }
}

async fn send(client: &reqwest::Client, url: &str, key: Option<&str>) {
    let mut request = client.get(url);
    if let Some(key) = key {
        request = request.header("x-api-key", key);
    }
    let response = request.send().await.expect("the server answers");
    assert_eq!(response.status(), 200, "the benchmark expects 200s");
    response.bytes().await.unwrap();
}
