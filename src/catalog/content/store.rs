//! Content in the database: `content_items`, one row per item with its kind, version (a digest
//! of its served record), record and times. The catalog import writes it in its own transaction
//! (`sync`) and moves `content_revision`; every node reads it whole (`read_all`) when that moves.

use std::collections::HashMap;

use serde::Serialize;
use sqlx::AnyConnection;

use super::{Content, Kind};
use crate::catalog::import::Counts;
use crate::catalog::rows::version_of;

/// One stored item: its kind's name, id, record (JSON text) and the spec's times.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StoredItem {
    pub kind: String,
    pub id: String,
    pub version: String,
    pub record: String,
    pub created_at: String,
    pub updated_at: String,
}

/// Make the stored content `content`: items created, changed (a new version and `updated_at`) and
/// deleted as the files say, counted per kind; `content_revision` moves when anything changed.
pub async fn sync(
    conn: &mut AnyConnection,
    content: &Content,
    now: &str,
) -> sqlx::Result<Vec<(&'static str, Counts)>> {
    let stored: Vec<(String, String, String)> =
        sqlx::query_as("SELECT kind, id, version FROM content_items").fetch_all(&mut *conn).await?;
    let mut versions: HashMap<(String, String), String> =
        stored.into_iter().map(|(kind, id, version)| ((kind, id), version)).collect();
    let mut per_kind = Vec::new();
    for kind in Kind::ALL {
        let records = match kind {
            Kind::Changelog => records(&content.changelog, |entry| &entry.id),
            Kind::Blog => records(&content.blog, |post| &post.id),
            Kind::Notices => records(&content.notices, |notice| &notice.id),
        };
        let mut counts = Counts::default();
        for (id, record) in records {
            let version = version_of(&record);
            let text = record.to_string();
            match versions.remove(&(kind.name().to_owned(), id.clone())) {
                Some(stored) if stored == version => counts.unchanged += 1,
                Some(_) => {
                    sqlx::query(
                        "UPDATE content_items SET version = $1, record = $2, updated_at = $3 WHERE kind = $4 AND id = $5",
                    )
                    .bind(&version)
                    .bind(&text)
                    .bind(now)
                    .bind(kind.name())
                    .bind(&id)
                    .execute(&mut *conn)
                    .await?;
                    counts.updated += 1;
                }
                None => {
                    sqlx::query(
                        "INSERT INTO content_items (kind, id, version, record, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)",
                    )
                    .bind(kind.name())
                    .bind(&id)
                    .bind(&version)
                    .bind(&text)
                    .bind(now)
                    .execute(&mut *conn)
                    .await?;
                    counts.created += 1;
                }
            }
        }
        per_kind.push((kind.name(), counts));
    }
    // What is left was stored but is in no file any more.
    for ((kind, id), _) in versions {
        sqlx::query("DELETE FROM content_items WHERE kind = $1 AND id = $2")
            .bind(&kind)
            .bind(&id)
            .execute(&mut *conn)
            .await?;
        if let Some((_, counts)) = per_kind.iter_mut().find(|(name, _)| *name == kind) {
            counts.deleted += 1;
        }
    }
    let changed = per_kind.iter().any(|(_, c)| c.created + c.updated + c.deleted > 0);
    if changed {
        sqlx::query("UPDATE service_state SET value = value + 1 WHERE name = 'content_revision'")
            .execute(&mut *conn)
            .await?;
    }
    Ok(per_kind)
}

/// Each record's id and served JSON.
fn records<T: Serialize>(items: &[T], id: impl Fn(&T) -> &String) -> Vec<(String, serde_json::Value)> {
    items
        .iter()
        .map(|item| (id(item).clone(), serde_json::to_value(item).expect("content serialises")))
        .collect()
}

/// The content revision: moved by every import that changed the content.
pub async fn content_revision(conn: &mut AnyConnection) -> sqlx::Result<i64> {
    let (revision,): (i64,) =
        sqlx::query_as("SELECT value FROM service_state WHERE name = 'content_revision'")
            .fetch_one(&mut *conn)
            .await?;
    Ok(revision)
}

/// The stored content at its revision, read in one transaction.
pub async fn read_all(db: &crate::db::Db) -> sqlx::Result<(i64, Vec<StoredItem>)> {
    let mut tx = db.pool().begin().await?;
    let revision = content_revision(&mut tx).await?;
    let items = sqlx::query_as(
        "SELECT kind, id, version, record, created_at, updated_at FROM content_items ORDER BY kind, id",
    )
    .fetch_all(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok((revision, items))
}
