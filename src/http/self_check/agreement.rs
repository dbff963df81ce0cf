//! Whether an answer agrees with an example taken earlier: the same fields of the same types, and,
//! when the values are compared, the same values. What an example legitimately cannot repeat is
//! left out: a list the example cut (`samples::cut`) is compared on the items it kept, a cut text
//! on the characters it kept, and two date-times are equal (an import, a freeze or a request
//! stamps its own).

use serde_json::Value;

use super::samples::{CHARS_KEPT, ITEMS_KEPT};

/// Whether values are compared, or only the shape (fields and types).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compare {
    Values,
    Shape,
}

/// The places where `answer` disagrees with `example`, each as a JSON pointer with what differs;
/// empty when they agree.
pub fn differences(example: &Value, answer: &Value, compare: Compare) -> Vec<String> {
    let mut found = Vec::new();
    walk(example, answer, compare, &mut String::new(), &mut found);
    found
}

fn walk(example: &Value, answer: &Value, compare: Compare, at: &mut String, found: &mut Vec<String>) {
    let here = |at: &str| if at.is_empty() { "/".to_owned() } else { at.to_owned() };
    match (example, answer) {
        (Value::Object(expected), Value::Object(got)) => {
            for (key, value) in expected {
                let len = at.len();
                at.push('/');
                at.push_str(&key.replace('~', "~0").replace('/', "~1"));
                match got.get(key) {
                    Some(answered) => walk(value, answered, compare, at, found),
                    None => found.push(format!("{at}: in the example, not in the answer")),
                }
                at.truncate(len);
            }
            for key in got.keys().filter(|key| !expected.contains_key(*key)) {
                found.push(format!("{}/{key}: in the answer, not in the example", at));
            }
        }
        (Value::Array(expected), Value::Array(got)) => {
            let cut = expected.len() == ITEMS_KEPT && got.len() > ITEMS_KEPT;
            if !cut && expected.len() != got.len() {
                found.push(format!(
                    "{}: {} items in the example, {} in the answer",
                    here(at),
                    expected.len(),
                    got.len()
                ));
                return;
            }
            for (index, (value, answered)) in expected.iter().zip(got).enumerate() {
                let len = at.len();
                at.push_str(&format!("/{index}"));
                walk(value, answered, compare, at, found);
                at.truncate(len);
            }
        }
        (Value::String(expected), Value::String(got)) => {
            if compare == Compare::Shape || expected == got || (is_date_time(expected) && is_date_time(got)) {
                return;
            }
            let kept = expected.strip_suffix('…').filter(|kept| kept.chars().count() == CHARS_KEPT);
            if kept.is_some_and(|kept| got.starts_with(kept)) {
                return;
            }
            found.push(format!("{}: the example has {expected:?}, the answer {got:?}", here(at)));
        }
        (expected, got) if kind(expected) == kind(got) => {
            if compare == Compare::Values && expected != got {
                found.push(format!("{}: the example has {expected}, the answer {got}", here(at)));
            }
        }
        (expected, got) => {
            found.push(format!("{}: the example has {}, the answer {}", here(at), kind(expected), kind(got)));
        }
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// A date-time (a date, `T` or a space, a time, as RFC 3339 and the stored `YYYY-MM-DD HH:MM:SS`
/// write it): a stamp, not a published figure.
fn is_date_time(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() >= 19
        && bytes[4] == b'-'
        && bytes[7] == b'-'
        && matches!(bytes[10], b'T' | b' ')
        && bytes[13] == b':'
        && bytes[16] == b':'
        && bytes[..4].iter().all(u8::is_ascii_digit)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn equal_answers_agree_and_stamps_are_not_compared() {
        let example = json!({ "data": { "id": "ak-47", "updatedAt": "2026-01-01T00:00:00Z" } });
        let answer = json!({ "data": { "id": "ak-47", "updatedAt": "2026-12-07T22:00:00.5Z" } });
        assert!(differences(&example, &answer, Compare::Values).is_empty());
        let example = json!({ "createdAt": "2026-12-07 22:41:30", "postedAt": "2026-11-02 09:00:00" });
        let answer = json!({ "createdAt": "2026-12-07 22:41:48", "postedAt": "2026-11-02 09:00:00" });
        assert!(differences(&example, &answer, Compare::Values).is_empty());
    }

    #[test]
    fn a_changed_value_and_a_missing_field_are_named_by_pointer() {
        let example = json!({ "data": { "id": "ak-47", "weightKg": 4.3, "name": "AK-47" } });
        let answer = json!({ "data": { "id": "ak-47", "weightKg": 3.9, "extra": true } });
        let found = differences(&example, &answer, Compare::Values);
        assert_eq!(
            found,
            vec![
                "/data/weightKg: the example has 4.3, the answer 3.9",
                "/data/name: in the example, not in the answer",
                "/data/extra: in the answer, not in the example",
            ]
        );
        assert_eq!(differences(&example, &answer, Compare::Shape).len(), 2, "values are not compared");
    }

    #[test]
    fn a_cut_list_and_a_cut_text_compare_on_what_was_kept() {
        let long = "x".repeat(CHARS_KEPT + 50);
        let kept = format!("{}…", &long[..CHARS_KEPT]);
        let example = json!({ "data": [1, 2, 3], "text": kept });
        let answer = json!({ "data": [1, 2, 3, 4, 5], "text": long });
        assert!(differences(&example, &answer, Compare::Values).is_empty());
        let shorter = json!({ "data": [1, 2], "text": "x" });
        assert_eq!(differences(&example, &shorter, Compare::Values).len(), 2);
    }
}
