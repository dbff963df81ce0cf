//! Every operation under /v1/me that the service routes needs a key an account owns: a key no
//! account owns is 403 KEY_NOT_LINKED_TO_ACCOUNT, before any body is read or anything written.

use armory::access::operations::OPERATIONS;
use serde_json::json;

use crate::support::{TestApp, error_reason, sample_path};

crate::on_each_database!(setup = crate::support::read_catalog_app; a_key_no_account_owns_is_refused_everywhere_under_me);

async fn a_key_no_account_owns_is_refused_everywhere_under_me(app: TestApp) {
    let (_, ownerless) = armory::accounts::create_key(&app.state.db, None, None, None).await.unwrap();
    app.state.access.keys.reload().await.unwrap();
    let routed = include_str!("../contract/operations.txt");
    let mut checked = 0;
    for row in OPERATIONS.iter().filter(|row| row.path.starts_with("/v1/me")) {
        if !routed.lines().any(|line| line == format!("{} {}", row.method, row.path)) {
            continue;
        }
        let request = app.client.request(row.method.parse().unwrap(), app.url(&sample_path(row.path)));
        let response = request.header("x-api-key", &ownerless).json(&json!({})).send().await.unwrap();
        let (status, reason, _) = error_reason(response).await;
        assert_eq!(
            (status, reason.as_str()),
            (403, "KEY_NOT_LINKED_TO_ACCOUNT"),
            "{} {}",
            row.method,
            row.path
        );
        checked += 1;
    }
    assert!(checked >= 18, "{checked} operations checked");
}
