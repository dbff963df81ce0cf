//! Schemas of the account reads and the public plan table.

use utoipa::ToSchema;

/// This month's requests against the monthly allowance.
#[derive(ToSchema)]
pub struct UsageMonth {
    /// YYYY-MM
    month: String,
    used: i64,
    allowance: i64,
}

/// Today's requests against the daily cap (UTC).
#[derive(ToSchema)]
pub struct UsageToday {
    /// YYYY-MM-DD
    date: String,
    used: i64,
    cap: i64,
}

#[derive(ToSchema)]
pub struct UsageDay {
    date: String,
    count: i64,
}

#[derive(ToSchema)]
pub struct Usage {
    /// explorer, builder, studio, enterprise
    plan: String,
    month: UsageMonth,
    today: UsageToday,
    days: Vec<UsageDay>,
}

/// One plan's limits.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct PlanLimits {
    plan: String,
    per_minute: i64,
    per_day: i64,
    per_month: i64,
    /// null: unlimited.
    page_depth: Option<i64>,
    /// Whether paged answers carry total and totalPages.
    totals: bool,
    mcp_per_day: i64,
    webhook_endpoints: i64,
    webhook_per_minute: i64,
    webhook_per_day: i64,
    webhook_per_month: i64,
}

/// The caller's favorite firearm ids, newest first.
#[derive(ToSchema)]
pub struct FavoriteIds {
    ids: Vec<String>,
}

/// The outcome of adding or removing a favorite.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct FavoriteChange {
    firearm_id: String,
    /// Whether the firearm is a favorite now.
    favorite: bool,
    /// Whether this call added it (false when it already was one, and on removal).
    added: bool,
}

/// A collection just published.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct CollectionCreated {
    /// 128 random bits, hex: whoever holds it can read the collection.
    share_id: String,
    name: String,
    firearm_count: i64,
    /// Where it is read, without a key (absolute with ARMORY_PUBLIC_URL, else relative).
    url: String,
    created_at: String,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct CollectionOwner {
    /// The name the owner chose; null until set. Never the e-mail.
    display_name: Option<String>,
}

/// A shared collection as anyone holding its id reads it.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct SharedCollection {
    share_id: String,
    name: String,
    owner: CollectionOwner,
    created_at: String,
    firearms: Vec<super::FirearmListItem>,
}
