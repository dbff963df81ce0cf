//! What media a firearm has (operation 34), one by role (35), and the index of firearms with any
//! (20). Generated media (the silhouette, its thumbnail, the three schematics and the 3D model)
//! exist for every firearm whose overall length the catalog states; stored images are the
//! catalog's own, each with its source and license.

use std::collections::BTreeMap;

use serde::Serialize;
use utoipa::ToSchema;

use crate::access::paging::Paging;
use crate::assets::figures::{Figures, drawable};
use crate::assets::parts::Drawing;
use crate::assets::svg::{self, Stroke, View};
use crate::assets::{LICENSE, raster};
use crate::catalog::model::{Firearm, Image};
use crate::read::error::QueryError;
use crate::read::query::assets::{self, FirearmAsset, GLB, Located, PNG, SILHOUETTE_PX, SVG, THUMBNAIL_PX};
use crate::read::rendered::{Rendered, paged};
use crate::read::snapshot::Snapshot;

/// The roles a firearm's generated media answer to (operation 35's selector), besides the stored
/// images' ids, types and kinds.
pub const GENERATED_ROLES: &[&str] =
    &["primary", "silhouette", "thumbnail", "model", "schematic-side", "schematic-top", "schematic-front"];

/// How many assets a drawable firearm has generated: the silhouette, its thumbnail, three
/// schematics and the model (`primary` names the silhouette again).
const GENERATED_ITEMS: usize = 6;

/// Millimetres a generated asset is drawn to.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Millimetres {
    length: Option<f64>,
    height: Option<f64>,
    width: Option<f64>,
}

/// Where an asset comes from and under what terms.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Credit {
    /// `generated` for what the service draws; the stored image's source otherwise.
    source: Option<String>,
    author: Option<String>,
    source_url: Option<String>,
    license: Option<String>,
}

/// One asset of a firearm, in the fields the published client reads.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MediaItem {
    /// The stored image's id (operation 25); null for a generated asset.
    id: Option<i64>,
    /// silhouette, schematic, model, photo or render (the media kinds).
    kind: &'static str,
    /// What it is for; operation 35 serves it by this name.
    role: String,
    mime_type: String,
    /// Pixels, for a raster.
    width: Option<i64>,
    height: Option<i64>,
    alt: Option<String>,
    url: String,
    /// The same asset in other sizes (display: a 1,200-pixel PNG, thumb: 320 pixels).
    sizes: Option<BTreeMap<&'static str, String>>,
    /// A drawing's size in millimetres.
    dimensions_mm: Option<Millimetres>,
    /// Figures the drawing took from its layout's proportions because the catalog does not state
    /// them (heightMm, widthMm, barrelLengthMm).
    drawn_by_convention: Vec<&'static str>,
    credit: Credit,
}

/// The assets of firearm `id`, generated ones first (404 for an unknown id), of one media kind
/// when `kind` is given. A firearm without an overall length has no generated ones.
pub fn of_firearm(snapshot: &Snapshot, id: &str, kind: Option<&str>) -> Result<Vec<MediaItem>, QueryError> {
    let (_, firearm) = snapshot.firearm(id)?;
    let mut items = match Figures::of(&firearm) {
        Ok(figures) => generated_items(&firearm.id, &figures),
        Err(_) => Vec::new(),
    };
    items.extend(firearm.images.iter().map(|image| stored_item(&firearm.id, image)));
    items.retain(|item| kind.is_none_or(|kind| item.kind == kind));
    Ok(items)
}

fn generated_items(id: &str, figures: &Figures) -> Vec<MediaItem> {
    let drawing = Drawing::of(figures);
    let assumed = figures.assumed();
    let item = |kind, role: &str, url: String, mime_type: &str, dimensions_mm: Millimetres| MediaItem {
        id: None,
        kind,
        role: role.to_owned(),
        mime_type: mime_type.to_owned(),
        width: None,
        height: None,
        alt: Some(format!(
            "The {}'s {} drawn to scale from its specifications",
            figures.name,
            role.replace('-', " ")
        )),
        url,
        sizes: None,
        dimensions_mm: Some(dimensions_mm),
        drawn_by_convention: assumed.clone(),
        credit: Credit {
            source: Some("generated".into()),
            author: Some("Armory".into()),
            source_url: None,
            license: Some(LICENSE.into()),
        },
    };
    let side = svg::view_size(&drawing, View::Side);
    let mut silhouette = item(
        "silhouette",
        "silhouette",
        format!("/v1/firearms/{id}/silhouette"),
        SVG,
        view_dimensions(&drawing, View::Side),
    );
    silhouette.sizes = Some(BTreeMap::from([
        ("display", format!("/v1/firearms/{id}/media/silhouette?size=display")),
        ("thumb", format!("/v1/firearms/{id}/media/silhouette?size=thumb")),
    ]));
    let mut thumbnail = item(
        "silhouette",
        "thumbnail",
        format!("/v1/firearms/{id}/media/thumbnail"),
        PNG,
        view_dimensions(&drawing, View::Side),
    );
    thumbnail.width = Some(i64::from(THUMBNAIL_PX));
    thumbnail.height = Some(i64::from(raster::height_px(side, THUMBNAIL_PX)));
    let mut items = vec![silhouette, thumbnail];
    for view in View::ALL {
        let role = format!("schematic-{}", view.name());
        let url = format!("/v1/firearms/{id}/media/{role}");
        items.push(item("schematic", &role, url, SVG, view_dimensions(&drawing, view)));
    }
    let whole = Millimetres {
        length: hundredths(drawing.length),
        height: hundredths(drawing.height),
        width: hundredths(drawing.width),
    };
    items.push(item("model", "model", format!("/v1/firearms/{id}/model"), GLB, whole));
    items
}

/// A view's size named by the firearm's dimensions it shows.
fn view_dimensions(drawing: &Drawing, view: View) -> Millimetres {
    let (length, height, width) =
        (hundredths(drawing.length), hundredths(drawing.height), hundredths(drawing.width));
    match view {
        View::Side => Millimetres { length, height, width: None },
        View::Top => Millimetres { length, height: None, width },
        View::Front => Millimetres { length: None, height, width },
    }
}

/// Millimetres to the hundredth, as the drawings write them.
fn hundredths(mm: f64) -> Option<f64> {
    Some((mm * 100.0).round() / 100.0)
}

/// A stored image's media kind.
fn stored_kind(image: &Image) -> &'static str {
    match image.image_type.as_deref() {
        Some("svg") => "silhouette",
        Some("3d_model") => "model",
        Some("render") => "render",
        _ => "photo",
    }
}

fn stored_item(id: &str, image: &Image) -> MediaItem {
    MediaItem {
        id: Some(image.id),
        kind: stored_kind(image),
        role: image.image_type.clone().unwrap_or_else(|| "gallery".into()),
        mime_type: content_type_of(image.file.as_deref().unwrap_or(&image.url)).to_owned(),
        width: image.width_px,
        height: image.height_px,
        alt: image.alt_text.clone(),
        url: format!("/v1/firearms/{id}/images/{}", image.id),
        sizes: None,
        dimensions_mm: None,
        drawn_by_convention: Vec::new(),
        credit: Credit {
            source: image.source.clone(),
            author: None,
            source_url: Some(image.url.clone()),
            license: image.license.clone(),
        },
    }
}

/// A stored image's content type from its file name.
pub fn content_type_of(name: &str) -> &'static str {
    let lower = name.to_ascii_lowercase();
    let extension = lower.rsplit('.').next().unwrap_or("");
    match extension {
        "png" => PNG,
        "jpg" | "jpeg" => "image/jpeg",
        "webp" => "image/webp",
        "svg" => SVG,
        "glb" => GLB,
        _ => "application/octet-stream",
    }
}

/// What a role names: a stored image, or a generated asset.
pub enum Selected<'s> {
    Stored(Image),
    Generated(Located<'s>),
}

/// The size a drawing is served in (operation 35's `size`): the SVG itself, or a raster 1,200
/// or 320 pixels wide. A stored image and a model have one size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Size {
    Full,
    Display,
    Thumb,
}

pub const SIZES: &[&str] = &["full", "display", "thumb"];

impl Size {
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "full" => Some(Size::Full),
            "display" => Some(Size::Display),
            "thumb" => Some(Size::Thumb),
            _ => None,
        }
    }
}

/// The asset of firearm `id` that `selector` names, with its listing: a stored image by id, or
/// by its type or media kind (the first in catalog order); else the generated asset of that role
/// or kind (`primary` falls back to the silhouette, `schematic` is the side view). 404 when
/// neither exists.
pub fn select<'s>(
    snapshot: &'s Snapshot,
    id: &str,
    selector: &str,
    size: Size,
    stroke: &Stroke,
) -> Result<(MediaItem, Selected<'s>), QueryError> {
    let (_, firearm) = snapshot.firearm(id)?;
    let no_such = || QueryError::not_found("media of this firearm", selector);
    if let Some(image) = stored(&firearm, selector) {
        return Ok((stored_item(id, image), Selected::Stored(image.clone())));
    }
    if selector.parse::<i64>().is_ok() {
        return Err(no_such());
    }
    let (role, view) = match selector {
        "primary" | "silhouette" | "svg" | "schematic" | "schematic-side" => (selector, Some(View::Side)),
        "schematic-top" => (selector, Some(View::Top)),
        "schematic-front" => (selector, Some(View::Front)),
        "thumbnail" => ("thumbnail", None),
        "model" | "3d_model" => ("model", None),
        _ => return Err(no_such()),
    };
    let asset = match (role, view, size) {
        ("thumbnail", _, _) | (_, Some(View::Side), Size::Thumb) => {
            FirearmAsset::png(View::Side, THUMBNAIL_PX, stroke)
        }
        ("model", _, _) => FirearmAsset::Model,
        (_, Some(view), Size::Full) => FirearmAsset::svg(view, stroke),
        (_, Some(view), Size::Display) => FirearmAsset::png(view, SILHOUETTE_PX, stroke),
        (_, Some(view), Size::Thumb) => FirearmAsset::png(view, THUMBNAIL_PX, stroke),
        _ => return Err(no_such()),
    };
    let located = assets::firearm_asset(snapshot, id, asset)?;
    let listed = match role {
        "primary" | "svg" | "silhouette" => "silhouette",
        "schematic" => "schematic-side",
        other => other,
    };
    let item = of_firearm(snapshot, id, None)?
        .into_iter()
        .find(|item| item.id.is_none() && item.role == listed)
        .ok_or_else(no_such)?;
    Ok((item, Selected::Generated(located)))
}

fn stored<'f>(firearm: &'f Firearm, selector: &str) -> Option<&'f Image> {
    let by_id = selector.parse::<i64>().ok();
    let wanted = if selector == "model" { "3d_model" } else { selector };
    firearm.images.iter().find(|image| {
        Some(image.id) == by_id
            || image.image_type.as_deref() == Some(wanted)
            || stored_kind(image) == selector
    })
}

/// The stored image `image_id` of firearm `id` (404 for either unknown).
pub fn stored_image(snapshot: &Snapshot, id: &str, image_id: i64) -> Result<Image, QueryError> {
    let (_, firearm) = snapshot.firearm(id)?;
    firearm
        .images
        .iter()
        .find(|image| image.id == image_id)
        .cloned()
        .ok_or_else(|| QueryError::not_found("image of this firearm", &image_id.to_string()))
}

/// A stored image as it rides inline on a media index row.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InlineImage {
    id: i64,
    url: String,
    kind: &'static str,
    alt: Option<String>,
    width: Option<i64>,
    height: Option<i64>,
}

/// One firearm of the media index.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MediaIndexItem {
    id: String,
    name: String,
    /// The media kinds it has: silhouette, schematic, model, photo, render.
    kinds: Vec<&'static str>,
    /// How many assets operation 34 lists for it.
    count: usize,
    /// Its stored images.
    images: Vec<InlineImage>,
}

/// The media kinds firearm `firearm` has.
fn kinds_of(firearm: &Firearm) -> Vec<&'static str> {
    let mut kinds: Vec<&'static str> =
        if drawable(firearm) { vec!["silhouette", "schematic", "model"] } else { Vec::new() };
    for image in &firearm.images {
        let kind = stored_kind(image);
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    kinds
}

/// A page of the firearms with any media (of media kind `kind`, when given), by id.
pub fn index(snapshot: &Snapshot, kind: Option<&str>, paging: &Paging) -> Result<Rendered, QueryError> {
    let with_media: Vec<usize> = snapshot
        .read
        .facts
        .iter()
        .enumerate()
        .filter(|(_, facts)| facts.has_media)
        .map(|(at, _)| at)
        .filter(|&at| match kind {
            None => true,
            // Every firearm with media can be drawn or has a stored image; only the second needs
            // its record decoded.
            Some("silhouette" | "schematic" | "model") if snapshot.read.facts[at].has_3d_model => true,
            Some(kind) => kinds_of(&snapshot.catalog.firearms.get(at)).contains(&kind),
        })
        .collect();
    let (page, pagination) = paging.slice(&with_media);
    let items: Vec<MediaIndexItem> = page
        .iter()
        .map(|&at| {
            let firearm = snapshot.catalog.firearms.get(at);
            let images = firearm
                .images
                .iter()
                .map(|image| InlineImage {
                    id: image.id,
                    url: format!("/v1/firearms/{}/images/{}", firearm.id, image.id),
                    kind: stored_kind(image),
                    alt: image.alt_text.clone(),
                    width: image.width_px,
                    height: image.height_px,
                })
                .collect();
            let count = if drawable(&firearm) { GENERATED_ITEMS } else { 0 } + firearm.images.len();
            MediaIndexItem {
                id: firearm.id.clone(),
                name: firearm.name.clone(),
                kinds: kinds_of(&firearm),
                count,
                images,
            }
        })
        .collect();
    paged(items, pagination).map_err(|e| QueryError::Failed(format!("serialising the media index: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assets::figures::Figure;

    #[test]
    fn a_drawable_firearm_lists_every_generated_role() {
        let stated = |mm| Figure { mm, stated: true };
        let figures = Figures {
            name: "Test".into(),
            layout: crate::assets::figures::Layout::Pistol,
            feed: crate::assets::figures::Feed::Hidden,
            length: stated(202.0),
            height: stated(138.0),
            width: stated(32.0),
            barrel: stated(114.0),
            folded_mm: None,
            pistol_grip: true,
            bipod: false,
            carry_handle: false,
            pump: false,
        };
        let items = generated_items("test", &figures);
        assert_eq!(items.len(), GENERATED_ITEMS);
        for item in &items {
            assert!(GENERATED_ROLES.contains(&item.role.as_str()), "{}", item.role);
        }
    }
}
