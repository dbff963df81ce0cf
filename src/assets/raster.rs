//! SVG to PNG through resvg (usvg parses, tiny-skia paints), on a transparent background.

use resvg::{tiny_skia, usvg};

/// The widest raster drawn, so no request can ask for an image of any size.
pub const MAX_WIDTH_PX: u32 = 4096;

/// The height in pixels of a drawing `size` millimetres drawn `width_px` wide: its proportion,
/// rounded, at least one pixel. What a listing states and what `png` draws.
pub fn height_px((width_mm, height_mm): (f64, f64), width_px: u32) -> u32 {
    ((height_mm / width_mm * f64::from(width_px)).round() as u32).clamp(1, MAX_WIDTH_PX)
}

/// `svg` painted `width_px` by `height_px` (`height_px` keeps its proportion), as PNG bytes.
pub fn png(svg: &str, width_px: u32, height_px: u32) -> Result<Vec<u8>, String> {
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default()).map_err(|e| e.to_string())?;
    let size = tree.size();
    let width_px = width_px.clamp(1, MAX_WIDTH_PX);
    let (sx, sy) = (width_px as f32 / size.width(), height_px as f32 / size.height());
    let mut pixmap = tiny_skia::Pixmap::new(width_px, height_px).ok_or("an empty raster")?;
    resvg::render(&tree, tiny_skia::Transform::from_scale(sx, sy), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| e.to_string())
}
