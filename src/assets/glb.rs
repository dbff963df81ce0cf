//! A low-detail 3D model: each part of the drawing extruded across to its thickness, written as
//! one binary glTF 2.0 file (GLB: a 12-byte header, a JSON chunk and a BIN chunk, each padded
//! to four bytes).
//!
//! glTF's units are metres with +Y up: x runs from the butt (0) to the muzzle, y up from the
//! lowest point, z across, centred on 0. Faces are flat shaded (every face has its own
//! vertices and normal) and wound counter-clockwise seen from outside, as glTF requires.

use serde_json::json;

use super::parts::Drawing;

const MAGIC: u32 = 0x4654_6C67; // "glTF"
const JSON_CHUNK: u32 = 0x4E4F_534A; // "JSON"
const BIN_CHUNK: u32 = 0x004E_4942; // "BIN\0"
const ARRAY_BUFFER: u32 = 34962;
const ELEMENT_ARRAY_BUFFER: u32 = 34963;
const FLOAT: u32 = 5126;
const UNSIGNED_INT: u32 = 5125;

type Vec3 = [f32; 3];

#[derive(Default)]
struct Mesh {
    positions: Vec<Vec3>,
    normals: Vec<Vec3>,
    indices: Vec<u32>,
}

impl Mesh {
    /// A flat face with `normal` (outward, unit length) from a convex loop of points, wound
    /// counter-clockwise seen from outside whichever way the loop runs.
    fn face(&mut self, points: &[Vec3], normal: Vec3) {
        let first = self.positions.len() as u32;
        self.positions.extend_from_slice(points);
        self.normals.extend(std::iter::repeat_n(normal, points.len()));
        let facing = dot(cross(sub(points[1], points[0]), sub(points[2], points[0])), normal) >= 0.0;
        for i in 1..points.len() as u32 - 1 {
            let (b, c) = if facing { (i, i + 1) } else { (i + 1, i) };
            self.indices.extend([first, first + b, first + c]);
        }
    }
}

fn sub(a: Vec3, b: Vec3) -> Vec3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn cross(a: Vec3, b: Vec3) -> Vec3 {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

fn dot(a: Vec3, b: Vec3) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// The drawing as a prism per part.
fn mesh(drawing: &Drawing) -> Mesh {
    let mut mesh = Mesh::default();
    let metres = |mm: f64| (mm / 1000.0) as f32;
    for part in &drawing.parts {
        let half = metres(part.thickness(drawing.width) / 2.0);
        // Side-view y runs down from the top; glTF's runs up.
        let loop_at = |z: f32| -> Vec<Vec3> {
            part.outline.iter().map(|&(x, y)| [metres(x), metres(drawing.height - y), z]).collect()
        };
        let (near, far) = (loop_at(half), loop_at(-half));
        mesh.face(&near, [0.0, 0.0, 1.0]);
        mesh.face(&far, [0.0, 0.0, -1.0]);
        let n = near.len();
        // Which way the outline runs decides which side of an edge is outside.
        let area: f32 =
            (0..n).map(|i| near[i][0] * near[(i + 1) % n][1] - near[(i + 1) % n][0] * near[i][1]).sum();
        for i in 0..n {
            let (a, b) = (near[i], near[(i + 1) % n]);
            let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
            let length = (dx * dx + dy * dy).sqrt();
            if length < 1e-7 {
                continue;
            }
            let outward =
                if area > 0.0 { [dy / length, -dx / length, 0.0] } else { [-dy / length, dx / length, 0.0] };
            mesh.face(&[a, b, far[(i + 1) % n], far[i]], outward);
        }
    }
    mesh
}

/// The model of `drawing` as a GLB file, its node named `name`.
pub fn glb(drawing: &Drawing, name: &str) -> Vec<u8> {
    let mesh = mesh(drawing);
    let mut bin: Vec<u8> = Vec::new();
    let floats = |values: &[Vec3], bin: &mut Vec<u8>| {
        for v in values.iter().flatten() {
            bin.extend_from_slice(&v.to_le_bytes());
        }
    };
    floats(&mesh.positions, &mut bin);
    let normals_at = bin.len();
    floats(&mesh.normals, &mut bin);
    let indices_at = bin.len();
    for i in &mesh.indices {
        bin.extend_from_slice(&i.to_le_bytes());
    }
    let (min, max) = bounds(&mesh.positions);
    let vertex_bytes = normals_at;
    let document = json!({
        "asset": {"version": "2.0", "generator": "Armory: a firearm's silhouette extruded to its width"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0, "name": name}],
        "meshes": [{"name": name, "primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1}, "indices": 2, "material": 0}]}],
        "materials": [{"name": "finish", "pbrMetallicRoughness": {"baseColorFactor": [0.16, 0.17, 0.19, 1.0], "metallicFactor": 0.4, "roughnessFactor": 0.6}}],
        "buffers": [{"byteLength": bin.len()}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": vertex_bytes, "target": ARRAY_BUFFER},
            {"buffer": 0, "byteOffset": normals_at, "byteLength": indices_at - normals_at, "target": ARRAY_BUFFER},
            {"buffer": 0, "byteOffset": indices_at, "byteLength": bin.len() - indices_at, "target": ELEMENT_ARRAY_BUFFER},
        ],
        "accessors": [
            {"bufferView": 0, "componentType": FLOAT, "count": mesh.positions.len(), "type": "VEC3", "min": min, "max": max},
            {"bufferView": 1, "componentType": FLOAT, "count": mesh.normals.len(), "type": "VEC3"},
            {"bufferView": 2, "componentType": UNSIGNED_INT, "count": mesh.indices.len(), "type": "SCALAR"},
        ],
    });
    let mut json = serde_json::to_vec(&document).expect("a JSON value serialises");
    pad(&mut json, b' ');
    pad(&mut bin, 0);
    let total = 12 + 8 + json.len() + 8 + bin.len();
    let mut out = Vec::with_capacity(total);
    for word in [MAGIC, 2, total as u32, json.len() as u32, JSON_CHUNK] {
        out.extend_from_slice(&word.to_le_bytes());
    }
    out.extend_from_slice(&json);
    for word in [bin.len() as u32, BIN_CHUNK] {
        out.extend_from_slice(&word.to_le_bytes());
    }
    out.extend_from_slice(&bin);
    out
}

/// The least and greatest of each coordinate, as the accessor states them (exactly the stored
/// 32-bit values).
fn bounds(points: &[Vec3]) -> (Vec<f64>, Vec<f64>) {
    let mut min = [f32::MAX; 3];
    let mut max = [f32::MIN; 3];
    for p in points {
        for axis in 0..3 {
            min[axis] = min[axis].min(p[axis]);
            max[axis] = max[axis].max(p[axis]);
        }
    }
    (min.iter().map(|v| f64::from(*v)).collect(), max.iter().map(|v| f64::from(*v)).collect())
}

fn pad(bytes: &mut Vec<u8>, with: u8) {
    while !bytes.len().is_multiple_of(4) {
        bytes.push(with);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assets::parts::Part;

    #[test]
    fn a_box_is_twelve_triangles_facing_out() {
        let part = Part {
            name: "box",
            outline: vec![(0.0, 0.0), (1000.0, 0.0), (1000.0, 200.0), (0.0, 200.0)],
            across: 1.0,
            round: false,
        };
        let drawing = Drawing { length: 1000.0, height: 200.0, width: 50.0, parts: vec![part] };
        let mesh = mesh(&drawing);
        assert_eq!(mesh.indices.len(), 12 * 3);
        // Every triangle's winding agrees with its vertices' normal.
        for t in mesh.indices.chunks(3) {
            let [a, b, c] = [t[0], t[1], t[2]].map(|i| mesh.positions[i as usize]);
            assert!(dot(cross(sub(b, a), sub(c, a)), mesh.normals[t[0] as usize]) > 0.0);
        }
        let (min, max) = bounds(&mesh.positions);
        assert_eq!(min, vec![0.0, 0.0, -0.025f32 as f64]);
        assert_eq!(max, vec![1.0, 0.2f32 as f64, 0.025f32 as f64]);
        let file = glb(&drawing, "box");
        assert_eq!(&file[0..4], b"glTF");
        assert_eq!(u32::from_le_bytes(file[8..12].try_into().unwrap()) as usize, file.len());
        assert_eq!(file.len() % 4, 0);
    }
}
