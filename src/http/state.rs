//! What every handler can reach.

use std::sync::Arc;

use crate::access::gate::Access;
use crate::config::Config;
use crate::db::Db;
use crate::read::snapshot::CatalogHandle;
use crate::shutdown::Shutdown;
use crate::webhooks::Webhooks;

#[derive(Clone, axum::extract::FromRef)]
pub struct AppState {
    pub db: Db,
    pub config: Arc<Config>,
    pub shutdown: Shutdown,
    pub access: Arc<Access>,
    pub catalog: CatalogHandle,
    pub webhooks: Webhooks,
}
