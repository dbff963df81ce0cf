//! GET /v1/firearms/{id}: the pre-rendered detail for the caller's plan.

use axum::extract::State;
use axum::response::{IntoResponse, Response};

use crate::access::caller::Caller;
use crate::http::access::in_process;
use crate::http::extract::path::ValidPath;
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState};
use crate::read::query::firearms;
use crate::read::views::View;

/// The firearm with its manufacturer, category, calibers, images, users and provenance. Explorer
/// gets the summary field set (the list item's fields) with provenance. safetyMechanisms,
/// features, feedSystems, alternateNames, firingModes, conflicts, productionNumbers and sources
/// are strings holding JSON, as the spec serves them.
#[utoipa::path(get, path = "/v1/firearms/{id}", tag = "Firearms",
    params(("id" = String, Path, description = "firearm id (^[a-z0-9-]+$)")),
    responses((status = 200, body = schemas::One<schemas::FirearmDetail>)))]
pub async fn detail(
    State(state): State<AppState>,
    snapshot: CurrentSnapshot,
    caller: Caller,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    let detail = firearms::detail(&snapshot, &id, View::of(caller.plan))?;
    // Every request for a known firearm counts towards the popular list (operation 40), 304s too;
    // the service's own requests (`http::access::in_process`) never do.
    if !in_process::is_in_process(&caller) {
        state.access.usage.count_view(&id, &crate::clock::Second::now().day);
    }
    Ok(detail.into_response())
}
