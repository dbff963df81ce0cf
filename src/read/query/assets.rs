//! Generated asset files: a firearm's drawings (side silhouette, top and front views) as SVG or
//! PNG, its 3D model, and a load's cartridge profile (operations 33, 35, 36 and 58, and the
//! schematics).
//!
//! A query first locates the asset: the record, the figures it is drawn from (404 naming the
//! missing ones) and its strong ETag, made from the record's content version, the asset and its
//! parameters and `assets::DRAWING_REVISION`, so a caller holding the current version can be
//! answered 304 before anything is drawn. `Located::body` then draws it, or finds it kept
//! (`read::kept_assets`).

use std::sync::Arc;

use bytes::Bytes;

use crate::assets::figures::{Figures, Missing};
use crate::assets::parts::Drawing;
use crate::assets::svg::{self, Stroke, View};
use crate::assets::{DRAWING_REVISION, bullet, glb, raster};
use crate::catalog::model::Firearm;
use crate::read::error::QueryError;
use crate::read::rendered::{Etag, etag_of};
use crate::read::snapshot::Snapshot;

pub const SVG: &str = "image/svg+xml";
pub const PNG: &str = "image/png";
pub const GLB: &str = "model/gltf-binary";

/// How wide a silhouette asked for as PNG is drawn.
pub const SILHOUETTE_PX: u32 = 1200;
/// How wide a thumbnail is drawn.
pub const THUMBNAIL_PX: u32 = 320;

/// A stroke as a key: its width in hundredths of a millimetre and its colour.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct StrokeKey {
    width_centi: u32,
    colour: String,
}

impl From<&Stroke> for StrokeKey {
    fn from(stroke: &Stroke) -> Self {
        Self { width_centi: (stroke.width * 100.0).round() as u32, colour: stroke.colour.as_str().to_owned() }
    }
}

/// One generated file of a firearm.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum FirearmAsset {
    Svg(View, StrokeKey),
    Png(View, u32, StrokeKey),
    Model,
}

impl FirearmAsset {
    pub fn svg(view: View, stroke: &Stroke) -> Self {
        Self::Svg(view, stroke.into())
    }

    pub fn png(view: View, width_px: u32, stroke: &Stroke) -> Self {
        Self::Png(view, width_px, stroke.into())
    }

    pub fn content_type(&self) -> &'static str {
        match self {
            Self::Svg(..) => SVG,
            Self::Png(..) => PNG,
            Self::Model => GLB,
        }
    }

    fn what(&self) -> &'static str {
        match self {
            Self::Svg(View::Side, _) | Self::Png(View::Side, ..) => "silhouette",
            Self::Svg(..) | Self::Png(..) => "schematic",
            Self::Model => "3D model",
        }
    }
}

/// What the kept assets are keyed by: the record and the asset.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AssetKey {
    Firearm(Arc<str>, FirearmAsset),
    Bullet(Arc<str>),
}

/// An asset found, with its ETag; not yet drawn.
pub struct Located<'s> {
    snapshot: &'s Snapshot,
    source: Source,
    key: AssetKey,
    pub etag: Etag,
    pub content_type: &'static str,
}

enum Source {
    Firearm(Box<Figures>),
    Bullet { title: String, caliber_at: usize, bullet_type: Option<String> },
}

/// The generated `asset` of firearm `id`: 404 for an unknown firearm, and 404 naming the missing
/// figures for one that cannot be drawn.
pub fn firearm_asset<'s>(
    snapshot: &'s Snapshot,
    id: &str,
    asset: FirearmAsset,
) -> Result<Located<'s>, QueryError> {
    let (_, firearm) = snapshot.firearm(id)?;
    let figures = figures_of(&firearm, asset.what())?;
    let version = snapshot.meta("firearms", id).version;
    let etag = etag_of(format!("firearm|{id}|{version}|{asset:?}|{DRAWING_REVISION}").as_bytes());
    let content_type = asset.content_type();
    let key = AssetKey::Firearm(Arc::from(id), asset);
    Ok(Located { snapshot, source: Source::Firearm(Box::new(figures)), key, etag, content_type })
}

/// The drawing figures of `firearm`, or the 404 naming what `asset` needs and it lacks.
pub fn figures_of(firearm: &Firearm, asset: &'static str) -> Result<Figures, QueryError> {
    Figures::of(firearm).map_err(|Missing(missing)| QueryError::NotDrawable {
        kind: "firearm",
        id: firearm.id.clone(),
        asset,
        missing,
    })
}

/// The cartridge profile of ammunition load `id` (its cartridge's dimensions, its bullet type).
pub fn bullet_svg<'s>(snapshot: &'s Snapshot, id: &str) -> Result<Located<'s>, QueryError> {
    let load = snapshot.catalog.ammunition.get(snapshot.ammunition_position(id)?);
    let (caliber_at, caliber) = snapshot.caliber(&load.caliber_id)?;
    if let Err(Missing(missing)) = bullet::svg("", caliber, None) {
        return Err(QueryError::NotDrawable {
            kind: "ammunition load",
            id: id.to_owned(),
            asset: "bullet drawing",
            missing,
        });
    }
    let (load_version, caliber_version) =
        (snapshot.meta("ammunition", id).version, snapshot.meta("calibers", &caliber.id).version);
    let etag = etag_of(format!("bullet|{id}|{load_version}|{caliber_version}|{DRAWING_REVISION}").as_bytes());
    let source =
        Source::Bullet { title: load.name.clone(), caliber_at, bullet_type: load.bullet_type.clone() };
    Ok(Located { snapshot, source, key: AssetKey::Bullet(Arc::from(id)), etag, content_type: SVG })
}

impl Located<'_> {
    /// The file: kept, or drawn now and kept.
    pub fn body(&self) -> Result<Bytes, QueryError> {
        self.snapshot.kept_assets().get_or_draw(self.key.clone(), || self.draw())
    }

    fn draw(&self) -> Result<Bytes, QueryError> {
        match (&self.source, &self.key) {
            (Source::Firearm(figures), AssetKey::Firearm(_, asset)) => draw_firearm(figures, asset),
            (Source::Bullet { title, caliber_at, bullet_type }, _) => {
                let caliber = &self.snapshot.catalog.calibers[*caliber_at];
                bullet::svg(title, caliber, bullet_type.as_deref())
                    .map(Bytes::from)
                    .map_err(|Missing(m)| QueryError::Failed(format!("a located bullet lacks {m:?}")))
            }
            (Source::Firearm(_), AssetKey::Bullet(_)) => {
                Err(QueryError::Failed("a firearm keyed as a bullet".into()))
            }
        }
    }
}

fn draw_firearm(figures: &Figures, asset: &FirearmAsset) -> Result<Bytes, QueryError> {
    let drawing = Drawing::of(figures);
    let stroke_of = |key: &StrokeKey| Stroke {
        width: key.width_centi as f64 / 100.0,
        colour: svg::Colour::parse(&key.colour).unwrap_or_else(|| Stroke::default().colour),
    };
    Ok(match asset {
        FirearmAsset::Svg(view, stroke) => {
            Bytes::from(svg::firearm(figures, &drawing, *view, &stroke_of(stroke)))
        }
        FirearmAsset::Png(view, width_px, stroke) => {
            let document = svg::firearm(figures, &drawing, *view, &stroke_of(stroke));
            let (w, h) = svg::view_size(&drawing, *view);
            let png = raster::png(&document, *width_px, raster::height_px((w, h), *width_px))
                .map_err(|e| QueryError::Failed(format!("drawing a raster: {e}")))?;
            Bytes::from(png)
        }
        FirearmAsset::Model => Bytes::from(glb::glb(&drawing, &figures.name)),
    })
}

/// A silhouette as JSON (`format=json` or `datauri`): the SVG document as text or as a data URI,
/// with what it was drawn from.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SilhouetteDocument {
    id: String,
    name: String,
    format: &'static str,
    mime_type: &'static str,
    length_mm: f64,
    height_mm: f64,
    /// Figures taken from the layout's proportions because the catalog does not state them.
    drawn_by_convention: Vec<&'static str>,
    /// The SVG document (`format=json`).
    svg: Option<String>,
    /// `data:image/svg+xml;base64,...` (`format=datauri`).
    data_uri: Option<String>,
}

/// The silhouette of firearm `id` drawn with `stroke`, as text or as a data URI.
pub fn silhouette_document(
    snapshot: &Snapshot,
    id: &str,
    stroke: &Stroke,
    as_data_uri: bool,
) -> Result<SilhouetteDocument, QueryError> {
    use base64::Engine as _;
    let located = firearm_asset(snapshot, id, FirearmAsset::svg(View::Side, stroke))?;
    let body = located.body()?;
    let Source::Firearm(figures) = &located.source else {
        return Err(QueryError::Failed("a silhouette located as a bullet".into()));
    };
    let svg = String::from_utf8_lossy(&body).into_owned();
    let data_uri = as_data_uri.then(|| {
        format!("data:{SVG};base64,{}", base64::engine::general_purpose::STANDARD.encode(svg.as_bytes()))
    });
    Ok(SilhouetteDocument {
        id: id.to_owned(),
        name: figures.name.clone(),
        format: if as_data_uri { "datauri" } else { "json" },
        mime_type: SVG,
        length_mm: figures.length.mm,
        height_mm: (figures.height.mm * 100.0).round() / 100.0,
        drawn_by_convention: figures.assumed(),
        svg: (!as_data_uri).then_some(svg),
        data_uri,
    })
}
