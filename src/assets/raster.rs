//! SVG to PNG through resvg (usvg parses, tiny-skia paints), on a transparent background.

use resvg::{tiny_skia, usvg};

/// The widest raster drawn, so a request cannot ask for an image of any size.
pub const MAX_WIDTH_PX: u32 = 4096;

/// `svg` painted `width_px` wide (its height in proportion), as PNG bytes, with the size drawn.
pub fn png(svg: &str, width_px: u32) -> Result<(Vec<u8>, u32, u32), String> {
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default()).map_err(|e| e.to_string())?;
    let size = tree.size();
    let width_px = width_px.clamp(1, MAX_WIDTH_PX);
    let scale = width_px as f32 / size.width();
    let height_px = ((size.height() * scale).round() as u32).max(1);
    let mut pixmap = tiny_skia::Pixmap::new(width_px, height_px).ok_or("an empty raster")?;
    resvg::render(&tree, tiny_skia::Transform::from_scale(scale, scale), &mut pixmap.as_mut());
    let bytes = pixmap.encode_png().map_err(|e| e.to_string())?;
    Ok((bytes, width_px, height_px))
}
