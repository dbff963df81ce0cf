//! What every handler can reach.

use crate::config::Config;
use crate::db::Db;
use crate::shutdown::Shutdown;

#[derive(Clone)]
pub struct AppState {
    pub db: Db,
    pub config: std::sync::Arc<Config>,
    pub shutdown: Shutdown,
}
