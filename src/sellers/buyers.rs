//! Offers as buyers meet them: the published offers of approved shops for one catalog record,
//! and the outbound link that counts a click.
//!
//! Both read the database, not the catalog snapshot, so a shop's change (or its approval) reaches
//! buyers on every node with the next request, and the snapshot is never rebuilt for it.

use serde::Serialize;
use utoipa::ToSchema;

use super::schema::{Currency, condition_schema, price_schema, stock_schema};
use crate::db::Db;

/// A published offer as buyers see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BuyerOffer {
    pub id: String,
    pub shop: OfferShop,
    #[schema(schema_with = price_schema)]
    pub price_minor: i64,
    #[schema(value_type = Currency)]
    pub currency: String,
    #[schema(schema_with = stock_schema)]
    pub stock: String,
    #[schema(schema_with = condition_schema)]
    pub condition: String,
    /// The outbound link, `/v1/out/{offerId}` (absolute when the service knows its public URL):
    /// following it counts the click and redirects to the shop.
    pub url: String,
    /// ISO 8601 (UTC).
    pub updated_at: String,
}

/// The shop behind an offer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct OfferShop {
    pub id: String,
    pub name: String,
}

type Row = (String, String, String, i64, String, String, String, String);

/// The published offers of approved shops for the record `kind`/`id`, cheapest first within each
/// currency (currencies by code; equal prices by shop name); only `currency` when given. Each
/// outbound link starts with `public_url` ("" for a relative link).
pub async fn published_for(
    db: &Db,
    kind: &str,
    id: &str,
    currency: Option<&str>,
    public_url: &str,
) -> sqlx::Result<Vec<BuyerOffer>> {
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT o.id, s.id, s.name, o.price_minor, o.currency, o.stock, o.item_condition, o.updated_at \
         FROM offers o JOIN shops s ON s.id = o.shop_id \
         WHERE o.target_type = $1 AND o.target_id = $2 AND o.status = 'published' AND s.approved = 1 \
           AND ($3 = '' OR o.currency = $3) \
         ORDER BY o.currency, o.price_minor, s.name, o.id",
    )
    .bind(kind)
    .bind(id)
    .bind(currency.unwrap_or(""))
    .fetch_all(db.pool())
    .await?;
    Ok(rows
        .into_iter()
        .map(|(id, shop_id, shop_name, price_minor, currency, stock, condition, updated_at)| BuyerOffer {
            url: format!("{public_url}/v1/out/{id}"),
            id,
            shop: OfferShop { id: shop_id, name: shop_name },
            price_minor,
            currency,
            stock,
            condition,
            updated_at,
        })
        .collect())
}

/// The ids of the `kind` records (firearm, attachment) with at least one published offer of an
/// approved shop.
pub async fn offered_ids(db: &Db, kind: &str) -> sqlx::Result<std::collections::HashSet<String>> {
    let rows: Vec<(String,)> = sqlx::query_as(
        "SELECT DISTINCT o.target_id FROM offers o JOIN shops s ON s.id = o.shop_id \
         WHERE o.target_type = $1 AND o.status = 'published' AND s.approved = 1",
    )
    .bind(kind)
    .fetch_all(db.pool())
    .await?;
    Ok(rows.into_iter().map(|(id,)| id).collect())
}

/// Where a published offer of an approved shop sends a buyer; with `count`, the click is counted
/// by the same statement (one atomic increment, exact however many arrive together). None when
/// no such offer is published.
pub async fn follow(db: &Db, offer_id: &str, count: bool) -> sqlx::Result<Option<String>> {
    let published = "id = $1 AND status = 'published' \
                     AND shop_id IN (SELECT id FROM shops WHERE approved = 1)";
    let sql = if count {
        format!("UPDATE offers SET clicks = clicks + 1 WHERE {published} RETURNING url")
    } else {
        format!("SELECT url FROM offers WHERE {published}")
    };
    let url: Option<(String,)> =
        sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(offer_id).fetch_optional(db.pool()).await?;
    Ok(url.map(|(url,)| url))
}
