//! GET /v1/firearms/{id}/family-tree: a firearm's ancestors and every variant below it (operation 30).

use axum::response::Response;

use crate::http::extract::path::ValidPath;
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};
use crate::read::query::variants::{self, FamilyTree};

/// Ancestors from the root down to the parent, the firearm itself, and its descendants as a tree
/// (`variants` nested), each with provenance.
#[utoipa::path(get, path = "/v1/firearms/{id}/family-tree", tag = "Firearms",
    params(("id" = String, Path)),
    responses((status = 200, body = schemas::One<FamilyTree>)))]
pub async fn family_tree(
    snapshot: CurrentSnapshot,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    Ok(respond::one(variants::family_tree(&snapshot, &id)?))
}
