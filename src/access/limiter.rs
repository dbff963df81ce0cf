//! Request counters for the rate limits, in memory (one node) or in Redis (shared by every node).
//!
//! A counter is a key that lives until its window ends (the minute or the UTC day it names), so
//! windows reset by expiry and never need a sweep in Redis. When Redis is configured but does not
//! answer, counting fails and the request is refused (503 DEPENDENCY_UNAVAILABLE) rather than let
//! through unlimited.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use redis::aio::ConnectionManager;

#[derive(Debug, thiserror::Error)]
#[error("the rate-limit store is unavailable: {0}")]
pub struct LimiterUnavailable(pub String);

pub enum Limiter {
    Memory(Mutex<HashMap<String, (u64, Instant)>>),
    Redis(ConnectionManager),
}

/// Bounded so a Redis outage costs a request little time before it is refused.
const REDIS_TIMEOUT: Duration = Duration::from_millis(500);

impl Limiter {
    pub fn memory() -> Self {
        Limiter::Memory(Mutex::new(HashMap::new()))
    }

    pub async fn redis(url: &str) -> Result<Self, LimiterUnavailable> {
        let client =
            redis::Client::open(url).map_err(|e| LimiterUnavailable(format!("ARMORY_REDIS_URL: {e}")))?;
        let config = redis::aio::ConnectionManagerConfig::new()
            .set_connection_timeout(Some(REDIS_TIMEOUT))
            .set_response_timeout(Some(REDIS_TIMEOUT))
            .set_number_of_retries(1);
        let manager =
            tokio::time::timeout(Duration::from_secs(5), ConnectionManager::new_with_config(client, config))
                .await
                .map_err(|_| LimiterUnavailable("ARMORY_REDIS_URL: no answer within 5 s".into()))?
                .map_err(|e| LimiterUnavailable(format!("ARMORY_REDIS_URL: {e}")))?;
        Ok(Limiter::Redis(manager))
    }

    /// Add `amount` to `key`, which expires `ttl` after it was first counted; the new total.
    pub async fn add(&self, key: &str, amount: u64, ttl: Duration) -> Result<u64, LimiterUnavailable> {
        match self {
            Limiter::Memory(map) => {
                let now = Instant::now();
                let mut map = map.lock().expect("the counter map is never poisoned");
                if map.len() > 100_000 {
                    map.retain(|_, (_, expires)| *expires > now);
                }
                let entry = map.entry(key.to_owned()).or_insert((0, now + ttl));
                if entry.1 <= now {
                    *entry = (0, now + ttl);
                }
                entry.0 += amount;
                Ok(entry.0)
            }
            Limiter::Redis(manager) => {
                let script = redis::Script::new(
                    "local n = redis.call('INCRBY', KEYS[1], ARGV[1]) \
                     if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end \
                     return n",
                );
                let mut conn = manager.clone();
                let mut invocation = script.key(key);
                invocation.arg(amount).arg(ttl.as_millis() as u64);
                bounded(invocation.invoke_async::<u64>(&mut conn)).await
            }
        }
    }

    /// The current total of `key` (0 when absent or expired).
    pub async fn get(&self, key: &str) -> Result<u64, LimiterUnavailable> {
        match self {
            Limiter::Memory(map) => {
                let map = map.lock().expect("the counter map is never poisoned");
                Ok(map.get(key).filter(|(_, expires)| *expires > Instant::now()).map_or(0, |(n, _)| *n))
            }
            Limiter::Redis(manager) => {
                let mut conn = manager.clone();
                let mut get = redis::cmd("GET");
                get.arg(key);
                bounded(get.query_async::<Option<u64>>(&mut conn)).await.map(|n| n.unwrap_or(0))
            }
        }
    }
}

async fn bounded<T>(call: impl Future<Output = redis::RedisResult<T>>) -> Result<T, LimiterUnavailable> {
    match tokio::time::timeout(REDIS_TIMEOUT * 2, call).await {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(e)) => Err(LimiterUnavailable(e.to_string())),
        Err(_) => Err(LimiterUnavailable("Redis did not answer in time".into())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn memory_counters_add_up_and_expire() {
        let limiter = Limiter::memory();
        assert_eq!(limiter.add("k", 1, Duration::from_millis(50)).await.unwrap(), 1);
        assert_eq!(limiter.add("k", 2, Duration::from_millis(50)).await.unwrap(), 3);
        assert_eq!(limiter.get("k").await.unwrap(), 3);
        tokio::time::sleep(Duration::from_millis(60)).await;
        assert_eq!(limiter.get("k").await.unwrap(), 0);
    }
}
