//! Request bodies of the sellers' writes, for the description only: the handlers read bodies
//! field by field (`sellers::input`) so that each bad field is named. Every rule a schema can
//! express is published here, so a schema-valid body is refused only for what no schema can say
//! (a public host name, a known catalog id, a sku repeated in one body).

use utoipa::ToSchema;
use utoipa::openapi::Schema;

use crate::sellers::input::Target;
use crate::sellers::schema::{Currency, condition_schema, price_schema, status_schema, stock_schema};
use crate::sellers::vocabulary::MAX_SKU_CHARS;

/// An offer link: https, at most 2,048 characters; it must also name a public host (never an IP
/// address, localhost or a single-label name) and carry no user name or password.
fn url_schema() -> Schema {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::Type::String)
        .format(Some(utoipa::openapi::SchemaFormat::Custom("uri".to_owned())))
        .pattern(Some("^https://"))
        .max_length(Some(crate::webhooks::url::MAX_URL_CHARS))
        .into()
}

fn sku_schema() -> Schema {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::Type::String)
        .min_length(Some(1))
        .max_length(Some(MAX_SKU_CHARS))
        .pattern(Some("\\S"))
        .description(Some("the shop's own stock-keeping unit, unique within the shop"))
        .into()
}

/// One offer of a replacement. Unknown fields (an `id` or `clicks` sent back from a read) are
/// ignored.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct OfferInput {
    #[schema(schema_with = sku_schema)]
    sku: String,
    /// A catalog record that exists (else 404 naming the row's `target.id`).
    target: Target,
    #[schema(schema_with = price_schema)]
    price_minor: i64,
    currency: Currency,
    #[schema(schema_with = url_schema)]
    url: String,
    /// Default in_stock.
    #[schema(schema_with = stock_schema)]
    stock: Option<String>,
    /// Default new.
    #[schema(schema_with = condition_schema)]
    condition: Option<String>,
    /// Default published.
    #[schema(schema_with = status_schema)]
    status: Option<String>,
}

/// PUT /v1/vendor/offers body: the shop's whole offer set.
#[derive(ToSchema)]
pub struct ReplaceOffers {
    // `max_items` is `sellers::vocabulary::MAX_OFFERS` (an attribute takes a literal; a unit test
    // of the description holds the two together).
    /// At most 500 offers (an empty list removes them all), each sku once. A bad row is named by
    /// its index (`offers[3].url`) and nothing is written.
    #[schema(max_items = 500)]
    offers: Vec<OfferInput>,
}

/// PATCH /v1/vendor/offers/{id} body: every field optional; absent fields keep their value.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct UpdateOffer {
    #[schema(schema_with = price_schema)]
    price_minor: Option<i64>,
    #[schema(value_type = Currency, required = false)]
    currency: Option<String>,
    #[schema(schema_with = url_schema)]
    url: Option<String>,
    #[schema(schema_with = stock_schema)]
    stock: Option<String>,
    #[schema(schema_with = condition_schema)]
    condition: Option<String>,
    #[schema(schema_with = status_schema)]
    status: Option<String>,
}
