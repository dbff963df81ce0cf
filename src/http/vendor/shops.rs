//! GET /v1/vendor/shops (116): the shops the key acts for, with approval state.

use axum::extract::State;
use axum::response::Response;
use serde_json::{Value, json};

use crate::access::caller::ShopCaller;
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState, respond};
use crate::sellers::shops;

/// The shops this key acts for, by name, each with its approval state and offer counts. A shop
/// under review may read its offers but change none until approved.
#[utoipa::path(get, path = "/v1/vendor/shops", tag = "Sellers",
    responses((status = 200, body = schemas::One<Vec<schemas::VendorShop>>)))]
pub async fn list(State(state): State<AppState>, caller: ShopCaller) -> Result<Response, ApiError> {
    let shops = shops::list(&state.db, &caller.shop_ids).await?;
    let data: Vec<Value> = shops
        .iter()
        .map(|shop| {
            json!({
                "id": shop.id,
                "name": shop.name,
                "status": if shop.approved { "approved" } else { "under_review" },
                "offers": { "total": shop.offers, "published": shop.published },
                "createdAt": shop.created_at,
            })
        })
        .collect();
    Ok(respond::one(data))
}
