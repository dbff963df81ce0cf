//! /v1/attachments: the list (64, with `vendor` and `only_offered`) and their offers (67). The
//! bundled catalog carries no attachments yet (they arrive with the compatibility engine), so the
//! list is empty and every id is 404 until then; nothing here changes when they do.

use axum::extract::State;
use axum::response::Response;
use serde_json::{Value, json};

use crate::access::paging::Paging;
use crate::catalog::model::Attachment;
use crate::http::extract::query::{Declared, Params, QueryParam, QueryParams, kind};
use crate::http::respond;
use crate::sellers::buyers::offered_ids;

use crate::http::catalog::offers::{BuyerOffersQuery, answer};
use crate::http::extract::path::ValidPath;
use crate::http::extract::query::Valid;
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState};

const VENDOR: QueryParam<kind::Text> =
    QueryParam::new("vendor", kind::Text { max: 100 }, "only attachments of this vendor (any case)");
const ONLY_OFFERED: QueryParam<kind::Bool> = QueryParam::new(
    "only_offered",
    kind::Bool,
    "true: only attachments with a published offer of an approved shop (read live from the offers)",
);

pub struct AttachmentListQuery {
    vendor: Option<String>,
    only_offered: Option<bool>,
}

impl QueryParams for AttachmentListQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&VENDOR, &ONLY_OFFERED];
    fn read(params: &mut Params) -> Self {
        Self { vendor: params.get(&VENDOR), only_offered: params.get(&ONLY_OFFERED) }
    }
}

crate::query_params_doc!(AttachmentListQuery);

fn item(attachment: &Attachment) -> Value {
    json!({
        "id": attachment.id,
        "name": attachment.name,
        "vendor": attachment.vendor,
        "kind": attachment.kind,
        "interfaces": attachment.interfaces,
        "weightG": attachment.weight_g,
        "lengthMm": attachment.length_mm,
    })
}

/// Attachments by name; `vendor` keeps one vendor's (any case), `only_offered=true` those a shop
/// offers now (a shop's change shows with the next request).
#[utoipa::path(get, path = "/v1/attachments", tag = "Attachments", params(AttachmentListQuery),
    responses((status = 200, body = schemas::Page<schemas::AttachmentItem>)))]
pub async fn list(
    State(state): State<AppState>,
    snapshot: CurrentSnapshot,
    Valid(AttachmentListQuery { vendor, only_offered }): Valid<AttachmentListQuery>,
    paging: Paging,
) -> Result<Response, ApiError> {
    let offered = match only_offered {
        Some(true) => Some(offered_ids(&state.db, "attachment").await?),
        _ => None,
    };
    let vendor = vendor.map(|v| v.to_lowercase());
    let mut kept: Vec<&Attachment> = snapshot
        .catalog
        .attachments
        .iter()
        .filter(|a| {
            vendor.as_ref().is_none_or(|v| a.vendor.as_ref().is_some_and(|mine| mine.to_lowercase() == *v))
        })
        .filter(|a| offered.as_ref().is_none_or(|ids| ids.contains(&a.id)))
        .collect();
    kept.sort_by_cached_key(|a| (a.name.to_lowercase(), a.id.clone()));
    let (page, pagination) = paging.slice(&kept);
    Ok(respond::paged(page.iter().map(|a| item(a)).collect::<Vec<_>>(), pagination))
}

/// The published offers of approved shops for this attachment, cheapest first within each
/// currency, each with its shop and its outbound link (`/v1/out/{offerId}`).
#[utoipa::path(get, path = "/v1/attachments/{id}/offers", tag = "Attachments",
    params(("id" = String, Path), BuyerOffersQuery),
    responses((status = 200, body = schemas::One<Vec<schemas::BuyerOffer>>)))]
pub async fn offers(
    State(state): State<AppState>,
    snapshot: CurrentSnapshot,
    ValidPath(id): ValidPath<String>,
    Valid(query): Valid<BuyerOffersQuery>,
) -> Result<Response, ApiError> {
    snapshot.attachment(&id)?;
    answer(&state, "attachment", &id, query).await
}
