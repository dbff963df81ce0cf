//! Offers as a shop sends them, checked field by field: each problem is recorded under the field's
//! path (`offers[3].url`, `offers[0].target.id`, `priceMinor`), so one 400 names them all and a
//! replacement with one bad row writes nothing.

use std::collections::HashMap;

use serde::Serialize;
use serde_json::{Map, Value, json};
use utoipa::ToSchema;

use super::vocabulary::{
    CONDITIONS, MAX_OFFERS, MAX_PRICE_MINOR, MAX_SKU_CHARS, STATUSES, STOCK, TARGET_TYPES,
};

/// Field path → what is wrong with it (`details` of the 400).
pub type Problems = Map<String, Value>;

/// The catalog record an offer sells.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[schema(as = OfferTarget)]
pub struct Target {
    /// One of `TARGET_TYPES`.
    #[serde(rename = "type")]
    #[schema(schema_with = super::schema::target_type_schema)]
    pub kind: String,
    /// The record's catalog id (an attachment id is unknown until the catalog carries attachments).
    #[schema(pattern = "^[a-z0-9-]+$")]
    pub id: String,
}

/// One offer's fields, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OfferFields {
    pub sku: String,
    pub target: Target,
    pub price_minor: i64,
    pub currency: String,
    /// The normalised https URL.
    pub url: String,
    pub stock: String,
    pub condition: String,
    pub status: String,
}

/// What a PATCH changes; None keeps the field.
#[derive(Debug, Default)]
pub struct OfferChanges {
    pub price_minor: Option<i64>,
    pub currency: Option<String>,
    pub url: Option<String>,
    pub stock: Option<String>,
    pub condition: Option<String>,
    pub status: Option<String>,
}

impl OfferChanges {
    /// `fields` with these changes applied.
    pub fn apply(self, mut fields: OfferFields) -> OfferFields {
        fields.price_minor = self.price_minor.unwrap_or(fields.price_minor);
        fields.currency = self.currency.unwrap_or(fields.currency);
        fields.url = self.url.unwrap_or(fields.url);
        fields.stock = self.stock.unwrap_or(fields.stock);
        fields.condition = self.condition.unwrap_or(fields.condition);
        fields.status = self.status.unwrap_or(fields.status);
        fields
    }
}

/// The `offers` of a replacement: at most `MAX_OFFERS` rows, each valid, no sku twice. None when
/// anything is wrong, every problem recorded.
pub fn replacement(offers: Option<&Value>, problems: &mut Problems) -> Option<Vec<OfferFields>> {
    let Some(offers) = offers else {
        problems.insert("offers".into(), json!("is required"));
        return None;
    };
    let Some(rows) = offers.as_array() else {
        problems.insert("offers".into(), json!("must be an array of offers"));
        return None;
    };
    if rows.len() > MAX_OFFERS {
        let problem = format!("must hold at most {MAX_OFFERS} offers; this one holds {}", rows.len());
        problems.insert("offers".into(), json!(problem));
        return None;
    }
    let mut parsed = Vec::with_capacity(rows.len());
    let mut first_with_sku: HashMap<String, usize> = HashMap::new();
    for (index, row) in rows.iter().enumerate() {
        let at = format!("offers[{index}]");
        let Some(object) = row.as_object() else {
            problems.insert(at, json!("must be an object"));
            continue;
        };
        let offer = Fields { object, at: &at, problems }.offer();
        if let Some(offer) = offer {
            match first_with_sku.get(&offer.sku) {
                Some(first) => {
                    problems
                        .insert(format!("{at}.sku"), json!(format!("repeats the sku of offers[{first}]")));
                }
                None => {
                    first_with_sku.insert(offer.sku.clone(), index);
                    parsed.push(offer);
                }
            }
        }
    }
    problems.is_empty().then_some(parsed)
}

/// The fields of a PATCH body; the problems are recorded under each field's name.
pub fn changes(body: &Map<String, Value>, problems: &mut Problems) -> OfferChanges {
    let mut fields = Fields { object: body, at: "", problems };
    OfferChanges {
        price_minor: fields.optional("priceMinor", price_minor),
        currency: fields.optional("currency", currency),
        url: fields.optional("url", url),
        stock: fields.optional("stock", |v| one_of(v, STOCK)),
        condition: fields.optional("condition", |v| one_of(v, CONDITIONS)),
        status: fields.optional("status", |v| one_of(v, STATUSES)),
    }
}

/// The fields of one JSON object, named under the path `at`.
struct Fields<'a> {
    object: &'a Map<String, Value>,
    at: &'a str,
    problems: &'a mut Problems,
}

impl Fields<'_> {
    fn path(&self, name: &str) -> String {
        if self.at.is_empty() { name.to_owned() } else { format!("{}.{name}", self.at) }
    }

    /// A present field, parsed; None when absent or invalid (the problem recorded).
    fn optional<T>(&mut self, name: &str, parse: impl FnOnce(&Value) -> Result<T, String>) -> Option<T> {
        let value = self.object.get(name)?;
        parse(value).map_err(|problem| self.problems.insert(self.path(name), json!(problem))).ok()
    }

    fn required<T>(&mut self, name: &str, parse: impl FnOnce(&Value) -> Result<T, String>) -> Option<T> {
        if !self.object.contains_key(name) {
            self.problems.insert(self.path(name), json!("is required"));
        }
        self.optional(name, parse)
    }

    /// One row of a replacement: every field read, so each problem is named.
    fn offer(mut self) -> Option<OfferFields> {
        let problems_before = self.problems.len();
        let sku = self.required("sku", sku);
        let target = self.target();
        let price_minor = self.required("priceMinor", price_minor);
        let currency = self.required("currency", currency);
        let url = self.required("url", url);
        let stock = self.optional("stock", |v| one_of(v, STOCK));
        let condition = self.optional("condition", |v| one_of(v, CONDITIONS));
        let status = self.optional("status", |v| one_of(v, STATUSES));
        Some(OfferFields {
            sku: sku?,
            target: target?,
            price_minor: price_minor?,
            currency: currency?,
            url: url?,
            // The published defaults of the optional fields.
            stock: stock.unwrap_or_else(|| "in_stock".into()),
            condition: condition.unwrap_or_else(|| "new".into()),
            status: status.unwrap_or_else(|| "published".into()),
        })
        .filter(|_| self.problems.len() == problems_before)
    }

    /// `target`: `{type, id}`, each part named on its own.
    fn target(&mut self) -> Option<Target> {
        let path = self.path("target");
        let Some(value) = self.object.get("target") else {
            self.problems.insert(path, json!("is required"));
            return None;
        };
        let Some(object) = value.as_object() else {
            self.problems.insert(path, json!("must be an object {type, id}"));
            return None;
        };
        let mut target = Fields { object, at: &path, problems: self.problems };
        let kind = target.required("type", |v| one_of(v, TARGET_TYPES));
        let id = target.required("id", record_id);
        Some(Target { kind: kind?, id: id? })
    }
}

fn sku(value: &Value) -> Result<String, String> {
    match value.as_str() {
        Some(text) if (1..=MAX_SKU_CHARS).contains(&text.chars().count()) && !text.trim().is_empty() => {
            Ok(text.to_owned())
        }
        _ => Err(format!("must be a string of 1 to {MAX_SKU_CHARS} characters, not only spaces")),
    }
}

fn record_id(value: &Value) -> Result<String, String> {
    match value.as_str() {
        Some(id) if crate::catalog::load::is_valid_id(id) => Ok(id.to_owned()),
        _ => Err("must be a catalog id (lower-case letters, digits and hyphens)".into()),
    }
}

/// An integer number of minor units, 0 to `MAX_PRICE_MINOR` (`5.0` counts as the integer 5, as
/// JSON Schema's `integer` does).
fn price_minor(value: &Value) -> Result<i64, String> {
    let whole = value.as_i64().or_else(|| {
        value.as_f64().filter(|n| n.fract() == 0.0 && n.abs() <= MAX_PRICE_MINOR as f64).map(|n| n as i64)
    });
    match whole {
        Some(n) if (0..=MAX_PRICE_MINOR).contains(&n) => Ok(n),
        _ => Err(format!("must be an integer number of minor units from 0 to {MAX_PRICE_MINOR}")),
    }
}

fn currency(value: &Value) -> Result<String, String> {
    match value.as_str() {
        Some(code) if super::vocabulary::is_currency(code) => Ok(code.to_owned()),
        _ => Err(format!(
            "must be an ISO 4217 code from the published list: {}",
            super::vocabulary::CURRENCIES.join(", ")
        )),
    }
}

/// An https link to a public host: the rules webhook URLs share (`webhooks::url`), any port.
fn url(value: &Value) -> Result<String, String> {
    let text = value.as_str().ok_or("must be a string")?;
    crate::webhooks::url::parse_public_https(text).map(|url| url.as_str().to_owned())
}

fn one_of(value: &Value, allowed: &[&str]) -> Result<String, String> {
    match value.as_str() {
        Some(text) if allowed.contains(&text) => Ok(text.to_owned()),
        _ => Err(format!("must be one of: {}", allowed.join(", "))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(sku: &str) -> Value {
        json!({
            "sku": sku,
            "target": { "type": "firearm", "id": "glock-17" },
            "priceMinor": 59_900,
            "currency": "USD",
            "url": format!("https://shop.example.com/p/{sku}"),
        })
    }

    fn check(offers: Value) -> Result<Vec<OfferFields>, Problems> {
        let mut problems = Problems::new();
        replacement(Some(&offers), &mut problems).ok_or(problems)
    }

    #[test]
    fn a_valid_row_takes_the_published_defaults() {
        let offers = check(json!([row("a")])).unwrap();
        assert_eq!(
            (offers[0].stock.as_str(), offers[0].condition.as_str(), offers[0].status.as_str()),
            ("in_stock", "new", "published")
        );
        assert_eq!(offers[0].target, Target { kind: "firearm".into(), id: "glock-17".into() });
    }

    #[test]
    fn every_bad_field_is_named_by_its_row() {
        let mut bad = row("b");
        bad["url"] = json!("http://shop.example.com/p/b");
        bad["priceMinor"] = json!(-1);
        bad["target"] = json!({ "type": "scope" });
        let problems = check(json!([row("a"), bad, row("a"), 7])).unwrap_err();
        let names: Vec<&str> = problems.keys().map(String::as_str).collect();
        assert_eq!(
            names,
            [
                "offers[1].target.type",
                "offers[1].target.id",
                "offers[1].priceMinor",
                "offers[1].url",
                "offers[2].sku",
                "offers[3]"
            ]
        );
    }

    #[test]
    fn at_most_500_rows() {
        let rows: Vec<Value> = (0..=MAX_OFFERS).map(|i| row(&i.to_string())).collect();
        let problems = check(Value::Array(rows)).unwrap_err();
        assert_eq!(problems.keys().collect::<Vec<_>>(), ["offers"]);
        assert!(check(json!([])).unwrap().is_empty(), "an empty set removes every offer");
    }

    #[test]
    fn prices_are_whole_minor_units() {
        assert_eq!(price_minor(&json!(0)), Ok(0));
        assert_eq!(price_minor(&json!(5.0)), Ok(5));
        assert!(price_minor(&json!(5.5)).is_err());
        assert!(price_minor(&json!("5")).is_err());
        assert!(price_minor(&json!(MAX_PRICE_MINOR + 1)).is_err());
    }

    #[test]
    fn a_patch_names_its_bad_fields_without_a_prefix() {
        let body = json!({ "priceMinor": 100, "currency": "usd", "status": "live" });
        let mut problems = Problems::new();
        let changes = changes(body.as_object().unwrap(), &mut problems);
        assert_eq!(changes.price_minor, Some(100));
        assert_eq!(problems.keys().collect::<Vec<_>>(), ["currency", "status"]);
    }
}
