//! Reading `data/content/`: every `*.md` file directly in `changelog/`, `blog/` and `notices/`,
//! each checked as its kind's front matter. Anything else in those folders is refused, so a
//! misnamed file never vanishes silently.

use std::path::Path;

use super::front_matter::FrontMatter;
use super::{BlogPost, ChangelogEntry, Content, Kind, Notice};
use crate::catalog::load::{DataError, LoadErrors, is_valid_id};
use crate::catalog::vocabulary as vocab;

/// The content folder inside a data folder.
pub const CONTENT_DIR: &str = "content";

/// Titles are one line of at most this many characters.
const TITLE_CHARS: usize = 120;
/// A blog summary: one or two sentences.
const SUMMARY_CHARS: usize = 300;

/// The content under `dir` (a data folder's `content/`), every problem named by file and key;
/// None when `dir` has no content folder.
pub fn load_dir(dir: &Path) -> Result<Option<Content>, LoadErrors> {
    let root = dir.join(CONTENT_DIR);
    if !root.is_dir() {
        return Ok(None);
    }
    let mut content = Content::default();
    let mut errors = Vec::new();
    for kind in Kind::ALL {
        for (file, id, text) in files_of(&root, kind, &mut errors) {
            match FrontMatter::parse(&file, &id, &text) {
                Ok((front, body)) => read_item(kind, front, id, body, &mut content, &mut errors),
                Err(problem) => errors.push(problem),
            }
        }
    }
    if !errors.is_empty() {
        return Err(LoadErrors(errors));
    }
    Ok(Some(content))
}

/// Each content file of `kind` as (its name under `data/`, its id, its text), sorted by name.
fn files_of(root: &Path, kind: Kind, errors: &mut Vec<DataError>) -> Vec<(String, String, String)> {
    let folder = root.join(kind.name());
    let problem =
        |file: String, message: String| DataError { file, record: "-".into(), field: "-".into(), message };
    let entries = match std::fs::read_dir(&folder) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return vec![],
        Err(e) => {
            errors.push(problem(display(&folder), format!("cannot read the folder: {e}")));
            return vec![];
        }
    };
    let mut files = Vec::new();
    for entry in entries {
        let path = match entry {
            Ok(entry) => entry.path(),
            Err(e) => {
                errors.push(problem(display(&folder), format!("cannot read the folder: {e}")));
                continue;
            }
        };
        let name = format!(
            "{CONTENT_DIR}/{}/{}",
            kind.name(),
            path.file_name().unwrap_or_default().to_string_lossy()
        );
        let id = path.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_suffix(".md"));
        match id {
            _ if path.is_dir() => errors.push(problem(name, "a content folder holds no subfolders".into())),
            None => errors.push(problem(name, "only files named <id>.md are content".into())),
            Some(id) if !is_valid_id(id) => {
                errors.push(problem(name, "the file name (the id) must match ^[a-z0-9-]+$".into()))
            }
            Some(id) => match std::fs::read_to_string(&path) {
                Ok(text) => files.push((name, id.to_owned(), text)),
                Err(e) => errors.push(problem(name, format!("cannot read the file as UTF-8 text: {e}"))),
            },
        }
    }
    files.sort();
    files
}

fn display(path: &Path) -> String {
    path.display().to_string()
}

/// Read one file's front matter as its kind's item and add it to `content`.
fn read_item(
    kind: Kind,
    mut front: FrontMatter,
    id: String,
    body: String,
    content: &mut Content,
    errors: &mut Vec<DataError>,
) {
    match kind {
        Kind::Changelog => {
            let title = front.text("title", TITLE_CHARS);
            let category = front.one_of("category", vocab::CHANGELOG_CATEGORIES);
            let posted_at = front.time("posted_at");
            if let (Some(title), Some(category), Some(posted_at)) = (title, category, posted_at) {
                content.changelog.push(ChangelogEntry { id, title, category, posted_at, body });
            }
        }
        Kind::Blog => {
            let title = front.text("title", TITLE_CHARS);
            let summary = front.text("summary", SUMMARY_CHARS);
            let hero_image = front.optional_text("hero_image", 500);
            if let Some(url) = &hero_image
                && !url.starts_with("https://")
            {
                front_problem(errors, &front_file(kind, &id), &id, "hero_image", "must be an https:// URL");
            }
            let posted_at = front.time("posted_at");
            let category = front.one_of("category", vocab::BLOG_CATEGORIES);
            let status = front.one_of("status", vocab::BLOG_STATUSES);
            if let (Some(title), Some(summary), Some(posted_at), Some(category), Some(status)) =
                (title, summary, posted_at, category, status)
            {
                content.blog.push(BlogPost {
                    id,
                    title,
                    summary,
                    hero_image,
                    posted_at,
                    category,
                    status,
                    body,
                });
            }
        }
        Kind::Notices => {
            let title = front.text("title", TITLE_CHARS);
            let notice_kind = front.one_of("kind", vocab::NOTICE_KINDS);
            let variant = front.one_of("variant", vocab::NOTICE_VARIANTS);
            let status = front.one_of("status", vocab::NOTICE_STATUSES);
            let starts_at = front.optional_time("starts_at");
            let ends_at = front.optional_time("ends_at");
            let file = front_file(kind, &id);
            if notice_kind.as_deref() == Some("maintenance") {
                for (key, value) in [("starts_at", &starts_at), ("ends_at", &ends_at)] {
                    if value.is_none() {
                        front_problem(errors, &file, &id, key, "is required for a maintenance window");
                    }
                }
            }
            // Both are `YYYY-MM-DD HH:MM:SS`, so they order as text.
            if let (Some(starts), Some(ends)) = (&starts_at, &ends_at)
                && ends <= starts
            {
                front_problem(errors, &file, &id, "ends_at", "must be after starts_at");
            }
            if let (Some(title), Some(kind), Some(variant), Some(status)) =
                (title, notice_kind, variant, status)
            {
                content.notices.push(Notice { id, title, kind, variant, status, starts_at, ends_at, body });
            }
        }
    }
    errors.extend(front.finish());
}

fn front_file(kind: Kind, id: &str) -> String {
    format!("{CONTENT_DIR}/{}/{id}.md", kind.name())
}

fn front_problem(errors: &mut Vec<DataError>, file: &str, id: &str, key: &str, message: &str) {
    errors.push(DataError {
        file: file.to_owned(),
        record: id.to_owned(),
        field: key.to_owned(),
        message: message.into(),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(files: &[(&str, &str)]) -> tempfile_dir::Dir {
        let dir = tempfile_dir::Dir::new();
        for (name, text) in files {
            let path = dir.path().join(CONTENT_DIR).join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        dir
    }

    /// A scratch folder removed when dropped.
    mod tempfile_dir {
        pub struct Dir(std::path::PathBuf);

        impl Dir {
            pub fn new() -> Self {
                let path = std::env::temp_dir().join(format!(
                    "armory-content-{}-{}",
                    std::process::id(),
                    uuid::Uuid::new_v4()
                ));
                std::fs::create_dir_all(&path).unwrap();
                Self(path)
            }

            pub fn path(&self) -> &std::path::Path {
                &self.0
            }
        }

        impl Drop for Dir {
            fn drop(&mut self) {
                let _ = std::fs::remove_dir_all(&self.0);
            }
        }
    }

    #[test]
    fn the_bundled_content_loads() {
        let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
        let content = load_dir(&data).unwrap().expect("data/ has a content folder");
        assert!(content.changelog.len() >= 17);
        assert!(content.blog.iter().filter(|post| post.status == "published").count() >= 3);
        assert!(
            content
                .changelog
                .iter()
                .all(|entry| vocab::CHANGELOG_CATEGORIES.contains(&entry.category.as_str()))
        );
    }

    #[test]
    fn a_folder_without_content_has_none() {
        let dir = folder(&[]);
        assert_eq!(load_dir(dir.path()).unwrap(), None);
    }

    #[test]
    fn bad_files_are_refused_naming_file_and_key() {
        let dir = folder(&[
            (
                "changelog/2026-01-01-ok.md",
                "+++\ntitle = \"Ok\"\ncategory = \"feature\"\nposted_at = 2026-01-01T00:00:00Z\n+++\nBody",
            ),
            ("changelog/Bad_Name.md", "+++\n+++\nx"),
            ("changelog/notes.txt", "x"),
            (
                "blog/post.md",
                "+++\ntitle = \"P\"\nsummary = \"S\"\nposted_at = 2026-01-01T00:00:00Z\ncategory = \"news\"\nstatus = \"published\"\n+++\nBody",
            ),
            (
                "notices/window.md",
                "+++\ntitle = \"W\"\nkind = \"maintenance\"\nvariant = \"info\"\nstatus = \"active\"\nstarts_at = 2026-01-02T00:00:00Z\n+++\nBody",
            ),
        ]);
        let errors = load_dir(dir.path()).unwrap_err().0;
        let named: Vec<(String, String)> = errors.iter().map(|e| (e.file.clone(), e.field.clone())).collect();
        assert_eq!(
            named,
            [
                ("content/changelog/Bad_Name.md".to_owned(), "-".to_owned()),
                ("content/changelog/notes.txt".to_owned(), "-".to_owned()),
                ("content/blog/post.md".to_owned(), "category".to_owned()),
                ("content/notices/window.md".to_owned(), "ends_at".to_owned()),
            ]
        );
    }
}
