//! A small JSON Schema checker for the contract run (`self_check::run`) and the contract test:
//! enough of OpenAPI 3.1's dialect to hold an answer to its published schema (`$ref` into
//! components, type lists with "null", properties, required, items, enums, allOf/anyOf/oneOf,
//! numeric and length bounds). Patterns are not checked here; schemathesis checks them from
//! outside.

use serde_json::Value;

/// Checks values against the schemas of one OpenAPI document (as JSON).
pub struct Checker<'a> {
    document: &'a Value,
}

impl<'a> Checker<'a> {
    pub fn new(document: &'a Value) -> Self {
        Self { document }
    }

    /// Every way `value` breaks `schema`, each with the JSON path where it breaks it.
    pub fn problems(&self, schema: &Value, value: &Value) -> Vec<String> {
        let mut problems = Vec::new();
        self.check(schema, value, "$", &mut problems);
        problems
    }

    fn check(&self, schema: &Value, value: &Value, at: &str, problems: &mut Vec<String>) {
        if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
            let target = reference
                .strip_prefix("#/components/schemas/")
                .map(|name| &self.document["components"]["schemas"][name])
                .filter(|target| !target.is_null());
            match target {
                Some(target) => self.check(target, value, at, problems),
                None => problems.push(format!("{at}: the schema {reference} is not in the description")),
            }
            return;
        }
        if let Some(all) = schema.get("allOf").and_then(Value::as_array) {
            for part in all {
                self.check(part, value, at, problems);
            }
        }
        for (keyword, wanted) in [("anyOf", 1..=usize::MAX), ("oneOf", 1..=1)] {
            if let Some(options) = schema.get(keyword).and_then(Value::as_array) {
                let passing = options.iter().filter(|option| self.problems(option, value).is_empty()).count();
                if !wanted.contains(&passing) {
                    problems.push(format!("{at}: {passing} of the {keyword} options match"));
                }
            }
        }
        if let Some(types) = schema.get("type") {
            let allowed: Vec<&str> = match types {
                Value::String(one) => vec![one.as_str()],
                Value::Array(many) => many.iter().filter_map(Value::as_str).collect(),
                _ => vec![],
            };
            if !allowed.iter().any(|t| type_matches(t, value)) {
                problems.push(format!("{at}: {value} is not {allowed:?}"));
                return;
            }
        }
        if let Some(values) = schema.get("enum").and_then(Value::as_array)
            && !values.contains(value)
        {
            problems.push(format!("{at}: {value} is not one of {values:?}"));
        }
        match value {
            Value::Object(object) => {
                for name in schema.get("required").and_then(Value::as_array).into_iter().flatten() {
                    let name = name.as_str().unwrap_or_default();
                    if !object.contains_key(name) {
                        problems.push(format!("{at}: required {name} is missing"));
                    }
                }
                let properties = schema.get("properties").and_then(Value::as_object);
                for (name, field) in object {
                    match properties.and_then(|p| p.get(name)) {
                        Some(field_schema) => {
                            self.check(field_schema, field, &format!("{at}.{name}"), problems)
                        }
                        None if schema.get("additionalProperties") == Some(&Value::Bool(false)) => {
                            problems.push(format!("{at}: {name} is not a published property"));
                        }
                        None => {}
                    }
                }
            }
            Value::Array(items) => {
                if let Some(item_schema) = schema.get("items") {
                    for (i, item) in items.iter().enumerate() {
                        self.check(item_schema, item, &format!("{at}[{i}]"), problems);
                    }
                }
                bound(schema, "minItems", "maxItems", items.len() as f64, at, problems);
            }
            Value::Number(n) => {
                bound(schema, "minimum", "maximum", n.as_f64().unwrap_or_default(), at, problems);
            }
            Value::String(text) => {
                bound(schema, "minLength", "maxLength", text.chars().count() as f64, at, problems);
            }
            _ => {}
        }
    }
}

fn type_matches(wanted: &str, value: &Value) -> bool {
    match wanted {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "number" => value.is_number(),
        "integer" => value.as_f64().is_some_and(|n| n.fract() == 0.0),
        _ => false,
    }
}

fn bound(schema: &Value, low: &str, high: &str, measure: f64, at: &str, problems: &mut Vec<String>) {
    if let Some(min) = schema.get(low).and_then(Value::as_f64)
        && measure < min
    {
        problems.push(format!("{at}: {measure} is below {low} {min}"));
    }
    if let Some(max) = schema.get(high).and_then(Value::as_f64)
        && measure > max
    {
        problems.push(format!("{at}: {measure} is above {high} {max}"));
    }
}
