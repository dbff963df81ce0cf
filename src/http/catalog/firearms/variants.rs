//! GET /v1/firearms/{id}/variants: a firearm's direct variants (operation 23).

use axum::response::Response;
use std::sync::Arc;

use serde_json::{Value, json};

use crate::catalog::model::Firearm;

use crate::http::extract::path::ValidPath;
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};

/// The firearm's direct variants (generations, special editions and other derived models), by
/// year introduced, then name.
#[utoipa::path(get, path = "/v1/firearms/{id}/variants", tag = "Firearms",
    params(("id" = String, Path)),
    responses((status = 200, body = schemas::One<Vec<schemas::FirearmVariant>>)))]
pub async fn variants(
    snapshot: CurrentSnapshot,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    snapshot.firearm_position(&id)?;
    let firearms = &snapshot.catalog.firearms;
    let mut children: Vec<Arc<Firearm>> =
        snapshot.variant_positions(&id).iter().map(|&i| firearms.get(i)).collect();
    children.sort_by_key(|f| (f.year_introduced.unwrap_or(i64::MAX), f.name.to_lowercase()));
    let data: Vec<Value> = children
        .iter()
        .map(|f| {
            json!({ "id": f.id, "name": f.name, "variantType": f.variant_type,
                    "yearIntroduced": f.year_introduced, "status": f.status })
        })
        .collect();
    Ok(respond::one(data))
}
