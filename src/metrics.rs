//! The service's metrics, in the Prometheus text format (`/metrics`, see `http::service::metrics`):
//! requests by operation and status, latency histograms by operation, limiter refusals by reason,
//! webhook delivery outcomes, and, read at scrape time, the webhook queue depth and the catalog
//! snapshot's revision, build time and firearms rendered. One registry per process.

use std::sync::atomic::AtomicU64;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

use crate::fast_hash::FastMap;

type Labels = Vec<(&'static str, String)>;

/// A request's labels, made without allocating: every request is counted and timed.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    operation: &'static str,
    status: u16,
}

/// A request's labels by the address of the operation's name (`Metrics::request_metrics`).
#[derive(Clone, Copy, Hash, PartialEq, Eq)]
struct NameAndStatus {
    name_at: usize,
    name_len: usize,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct OperationLabels {
    operation: &'static str,
}

pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    latency: Family<OperationLabels, Histogram, fn() -> Histogram>,
    refusals: Family<Labels, Counter>,
    deliveries: Family<Labels, Counter>,
    queue_depth: Gauge,
    snapshot_revision: Gauge,
    snapshot_build_seconds: Gauge<f64, AtomicU64>,
    snapshot_firearms_rendered: Gauge,
    /// The request counter and latency histogram of each operation and status once looked up.
    /// The families hash their labels with SipHash under a lock on every lookup, which was a few
    /// per cent of a firearm detail. Keyed by the address and length of the operation's name (each
    /// is a static of the operations table): two copies of one name find the same family metrics.
    request_metrics: Mutex<FastMap<NameAndStatus, (Counter, Histogram)>>,
    /// Held from setting the gauges read at scrape time to encoding them, so two scrapes (of two
    /// apps in one test process) never mix their figures.
    scraping: std::sync::Mutex<()>,
}

/// The served snapshot's figures, read at scrape time.
pub struct SnapshotFigures {
    pub revision: i64,
    pub build_seconds: f64,
    /// Firearms rendered for it: all when built, the changed ones when patched, none when reused.
    pub firearms_rendered: usize,
}

fn latency_buckets() -> Histogram {
    // 0.25 ms to about 4 s.
    Histogram::new(exponential_buckets(0.000_25, 2.0, 15))
}

pub fn global() -> &'static Metrics {
    static METRICS: OnceLock<Metrics> = OnceLock::new();
    METRICS.get_or_init(Metrics::new)
}

impl Metrics {
    fn new() -> Self {
        let mut registry = Registry::with_prefix("armory");
        let requests = Family::<RequestLabels, Counter>::default();
        let latency =
            Family::<OperationLabels, Histogram, fn() -> Histogram>::new_with_constructor(latency_buckets);
        let refusals = Family::<Labels, Counter>::default();
        let deliveries = Family::<Labels, Counter>::default();
        let queue_depth = Gauge::default();
        let snapshot_revision = Gauge::default();
        let snapshot_build_seconds = Gauge::<f64, AtomicU64>::default();
        let snapshot_firearms_rendered = Gauge::default();
        registry.register("http_requests", "Requests answered, by operation and status", requests.clone());
        registry.register("http_request_duration_seconds", "Time to answer, by operation", latency.clone());
        registry.register("limiter_refusals", "Requests refused by a limit, by reason", refusals.clone());
        registry.register("webhook_deliveries", "Webhook delivery attempts, by outcome", deliveries.clone());
        registry.register("webhook_queue_depth", "Webhook deliveries pending", queue_depth.clone());
        registry.register(
            "catalog_snapshot_revision",
            "Catalog revision this node serves",
            snapshot_revision.clone(),
        );
        registry.register(
            "catalog_snapshot_build_seconds",
            "Seconds the served snapshot took to build",
            snapshot_build_seconds.clone(),
        );
        registry.register(
            "catalog_snapshot_firearms_rendered",
            "Firearms rendered for the served snapshot (all when built, the changed ones when patched)",
            snapshot_firearms_rendered.clone(),
        );
        Self {
            registry,
            requests,
            latency,
            refusals,
            deliveries,
            queue_depth,
            snapshot_revision,
            snapshot_build_seconds,
            snapshot_firearms_rendered,
            request_metrics: Mutex::default(),
            scraping: std::sync::Mutex::default(),
        }
    }

    pub fn observe_request(&self, operation: &'static str, status: u16, elapsed: Duration) {
        let key = NameAndStatus { name_at: operation.as_ptr() as usize, name_len: operation.len(), status };
        let mut known = self.request_metrics.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let (requests, latency) = known.entry(key).or_insert_with(|| {
            let requests = self.requests.get_or_create(&RequestLabels { operation, status }).clone();
            (requests, self.latency.get_or_create(&OperationLabels { operation }).clone())
        });
        requests.inc();
        latency.observe(elapsed.as_secs_f64());
    }

    pub fn refused(&self, reason: &str) {
        self.refusals.get_or_create(&vec![("reason", reason.to_owned())]).inc();
    }

    pub fn delivery(&self, outcome: &'static str) {
        self.deliveries.get_or_create(&vec![("outcome", outcome.to_owned())]).inc();
    }

    /// The text exposition, with the gauges read now.
    pub fn render(&self, queue_depth: i64, snapshot: &SnapshotFigures) -> String {
        let _scraping = self.scraping.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        self.queue_depth.set(queue_depth);
        self.snapshot_revision.set(snapshot.revision);
        self.snapshot_build_seconds.set(snapshot.build_seconds);
        self.snapshot_firearms_rendered.set(snapshot.firearms_rendered as i64);
        let mut text = String::new();
        encode(&mut text, &self.registry).expect("writing to a String never fails");
        text
    }
}
