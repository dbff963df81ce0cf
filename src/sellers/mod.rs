//! Sellers: shops push priced offers for catalog records (firearms, attachments); buyers list the
//! published offers of approved shops and follow an offer's outbound link, which counts a click.
//!
//! - `vocabulary`: the closed lists (currencies, stock, condition, status, target types) and bounds;
//! - `input`: a shop's offers checked field by field, each problem named by its path;
//! - `offers`: a shop's offers in the database (list, replace whole, change, remove);
//! - `buyers`: what buyers read, and the click counter;
//! - `shops`: the shops a key acts for, with approval state;
//! - `targets`: whether the catalog snapshot holds an offer's record;
//! - `schema`: how those fields are published in the OpenAPI description.
//!
//! Offers live in the database, beside the snapshot rather than in it: they change all day and
//! must reach buyers on every node at once, while the snapshot is rebuilt only on a catalog import.

pub mod buyers;
pub mod input;
pub mod offers;
pub mod schema;
pub mod shops;
pub mod targets;
pub mod vocabulary;
