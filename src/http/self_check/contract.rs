//! The contract run (operation 132 and `armory contract`): every documented operation called in
//! process (`run`) and checked against a description, with totals, the time of the run and the
//! catalog revision; kept 5 minutes (`kept::Kept`).

use std::time::Instant;

use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::arguments::Arguments;
use super::json_schema::Checker;
use super::run::{self, OperationCheck, Outcome};
use crate::error::ApiError;
use crate::http::{AppState, openapi, routes};

/// A whole run of documented operations: the contract run (132) or the examples run (133).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SelfCheckRun {
    /// True only when no operation failed (skipped ones are not passes, and do not fail it).
    pub passed: bool,
    /// The catalog revision the run read.
    pub revision: i64,
    /// When the run started (RFC 3339, UTC).
    pub started_at: String,
    /// How long it took, in milliseconds.
    pub duration_ms: u64,
    pub totals: Totals,
    /// The failing operations, also listed among `operations`.
    pub failures: Vec<OperationCheck>,
    /// Every documented operation, in the description's order.
    pub operations: Vec<OperationCheck>,
}

/// How many checks passed, failed and were skipped.
#[derive(Debug, Clone, Copy, Default, Serialize, ToSchema)]
pub struct Totals {
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
}

impl Totals {
    pub fn of(outcomes: impl IntoIterator<Item = Outcome>) -> Self {
        let mut totals = Self::default();
        for outcome in outcomes {
            match outcome {
                Outcome::Passed => totals.passed += 1,
                Outcome::Failed => totals.failed += 1,
                Outcome::Skipped => totals.skipped += 1,
            }
        }
        totals
    }
}

/// The description the node serves, as JSON: `routes::openapi_document` with its server set as
/// `routes::build` sets it.
pub fn served_description(state: &AppState) -> Value {
    let mut document = routes::openapi_document();
    openapi::set_server(&mut document, state.config.public_url.as_deref());
    serde_json::to_value(document).expect("the description serialises")
}

/// Calls every operation `description` documents through the service's own router and checks each
/// answer against `description`.
pub async fn run(state: &AppState, description: &Value) -> Result<SelfCheckRun, ApiError> {
    let started = Started::now(state);
    let edge = run::router(state)?;
    let arguments = Arguments::find(state).await;
    let checker = Checker::new(description);
    let mut operations = Vec::new();
    for (method, template, operation) in run::documented(description) {
        operations.push(run::check_operation(&edge, &checker, &arguments, method, template, operation).await);
    }
    Ok(SelfCheckRun::finish(started, operations))
}

/// When a run started, and on which catalog revision.
pub struct Started {
    pub revision: i64,
    /// RFC 3339, UTC.
    pub at: String,
    clock: Instant,
}

impl Started {
    pub fn now(state: &AppState) -> Self {
        let revision = state.catalog.current().revision;
        Self { revision, at: crate::clock::rfc3339_now(), clock: Instant::now() }
    }

    /// Milliseconds since the start.
    pub fn duration_ms(&self) -> u64 {
        self.clock.elapsed().as_millis().try_into().unwrap_or(u64::MAX)
    }
}

impl SelfCheckRun {
    /// The run of `operations`, begun at `started`.
    pub fn finish(started: Started, operations: Vec<OperationCheck>) -> Self {
        let totals = Totals::of(operations.iter().map(|check| check.status));
        let failures = operations.iter().filter(|c| c.status == Outcome::Failed).cloned().collect();
        Self {
            passed: totals.failed == 0,
            revision: started.revision,
            duration_ms: started.duration_ms(),
            started_at: started.at,
            totals,
            failures,
            operations,
        }
    }
}
