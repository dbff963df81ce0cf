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

impl Result {
    /// Each figure's median over `rounds`, loads of the same thing (an odd number of them).
    #[allow(dead_code)] // catalog_reads judges its reads by rounds; access_overhead by ratios
    pub fn median(rounds: &[Result]) -> Result {
        let middle = |figure: fn(&Result) -> f64| {
            let mut figures: Vec<f64> = rounds.iter().map(figure).collect();
            figures.sort_by(f64::total_cmp);
            figures[figures.len() / 2]
        };
        Result {
            rps: middle(|r| r.rps),
            p50: Duration::from_secs_f64(middle(|r| r.p50.as_secs_f64())),
            p99: Duration::from_secs_f64(middle(|r| r.p99.as_secs_f64())),
        }
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Load `url` from `CONNECTIONS` concurrent connections for `duration`, after a warm-up, each
/// request with `headers`.
#[allow(dead_code)] // catalog_reads loads lists of urls (`load_each`)
pub async fn load(url: &str, headers: &[(&str, &str)], duration: Duration) -> Result {
    load_each(&[url.to_owned()], headers, duration).await
}

/// `load`, each connection asking the next of `urls` in turn.
pub async fn load_each(urls: &[String], headers: &[(&str, &str)], duration: Duration) -> Result {
    let client = reqwest::Client::new();
    // Warm up connections and caches.
    for url in urls.iter().cycle().take(200) {
        send(&client, url, headers).await;
    }
    let started = Instant::now();
    let latencies = Arc::new(std::sync::Mutex::new(Vec::new()));
    let mut workers = Vec::new();
    for _ in 0..CONNECTIONS {
        let headers: Vec<(String, String)> =
            headers.iter().map(|(name, value)| (name.to_string(), value.to_string())).collect();
        let (client, urls, latencies) = (client.clone(), urls.to_vec(), latencies.clone());
        workers.push(tokio::spawn(async move {
            let mut mine = Vec::new();
            let mut next = urls.iter().cycle();
            let headers: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
            while started.elapsed() < duration {
                let t = Instant::now();
                send(&client, next.next().expect("a url"), &headers).await;
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

async fn send(client: &reqwest::Client, url: &str, headers: &[(&str, &str)]) {
    let mut request = client.get(url);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.expect("the server answers");
    assert_eq!(response.status(), 200, "the benchmark expects 200s");
    response.bytes().await.unwrap();
}
