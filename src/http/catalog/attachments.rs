//! /v1/attachments: so far only their offers (67). The catalog carries no attachments yet (they
//! arrive with the compatibility engine), so every id is 404 until then; nothing here changes when
//! they do. `only_offered` on GET /v1/attachments (64) belongs with that list, which does not
//! exist yet.

use axum::extract::State;
use axum::response::Response;

use crate::http::catalog::offers::{BuyerOffersQuery, answer};
use crate::http::extract::path::ValidPath;
use crate::http::extract::query::Valid;
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState};

/// The published offers of approved shops for this attachment, cheapest first within each
/// currency, each with its shop and its outbound link (`/v1/out/{offerId}`).
#[utoipa::path(get, path = "/v1/attachments/{id}/offers", tag = "Attachments",
    params(("id" = String, Path), BuyerOffersQuery),
    responses((status = 200, body = schemas::BuyerOffersResponse)))]
pub async fn offers(
    State(state): State<AppState>,
    snapshot: CurrentSnapshot,
    ValidPath(id): ValidPath<String>,
    Valid(query): Valid<BuyerOffersQuery>,
) -> Result<Response, ApiError> {
    snapshot.attachment(&id)?;
    answer(&state, "attachment", &id, query).await
}
