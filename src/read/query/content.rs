//! The changelog, the blog and the notices (operations 122 to 127), over the content a node
//! serves (`read::content::Published`) rather than a catalog snapshot.

use serde::Serialize;
use utoipa::ToSchema;

use crate::access::maintenance::Maintenance;
use crate::access::paging::{Pagination, Paging};
use crate::read::content::{BlogPostDetail, BlogPostItem, ChangelogItem, NoticeItem, Published};
use crate::read::error::QueryError;
use crate::read::rendered::Rendered;

/// The changelog categories a filter accepts: the spec's five, and `fix`, which the published
/// GunSpec client offers for `bugfix`.
pub const CHANGELOG_CATEGORY_FILTER: &[&str] =
    &["feature", "improvement", "bugfix", "fix", "data", "breaking"];

/// A page of the changelog, newest first, of one category or all (`fix` is `bugfix`).
pub fn changelog<'a>(
    content: &'a Published,
    category: Option<&str>,
    paging: &Paging,
) -> (Vec<&'a ChangelogItem>, Pagination) {
    let category = category.map(|c| if c == "fix" { "bugfix" } else { c });
    let matching: Vec<&ChangelogItem> =
        content.changelog.iter().filter(|entry| category.is_none_or(|c| entry.category == c)).collect();
    let (page, pagination) = paging.slice(&matching);
    (page.to_vec(), pagination)
}

/// One changelog entry (404 for an unknown id).
pub fn changelog_entry<'a>(content: &'a Published, id: &str) -> Result<&'a ChangelogItem, QueryError> {
    content
        .changelog
        .iter()
        .find(|entry| entry.id == id)
        .ok_or_else(|| QueryError::not_found("changelog entry", id))
}

/// The changelog as an Atom feed, with its ETag.
pub fn changelog_feed(content: &Published) -> Result<&Rendered, QueryError> {
    content.feed.as_ref().ok_or_else(|| QueryError::Failed("the content has no feed".into()))
}

/// A page of the published blog posts, newest first, of one category or all.
pub fn blog<'a>(
    content: &'a Published,
    category: Option<&str>,
    paging: &Paging,
) -> (Vec<&'a BlogPostItem>, Pagination) {
    let matching: Vec<&BlogPostItem> = content
        .blog
        .iter()
        .map(|detail| &detail.post)
        .filter(|post| category.is_none_or(|c| post.category == c))
        .collect();
    let (page, pagination) = paging.slice(&matching);
    (page.to_vec(), pagination)
}

/// One published blog post with its body (404 for an unknown or unpublished slug).
pub fn blog_post<'a>(content: &'a Published, slug: &str) -> Result<&'a BlogPostDetail, QueryError> {
    content
        .blog
        .iter()
        .find(|detail| detail.post.id == slug)
        .ok_or_else(|| QueryError::not_found("blog post", slug))
}

/// What /v1/notices answers.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Notices<'a> {
    /// Notices in effect now: each active one whose start (if any) has passed and whose end (if
    /// any) has not.
    pub notices: Vec<&'a NoticeItem>,
    /// Announced maintenance windows that have not ended, most severe first, then soonest.
    pub maintenance_windows: Vec<&'a NoticeItem>,
    /// Whether keyed operations are paused right now (`armory maintenance on`), and why.
    pub maintenance: Maintenance,
}

/// The notices in effect at `now` (`YYYY-MM-DD HH:MM:SS` UTC), the maintenance windows not yet
/// over, and the maintenance mode the node holds.
pub fn notices<'a>(content: &'a Published, now: &str, maintenance: Maintenance) -> Notices<'a> {
    let not_over = |item: &NoticeItem| item.ends_at.as_deref().is_none_or(|ends| ends > now);
    let started = |item: &NoticeItem| item.starts_at.as_deref().is_none_or(|starts| starts <= now);
    let mut answer = Notices { notices: Vec::new(), maintenance_windows: Vec::new(), maintenance };
    for held in &content.notices {
        let item = &held.item;
        if held.maintenance && not_over(item) {
            answer.maintenance_windows.push(item);
        } else if !held.maintenance && started(item) && not_over(item) {
            answer.notices.push(item);
        }
    }
    answer
}
