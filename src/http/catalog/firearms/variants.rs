//! GET /v1/firearms/{id}/variants: a firearm's direct variants (operation 23).

use axum::response::Response;
use serde_json::{Value, json};

use crate::http::extract::path::ValidPath;
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};

/// The firearm's direct variants (generations, special editions and other derived models), by
/// year introduced, then name.
#[utoipa::path(get, path = "/v1/firearms/{id}/variants", tag = "Firearms",
    params(("id" = String, Path)),
    responses((status = 200, body = schemas::FirearmVariantsResponse)))]
pub async fn variants(
    snapshot: CurrentSnapshot,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    snapshot.firearm(&id)?;
    let firearms = &snapshot.catalog.firearms;
    let mut children: Vec<usize> = snapshot.read.variants.get(&id).cloned().unwrap_or_default();
    children.sort_by(|&a, &b| {
        let key =
            |i: usize| (firearms[i].year_introduced.unwrap_or(i64::MAX), firearms[i].name.to_lowercase());
        key(a).cmp(&key(b))
    });
    let data: Vec<Value> = children
        .iter()
        .map(|&i| {
            let f = &firearms[i];
            json!({ "id": f.id, "name": f.name, "variantType": f.variant_type,
                    "yearIntroduced": f.year_introduced, "status": f.status })
        })
        .collect();
    Ok(respond::one(data))
}
