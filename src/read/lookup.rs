//! Records by id, with the one 404 every reader gives for an id the catalog does not have.

use std::sync::Arc;

use crate::catalog::model::{Attachment, Caliber, Category, Firearm, Manufacturer};
use crate::read::error::QueryError;
use crate::read::snapshot::Snapshot;

/// A record found by id: its position in the catalog (the read model's per-record tables are in
/// the same order) and the record.
pub type Found<'a, T> = (usize, &'a T);

impl Snapshot {
    /// The firearm's position and its record (decoded: `catalog::held`).
    pub fn firearm(&self, id: &str) -> Result<(usize, Arc<Firearm>), QueryError> {
        let at = self.firearm_position(id)?;
        Ok((at, self.catalog.firearms.get(at)))
    }

    /// The firearm's position, for reads that need no more of its record than the read model keeps.
    /// Ok when a firearm has `id`, else its 404: for a write that names a firearm.
    pub fn require_firearm(&self, id: &str) -> Result<(), QueryError> {
        self.firearm_position(id).map(|_| ())
    }

    pub(in crate::read) fn firearm_position(&self, id: &str) -> Result<usize, QueryError> {
        self.read.firearm_at.get(id).copied().ok_or_else(|| QueryError::not_found("firearm", id))
    }

    pub fn manufacturer(&self, id: &str) -> Result<Found<'_, Manufacturer>, QueryError> {
        let at =
            *self.read.manufacturer_at.get(id).ok_or_else(|| QueryError::not_found("manufacturer", id))?;
        Ok((at, &self.catalog.manufacturers[at]))
    }

    pub fn caliber(&self, id: &str) -> Result<Found<'_, Caliber>, QueryError> {
        let at = *self.read.caliber_at.get(id).ok_or_else(|| QueryError::not_found("caliber", id))?;
        Ok((at, &self.catalog.calibers[at]))
    }

    pub fn category(&self, id: &str) -> Result<Found<'_, Category>, QueryError> {
        let at = *self.read.category_at.get(id).ok_or_else(|| QueryError::not_found("category", id))?;
        Ok((at, &self.catalog.categories[at]))
    }

    /// The load's position (its record is decoded where needed: `catalog::held`).
    pub(in crate::read) fn ammunition_position(&self, id: &str) -> Result<usize, QueryError> {
        self.read.ammunition_at.get(id).copied().ok_or_else(|| QueryError::not_found("ammunition load", id))
    }

    pub fn attachment(&self, id: &str) -> Result<Found<'_, Attachment>, QueryError> {
        let at = *self.read.attachment_at.get(id).ok_or_else(|| QueryError::not_found("attachment", id))?;
        Ok((at, &self.catalog.attachments[at]))
    }

    /// A query filter naming a category (`parameter`): its position, None when absent, or the 404
    /// naming the parameter and the id.
    pub fn category_filter(
        &self,
        parameter: &'static str,
        id: Option<&str>,
    ) -> Result<Option<usize>, QueryError> {
        let Some(id) = id else { return Ok(None) };
        match self.read.category_at.get(id) {
            Some(&at) => Ok(Some(at)),
            None => Err(QueryError::not_found_in("category", id, parameter)),
        }
    }
}
