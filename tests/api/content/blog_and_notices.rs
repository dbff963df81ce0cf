//! The blog (125, 126) and the notices (127): on the bundled content, then on content written
//! through the store as an import writes it (drafts, inactive notices, windows in time).

use armory::catalog::content::{BlogPost, Content, Notice, store};

use super::json;

use crate::support::{TestApp, fresh_app, read_catalog_app};

crate::on_each_database!(setup = read_catalog_app; the_blog_lists_published_posts_and_serves_one_with_html);
crate::on_each_database!(setup = fresh_app;
    drafts_and_inactive_notices_are_never_served,
    notices_follow_their_times_and_windows_show_until_they_end);

async fn the_blog_lists_published_posts_and_serves_one_with_html(app: TestApp) {
    let (status, body) = json(&app, "/v1/blog").await;
    assert_eq!(status, 200, "{body}");
    let posts = body["data"].as_array().unwrap();
    assert!(posts.len() >= 3);
    assert!(posts.iter().all(|post| post["status"] == "published" && post.get("body").is_none()));
    let dates: Vec<&str> = posts.iter().map(|p| p["postedAt"].as_str().unwrap()).collect();
    assert!(dates.windows(2).all(|pair| pair[0] >= pair[1]), "newest first: {dates:?}");

    let (_, guides) = json(&app, "/v1/blog?category=guide").await;
    assert!(guides["data"].as_array().unwrap().iter().all(|post| post["category"] == "guide"));
    let (_, none) = json(&app, "/v1/blog?category=announcement").await;
    assert_eq!(none["pagination"]["total"], none["data"].as_array().unwrap().len());

    let (status, post) = json(&app, "/v1/blog/keeping-a-local-copy-fresh").await;
    assert_eq!(status, 200, "{post}");
    let post = &post["data"];
    assert_eq!(post["id"], "keeping-a-local-copy-fresh");
    assert!(post["summary"].as_str().unwrap().contains("ETags"));
    assert!(post["body"].as_str().unwrap().contains("## Conditional requests"));
    assert!(post["bodyHtml"].as_str().unwrap().contains("<h2>Conditional requests"), "{post}");
    assert!(post["heroImage"].is_null());

    let (status, missing) = json(&app, "/v1/blog/no-such-post").await;
    assert_eq!((status, missing["error"]["reason"].as_str()), (404, Some("RESOURCE_NOT_FOUND")));
}

fn post(id: &str, status: &str) -> BlogPost {
    BlogPost {
        id: id.into(),
        title: format!("Post {id}"),
        summary: "A post.".into(),
        hero_image: None,
        posted_at: "2026-01-01 00:00:00".into(),
        category: "announcement".into(),
        status: status.into(),
        body: "Hello <script>alert(1)</script> [x](javascript:alert(1))".into(),
    }
}

fn notice(id: &str, kind: &str, status: &str, starts_at: Option<&str>, ends_at: Option<&str>) -> Notice {
    Notice {
        id: id.into(),
        title: format!("Notice {id}"),
        kind: kind.into(),
        variant: "warning".into(),
        status: status.into(),
        starts_at: starts_at.map(str::to_owned),
        ends_at: ends_at.map(str::to_owned),
        body: format!("Message of {id}."),
    }
}

/// Write `content` as an import does and have the node serve it.
async fn publish(app: &TestApp, content: &Content) {
    let mut conn = app.state.db.pool().acquire().await.unwrap();
    store::sync(&mut conn, content, &armory::clock::sql_now()).await.unwrap();
    drop(conn);
    app.state.content.reload().await.unwrap();
}

async fn drafts_and_inactive_notices_are_never_served(app: TestApp) {
    let content = Content {
        blog: vec![post("out-now", "published"), post("not-yet", "draft")],
        notices: vec![notice("hidden", "notice", "inactive", None, None)],
        ..Content::default()
    };
    publish(&app, &content).await;
    let (_, list) = json(&app, "/v1/blog").await;
    let ids: Vec<&str> = list["data"].as_array().unwrap().iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["out-now"]);
    assert_eq!(json(&app, "/v1/blog/not-yet").await.0, 404);
    let (_, published) = json(&app, "/v1/blog/out-now").await;
    let html = published["data"]["bodyHtml"].as_str().unwrap();
    assert!(!html.contains("<script") && !html.contains("javascript:"), "sanitised: {html}");
    let (_, notices) = json(&app, "/v1/notices").await;
    assert_eq!(notices["data"]["notices"], serde_json::json!([]));
}

async fn notices_follow_their_times_and_windows_show_until_they_end(app: TestApp) {
    let content = Content {
        notices: vec![
            notice("current", "notice", "active", Some("2020-01-01 00:00:00"), Some("2999-01-01 00:00:00")),
            notice("open-ended", "notice", "active", None, None),
            notice("future", "notice", "active", Some("2999-01-01 00:00:00"), None),
            notice("over", "notice", "active", None, Some("2020-01-01 00:00:00")),
            notice(
                "upcoming-window",
                "maintenance",
                "active",
                Some("2999-01-01 02:00:00"),
                Some("2999-01-01 02:30:00"),
            ),
            notice(
                "past-window",
                "maintenance",
                "active",
                Some("2020-01-01 02:00:00"),
                Some("2020-01-01 02:30:00"),
            ),
        ],
        ..Content::default()
    };
    publish(&app, &content).await;
    let (status, body) = json(&app, "/v1/notices").await;
    assert_eq!(status, 200, "{body}");
    let ids = |key: &str| -> Vec<String> {
        body["data"][key].as_array().unwrap().iter().map(|n| n["id"].as_str().unwrap().to_owned()).collect()
    };
    assert_eq!(ids("notices"), ["open-ended", "current"]);
    assert_eq!(ids("maintenanceWindows"), ["upcoming-window"]);
    let window = &body["data"]["maintenanceWindows"][0];
    assert_eq!(window["variant"], "warning");
    assert_eq!(window["messageHtml"], "<p>Message of upcoming-window.</p>\n");
}
