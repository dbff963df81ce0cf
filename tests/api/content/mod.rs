//! The service's content, read without a key: changelog, Atom feed, blog and notices.

mod blog_and_notices;
mod changelog;
mod import;

/// A keyless GET's status and JSON body.
async fn json(app: &crate::support::TestApp, path: &str) -> (u16, serde_json::Value) {
    let response = app.get(path).await;
    (response.status().as_u16(), response.json().await.unwrap())
}
