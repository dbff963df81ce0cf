//! A content file's front matter: TOML between two `+++` lines, read key by key so every problem
//! names the file and the key.

use toml::value::{Datetime, Offset};

use crate::catalog::load::DataError;

/// The front matter of one file as it is read; keys are taken out as they are read, so what is
/// left at `finish` was never asked for.
pub struct FrontMatter {
    file: String,
    id: String,
    keys: toml::Table,
    errors: Vec<DataError>,
}

/// `text` split into its front matter and body, or why it cannot be.
fn split(text: &str) -> Result<(&str, &str), &'static str> {
    let rest = text.strip_prefix("+++\n").ok_or("the first line must be exactly +++")?;
    let end = if rest.starts_with("+++\n") || rest == "+++" {
        0
    } else {
        rest.find("\n+++\n")
            .map(|at| at + 1)
            .or_else(|| rest.strip_suffix("\n+++").map(|front| front.len() + 1))
            .ok_or("the front matter has no closing +++ line")?
    };
    let front = &rest[..end];
    let body = rest[end..].strip_prefix("+++").unwrap_or_default();
    Ok((front, body.strip_prefix('\n').unwrap_or(body)))
}

impl FrontMatter {
    /// The front matter and body of `text`, the file `file` holding the item `id`.
    pub fn parse(file: &str, id: &str, text: &str) -> Result<(Self, String), DataError> {
        let problem = |field: &str, message: String| DataError {
            file: file.to_owned(),
            record: id.to_owned(),
            field: field.to_owned(),
            message,
        };
        if text.contains('\r') {
            return Err(problem("-", "lines must end with LF only".into()));
        }
        let (front, body) = split(text).map_err(|why| problem("front matter", why.into()))?;
        let keys: toml::Table = toml::from_str(front)
            .map_err(|e| problem("front matter", format!("not valid TOML: {}", e.message())))?;
        let body = body.trim();
        if body.is_empty() {
            return Err(problem("body", "the body is empty".into()));
        }
        Ok((Self { file: file.to_owned(), id: id.to_owned(), keys, errors: Vec::new() }, body.to_owned()))
    }

    fn problem(&mut self, key: &str, message: impl Into<String>) {
        self.errors.push(DataError {
            file: self.file.clone(),
            record: self.id.clone(),
            field: key.to_owned(),
            message: message.into(),
        });
    }

    /// A required value of `key`, or the problem of its absence.
    fn required(&mut self, key: &str) -> Option<toml::Value> {
        let value = self.keys.remove(key);
        if value.is_none() {
            self.problem(key, "is required");
        }
        value
    }

    /// A one-line string of at most `max_chars` characters, non-empty after trimming.
    pub fn text(&mut self, key: &str, max_chars: usize) -> Option<String> {
        let value = self.required(key)?;
        self.text_of(key, value, max_chars)
    }

    /// `text`, for a key that may be left out.
    pub fn optional_text(&mut self, key: &str, max_chars: usize) -> Option<String> {
        let value = self.keys.remove(key)?;
        self.text_of(key, value, max_chars)
    }

    fn text_of(&mut self, key: &str, value: toml::Value, max_chars: usize) -> Option<String> {
        let toml::Value::String(text) = value else {
            self.problem(key, "must be a string");
            return None;
        };
        let text = text.trim();
        if text.is_empty() {
            self.problem(key, "must not be empty");
        } else if text.contains('\n') {
            self.problem(key, "must be one line");
        } else if text.chars().count() > max_chars {
            self.problem(key, format!("is longer than {max_chars} characters"));
        } else {
            return Some(text.to_owned());
        }
        None
    }

    /// A string from the closed list `allowed`.
    pub fn one_of(&mut self, key: &str, allowed: &[&str]) -> Option<String> {
        let value = self.required(key)?;
        match value.as_str() {
            Some(text) if allowed.contains(&text) => Some(text.to_owned()),
            _ => {
                self.problem(key, format!("must be one of {}", allowed.join(", ")));
                None
            }
        }
    }

    /// A required instant, served as `YYYY-MM-DD HH:MM:SS`.
    pub fn time(&mut self, key: &str) -> Option<String> {
        let value = self.required(key)?;
        self.time_of(key, value)
    }

    /// `time`, for a key that may be left out.
    pub fn optional_time(&mut self, key: &str) -> Option<String> {
        let value = self.keys.remove(key)?;
        self.time_of(key, value)
    }

    /// An unquoted TOML offset date-time in UTC with whole seconds (`2026-11-22T05:38:13Z`).
    fn time_of(&mut self, key: &str, value: toml::Value) -> Option<String> {
        let utc = match value {
            toml::Value::Datetime(Datetime { date: Some(d), time: Some(t), offset: Some(Offset::Z) })
                if t.nanosecond == 0 =>
            {
                Some(format!(
                    "{:04}-{:02}-{:02} {:02}:{:02}:{:02}",
                    d.year, d.month, d.day, t.hour, t.minute, t.second
                ))
            }
            _ => None,
        };
        if utc.is_none() {
            self.problem(
                key,
                "must be an unquoted UTC date-time with whole seconds, like 2026-11-22T05:38:13Z",
            );
        }
        utc
    }

    /// The problems found, with one for every key no reader asked for.
    pub fn finish(mut self) -> Vec<DataError> {
        let unknown: Vec<String> = self.keys.keys().cloned().collect();
        for key in unknown {
            self.problem(&key, "is not a key of this kind of file");
        }
        self.errors
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<(FrontMatter, String), DataError> {
        FrontMatter::parse("changelog/x.md", "x", text)
    }

    #[test]
    fn the_front_matter_is_between_two_plus_lines() {
        let (mut front, body) = read("+++\ntitle = \"T\"\n+++\nBody\n\nmore\n").unwrap();
        assert_eq!(front.text("title", 120).as_deref(), Some("T"));
        assert_eq!(body, "Body\n\nmore");
        assert!(front.finish().is_empty());
        assert_eq!(read("title = \"T\"\n+++\nBody").err().unwrap().field, "front matter");
        assert_eq!(read("+++\ntitle = \"T\"\nBody").err().unwrap().field, "front matter");
        assert_eq!(read("+++\ntitle = \"T\"\n+++\n  \n").err().unwrap().field, "body");
        assert!(read("+++\r\ntitle = \"T\"\r\n+++\r\nBody").is_err());
    }

    #[test]
    fn times_are_utc_with_whole_seconds_and_unquoted() {
        let (mut front, _) = read(
            "+++\na = 2026-11-22T05:38:13Z\nb = \"2026-11-22T05:38:13Z\"\nc = 2026-11-22\nd = 2026-11-22T05:38:13+01:00\ne = 2026-11-22T05:38:13.5Z\nf = 2026-11-22T05:38:13\n+++\nx",
        )
        .unwrap();
        assert_eq!(front.time("a").as_deref(), Some("2026-11-22 05:38:13"));
        for key in ["b", "c", "d", "e", "f"] {
            assert_eq!(front.time(key), None, "{key}");
        }
        let problems = front.finish();
        assert_eq!(problems.iter().map(|p| p.field.as_str()).collect::<Vec<_>>(), ["b", "c", "d", "e", "f"]);
    }

    #[test]
    fn every_problem_names_its_key() {
        let (mut front, _) = read("+++\ncategory = \"news\"\ntitel = \"T\"\n+++\nx").unwrap();
        assert_eq!(front.text("title", 120), None);
        assert_eq!(front.one_of("category", &["feature"]), None);
        let fields: Vec<String> = front.finish().into_iter().map(|p| p.field).collect();
        assert_eq!(fields, ["title", "category", "titel"]);
    }
}
