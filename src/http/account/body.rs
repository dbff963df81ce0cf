//! Reading the account area's JSON bodies field by field, so that each bad field is named in one
//! 400 (`details.subject`, `details.attachments`, ...) rather than reported as a body that failed to
//! parse, and unknown fields are ignored. Handlers declare fields as `Option<Value>` with
//! `#[serde(default, deserialize_with = "present")]` and read them with the parsers here.

use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

pub use crate::accounts::schema::MAX_LINK_CHARS;

/// A field that is present (null included) is `Some`; only an absent one is `None`.
pub fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}

/// The problems found so far, by field name.
#[derive(Default)]
pub struct Problems(Map<String, Value>);

impl Problems {
    /// Parse a present field, recording its problem under `name`; None when absent or invalid.
    pub fn field<T>(
        &mut self,
        name: &str,
        value: Option<&Value>,
        parse: impl FnOnce(&Value) -> Result<T, String>,
    ) -> Option<T> {
        let value = value?;
        parse(value).map_err(|problem| self.note(name, problem)).ok()
    }

    /// Like `field`, but an absent field is itself a problem, and the value is its type: when it
    /// is absent or bad the problem is recorded and `into_result` refuses the request, so the
    /// placeholder (`T::default()`) answered then is never used.
    pub fn required<T: Default>(
        &mut self,
        name: &str,
        value: Option<&Value>,
        parse: impl FnOnce(&Value) -> Result<T, String>,
    ) -> T {
        if value.is_none() {
            self.note(name, "is required".to_owned());
        }
        self.field(name, value, parse).unwrap_or_default()
    }

    pub fn note(&mut self, name: &str, problem: String) {
        self.0.insert(name.to_owned(), Value::String(problem));
    }

    /// `Err` with every problem when there is any.
    pub fn into_result(self) -> Result<(), crate::error::ApiError> {
        if self.0.is_empty() { Ok(()) } else { Err(crate::error::ApiError::invalid_parameters(self.0)) }
    }
}

/// A string of `min..=max` characters that is not only white space, stored trimmed. The bounds
/// count the string as sent, so they are exactly the published `minLength`/`maxLength` (with the
/// pattern `\S`): a schema-valid value is never refused.
pub fn text(min: usize, max: usize) -> impl FnOnce(&Value) -> Result<String, String> {
    move |value| {
        let text = value.as_str().ok_or("must be a string")?;
        if !(min..=max).contains(&text.chars().count()) {
            return Err(format!("must be {min} to {max} characters"));
        }
        if text.trim().is_empty() {
            return Err("must not be only white space".into());
        }
        Ok(text.trim().to_owned())
    }
}

/// One of a closed list of values.
pub fn one_of(allowed: &'static [&'static str]) -> impl FnOnce(&Value) -> Result<String, String> {
    move |value| match value.as_str() {
        Some(text) if allowed.contains(&text) => Ok(text.to_owned()),
        _ => Err(format!("must be one of: {}", allowed.join(", "))),
    }
}

/// An https link to show to people, exactly as the published pattern
/// (`accounts::schema::HTTPS_LINK_PATTERN`) admits it: at most `MAX_LINK_CHARS`, a host of DNS labels whose
/// last starts with a letter (so no IP address, port or credentials), and a path of URL characters
/// (anything else percent-encoded). Nothing here is ever fetched by the service, so unlike a
/// webhook URL any public host is fine. Stored as sent.
pub fn https_link(value: &Value) -> Result<String, String> {
    let raw = value.as_str().ok_or("must be a string")?;
    if raw.chars().count() > MAX_LINK_CHARS {
        return Err(format!("must be at most {MAX_LINK_CHARS} characters"));
    }
    let rest = raw.strip_prefix("https://").ok_or("must be an https URL")?;
    let (host, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let labels: Vec<&str> = host.split('.').collect();
    let label_ok =
        |label: &&str| !label.is_empty() && label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    let last_starts_with_letter =
        labels.last().and_then(|l| l.bytes().next()).is_some_and(|b| b.is_ascii_alphabetic());
    if !labels.iter().all(label_ok) || !last_starts_with_letter {
        return Err(
            "must name a host of letters, digits, hyphens and dots (no credentials, port or IP address)"
                .into(),
        );
    }
    if let Some(bad) =
        path.chars().find(|c| !(c.is_ascii_alphanumeric() || "-._~%!$&'()*+,;=:@/?#".contains(*c)))
    {
        return Err(format!("holds '{bad}', which a link carries percent-encoded"));
    }
    Ok(raw.to_owned())
}

/// An array of at most `max` items, each read by `item`; the problem names the first bad index.
pub fn list_of<T>(
    max: usize,
    item: impl Fn(&Value) -> Result<T, String>,
) -> impl FnOnce(&Value) -> Result<Vec<T>, String> {
    move |value| {
        let items = value.as_array().ok_or("must be an array")?;
        if items.len() > max {
            return Err(format!("must hold at most {max} items"));
        }
        items
            .iter()
            .enumerate()
            .map(|(at, v)| item(v).map_err(|problem| format!("[{at}] {problem}")))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn links_are_https_with_a_host_and_no_credentials() {
        assert_eq!(
            https_link(&json!("https://files.example.com/a%20b?x=1#y")).unwrap(),
            "https://files.example.com/a%20b?x=1#y"
        );
        for bad in [
            "http://example.com",
            "https://user:pw@example.com",
            "example.com",
            "https://",
            "https://example.com/a b",
            "https://example.com*/",
            "https://127.0.0.1/",
            "https://example.com:8443/",
            " https://example.com",
        ] {
            assert!(https_link(&json!(bad)).is_err(), "{bad}");
        }
        let long = format!("https://example.com/{}", "a".repeat(MAX_LINK_CHARS));
        assert!(https_link(&json!(long)).is_err());
    }

    #[test]
    fn lists_name_the_first_bad_index() {
        let parse = list_of(2, https_link);
        assert_eq!(
            parse(&json!(["https://a.example", "ftp://b"])).unwrap_err().split(' ').next(),
            Some("[1]")
        );
        assert!(list_of(2, https_link)(&json!(vec!["https://a.example"; 3])).is_err());
    }

    #[test]
    fn text_is_trimmed_and_bounded() {
        assert_eq!(text(1, 6)(&json!("  abc ")).unwrap(), "abc");
        assert_eq!(text(4, 6)(&json!("a   ")).unwrap(), "a", "the bounds count the value as sent");
        assert!(text(1, 3)(&json!("   ")).is_err());
        assert!(text(1, 3)(&json!("abcd")).is_err());
        assert!(text(1, 3)(&json!(5)).is_err());
    }
}
