//! Response schemas for the OpenAPI description: the catalog's answer shapes
//! (`read::rendered::shapes`), answers the handlers of several areas name (`Deleted`, and the
//! plan table, the operation catalog and buyers' offers, which are `access`'s and `sellers`' own
//! types), and the description of the sellers' request bodies.

pub use crate::access::operation_catalog::OperationCatalog;
pub use crate::access::paging::Pagination;
pub use crate::access::plan::PlanLimits;
pub use crate::read::rendered::shapes::*;
pub use crate::read::rendered::{One, Page};
pub use crate::sellers::buyers::BuyerOffer;

mod deleted;
// Request bodies described for clients, whose fields nothing reads: the sellers' bodies are parsed
// field by field (`sellers::input`) so that each bad field is named.
#[allow(dead_code)]
mod offer_bodies;

pub use deleted::*;
pub use offer_bodies::*;
