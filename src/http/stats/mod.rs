//! /v1/stats (operations 71 to 84): catalog statistics, read from the figures the snapshot
//! derived once (`read::statistics`). `overview` answers the parameterless ones, `rankings` the
//! most-first lists (calibers, makers, action types, features), `eras` the decade questions and
//! `adoption` who adopted what.

pub mod adoption;
pub mod eras;
pub mod overview;
pub mod rankings;

use crate::http::extract::query::{QueryParam, kind};

/// The optional category filter of 76, 82 and 83.
pub const CATEGORY: QueryParam<kind::Slug> =
    QueryParam::new("category", kind::Slug, "only firearms of this category (404 when no category has it)");
