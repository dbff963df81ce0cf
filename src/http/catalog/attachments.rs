//! /v1/attachments: the list (64, with `vendor` and `only_offered`) and their offers (67). The
//! bundled catalog carries no attachments yet (they arrive with the compatibility engine), so the
//! list is empty and every id is 404 until then; nothing here changes when they do.

use axum::extract::State;
use axum::response::{IntoResponse, Response};

use crate::access::paging::Paging;
use crate::http::extract::query::{Declared, Params, QueryParam, QueryParams, kind};
use crate::sellers::buyers::offered_ids;

use crate::http::catalog::offers::{BuyerOffersQuery, answer};
use crate::http::extract::path::ValidPath;
use crate::http::extract::query::Valid;
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState};
use crate::read::query::attachments::{self, AttachmentFilter, AttachmentItem};

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

/// Attachments by name; `vendor` keeps one vendor's (any case), `only_offered=true` those a shop
/// offers now (a shop's change shows with the next request).
#[utoipa::path(get, path = "/v1/attachments", tag = "Attachments", params(AttachmentListQuery),
    responses((status = 200, body = schemas::Page<AttachmentItem>)))]
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
    let filter = AttachmentFilter { vendor: vendor.as_deref(), among: offered.as_ref() };
    Ok(attachments::list(&snapshot, &filter, &paging)?.into_response())
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
