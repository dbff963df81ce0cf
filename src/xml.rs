//! Text as XML (1.0) character data or an attribute value: the five special characters escaped,
//! and the control characters XML cannot carry at all left out. Shared by the Atom feed and the
//! SVG drawings.

pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn markup_is_escaped_and_what_xml_cannot_carry_is_left_out() {
        assert_eq!(super::escape("<a & \"b\" 'c'>\u{1}\n"), "&lt;a &amp; &quot;b&quot; &apos;c&apos;&gt;\n");
    }
}
