//! The operation catalog (GET /v1/docs/operations, operation 128): every row of
//! `access::operations`, the table the router, the gate and the description read, with the plan
//! table's limits as GET /v1/docs/limits (129) serves them. Plain Rust: the HTTP layer says which
//! operations this build routes.

use serde::Serialize;

use super::operations::{OPERATIONS, Operation, Style};
use super::plan::{Plan, PlanLimits};

/// Every operation of the service with its access rules, and the limits of each plan.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OperationCatalog {
    /// How many operations the service defines (135, the health probes included).
    pub count: usize,
    /// How many of them this build serves (`served`).
    pub served_count: usize,
    /// In operation-number order.
    pub operations: Vec<CatalogOperation>,
    /// Per plan, as GET /v1/docs/limits serves them. An operation whose `limitBucket` is `api`
    /// spends `perMinute` and `perDay`; one whose bucket is `webhooks` spends `webhookPerMinute`
    /// and `webhookPerDay` instead.
    pub limits: Vec<PlanLimits>,
}

/// One operation: its number in the operation list, how it is called and what it needs.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CatalogOperation {
    pub number: u16,
    /// The OpenAPI operationId.
    pub operation_id: &'static str,
    pub method: &'static str,
    /// The path as /openapi.json spells it, parameters in braces.
    pub path: &'static str,
    /// The lowest plan whose key may call it; null: answered without a key.
    pub min_plan: Option<Plan>,
    /// How it answers and pages, with per_page's or limit's default and maximum.
    pub paging: Style,
    /// The rate-limit bucket a call spends (see `limits`); null for an operation without a key,
    /// which is not rate limited.
    pub limit_bucket: Option<LimitBucket>,
    /// Whether this build serves it yet (it is routed and in /openapi.json).
    pub served: bool,
}

/// Which of a plan's limits an operation spends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum LimitBucket {
    /// perMinute and perDay.
    Api,
    /// The six /v1/me/webhooks operations: webhookPerMinute and webhookPerDay.
    Webhooks,
}

/// The catalog of the operations table, with `limits` (the plan table in force) and `served`
/// telling the operations this build routes.
pub fn catalog(limits: &[PlanLimits], served: impl Fn(&Operation) -> bool) -> OperationCatalog {
    let operations: Vec<CatalogOperation> = OPERATIONS
        .iter()
        .map(|op| CatalogOperation {
            number: op.number,
            operation_id: op.name,
            method: op.method,
            path: op.path,
            min_plan: op.min_plan,
            paging: op.style,
            limit_bucket: op
                .min_plan
                .map(|_| if op.is_webhook() { LimitBucket::Webhooks } else { LimitBucket::Api }),
            served: served(op),
        })
        .collect();
    OperationCatalog {
        count: operations.len(),
        served_count: operations.iter().filter(|op| op.served).count(),
        operations,
        limits: limits.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::access::plan::PlanTable;

    #[test]
    fn every_row_is_listed_with_its_style_spelled_for_clients() {
        let table = PlanTable::default();
        let catalog = catalog(table.rows(), |op| op.number != 131);
        assert_eq!((catalog.count, catalog.served_count), (135, 134));
        let json = serde_json::to_value(&catalog).unwrap();
        assert_eq!(
            json["operations"][2],
            serde_json::json!({
                "number": 3, "operationId": "listFirearms", "method": "GET", "path": "/v1/firearms",
                "minPlan": "explorer", "paging": {"style": "page", "default": 20, "max": 100},
                "limitBucket": "api", "served": true
            })
        );
        assert_eq!(json["operations"][0]["paging"], serde_json::json!({"style": "flat"}));
        assert_eq!(json["operations"][109]["limitBucket"], "webhooks", "listMyWebhooks");
        assert_eq!(json["operations"][130]["served"], false);
        assert_eq!(json["limits"], serde_json::to_value(table.rows()).unwrap());
    }
}
