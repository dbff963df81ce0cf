//! The four plans and what each allows (decisions.md "Plans and limits"), configurable per plan.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Plan {
    Explorer,
    Builder,
    Studio,
    Enterprise,
}

impl Plan {
    pub const ALL: [Plan; 4] = [Plan::Explorer, Plan::Builder, Plan::Studio, Plan::Enterprise];

    /// The lower-case id used on the wire (`details.requiredTier`) and in the database.
    pub fn id(self) -> &'static str {
        match self {
            Plan::Explorer => "explorer",
            Plan::Builder => "builder",
            Plan::Studio => "studio",
            Plan::Enterprise => "enterprise",
        }
    }

    pub fn parse(text: &str) -> Option<Plan> {
        Plan::ALL.into_iter().find(|plan| plan.id().eq_ignore_ascii_case(text.trim()))
    }

    pub fn name(self) -> &'static str {
        match self {
            Plan::Explorer => "Explorer",
            Plan::Builder => "Builder",
            Plan::Studio => "Studio",
            Plan::Enterprise => "Enterprise",
        }
    }
}

impl std::fmt::Display for Plan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// One plan's limits.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlanLimits {
    #[schema(value_type = String)]
    pub plan: Plan,
    #[schema(value_type = i64)]
    pub per_minute: u64,
    #[schema(value_type = i64)]
    pub per_day: u64,
    #[schema(value_type = i64)]
    pub per_month: u64,
    // The deepest page of a paged list.
    /// null: unlimited.
    #[schema(value_type = Option<i64>)]
    pub page_depth: Option<u32>,
    /// Whether paged answers carry total and totalPages.
    pub totals: bool,
    #[schema(value_type = i64)]
    pub mcp_per_day: u64,
    #[schema(value_type = i64)]
    pub webhook_endpoints: u32,
    #[schema(value_type = i64)]
    pub webhook_per_minute: u64,
    #[schema(value_type = i64)]
    pub webhook_per_day: u64,
    #[schema(value_type = i64)]
    pub webhook_per_month: u64,
}

/// The plan table in force: the defaults of decisions.md, overridable by `ARMORY_PLAN_LIMITS`.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanTable {
    rows: [PlanLimits; 4],
}

impl Default for PlanTable {
    fn default() -> Self {
        let row = |plan,
                   per_minute,
                   per_day,
                   per_month,
                   page_depth,
                   totals,
                   mcp_per_day,
                   webhook_endpoints,
                   factor: u64| {
            PlanLimits {
                plan,
                per_minute,
                per_day,
                per_month,
                page_depth,
                totals,
                mcp_per_day,
                webhook_endpoints,
                // The webhook operations' own bucket: Explorer 10/min, 50/day, 200/month, doubling per plan.
                webhook_per_minute: 10 * factor,
                webhook_per_day: 50 * factor,
                webhook_per_month: 200 * factor,
            }
        };
        Self {
            rows: [
                row(Plan::Explorer, 10, 50, 1_000, Some(5), false, 20, 0, 1),
                row(Plan::Builder, 60, 2_000, 25_000, Some(25), true, 500, 0, 2),
                row(Plan::Studio, 120, 10_000, 100_000, None, true, 2_500, 5, 4),
                row(Plan::Enterprise, 600, 50_000, 1_000_000, None, true, 10_000, 20, 8),
            ],
        }
    }
}

impl PlanTable {
    pub fn get(&self, plan: Plan) -> &PlanLimits {
        &self.rows[plan as usize]
    }

    pub fn rows(&self) -> &[PlanLimits] {
        &self.rows
    }

    /// Apply overrides written `plan.setting=value`, comma-separated, e.g.
    /// `builder.per_minute=120,explorer.per_day=100`. Settings: per_minute, per_day, per_month,
    /// page_depth (0 = unlimited), mcp_per_day, webhook_endpoints.
    pub fn with_overrides(mut self, spec: &str) -> Result<Self, String> {
        for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (key, value) =
                item.split_once('=').ok_or_else(|| format!("'{item}' is not plan.setting=value"))?;
            let (plan, setting) =
                key.split_once('.').ok_or_else(|| format!("'{key}' is not plan.setting"))?;
            let plan = Plan::parse(plan).ok_or_else(|| format!("'{plan}' is not a plan"))?;
            let value: u64 = value.trim().parse().map_err(|_| format!("'{value}' is not a whole number"))?;
            let row = &mut self.rows[plan as usize];
            match setting.trim() {
                "per_minute" => row.per_minute = value,
                "per_day" => row.per_day = value,
                "per_month" => row.per_month = value,
                "page_depth" => row.page_depth = (value > 0).then_some(value as u32),
                "mcp_per_day" => row.mcp_per_day = value,
                "webhook_endpoints" => row.webhook_endpoints = value as u32,
                "webhook_per_minute" => row.webhook_per_minute = value,
                "webhook_per_day" => row.webhook_per_day = value,
                other => return Err(format!("'{other}' is not a plan setting")),
            }
        }
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_the_decisions_table() {
        let table = PlanTable::default();
        assert_eq!(table.get(Plan::Builder).per_minute, 60);
        assert_eq!(table.get(Plan::Explorer).page_depth, Some(5));
        assert_eq!(table.get(Plan::Studio).page_depth, None);
        assert_eq!(table.get(Plan::Enterprise).webhook_per_minute, 80);
        assert!(!table.get(Plan::Explorer).totals);
    }

    #[test]
    fn overrides_change_one_setting() {
        let table =
            PlanTable::default().with_overrides("builder.per_minute=5, explorer.page_depth=0").unwrap();
        assert_eq!(table.get(Plan::Builder).per_minute, 5);
        assert_eq!(table.get(Plan::Explorer).page_depth, None);
        assert!(PlanTable::default().with_overrides("gold.per_minute=1").is_err());
    }

    #[test]
    fn plans_parse_case_insensitively_and_order_by_tier() {
        assert_eq!(Plan::parse("Studio"), Some(Plan::Studio));
        assert!(Plan::Explorer < Plan::Builder && Plan::Studio < Plan::Enterprise);
    }
}
