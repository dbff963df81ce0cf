//! A firearm's media: the list of its assets (operation 34), one asset by role (35), a stored
//! image by id (25), and the index of firearms with any media (20).

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};

use super::assets::{STROKE_COLOR, STROKE_WIDTH, stroke};
use crate::access::paging::Paging;
use crate::assets::svg::Stroke;
use crate::http::asset_file;
use crate::http::extract::path::ValidPath;
use crate::http::extract::query::{Declared, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::state::AppState;
use crate::http::{ApiError, image_files, respond};
use crate::read::query::media::{self, MediaIndexItem, MediaItem, SIZES, Selected, Size};

const MEDIA_KINDS: &[&str] = &["silhouette", "render", "photo", "schematic", "model"];
const KIND: QueryParam<kind::OneOf> =
    QueryParam::new("kind", kind::OneOf(MEDIA_KINDS), "only media of this kind");
const FILE_FORMAT: QueryParam<kind::OneOf> = QueryParam::new(
    "format",
    kind::OneOf(&["raw", "json"]),
    "raw (the default): the file; json: its listing in the envelope",
);
const SIZE: QueryParam<kind::OneOf> = QueryParam::new(
    "size",
    kind::OneOf(SIZES),
    "a drawing's size: full (the default, SVG), display (PNG 1,200 pixels wide) or thumb (PNG 320 pixels wide)",
);
const IMAGE_FORMAT: QueryParam<kind::OneOf> = QueryParam::new(
    "format",
    kind::OneOf(&["raw", "datauri"]),
    "raw (the default): the file; datauri: a data URI",
);
const VARIANT: QueryParam<kind::OneOf> = QueryParam::new(
    "variant",
    kind::OneOf(&["original", "display", "thumb"]),
    "the stored file is served as it was added, whatever the variant",
);

pub struct KindQuery {
    kind: Option<String>,
}

impl QueryParams for KindQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&KIND];
    fn read(params: &mut Params) -> Self {
        Self { kind: params.get(&KIND) }
    }
}

pub struct MediaFileQuery {
    json: bool,
    size: Size,
    stroke: Stroke,
}

impl QueryParams for MediaFileQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&FILE_FORMAT, &SIZE, &STROKE_WIDTH, &STROKE_COLOR];
    fn read(params: &mut Params) -> Self {
        Self {
            json: params.get(&FILE_FORMAT).as_deref() == Some("json"),
            size: params.get(&SIZE).as_deref().and_then(Size::parse).unwrap_or(Size::Full),
            stroke: stroke(params),
        }
    }
}

/// `format` and `variant` as the published client sends them: checked and published, and with
/// one form of a stored file, nothing else to choose.
pub struct ImageQuery;

impl QueryParams for ImageQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&IMAGE_FORMAT, &VARIANT];
    fn read(params: &mut Params) -> Self {
        let _ = (params.get(&IMAGE_FORMAT), params.get(&VARIANT));
        Self
    }
}

crate::query_params_doc!(KindQuery, MediaFileQuery, ImageQuery);

/// The firearms with any media, by id, with the kinds each has (silhouette, schematic, model for
/// every firearm with a stated overall length; photo and render for stored images) and its
/// stored images; `kind` keeps those with media of that kind.
#[utoipa::path(get, path = "/v1/firearms/media", tag = "Firearms", params(KindQuery),
    responses((status = 200, body = schemas::Page<MediaIndexItem>)))]
pub async fn index(
    snapshot: CurrentSnapshot,
    Valid(KindQuery { kind }): Valid<KindQuery>,
    paging: Paging,
) -> Result<Response, ApiError> {
    Ok(media::index(&snapshot, kind.as_deref(), &paging)?.into_response())
}

/// Every asset of the firearm: generated drawings (credit source `generated`, the project's
/// license) and stored images (their own source and license), each with its role, URL, MIME
/// type and size; `drawnByConvention` names the figures a drawing took from proportions. A
/// firearm without an overall length has no generated media.
#[utoipa::path(get, path = "/v1/firearms/{id}/media", tag = "Firearms",
    params(("id" = String, Path), KindQuery),
    responses((status = 200, body = schemas::One<Vec<MediaItem>>)))]
pub async fn list(
    snapshot: CurrentSnapshot,
    ValidPath(id): ValidPath<String>,
    Valid(KindQuery { kind }): Valid<KindQuery>,
) -> Result<Response, ApiError> {
    Ok(respond::one(media::of_firearm(&snapshot, &id, kind.as_deref())?))
}

/// One asset by role or kind (primary: a stored primary image, else the silhouette; silhouette,
/// thumbnail, model, schematic-side, schematic-top, schematic-front, a stored image's type) or a
/// stored image's id; `format=json` answers its listing instead of the file. 404 for what the
/// firearm has no asset for.
#[utoipa::path(get, path = "/v1/firearms/{id}/media/{selector}", tag = "Firearms",
    params(("id" = String, Path), ("selector" = String, Path), MediaFileQuery),
    responses((status = 200, description = "the asset's file, or its listing with format=json",
        content((String = "image/svg+xml"), (Vec<u8> = "image/png"), (Vec<u8> = "image/jpeg"), (Vec<u8> = "image/webp"),
            (Vec<u8> = "model/gltf-binary"), (schemas::One<MediaItem> = "application/json")))))]
pub async fn file(
    snapshot: CurrentSnapshot,
    State(state): State<AppState>,
    headers: HeaderMap,
    ValidPath((id, selector)): ValidPath<(String, String)>,
    Valid(MediaFileQuery { json, size, stroke }): Valid<MediaFileQuery>,
) -> Result<Response, ApiError> {
    let (item, selected) = media::select(&snapshot, &id, &selector, size, &stroke)?;
    if json {
        return Ok(respond::one(item));
    }
    match selected {
        Selected::Generated(located) => asset_file::send(&headers, &located),
        Selected::Stored(image) => image_files::send(&state, &headers, &image).await,
    }
}

/// A stored image's file, as it was added to the catalog.
#[utoipa::path(get, path = "/v1/firearms/{id}/images/{imageId}", tag = "Firearms",
    params(("id" = String, Path), ("imageId" = String, Path), ImageQuery),
    responses((status = 200, description = "the image file",
        content((Vec<u8> = "image/png"), (Vec<u8> = "image/jpeg"), (Vec<u8> = "image/webp")))))]
pub async fn image(
    snapshot: CurrentSnapshot,
    State(state): State<AppState>,
    headers: HeaderMap,
    ValidPath((id, image_id)): ValidPath<(String, String)>,
    Valid(ImageQuery): Valid<ImageQuery>,
) -> Result<Response, ApiError> {
    let image_id: i64 =
        image_id.parse().map_err(|_| ApiError::not_found("image of this firearm", &image_id))?;
    let image = media::stored_image(&snapshot, &id, image_id)?;
    image_files::send(&state, &headers, &image).await
}
