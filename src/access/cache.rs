//! Each node's copy of the key table and the maintenance state (`access::maintenance`), so that
//! authenticating a request needs no database round trip.
//!
//! Every change to accounts, keys, shops or maintenance mode bumps `access_revision` in the
//! database (the command line and the API alike). A background task polls that one number every
//! 250 ms and reloads the table when it moved, so a change made anywhere is seen by every node
//! within a second; the node that made a change can call `reload` to see it at once.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use super::maintenance::{self, Maintenance};
use super::plan::Plan;
use crate::db::Db;
use crate::error::ApiError;
use crate::fast_hash::FastMap;

#[derive(Debug, Clone)]
pub struct KeyEntry {
    /// Shared with every `Caller` of the key: a request clones counts, not text.
    pub key_id: Arc<str>,
    pub status: String,
    /// 'YYYY-MM-DD HH:MM:SS' UTC; the key stops working at that moment.
    pub expires_at: Option<String>,
    pub account_id: Option<Arc<str>>,
    /// None when the key names an account that no longer exists.
    pub account: Option<AccountEntry>,
    pub shops: Arc<[ShopEntry]>,
}

#[derive(Debug, Clone)]
pub struct AccountEntry {
    pub plan: Plan,
    pub status: String,
    pub paid_until: Option<String>,
    pub staff: bool,
}

#[derive(Debug, Clone)]
pub struct ShopEntry {
    pub shop_id: String,
    pub approved: bool,
}

#[derive(Clone)]
pub struct KeyCache {
    db: Db,
    inner: Arc<RwLock<Loaded>>,
    /// One reload at a time, so an older read can never replace a newer one.
    reloading: Arc<tokio::sync::Mutex<()>>,
}

#[derive(Default)]
struct Loaded {
    revision: i64,
    /// By the key's SHA-256 (stored as hex, held as bytes).
    by_hash: Arc<FastMap<[u8; 32], Arc<KeyEntry>>>,
    maintenance: Maintenance,
}

type KeyRow = (
    String,
    String,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<i64>,
);

impl KeyCache {
    pub async fn load(db: Db) -> sqlx::Result<Self> {
        let cache = Self { db, inner: Arc::default(), reloading: Arc::default() };
        cache.reload().await?;
        Ok(cache)
    }

    /// The entry for a key's SHA-256.
    pub fn get(&self, digest: &[u8; 32]) -> Option<Arc<KeyEntry>> {
        self.inner.read().expect("never poisoned").by_hash.get(digest).cloned()
    }

    /// The maintenance state as of the last reload (for the read side, e.g. a notice).
    pub fn maintenance(&self) -> Maintenance {
        self.inner.read().expect("never poisoned").maintenance.clone()
    }

    /// The 503 MAINTENANCE a keyed operation answers while maintenance is on; None while off.
    pub fn paused(&self) -> Option<ApiError> {
        self.inner.read().expect("never poisoned").maintenance.refusal()
    }

    pub async fn reload(&self) -> sqlx::Result<()> {
        let _one_at_a_time = self.reloading.lock().await;
        let revision = access_revision(&self.db).await?;
        let keys: Vec<KeyRow> = sqlx::query_as(
            "SELECT k.id, k.key_hash, k.status, k.expires_at, k.account_id, a.plan, a.status, a.paid_until, a.staff \
             FROM api_keys k LEFT JOIN accounts a ON a.id = k.account_id",
        )
        .fetch_all(self.db.pool())
        .await?;
        let shops: Vec<(String, String, i64)> = sqlx::query_as(
            "SELECT sk.key_id, s.id, s.approved FROM shop_keys sk JOIN shops s ON s.id = sk.shop_id",
        )
        .fetch_all(self.db.pool())
        .await?;
        let mut shops_by_key: HashMap<String, Vec<ShopEntry>> = HashMap::new();
        for (key_id, shop_id, approved) in shops {
            shops_by_key.entry(key_id).or_default().push(ShopEntry { shop_id, approved: approved != 0 });
        }
        let mut by_hash = FastMap::with_capacity_and_hasher(keys.len(), Default::default());
        for (key_id, hash, status, expires_at, account_id, plan, account_status, paid_until, staff) in keys {
            let account = match (plan, account_status) {
                (Some(plan), Some(status)) => Some(AccountEntry {
                    plan: Plan::parse(&plan).unwrap_or(Plan::Explorer),
                    status,
                    paid_until,
                    staff: staff.unwrap_or(0) != 0,
                }),
                _ => None,
            };
            let shops = shops_by_key.remove(&key_id).unwrap_or_default();
            let mut digest = [0u8; 32];
            if hex::decode_to_slice(&hash, &mut digest).is_err() {
                // Every stored hash is `keys::hash_secret`'s; one that is not can match no key.
                tracing::warn!(key_id, "a stored key hash is not a SHA-256 in hex; the key cannot be used");
                continue;
            }
            let entry = KeyEntry {
                key_id: key_id.into(),
                status,
                expires_at,
                account_id: account_id.map(Arc::from),
                account,
                shops: shops.into(),
            };
            by_hash.insert(digest, Arc::new(entry));
        }
        let maintenance = maintenance::read(&mut *self.db.pool().acquire().await?).await?;
        let mut inner = self.inner.write().expect("never poisoned");
        if inner.maintenance.on != maintenance.on {
            tracing::info!(
                on = maintenance.on,
                retry_after = maintenance.retry_after,
                "maintenance mode changed"
            );
        }
        inner.revision = revision;
        inner.by_hash = Arc::new(by_hash);
        inner.maintenance = maintenance;
        Ok(())
    }

    /// Poll the access revision until `stop` resolves; reload when it moved.
    pub async fn keep_fresh(self, stop: crate::shutdown::Shutdown) {
        let mut tick = tokio::time::interval(Duration::from_millis(250));
        loop {
            tokio::select! {
                _ = stop.triggered() => return,
                _ = tick.tick() => {}
            }
            let known = self.inner.read().expect("never poisoned").revision;
            match access_revision(&self.db).await {
                Ok(current) if current != known => {
                    if let Err(e) = self.reload().await {
                        tracing::warn!(error = %e, "reloading the key cache failed; keeping the previous one");
                    }
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "cannot read the access revision"),
            }
        }
    }
}

/// Tell every node that accounts, keys, shops or maintenance mode changed: each key cache reloads.
pub async fn bump_access_revision(conn: &mut sqlx::AnyConnection) -> sqlx::Result<()> {
    sqlx::query("UPDATE service_state SET value = value + 1 WHERE name = 'access_revision'")
        .execute(&mut *conn)
        .await?;
    Ok(())
}

async fn access_revision(db: &Db) -> sqlx::Result<i64> {
    let (revision,): (i64,) =
        sqlx::query_as("SELECT value FROM service_state WHERE name = 'access_revision'")
            .fetch_one(db.pool())
            .await?;
    Ok(revision)
}
