//! A firearm's generated files: its side-profile silhouette (operation 33) and its 3D model (36).

use axum::http::HeaderMap;
use axum::response::Response;

use crate::assets::svg::{STROKE_WIDTH_RANGE, Stroke, View};
use crate::http::asset_file;
use crate::http::extract::path::ValidPath;
use crate::http::extract::query::{Declared, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};
use crate::read::query::assets::{self, FirearmAsset, SILHOUETTE_PX, SilhouetteDocument};

const FORMAT: QueryParam<kind::OneOf> = QueryParam::new(
    "format",
    kind::OneOf(&["raw", "svg", "png", "json", "datauri"]),
    "raw and svg (the default) are the same SVG document; png a raster 1,200 pixels wide; json the \
     document as text in the envelope, datauri as a data URI",
);
pub const STROKE_WIDTH: QueryParam<kind::Decimal> = QueryParam::new(
    "stroke_width",
    kind::Decimal { min: STROKE_WIDTH_RANGE.0, max: STROKE_WIDTH_RANGE.1 },
    "the outline's width in millimetres, 0.1 to 20 (default 1)",
);
pub const STROKE_COLOR: QueryParam<kind::Colour> = QueryParam::new(
    "stroke_color",
    kind::Colour,
    "the outline's and fill's colour, #rgb or #rrggbb (default #1f2933)",
);

/// The stroke the request names, the default where it names none.
pub fn stroke(params: &mut Params) -> Stroke {
    let default = Stroke::default();
    Stroke {
        width: params.get(&STROKE_WIDTH).unwrap_or(default.width),
        colour: params.get(&STROKE_COLOR).unwrap_or(default.colour),
    }
}

pub struct SilhouetteQuery {
    format: String,
    stroke: Stroke,
}

impl QueryParams for SilhouetteQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&FORMAT, &STROKE_WIDTH, &STROKE_COLOR];
    fn read(params: &mut Params) -> Self {
        Self { format: params.get(&FORMAT).unwrap_or_else(|| "svg".into()), stroke: stroke(params) }
    }
}

crate::query_params_doc!(SilhouetteQuery);

/// The firearm's side profile drawn to scale: 1 unit of the viewBox is 1 mm, exactly its
/// overall length long and its height tall (its layout's proportion where the catalog states no
/// height, said in the document's `<desc>`). 404 naming the missing figure for a firearm
/// without an overall length.
#[utoipa::path(get, path = "/v1/firearms/{id}/silhouette", tag = "Firearms",
    params(("id" = String, Path), SilhouetteQuery),
    responses((status = 200, description = "the silhouette as SVG, as PNG with format=png, or in the envelope with format=json or datauri",
        content((String = "image/svg+xml"), (Vec<u8> = "image/png"), (schemas::One<SilhouetteDocument> = "application/json")))))]
pub async fn silhouette(
    snapshot: CurrentSnapshot,
    headers: HeaderMap,
    ValidPath(id): ValidPath<String>,
    Valid(SilhouetteQuery { format, stroke }): Valid<SilhouetteQuery>,
) -> Result<Response, ApiError> {
    let asset = match format.as_str() {
        "json" | "datauri" => {
            return Ok(respond::one(assets::silhouette_document(
                &snapshot,
                &id,
                &stroke,
                format == "datauri",
            )?));
        }
        "png" => FirearmAsset::png(View::Side, SILHOUETTE_PX, &stroke),
        _ => FirearmAsset::svg(View::Side, &stroke),
    };
    asset_file::send(&headers, &assets::firearm_asset(&snapshot, &id, asset)?)
}

/// A low-detail 3D model: the silhouette's parts extruded across to the firearm's width (its
/// layout's proportion where none is stated), in metres with +Y up, as binary glTF 2.0.
#[utoipa::path(get, path = "/v1/firearms/{id}/model", tag = "Firearms",
    params(("id" = String, Path)),
    responses((status = 200, description = "a glTF 2.0 binary (GLB) file", content_type = "model/gltf-binary", body = Vec<u8>)))]
pub async fn model(
    snapshot: CurrentSnapshot,
    headers: HeaderMap,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    asset_file::send(&headers, &assets::firearm_asset(&snapshot, &id, FirearmAsset::Model)?)
}
