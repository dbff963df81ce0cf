//! GET /v1/vendor/shops (116): the shops the key acts for, with approval state.

use axum::extract::State;
use axum::response::Response;

use crate::access::caller::ShopCaller;
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState, respond};
use crate::sellers::shops::{self, VendorShop};

/// The shops this key acts for, by name, each with its approval state and offer counts. A shop
/// under review may read its offers but change none until approved.
#[utoipa::path(get, path = "/v1/vendor/shops", tag = "Sellers",
    responses((status = 200, body = schemas::One<Vec<VendorShop>>)))]
pub async fn list(State(state): State<AppState>, caller: ShopCaller) -> Result<Response, ApiError> {
    Ok(respond::one(shops::list(&state.db, &caller.shop_ids).await?))
}
