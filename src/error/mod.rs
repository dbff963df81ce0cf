//! The error contract: `ApiError` and its reasons (the 39 of the contract and those added), below every layer that can refuse a request.
//!
//! Handlers return `Result<_, ApiError>` and use `?`. Plain Rust, no HTTP types: `http::error`
//! turns an `ApiError` into a response that carries the error itself as an extension, and the
//! envelope middleware (`http::edge::envelope`) renders the JSON body once it knows the request
//! id, so every error, wherever it arose, gets the same envelope.

use serde_json::{Map, Value, json};

mod reason;

pub use reason::Reason;

/// The largest JSON request body the service reads (1 MB).
pub const MAX_JSON_BODY_BYTES: u64 = 1024 * 1024;

#[derive(Debug, Clone)]
pub struct ApiError {
    pub reason: Reason,
    pub message: String,
    /// Boxed: it is rare, and keeps `Result<_, ApiError>` small on the hot path.
    pub details: Option<Box<Value>>,
    /// Seconds for the Retry-After header (429 and maintenance 503).
    pub retry_after: Option<u64>,
    /// Only on 413: the limit the body broke.
    pub max_bytes: Option<u64>,
}

impl ApiError {
    pub fn new(reason: Reason, message: impl Into<String>) -> Self {
        Self { reason, message: message.into(), details: None, retry_after: None, max_bytes: None }
    }

    pub fn with_details(mut self, details: Value) -> Self {
        self.details = Some(Box::new(details));
        self
    }

    /// Adds one field to `details` (an object), keeping those already there.
    pub fn with_detail(mut self, key: &str, value: impl Into<Value>) -> Self {
        match self.details.as_deref_mut() {
            Some(Value::Object(fields)) => {
                fields.insert(key.to_owned(), value.into());
            }
            _ => {
                self.details = Some(Box::new(Value::Object(Map::from_iter([(key.to_owned(), value.into())]))))
            }
        }
        self
    }

    pub fn with_retry_after(mut self, seconds: u64) -> Self {
        self.retry_after = Some(seconds);
        self
    }

    /// 400 INVALID_PARAMETER naming each bad field: `details: {field: problem}`.
    pub fn invalid_parameters(fields: Map<String, Value>) -> Self {
        let names: Vec<&str> = fields.keys().map(String::as_str).collect();
        let message = format!("Invalid parameter: {}", names.join(", "));
        Self::new(Reason::InvalidParameter, message).with_details(Value::Object(fields))
    }

    pub fn invalid_parameter(field: &str, problem: impl Into<String>) -> Self {
        let mut fields = Map::new();
        fields.insert(field.to_owned(), Value::String(problem.into()));
        Self::invalid_parameters(fields)
    }

    pub fn not_found(what: &str, id: &str) -> Self {
        Self::new(Reason::ResourceNotFound, format!("No {what} has the id '{id}'."))
    }

    /// 404 naming every id of a list that no record has (`details.missing`).
    pub fn missing_ids(what: &str, missing: &[&String]) -> Self {
        let names: Vec<&str> = missing.iter().map(|s| s.as_str()).collect();
        Self::new(Reason::ResourceNotFound, format!("No {what} has the id: {}.", names.join(", ")))
            .with_detail("missing", names)
    }

    pub fn route_not_found() -> Self {
        Self::new(Reason::RouteNotFound, "No endpoint answers this method and path.")
    }

    pub fn payload_too_large() -> Self {
        let mut error = Self::new(
            Reason::PayloadTooLarge,
            format!("The request body is larger than {MAX_JSON_BODY_BYTES} bytes."),
        );
        error.max_bytes = Some(MAX_JSON_BODY_BYTES);
        error
    }

    /// A 500 whose cause is logged here, once, and never sent to the client.
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        tracing::error!(error = %cause, "internal error");
        Self::new(Reason::InternalError, "The service failed to answer; quote request_id to support.")
    }

    /// The envelope body for this error.
    pub fn body(&self, request_id: &str) -> Value {
        let mut error = json!({
            "code": self.reason.code(),
            "reason": self.reason.identifier(),
            "message": self.message,
        });
        if let Some(details) = &self.details {
            error["details"] = (**details).clone();
        }
        if let Some(max_bytes) = self.max_bytes {
            error["maxBytes"] = json!(max_bytes);
        }
        json!({ "success": false, "error": error, "request_id": request_id })
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.reason.identifier(), self.message)
    }
}

/// Seconds a client is asked to wait when a dependency (database, Redis) is unavailable.
pub const DEPENDENCY_RETRY_AFTER_SECS: u64 = 5;

impl ApiError {
    /// 503 DEPENDENCY_UNAVAILABLE with Retry-After; the cause is logged here, once, and never sent.
    pub fn dependency_unavailable(what: &str, cause: impl std::fmt::Display) -> Self {
        tracing::error!(error = %cause, dependency = what, "a dependency is unavailable");
        Self::new(
            Reason::DependencyUnavailable,
            format!("The {what} is temporarily unavailable; retry shortly."),
        )
        .with_retry_after(DEPENDENCY_RETRY_AFTER_SECS)
    }
}

/// A database failure is the client's to retry (503) when the database could not be reached or
/// was busy, and ours (500) when the query itself failed.
impl From<sqlx::Error> for ApiError {
    fn from(error: sqlx::Error) -> Self {
        if crate::db::is_unavailable(&error) {
            Self::dependency_unavailable("database", error)
        } else {
            Self::internal(error)
        }
    }
}
