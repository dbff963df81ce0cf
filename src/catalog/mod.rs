//! The catalog: its records, the files that hold them, and the one pipeline that changes them.

mod bulk_references;
pub mod change_log;
pub mod check;
pub mod content;
pub mod export;
pub mod game_stats;
pub mod held;
pub mod image_files;
pub mod import;
pub mod import_error;
pub mod insert;
pub mod load;
pub mod model;
pub mod record_text;
mod row_feed;
pub mod rows;
pub mod source_files;
mod sqlite_literal;
pub mod stats_versions;
pub mod store;
pub mod synth;
pub mod table;
pub mod term;
pub mod verify;
pub mod vocabulary;

pub use table::Table;
