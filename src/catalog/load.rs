//! Reading the catalog files and refusing anything that is not a valid catalog.
//!
//! `load_dir` reads every `.toml` file under a folder (sorted, recursively), merges them, and checks
//! the whole: unknown keys, vocabulary values, id format, duplicate ids and dangling references.
//! Every problem is reported with its file, record and field; a catalog with any problem is refused
//! as a whole, before anything is written.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::model::{Catalog, DataFile, Source};
use super::table::Table;
use super::vocabulary as vocab;

/// One problem in the data, located precisely enough to fix it.
#[derive(Debug, Clone, PartialEq)]
pub struct DataError {
    pub file: String,
    pub record: String,
    pub field: String,
    pub message: String,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} {}: {}", self.file, self.record, self.field, self.message)
    }
}

#[derive(Debug)]
pub struct LoadErrors(pub Vec<DataError>);

impl fmt::Display for LoadErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "the catalog was refused ({} problem(s)); nothing was written:", self.0.len())?;
        for error in &self.0 {
            writeln!(f, "  {error}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LoadErrors {}

/// The host list beside the records (`data/hosts.toml`): read by the checker, not a data file.
pub const HOST_LIST_FILE: &str = "hosts.toml";

pub fn is_valid_id(id: &str) -> bool {
    !id.is_empty() && id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// Each kind of record, in the order a data file's records are listed (`record_keys`).
pub const KINDS: [Table; 8] = [
    Table::Categories,
    Table::Manufacturers,
    Table::Calibers,
    Table::Firearms,
    Table::Ammunition,
    Table::Interfaces,
    Table::Attachments,
    Table::Platforms,
];

/// What a data file holds, as the import remembers it (`source_files`): its path relative to the
/// folder, a digest of its bytes, and its records as (kind, id).
#[derive(Debug, Clone, PartialEq)]
pub struct FileRecords {
    pub path: String,
    pub digest: String,
    pub records: Vec<(&'static str, String)>,
}

/// The records of one data file as (kind, id), in the order of `KINDS`.
pub fn record_keys(data: &DataFile) -> Vec<(&'static str, String)> {
    let mut keys = Vec::new();
    let mut add = |kind: &'static str, ids: &mut dyn Iterator<Item = &String>| {
        keys.extend(ids.map(|id| (kind, id.clone())));
    };
    add("category", &mut data.categories.iter().map(|r| &r.id));
    add("manufacturer", &mut data.manufacturer.iter().chain(&data.manufacturers).map(|r| &r.id));
    add("caliber", &mut data.calibers.iter().map(|r| &r.id));
    add("firearm", &mut data.firearms.iter().map(|r| &r.id));
    add("ammunition", &mut data.ammunition.iter().map(|r| &r.id));
    add("interface", &mut data.interfaces.iter().map(|r| &r.id));
    add("attachment", &mut data.attachments.iter().map(|r| &r.id));
    add("platform", &mut data.platforms.iter().map(|r| &r.id));
    keys
}

/// A digest of a data file's bytes: the import parses again only a file whose digest moved.
pub fn digest(bytes: &[u8]) -> String {
    format!("{:032x}", xxhash_rust::xxh3::xxh3_128(bytes))
}

/// Read, merge and validate every data file under `dir` (all `.toml` files but the host list at
/// its top, `HOST_LIST_FILE`).
pub fn load_dir(dir: &Path) -> Result<Catalog, LoadErrors> {
    load_dir_with_files(dir).map(|(catalog, _)| catalog)
}

/// Every data file under `dir`, sorted, as paths relative to it (the host list left out).
pub fn data_files(dir: &Path) -> Result<Vec<PathBuf>, LoadErrors> {
    let mut files = Vec::new();
    collect_toml_files(dir, &mut files).map_err(|e| {
        LoadErrors(vec![DataError {
            file: dir.display().to_string(),
            record: "-".into(),
            field: "-".into(),
            message: format!("cannot read the folder: {e}"),
        }])
    })?;
    files.retain(|path| *path != dir.join(HOST_LIST_FILE));
    files.sort();
    Ok(files)
}

/// `load_dir`, with what each file holds.
pub fn load_dir_with_files(dir: &Path) -> Result<(Catalog, Vec<FileRecords>), LoadErrors> {
    let files = data_files(dir)?;
    // Parsing is most of a large catalog's load and each file parses alone: the files are split
    // into one contiguous run per core, parsed side by side, and joined back in path order, so the
    // result and the order of errors do not depend on the number of threads.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, 8);
    let per_thread = files.len().div_ceil(threads).max(1);
    let parts: Vec<ParsedRun> = std::thread::scope(|scope| {
        let workers: Vec<_> =
            files.chunks(per_thread).map(|run| scope.spawn(|| parse_files(dir, run))).collect();
        workers.into_iter().map(|worker| worker.join().expect("parsing never panics")).collect()
    });
    let mut parsed = Vec::with_capacity(files.len());
    let mut digests = Vec::with_capacity(files.len());
    let mut errors = Vec::new();
    for (files, file_errors) in parts {
        for (name, digest, data) in files {
            digests.push(digest);
            parsed.push((name, data));
        }
        errors.extend(file_errors);
    }
    if !errors.is_empty() {
        return Err(LoadErrors(errors));
    }
    let records = parsed
        .iter()
        .zip(digests)
        .map(|((path, data), digest)| FileRecords { path: path.clone(), digest, records: record_keys(data) })
        .collect();
    Ok((build(parsed)?, records))
}

/// A run of files parsed in order: each file's name relative to the folder, its digest and its
/// contents, and the errors.
type ParsedRun = (Vec<(String, String, DataFile)>, Vec<DataError>);

/// Read and parse `files` in order.
pub fn parse_files(dir: &Path, files: &[PathBuf]) -> ParsedRun {
    let mut parsed = Vec::with_capacity(files.len());
    let mut errors = Vec::new();
    for path in files {
        let name = relative_name(dir, path);
        let text =
            std::fs::read(path).and_then(|bytes| String::from_utf8(bytes).map_err(std::io::Error::other));
        match text {
            Ok(text) => match parse_file(&text) {
                Ok(file) => parsed.push((name, digest(text.as_bytes()), file)),
                Err(error) => errors.push(error.in_file(&name)),
            },
            Err(e) => errors.push(DataError {
                file: name,
                record: "-".into(),
                field: "-".into(),
                message: format!("cannot read: {e}"),
            }),
        }
    }
    (parsed, errors)
}

/// A data file's name as messages and the import's memory of files give it: relative to the folder.
pub fn relative_name(dir: &Path, path: &Path) -> String {
    path.strip_prefix(dir).unwrap_or(path).display().to_string()
}

fn collect_toml_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_toml_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "toml") {
            out.push(path);
        }
    }
    Ok(())
}

/// Parse one file's text; a syntax error or unknown key names the record it is in.
pub fn parse_file(text: &str) -> Result<DataFile, DataError> {
    toml::from_str::<DataFile>(text).map_err(|error| {
        let before = error.span().map(|span| &text[..span.start]).unwrap_or("");
        let record = before
            .rfind("\nid = \"")
            .map(|at| before[at + 7..].split('"').next().unwrap_or_default().to_owned())
            .unwrap_or_else(|| "-".to_owned());
        let message = error.message().to_owned();
        let field = message
            .split('`')
            .nth(1)
            .filter(|_| message.starts_with("unknown field"))
            .unwrap_or("-")
            .to_owned();
        let line = 1 + before.matches('\n').count();
        DataError { file: String::new(), record, field, message: format!("line {line}: {message}") }
    })
}

impl DataError {
    fn in_file(mut self, file: &str) -> Self {
        self.file = file.to_owned();
        self
    }
}

/// The records a part of the catalog is read among: by (kind, id), the file of each record in the
/// data files not read again, and the image ids their firearms hold. Empty for a whole catalog.
#[derive(Debug, Default)]
pub struct Surroundings {
    pub records: HashMap<(&'static str, String), String>,
    pub image_ids: HashSet<i64>,
}

/// Merge parsed files into one catalog and validate it as a whole.
pub fn build(files: Vec<(String, DataFile)>) -> Result<Catalog, LoadErrors> {
    build_among(files, &Surroundings::default())
}

/// Merge parsed files into one catalog and validate it among `around`: an id is taken once in
/// both, and a reference may name a record of either.
pub fn build_among(files: Vec<(String, DataFile)>, around: &Surroundings) -> Result<Catalog, LoadErrors> {
    let mut catalog = Catalog::default();
    let mut origin: HashMap<(&'static str, String), String> = HashMap::new();
    let mut errors = Vec::new();
    let mut note = |kind: &'static str, id: String, file: &str, errors: &mut Vec<DataError>| {
        if !is_valid_id(&id) {
            errors.push(err(file, kind, &id, "id", "must match ^[a-z0-9-]+$"));
        }
        let key = (kind, id);
        let first = around.records.get(&key).cloned().or_else(|| origin.insert(key.clone(), file.to_owned()));
        if let Some(first) = first {
            errors.push(err(file, kind, &key.1, "id", &format!("duplicate {kind} id (also in {first})")));
        }
    };
    for (file, data) in files {
        for (kind, id) in record_keys(&data) {
            note(kind, id, &file, &mut errors);
        }
        catalog.categories.extend(data.categories);
        catalog.manufacturers.extend(data.manufacturer.into_iter().chain(data.manufacturers));
        catalog.calibers.extend(data.calibers);
        catalog.firearms.typed_mut().extend(data.firearms.into_iter().map(Arc::new));
        catalog.ammunition.typed_mut().extend(data.ammunition.into_iter().map(Arc::new));
        catalog.interfaces.extend(data.interfaces);
        catalog.attachments.extend(data.attachments);
        catalog.platforms.extend(data.platforms);
    }
    catalog.sort();
    let file_of =
        |kind: &'static str, id: &str| origin.get(&(kind, id.to_owned())).cloned().unwrap_or_default();
    errors.extend(validate_among(&catalog, around, &file_of));
    if errors.is_empty() { Ok(catalog) } else { Err(LoadErrors(errors)) }
}

fn err(file: &str, kind: &str, id: &str, field: &str, message: &str) -> DataError {
    DataError {
        file: file.to_owned(),
        record: format!("{kind} {id}"),
        field: field.to_owned(),
        message: message.to_owned(),
    }
}

/// Vocabulary and reference checks over a merged catalog.
pub fn validate(catalog: &Catalog, file_of: &dyn Fn(&'static str, &str) -> String) -> Vec<DataError> {
    validate_among(catalog, &Surroundings::default(), file_of)
}

/// `validate`, references resolved among the records `around` too.
fn validate_among(
    catalog: &Catalog,
    around: &Surroundings,
    file_of: &dyn Fn(&'static str, &str) -> String,
) -> Vec<DataError> {
    let ids = |kind: &str, own: Vec<&str>| -> HashSet<String> {
        let elsewhere = around.records.keys().filter(|(k, _)| *k == kind).map(|(_, id)| id.as_str());
        own.into_iter().chain(elsewhere).map(str::to_owned).collect()
    };
    let categories = ids("category", catalog.categories.iter().map(|r| r.id.as_str()).collect());
    let manufacturers = ids("manufacturer", catalog.manufacturers.iter().map(|r| r.id.as_str()).collect());
    let calibers = ids("caliber", catalog.calibers.iter().map(|r| r.id.as_str()).collect());
    let typed_firearms = catalog.firearms.typed();
    let firearms = ids("firearm", typed_firearms.iter().map(|r| r.id.as_str()).collect());
    let interfaces = ids("interface", catalog.interfaces.iter().map(|r| r.id.as_str()).collect());
    let platforms = ids("platform", catalog.platforms.iter().map(|r| r.id.as_str()).collect());

    let mut errors = Vec::new();
    let mut check = |kind: &'static str, id: &str, field: &str, problem: Option<String>| {
        if let Some(message) = problem {
            errors.push(err(&file_of(kind, id), kind, id, field, &message));
        }
    };
    let one_of = |value: Option<&str>, list: &[&str]| -> Option<String> {
        value.filter(|v| !list.contains(v)).map(|v| format!("'{v}' is not one of: {}", list.join(", ")))
    };
    let refers = |value: Option<&str>, set: &HashSet<String>, what: &str| -> Option<String> {
        value.filter(|v| !set.contains(*v)).map(|v| format!("no {what} has the id '{v}'"))
    };
    let source_kinds = |sources: &[Source]| -> Option<String> {
        sources
            .iter()
            .find(|s| !vocab::SOURCE_KINDS.contains(&s.kind.as_str()))
            .map(|s| format!("kind '{}' is not one of: {}", s.kind, vocab::SOURCE_KINDS.join(", ")))
    };

    for f in &catalog.firearms {
        let id = f.id.as_str();
        check(
            "firearm",
            id,
            "manufacturerId",
            refers(Some(&f.manufacturer_id), &manufacturers, "manufacturer"),
        );
        check("firearm", id, "categoryId", refers(Some(&f.category_id), &categories, "category"));
        check("firearm", id, "parentFirearmId", refers(f.parent_firearm_id.as_deref(), &firearms, "firearm"));
        if f.parent_firearm_id.as_deref() == Some(id) {
            check("firearm", id, "parentFirearmId", Some("a firearm cannot be its own parent".into()));
        }
        check("firearm", id, "platformId", refers(f.platform_id.as_deref(), &platforms, "platform"));
        check("firearm", id, "status", one_of(f.status.as_deref(), vocab::FIREARM_STATUSES));
        check("firearm", id, "variantType", one_of(f.variant_type.as_deref(), vocab::VARIANT_TYPES));
        check("firearm", id, "actionType", one_of(f.action_type.as_deref(), vocab::ACTION_TYPES));
        check(
            "firearm",
            id,
            "firingMechanism",
            one_of(f.firing_mechanism.as_deref(), vocab::FIRING_MECHANISMS),
        );
        check("firearm", id, "triggerType", one_of(f.trigger_type.as_deref(), vocab::TRIGGER_TYPES));
        check("firearm", id, "magazineType", one_of(f.magazine_type.as_deref(), vocab::MAGAZINE_TYPES));
        check("firearm", id, "sources", source_kinds(&f.sources));
        for link in &f.calibers {
            check("firearm", id, "calibers.caliberId", refers(Some(&link.caliber_id), &calibers, "caliber"));
        }
        for user in &f.users {
            check("firearm", id, "users.userType", one_of(user.user_type.as_deref(), vocab::USER_TYPES));
        }
        for image in &f.images {
            check("firearm", id, "images.type", one_of(image.image_type.as_deref(), vocab::IMAGE_TYPES));
        }
        for interface in &f.interfaces {
            check("firearm", id, "interfaces", refers(Some(interface), &interfaces, "interface"));
        }
    }
    let mut image_ids = around.image_ids.clone();
    for f in &catalog.firearms {
        for image in &f.images {
            if image.id <= 0 || !image_ids.insert(image.id) {
                check(
                    "firearm",
                    &f.id,
                    "images.id",
                    Some(format!("image id {} is not a new positive integer", image.id)),
                );
            }
        }
    }
    for c in &catalog.calibers {
        let id = c.id.as_str();
        check(
            "caliber",
            id,
            "parentCartridgeId",
            refers(c.parent_cartridge_id.as_deref(), &calibers, "caliber"),
        );
        check("caliber", id, "cartridgeType", one_of(c.cartridge_type.as_deref(), vocab::CARTRIDGE_TYPES));
        check("caliber", id, "primerType", one_of(c.primer_type.as_deref(), vocab::PRIMER_TYPES));
        check("caliber", id, "sources", source_kinds(&c.sources));
    }
    for m in &catalog.manufacturers {
        check("manufacturer", &m.id, "sources", source_kinds(&m.sources));
    }
    for a in catalog.ammunition.as_typed() {
        let id = a.id.as_str();
        check("ammunition", id, "caliberId", refers(Some(&a.caliber_id), &calibers, "caliber"));
        check(
            "ammunition",
            id,
            "manufacturerId",
            refers(a.manufacturer_id.as_deref(), &manufacturers, "manufacturer"),
        );
        check("ammunition", id, "bulletType", one_of(a.bullet_type.as_deref(), vocab::BULLET_TYPES));
        check("ammunition", id, "sources", source_kinds(&a.sources));
    }
    for i in &catalog.interfaces {
        check("interface", &i.id, "kind", one_of(i.kind.as_deref(), vocab::INTERFACE_KINDS));
        check("interface", &i.id, "sources", source_kinds(&i.sources));
    }
    for a in &catalog.attachments {
        for interface in &a.interfaces {
            check("attachment", &a.id, "interfaces", refers(Some(interface), &interfaces, "interface"));
        }
        check("attachment", &a.id, "sources", source_kinds(&a.sources));
    }
    for p in &catalog.platforms {
        for interface in &p.interfaces {
            check("platform", &p.id, "interfaces", refers(Some(interface), &interfaces, "interface"));
        }
        check("platform", &p.id, "sources", source_kinds(&p.sources));
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> (String, DataFile) {
        ("test.toml".to_owned(), parse_file(text).expect("parses"))
    }

    const BASE: &str = r#"
[[categories]]
id = "pistols"
name = "Pistols"

[[calibers]]
id = "9mm"
name = "9mm"

[manufacturer]
id = "acme"
name = "Acme"
"#;

    #[test]
    fn an_unknown_key_names_the_record_and_field() {
        let error = parse_file("[[firearms]]\nid = \"x-1\"\nname = \"X\"\nwieght = 3\n").unwrap_err();
        assert_eq!(error.record, "x-1");
        assert_eq!(error.field, "wieght");
    }

    #[test]
    fn a_dangling_reference_and_a_bad_vocabulary_value_are_refused() {
        let firearm = r#"
[[firearms]]
id = "f-1"
name = "F"
manufacturerId = "nobody"
categoryId = "pistols"
actionType = "telekinesis"
calibers = [{ caliberId = "9mm", isPrimary = true }]
"#;
        let errors = build(vec![file(BASE), file(firearm)]).unwrap_err().0;
        let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["manufacturerId", "actionType"], "{errors:?}");
        assert_eq!(errors[0].record, "firearm f-1");
    }

    #[test]
    fn a_duplicate_id_is_refused() {
        let errors = build(vec![file(BASE), file(BASE)]).unwrap_err().0;
        assert!(errors.iter().all(|e| e.message.contains("duplicate")));
        assert_eq!(errors.len(), 3);
    }
}
