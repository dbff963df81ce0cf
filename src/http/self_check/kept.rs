//! A self-check run kept for a while: the contract, example and client runs are each made at most
//! once per `KEPT_FOR`, and requests arriving while one is made wait for it rather than start
//! another.

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::error::ApiError;

/// How long a run is served before the next request starts a new one.
pub const KEPT_FOR: Duration = Duration::from_secs(300);

/// The latest run of one kind. The lock is held while a run is made.
pub struct Kept<T> {
    latest: tokio::sync::Mutex<Option<(Instant, Arc<T>)>>,
}

impl<T> Default for Kept<T> {
    fn default() -> Self {
        Self { latest: tokio::sync::Mutex::new(None) }
    }
}

impl<T> Kept<T> {
    /// The kept run while it is fresh, else the one `make` makes (kept in its place).
    pub async fn latest<F, Fut>(&self, make: F) -> Result<Arc<T>, ApiError>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<T, ApiError>>,
    {
        let mut latest = self.latest.lock().await;
        if let Some((at, kept)) = latest.as_ref()
            && at.elapsed() < KEPT_FOR
        {
            return Ok(kept.clone());
        }
        let fresh = Arc::new(make().await?);
        *latest = Some((Instant::now(), fresh.clone()));
        Ok(fresh)
    }
}
