//! Shared collections: `POST /v1/me/collections` (103) publishes a named list of firearms (by
//! default the caller's favorites) under an unguessable share id; `GET /v1/collections/{shareId}`
//! (130) shows it to anyone who holds the id, without a key: its name, the owner's display name
//! (never the e-mail) and the firearms as list items in the summary view. The owner deletes one
//! through the operator (`armory accounts delete-collection`): the API has no delete operation.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use utoipa::ToSchema;

use super::body::present;
use crate::access::caller::AccountCaller;
use crate::accounts::{collections, favorites};
use crate::error::Reason;
use crate::http::edge::body_limit::ApiJson;
use crate::http::extract::path::ValidPath;
use crate::http::extract::query::is_slug;
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState, respond};
use crate::read::query::firearm_pages;

const MAX_NAME_CHARS: usize = 100;
const MAX_FIREARMS: usize = 100;

/// POST /v1/me/collections body.
#[derive(Deserialize, ToSchema)]
pub struct CreateCollection {
    /// 1 to 100 characters.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = String, required = true, min_length = 1, max_length = 100, pattern = "\\S")]
    name: Option<Value>,
    /// 1 to 100 firearm ids; without it, the caller's favorites (none is 409 FAVORITES_REQUIRED).
    #[serde(default, rename = "firearmIds", deserialize_with = "present")]
    #[schema(schema_with = firearm_ids_schema)]
    firearm_ids: Option<Value>,
}

fn firearm_ids_schema() -> utoipa::openapi::Schema {
    let id = utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::Type::String)
        .pattern(Some("^[a-z0-9-]+$"));
    utoipa::openapi::ArrayBuilder::new().items(id).min_items(Some(1)).max_items(Some(MAX_FIREARMS)).into()
}

/// A collection just published.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CollectionCreated {
    /// 128 random bits, hex: whoever holds it can read the collection.
    share_id: String,
    name: String,
    #[schema(value_type = i64)]
    firearm_count: usize,
    /// Where it is read, without a key (absolute with ARMORY_PUBLIC_URL, else relative).
    url: String,
    created_at: String,
}

/// A shared collection as anyone holding its id reads it.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SharedCollection {
    share_id: String,
    name: String,
    owner: CollectionOwner,
    created_at: String,
    // Summary list items, pre-rendered.
    #[schema(value_type = Vec<schemas::FirearmListItem>)]
    firearms: Vec<Box<RawValue>>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CollectionOwner {
    /// The name the owner chose; null until set. Never the e-mail.
    display_name: Option<String>,
}

/// Publish a collection; answers its share id (128 random bits) and where to read it.
#[utoipa::path(post, path = "/v1/me/collections", tag = "Account", request_body = CreateCollection,
    responses((status = 201, body = schemas::One<CollectionCreated>),
        (status = 409, description = "FAVORITES_REQUIRED: no firearmIds were sent and the account has no favorites to share; add favorites or send firearmIds")))]
pub async fn create(
    State(state): State<AppState>,
    snapshot: CurrentSnapshot,
    AccountCaller { account_id, .. }: AccountCaller,
    ApiJson(body): ApiJson<CreateCollection>,
) -> Result<Response, ApiError> {
    let mut problems = Map::new();
    let name = match body.name.as_ref().map(|v| v.as_str().map(str::trim)) {
        Some(Some(name)) if (1..=MAX_NAME_CHARS).contains(&name.chars().count()) => Some(name.to_owned()),
        Some(_) => {
            problems
                .insert("name".into(), Value::String(format!("must be 1 to {MAX_NAME_CHARS} characters")));
            None
        }
        None => {
            problems.insert("name".into(), Value::from("is required"));
            None
        }
    };
    let chosen = match &body.firearm_ids {
        None => None,
        Some(value) => match parse_ids(value) {
            Ok(ids) => Some(ids),
            Err(problem) => {
                problems.insert("firearmIds".into(), Value::String(problem));
                None
            }
        },
    };
    if !problems.is_empty() {
        return Err(ApiError::invalid_parameters(problems));
    }
    let ids = match chosen {
        Some(ids) => ids,
        None => favorites::ids(&state.db, &account_id).await?,
    };
    if ids.is_empty() {
        // The body is valid; the account's state refuses it.
        return Err(ApiError::new(
            Reason::FavoritesRequired,
            "You have no favorites to share: add some (POST /v1/me/favorites/{firearmId}) or send firearmIds.",
        ));
    }
    let missing: Vec<&String> = ids.iter().filter(|id| !snapshot.has_firearm(id)).collect();
    if !missing.is_empty() {
        return Err(ApiError::missing_ids("firearm", &missing));
    }
    let name = name.unwrap_or_default();
    let collection = collections::create(&state.db, &account_id, &name, &ids).await?;
    let url = format!(
        "{}/v1/collections/{}",
        state.config.public_url.as_deref().unwrap_or(""),
        collection.share_id
    );
    let mut response = respond::one(CollectionCreated {
        firearm_count: collection.firearm_ids.len(),
        share_id: collection.share_id,
        name: collection.name,
        url,
        created_at: collection.created_at,
    });
    *response.status_mut() = StatusCode::CREATED;
    Ok(response)
}

/// 1 to 100 distinct firearm ids, in the order given.
fn parse_ids(value: &Value) -> Result<Vec<String>, String> {
    let items = value.as_array().ok_or("must be an array of firearm ids")?;
    if !(1..=MAX_FIREARMS).contains(&items.len()) {
        return Err(format!("must hold 1 to {MAX_FIREARMS} firearm ids"));
    }
    let mut ids: Vec<String> = Vec::with_capacity(items.len());
    for item in items {
        let id = item
            .as_str()
            .filter(|id| is_slug(id))
            .ok_or("must hold firearm ids (lower-case letters, digits, hyphens)")?;
        if !ids.iter().any(|known| known == id) {
            ids.push(id.to_owned());
        }
    }
    Ok(ids)
}

/// A shared collection, read without a key: its name, its owner's display name and its firearms
/// (summary list items; a firearm the catalog dropped is left out).
#[utoipa::path(get, path = "/v1/collections/{shareId}", tag = "Account",
    params(("shareId" = String, Path, description = "the id the owner shared")),
    responses((status = 200, body = schemas::One<SharedCollection>)))]
pub async fn shared(
    State(state): State<AppState>,
    snapshot: CurrentSnapshot,
    ValidPath(share_id): ValidPath<String>,
) -> Result<Response, ApiError> {
    let collection = collections::find(&state.db, &share_id)
        .await?
        .ok_or_else(|| ApiError::not_found("shared collection", &share_id))?;
    let firearms = firearm_pages::summary_items(&snapshot, &collection.firearm_ids);
    Ok(respond::one(SharedCollection {
        share_id: collection.share_id,
        name: collection.name,
        owner: CollectionOwner { display_name: collection.owner_display_name },
        created_at: collection.created_at,
        firearms,
    }))
}
