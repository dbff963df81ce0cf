//! Schemas of the sellers' operations: a shop's offers as it sees them, offers as buyers see
//! them, and the shops a key acts for. Every closed list is published from `sellers::vocabulary`.

use std::borrow::Cow;

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

use crate::sellers::vocabulary::{CONDITIONS, CURRENCIES, MAX_PRICE_MINOR, STATUSES, STOCK, TARGET_TYPES};

fn closed_list(values: &'static [&'static str], description: &str) -> Schema {
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

fn target_type_schema() -> Schema {
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

/// The currencies an offer may be priced in, published as the `Currency` component.
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

/// The catalog record an offer sells.
#[derive(ToSchema)]
pub struct OfferTarget {
    #[schema(rename = "type", schema_with = target_type_schema)]
    kind: String,
    /// The record's catalog id (an attachment id is unknown until the catalog carries attachments).
    #[schema(pattern = "^[a-z0-9-]+$")]
    id: String,
}

/// An offer as its shop sees it.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct VendorOffer {
    /// `off-` and 16 hex digits; kept by every replacement that repeats the sku.
    id: String,
    shop_id: String,
    sku: String,
    target: OfferTarget,
    #[schema(schema_with = price_schema)]
    price_minor: i64,
    currency: Currency,
    /// The shop's https link, as normalised.
    url: String,
    #[schema(schema_with = stock_schema)]
    stock: String,
    #[schema(schema_with = condition_schema)]
    condition: String,
    #[schema(schema_with = status_schema)]
    status: String,
    /// Buyers who followed the outbound link (read-only; counted by GET /v1/out/{offerId}).
    clicks: i64,
    /// ISO 8601 (UTC).
    created_at: String,
    /// ISO 8601 (UTC); moves only when a field changed.
    updated_at: String,
}

/// What a replacement did, by sku.
#[derive(ToSchema)]
pub struct OffersReplaced {
    /// Offers the shop holds now.
    total: i64,
    /// Skus new to the shop.
    created: i64,
    /// Kept skus whose fields changed (their id and clicks are kept).
    updated: i64,
    /// Kept skus sent unchanged.
    unchanged: i64,
    /// The shop's offers whose sku the body did not repeat, now removed.
    deleted: i64,
}

#[derive(ToSchema)]
pub struct OfferDeleted {
    /// Always true.
    deleted: bool,
    id: String,
}

/// The shop's offers, counted.
#[derive(ToSchema)]
pub struct ShopOfferCounts {
    total: i64,
    published: i64,
}

/// A shop the key acts for.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct VendorShop {
    id: String,
    name: String,
    /// approved, or under_review (reads only until approved).
    #[schema(schema_with = approval_schema)]
    status: String,
    offers: ShopOfferCounts,
    /// YYYY-MM-DD HH:MM:SS (UTC).
    created_at: String,
}

fn approval_schema() -> Schema {
    closed_list(&["approved", "under_review"], "approved, or under_review: reads only until approved")
}

/// The shop behind an offer.
#[derive(ToSchema)]
pub struct OfferShop {
    id: String,
    name: String,
}

/// A published offer as buyers see it.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct BuyerOffer {
    id: String,
    shop: OfferShop,
    #[schema(schema_with = price_schema)]
    price_minor: i64,
    currency: Currency,
    #[schema(schema_with = stock_schema)]
    stock: String,
    #[schema(schema_with = condition_schema)]
    condition: String,
    /// The outbound link, `/v1/out/{offerId}` (absolute when the service knows its public URL):
    /// following it counts the click and redirects to the shop.
    url: String,
    /// ISO 8601 (UTC).
    updated_at: String,
}
