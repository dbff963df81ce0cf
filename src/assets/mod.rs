//! Generated assets: what can be drawn honestly from a record's own figures. A firearm's side,
//! top and front views (SVG, millimetres in the viewBox), a raster of them (PNG), a low-detail
//! 3D model (GLB), and a cartridge's profile. Plain functions from catalog records to bytes;
//! `read::assets` keeps what they make and the HTTP layer serves it.

pub mod bullet;
pub mod figures;
pub mod glb;
pub mod parts;
pub mod raster;
pub mod svg;

/// Changes whenever a drawing changes for the same figures, so every ETag of a generated asset
/// changes with it.
pub const DRAWING_REVISION: u32 = 1;

/// The license generated assets carry: the project's own (Cargo.toml).
pub const LICENSE: &str = "MIT";
