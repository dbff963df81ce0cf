//! The shops a key acts for, as their sellers see them: approval state and offer counts.

use crate::db::Db;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShopView {
    pub id: String,
    pub name: String,
    pub approved: bool,
    pub offers: i64,
    pub published: i64,
    pub created_at: String,
}

/// The shops with these ids, by name.
pub async fn list(db: &Db, ids: &[String]) -> sqlx::Result<Vec<ShopView>> {
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
        .map(|(id, name, approved, created_at, offers, published)| ShopView {
            id,
            name,
            approved: approved != 0,
            offers,
            published,
            created_at,
        })
        .collect())
}
