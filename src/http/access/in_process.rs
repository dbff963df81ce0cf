//! The service calling itself: a request the self-check (`http::self_check`) sends through the
//! router in process carries an `InProcessCaller` extension. Extensions are set by code only (no
//! header, query or body becomes one), and only this module can make one, so no request from
//! outside can carry it. The gate admits such a request as an Enterprise caller with no account
//! and no shop: no key, no transport rule, no limits, no usage counted.

use std::sync::Arc;

use axum::extract::Request;

use crate::access::caller::Caller;
use crate::access::plan::Plan;

/// Marks a request the service made to itself, in process.
#[derive(Debug, Clone, Copy)]
pub struct InProcessCaller {
    /// Private: nothing outside the HTTP layer makes one.
    _only_code: (),
}

impl InProcessCaller {
    pub(in crate::http) fn new() -> Self {
        Self { _only_code: () }
    }
}

/// The key id the in-process caller stands under (never a real key's: those are `key_…`).
pub const KEY_ID: &str = "in-process";

/// Whether `caller` is the one `admitted` set: the service's own request.
pub fn is_in_process(caller: &Caller) -> bool {
    &*caller.key_id == KEY_ID
}

/// Whether `request` is the service's own; if so, the Enterprise caller is set for the handler.
pub fn admitted(request: &mut Request) -> bool {
    if request.extensions().get::<InProcessCaller>().is_none() {
        return false;
    }
    request.extensions_mut().insert(Caller {
        key_id: Arc::from(KEY_ID),
        account_id: None,
        plan: Plan::Enterprise,
        suspended: false,
        staff: false,
        shops: Arc::from([]),
    });
    true
}
