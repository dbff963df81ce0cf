//! GET /v1/firearms: every filter and sort of the spec, `order`, `fields` and `has_3d_model`.

use std::collections::HashMap;

use axum::extract::{Query, State};
use axum::response::Response;

use super::{ItemForm, page_of};
use crate::access::caller::Caller;
use crate::access::paging::Paging;
use crate::catalog::model::Firearm;
use crate::catalog::vocabulary::{ACTION_TYPES, FIREARM_STATUSES};
use crate::http::query::Params;
use crate::http::{ApiError, AppState, schemas};
use crate::read::facts::{Facts, country_bytes, vocabulary_index};
use crate::read::firearm_json::full_field_names;
use crate::read::orders::Sort;
use crate::read::snapshot::Snapshot;
use crate::read::views::{self, View};

/// The list's filters, parsed and resolved to the read model's small indexes (see `read::facts`).
#[derive(Debug, Default)]
pub struct Filters {
    pub manufacturer: Option<u32>,
    pub caliber: Option<u32>,
    pub category: Option<u16>,
    pub action: Option<u16>,
    pub country: Option<[u8; 2]>,
    pub year_min: Option<i32>,
    pub year_max: Option<i32>,
    pub weight_min: Option<f32>,
    pub weight_max: Option<f32>,
    pub barrel_length_min: Option<f32>,
    pub status: Option<u16>,
    pub has_3d_model: Option<bool>,
}

impl Filters {
    /// Parse every filter; a reference to a record the catalog does not have is named too.
    pub fn parse(params: &mut Params, snapshot: &Snapshot) -> Self {
        let read = &snapshot.read;
        let reference = |params: &mut Params, name: &str, known: &HashMap<String, usize>| {
            let id = params.slug(name)?;
            let found = known.get(&id).copied();
            if found.is_none() {
                params.problem(name, format!("no record has the id '{id}'"));
            }
            found
        };
        let manufacturer = reference(params, "manufacturer", &read.manufacturer_at).map(|i| i as u32);
        let caliber = reference(params, "caliber", &read.caliber_at).map(|i| i as u32);
        let category = reference(params, "category", &read.category_at).map(|i| i as u16);
        let action =
            params.one_of("action_type", ACTION_TYPES).map(|a| vocabulary_index(ACTION_TYPES, Some(&a)));
        let status =
            params.one_of("status", FIREARM_STATUSES).map(|s| vocabulary_index(FIREARM_STATUSES, Some(&s)));
        let filters = Self {
            manufacturer,
            caliber,
            category,
            action,
            country: params.country("country_of_origin").map(|c| country_bytes(Some(&c))),
            year_min: params.int("year_introduced_min", 1000..=3000).map(|y| y as i32),
            year_max: params.int("year_introduced_max", 1000..=3000).map(|y| y as i32),
            weight_min: params.number("weight_min").map(|w| w as f32),
            weight_max: params.number("weight_max").map(|w| w as f32),
            barrel_length_min: params.number("barrel_length_min").map(|b| b as f32),
            status,
            has_3d_model: params.boolean("has_3d_model"),
        };
        if let (Some(min), Some(max)) = (filters.year_min, filters.year_max)
            && min > max
        {
            params.problem("year_introduced_min", "must not be above year_introduced_max");
        }
        if let (Some(min), Some(max)) = (filters.weight_min, filters.weight_max)
            && min > max
        {
            params.problem("weight_min", "must not be above weight_max");
        }
        filters
    }

    /// Whether a firearm passes every filter; an unknown figure never passes a bound on it
    /// (NaN compares false).
    pub fn matches(&self, f: &Facts) -> bool {
        self.manufacturer.is_none_or(|m| f.manufacturer == m)
            && self.category.is_none_or(|c| f.category == c)
            && self.status.is_none_or(|s| f.status == s)
            && self.action.is_none_or(|a| f.action == a)
            && self.country.is_none_or(|c| f.country == c)
            && self.year_min.is_none_or(|y| f.year.is_some_and(|v| v >= y))
            && self.year_max.is_none_or(|y| f.year.is_some_and(|v| v <= y))
            && self.weight_min.is_none_or(|w| f.weight >= w)
            && self.weight_max.is_none_or(|w| f.weight <= w)
            && self.barrel_length_min.is_none_or(|b| f.barrel >= b)
            && self.has_3d_model.is_none_or(|wanted| f.has_3d_model == wanted)
            && self.caliber.is_none_or(|c| f.calibers.contains(&c))
    }
}

/// A firearm has a 3D model when one of its assets is of type `3d_model`.
pub fn has_3d_model(f: &Firearm) -> bool {
    f.images.iter().any(|i| i.image_type.as_deref() == Some("3d_model"))
}

/// The `fields` parameter: names from the plan's own form, in any order; `id` always comes back.
fn parse_fields(params: &mut Params, view: View) -> Option<Vec<String>> {
    let raw = params.raw("fields")?;
    let allowed: Vec<&str> = match view {
        View::Summary => views::FIREARM_LIST_ITEM.to_vec(),
        View::Full => full_field_names(),
    };
    let names: Vec<String> = raw.split(',').map(|f| f.trim().to_owned()).filter(|f| !f.is_empty()).collect();
    let unknown: Vec<&str> = names.iter().map(String::as_str).filter(|n| !allowed.contains(n)).collect();
    if names.is_empty() || !unknown.is_empty() {
        params.problem(
            "fields",
            format!(
                "unknown or unavailable on this plan: {}; allowed: {}",
                unknown.join(", "),
                allowed.join(", ")
            ),
        );
        return None;
    }
    Some(names)
}

/// Firearms, filtered and sorted. Explorer gets the list item (summary set); Builder and up the
/// full record. Unknown values of `sort` sort nothing and are refused; firearms without the sort
/// value come last in either order.
#[utoipa::path(get, path = "/v1/firearms", tag = "Firearms",
    params(
        ("sort" = Option<String>, Query, description = "name (default), weight, year, caliber"),
        ("order" = Option<String>, Query, description = "asc (default) or desc"),
        ("fields" = Option<String>, Query, description = "comma-separated field names to include (from the plan's form); id always included"),
        ("manufacturer" = Option<String>, Query, description = "manufacturer id"),
        ("caliber" = Option<String>, Query, description = "caliber id"),
        ("category" = Option<String>, Query, description = "category id"),
        ("action_type" = Option<String>, Query), ("country_of_origin" = Option<String>, Query, description = "ISO 3166-1 alpha-2"),
        ("year_introduced_min" = Option<i64>, Query), ("year_introduced_max" = Option<i64>, Query),
        ("weight_min" = Option<f64>, Query, description = "grams, empty weight"), ("weight_max" = Option<f64>, Query, description = "grams"),
        ("barrel_length_min" = Option<f64>, Query, description = "millimetres"),
        ("status" = Option<String>, Query, description = "in_production, discontinued, prototype"),
        ("has_3d_model" = Option<bool>, Query, description = "only firearms with (true) or without (false) a 3D model asset"),
    ),
    responses((status = 200, body = schemas::FirearmPage)))]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    paging: Paging,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, ApiError> {
    let snapshot = state.catalog.current();
    let view = View::of(caller.plan);
    let mut params = Params::new(&query);
    let sort = params.one_of("sort", Sort::NAMES).and_then(|s| Sort::parse(&s)).unwrap_or(Sort::Name);
    let descending = params.descending();
    let fields = parse_fields(&mut params, view);
    let filters = Filters::parse(&mut params, &snapshot);
    params.finish()?;

    let facts = &snapshot.read.facts;
    let positions: Vec<usize> =
        snapshot.read.orders.get(sort).iter(descending).filter(|&at| filters.matches(&facts[at])).collect();
    let field_names: Option<Vec<&str>> = fields.as_ref().map(|f| f.iter().map(String::as_str).collect());
    let form = match &field_names {
        Some(fields) => ItemForm::Fields(view, fields),
        None => ItemForm::Plan(view),
    };
    Ok(page_of(&snapshot, &paging, &positions, form))
}
