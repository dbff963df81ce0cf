//! What every handler can reach.

use std::sync::Arc;

use crate::access::gate::Access;
use crate::catalog::snapshot::CatalogHandle;
use crate::config::Config;
use crate::db::Db;
use crate::shutdown::Shutdown;
use crate::webhooks::Webhooks;

#[derive(Clone)]
pub struct AppState {
    pub db: Db,
    pub config: Arc<Config>,
    pub shutdown: Shutdown,
    pub access: Arc<Access>,
    pub catalog: CatalogHandle,
    pub webhooks: Webhooks,
}
