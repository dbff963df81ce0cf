//! Every route of the service, listed in one place.
//!
//! Documented operations are registered through `OpenApiRouter::routes`, so the router and the
//! OpenAPI description are built from the same list and cannot drift apart.

use std::collections::BTreeSet;
use std::sync::{Arc, OnceLock};

use axum::Router;
use axum::routing::get;
use utoipa::OpenApi;
use utoipa::openapi::OpenApi as OpenApiDocument;
use utoipa::openapi::path::HttpMethod;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::access::operations::{OPERATIONS, Operation};
use crate::error::ApiError;
use crate::http::account::{collections, favorites, reports, support, usage, webhooks};
use crate::http::catalog::{
    ammunition, attachments, calibers, categories, countries, firearms, game_stats_versions,
    manufacturer_history, manufacturers, offers,
};
use crate::http::content::{blog, changelog, notices};
use crate::http::edge::cors;
use crate::http::edge::operation::OperationLayer;
use crate::http::edge::service::Edge;
use crate::http::openapi;
use crate::http::openapi::binding::UnboundRoute;
use crate::http::service::{contract, docs, health, metrics, samples, verification};
use crate::http::state::AppState;
use crate::http::stats;
use crate::http::vendor;
use crate::http::{data, game, mcp};

/// The documented operations, and the description generated from their annotations.
pub fn operations() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(openapi::ApiDoc::openapi())
        .routes(routes!(health::health))
        .routes(routes!(health::ready))
        .routes(routes!(firearms::list::list))
        .routes(routes!(firearms::search::search))
        .routes(routes!(firearms::compare::compare))
        .routes(routes!(firearms::resolve::resolve_one, firearms::resolve::resolve_batch))
        .routes(routes!(firearms::facets::filter_options))
        .routes(routes!(firearms::facets::action_types))
        .routes(routes!(firearms::random::random))
        .routes(routes!(firearms::rankings::top))
        .routes(routes!(firearms::rankings::head_to_head))
        .routes(routes!(firearms::slices::by_feature))
        .routes(routes!(firearms::slices::by_action))
        .routes(routes!(firearms::slices::by_material))
        .routes(routes!(firearms::slices::by_designer))
        .routes(routes!(firearms::slices::by_conflict))
        .routes(routes!(firearms::rankings::power_rating))
        .routes(routes!(firearms::rankings::timeline))
        .routes(routes!(firearms::popular::popular))
        .routes(routes!(firearms::detail::detail))
        .routes(routes!(firearms::variants::variants))
        .routes(routes!(firearms::images::images))
        .routes(routes!(firearms::media::image))
        .routes(routes!(firearms::media::index))
        .routes(routes!(firearms::media::list))
        .routes(routes!(firearms::media::file))
        .routes(routes!(firearms::assets::silhouette))
        .routes(routes!(firearms::assets::model))
        .routes(routes!(firearms::game_stats::game_stats))
        .routes(routes!(firearms::game_meta::game_meta))
        .routes(routes!(firearms::game_profile::game_profile))
        .routes(routes!(firearms::adoption::users))
        .routes(routes!(firearms::dimensions::dimensions))
        .routes(routes!(firearms::family_tree::family_tree))
        .routes(routes!(firearms::similar::similar))
        .routes(routes!(firearms::adoption::adoption_map))
        .routes(routes!(firearms::offers::offers))
        .routes(routes!(attachments::list))
        .routes(routes!(attachments::offers))
        .routes(routes!(manufacturers::list))
        .routes(routes!(manufacturers::detail))
        .routes(routes!(manufacturers::firearms))
        .routes(routes!(manufacturer_history::timeline))
        .routes(routes!(manufacturer_history::stats))
        .routes(routes!(categories::list))
        .routes(routes!(categories::detail))
        .routes(routes!(categories::firearms))
        .routes(routes!(calibers::list))
        .routes(routes!(calibers::compare))
        .routes(routes!(calibers::detail))
        .routes(routes!(calibers::firearms))
        .routes(routes!(calibers::ammunition))
        .routes(routes!(calibers::parent_chain))
        .routes(routes!(calibers::family))
        .routes(routes!(ammunition::list))
        .routes(routes!(ammunition::detail))
        .routes(routes!(ammunition::bullet_svg))
        .routes(routes!(countries::list))
        .routes(routes!(countries::arsenal))
        .routes(routes!(countries::conflicts))
        .routes(routes!(game_stats_versions::versions))
        .routes(routes!(game_stats_versions::entries))
        .routes(routes!(game_stats_versions::entry))
        .routes(routes!(game::balance_report::balance_report))
        .routes(routes!(game::tier_list::tier_list))
        .routes(routes!(game::matchups::matchups))
        .routes(routes!(game::role_roster::role_roster))
        .routes(routes!(game::stat_distribution::stat_distribution))
        .routes(routes!(usage::usage))
        .routes(routes!(favorites::list))
        .routes(routes!(favorites::ids))
        .routes(routes!(favorites::add, favorites::remove))
        .routes(routes!(collections::create))
        .routes(routes!(collections::shared))
        .routes(routes!(reports::list, reports::create))
        .routes(routes!(support::list, support::create))
        .routes(routes!(support::detail))
        .routes(routes!(support::reply))
        .routes(routes!(webhooks::list, webhooks::create))
        .routes(routes!(webhooks::detail, webhooks::update, webhooks::delete))
        .routes(routes!(webhooks::test))
        .routes(routes!(vendor::shops::list))
        .routes(routes!(vendor::offers::list, vendor::offers::replace))
        .routes(routes!(vendor::offers::update, vendor::offers::delete))
        .routes(routes!(offers::follow))
        .routes(routes!(stats::overview::summary))
        .routes(routes!(stats::overview::production_status))
        .routes(routes!(stats::overview::field_coverage))
        .routes(routes!(stats::overview::catalog_coverage))
        .routes(routes!(stats::rankings::popular_calibers))
        .routes(routes!(stats::rankings::prolific_manufacturers))
        .routes(routes!(stats::overview::by_category))
        .routes(routes!(stats::eras::by_era))
        .routes(routes!(stats::overview::materials))
        .routes(routes!(stats::adoption::by_country))
        .routes(routes!(stats::adoption::by_type))
        .routes(routes!(stats::rankings::action_types))
        .routes(routes!(stats::rankings::feature_frequency))
        .routes(routes!(stats::eras::caliber_popularity_by_era))
        .routes(routes!(docs::operations))
        .routes(routes!(docs::limits))
        .routes(routes!(changelog::list))
        .routes(routes!(changelog::feed))
        .routes(routes!(changelog::entry))
        .routes(routes!(blog::list))
        .routes(routes!(blog::post))
        .routes(routes!(notices::list))
        .routes(routes!(samples::samples))
        .routes(routes!(contract::contract))
        .routes(routes!(mcp::mcp))
        .routes(routes!(data::tasks::tasks))
        .routes(routes!(data::gaps::gaps))
        .routes(routes!(data::gaps::records))
        .routes(routes!(data::confidence::confidence))
        .routes(routes!(data::coverage::coverage))
        .routes(routes!(verification::examples))
        .routes(routes!(verification::sdk))
}

/// The numbers of the operations this build routes (and so documents), read once from the
/// description of `operations()`: `served` in /v1/docs/operations.
pub fn served() -> &'static BTreeSet<u16> {
    static SERVED: OnceLock<BTreeSet<u16>> = OnceLock::new();
    SERVED.get_or_init(|| {
        let paths = openapi_document().paths;
        let documented = |op: &&Operation| {
            let method = match op.method {
                "GET" => HttpMethod::Get,
                "POST" => HttpMethod::Post,
                "PUT" => HttpMethod::Put,
                "PATCH" => HttpMethod::Patch,
                "DELETE" => HttpMethod::Delete,
                _ => return false,
            };
            paths.get_path_operation(op.path, method).is_some()
        };
        OPERATIONS.iter().filter(documented).map(|op| op.number).collect()
    })
}

/// The OpenAPI description of `operations()`, bound to the operations table, without a server
/// (one is added per request). Panics when a route is not in the table (see `build`).
pub fn openapi_document() -> OpenApiDocument {
    let (_, mut document) = operations().split_for_parts();
    openapi::binding::bind(&mut document).expect("every route is in the operations table");
    openapi::examples::attach(&mut document);
    document
}

/// The whole service: operations, /openapi.json, /docs, the fallback and the middleware stack.
/// `extra` mounts routes beside the operations, outside the access gate (tests use it to reach
/// the middleware with handlers the product does not have).
///
/// Refused when a routed operation is not a row of the operations table: the table decides its
/// key, plan, paging and description, so a route without a row cannot be served.
pub fn build(state: AppState, extra: Option<Router<AppState>>) -> Result<Edge, UnboundRoute> {
    let request_timeout = state.config.connections.request_timeout;
    let state_cors_origins = state.config.cors_origins.clone();
    let (operations, mut document) = operations().split_for_parts();
    openapi::binding::bind(&mut document)?;
    openapi::examples::attach(&mut document);
    openapi::set_server(&mut document, state.config.public_url.as_deref());
    // Only on matched routes, so an unknown path stays a 404: the gate (credential, plan, limits)
    // around the conditional answer and the idempotent replay, in one layer (`edge::operation`).
    let around = OperationLayer { access: state.access.clone(), db: state.db.clone() };
    let mut router = operations.route_layer(around);
    if let Some(extra) = extra {
        // Test probes sit outside the gate: they are not operations.
        router = router.merge(extra);
    }
    let router = router
        // Not an operation: outside the gate, hidden unless a token is configured.
        .route("/metrics", get(metrics::behind_token))
        .with_state(state)
        .route("/", get(index))
        .route("/openapi.json", get(openapi::openapi_json).with_state(Arc::new(document)))
        .merge(openapi::swagger_ui())
        .fallback(route_not_found)
        .method_not_allowed_fallback(route_not_found);
    Ok(Edge::new(router, cors::layer(state_cors_origins), request_timeout))
}

/// GET /: where a newcomer goes next (not an operation: no key, not in the description).
async fn index() -> axum::Json<Index> {
    axum::Json(Index {
        name: "Armory: Firearms Specification Database API",
        version: env!("CARGO_PKG_VERSION"),
        docs: "/docs",
        openapi: "/openapi.json",
        health: "/health",
        ready: "/ready",
        api: "/v1",
    })
}

/// The service's name and version, and the paths a newcomer reads next.
#[derive(serde::Serialize)]
struct Index {
    name: &'static str,
    version: &'static str,
    docs: &'static str,
    openapi: &'static str,
    health: &'static str,
    ready: &'static str,
    api: &'static str,
}

async fn route_not_found() -> ApiError {
    ApiError::route_not_found()
}
