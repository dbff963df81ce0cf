//! Building and running the server. Production (`armory serve`) and the tests start it the same
//! way: `App::build` connects, migrates and binds, exposing the bound address before serving.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use tokio::net::TcpListener;

use crate::access::admission::Access;
use crate::access::cache::KeyCache;
use crate::access::limiter::Limiter;
use crate::access::paging::BurstGuard;
use crate::access::transport::TransportPolicy;
use crate::access::usage::Usage;
use crate::config::Config;
use crate::db::{Db, DbError};
use crate::http::edge::service::Edge;
use crate::http::state::Shared;
use crate::http::{AppState, routes};
use crate::read::content::ContentHandle;
use crate::read::snapshot::CatalogHandle;
use crate::shutdown::Shutdown;
use crate::telemetry;
use crate::webhooks::Webhooks;

#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error(transparent)]
    Database(#[from] DbError),
    #[error("cannot load the API keys from the database: {0}")]
    Keys(#[source] sqlx::Error),
    #[error("cannot reach Redis for the rate-limit counters: {0}")]
    Limiter(#[from] crate::access::limiter::LimiterUnavailable),
    #[error("cannot serve HTTPS: {0}")]
    Tls(String),
    #[error("ARMORY_TRUSTED_PROXIES: {0}")]
    TrustedProxies(String),
    #[error("cannot load the catalog snapshot: {0}")]
    Catalog(#[from] crate::read::snapshot::SnapshotError),
    #[error("cannot load the changelog, blog and notices: {0}")]
    Content(#[from] crate::read::content::ContentError),
    #[error("cannot set up webhook delivery: {0}")]
    Webhooks(#[from] crate::webhooks::error::WebhookError),
    #[error(transparent)]
    Routes(#[from] crate::http::openapi::binding::UnboundRoute),
    #[error("cannot listen on ARMORY_BIND={addr}: {cause}")]
    Bind { addr: SocketAddr, cause: std::io::Error },
}

pub struct App {
    listener: TcpListener,
    /// The TLS acceptor, when HTTPS is served directly.
    tls: Option<tokio_rustls::TlsAcceptor>,
    /// The separate /metrics listener (`ARMORY_METRICS_BIND`), when configured.
    metrics_listener: Option<TcpListener>,
    service: Edge,
    state: AppState,
    /// The webhook worker's loop, when this process runs it; `run` waits for it on shutdown so
    /// that an attempt in flight finishes before the pool closes.
    worker: Option<tokio::task::JoinHandle<()>>,
}

impl App {
    /// Connect to `config.database_url`, apply migrations, bind `config.bind`.
    pub async fn build(config: Config) -> Result<Self, StartupError> {
        let db = Db::connect(&config.database_url).await?;
        db.migrate().await?;
        Self::with_db(config, db, None).await
    }

    /// Bind over an existing database handle, optionally with extra routes mounted.
    pub async fn with_db(
        config: Config,
        db: Db,
        extra: Option<Router<AppState>>,
    ) -> Result<Self, StartupError> {
        telemetry::install_panic_hook();
        let listener = TcpListener::bind(config.bind)
            .await
            .map_err(|cause| StartupError::Bind { addr: config.bind, cause })?;
        let (state, worker) = Self::build_state(config, db).await?;
        let service = routes::build(state.clone(), extra)?;
        let metrics_listener = match state.config.metrics_bind {
            Some(addr) => {
                Some(TcpListener::bind(addr).await.map_err(|cause| StartupError::Bind { addr, cause })?)
            }
            None => None,
        };
        let tls = match &state.config.tls {
            Some(files) => {
                let certificates =
                    crate::http::tls::ReloadingCert::load(files.clone()).map_err(StartupError::Tls)?;
                tokio::spawn(certificates.clone().keep_fresh(state.shutdown.clone()));
                Some(crate::http::tls::acceptor(certificates).map_err(StartupError::Tls)?)
            }
            None => None,
        };
        Ok(Self { listener, tls, metrics_listener, service, state, worker })
    }

    /// The state every handler reaches, over `db`: the key cache, limiter and usage, the catalog
    /// snapshot and webhooks, with their keep-fresh tasks spawned, and the webhook worker's loop
    /// when `config` runs it. `armory contract` builds it too, to call the router without a listener.
    pub async fn build_state(
        config: Config,
        db: Db,
    ) -> Result<(AppState, Option<tokio::task::JoinHandle<()>>), StartupError> {
        let shutdown = Shutdown::default();
        let access = Arc::new(Access {
            keys: KeyCache::load(db.clone()).await.map_err(StartupError::Keys)?,
            limiter: match &config.redis_url {
                Some(url) => Limiter::redis(url).await?,
                None => Limiter::memory(),
            },
            plans: config.plans.clone(),
            burst: BurstGuard::default(),
            usage: Usage::new(db.clone()),
            transport: TransportPolicy::parse(&config.trusted_proxies)
                .map_err(StartupError::TrustedProxies)?,
        });
        let files = config.snapshot_dir.clone().map(crate::read::persisted::SnapshotFiles::new);
        let catalog = CatalogHandle::load(db.clone(), files).await?;
        tokio::spawn(access.keys.clone().keep_fresh(shutdown.clone()));
        tokio::spawn(access.usage.clone().keep_flushing(shutdown.clone()));
        tokio::spawn(catalog.clone().keep_fresh(shutdown.clone()));
        let content = ContentHandle::load(db.clone(), config.public_url.as_deref().unwrap_or("")).await?;
        tokio::spawn(content.clone().keep_fresh(shutdown.clone()));
        let webhooks = Webhooks::try_new(db.clone(), catalog.clone(), config.webhooks.clone())?;
        let worker = config.webhooks.run_worker.then(|| tokio::spawn(webhooks.clone().run(shutdown.clone())));
        let self_check = Default::default();
        let shared =
            Shared { db, config: Arc::new(config), shutdown, access, catalog, content, webhooks, self_check };
        Ok((AppState::new(shared), worker))
    }

    /// The separate /metrics listener's address, when one is configured.
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        self.metrics_listener.as_ref().and_then(|l| l.local_addr().ok())
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.listener.local_addr().expect("a bound listener has an address")
    }

    /// The token that stops this app: trigger it, and /ready turns 503 at once, the listener closes
    /// after the configured drain, and `run` returns once in-flight requests finished.
    pub fn shutdown(&self) -> Shutdown {
        self.state.shutdown.clone()
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    pub async fn run(self) -> std::io::Result<()> {
        let shutdown = self.state.shutdown.clone();
        let drain = self.state.config.shutdown_drain;
        let stop = async move {
            shutdown.triggered().await;
            tokio::time::sleep(drain).await;
        };
        let connections = self.state.config.connections.clone();
        if let Some(listener) = self.metrics_listener {
            let router = crate::http::service::metrics::private_listener(self.state.clone());
            let stopped = self.state.shutdown.clone();
            let settings = connections.clone();
            tokio::spawn(async move {
                let stop = async move { stopped.triggered().await };
                if let Err(e) = crate::http::server::serve(listener, router, settings, None, stop).await {
                    tracing::error!(error = %e, "the metrics listener failed");
                }
            });
        }
        crate::http::server::serve(self.listener, self.service, connections, self.tls, stop).await?;
        if let Some(worker) = self.worker
            && let Err(e) = worker.await
        {
            tracing::error!(error = %e, "the webhook worker panicked");
        }
        if let Err(e) = self.state.access.usage.flush().await {
            tracing::warn!(error = %e, "the last usage counts were not saved");
        }
        self.state.db.close().await;
        Ok(())
    }
}
