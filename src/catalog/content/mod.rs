//! The service's own content: changelog entries, blog posts and notices, written as Markdown files
//! with a TOML front matter under `data/content/` (the format is `data/content/README.md`),
//! checked by `load_dir` and written by the catalog import beside the records (`store`).

mod front_matter;
mod load;
pub mod store;

use serde::{Deserialize, Serialize};

pub use load::{CONTENT_DIR, load_dir};

/// One changelog entry. Times are the spec's `YYYY-MM-DD HH:MM:SS` UTC.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChangelogEntry {
    pub id: String,
    pub title: String,
    pub category: String,
    pub posted_at: String,
    /// Markdown.
    pub body: String,
}

/// One blog post; `id` is its slug.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BlogPost {
    pub id: String,
    pub title: String,
    pub summary: String,
    pub hero_image: Option<String>,
    pub posted_at: String,
    pub category: String,
    pub status: String,
    /// Markdown.
    pub body: String,
}

/// One notice, or an announced maintenance window (`kind`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Notice {
    pub id: String,
    pub title: String,
    pub kind: String,
    pub variant: String,
    pub status: String,
    pub starts_at: Option<String>,
    pub ends_at: Option<String>,
    /// The message, Markdown.
    pub body: String,
}

/// Everything under `data/content/`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Content {
    pub changelog: Vec<ChangelogEntry>,
    pub blog: Vec<BlogPost>,
    pub notices: Vec<Notice>,
}

/// The three kinds of content, each a folder of files and a kind of stored item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Changelog,
    Blog,
    Notices,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::Changelog, Kind::Blog, Kind::Notices];

    /// The folder under `data/content/`, also the kind's name in the store and the import summary.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Changelog => "changelog",
            Kind::Blog => "blog",
            Kind::Notices => "notices",
        }
    }
}
