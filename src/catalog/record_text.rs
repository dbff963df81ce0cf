//! Edits one record's keys in a data file's text, leaving every other line as it was, so a
//! change made by a command (`armory catalog verify`, an import clearing a verification) reads in
//! review as the lines it changed. A record is the `[[kind]]` block whose `id = "…"` names it; a
//! key's value may span lines (an array), and is replaced whole.

/// A key to set to a TOML value (its text), or to remove (None).
pub type KeyEdit<'a> = (&'a str, Option<String>);

/// `text` with `edits` made in the `[[kind]]` block of record `id`; why not, when the block is
/// not there.
pub fn edit_record(text: &str, kind: &str, id: &str, edits: &[KeyEdit<'_>]) -> Result<String, String> {
    let lines: Vec<&str> = text.lines().collect();
    let (start, end) = block(&lines, kind, id).ok_or_else(|| format!("no [[{kind}]] with id = \"{id}\""))?;
    let mut block_lines: Vec<String> = lines[start..end].iter().map(|l| (*l).to_owned()).collect();
    for (key, value) in edits {
        let at = key_span(&block_lines, key);
        let replacement: Vec<String> = value.iter().map(|v| format!("{key} = {v}")).collect();
        match at {
            Some((from, to)) => {
                block_lines.splice(from..to, replacement);
            }
            None => {
                let last = block_lines.iter().rposition(|l| !l.trim().is_empty()).map_or(0, |i| i + 1);
                block_lines.splice(last..last, replacement);
            }
        }
    }
    let mut out: Vec<String> = lines[..start].iter().map(|l| (*l).to_owned()).collect();
    out.extend(block_lines);
    out.extend(lines[end..].iter().map(|l| (*l).to_owned()));
    let mut joined = out.join("\n");
    if text.ends_with('\n') {
        joined.push('\n');
    }
    Ok(joined)
}

/// The lines `[start, end)` of the `[[kind]]` block naming `id`.
fn block(lines: &[&str], kind: &str, id: &str) -> Option<(usize, usize)> {
    let header = format!("[[{kind}]]");
    let id_line = format!("id = {}", toml_string(id));
    let headers: Vec<usize> = top_level(lines).filter(|&i| lines[i].trim_start().starts_with('[')).collect();
    headers.iter().enumerate().find_map(|(n, &start)| {
        let end = headers.get(n + 1).copied().unwrap_or(lines.len());
        let names = lines[start].trim() == header;
        (names && lines[start..end].iter().any(|l| l.trim() == id_line)).then_some((start, end))
    })
}

/// The lines `[from, to)` holding `key = …` at the top level of `block`.
fn key_span(block: &[String], key: &str) -> Option<(usize, usize)> {
    let refs: Vec<&str> = block.iter().map(String::as_str).collect();
    let from = top_level(&refs).find(|&i| {
        let line = refs[i].trim_start();
        line.strip_prefix(key).is_some_and(|rest| rest.trim_start().starts_with('='))
    })?;
    let mut depth = 0i32;
    for (i, line) in refs.iter().enumerate().skip(from) {
        depth += bracket_balance(line);
        if depth <= 0 {
            return Some((from, i + 1));
        }
    }
    Some((from, refs.len()))
}

/// The indexes of the lines that start at bracket depth 0 (not inside a multi-line value).
fn top_level<'a>(lines: &'a [&'a str]) -> impl Iterator<Item = usize> + 'a {
    let mut depth = 0i32;
    (0..lines.len()).filter(move |&i| {
        let at_top = depth <= 0;
        depth += bracket_balance(lines[i]);
        at_top
    })
}

/// Opening minus closing brackets on `line`, outside strings and comments.
fn bracket_balance(line: &str) -> i32 {
    let (mut balance, mut quote, mut escaped) = (0, None, false);
    for c in line.chars() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' && q == '"' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None => match c {
                '"' | '\'' => quote = Some(c),
                '#' => break,
                '[' | '{' => balance += 1,
                ']' | '}' => balance -= 1,
                _ => {}
            },
        }
    }
    balance
}

/// `text` as a TOML basic string.
pub fn toml_string(text: &str) -> String {
    toml::Value::String(text.to_owned()).to_string()
}

/// A list of strings as a one-line TOML array.
pub fn toml_strings(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| toml_string(s)).collect();
    format!("[{}]", quoted.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = r#"[[firearms]]
id = "a"
name = "A ] [ gun"
sources = [
  { url = "https://x.example/a", kind = "reference" },
]

[[firearms]]
id = "b"
name = "B"
dataConfidence = 0.6
sources = [{ url = "https://x.example/b", kind = "reference" }]
"#;

    #[test]
    fn a_key_is_replaced_whole_and_a_new_one_added_in_its_own_record() {
        let edited = edit_record(
            FILE,
            "firearms",
            "a",
            &[
                ("sources", Some("[{ url = \"https://y.example/a\", kind = \"manufacturer\" }]".into())),
                ("verifiedAt", Some(toml_string("2026-12-07"))),
            ],
        )
        .unwrap();
        assert!(
            edited.contains("id = \"a\"\nname = \"A ] [ gun\"\nsources = [{ url = \"https://y.example/a\"")
        );
        assert!(edited.contains("verifiedAt = \"2026-12-07\"\n\n[[firearms]]\nid = \"b\""), "{edited}");
        assert!(edited.ends_with("sources = [{ url = \"https://x.example/b\", kind = \"reference\" }]\n"));
        let parsed: toml::Value = toml::from_str(&edited).unwrap();
        assert_eq!(parsed["firearms"][0]["sources"][0]["kind"].as_str(), Some("manufacturer"));
    }

    #[test]
    fn a_key_is_removed_and_an_unknown_record_refused() {
        let edited = edit_record(FILE, "firearms", "b", &[("dataConfidence", None)]).unwrap();
        assert!(!edited.contains("dataConfidence"));
        assert!(edited.contains("name = \"B\"\nsources"));
        assert_eq!(edit_record(FILE, "firearms", "c", &[]).unwrap_err(), "no [[firearms]] with id = \"c\"");
    }
}
