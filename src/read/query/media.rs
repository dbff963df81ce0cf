//! What media a firearm has (operation 34), one by role (35), and the index of firearms with any
//! (20). Generated media (the silhouette, its thumbnail, the three schematics and the 3D model)
//! exist for every firearm whose overall length the catalog states; stored images are the
//! catalog's own, each with its source and license.

use serde::Serialize;
use utoipa::ToSchema;

use crate::access::paging::Paging;
use crate::assets::figures::Figures;
use crate::assets::parts::Drawing;
use crate::assets::svg::{self, Stroke, View};
use crate::assets::{LICENSE, raster};
use crate::catalog::model::{Firearm, Image};
use crate::catalog::vocabulary::IMAGE_TYPES;
use crate::read::error::QueryError;
use crate::read::query::assets::{self, FirearmAsset, GLB, Located, PNG, SVG, THUMBNAIL_PX};
use crate::read::rendered::{Rendered, paged};
use crate::read::snapshot::Snapshot;

/// The roles a firearm's generated media answer to (operation 35's selector), besides the stored
/// images' types.
pub const GENERATED_ROLES: &[&str] =
    &["primary", "silhouette", "thumbnail", "model", "schematic-side", "schematic-top", "schematic-front"];

/// How many assets a drawable firearm has generated: the silhouette, its thumbnail, three
/// schematics and the model (`primary` names the silhouette again).
const GENERATED_ITEMS: usize = 6;

/// Every selector operation 35 takes: the generated roles, then the stored image types
/// (`catalog::vocabulary::IMAGE_TYPES`) that are not already among them.
pub fn selectors() -> &'static [&'static str] {
    static SELECTORS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    SELECTORS.get_or_init(|| {
        let mut all = GENERATED_ROLES.to_vec();
        all.extend(IMAGE_TYPES.iter().filter(|t| !GENERATED_ROLES.contains(t)));
        all
    })
}

/// Millimetres a generated asset is drawn to.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Millimetres {
    length: Option<f64>,
    height: Option<f64>,
    width: Option<f64>,
}

/// One asset of a firearm.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MediaItem {
    /// silhouette, schematic, model, photo or render (the media kinds).
    kind: &'static str,
    /// What it is for; operation 35 serves it by this name.
    role: String,
    url: String,
    content_type: String,
    width_px: Option<i64>,
    height_px: Option<i64>,
    /// A drawing's size in millimetres, for generated assets.
    dimensions_mm: Option<Millimetres>,
    /// `generated` for what the service draws; the stored image's source otherwise.
    source: Option<String>,
    license: Option<String>,
    /// The stored image's id (operation 25), for stored images.
    image_id: Option<i64>,
}

/// Every asset of one firearm.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FirearmMedia {
    id: String,
    name: String,
    items: Vec<MediaItem>,
    /// Figures the drawings took from their layout's proportions because the catalog does not
    /// state them (heightMm, widthMm, barrelLengthMm).
    drawn_by_convention: Vec<&'static str>,
    /// Figures the firearm would need for generated media, when it has none.
    missing_for_drawings: Vec<&'static str>,
}

/// The assets of firearm `id`, generated ones first (404 for an unknown id).
pub fn of_firearm(snapshot: &Snapshot, id: &str) -> Result<FirearmMedia, QueryError> {
    let (_, firearm) = snapshot.firearm(id)?;
    let mut items = Vec::new();
    let (drawn_by_convention, missing_for_drawings) = match Figures::of(&firearm) {
        Ok(figures) => {
            items.extend(generated_items(&firearm.id, &figures));
            (figures.assumed(), Vec::new())
        }
        Err(missing) => (Vec::new(), missing.0),
    };
    items.extend(firearm.images.iter().map(|image| stored_item(&firearm.id, image)));
    Ok(FirearmMedia {
        id: firearm.id.clone(),
        name: firearm.name.clone(),
        items,
        drawn_by_convention,
        missing_for_drawings,
    })
}

fn generated_items(id: &str, figures: &Figures) -> Vec<MediaItem> {
    let drawing = Drawing::of(figures);
    let item = |kind, role: &str, url: String, content_type: &str, (w, h): (f64, f64)| MediaItem {
        kind,
        role: role.to_owned(),
        url,
        content_type: content_type.to_owned(),
        width_px: None,
        height_px: None,
        dimensions_mm: Some(Millimetres { length: hundredths(w), height: hundredths(h), width: None }),
        source: Some("generated".into()),
        license: Some(LICENSE.into()),
        image_id: None,
    };
    let side = svg::view_size(&drawing, View::Side);
    let mut items =
        vec![item("silhouette", "silhouette", format!("/v1/firearms/{id}/silhouette"), SVG, side)];
    let mut thumbnail =
        item("silhouette", "thumbnail", format!("/v1/firearms/{id}/media/thumbnail"), PNG, side);
    thumbnail.width_px = Some(i64::from(THUMBNAIL_PX));
    thumbnail.height_px = Some(i64::from(raster::height_px(side, THUMBNAIL_PX)));
    items.push(thumbnail);
    for view in View::ALL {
        let role = format!("schematic-{}", view.name());
        let url = format!("/v1/firearms/{id}/media/{role}");
        let mut schematic = item("schematic", &role, url, SVG, svg::view_size(&drawing, view));
        schematic.dimensions_mm = Some(view_dimensions(&drawing, view));
        items.push(schematic);
    }
    let mut model = item("model", "model", format!("/v1/firearms/{id}/model"), GLB, side);
    model.dimensions_mm = Some(Millimetres {
        length: hundredths(drawing.length),
        height: hundredths(drawing.height),
        width: hundredths(drawing.width),
    });
    items.push(model);
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

fn stored_item(id: &str, image: &Image) -> MediaItem {
    let kind = match image.image_type.as_deref() {
        Some("svg") => "silhouette",
        Some("3d_model") => "model",
        Some("render") => "render",
        _ => "photo",
    };
    MediaItem {
        kind,
        role: image.image_type.clone().unwrap_or_else(|| "gallery".into()),
        url: format!("/v1/firearms/{id}/images/{}", image.id),
        content_type: content_type_of(&image.url).to_owned(),
        width_px: image.width_px,
        height_px: image.height_px,
        dimensions_mm: None,
        source: image.source.clone(),
        license: image.license.clone(),
        image_id: Some(image.id),
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

/// The asset of firearm `id` that `selector` names: a stored image of that type first (the first
/// in catalog order), else the generated asset of that role (`primary` falls back to the
/// silhouette, `svg` is the silhouette, `3d_model` the model). 404 when neither exists.
pub fn select<'s>(snapshot: &'s Snapshot, id: &str, selector: &str) -> Result<Selected<'s>, QueryError> {
    let (_, firearm) = snapshot.firearm(id)?;
    if let Some(image) = stored(&firearm, selector) {
        return Ok(Selected::Stored(image.clone()));
    }
    let stroke = Stroke::default();
    let asset = match selector {
        "primary" | "silhouette" | "svg" => FirearmAsset::svg(View::Side, &stroke),
        "thumbnail" => FirearmAsset::png(View::Side, THUMBNAIL_PX, &stroke),
        "model" | "3d_model" => FirearmAsset::Model,
        "schematic-side" => FirearmAsset::svg(View::Side, &stroke),
        "schematic-top" => FirearmAsset::svg(View::Top, &stroke),
        "schematic-front" => FirearmAsset::svg(View::Front, &stroke),
        _ => return Err(QueryError::not_found("media role of this firearm", selector)),
    };
    assets::firearm_asset(snapshot, id, asset).map(Selected::Generated)
}

fn stored<'f>(firearm: &'f Firearm, selector: &str) -> Option<&'f Image> {
    let wanted = if selector == "model" { "3d_model" } else { selector };
    firearm.images.iter().find(|image| image.image_type.as_deref() == Some(wanted))
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
}

/// A page of the firearms with any media, by id.
pub fn index(snapshot: &Snapshot, paging: &Paging) -> Result<Rendered, QueryError> {
    let with_media: Vec<usize> = snapshot
        .read
        .facts
        .iter()
        .enumerate()
        .filter(|(_, facts)| facts.has_media)
        .map(|(at, _)| at)
        .collect();
    let (page, pagination) = paging.slice(&with_media);
    let items: Vec<MediaIndexItem> = page
        .iter()
        .map(|&at| {
            let firearm = snapshot.catalog.firearms.get(at);
            let drawable = crate::assets::figures::drawable(&firearm);
            let mut kinds: Vec<&'static str> =
                if drawable { vec!["silhouette", "schematic", "model"] } else { Vec::new() };
            for image in &firearm.images {
                let kind = stored_item(&firearm.id, image).kind;
                if !kinds.contains(&kind) {
                    kinds.push(kind);
                }
            }
            let count = if drawable { GENERATED_ITEMS } else { 0 } + firearm.images.len();
            MediaIndexItem { id: firearm.id.clone(), name: firearm.name.clone(), kinds, count }
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
        assert!(selectors().contains(&"gallery") && selectors().contains(&"schematic-top"));
    }
}
