//! Attachments: the list, filtered by vendor and by what shops offer.

use std::collections::HashSet;

use serde::Serialize;
use utoipa::ToSchema;

use crate::access::paging::Paging;
use crate::catalog::model::Attachment;
use crate::read::error::QueryError;
use crate::read::rendered::{Rendered, paged};
use crate::read::snapshot::Snapshot;

/// An attachment in the list of GET /v1/attachments.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AttachmentItem<'a> {
    id: &'a str,
    name: &'a str,
    vendor: Option<&'a str>,
    kind: Option<&'a str>,
    /// Ids of the interface standards it mounts to.
    interfaces: &'a [String],
    weight_g: Option<f64>,
    length_mm: Option<f64>,
}

impl<'a> From<&'a Attachment> for AttachmentItem<'a> {
    fn from(attachment: &'a Attachment) -> Self {
        Self {
            id: &attachment.id,
            name: &attachment.name,
            vendor: attachment.vendor.as_deref(),
            kind: attachment.kind.as_deref(),
            interfaces: &attachment.interfaces,
            weight_g: attachment.weight_g,
            length_mm: attachment.length_mm,
        }
    }
}

/// What the attachment list keeps.
#[derive(Debug, Clone, Default)]
pub struct AttachmentFilter<'a> {
    /// Only this vendor's, compared in lower case.
    pub vendor: Option<&'a str>,
    /// Only these ids (those offered now; the offers live in the database, not the snapshot).
    pub among: Option<&'a HashSet<String>>,
}

/// A page of attachments by name (any case, then id), filtered.
pub fn list(snapshot: &Snapshot, filter: &AttachmentFilter, paging: &Paging) -> Result<Rendered, QueryError> {
    let vendor = filter.vendor.map(str::to_lowercase);
    let mut kept: Vec<&Attachment> = snapshot
        .catalog
        .attachments
        .iter()
        .filter(|a| {
            vendor.as_ref().is_none_or(|v| a.vendor.as_ref().is_some_and(|mine| mine.to_lowercase() == *v))
        })
        .filter(|a| filter.among.is_none_or(|ids| ids.contains(&a.id)))
        .collect();
    kept.sort_by_cached_key(|a| (a.name.to_lowercase(), a.id.clone()));
    let (page, pagination) = paging.slice(&kept);
    let items: Vec<AttachmentItem> = page.iter().map(|a| AttachmentItem::from(*a)).collect();
    paged(items, pagination).map_err(|e| QueryError::Failed(e.to_string()))
}
