//! GET /v1/firearms/{id}/offers (37): sellers' published offers for a firearm.

use axum::extract::State;
use axum::response::Response;

use crate::http::catalog::offers::{BuyerOffersQuery, answer};
use crate::http::extract::path::ValidPath;
use crate::http::extract::query::Valid;
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState};

/// The published offers of approved shops for this firearm, cheapest first within each currency,
/// each with its shop and its outbound link (`/v1/out/{offerId}`). A shop's change shows at once.
#[utoipa::path(get, path = "/v1/firearms/{id}/offers", tag = "Firearms",
    params(("id" = String, Path), BuyerOffersQuery),
    responses((status = 200, body = schemas::One<Vec<schemas::BuyerOffer>>)))]
pub async fn offers(
    State(state): State<AppState>,
    snapshot: CurrentSnapshot,
    ValidPath(id): ValidPath<String>,
    Valid(query): Valid<BuyerOffersQuery>,
) -> Result<Response, ApiError> {
    snapshot.require_firearm(&id)?;
    answer(&state, "firearm", &id, query).await
}
