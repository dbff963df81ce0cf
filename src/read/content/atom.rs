//! The changelog as an Atom 1.0 feed (RFC 4287). Entry ids are `urn:uuid:` names derived from the
//! entry's id alone, so they stay the same across imports, nodes and configurations (a feed
//! reader shows an entry once however often it is fetched); links are absolute when the service
//! knows its public URL (`ARMORY_PUBLIC_URL`), relative otherwise.

use std::fmt::Write;

use sha2::{Digest, Sha256};

use super::ChangelogItem;

/// When an entry last changed for a reader: when it was posted, and again when an import changed
/// its text after it was first stored. The first import's own time is not a change, so a new
/// node serves the same feed, byte for byte, as one that has run for years.
fn changed_at(entry: &ChangelogItem) -> &str {
    if entry.updated_at == entry.created_at {
        &entry.posted_at
    } else {
        entry.posted_at.as_str().max(entry.updated_at.as_str())
    }
}

/// The feed of `entries` (newest first), each link under `base` (the public URL, or "").
pub fn feed(entries: &[ChangelogItem], base: &str) -> String {
    let updated = entries.iter().map(changed_at).max().unwrap_or("1970-01-01 00:00:00");
    let mut xml = String::with_capacity(1024 + entries.iter().map(|e| e.body_html.len() * 2).sum::<usize>());
    xml.push_str(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n",
    );
    element(&mut xml, 1, "id", &stable_id("changelog"));
    element(&mut xml, 1, "title", "Armory changelog");
    element(&mut xml, 1, "subtitle", "Changes to the Armory firearms specification API and its catalog.");
    element(&mut xml, 1, "updated", &rfc3339(updated));
    link(&mut xml, 1, "self", &format!("{base}/v1/changelog/feed"));
    link(&mut xml, 1, "alternate", &format!("{base}/v1/changelog"));
    xml.push_str("  <author><name>Armory</name></author>\n");
    for entry in entries {
        xml.push_str("  <entry>\n");
        element(&mut xml, 2, "id", &stable_id(&format!("changelog/{}", entry.id)));
        element(&mut xml, 2, "title", &entry.title);
        element(&mut xml, 2, "published", &rfc3339(&entry.posted_at));
        element(&mut xml, 2, "updated", &rfc3339(changed_at(entry)));
        link(&mut xml, 2, "alternate", &format!("{base}/v1/changelog/{}", entry.id));
        let _ = writeln!(xml, "    <category term=\"{}\"/>", crate::xml::escape(&entry.category));
        let _ =
            writeln!(xml, "    <content type=\"html\">{}</content>", crate::xml::escape(&entry.body_html));
        xml.push_str("  </entry>\n");
    }
    xml.push_str("</feed>\n");
    xml
}

fn element(xml: &mut String, depth: usize, name: &str, text: &str) {
    let _ = writeln!(xml, "{:indent$}<{name}>{}</{name}>", "", crate::xml::escape(text), indent = depth * 2);
}

fn link(xml: &mut String, depth: usize, rel: &str, href: &str) {
    let _ = writeln!(
        xml,
        "{:indent$}<link rel=\"{rel}\" href=\"{}\"/>",
        "",
        crate::xml::escape(href),
        indent = depth * 2
    );
}

/// `YYYY-MM-DD HH:MM:SS` (UTC) as RFC 3339.
fn rfc3339(time: &str) -> String {
    format!("{}Z", time.replacen(' ', "T", 1))
}

/// A `urn:uuid:` name for `name`: a version-8 UUID (RFC 9562) of the first bytes of the SHA-256 of
/// `armory:` and the name, so the same name always gives the same id.
fn stable_id(name: &str) -> String {
    let digest = Sha256::digest(format!("armory:{name}").as_bytes());
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    bytes[6] = (bytes[6] & 0x0f) | 0x80;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    format!("urn:uuid:{}", uuid::Uuid::from_bytes(bytes).hyphenated())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_stable_version_8_uuids() {
        let id = stable_id("changelog/2026-11-22-webhooks");
        assert_eq!(id, stable_id("changelog/2026-11-22-webhooks"));
        assert_ne!(id, stable_id("changelog/2026-11-22-keys"));
        let uuid = uuid::Uuid::parse_str(id.strip_prefix("urn:uuid:").unwrap()).unwrap();
        assert_eq!(uuid.get_version_num(), 8);
        assert_eq!(uuid.get_variant(), uuid::Variant::RFC4122);
    }

    fn entry(posted: &str, created: &str, updated: &str) -> ChangelogItem {
        ChangelogItem {
            id: "e".into(),
            title: "t".into(),
            category: "feature".into(),
            posted_at: posted.into(),
            body: String::new(),
            body_html: String::new(),
            created_at: created.into(),
            updated_at: updated.into(),
        }
    }

    #[test]
    fn an_entry_changes_when_posted_and_when_an_import_changes_it() {
        let first_import = entry("2026-11-22 05:00:00", "2026-12-07 22:00:00", "2026-12-07 22:00:00");
        assert_eq!(changed_at(&first_import), "2026-11-22 05:00:00", "storing it is not a change");
        let edited = entry("2026-11-22 05:00:00", "2026-12-07 22:00:00", "2026-12-08 09:00:00");
        assert_eq!(changed_at(&edited), "2026-12-08 09:00:00");
        let feed = feed(&[first_import], "");
        assert!(feed.contains("<updated>2026-11-22T05:00:00Z</updated>"), "{feed}");
        assert!(!feed.contains("2026-12-07"), "the import's time is nowhere in the feed: {feed}");
    }

    #[test]
    fn times_are_rfc3339() {
        assert_eq!(rfc3339("2026-11-22 05:38:13"), "2026-11-22T05:38:13Z");
    }
}
