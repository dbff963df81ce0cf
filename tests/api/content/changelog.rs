//! The changelog (122, 123) and its Atom feed (124), on the bundled content.

use super::json;

use crate::support::{TestApp, read_catalog_app};

crate::on_each_database!(setup = read_catalog_app;
    the_changelog_pages_newest_first_and_filters_by_category,
    one_entry_has_its_body_as_markdown_and_html,
    the_feed_is_atom_with_one_entry_per_change_and_revalidates);

/// The number of entries in `data/content/changelog/`.
fn bundled_entries() -> usize {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/content/changelog");
    std::fs::read_dir(dir)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "md"))
        .count()
}

async fn the_changelog_pages_newest_first_and_filters_by_category(app: TestApp) {
    let (status, body) = json(&app, "/v1/changelog?per_page=100").await;
    assert_eq!(status, 200, "{body}");
    let entries = body["data"].as_array().unwrap();
    assert_eq!(entries.len(), bundled_entries());
    assert_eq!(body["pagination"]["total"], bundled_entries());
    let dates: Vec<&str> = entries.iter().map(|e| e["postedAt"].as_str().unwrap()).collect();
    assert!(dates.windows(2).all(|pair| pair[0] >= pair[1]), "newest first: {dates:?}");

    // Page 2 of 5 a page continues where page 1 stopped.
    let (_, first) = json(&app, "/v1/changelog?per_page=5").await;
    let (_, second) = json(&app, "/v1/changelog?per_page=5&page=2").await;
    assert_eq!(first["data"].as_array().unwrap().len(), 5);
    assert_eq!(second["data"][0]["id"], entries[5]["id"]);
    assert_eq!(second["pagination"]["page"], 2);

    let (status, bugfixes) = json(&app, "/v1/changelog?category=bugfix").await;
    assert_eq!(status, 200);
    let bugfixes = bugfixes["data"].as_array().unwrap();
    assert!(!bugfixes.is_empty());
    assert!(bugfixes.iter().all(|e| e["category"] == "bugfix"));

    // No plan's depth without a key: a page past the end is empty, not refused.
    let (status, far) = json(&app, "/v1/changelog?page=9999").await;
    assert_eq!(status, 200, "{far}");
    assert_eq!(far["data"], serde_json::json!([]));
    assert_eq!(far["pagination"]["total"], bundled_entries());

    // The GunSpec client spells bugfix `fix`.
    let (status, fixes) = json(&app, "/v1/changelog?category=fix").await;
    assert_eq!(status, 200);
    assert_eq!(fixes["data"].as_array().unwrap().len(), bugfixes.len());

    let (status, refused) = json(&app, "/v1/changelog?category=news").await;
    assert_eq!(status, 400);
    assert_eq!(refused["error"]["reason"], "INVALID_PARAMETER");
    assert!(refused["error"]["details"]["category"].is_string(), "{refused}");
}

async fn one_entry_has_its_body_as_markdown_and_html(app: TestApp) {
    let (status, body) = json(&app, "/v1/changelog/2026-12-07-fixes-from-outside").await;
    assert_eq!(status, 200, "{body}");
    let entry = &body["data"];
    assert_eq!(entry["category"], "bugfix");
    assert_eq!(entry["postedAt"], "2026-12-07 14:06:38");
    assert!(entry["body"].as_str().unwrap().contains("`304 Not Modified`"));
    assert!(entry["bodyHtml"].as_str().unwrap().contains("<ol>"), "{entry}");
    assert!(entry["bodyHtml"].as_str().unwrap().contains("<code>304 Not Modified</code>"));
    assert!(entry["createdAt"].is_string() && entry["updatedAt"].is_string());

    let (status, missing) = json(&app, "/v1/changelog/no-such-entry").await;
    assert_eq!(status, 404);
    assert_eq!(missing["error"]["reason"], "RESOURCE_NOT_FOUND");
    let (status, bad) = json(&app, "/v1/changelog/Not_An_Id").await;
    assert_eq!(status, 400, "{bad}");
}

async fn the_feed_is_atom_with_one_entry_per_change_and_revalidates(app: TestApp) {
    let response = app.get("/v1/changelog/feed").await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/atom+xml; charset=utf-8");
    let etag = response.headers()["etag"].to_str().unwrap().to_owned();
    let text = response.text().await.unwrap();
    let document = roxmltree::Document::parse(&text).expect("the feed is well-formed XML");
    let feed = document.root_element();
    assert_eq!(feed.tag_name().name(), "feed");
    assert_eq!(feed.tag_name().namespace(), Some("http://www.w3.org/2005/Atom"));
    let child = |node: roxmltree::Node<'_, '_>, name: &str| {
        node.children().find(|c| c.tag_name().name() == name).and_then(|c| c.text()).map(str::to_owned)
    };
    for required in ["id", "title", "updated"] {
        assert!(child(feed, required).is_some(), "the feed has <{required}>");
    }
    let entries: Vec<_> = feed.children().filter(|c| c.tag_name().name() == "entry").collect();
    assert_eq!(entries.len(), bundled_entries());
    let mut ids = std::collections::HashSet::new();
    for entry in &entries {
        let id = child(*entry, "id").unwrap();
        assert!(id.starts_with("urn:uuid:"), "{id}");
        assert!(ids.insert(id), "entry ids are unique");
        let updated = child(*entry, "updated").unwrap();
        assert!(
            time::OffsetDateTime::parse(&updated, &time::format_description::well_known::Rfc3339).is_ok()
        );
        let content = entry.children().find(|c| c.tag_name().name() == "content").unwrap();
        assert_eq!(content.attribute("type"), Some("html"));
        assert!(
            content.text().unwrap().starts_with('<'),
            "the HTML is escaped text, unescaped by the parser"
        );
    }
    let newest = child(entries[0], "title").unwrap();
    let (_, list) = json(&app, "/v1/changelog?per_page=1").await;
    assert_eq!(list["data"][0]["title"], newest.as_str());

    let again =
        app.client.get(app.url("/v1/changelog/feed")).header("if-none-match", &etag).send().await.unwrap();
    assert_eq!(again.status(), 304);
    assert_eq!(again.headers()["etag"].to_str().unwrap(), etag);
}
