//! Writing a catalog back as data files, in the layout of data/README.md.
//!
//! Importing what this writes changes nothing: the records round-trip field for field.

use std::collections::BTreeMap;
use std::path::Path;

use super::model::{Ammunition, Catalog, DataFile, Firearm};

pub fn write_dir(catalog: &Catalog, dir: &Path) -> Result<usize, String> {
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
                .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        let text = toml::to_string_pretty(&file).map_err(|e| format!("cannot render {name}: {e}"))?;
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        written += 1;
    }
    Ok(written)
}
