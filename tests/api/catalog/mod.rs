//! The catalog: the import pipeline and every catalog read, field by field and table-driven.

mod assets;
mod changed_files;
mod data_quality;
mod firearms;
mod import;
mod patched_snapshot;
mod persisted_snapshot;
mod query_api;
mod rankings;
mod read_contract;
mod reference;
mod statistics;
mod verification;
