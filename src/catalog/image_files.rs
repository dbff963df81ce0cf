//! Image files added to the catalog under `data/`: an image record's `file` names a PNG, JPEG or
//! WebP under the data folder. The import reads each, checks what it is, records its SHA-256 as
//! the image's `fileDigest` (so a changed file changes the firearm's version) and stores the
//! bytes once per digest in `image_files`, in the import's transaction; every node serves them
//! from there as they are.

use std::collections::BTreeMap;
use std::path::{Component, Path};
use std::sync::Arc;

use sha2::{Digest, Sha256};

use super::model::Catalog;

/// The largest image file taken.
pub const MAX_BYTES: usize = 8 << 20;

/// One stored file.
#[derive(Debug, Clone, PartialEq)]
pub struct ImageFile {
    pub digest: String,
    pub content_type: &'static str,
    pub bytes: Vec<u8>,
}

/// What `bytes` are by their first bytes: PNG, JPEG or WebP, else None.
pub fn content_type(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("image/jpeg")
    } else if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        Some("image/webp")
    } else {
        None
    }
}

/// Reads every image file `catalog` names under `dir`, records each image's digest, and gives
/// the distinct files; a file that is missing, outside the folder, too large or not an image is
/// refused, naming the firearm, the image and the file.
pub fn read_into(dir: &Path, catalog: &mut Catalog) -> Result<Vec<ImageFile>, String> {
    let mut files: BTreeMap<String, ImageFile> = BTreeMap::new();
    for firearm in catalog.firearms.typed_mut() {
        if firearm.images.iter().all(|image| image.file.is_none()) {
            continue;
        }
        let firearm = Arc::make_mut(firearm);
        for image in &mut firearm.images {
            let Some(name) = &image.file else {
                image.file_digest = None;
                continue;
            };
            let refused =
                |why: &str| format!("firearm {} image {}: file {name}: {why}", firearm.id, image.id);
            let relative = Path::new(name);
            if relative.components().any(|c| !matches!(c, Component::Normal(_))) {
                return Err(refused("must be a path inside the data folder"));
            }
            let bytes = std::fs::read(dir.join(relative)).map_err(|e| refused(&e.to_string()))?;
            if bytes.len() > MAX_BYTES {
                return Err(refused(&format!("is larger than {MAX_BYTES} bytes")));
            }
            let content_type =
                content_type(&bytes).ok_or_else(|| refused("is not a PNG, JPEG or WebP image"))?;
            let digest = hex::encode(Sha256::digest(&bytes));
            image.file_digest = Some(digest.clone());
            files.entry(digest.clone()).or_insert(ImageFile { digest, content_type, bytes });
        }
    }
    Ok(files.into_values().collect())
}

/// Stores `files` not stored yet, on the import's transaction.
pub async fn store(conn: &mut sqlx::AnyConnection, files: &[ImageFile]) -> sqlx::Result<()> {
    for file in files {
        sqlx::query(
            "INSERT INTO image_files (digest, content_type, bytes) VALUES ($1, $2, $3) ON CONFLICT (digest) DO NOTHING",
        )
        .bind(&file.digest)
        .bind(file.content_type)
        .bind(file.bytes.clone())
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// Whether any stored image names a file.
pub async fn any_named(db: &crate::db::Db) -> sqlx::Result<bool> {
    let found: Option<(i64,)> = sqlx::query_as("SELECT id FROM images WHERE file IS NOT NULL LIMIT 1")
        .fetch_optional(db.pool())
        .await?;
    Ok(found.is_some())
}

/// The stored file `digest`: its content type and bytes.
pub async fn read(db: &crate::db::Db, digest: &str) -> sqlx::Result<Option<(String, Vec<u8>)>> {
    sqlx::query_as("SELECT content_type, bytes FROM image_files WHERE digest = $1")
        .bind(digest)
        .fetch_optional(db.pool())
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_are_told_by_their_first_bytes() {
        assert_eq!(content_type(b"\x89PNG\r\n\x1a\nrest"), Some("image/png"));
        assert_eq!(content_type(&[0xFF, 0xD8, 0xFF, 0xE0]), Some("image/jpeg"));
        assert_eq!(content_type(b"RIFF\0\0\0\0WEBPVP8 "), Some("image/webp"));
        assert_eq!(content_type(b"<svg"), None);
        assert_eq!(content_type(b"GIF89a"), None);
    }
}
