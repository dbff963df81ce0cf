//! Writing a catalog back as data files, in the layout of data/README.md.
//!
//! Importing what this writes changes nothing: the records round-trip field for field.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::model::{Ammunition, Catalog, DataFile, Firearm};

/// Why the data files could not be written. Each is about a file or folder the caller named:
/// nothing here waits on another service, and writing again as it is fails again.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("cannot create {}: {source}", path.display())]
    CreateDir { path: PathBuf, source: std::io::Error },
    #[error("cannot render {name}: {source}")]
    Render { name: String, source: toml::ser::Error },
    #[error("cannot write {}: {source}", path.display())]
    Write { path: PathBuf, source: std::io::Error },
}

/// Write `catalog` under `dir`; answers how many files were written.
pub fn write_dir(catalog: &Catalog, dir: &Path) -> Result<usize, ExportError> {
    let mut files: BTreeMap<String, DataFile> = BTreeMap::new();
    files.insert(
        "categories.toml".into(),
        DataFile { categories: catalog.categories.clone(), ..Default::default() },
    );
    let mut firearms_of: BTreeMap<&str, Vec<_>> = BTreeMap::new();
    for firearm in catalog.firearms.as_typed() {
        firearms_of.entry(firearm.manufacturer_id.as_str()).or_default().push(Firearm::clone(firearm));
    }
    for manufacturer in &catalog.manufacturers {
        let firearms = firearms_of.remove(manufacturer.id.as_str()).unwrap_or_default();
        let file = DataFile { manufacturer: Some(manufacturer.clone()), firearms, ..Default::default() };
        files.insert(format!("manufacturers/{}.toml", manufacturer.id), file);
    }
    files.insert(
        "calibers/calibers.toml".into(),
        DataFile { calibers: catalog.calibers.clone(), ..Default::default() },
    );
    files.insert(
        "ammunition/ammunition.toml".into(),
        DataFile {
            ammunition: catalog.ammunition.as_typed().iter().map(|a| Ammunition::clone(a)).collect(),
            ..Default::default()
        },
    );
    files.insert(
        "interfaces.toml".into(),
        DataFile { interfaces: catalog.interfaces.clone(), ..Default::default() },
    );
    files.insert(
        "attachments.toml".into(),
        DataFile { attachments: catalog.attachments.clone(), ..Default::default() },
    );
    files.insert(
        "platforms.toml".into(),
        DataFile { platforms: catalog.platforms.clone(), ..Default::default() },
    );

    let mut written = 0;
    for (name, file) in files {
        if file == DataFile::default() {
            continue;
        }
        let path = dir.join(&name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|source| ExportError::CreateDir { path: parent.to_owned(), source })?;
        }
        let text = toml::to_string_pretty(&file)
            .map_err(|source| ExportError::Render { name: name.clone(), source })?;
        std::fs::write(&path, text).map_err(|source| ExportError::Write { path: path.clone(), source })?;
        written += 1;
    }
    Ok(written)
}
