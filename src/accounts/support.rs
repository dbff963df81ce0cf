//! Support tickets (operations 106 to 109): an account opens a ticket, both sides add messages.
//! A customer's reply moves a `waiting` (or `resolved`) ticket back to `open`; a staff reply
//! (`armory support reply`) moves it to `waiting`; a `closed` ticket takes no more replies.

use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;

use super::schema::{https_link, ticket_category, ticket_priority, ticket_status};
use super::{AccountError, Result, new_id};
use crate::db::Db;

pub const STATUSES: &[&str] = &["open", "in_progress", "waiting", "resolved", "closed"];
pub const PRIORITIES: &[&str] = &["low", "normal", "high", "urgent"];
pub const CATEGORIES: &[&str] = &["billing", "technical", "data_quality", "feature_request", "other"];
/// The orders a ticket list can take (`sort`).
pub const SORTS: &[&str] = &["created_at", "updated_at", "status", "priority"];
/// At most this many attachments per ticket (the ticket's own and its messages' together).
pub const MAX_ATTACHMENTS: usize = 20;

/// A file linked to a ticket or a message (the service keeps the link, not the file).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize, ToSchema)]
#[schema(as = TicketAttachment)]
pub struct Attachment {
    #[schema(min_length = 1, max_length = 200, pattern = "\\S")]
    pub name: String,
    #[schema(schema_with = https_link)]
    pub url: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = SupportTicket)]
pub struct Ticket {
    pub id: String,
    #[serde(skip)]
    pub account_id: String,
    pub subject: String,
    pub description: String,
    #[schema(schema_with = ticket_category)]
    pub category: String,
    #[schema(schema_with = ticket_priority)]
    pub priority: String,
    /// open, in_progress, waiting (for the customer), resolved, closed.
    #[schema(schema_with = ticket_status)]
    pub status: String,
    pub attachments: Vec<Attachment>,
    pub message_count: i64,
    pub created_at: String,
    pub updated_at: String,
    pub closed_at: Option<String>,
}

/// One message of a ticket's thread.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = TicketMessage)]
pub struct Message {
    /// 1, 2, ... in the order the messages were added.
    #[serde(rename = "id")]
    pub position: i64,
    /// customer or staff
    pub author: String,
    pub message: String,
    pub attachments: Vec<Attachment>,
    pub created_at: String,
}

/// A ticket with its messages, oldest first.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[schema(as = SupportTicketDetail)]
pub struct TicketDetail {
    #[serde(flatten)]
    pub ticket: Ticket,
    pub messages: Vec<Message>,
}

#[derive(Debug, Clone)]
pub struct NewTicket {
    pub subject: String,
    pub description: String,
    pub category: String,
    pub priority: String,
    pub attachments: Vec<Attachment>,
}

pub async fn open(db: &Db, account_id: &str, new: NewTicket) -> sqlx::Result<Ticket> {
    let id = new_id("tkt-");
    let now = crate::clock::sql_now();
    sqlx::query(
        "INSERT INTO support_tickets (id, account_id, subject, description, category, priority, status, \
         attachments, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, 'open', $7, $8, $8)",
    )
    .bind(&id)
    .bind(account_id)
    .bind(&new.subject)
    .bind(&new.description)
    .bind(&new.category)
    .bind(&new.priority)
    .bind(json!(new.attachments).to_string())
    .bind(&now)
    .execute(db.pool())
    .await?;
    Ok(find(db, Some(account_id), &id).await?.expect("the ticket was just written"))
}

const COLUMNS: &str = "t.id, t.account_id, t.subject, t.description, t.category, t.priority, t.status, \
     t.attachments, (SELECT COUNT(*) FROM support_messages m WHERE m.ticket_id = t.id), t.created_at, \
     t.updated_at, t.closed_at";

type Row =
    (String, String, String, String, String, String, String, String, i64, String, String, Option<String>);

fn from_row(row: Row) -> Ticket {
    let (id, account_id, subject, description, category, priority, status, attachments, count, c, u, closed) =
        row;
    Ticket {
        id,
        account_id,
        subject,
        description,
        category,
        priority,
        status,
        attachments: serde_json::from_str(&attachments).unwrap_or_default(),
        message_count: count,
        created_at: c,
        updated_at: u,
        closed_at: closed,
    }
}

/// One ticket: the account's own (`Some(account)`; another account's is None) or any (staff).
pub async fn find(db: &Db, account_id: Option<&str>, id: &str) -> sqlx::Result<Option<Ticket>> {
    find_in(&mut *db.pool().acquire().await?, account_id, id).await
}

async fn find_in(
    conn: &mut sqlx::AnyConnection,
    account_id: Option<&str>,
    id: &str,
) -> sqlx::Result<Option<Ticket>> {
    let row: Option<Row> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM support_tickets t WHERE t.id = $1 AND ($2 IS NULL OR t.account_id = $2)"
    )))
    .bind(id)
    .bind(account_id)
    .fetch_optional(&mut *conn)
    .await?;
    Ok(row.map(from_row))
}

/// How a ticket list is ordered.
#[derive(Debug, Clone, Copy)]
pub struct Order {
    /// One of `SORTS`.
    pub sort: &'static str,
    pub descending: bool,
}

/// Tickets: the account's own or everyone's (staff), optionally only those with `status`. Status
/// and priority sort by their place in the vocabulary (urgent above low), not alphabetically.
pub async fn list(
    db: &Db,
    account_id: Option<&str>,
    status: Option<&str>,
    order: Order,
) -> sqlx::Result<Vec<Ticket>> {
    let rank = |column: &str, values: &[&str]| {
        let arms: String =
            values.iter().enumerate().map(|(at, value)| format!(" WHEN '{value}' THEN {at}")).collect();
        format!("CASE t.{column}{arms} END")
    };
    let key = match order.sort {
        "updated_at" => "t.updated_at".to_owned(),
        "status" => rank("status", STATUSES),
        "priority" => rank("priority", PRIORITIES),
        _ => "t.created_at".to_owned(),
    };
    let direction = if order.descending { "DESC" } else { "ASC" };
    let rows: Vec<Row> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM support_tickets t WHERE ($1 IS NULL OR t.account_id = $1) \
         AND ($2 IS NULL OR t.status = $2) ORDER BY {key} {direction}, t.created_at {direction}, t.id"
    )))
    .bind(account_id)
    .bind(status)
    .fetch_all(db.pool())
    .await?;
    Ok(rows.into_iter().map(from_row).collect())
}

/// A ticket's messages, oldest first.
pub async fn messages(db: &Db, ticket_id: &str) -> sqlx::Result<Vec<Message>> {
    let rows: Vec<(i64, String, String, String, String)> = sqlx::query_as(
        "SELECT position, author, message, attachments, created_at FROM support_messages \
         WHERE ticket_id = $1 ORDER BY position",
    )
    .bind(ticket_id)
    .fetch_all(db.pool())
    .await?;
    Ok(rows
        .into_iter()
        .map(|(position, author, message, attachments, created_at)| Message {
            position,
            author,
            message,
            attachments: serde_json::from_str(&attachments).unwrap_or_default(),
            created_at,
        })
        .collect())
}

/// Who writes a reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Author {
    Customer,
    Staff,
}

impl Author {
    fn id(self) -> &'static str {
        match self {
            Author::Customer => "customer",
            Author::Staff => "staff",
        }
    }
}

/// Append a message. The customer's (`Some(account)`) reaches only the account's own tickets.
/// The ticket's row is updated first, which holds it, so concurrent replies number in turn.
pub async fn reply(
    db: &Db,
    account_id: Option<&str>,
    ticket_id: &str,
    author: Author,
    message: &str,
    attachments: &[Attachment],
) -> Result<Ticket> {
    let mut tx = db.begin_write().await?;
    let unknown = || AccountError::UnknownTicket(ticket_id.to_owned());
    let ticket = find_in(&mut tx, account_id, ticket_id).await?.ok_or_else(unknown)?;
    if ticket.status == "closed" {
        return Err(AccountError::TicketClosed(ticket_id.to_owned()));
    }
    let held = ticket.attachments.len() + attachments_of_messages(&mut tx, ticket_id).await?;
    if held + attachments.len() > MAX_ATTACHMENTS {
        return Err(AccountError::TooManyAttachments { held, limit: MAX_ATTACHMENTS });
    }
    let status = match (author, ticket.status.as_str()) {
        (Author::Staff, _) => "waiting",
        (Author::Customer, "waiting" | "resolved") => "open",
        (Author::Customer, other) => other,
    };
    let now = crate::clock::sql_now();
    sqlx::query("UPDATE support_tickets SET status = $1, updated_at = $2 WHERE id = $3")
        .bind(status)
        .bind(&now)
        .bind(ticket_id)
        .execute(&mut *tx)
        .await?;
    let (last,): (Option<i64>,) =
        sqlx::query_as("SELECT MAX(position) FROM support_messages WHERE ticket_id = $1")
            .bind(ticket_id)
            .fetch_one(&mut *tx)
            .await?;
    sqlx::query(
        "INSERT INTO support_messages (ticket_id, position, author, message, attachments, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(ticket_id)
    .bind(last.unwrap_or(0) + 1)
    .bind(author.id())
    .bind(message)
    .bind(json!(attachments).to_string())
    .bind(&now)
    .execute(&mut *tx)
    .await?;
    let ticket = find_in(&mut tx, None, ticket_id).await?.ok_or_else(unknown)?;
    tx.commit().await?;
    Ok(ticket)
}

async fn attachments_of_messages(conn: &mut sqlx::AnyConnection, ticket_id: &str) -> sqlx::Result<usize> {
    let rows: Vec<(String,)> =
        sqlx::query_as("SELECT attachments FROM support_messages WHERE ticket_id = $1")
            .bind(ticket_id)
            .fetch_all(&mut *conn)
            .await?;
    Ok(rows.iter().map(|(json,)| serde_json::from_str::<Vec<Attachment>>(json).map_or(0, |a| a.len())).sum())
}

/// Staff set a ticket's status; `closed` stamps `closedAt`, any other clears it.
pub async fn set_status(db: &Db, ticket_id: &str, status: &str) -> Result<Ticket> {
    if !STATUSES.contains(&status) {
        return Err(AccountError::UnknownTicketStatus(status.to_owned()));
    }
    let now = crate::clock::sql_now();
    let closed_at = (status == "closed").then_some(now.as_str());
    let done =
        sqlx::query("UPDATE support_tickets SET status = $1, updated_at = $2, closed_at = $3 WHERE id = $4")
            .bind(status)
            .bind(&now)
            .bind(closed_at)
            .bind(ticket_id)
            .execute(db.pool())
            .await?;
    if done.rows_affected() == 0 {
        return Err(AccountError::UnknownTicket(ticket_id.to_owned()));
    }
    Ok(find(db, None, ticket_id).await?.expect("the ticket exists"))
}
