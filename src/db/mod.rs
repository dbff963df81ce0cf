//! The database handle: one pool over SQLite or PostgreSQL, chosen by the URL scheme.
//!
//! Queries are written once, with `$1` placeholders (which both SQLite and PostgreSQL accept),
//! against sqlx's `Any` driver, so callers never know which backend is behind them. Where the SQL
//! must differ (migrations, row locking), `Backend` says which one is in use.

use std::str::FromStr;
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::pool::PoolConnection;
use sqlx::{AnyConnection, AnyPool, ConnectOptions, Connection as _, Executor};

mod unavailable;
pub use unavailable::is_unavailable;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error(
        "ARMORY_DATABASE_URL is not a usable database URL ({0}); expected sqlite://PATH or postgres://USER@HOST/DB"
    )]
    InvalidUrl(String),
    #[error("cannot reach the database at ARMORY_DATABASE_URL={url}: {cause}")]
    Unreachable { url: String, cause: String },
    #[error("migrating the database failed: {0}")]
    Migration(String),
}

/// Whether a SQLite URL names sqlx's private in-memory database (`sqlite::memory:`).
fn in_memory(url: &str) -> bool {
    let database = url.trim_start_matches("sqlite:").trim_start_matches("//");
    database.split('?').next() == Some(":memory:")
}

/// `sqlite::memory:` as one in-memory database that every connection of the pool shares. sqlx
/// gives each parse of `:memory:` a database of its own, and the `Any` driver parses the URL
/// again for every connection it opens, so each pooled connection saw an empty database of its
/// own: the server did not start (the count after the migrations found no tables). A name of its
/// own per pool, with the shared cache, keeps one database per pool; the name is a `file:` URI
/// because SQLite shares an in-memory database by name only when it was opened by URI.
fn one_shared_memory_database(url: &str) -> String {
    let mut shared =
        format!("sqlite:file:armory-memory-{}?mode=memory&cache=shared", uuid::Uuid::new_v4().simple());
    // The URL's other parameters stay; its mode and cache are the ones above.
    let params = url.split_once('?').map_or("", |(_, params)| params);
    for param in params.split('&') {
        if !(param.is_empty() || param.starts_with("mode=") || param.starts_with("cache=")) {
            shared.push('&');
            shared.push_str(param);
        }
    }
    shared
}

#[derive(Clone, Debug)]
pub struct Db {
    pool: AnyPool,
    backend: Backend,
}

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

impl Db {
    /// Connect and check the database answers. A SQLite file is created when missing.
    pub async fn connect(url: &str) -> Result<Self, DbError> {
        let (options, backend) = Self::options(url)?;
        let pool = Self::pool_options(backend, url)
            .connect_with(options)
            .await
            .map_err(|e| DbError::Unreachable { url: redact(url), cause: first_line(&e) })?;
        Ok(Self { pool, backend })
    }

    /// A pool that connects on first use; used to build an app whose database may be gone.
    pub fn connect_lazy(url: &str) -> Result<Self, DbError> {
        let (options, backend) = Self::options(url)?;
        let pool = Self::pool_options(backend, url).connect_lazy_with(options);
        Ok(Self { pool, backend })
    }

    fn options(url: &str) -> Result<(AnyConnectOptions, Backend), DbError> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgres
        } else {
            return Err(DbError::InvalidUrl(format!("unknown scheme in '{}'", redact(url))));
        };
        let url = match backend {
            Backend::Sqlite if in_memory(url) => one_shared_memory_database(url),
            // Create the file on first start unless the URL chose a mode itself.
            Backend::Sqlite if !url.contains("mode=") => {
                let separator = if url.contains('?') { '&' } else { '?' };
                format!("{url}{separator}mode=rwc")
            }
            _ => url.to_owned(),
        };
        let options = AnyConnectOptions::from_str(&url).map_err(|e| DbError::InvalidUrl(first_line(&e)))?;
        // Catalog imports bind thousands of values; the request log already times every request.
        let options = options.disable_statement_logging();
        Ok((options, backend))
    }

    fn pool_options(backend: Backend, url: &str) -> AnyPoolOptions {
        let mut options = AnyPoolOptions::new().acquire_timeout(Duration::from_secs(5));
        if backend == Backend::Sqlite && in_memory(url) {
            // An in-memory database lives while a connection to it is open: the pool keeps one
            // open for as long as it lives, never closed for idleness or age.
            options = options.min_connections(1).idle_timeout(None).max_lifetime(None);
        }
        match backend {
            // WAL lets readers go on while the catalog import writes; foreign keys are on by
            // default in sqlx's SQLite driver. A new database gets 16 KiB pages (the size is
            // fixed once the first table is written, and a no-op after): a firearm's row is about
            // 3 KB, so a 4 KiB page held one with a quarter of it empty, and an import of 100,000
            // firearms wrote half again as many bytes (1 GB through the WAL and back), about 3 s of
            // a 15 s import.
            Backend::Sqlite => options.max_connections(8).after_connect(|conn, _| {
                Box::pin(async move {
                    conn.execute(
                        "PRAGMA page_size = 16384; PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 10000;",
                    )
                    .await?;
                    Ok(())
                })
            }),
            Backend::Postgres => options.max_connections(16),
        }
    }

    pub async fn migrate(&self) -> Result<(), DbError> {
        let migrator = match self.backend {
            Backend::Sqlite => &SQLITE_MIGRATIONS,
            Backend::Postgres => &POSTGRES_MIGRATIONS,
        };
        migrator.run(&self.pool).await.map_err(|e| DbError::Migration(first_line(&e)))
    }

    /// One round trip, bounded in time: the readiness check.
    pub async fn ping(&self) -> bool {
        let probe = sqlx::query("SELECT 1").execute(&self.pool);
        matches!(tokio::time::timeout(Duration::from_secs(2), probe).await, Ok(Ok(_)))
    }

    /// A transaction that will write. On SQLite it takes the write lock at once (`BEGIN
    /// IMMEDIATE`), so it waits out another writer (busy timeout) instead of failing with
    /// "database is locked" when a read transaction cannot be upgraded; PostgreSQL locks rows as it
    /// goes and needs nothing more.
    pub async fn begin_write(&self) -> sqlx::Result<sqlx::Transaction<'static, sqlx::Any>> {
        match self.backend {
            Backend::Sqlite => self.pool.begin_with("BEGIN IMMEDIATE").await,
            Backend::Postgres => self.pool.begin().await,
        }
    }

    /// A connection for one bulk write (a catalog import), set up for it until `BulkWriter::finish`
    /// puts it back in the pool as it was. On SQLite it gets a 64 MiB page cache instead of the
    /// default 2 MiB: writing 100,000 firearms through their table and four indexes, the small
    /// cache evicted pages it read back from the WAL moments later, about a second of the import.
    pub async fn bulk_writer(&self) -> sqlx::Result<BulkWriter> {
        let mut conn = self.pool.acquire().await?;
        let mut cache_size = None;
        if self.backend == Backend::Sqlite {
            let (size,): (i64,) = sqlx::query_as("PRAGMA cache_size").fetch_one(&mut *conn).await?;
            conn.execute("PRAGMA cache_size = -65536").await?;
            cache_size = Some(size);
        }
        Ok(BulkWriter { conn, cache_size })
    }

    /// `begin_write` on a connection already taken (`bulk_writer`).
    pub async fn begin_write_on<'c>(
        &self,
        conn: &'c mut AnyConnection,
    ) -> sqlx::Result<sqlx::Transaction<'c, sqlx::Any>> {
        match self.backend {
            Backend::Sqlite => conn.begin_with("BEGIN IMMEDIATE").await,
            Backend::Postgres => conn.begin().await,
        }
    }

    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    pub async fn close(&self) {
        self.pool.close().await;
    }
}

/// A pooled connection set up for a bulk write (`Db::bulk_writer`). It stays a pool connection,
/// so an in-memory SQLite database, which lives only as long as its connection, keeps what the
/// import wrote.
pub struct BulkWriter {
    conn: PoolConnection<sqlx::Any>,
    /// SQLite's page cache size before the bulk write, to restore.
    cache_size: Option<i64>,
}

impl BulkWriter {
    /// Put the connection back as it was before the bulk write, whatever its outcome; one that
    /// cannot be is closed rather than returned to the pool with a large cache.
    pub async fn finish(mut self) {
        if let Some(size) = self.cache_size {
            let restore = format!("PRAGMA cache_size = {size}");
            if let Err(e) = self.conn.execute(sqlx::AssertSqlSafe(restore)).await {
                tracing::warn!(error = %e, "the bulk writer's page cache was not restored; closing it");
                self.conn.close_on_drop();
            }
        }
    }
}

impl std::ops::Deref for BulkWriter {
    type Target = AnyConnection;
    fn deref(&self) -> &AnyConnection {
        &self.conn
    }
}

impl std::ops::DerefMut for BulkWriter {
    fn deref_mut(&mut self) -> &mut AnyConnection {
        &mut self.conn
    }
}

/// The URL without its password, fit for an error line or a log.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme_end), Some(at)) if at > scheme_end => {
            let userinfo = &url[scheme_end + 3..at];
            match userinfo.split_once(':') {
                Some((user, _)) => format!("{}{}:***{}", &url[..scheme_end + 3], user, &url[at..]),
                None => url.to_owned(),
            }
        }
        _ => url.to_owned(),
    }
}

fn first_line(error: &dyn std::fmt::Display) -> String {
    error.to_string().lines().next().unwrap_or_default().to_owned()
}

/// Hold an account's row until the transaction ends (an update that changes nothing), so that a
/// count-then-insert under an account's limit cannot be passed by two concurrent requests.
pub async fn lock_account(conn: &mut sqlx::AnyConnection, account_id: &str) -> sqlx::Result<()> {
    sqlx::query("UPDATE accounts SET id = id WHERE id = $1").bind(account_id).execute(conn).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redact_hides_only_the_password() {
        assert_eq!(redact("postgres://bob:secret@db/x"), "postgres://bob:***@db/x");
        assert_eq!(redact("postgres://bob@db/x"), "postgres://bob@db/x");
        assert_eq!(redact("sqlite://armory.db"), "sqlite://armory.db");
    }

    #[test]
    fn only_the_private_memory_database_is_made_shared() {
        for url in ["sqlite::memory:", "sqlite://:memory:", "sqlite::memory:?mode=rwc"] {
            assert!(in_memory(url), "{url}");
        }
        for url in ["sqlite://armory.db", "sqlite:x.db?mode=memory", "sqlite://memory.db"] {
            assert!(!in_memory(url), "{url}");
        }
        let shared = one_shared_memory_database("sqlite::memory:?mode=rwc&cache=private&immutable=false");
        assert!(shared.starts_with("sqlite:file:armory-memory-"), "{shared}");
        assert!(shared.ends_with("?mode=memory&cache=shared&immutable=false"), "{shared}");
        assert_ne!(
            one_shared_memory_database("sqlite::memory:"),
            one_shared_memory_database("sqlite::memory:")
        );
    }

    #[test]
    fn an_unknown_scheme_is_refused() {
        assert!(matches!(Db::connect_lazy("mysql://x"), Err(DbError::InvalidUrl(_))));
    }
}
