//! Offers as buyers meet them: the published offers of approved shops for one catalog record
//! (37 for a firearm, 67 for an attachment, both answered by `answer`), and the keyless outbound
//! link (135) that counts a click and sends the buyer on to the shop. Offers are read from the
//! database, not the snapshot (see `sellers::buyers`), so a shop's change shows at once.

use axum::extract::State;
use axum::http::{Method, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::http::extract::path::ValidPath;
use crate::http::extract::query::{Declared, Params, QueryParam, QueryParams, kind};
use crate::http::{ApiError, AppState, respond};
use crate::sellers::buyers;
use crate::sellers::vocabulary::CURRENCIES;

const CURRENCY: QueryParam<kind::OneOf> =
    QueryParam::new("currency", kind::OneOf(CURRENCIES), "only offers in this currency");

pub struct BuyerOffersQuery {
    currency: Option<String>,
}

impl QueryParams for BuyerOffersQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&CURRENCY];
    fn read(params: &mut Params) -> Self {
        Self { currency: params.get(&CURRENCY) }
    }
}

crate::query_params_doc!(BuyerOffersQuery);

/// The published offers for the record `kind`/`id` (already known to the catalog), cheapest first
/// within each currency, each with its shop and its outbound link.
pub async fn answer(
    state: &AppState,
    kind: &str,
    id: &str,
    query: BuyerOffersQuery,
) -> Result<Response, ApiError> {
    let public_url = state.config.public_url.as_deref().unwrap_or("");
    let offers = buyers::published_for(&state.db, kind, id, query.currency.as_deref(), public_url).await?;
    Ok(respond::one(offers))
}

/// An offer's outbound link, without a key: counts the click and answers 302 to the shop's https
/// link. An unknown offer, a draft, or one of a shop under review is 404. A HEAD answers the same
/// redirect without counting (link checkers and previews are not buyers).
#[utoipa::path(get, path = "/v1/out/{offerId}", tag = "Sellers",
    params(("offerId" = String, Path, description = "the offer's id, as in a buyer list's url")),
    responses((status = 302, description = "Found: on to the shop's https link",
        headers(("Location" = String, description = "the offer's https link")))))]
pub async fn follow(
    State(state): State<AppState>,
    method: Method,
    ValidPath(offer_id): ValidPath<String>,
) -> Result<Response, ApiError> {
    let count = method != Method::HEAD;
    let url = buyers::follow(&state.db, &offer_id, count)
        .await?
        .ok_or_else(|| ApiError::not_found("published offer", &offer_id))?;
    Ok((StatusCode::FOUND, [(header::LOCATION, url)]).into_response())
}
