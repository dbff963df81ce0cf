//! Markdown to sanitised HTML: CommonMark with GitHub tables and strikethrough, where raw HTML is
//! shown as text rather than passed through, and a link or image only keeps an address of a safe
//! kind (http, https, mailto, or relative). What comes out holds only the tags the Markdown
//! syntax itself makes, so it can be placed in a page as it is.

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};

/// `markdown` as sanitised HTML.
pub fn to_html(markdown: &str) -> String {
    let parser = Parser::new_ext(markdown, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH);
    // For each link or image open, whether it was kept (its end is dropped with it otherwise).
    let mut kept = Vec::new();
    let events = parser.filter_map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Some(Event::Text(raw)),
        Event::Start(Tag::Link { ref dest_url, .. }) | Event::Start(Tag::Image { ref dest_url, .. }) => {
            let safe = is_safe_address(dest_url);
            kept.push(safe);
            safe.then_some(event)
        }
        Event::End(TagEnd::Link) | Event::End(TagEnd::Image) => kept.pop().unwrap_or(false).then_some(event),
        other => Some(other),
    });
    let mut html = String::with_capacity(markdown.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut html, events);
    html
}

/// Whether a link may point at `address`: http(s), mailto, or an address with no scheme at all
/// (a path, a fragment). `javascript:`, `data:` and every other scheme are dropped.
fn is_safe_address(address: &CowStr) -> bool {
    let address = address.trim();
    let scheme_end = address.find(':');
    let path_start = address.find(['/', '?', '#']);
    match (scheme_end, path_start) {
        (None, _) => true,
        (Some(colon), Some(slash)) if slash < colon => true,
        (Some(colon), _) => {
            let scheme = address[..colon].to_ascii_lowercase();
            matches!(scheme.as_str(), "http" | "https" | "mailto")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_becomes_html() {
        assert_eq!(
            to_html("# Title\n\nSome *text* and `code`."),
            "<h1>Title</h1>\n<p>Some <em>text</em> and <code>code</code>.</p>\n"
        );
        assert!(to_html("| a | b |\n|---|---|\n| 1 | 2 |").contains("<table>"));
        assert_eq!(
            to_html("[the spec](https://example.org/spec) and [ops](/v1/docs/operations)"),
            "<p><a href=\"https://example.org/spec\">the spec</a> and <a href=\"/v1/docs/operations\">ops</a></p>\n"
        );
    }

    #[test]
    fn raw_html_is_shown_as_text() {
        let html = to_html("Hello <script>alert(1)</script>\n\n<div onclick=\"x()\">block</div>\n");
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<div"), "{html}");
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "{html}");
    }

    #[test]
    fn unsafe_addresses_lose_their_link_but_keep_their_text() {
        for address in ["javascript:alert(1)", "JavaScript:alert(1)", " data:text/html,x", "vbscript:x"] {
            let html = to_html(&format!("[click]({address}) ![img]({address})"));
            assert!(!html.contains("href"), "{address}: {html}");
            assert!(!html.contains("<img"), "{address}: {html}");
            assert!(html.contains("click"), "{address}: {html}");
        }
        assert!(to_html("[a](mailto:x@example.org)").contains("href=\"mailto:x@example.org\""));
        assert!(to_html("[a](#part)").contains("href=\"#part\""));
        assert!(to_html("[a](docs/a:b)").contains("href=\"docs/a:b\""));
    }
}
