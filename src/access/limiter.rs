//! The rate-limit counters, in memory (one node) or in Redis (shared by every node).
//!
//! Two kinds, each checked and counted in one atomic step so concurrent requests cannot slip past:
//! - a sliding-window log (`admit_in_window`) for the per-minute limit: a request is admitted when
//!   fewer than `limit` were admitted in the `window` before it, so no window of that length ever
//!   holds more than `limit` admissions (a fixed window lets twice the limit through across its
//!   boundary). In memory the log counts admissions per millisecond (`WindowLog`); in Redis it is
//!   a sorted set timed by the Redis clock, so nodes agree.
//! - an allowance (`take`, `give_back`) for the daily cap: one unit is taken only while fewer than
//!   the cap are taken; the key expires after its day.
//!
//! When Redis is configured but does not answer, counting fails and the request is refused
//! (503 DEPENDENCY_UNAVAILABLE) rather than let through unlimited.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures_util::future::{BoxFuture, Either};
use redis::aio::ConnectionManager;
use std::future::{Ready, ready};

use crate::fast_hash::FastMap;

#[derive(Debug, thiserror::Error)]
#[error("the rate-limit store is unavailable: {0}")]
pub struct LimiterUnavailable(pub String);

/// A count's answer: at once from the memory counters, from a boxed future for Redis. Not an
/// `async fn`: the Redis call's future is several hundred bytes, and it would size every count's
/// future, and the access gate's around them, for the memory counters too; moving those bytes on
/// every request cost more than the counting.
pub type Counted<'a, T> =
    Either<Ready<Result<T, LimiterUnavailable>>, BoxFuture<'a, Result<T, LimiterUnavailable>>>;

pub enum Limiter {
    Memory(MemoryCounters),
    Redis(RedisCounters),
}

pub struct MemoryCounters {
    allowances: Mutex<FastMap<String, (u64, Instant)>>,
    windows: Mutex<FastMap<String, WindowLog>>,
    /// What the window logs' milliseconds count from.
    origin: Instant,
}

impl Default for MemoryCounters {
    fn default() -> Self {
        Self { allowances: Mutex::default(), windows: Mutex::default(), origin: Instant::now() }
    }
}

/// A key's sliding-window log: its admissions counted per millisecond, oldest first, and their
/// total. One instant per admission held a key's whole last minute of requests: under a raised
/// limit at 60,000 requests a second, 3.6 million entries (some 60 MB, most of a node's growth
/// under load); this holds at most one entry per millisecond of the window.
#[derive(Default)]
struct WindowLog {
    /// (millisecond since `origin`, admissions in it).
    ticks: VecDeque<(u64, u32)>,
    admitted: u64,
}

pub struct RedisCounters {
    manager: ConnectionManager,
    window: redis::Script,
    take: redis::Script,
    give_back: redis::Script,
    /// Makes each window entry's member unique when two land in the same microsecond.
    sequence: AtomicU64,
}

/// Bounded so a Redis outage costs a request little time before it is refused.
const REDIS_TIMEOUT: Duration = Duration::from_millis(500);
/// Past this many keys, expired entries are swept before another is added.
const SWEEP_ABOVE: usize = 100_000;

const WINDOW_SCRIPT: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now, now .. ':' .. ARGV[3])
redis.call('PEXPIRE', KEYS[1], math.ceil(window / 1000))
return 1";

const TAKE_SCRIPT: &str = r"
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n >= tonumber(ARGV[1]) then return 0 end
redis.call('INCR', KEYS[1])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1";

const GIVE_BACK_SCRIPT: &str = r"
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n > 0 then redis.call('DECR', KEYS[1]) end
return 1";

impl Limiter {
    pub fn memory() -> Self {
        Limiter::Memory(MemoryCounters::default())
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
        Ok(Limiter::Redis(RedisCounters {
            manager,
            window: redis::Script::new(WINDOW_SCRIPT),
            take: redis::Script::new(TAKE_SCRIPT),
            give_back: redis::Script::new(GIVE_BACK_SCRIPT),
            sequence: AtomicU64::new(0),
        }))
    }

    /// Whether the counters answer: always for memory, a PING for Redis.
    pub async fn ping(&self) -> bool {
        match self {
            Limiter::Memory(_) => true,
            Limiter::Redis(redis) => {
                let mut conn = redis.manager.clone();
                let command = redis::cmd("PING");
                let ping = command.query_async::<String>(&mut conn);
                matches!(tokio::time::timeout(REDIS_TIMEOUT * 2, ping).await, Ok(Ok(_)))
            }
        }
    }

    pub fn is_shared(&self) -> bool {
        matches!(self, Limiter::Redis(_))
    }

    /// Admit one request under `key` when fewer than `limit` were admitted within the last `window`.
    pub fn admit_in_window(&self, key: &str, limit: u64, window: Duration) -> Counted<'_, bool> {
        match self {
            Limiter::Memory(counters) => {
                Either::Left(ready(Ok(counters.admit_in_window(key, limit, window))))
            }
            Limiter::Redis(redis) => {
                let unique = redis.sequence.fetch_add(1, Ordering::Relaxed);
                let mut invocation = redis.window.key(key);
                invocation.arg(limit).arg(window.as_micros() as u64).arg(unique);
                Either::Right(Box::pin(async move {
                    redis.run(invocation).await.map(|admitted: u8| admitted == 1)
                }))
            }
        }
    }

    /// Take one unit of `key`'s allowance if fewer than `cap` are taken; the allowance expires
    /// `ttl` after its first unit. False: the allowance is used up and nothing was taken.
    pub fn take(&self, key: &str, cap: u64, ttl: Duration) -> Counted<'_, bool> {
        match self {
            Limiter::Memory(counters) => Either::Left(ready(Ok(counters.take(key, cap, ttl)))),
            Limiter::Redis(redis) => {
                let mut invocation = redis.take.key(key);
                invocation.arg(cap).arg(ttl.as_millis() as u64);
                Either::Right(Box::pin(
                    async move { redis.run(invocation).await.map(|taken: u8| taken == 1) },
                ))
            }
        }
    }

    /// Return one unit taken from `key` (an answer that does not count, such as a 304).
    pub fn give_back(&self, key: &str) -> Counted<'_, ()> {
        match self {
            Limiter::Memory(counters) => {
                counters.give_back(key);
                Either::Left(ready(Ok(())))
            }
            Limiter::Redis(redis) => {
                let invocation = redis.give_back.key(key);
                Either::Right(Box::pin(async move { redis.run(invocation).await.map(|_: u8| ()) }))
            }
        }
    }
}

impl MemoryCounters {
    fn admit_in_window(&self, key: &str, limit: u64, window: Duration) -> bool {
        let now = Instant::now().duration_since(self.origin).as_millis() as u64;
        let window = window.as_millis() as u64;
        // An admission leaves the window once more than `window` whole milliseconds separate
        // their ticks: then more than `window` passed, whatever the instants within the ticks,
        // so no window of that length ever holds more than `limit` (a tick late at most).
        let expired = |tick: u64| now - tick > window;
        let mut windows = self.windows.lock().expect("the window map is never poisoned");
        if windows.len() > SWEEP_ABOVE {
            windows.retain(|_, log| log.ticks.back().is_some_and(|&(last, _)| !expired(last)));
        }
        let log = entry(&mut windows, key, WindowLog::default);
        while let Some(&(first, count)) = log.ticks.front()
            && expired(first)
        {
            log.ticks.pop_front();
            log.admitted -= u64::from(count);
        }
        if log.admitted >= limit {
            return false;
        }
        match log.ticks.back_mut() {
            Some((last, count)) if *last == now => *count += 1,
            _ => log.ticks.push_back((now, 1)),
        }
        log.admitted += 1;
        true
    }

    fn take(&self, key: &str, cap: u64, ttl: Duration) -> bool {
        let now = Instant::now();
        let mut allowances = self.allowances.lock().expect("the allowance map is never poisoned");
        if allowances.len() > SWEEP_ABOVE {
            allowances.retain(|_, (_, expires)| *expires > now);
        }
        let entry = entry(&mut allowances, key, || (0, now + ttl));
        if entry.1 <= now {
            *entry = (0, now + ttl);
        }
        if entry.0 >= cap {
            return false;
        }
        entry.0 += 1;
        true
    }

    fn give_back(&self, key: &str) {
        let mut allowances = self.allowances.lock().expect("the allowance map is never poisoned");
        if let Some((taken, _)) = allowances.get_mut(key) {
            *taken = taken.saturating_sub(1);
        }
    }
}

/// `key`'s value, inserted with `new` when missing; the key is copied only then (`HashMap::entry`
/// would copy it on every request).
fn entry<'a, V>(map: &'a mut FastMap<String, V>, key: &str, new: impl FnOnce() -> V) -> &'a mut V {
    if !map.contains_key(key) {
        map.insert(key.to_owned(), new());
    }
    map.get_mut(key).expect("just inserted")
}

impl RedisCounters {
    async fn run<T: redis::FromRedisValue>(
        &self,
        invocation: redis::ScriptInvocation<'_>,
    ) -> Result<T, LimiterUnavailable> {
        let mut conn = self.manager.clone();
        match tokio::time::timeout(REDIS_TIMEOUT * 2, invocation.invoke_async::<T>(&mut conn)).await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(e)) => Err(LimiterUnavailable(e.to_string())),
            Err(_) => Err(LimiterUnavailable("Redis did not answer in time".into())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn an_allowance_stops_at_its_cap_and_takes_back_what_is_returned() {
        let limiter = Limiter::memory();
        let ttl = Duration::from_secs(60);
        for _ in 0..3 {
            assert!(limiter.take("day", 3, ttl).await.unwrap());
        }
        assert!(!limiter.take("day", 3, ttl).await.unwrap(), "the fourth is refused");
        limiter.give_back("day").await.unwrap();
        assert!(limiter.take("day", 3, ttl).await.unwrap(), "a returned unit can be taken again");
        assert!(!limiter.take("day", 3, ttl).await.unwrap());
    }

    #[tokio::test]
    async fn an_allowance_expires_with_its_period() {
        let limiter = Limiter::memory();
        assert!(limiter.take("k", 1, Duration::from_millis(40)).await.unwrap());
        assert!(!limiter.take("k", 1, Duration::from_millis(40)).await.unwrap());
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(limiter.take("k", 1, Duration::from_millis(40)).await.unwrap());
    }

    #[tokio::test]
    async fn the_window_slides_instead_of_resetting() {
        let limiter = Limiter::memory();
        let window = Duration::from_millis(200);
        assert!(limiter.admit_in_window("m", 2, window).await.unwrap());
        tokio::time::sleep(Duration::from_millis(120)).await;
        assert!(limiter.admit_in_window("m", 2, window).await.unwrap());
        assert!(!limiter.admit_in_window("m", 2, window).await.unwrap(), "two within the window");
        tokio::time::sleep(Duration::from_millis(100)).await;
        // The first has left the window; the second has not.
        assert!(limiter.admit_in_window("m", 2, window).await.unwrap());
        assert!(!limiter.admit_in_window("m", 2, window).await.unwrap());
    }

    #[test]
    fn a_busy_window_holds_a_tick_per_millisecond_and_counts_every_admission() {
        let counters = MemoryCounters::default();
        let window = Duration::from_secs(60);
        let started = Instant::now();
        for _ in 0..200_000 {
            assert!(counters.admit_in_window("busy", 1_000_000, window));
        }
        let elapsed = started.elapsed().as_millis() as usize;
        let windows = counters.windows.lock().unwrap();
        let log = &windows["busy"];
        assert_eq!(log.admitted, 200_000);
        assert_eq!(log.ticks.iter().map(|&(_, n)| u64::from(n)).sum::<u64>(), 200_000);
        assert!(log.ticks.len() <= elapsed + 1, "{} ticks in {elapsed} ms", log.ticks.len());
        drop(windows);
        for _ in 0..3 {
            assert!(counters.admit_in_window("full", 3, window));
        }
        assert!(!counters.admit_in_window("full", 3, window), "the limit holds across ticks");
    }
}
