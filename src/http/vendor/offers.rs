//! /v1/vendor/offers: the shop's offers (117 list, 118 replace all, 119 change one, 120 remove
//! one). Bodies are read field by field by `sellers::input`, so each bad field is named by its
//! path (`offers[42].url`); a replacement with any bad row writes nothing.

use axum::extract::State;
use axum::response::Response;
use serde_json::{Map, Value};

use crate::access::cache::ShopEntry;
use crate::access::caller::ShopCaller;
use crate::access::paging::Paging;
use crate::http::edge::body_limit::ApiJson;
use crate::http::extract::path::ValidPath;
use crate::http::extract::query::{Declared, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState, Reason, respond};
use crate::sellers::input::{self, Problems};
use crate::sellers::offers::{self, Replaced, VendorOffer};
use crate::sellers::targets;
use crate::sellers::vocabulary::STATUSES;

const SHOP: QueryParam<kind::Text> = QueryParam::new(
    "shop",
    kind::Text { max: 64 },
    "the shop to act for (an id from GET /v1/vendor/shops); needed only when the key acts for several",
);
const STATUS: QueryParam<kind::OneOf> =
    QueryParam::new("status", kind::OneOf(STATUSES), "only offers with this status");

pub struct ListQuery {
    shop: Option<String>,
    status: Option<String>,
}

impl QueryParams for ListQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&SHOP, &STATUS];
    fn read(params: &mut Params) -> Self {
        Self { shop: params.get(&SHOP), status: params.get(&STATUS) }
    }
}

pub struct ShopQuery {
    shop: Option<String>,
}

impl QueryParams for ShopQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&SHOP];
    fn read(params: &mut Params) -> Self {
        Self { shop: params.get(&SHOP) }
    }
}

crate::query_params_doc!(ListQuery, ShopQuery);

/// The shop's offers by sku, with their clicks. A shop under review may read them.
#[utoipa::path(get, path = "/v1/vendor/offers", tag = "Sellers", params(ListQuery),
    responses((status = 200, body = schemas::Page<VendorOffer>)))]
pub async fn list(
    State(state): State<AppState>,
    caller: ShopCaller,
    Valid(query): Valid<ListQuery>,
    paging: Paging,
) -> Result<Response, ApiError> {
    let shop = caller.act_for(query.shop.as_deref(), SHOP.name)?;
    let all = offers::list(&state.db, &shop.shop_id, query.status.as_deref()).await?;
    let (page, pagination) = paging.slice(&all);
    let data: Vec<VendorOffer> = page.iter().cloned().map(VendorOffer::from).collect();
    Ok(respond::paged(data, pagination))
}

/// Replace the shop's whole offer set in one step: at most 500 offers, each sku once. An offer
/// whose sku the body repeats keeps its id and clicks; the shop's other offers are removed. Any
/// bad row (named by its index in `details`, `offers[3].url`) or unknown catalog record (404,
/// `offers[3].target.id`) refuses the whole body and nothing is written.
#[utoipa::path(put, path = "/v1/vendor/offers", tag = "Sellers", params(ShopQuery),
    request_body = schemas::ReplaceOffers,
    responses((status = 200, body = schemas::One<Replaced>)))]
pub async fn replace(
    State(state): State<AppState>,
    snapshot: CurrentSnapshot,
    caller: ShopCaller,
    Valid(query): Valid<ShopQuery>,
    ApiJson(body): ApiJson<Map<String, Value>>,
) -> Result<Response, ApiError> {
    let shop = caller.act_for(query.shop.as_deref(), SHOP.name)?;
    ShopCaller::may_write(shop)?;
    let mut problems = Problems::new();
    let Some(rows) = input::replacement(body.get("offers"), &mut problems) else {
        return Err(ApiError::invalid_parameters(problems));
    };
    let unknown: Map<String, Value> = rows
        .iter()
        .enumerate()
        .filter(|(_, row)| !targets::in_catalog(&snapshot, &row.target))
        .map(|(index, row)| {
            let problem = format!("no {} has the id '{}'", row.target.kind, row.target.id);
            (format!("offers[{index}].target.id"), Value::String(problem))
        })
        .collect();
    if !unknown.is_empty() {
        let message = format!("{} offers name a record the catalog does not have.", unknown.len());
        return Err(ApiError::new(Reason::ResourceNotFound, message).with_details(Value::Object(unknown)));
    }
    let done = offers::replace(&state.db, &shop.shop_id, &rows).await?;
    Ok(respond::one(done))
}

/// Change one offer's price, currency, url, stock, condition or status; absent fields keep their
/// value. Another shop's offer is 404.
#[utoipa::path(patch, path = "/v1/vendor/offers/{id}", tag = "Sellers", request_body = schemas::UpdateOffer,
    params(("id" = String, Path, description = "the offer's id")),
    responses((status = 200, body = schemas::One<VendorOffer>)))]
pub async fn update(
    State(state): State<AppState>,
    caller: ShopCaller,
    ValidPath(id): ValidPath<String>,
    ApiJson(body): ApiJson<Map<String, Value>>,
) -> Result<Response, ApiError> {
    let shop = owning_shop(&state, &caller, &id).await?;
    ShopCaller::may_write(shop)?;
    let mut problems = Problems::new();
    let changes = input::changes(&body, &mut problems);
    if !problems.is_empty() {
        return Err(ApiError::invalid_parameters(problems));
    }
    let offer =
        offers::update(&state.db, &shop.shop_id, &id, changes).await?.ok_or_else(|| not_found(&id))?;
    Ok(respond::one(VendorOffer::from(offer)))
}

/// Remove one offer. Another shop's offer is 404.
#[utoipa::path(delete, path = "/v1/vendor/offers/{id}", tag = "Sellers",
    params(("id" = String, Path, description = "the offer's id")),
    responses((status = 200, body = schemas::One<schemas::Deleted>)))]
pub async fn delete(
    State(state): State<AppState>,
    caller: ShopCaller,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    let shop = owning_shop(&state, &caller, &id).await?;
    ShopCaller::may_write(shop)?;
    if !offers::delete(&state.db, &shop.shop_id, &id).await? {
        return Err(not_found(&id));
    }
    Ok(respond::one(schemas::Deleted::new(id)))
}

/// The key's shop that holds the offer: an offer of a shop the key does not act for is 404, as
/// an unknown one is, so ids of other shops' offers cannot be probed.
async fn owning_shop<'a>(
    state: &AppState,
    caller: &'a ShopCaller,
    id: &str,
) -> Result<&'a ShopEntry, ApiError> {
    let offer = offers::find(&state.db, id).await?;
    offer.and_then(|offer| caller.shop(&offer.shop_id)).ok_or_else(|| not_found(id))
}

fn not_found(id: &str) -> ApiError {
    ApiError::not_found("offer", id)
}
