//! Response schemas for the OpenAPI description: the catalog's answer shapes
//! (`read::rendered::shapes`) and the account, seller and webhook answers.

#![allow(dead_code)]

pub use crate::access::paging::Pagination;
pub use crate::read::rendered::shapes::*;
pub use crate::read::rendered::{One, Page};
pub use crate::sellers::buyers::BuyerOffer;

mod account;
mod deleted;
mod offer_bodies;
mod offers;
mod reports_support;
mod webhooks;

pub use account::*;
pub use deleted::*;
pub use offer_bodies::*;
pub use offers::*;
pub use reports_support::*;
pub use webhooks::*;
