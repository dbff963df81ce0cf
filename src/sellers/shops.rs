//! The shops a key acts for, as their sellers see them: approval state and offer counts.

use serde::Serialize;
use utoipa::ToSchema;

use super::schema::closed_list;
use crate::db::Db;

/// A shop the key acts for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VendorShop {
    pub id: String,
    pub name: String,
    #[schema(schema_with = approval_schema)]
    pub status: Approval,
    pub offers: ShopOfferCounts,
    /// YYYY-MM-DD HH:MM:SS (UTC).
    pub created_at: String,
}

/// Whether the shop may write: one under review reads only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Approval {
    Approved,
    UnderReview,
}

fn approval_schema() -> utoipa::openapi::Schema {
    closed_list(&["approved", "under_review"], "approved, or under_review: reads only until approved")
}

/// The shop's offers, counted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct ShopOfferCounts {
    pub total: i64,
    pub published: i64,
}

/// The shops with these ids, by name.
pub async fn list(db: &Db, ids: &[String]) -> sqlx::Result<Vec<VendorShop>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let placeholders: Vec<String> = (1..=ids.len()).map(|n| format!("${n}")).collect();
    let sql = format!(
        "SELECT s.id, s.name, s.approved, s.created_at, \
           (SELECT COUNT(*) FROM offers o WHERE o.shop_id = s.id), \
           (SELECT COUNT(*) FROM offers o WHERE o.shop_id = s.id AND o.status = 'published') \
         FROM shops s WHERE s.id IN ({}) ORDER BY s.name, s.id",
        placeholders.join(", ")
    );
    let mut query = sqlx::query_as(sqlx::AssertSqlSafe(sql));
    for id in ids {
        query = query.bind(id);
    }
    let rows: Vec<(String, String, i64, String, i64, i64)> = query.fetch_all(db.pool()).await?;
    Ok(rows
        .into_iter()
        .map(|(id, name, approved, created_at, total, published)| VendorShop {
            id,
            name,
            status: if approved != 0 { Approval::Approved } else { Approval::UnderReview },
            offers: ShopOfferCounts { total, published },
            created_at,
        })
        .collect())
}
