//! /v1/manufacturers: list, detail and a manufacturer's firearms (operations 41 to 43).

use axum::response::{IntoResponse, Response};

use crate::access::caller::Caller;
use crate::access::paging::Paging;
use crate::http::ApiError;
use crate::http::extract::path::ValidPath;
use crate::http::extract::query::{Declared, ORDER, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::read::query::manufacturers;
use crate::read::views::View;

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
    let view = View::of(caller.plan);
    Ok(manufacturers::list(&snapshot, country.as_deref(), descending, &paging, view)?.into_response())
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
    Ok(manufacturers::firearms(&snapshot, &id, &paging)?.into_response())
}
