//! The content a node serves (changelog, blog, notices), read whole from the database and kept
//! ready to answer: sorted, its Markdown rendered as sanitised HTML (`markdown`), the Atom feed
//! written (`atom`). `ContentHandle` swaps it when an import moves `content_revision`, polled as
//! the catalog revision is. The items are few (tens), so a change reads them all again.

mod atom;
pub mod markdown;

use std::sync::{Arc, RwLock};
use std::time::Duration;

use serde::Serialize;
use utoipa::ToSchema;

use super::rendered::Rendered;
use crate::catalog::content::store::{self, StoredItem};
use crate::catalog::content::{BlogPost, ChangelogEntry, Kind, Notice};
use crate::db::Db;

/// One changelog entry as served. Times are `YYYY-MM-DD HH:MM:SS` UTC.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChangelogItem {
    pub id: String,
    pub title: String,
    /// feature, improvement, bugfix, data or breaking.
    #[schema(value_type = String, example = "feature")]
    pub category: String,
    /// When the change became available.
    pub posted_at: String,
    /// The entry as Markdown.
    pub body: String,
    /// The entry as sanitised HTML.
    pub body_html: String,
    pub created_at: String,
    pub updated_at: String,
}

/// A blog post in the list: everything but its body.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BlogPostItem {
    /// The post's slug, as in /v1/blog/{slug}.
    pub id: String,
    pub title: String,
    pub summary: String,
    /// An https URL of the post's image, or null.
    pub hero_image: Option<String>,
    pub posted_at: String,
    /// guide, announcement or data.
    pub category: String,
    /// Always published: drafts are not served.
    pub status: String,
    pub created_at: String,
    pub updated_at: String,
}

/// One blog post with its body.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BlogPostDetail {
    #[serde(flatten)]
    pub post: BlogPostItem,
    /// The post as Markdown.
    pub body: String,
    /// The post as sanitised HTML.
    pub body_html: String,
}

/// A notice or an announced maintenance window as served.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NoticeItem {
    pub id: String,
    pub title: String,
    /// info, warning or critical.
    pub variant: String,
    /// The message as Markdown.
    pub message: String,
    /// The message as sanitised HTML.
    pub message_html: String,
    /// From when it applies (a notice: null means since it was published).
    pub starts_at: Option<String>,
    /// Until when it applies (a notice: null means until withdrawn).
    pub ends_at: Option<String>,
}

/// A notice item with what decides when it is served.
#[derive(Debug, Clone)]
pub struct HeldNotice {
    pub item: NoticeItem,
    pub maintenance: bool,
}

/// The content of one content revision, ready to serve.
#[derive(Debug, Default)]
pub struct Published {
    pub revision: i64,
    /// Newest first (ties by id).
    pub changelog: Vec<ChangelogItem>,
    /// Published posts only, newest first (ties by id), with their bodies.
    pub blog: Vec<BlogPostDetail>,
    /// Active notices and maintenance windows; whether each is current depends on the time asked.
    pub notices: Vec<HeldNotice>,
    /// The Atom feed of the changelog, with its ETag.
    pub feed: Option<Rendered>,
}

impl Published {
    /// What `items` (the stored rows of revision `revision`) serve; links in the feed under `base`.
    pub fn of(revision: i64, items: Vec<StoredItem>, base: &str) -> serde_json::Result<Self> {
        let mut published = Self { revision, ..Self::default() };
        for item in items {
            let StoredItem { kind, record, created_at, updated_at, .. } = item;
            if kind == Kind::Changelog.name() {
                let entry: ChangelogEntry = serde_json::from_str(&record)?;
                published.changelog.push(ChangelogItem {
                    body_html: markdown::to_html(&entry.body),
                    id: entry.id,
                    title: entry.title,
                    category: entry.category,
                    posted_at: entry.posted_at,
                    body: entry.body,
                    created_at,
                    updated_at,
                });
            } else if kind == Kind::Blog.name() {
                let post: BlogPost = serde_json::from_str(&record)?;
                if post.status != "published" {
                    continue;
                }
                published.blog.push(BlogPostDetail {
                    body_html: markdown::to_html(&post.body),
                    body: post.body,
                    post: BlogPostItem {
                        id: post.id,
                        title: post.title,
                        summary: post.summary,
                        hero_image: post.hero_image,
                        posted_at: post.posted_at,
                        category: post.category,
                        status: post.status,
                        created_at,
                        updated_at,
                    },
                });
            } else if kind == Kind::Notices.name() {
                let notice: Notice = serde_json::from_str(&record)?;
                if notice.status != "active" {
                    continue;
                }
                published.notices.push(HeldNotice {
                    maintenance: notice.kind == "maintenance",
                    item: NoticeItem {
                        message_html: markdown::to_html(&notice.body),
                        id: notice.id,
                        title: notice.title,
                        variant: notice.variant,
                        message: notice.body,
                        starts_at: notice.starts_at,
                        ends_at: notice.ends_at,
                    },
                });
            }
        }
        published.changelog.sort_by(|a, b| b.posted_at.cmp(&a.posted_at).then_with(|| a.id.cmp(&b.id)));
        published
            .blog
            .sort_by(|a, b| b.post.posted_at.cmp(&a.post.posted_at).then_with(|| a.post.id.cmp(&b.post.id)));
        // Most severe first, then the earliest to start (a notice with no start first), then by id.
        published.notices.sort_by(|a, b| {
            severity(&a.item.variant)
                .cmp(&severity(&b.item.variant))
                .then_with(|| a.item.starts_at.cmp(&b.item.starts_at))
                .then_with(|| a.item.id.cmp(&b.item.id))
        });
        published.feed = Some(Rendered::from_body(atom::feed(&published.changelog, base).into_bytes()));
        Ok(published)
    }
}

/// A notice variant's rank: critical first, then warning, then info.
fn severity(variant: &str) -> usize {
    ["critical", "warning", "info"].iter().position(|v| *v == variant).unwrap_or(3)
}

/// The content a node serves, swapped whole when the stored content moves.
#[derive(Clone)]
pub struct ContentHandle {
    db: Db,
    base: Arc<str>,
    current: Arc<RwLock<Arc<Published>>>,
}

/// How often a node reads `content_revision`: one indexed row.
const CONTENT_POLL: Duration = Duration::from_millis(250);

impl ContentHandle {
    /// The stored content, its feed's links under `base` (the public URL, or "").
    pub async fn load(db: Db, base: &str) -> Result<Self, ContentError> {
        let published = read(&db, base).await?;
        Ok(Self { db, base: base.into(), current: Arc::new(RwLock::new(Arc::new(published))) })
    }

    pub fn current(&self) -> Arc<Published> {
        self.current.read().expect("never poisoned").clone()
    }

    /// Read the stored content again and serve it.
    pub async fn reload(&self) -> Result<(), ContentError> {
        let published = read(&self.db, &self.base).await?;
        *self.current.write().expect("never poisoned") = Arc::new(published);
        Ok(())
    }

    /// Follow `content_revision`, polled every `CONTENT_POLL`.
    pub async fn keep_fresh(self, stop: crate::shutdown::Shutdown) {
        let mut tick = tokio::time::interval(CONTENT_POLL);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = stop.triggered() => return,
                _ = tick.tick() => {}
            }
            let stored = match self.db.pool().acquire().await {
                Ok(mut conn) => store::content_revision(&mut conn).await,
                Err(e) => Err(e),
            };
            match stored {
                Ok(revision) if revision != self.current().revision => {
                    if let Err(e) = self.reload().await {
                        tracing::warn!(error = %e, "reloading the content failed; serving the previous one");
                    }
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "cannot read the content revision"),
            }
        }
    }
}

async fn read(db: &Db, base: &str) -> Result<Published, ContentError> {
    let (revision, items) = store::read_all(db).await?;
    Ok(Published::of(revision, items, base)?)
}

/// Why the content could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ContentError {
    #[error("cannot read the content: {0}")]
    Database(#[from] sqlx::Error),
    #[error("a stored content record does not parse: {0}")]
    Record(#[from] serde_json::Error),
}
