//! /v1/me/favorites (operations 99 to 102): the caller's favorite firearms, added idempotently,
//! listed newest first as firearm list items in the caller's plan view.

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;

use crate::access::caller::AccountCaller;
use crate::access::paging::Paging;
use crate::accounts::favorites::{self, Added, MAX_FAVORITES};
use crate::http::extract::path::ValidPath;
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState, Reason, respond};
use crate::read::query::firearm_pages;
use crate::read::views::View;

/// The caller's favorite firearm ids, newest first.
#[derive(Serialize, ToSchema)]
pub struct FavoriteIds {
    ids: Vec<String>,
}

/// The outcome of adding or removing a favorite.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FavoriteChange {
    firearm_id: String,
    /// Whether the firearm is a favorite now.
    favorite: bool,
    /// Whether this call added it (false when it already was one, and on removal).
    added: bool,
}

/// The caller's favorites, newest first, as firearm list items for the caller's plan (a firearm the
/// catalog no longer has is left out).
#[utoipa::path(get, path = "/v1/me/favorites", tag = "Account",
    responses((status = 200, body = schemas::Page<schemas::FirearmListRecord>)))]
pub async fn list(
    State(state): State<AppState>,
    snapshot: CurrentSnapshot,
    AccountCaller { account_id, caller }: AccountCaller,
    paging: Paging,
) -> Result<Response, ApiError> {
    let ids = favorites::ids(&state.db, &account_id).await?;
    Ok(firearm_pages::page_of_ids(&snapshot, &paging, &ids, View::of(caller.plan)).into_response())
}

/// The ids of the caller's favorites, newest first.
#[utoipa::path(get, path = "/v1/me/favorites/ids", tag = "Account",
    responses((status = 200, body = schemas::One<FavoriteIds>)))]
pub async fn ids(
    State(state): State<AppState>,
    AccountCaller { account_id, .. }: AccountCaller,
) -> Result<Response, ApiError> {
    Ok(respond::one(FavoriteIds { ids: favorites::ids(&state.db, &account_id).await? }))
}

/// Mark a firearm as a favorite. Idempotent: adding one twice leaves one favorite and succeeds
/// both times (`added` says whether this call added it). An account holds at most 1,000.
#[utoipa::path(post, path = "/v1/me/favorites/{firearmId}", tag = "Account",
    params(("firearmId" = String, Path, description = "the firearm's id")),
    responses((status = 200, body = schemas::One<FavoriteChange>)))]
pub async fn add(
    State(state): State<AppState>,
    snapshot: CurrentSnapshot,
    AccountCaller { account_id, .. }: AccountCaller,
    ValidPath(firearm_id): ValidPath<String>,
) -> Result<Response, ApiError> {
    snapshot.require_firearm(&firearm_id)?;
    let added = match favorites::add(&state.db, &account_id, &firearm_id).await? {
        Added::New => true,
        Added::Already => false,
        Added::LimitReached => {
            return Err(ApiError::new(
                Reason::LimitReached,
                format!("An account holds at most {MAX_FAVORITES} favorites; remove one first."),
            )
            .with_details(Value::Object(Map::from_iter([(
                "limit".to_owned(),
                Value::from(MAX_FAVORITES),
            )]))));
        }
    };
    Ok(respond::one(FavoriteChange { firearm_id, favorite: true, added }))
}

/// Unmark a favorite; 404 when the firearm is not one of the caller's favorites.
#[utoipa::path(delete, path = "/v1/me/favorites/{firearmId}", tag = "Account",
    params(("firearmId" = String, Path, description = "the firearm's id")),
    responses((status = 200, body = schemas::One<FavoriteChange>)))]
pub async fn remove(
    State(state): State<AppState>,
    AccountCaller { account_id, .. }: AccountCaller,
    ValidPath(firearm_id): ValidPath<String>,
) -> Result<Response, ApiError> {
    if !favorites::remove(&state.db, &account_id, &firearm_id).await? {
        return Err(ApiError::new(
            Reason::ResourceNotFound,
            format!("The firearm '{firearm_id}' is not one of your favorites."),
        ));
    }
    Ok(respond::one(FavoriteChange { firearm_id, favorite: false, added: false }))
}
