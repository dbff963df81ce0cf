//! How the sellers' fields are published in the OpenAPI description: every closed list and bound
//! comes from `vocabulary`, the constants the server checks against.

use std::borrow::Cow;

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

use super::vocabulary::{CONDITIONS, CURRENCIES, MAX_PRICE_MINOR, STATUSES, STOCK, TARGET_TYPES};

pub(crate) fn closed_list(values: &'static [&'static str], description: &str) -> Schema {
    let values = values.iter().copied();
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(values))
        .description(Some(description))
        .into()
}

pub(crate) fn stock_schema() -> Schema {
    closed_list(STOCK, "in_stock, out_of_stock or preorder")
}

pub(crate) fn condition_schema() -> Schema {
    closed_list(CONDITIONS, "new, used or refurbished")
}

pub(crate) fn status_schema() -> Schema {
    closed_list(STATUSES, "draft offers are the shop's alone; published ones reach buyers")
}

pub(crate) fn target_type_schema() -> Schema {
    closed_list(TARGET_TYPES, "the kind of catalog record")
}

/// A price in minor units: the bounds the server enforces.
pub(crate) fn price_schema() -> Schema {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .minimum(Some(0))
        .maximum(Some(MAX_PRICE_MINOR))
        .description(Some("the price in the currency's ISO 4217 minor unit: 1999 USD is 19.99 dollars, 1999 JPY is 1,999 yen"))
        .into()
}

/// The currencies an offer may be priced in, published as the `Currency` component (a field
/// holding a currency code names it with `#[schema(value_type = Currency)]`).
pub struct Currency;

impl PartialSchema for Currency {
    fn schema() -> RefOr<Schema> {
        RefOr::T(closed_list(CURRENCIES, "ISO 4217 code, three upper-case letters, from this published list"))
    }
}

impl ToSchema for Currency {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Currency")
    }
}
