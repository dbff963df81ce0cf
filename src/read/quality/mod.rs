//! Data quality, figured once per snapshot (`Snapshot::quality`): for every record of every
//! resource with provenance, which of its fields are missing, how confident the catalog is in it,
//! its strongest source kind and which fields a checked source states (`verifiedFields`). The
//! data-quality operations (93 to 97, `read::query::quality`) read it.

pub mod fields;

use std::sync::Arc;

use fields::Field;

use crate::catalog::model::{Catalog, Source};
use crate::catalog::vocabulary::best_source_kind;

/// The resources data quality reports on, in the order it reports them.
pub const RESOURCES: &[&str] =
    &["firearms", "manufacturers", "calibers", "ammunition", "interfaces", "attachments", "platforms"];

/// One record as data quality sees it.
#[derive(Debug, Clone)]
pub struct RecordQuality {
    pub id: String,
    pub name: String,
    /// Bit `i` set: the resource's `i`th field is missing.
    pub missing: u64,
    pub data_confidence: Option<f64>,
    pub best_source_kind: Option<&'static str>,
    pub verified_at: Option<String>,
    /// The fields a checked source states; empty while the record is unverified.
    pub verified_fields: Vec<String>,
}

/// Every record of one resource, in id order, and the fields looked at.
#[derive(Debug, Clone)]
pub struct ResourceQuality {
    pub resource: &'static str,
    pub fields: Vec<&'static str>,
    pub records: Vec<RecordQuality>,
}

impl ResourceQuality {
    /// The names of the fields `record` lacks, in the resource's field order.
    pub fn missing_fields(&self, record: &RecordQuality) -> Vec<&'static str> {
        self.fields
            .iter()
            .enumerate()
            .filter(|(i, _)| record.missing >> i & 1 == 1)
            .map(|(_, f)| *f)
            .collect()
    }

    /// The bit of `field`, if the resource has it.
    pub fn bit(&self, field: &str) -> Option<u64> {
        self.fields.iter().position(|f| *f == field).map(|i| 1 << i)
    }
}

/// Data quality of a whole catalog.
#[derive(Debug, Clone)]
pub struct DataQuality {
    pub resources: Vec<ResourceQuality>,
}

impl DataQuality {
    pub fn build(catalog: &Catalog) -> Self {
        let firearms = catalog.firearms.typed();
        let ammunition = catalog.ammunition.typed();
        let resources = vec![
            resource("firearms", &fields::firearm(), firearms.iter().map(Arc::as_ref), |f| {
                provenance(&f.id, &f.name, f.data_confidence, &f.sources, &f.verified_at, &f.verified_fields)
            }),
            resource("manufacturers", fields::MANUFACTURER, catalog.manufacturers.iter(), |m| {
                provenance(&m.id, &m.name, m.data_confidence, &m.sources, &m.verified_at, &m.verified_fields)
            }),
            resource("calibers", fields::CALIBER, catalog.calibers.iter(), |c| {
                provenance(&c.id, &c.name, c.data_confidence, &c.sources, &c.verified_at, &c.verified_fields)
            }),
            resource("ammunition", fields::AMMUNITION, ammunition.iter().map(Arc::as_ref), |a| {
                provenance(&a.id, &a.name, a.data_confidence, &a.sources, &a.verified_at, &a.verified_fields)
            }),
            resource("interfaces", fields::INTERFACE, catalog.interfaces.iter(), |i| {
                provenance(&i.id, &i.name, i.data_confidence, &i.sources, &i.verified_at, &i.verified_fields)
            }),
            resource("attachments", fields::ATTACHMENT, catalog.attachments.iter(), |a| {
                provenance(&a.id, &a.name, a.data_confidence, &a.sources, &a.verified_at, &a.verified_fields)
            }),
            resource("platforms", fields::PLATFORM, catalog.platforms.iter(), |p| {
                provenance(&p.id, &p.name, p.data_confidence, &p.sources, &p.verified_at, &p.verified_fields)
            }),
        ];
        Self { resources }
    }

    pub fn resource(&self, name: &str) -> Option<&ResourceQuality> {
        self.resources.iter().find(|r| r.resource == name)
    }
}

/// A record's provenance, before its missing fields are known.
fn provenance(
    id: &str,
    name: &str,
    data_confidence: Option<f64>,
    sources: &[Source],
    verified_at: &Option<String>,
    verified_fields: &Option<Vec<String>>,
) -> RecordQuality {
    RecordQuality {
        id: id.to_owned(),
        name: name.to_owned(),
        missing: 0,
        data_confidence,
        best_source_kind: best_source_kind(sources.iter().map(|s| s.kind.as_str())),
        verified_at: verified_at.clone(),
        verified_fields: verified_fields.clone().unwrap_or_default(),
    }
}

fn resource<'a, T: 'a>(
    name: &'static str,
    fields: &[Field<T>],
    records: impl Iterator<Item = &'a T>,
    describe: impl Fn(&T) -> RecordQuality,
) -> ResourceQuality {
    assert!(fields.len() <= 64, "a field's bit fits in a u64");
    let mut records: Vec<RecordQuality> = records
        .map(|record| {
            let missing = fields
                .iter()
                .enumerate()
                .fold(0u64, |bits, (i, f)| bits | u64::from(!(f.filled)(record)) << i);
            RecordQuality { missing, ..describe(record) }
        })
        .collect();
    records.sort_by(|a, b| a.id.cmp(&b.id));
    ResourceQuality { resource: name, fields: fields.iter().map(|f| f.name).collect(), records }
}
