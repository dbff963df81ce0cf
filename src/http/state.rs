//! What every handler can reach.

use std::sync::Arc;

use crate::access::admission::Access;
use crate::config::Config;
use crate::db::Db;
use crate::read::content::ContentHandle;
use crate::read::snapshot::CatalogHandle;
use crate::shutdown::Shutdown;
use crate::webhooks::Webhooks;

/// Cloned for every extractor and route layer of every request, so it is one shared pointer:
/// cloning and dropping the parts one by one (a dozen reference counts and the snapshot folder's
/// path) was about 3% of a firearm detail's time.
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

pub struct Shared {
    pub db: Db,
    pub config: Arc<Config>,
    pub shutdown: Shutdown,
    pub access: Arc<Access>,
    pub catalog: CatalogHandle,
    /// The changelog, blog and notices.
    pub content: ContentHandle,
    pub webhooks: Webhooks,
    /// The contract run and the samples, kept (`http::self_check`).
    pub self_check: crate::http::self_check::Caches,
}

impl AppState {
    pub fn new(shared: Shared) -> Self {
        Self(Arc::new(shared))
    }
}

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

impl axum::extract::FromRef<AppState> for Arc<Access> {
    fn from_ref(state: &AppState) -> Self {
        state.access.clone()
    }
}
