//! A shop's offers in the database: listed, replaced whole, changed and removed one at a time.
//!
//! A replacement is one write transaction holding the shop's row: rows whose sku survives keep
//! their id, clicks and (when nothing changed) `updatedAt`; the others are inserted or deleted.

use std::collections::HashMap;

use serde::Serialize;
use utoipa::ToSchema;

use super::input::{OfferChanges, OfferFields, Target};
use super::schema::{Currency, condition_schema, price_schema, status_schema, stock_schema};
use crate::clock::iso_millis_now;
use crate::db::Db;

/// A stored offer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offer {
    pub id: String,
    pub shop_id: String,
    pub fields: OfferFields,
    pub clicks: i64,
    pub created_at: String,
    pub updated_at: String,
}

/// An offer as its shop sees it.
// `Offer` with its fields at the top level: a flattened `OfferFields` would serialise the same
// but be described as an `allOf`.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VendorOffer {
    /// `off-` and 16 hex digits; kept by every replacement that repeats the sku.
    id: String,
    shop_id: String,
    sku: String,
    target: Target,
    #[schema(schema_with = price_schema)]
    price_minor: i64,
    #[schema(value_type = Currency)]
    currency: String,
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

impl From<Offer> for VendorOffer {
    fn from(offer: Offer) -> Self {
        let OfferFields { sku, target, price_minor, currency, url, stock, condition, status } = offer.fields;
        Self {
            id: offer.id,
            shop_id: offer.shop_id,
            sku,
            target,
            price_minor,
            currency,
            url,
            stock,
            condition,
            status,
            clicks: offer.clicks,
            created_at: offer.created_at,
            updated_at: offer.updated_at,
        }
    }
}

/// What a replacement did, by sku.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[schema(as = OffersReplaced)]
pub struct Replaced {
    /// Offers the shop holds now.
    #[schema(value_type = i64)]
    pub total: usize,
    /// Skus new to the shop.
    #[schema(value_type = i64)]
    pub created: usize,
    /// Kept skus whose fields changed (their id and clicks are kept).
    #[schema(value_type = i64)]
    pub updated: usize,
    /// Kept skus sent unchanged.
    #[schema(value_type = i64)]
    pub unchanged: usize,
    /// The shop's offers whose sku the body did not repeat, now removed.
    #[schema(value_type = i64)]
    pub deleted: usize,
}

const COLUMNS: &str = "id, shop_id, sku, target_type, target_id, price_minor, currency, url, stock, \
                       item_condition, status, clicks, created_at, updated_at";

type Row = (
    String,
    String,
    String,
    String,
    String,
    i64,
    String,
    String,
    String,
    String,
    String,
    i64,
    String,
    String,
);

fn from_row(row: Row) -> Offer {
    let (id, shop_id, sku, kind, target_id, price_minor, currency, url, stock, condition, status) =
        (row.0, row.1, row.2, row.3, row.4, row.5, row.6, row.7, row.8, row.9, row.10);
    Offer {
        id,
        shop_id,
        fields: OfferFields {
            sku,
            target: Target { kind, id: target_id },
            price_minor,
            currency,
            url,
            stock,
            condition,
            status,
        },
        clicks: row.11,
        created_at: row.12,
        updated_at: row.13,
    }
}

/// The shop's offers by sku, optionally only those with `status`.
pub async fn list(db: &Db, shop_id: &str, status: Option<&str>) -> sqlx::Result<Vec<Offer>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM offers WHERE shop_id = $1 AND ($2 = '' OR status = $2) ORDER BY sku, id"
    );
    let rows: Vec<Row> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(shop_id)
        .bind(status.unwrap_or(""))
        .fetch_all(db.pool())
        .await?;
    Ok(rows.into_iter().map(from_row).collect())
}

/// One offer by id, whichever shop holds it (the caller checks that it is the key's).
pub async fn find(db: &Db, id: &str) -> sqlx::Result<Option<Offer>> {
    let sql = format!("SELECT {COLUMNS} FROM offers WHERE id = $1");
    let row: Option<Row> =
        sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(id).fetch_optional(db.pool()).await?;
    Ok(row.map(from_row))
}

/// Make `offers` the shop's whole set, in one transaction.
pub async fn replace(db: &Db, shop_id: &str, offers: &[OfferFields]) -> sqlx::Result<Replaced> {
    let mut tx = db.begin_write().await?;
    // Holding the shop's row serialises two replacements of one shop on PostgreSQL (SQLite's
    // write transaction already does), so neither works from a set the other is changing.
    sqlx::query("UPDATE shops SET id = id WHERE id = $1").bind(shop_id).execute(&mut *tx).await?;
    let sql = format!("SELECT {COLUMNS} FROM offers WHERE shop_id = $1");
    let held: Vec<Row> = sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(shop_id).fetch_all(&mut *tx).await?;
    let mut held: HashMap<String, Offer> =
        held.into_iter().map(from_row).map(|offer| (offer.fields.sku.clone(), offer)).collect();
    let now = iso_millis_now();
    let mut done = Replaced { total: offers.len(), ..Replaced::default() };
    for fields in offers {
        match held.remove(&fields.sku) {
            Some(kept) if kept.fields == *fields => done.unchanged += 1,
            Some(kept) => {
                write_fields(&mut tx, &kept.id, fields, &now).await?;
                done.updated += 1;
            }
            None => {
                insert(&mut tx, shop_id, fields, &now).await?;
                done.created += 1;
            }
        }
    }
    for gone in held.values() {
        sqlx::query("DELETE FROM offers WHERE id = $1").bind(&gone.id).execute(&mut *tx).await?;
        done.deleted += 1;
    }
    tx.commit().await?;
    Ok(done)
}

/// Apply `changes` to one of the shop's offers; None when the shop holds no such offer.
/// `updatedAt` moves only when a field changed.
pub async fn update(db: &Db, shop_id: &str, id: &str, changes: OfferChanges) -> sqlx::Result<Option<Offer>> {
    let mut tx = db.begin_write().await?;
    // Take the row's lock before reading it, so two changes of different fields both survive.
    let locked = sqlx::query("UPDATE offers SET id = id WHERE id = $1 AND shop_id = $2")
        .bind(id)
        .bind(shop_id)
        .execute(&mut *tx)
        .await?;
    if locked.rows_affected() == 0 {
        return Ok(None);
    }
    let sql = format!("SELECT {COLUMNS} FROM offers WHERE id = $1");
    let mut offer = from_row(sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(id).fetch_one(&mut *tx).await?);
    let changed = changes.apply(offer.fields.clone());
    if changed != offer.fields {
        let now = iso_millis_now();
        write_fields(&mut tx, id, &changed, &now).await?;
        offer.fields = changed;
        offer.updated_at = now;
    }
    tx.commit().await?;
    Ok(Some(offer))
}

/// Remove one of the shop's offers; false when it holds no such offer.
pub async fn delete(db: &Db, shop_id: &str, id: &str) -> sqlx::Result<bool> {
    let done = sqlx::query("DELETE FROM offers WHERE id = $1 AND shop_id = $2")
        .bind(id)
        .bind(shop_id)
        .execute(db.pool())
        .await?;
    Ok(done.rows_affected() > 0)
}

async fn insert(
    conn: &mut sqlx::AnyConnection,
    shop_id: &str,
    f: &OfferFields,
    now: &str,
) -> sqlx::Result<()> {
    let sql = format!(
        "INSERT INTO offers ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 0, $12, $12)"
    );
    sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(new_offer_id())
        .bind(shop_id)
        .bind(&f.sku)
        .bind(&f.target.kind)
        .bind(&f.target.id)
        .bind(f.price_minor)
        .bind(&f.currency)
        .bind(&f.url)
        .bind(&f.stock)
        .bind(&f.condition)
        .bind(&f.status)
        .bind(now)
        .execute(conn)
        .await?;
    Ok(())
}

/// Every field but the sku, id and clicks (which a change never touches, so a click counted
/// meanwhile is kept).
async fn write_fields(
    conn: &mut sqlx::AnyConnection,
    id: &str,
    f: &OfferFields,
    now: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE offers SET target_type = $1, target_id = $2, price_minor = $3, currency = $4, url = $5, \
         stock = $6, item_condition = $7, status = $8, updated_at = $9 WHERE id = $10",
    )
    .bind(&f.target.kind)
    .bind(&f.target.id)
    .bind(f.price_minor)
    .bind(&f.currency)
    .bind(&f.url)
    .bind(&f.stock)
    .bind(&f.condition)
    .bind(&f.status)
    .bind(now)
    .bind(id)
    .execute(conn)
    .await?;
    Ok(())
}

/// `off-` and 16 random hex digits: lower-case letters, digits and a hyphen, so the same id is
/// valid as `/v1/vendor/offers/{id}` (a record-id pattern) and `/v1/out/{offerId}`.
fn new_offer_id() -> String {
    use rand::RngExt;
    let bytes: [u8; 8] = rand::rng().random();
    format!("off-{}", hex::encode(bytes))
}
