//! The operations table binds the description: every documented route must be a row of
//! `access::operations`, and each operation's operationId, security, minimum plan, paging
//! parameters and standard error rows are written here from its row, never by hand in an
//! annotation. A route the table does not know refuses the start-up.

use utoipa::openapi::extensions::ExtensionsBuilder;
use utoipa::openapi::path::{Operation, Parameter, ParameterBuilder, ParameterIn};
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::{
    ContentBuilder, HeaderBuilder, OpenApi, Ref, RefOr, Required, ResponseBuilder, Schema,
};

use crate::access::operations::{self, Style};
use crate::access::paging::MAX_PAGE;
use crate::http::edge::idempotency;
use crate::http::extract::path;

/// A documented route missing from the operations table.
#[derive(Debug, thiserror::Error)]
#[error("{method} {path} is routed but is not a row of the operations table (access::operations)")]
pub struct UnboundRoute {
    pub method: String,
    pub path: String,
}

/// Answers that carry no ETag, so a 304 is never sent (a random draw).
const WITHOUT_ETAG: &[&str] = &["/v1/firearms/random"];

/// Write each documented operation's contract from its table row.
pub fn bind(document: &mut OpenApi) -> Result<(), UnboundRoute> {
    for (path, item) in document.paths.paths.iter_mut() {
        let methods = [
            ("GET", &mut item.get),
            ("POST", &mut item.post),
            ("PUT", &mut item.put),
            ("PATCH", &mut item.patch),
            ("DELETE", &mut item.delete),
        ];
        for (method, operation) in methods {
            let Some(operation) = operation.as_mut() else { continue };
            let row = operations::find(method, path)
                .ok_or_else(|| UnboundRoute { method: method.to_owned(), path: path.clone() })?;
            bind_operation(operation, row);
        }
    }
    Ok(())
}

fn bind_operation(operation: &mut Operation, row: &operations::Operation) {
    operation.operation_id = Some(row.name.to_owned());
    let keyed = row.min_plan.is_some();
    // One extension object: the document's extensions are a hash map, so several keys would
    // serialise in a different order on every build.
    let facts = OperationFacts { number: row.number, min_plan: row.min_plan.map(|plan| plan.id()) };
    let facts = serde_json::to_value(facts).expect("plain fields serialise");
    let built = ExtensionsBuilder::new().add("x-operation", facts).build();
    if row.min_plan.is_none() {
        // An empty list: no credential is needed (the document's default asks for a key).
        operation.security = Some(Vec::new());
    }
    match operation.extensions.as_mut() {
        Some(existing) => existing.merge(built),
        None => operation.extensions = Some(built),
    }
    bind_paging(operation, row.style);
    bind_path_parameters(operation, row.path);
    let idempotent = idempotency::applies_to(row.method, row.path);
    if idempotent {
        operation.parameters.get_or_insert_with(Vec::new).push(RefOr::T(idempotency_key()));
    }

    let has_input =
        operation.parameters.as_ref().is_some_and(|p| !p.is_empty()) || operation.request_body.is_some();
    let flat = row.style == Style::Flat;
    let responses = &mut operation.responses.responses;
    // An operation's own conflict (its annotation's 409) is kept beside the key's.
    let own_conflict = match responses.get("409") {
        Some(RefOr::T(response)) => Some(response.description.clone()),
        _ => None,
    };
    let mut add = |status: &str, response: RefOr<utoipa::openapi::Response>| {
        responses.insert(status.to_owned(), response);
    };
    if row.method == "GET"
        && matches!(row.style, Style::One | Style::Page { .. } | Style::File | Style::Limit { .. })
        && !WITHOUT_ETAG.contains(&row.path)
    {
        add(
            "304",
            RefOr::T(
                ResponseBuilder::new()
                    .description("Not modified: If-None-Match names the current ETag")
                    .build(),
            ),
        );
    }
    if has_input {
        add("400", error("Invalid parameter (details names each) or request"));
    }
    if keyed {
        add("401", error("Missing or invalid API key"));
        add("403", error("Plan, account or page depth does not allow it"));
    }
    if has_input && row.style != Style::Flat {
        // A path id, a filter naming a record, or a draw that matches nothing.
        add("404", error("No record has this id (or, for a filter, none matches)"));
    }
    if idempotent || own_conflict.is_some() {
        let key = idempotent
            .then_some("the Idempotency-Key was used for a different request, or its first is still running");
        let description =
            [own_conflict.as_deref(), key].into_iter().flatten().collect::<Vec<_>>().join("; or ");
        add("409", error(&description));
    }
    if operation.request_body.is_some() {
        add("413", error("The body is larger than 1 MB (error.maxBytes)"));
    }
    if keyed {
        add("429", with_retry_after(error("Rate limit, daily cap or page burst; Retry-After says when")));
    }
    if !flat {
        add("500", error("Internal error; quote request_id"));
    }
    if keyed {
        add(
            "503",
            with_retry_after(error(
                "A dependency (database, Redis) is unavailable, or the API is paused for maintenance \
                 (MAINTENANCE, with the operator's message); retry after Retry-After seconds",
            )),
        );
    }
}

/// Every `{name}` of the path, published with the rule `http::extract::path` enforces for that name.
fn bind_path_parameters(operation: &mut Operation, path: &str) {
    let parameters = operation.parameters.get_or_insert_with(Vec::new);
    let names = path.split('/').filter_map(|segment| segment.strip_prefix('{')?.strip_suffix('}'));
    for (at, name) in names.enumerate() {
        let description = parameters.iter().find_map(|p| match p {
            RefOr::T(p) if p.name == name && p.parameter_in == ParameterIn::Path => p.description.clone(),
            _ => None,
        });
        parameters
            .retain(|p| !matches!(p, RefOr::T(p) if p.name == name && p.parameter_in == ParameterIn::Path));
        let parameter = ParameterBuilder::new()
            .name(name)
            .parameter_in(ParameterIn::Path)
            .required(Required::True)
            .description(description)
            .schema(Some(path::rule_of(name).schema()))
            .build();
        parameters.insert(at.min(parameters.len()), RefOr::T(parameter));
    }
}

/// `page` and `per_page` (paged lists) or `limit` (rankings), with the bounds the server enforces.
fn bind_paging(operation: &mut Operation, style: Style) {
    let wanted: Vec<Parameter> = match style {
        Style::Page { default, max } => vec![
            bounded("page", "1-based page", 1, MAX_PAGE, 1),
            bounded("per_page", "page size", 1, u64::from(max), u64::from(default)),
        ],
        Style::Limit { default, max } => {
            vec![bounded("limit", "how many rows", 1, u64::from(max), u64::from(default))]
        }
        _ => return,
    };
    let parameters = operation.parameters.get_or_insert_with(Vec::new);
    parameters.retain(|p| match p {
        RefOr::T(p) => !wanted.iter().any(|w| w.name == p.name && p.parameter_in == ParameterIn::Query),
        RefOr::Ref(_) => true,
    });
    parameters.splice(0..0, wanted.into_iter().map(RefOr::T));
}

/// The optional `Idempotency-Key` header (`http::edge::idempotency`).
fn idempotency_key() -> Parameter {
    let schema = ObjectBuilder::new()
        .schema_type(Type::String)
        .min_length(Some(1))
        .max_length(Some(idempotency::MAX_KEY_CHARS))
        .pattern(Some(idempotency::KEY_PATTERN))
        .build();
    ParameterBuilder::new()
        .name("Idempotency-Key")
        .parameter_in(ParameterIn::Header)
        .required(Required::False)
        .description(Some(
            "Makes a retry safe: the same key and the same request within 24 hours answer the first \
             successful answer again (header Idempotent-Replayed: true) without a second write; the same \
             key with a different request is 409. A refused request does not keep its key.",
        ))
        .schema(Some(Schema::Object(schema)))
        .build()
}

fn bounded(name: &str, description: &str, minimum: u64, maximum: u64, default: u64) -> Parameter {
    let schema = ObjectBuilder::new()
        .schema_type(Type::Integer)
        .minimum(Some(minimum))
        .maximum(Some(maximum))
        .default(Some(default.into()))
        .build();
    ParameterBuilder::new()
        .name(name)
        .parameter_in(ParameterIn::Query)
        .required(Required::False)
        .description(Some(format!(
            "{description}: {minimum} to {maximum}, default {default}; out of bounds is 400, never clamped"
        )))
        .schema(Some(Schema::Object(schema)))
        .build()
}

fn error(description: &str) -> RefOr<utoipa::openapi::Response> {
    let content =
        ContentBuilder::new().schema(Some(RefOr::Ref(Ref::from_schema_name("ErrorEnvelope")))).build();
    RefOr::T(ResponseBuilder::new().description(description).content("application/json", content).build())
}

fn with_retry_after(response: RefOr<utoipa::openapi::Response>) -> RefOr<utoipa::openapi::Response> {
    let RefOr::T(mut response) = response else { return response };
    let seconds = HeaderBuilder::new()
        .schema(Some(Schema::Object(ObjectBuilder::new().schema_type(Type::Integer).build())))
        .description(Some("Seconds until a retry can succeed"))
        .build();
    response.headers.insert("Retry-After".to_owned(), RefOr::T(seconds));
    RefOr::T(response)
}

/// The `x-operation` extension: the operation's number in the specification and its minimum plan
/// (null: no key needed).
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct OperationFacts {
    number: u16,
    min_plan: Option<&'static str>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use utoipa::openapi::path::{HttpMethod, PathItem};
    use utoipa::openapi::{OpenApiBuilder, PathsBuilder};

    fn document_with(path: &str) -> OpenApi {
        let item = PathItem::new(HttpMethod::Get, Operation::new());
        OpenApiBuilder::new().paths(PathsBuilder::new().path(path, item)).build()
    }

    #[test]
    fn a_route_missing_from_the_table_is_refused() {
        let error = bind(&mut document_with("/v1/not-an-operation")).unwrap_err();
        assert_eq!((error.method.as_str(), error.path.as_str()), ("GET", "/v1/not-an-operation"));
    }

    #[test]
    fn a_row_writes_id_security_paging_and_error_rows() {
        let mut document = document_with("/v1/manufacturers/{id}/firearms");
        bind(&mut document).unwrap();
        let operation = document.paths.paths["/v1/manufacturers/{id}/firearms"].get.as_ref().unwrap();
        assert_eq!(operation.operation_id.as_deref(), Some("listManufacturerFirearms"));
        let statuses: Vec<&str> = operation.responses.responses.keys().map(String::as_str).collect();
        assert_eq!(statuses, ["304", "400", "401", "403", "404", "429", "500", "503"]);
        let names: Vec<&str> = operation
            .parameters
            .iter()
            .flatten()
            .map(|p| match p {
                RefOr::T(p) => p.name.as_str(),
                RefOr::Ref(_) => "ref",
            })
            .collect();
        assert_eq!(names, ["id", "page", "per_page"]);

        let mut document = document_with("/health");
        bind(&mut document).unwrap();
        let health = document.paths.paths["/health"].get.as_ref().unwrap();
        assert_eq!(health.security.as_ref().map(Vec::len), Some(0), "keyless");
        assert!(health.responses.responses.is_empty());
    }
}
