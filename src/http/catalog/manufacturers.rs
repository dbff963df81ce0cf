//! /v1/manufacturers: list, detail and a manufacturer's firearms (operations 41 to 43).

use axum::response::{IntoResponse, Response};
use serde_json::Value;

use crate::access::caller::Caller;
use crate::access::paging::Paging;
use crate::http::extract::path::ValidPath;
use crate::http::extract::query::{Declared, ORDER, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};
use crate::read::list_index::Filters;
use crate::read::views::{self, View};

const COUNTRY: QueryParam<kind::Country> =
    QueryParam::new("country", kind::Country, "ISO 3166-1 alpha-2 code of the seat");

pub struct ManufacturerListQuery {
    descending: bool,
    country: Option<String>,
}

impl QueryParams for ManufacturerListQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&ORDER, &COUNTRY];
    fn read(params: &mut Params) -> Self {
        Self { descending: params.descending(), country: params.get(&COUNTRY) }
    }
}

crate::query_params_doc!(ManufacturerListQuery);

/// Manufacturers, ordered by name; `country` filters by ISO country code.
#[utoipa::path(get, path = "/v1/manufacturers", tag = "Manufacturers",
    params(ManufacturerListQuery),
    responses((status = 200, body = schemas::Page<schemas::Manufacturer>, description = "Explorer: id, name, countryCode, foundedYear")))]
pub async fn list(
    snapshot: CurrentSnapshot,
    caller: Caller,
    Valid(ManufacturerListQuery { descending, country }): Valid<ManufacturerListQuery>,
    paging: Paging,
) -> Result<Response, ApiError> {
    let mut makers: Vec<_> = snapshot
        .aggregates()
        .manufacturers_by_name
        .iter()
        .map(|&at| &snapshot.catalog.manufacturers[at])
        .filter(|m| country.as_deref().is_none_or(|c| m.country_code.as_deref() == Some(c)))
        .collect();
    if descending {
        makers.reverse();
    }
    let (page, pagination) = paging.slice(&makers);
    let fields = fields_for(View::of(caller.plan));
    let data: Vec<Value> = page
        .iter()
        .map(|m| views::project(&views::with_meta(m, &snapshot.meta("manufacturers", &m.id)), fields))
        .collect();
    Ok(respond::paged(data, pagination))
}

/// One manufacturer, with provenance.
#[utoipa::path(get, path = "/v1/manufacturers/{id}", tag = "Manufacturers",
    params(("id" = String, Path, description = "manufacturer slug")),
    responses((status = 200, body = schemas::One<schemas::ManufacturerDetail>)))]
pub async fn detail(
    snapshot: CurrentSnapshot,
    caller: Caller,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    Ok(crate::read::query::records::manufacturer(&snapshot, &id, View::of(caller.plan))?.into_response())
}

/// A manufacturer's firearms, ordered by name.
#[utoipa::path(get, path = "/v1/manufacturers/{id}/firearms", tag = "Manufacturers",
    params(("id" = String, Path)),
    responses((status = 200, body = schemas::Page<schemas::ManufacturerFirearm>)))]
pub async fn firearms(
    snapshot: CurrentSnapshot,
    paging: Paging,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    let (at, _) = snapshot.manufacturer(&id)?;
    let made_here = Filters { manufacturer: Some(at as u32), ..Filters::default() };
    Ok(crate::http::catalog::firearms::sub_list(
        &snapshot,
        &paging,
        made_here,
        views::MANUFACTURER_FIREARM_ITEM,
    )
    .into_response())
}

fn fields_for(view: View) -> &'static [&'static str] {
    match view {
        View::Summary => views::MANUFACTURER_SUMMARY,
        View::Full => views::MANUFACTURER_FULL,
    }
}
