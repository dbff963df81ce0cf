//! The operation catalog of ../shared/spec/operations.md: every one of the 135 operations with
//! its minimum plan and paging style. Authorization, paging defaults, the router's binding to the
//! description and `/v1/docs/operations` (`access::operation_catalog`) all read this one table.

use std::sync::OnceLock;

use serde::Serialize;

use super::plan::Plan;
use crate::fast_hash::FastMap;

/// How an operation answers and pages; `/v1/docs/operations` serves it as `{"style": "page",
/// "default": 20, "max": 100}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(tag = "style", rename_all = "camelCase")]
#[schema(as = PagingStyle)]
pub enum Style {
    /// page + per_page, paged envelope.
    Page {
        /// per_page when none is sent.
        default: u32,
        /// The largest per_page (more is a 400).
        max: u32,
    },
    /// A single `limit`, no pagination object.
    Limit {
        /// limit when none is sent.
        default: u32,
        /// The largest limit (more is a 400).
        max: u32,
    },
    /// One answer in the success envelope.
    One,
    /// A file (an image, an SVG, a feed), not the envelope.
    File,
    /// The health probes' flat bodies.
    Flat,
    /// A redirect (302) to another address.
    Redirect,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Operation {
    pub number: u16,
    /// The OpenAPI operationId: unique, named for what the operation does.
    pub name: &'static str,
    pub method: &'static str,
    /// The path as the router spells it, parameters in braces.
    pub path: &'static str,
    /// None: answered without a key.
    pub min_plan: Option<Plan>,
    pub style: Style,
}

impl Operation {
    /// The MCP endpoint: a request takes a per-minute slot, but only a tool call spends the day's
    /// allowances, counted by the endpoint itself (`admission::spend_mcp_call`).
    pub fn is_mcp(&self) -> bool {
        self.path == "/v1/mcp"
    }

    /// The six webhook operations have their own rate-limit bucket.
    pub fn is_webhook(&self) -> bool {
        self.path.starts_with("/v1/me/webhooks")
    }
}

/// The operation a method and matched route template name, if it is one of the 135.
pub fn find(method: &str, path: &str) -> Option<&'static Operation> {
    // A map rather than a scan of the table: every request looks its operation up, and comparing
    // against a hundred routes was more than the rest of the lookup.
    static BY_ROUTE: OnceLock<FastMap<(&str, &str), &Operation>> = OnceLock::new();
    let by_route: &FastMap<(&str, &str), &Operation> =
        BY_ROUTE.get_or_init(|| OPERATIONS.iter().map(|op| ((op.method, op.path), op)).collect());
    by_route.get(&(method, path)).copied()
}

/// Whether a concrete path is one of the keyless operations' routes (`{x}` matches one segment).
pub fn keyless_template_matches(path: &str) -> bool {
    let segments: Vec<&str> = path.trim_end_matches('/').split('/').collect();
    OPERATIONS.iter().filter(|op| op.min_plan.is_none()).any(|op| {
        let template: Vec<&str> = op.path.split('/').collect();
        template.len() == segments.len()
            && template.iter().zip(&segments).all(|(t, s)| t == s || (t.starts_with('{') && !s.is_empty()))
    })
}

/// The operation a request runs: HEAD is answered by the GET operation of the same route (the
/// router drops the body), with the same credential, plan, limits and counting.
pub fn for_request(method: &str, path: &str) -> Option<&'static Operation> {
    let method = if method == "HEAD" { "GET" } else { method };
    find(method, path)
}

const fn op(
    number: u16,
    name: &'static str,
    method: &'static str,
    path: &'static str,
    min_plan: Option<Plan>,
    style: Style,
) -> Operation {
    Operation { number, name, method, path, min_plan, style }
}

pub static OPERATIONS: [Operation; 135] = [
    op(1, "getHealth", "GET", "/health", None, Style::Flat),
    op(2, "getReadiness", "GET", "/ready", None, Style::Flat),
    op(3, "listFirearms", "GET", "/v1/firearms", Some(Plan::Explorer), Style::Page { default: 20, max: 100 }),
    op(
        4,
        "searchFirearms",
        "GET",
        "/v1/firearms/search",
        Some(Plan::Builder),
        Style::Page { default: 20, max: 100 },
    ),
    op(5, "compareFirearms", "GET", "/v1/firearms/compare", Some(Plan::Builder), Style::One),
    op(6, "resolveFirearm", "GET", "/v1/firearms/resolve", Some(Plan::Explorer), Style::One),
    op(7, "resolveFirearmsBatch", "POST", "/v1/firearms/resolve", Some(Plan::Explorer), Style::One),
    op(8, "getFirearmFilterOptions", "GET", "/v1/firearms/filter-options", Some(Plan::Explorer), Style::One),
    op(9, "listFirearmActionTypes", "GET", "/v1/firearms/action-types", Some(Plan::Explorer), Style::One),
    op(10, "getRandomFirearm", "GET", "/v1/firearms/random", Some(Plan::Explorer), Style::One),
    op(
        11,
        "listTopFirearms",
        "GET",
        "/v1/firearms/top",
        Some(Plan::Builder),
        Style::Limit { default: 10, max: 25 },
    ),
    op(12, "compareFirearmsHeadToHead", "GET", "/v1/firearms/head-to-head", Some(Plan::Builder), Style::One),
    op(
        13,
        "listFirearmsByFeature",
        "GET",
        "/v1/firearms/by-feature",
        Some(Plan::Builder),
        Style::Page { default: 20, max: 100 },
    ),
    op(
        14,
        "listFirearmsByAction",
        "GET",
        "/v1/firearms/by-action",
        Some(Plan::Explorer),
        Style::Page { default: 20, max: 100 },
    ),
    op(
        15,
        "listFirearmsByMaterial",
        "GET",
        "/v1/firearms/by-material",
        Some(Plan::Builder),
        Style::Page { default: 20, max: 100 },
    ),
    op(
        16,
        "listFirearmsByDesigner",
        "GET",
        "/v1/firearms/by-designer",
        Some(Plan::Builder),
        Style::Page { default: 20, max: 100 },
    ),
    op(
        17,
        "listFirearmsByConflict",
        "GET",
        "/v1/firearms/by-conflict",
        Some(Plan::Studio),
        Style::Page { default: 20, max: 100 },
    ),
    op(
        18,
        "listFirearmPowerRatings",
        "GET",
        "/v1/firearms/power-rating",
        Some(Plan::Builder),
        Style::Page { default: 20, max: 100 },
    ),
    op(
        19,
        "listFirearmTimeline",
        "GET",
        "/v1/firearms/timeline",
        Some(Plan::Builder),
        Style::Page { default: 50, max: 100 },
    ),
    op(
        20,
        "listFirearmMedia",
        "GET",
        "/v1/firearms/media",
        Some(Plan::Explorer),
        Style::Page { default: 250, max: 1000 },
    ),
    op(21, "getFirearmGameMeta", "GET", "/v1/firearms/game-meta", Some(Plan::Builder), Style::One),
    op(22, "getFirearm", "GET", "/v1/firearms/{id}", Some(Plan::Explorer), Style::One),
    op(23, "listFirearmVariants", "GET", "/v1/firearms/{id}/variants", Some(Plan::Explorer), Style::One),
    op(24, "listFirearmImages", "GET", "/v1/firearms/{id}/images", Some(Plan::Builder), Style::One),
    op(25, "getFirearmImage", "GET", "/v1/firearms/{id}/images/{imageId}", Some(Plan::Builder), Style::File),
    op(26, "getFirearmGameStats", "GET", "/v1/firearms/{id}/game-stats", Some(Plan::Builder), Style::One),
    op(27, "getFirearmGameProfile", "GET", "/v1/firearms/{id}/game-profile", Some(Plan::Builder), Style::One),
    op(28, "listFirearmUsers", "GET", "/v1/firearms/{id}/users", Some(Plan::Explorer), Style::One),
    op(29, "getFirearmDimensions", "GET", "/v1/firearms/{id}/dimensions", Some(Plan::Explorer), Style::One),
    op(30, "getFirearmFamilyTree", "GET", "/v1/firearms/{id}/family-tree", Some(Plan::Builder), Style::One),
    op(31, "listSimilarFirearms", "GET", "/v1/firearms/{id}/similar", Some(Plan::Builder), Style::One),
    op(32, "getFirearmAdoptionMap", "GET", "/v1/firearms/{id}/adoption-map", Some(Plan::Builder), Style::One),
    op(33, "getFirearmSilhouette", "GET", "/v1/firearms/{id}/silhouette", Some(Plan::Builder), Style::File),
    op(34, "getFirearmMediaIndex", "GET", "/v1/firearms/{id}/media", Some(Plan::Builder), Style::One),
    op(
        35,
        "getFirearmMediaFile",
        "GET",
        "/v1/firearms/{id}/media/{selector}",
        Some(Plan::Builder),
        Style::File,
    ),
    op(36, "getFirearmModel", "GET", "/v1/firearms/{id}/model", Some(Plan::Builder), Style::File),
    op(37, "listFirearmOffers", "GET", "/v1/firearms/{id}/offers", Some(Plan::Builder), Style::One),
    op(38, "listFirearmInterfaces", "GET", "/v1/firearms/{id}/interfaces", Some(Plan::Studio), Style::One),
    op(39, "listFirearmAttachments", "GET", "/v1/firearms/{id}/attachments", Some(Plan::Studio), Style::One),
    op(
        40,
        "listPopularFirearms",
        "GET",
        "/v1/popular/firearms",
        Some(Plan::Explorer),
        Style::Limit { default: 10, max: 20 },
    ),
    op(
        41,
        "listManufacturers",
        "GET",
        "/v1/manufacturers",
        Some(Plan::Explorer),
        Style::Page { default: 20, max: 100 },
    ),
    op(42, "getManufacturer", "GET", "/v1/manufacturers/{id}", Some(Plan::Explorer), Style::One),
    op(
        43,
        "listManufacturerFirearms",
        "GET",
        "/v1/manufacturers/{id}/firearms",
        Some(Plan::Explorer),
        Style::Page { default: 20, max: 100 },
    ),
    op(
        44,
        "getManufacturerTimeline",
        "GET",
        "/v1/manufacturers/{id}/timeline",
        Some(Plan::Builder),
        Style::One,
    ),
    op(45, "getManufacturerStats", "GET", "/v1/manufacturers/{id}/stats", Some(Plan::Builder), Style::One),
    op(
        46,
        "listCalibers",
        "GET",
        "/v1/calibers",
        Some(Plan::Explorer),
        Style::Page { default: 20, max: 100 },
    ),
    op(47, "compareCalibers", "GET", "/v1/calibers/compare", Some(Plan::Builder), Style::One),
    op(48, "getCaliber", "GET", "/v1/calibers/{id}", Some(Plan::Explorer), Style::One),
    op(
        49,
        "listCaliberFirearms",
        "GET",
        "/v1/calibers/{id}/firearms",
        Some(Plan::Explorer),
        Style::Page { default: 20, max: 100 },
    ),
    op(
        50,
        "listCaliberAmmunition",
        "GET",
        "/v1/calibers/{id}/ammunition",
        Some(Plan::Builder),
        Style::Page { default: 20, max: 100 },
    ),
    op(51, "getCaliberParentChain", "GET", "/v1/calibers/{id}/parent-chain", Some(Plan::Builder), Style::One),
    op(52, "getCaliberFamily", "GET", "/v1/calibers/{id}/family", Some(Plan::Builder), Style::One),
    op(53, "listCategories", "GET", "/v1/categories", Some(Plan::Explorer), Style::One),
    op(54, "getCategory", "GET", "/v1/categories/{slug}", Some(Plan::Explorer), Style::One),
    op(
        55,
        "listCategoryFirearms",
        "GET",
        "/v1/categories/{slug}/firearms",
        Some(Plan::Explorer),
        Style::Page { default: 20, max: 100 },
    ),
    op(
        56,
        "listAmmunition",
        "GET",
        "/v1/ammunition",
        Some(Plan::Builder),
        Style::Page { default: 20, max: 100 },
    ),
    op(57, "getAmmunition", "GET", "/v1/ammunition/{id}", Some(Plan::Builder), Style::One),
    op(
        58,
        "getAmmunitionBulletSvg",
        "GET",
        "/v1/ammunition/{id}/bullet.svg",
        Some(Plan::Builder),
        Style::File,
    ),
    op(59, "listCountries", "GET", "/v1/countries", Some(Plan::Explorer), Style::One),
    op(60, "getCountryArsenal", "GET", "/v1/countries/{code}/arsenal", Some(Plan::Builder), Style::One),
    op(61, "listConflicts", "GET", "/v1/conflicts", Some(Plan::Builder), Style::One),
    op(62, "listPlatforms", "GET", "/v1/platforms", Some(Plan::Studio), Style::One),
    op(63, "getPlatform", "GET", "/v1/platforms/{id}", Some(Plan::Studio), Style::One),
    op(
        64,
        "listAttachments",
        "GET",
        "/v1/attachments",
        Some(Plan::Explorer),
        Style::Page { default: 20, max: 100 },
    ),
    op(65, "getAttachment", "GET", "/v1/attachments/{id}", Some(Plan::Explorer), Style::One),
    op(
        66,
        "listAttachmentFirearms",
        "GET",
        "/v1/attachments/{id}/firearms",
        Some(Plan::Studio),
        Style::Page { default: 20, max: 100 },
    ),
    op(67, "listAttachmentOffers", "GET", "/v1/attachments/{id}/offers", Some(Plan::Builder), Style::One),
    op(68, "listInterfaces", "GET", "/v1/interfaces", Some(Plan::Explorer), Style::One),
    op(69, "getInterface", "GET", "/v1/interfaces/{id}", Some(Plan::Explorer), Style::One),
    op(
        70,
        "listInterfaceFirearms",
        "GET",
        "/v1/interfaces/{id}/firearms",
        Some(Plan::Studio),
        Style::Page { default: 20, max: 100 },
    ),
    op(71, "getStatsSummary", "GET", "/v1/stats/summary", Some(Plan::Explorer), Style::One),
    op(
        72,
        "getStatsProductionStatus",
        "GET",
        "/v1/stats/production-status",
        Some(Plan::Explorer),
        Style::One,
    ),
    op(73, "getStatsFieldCoverage", "GET", "/v1/stats/field-coverage", Some(Plan::Builder), Style::One),
    op(74, "getStatsCatalogCoverage", "GET", "/v1/stats/catalog-coverage", Some(Plan::Builder), Style::One),
    op(
        75,
        "listPopularCalibers",
        "GET",
        "/v1/stats/calibers/popular",
        Some(Plan::Explorer),
        Style::Limit { default: 20, max: 100 },
    ),
    op(
        76,
        "listProlificManufacturers",
        "GET",
        "/v1/stats/manufacturers/prolific",
        Some(Plan::Explorer),
        Style::Limit { default: 20, max: 100 },
    ),
    op(77, "getStatsByCategory", "GET", "/v1/stats/by-category", Some(Plan::Explorer), Style::One),
    op(78, "getStatsByEra", "GET", "/v1/stats/by-era", Some(Plan::Builder), Style::One),
    op(79, "getStatsMaterials", "GET", "/v1/stats/materials", Some(Plan::Builder), Style::One),
    op(
        80,
        "getStatsAdoptionByCountry",
        "GET",
        "/v1/stats/adoption/by-country",
        Some(Plan::Builder),
        Style::One,
    ),
    op(81, "getStatsAdoptionByType", "GET", "/v1/stats/adoption/by-type", Some(Plan::Builder), Style::One),
    op(82, "getStatsActionTypes", "GET", "/v1/stats/action-types", Some(Plan::Explorer), Style::One),
    op(
        83,
        "getStatsFeatureFrequency",
        "GET",
        "/v1/stats/feature-frequency",
        Some(Plan::Builder),
        Style::Limit { default: 50, max: 100 },
    ),
    op(
        84,
        "getStatsCaliberPopularityByEra",
        "GET",
        "/v1/stats/caliber-popularity-by-era",
        Some(Plan::Builder),
        Style::One,
    ),
    op(85, "getGameBalanceReport", "GET", "/v1/game/balance-report", Some(Plan::Builder), Style::One),
    op(86, "getGameTierList", "GET", "/v1/game/tier-list", Some(Plan::Builder), Style::One),
    op(87, "getGameMatchups", "GET", "/v1/game/matchups", Some(Plan::Builder), Style::One),
    op(88, "getGameRoleRoster", "GET", "/v1/game/role-roster", Some(Plan::Builder), Style::One),
    op(89, "getGameStatDistribution", "GET", "/v1/game/stat-distribution", Some(Plan::Builder), Style::One),
    op(90, "listGameStatsVersions", "GET", "/v1/game-stats/versions", Some(Plan::Builder), Style::One),
    op(
        91,
        "listGameStatsVersionFirearms",
        "GET",
        "/v1/game-stats/versions/{version}/firearms",
        Some(Plan::Builder),
        Style::Page { default: 20, max: 100 },
    ),
    op(
        92,
        "getGameStatsVersionFirearm",
        "GET",
        "/v1/game-stats/versions/{version}/firearms/{id}",
        Some(Plan::Builder),
        Style::One,
    ),
    op(
        93,
        "listDataTasks",
        "GET",
        "/v1/data/tasks",
        Some(Plan::Explorer),
        Style::Limit { default: 50, max: 200 },
    ),
    op(94, "getDataGaps", "GET", "/v1/data/gaps", None, Style::One),
    op(
        95,
        "listDataGapRecords",
        "GET",
        "/v1/data/gaps/records",
        Some(Plan::Enterprise),
        Style::Page { default: 20, max: 100 },
    ),
    op(
        96,
        "listDataConfidence",
        "GET",
        "/v1/data/confidence",
        Some(Plan::Enterprise),
        Style::Page { default: 20, max: 100 },
    ),
    op(97, "getDataCoverage", "GET", "/v1/data/coverage", Some(Plan::Builder), Style::One),
    op(98, "getMyUsage", "GET", "/v1/me/usage", Some(Plan::Explorer), Style::One),
    op(
        99,
        "listMyFavorites",
        "GET",
        "/v1/me/favorites",
        Some(Plan::Explorer),
        Style::Page { default: 20, max: 100 },
    ),
    op(100, "listMyFavoriteIds", "GET", "/v1/me/favorites/ids", Some(Plan::Explorer), Style::One),
    op(101, "addMyFavorite", "POST", "/v1/me/favorites/{firearmId}", Some(Plan::Explorer), Style::One),
    op(102, "removeMyFavorite", "DELETE", "/v1/me/favorites/{firearmId}", Some(Plan::Explorer), Style::One),
    op(103, "createMyCollection", "POST", "/v1/me/collections", Some(Plan::Explorer), Style::One),
    op(
        104,
        "listMyReports",
        "GET",
        "/v1/me/reports",
        Some(Plan::Explorer),
        Style::Page { default: 20, max: 100 },
    ),
    op(105, "createMyReport", "POST", "/v1/me/reports", Some(Plan::Explorer), Style::One),
    op(
        106,
        "listMySupportTickets",
        "GET",
        "/v1/me/support",
        Some(Plan::Explorer),
        Style::Page { default: 20, max: 100 },
    ),
    op(107, "createMySupportTicket", "POST", "/v1/me/support", Some(Plan::Explorer), Style::One),
    op(108, "getMySupportTicket", "GET", "/v1/me/support/{id}", Some(Plan::Explorer), Style::One),
    op(
        109,
        "replyToMySupportTicket",
        "POST",
        "/v1/me/support/{id}/replies",
        Some(Plan::Explorer),
        Style::One,
    ),
    op(
        110,
        "listMyWebhooks",
        "GET",
        "/v1/me/webhooks",
        Some(Plan::Explorer),
        Style::Page { default: 20, max: 100 },
    ),
    op(111, "createMyWebhook", "POST", "/v1/me/webhooks", Some(Plan::Explorer), Style::One),
    op(112, "getMyWebhook", "GET", "/v1/me/webhooks/{endpointId}", Some(Plan::Explorer), Style::One),
    op(113, "updateMyWebhook", "PUT", "/v1/me/webhooks/{endpointId}", Some(Plan::Explorer), Style::One),
    op(114, "deleteMyWebhook", "DELETE", "/v1/me/webhooks/{endpointId}", Some(Plan::Explorer), Style::One),
    op(115, "testMyWebhook", "POST", "/v1/me/webhooks/{endpointId}/test", Some(Plan::Explorer), Style::One),
    op(116, "listVendorShops", "GET", "/v1/vendor/shops", Some(Plan::Enterprise), Style::One),
    op(
        117,
        "listVendorOffers",
        "GET",
        "/v1/vendor/offers",
        Some(Plan::Enterprise),
        Style::Page { default: 20, max: 100 },
    ),
    op(118, "replaceVendorOffers", "PUT", "/v1/vendor/offers", Some(Plan::Enterprise), Style::One),
    op(119, "updateVendorOffer", "PATCH", "/v1/vendor/offers/{id}", Some(Plan::Enterprise), Style::One),
    op(120, "deleteVendorOffer", "DELETE", "/v1/vendor/offers/{id}", Some(Plan::Enterprise), Style::One),
    op(121, "callMcp", "POST", "/v1/mcp", Some(Plan::Explorer), Style::One),
    op(122, "listChangelog", "GET", "/v1/changelog", None, Style::Page { default: 20, max: 100 }),
    op(123, "getChangelogEntry", "GET", "/v1/changelog/{id}", None, Style::One),
    op(124, "getChangelogFeed", "GET", "/v1/changelog/feed", None, Style::File),
    op(125, "listBlogPosts", "GET", "/v1/blog", None, Style::Page { default: 20, max: 100 }),
    op(126, "getBlogPost", "GET", "/v1/blog/{slug}", None, Style::One),
    op(127, "listNotices", "GET", "/v1/notices", None, Style::One),
    op(128, "listOperations", "GET", "/v1/docs/operations", None, Style::One),
    op(129, "listPlanLimits", "GET", "/v1/docs/limits", None, Style::One),
    op(130, "getSharedCollection", "GET", "/v1/collections/{shareId}", None, Style::One),
    op(131, "listDocSamples", "GET", "/v1/docs/samples", None, Style::One),
    op(132, "getContract", "GET", "/v1/contract", None, Style::One),
    op(133, "getVerificationExamples", "GET", "/v1/examples/verification", None, Style::One),
    op(134, "getSdkVerification", "GET", "/v1/sdk/verification", None, Style::One),
    op(135, "followOfferLink", "GET", "/v1/out/{offerId}", None, Style::Redirect),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalog_counts_as_decided() {
        assert_eq!(OPERATIONS.len(), 135);
        assert_eq!(OPERATIONS.iter().filter(|op| op.min_plan.is_some()).count(), 118);
        assert_eq!(OPERATIONS.iter().filter(|op| op.min_plan.is_none()).count(), 17);
        assert_eq!(OPERATIONS.iter().filter(|op| op.is_webhook()).count(), 6);
    }

    #[test]
    fn names_and_routes_are_unique() {
        let names: std::collections::HashSet<_> = OPERATIONS.iter().map(|op| op.name).collect();
        assert_eq!(names.len(), OPERATIONS.len(), "every operationId is unique");
        let routes: std::collections::HashSet<_> = OPERATIONS.iter().map(|op| (op.method, op.path)).collect();
        assert_eq!(routes.len(), OPERATIONS.len(), "every method and path is one operation");
        for (at, op) in OPERATIONS.iter().enumerate() {
            assert_eq!(usize::from(op.number), at + 1, "numbered as operations.md");
        }
    }

    #[test]
    fn keyless_routes_are_matched_by_template() {
        assert!(keyless_template_matches("/v1/collections/abc123"));
        assert!(keyless_template_matches("/v1/docs/limits"));
        assert!(!keyless_template_matches("/v1/firearms/glock-17"));
        assert!(!keyless_template_matches("/v1/collections"));
    }

    #[test]
    fn lookups_use_the_route_template() {
        let op = find("GET", "/v1/manufacturers/{id}/firearms").unwrap();
        assert_eq!(op.style, Style::Page { default: 20, max: 100 });
        assert_eq!(find("GET", "/v1/firearms/media").unwrap().style, Style::Page { default: 250, max: 1000 });
        assert!(find("GET", "/nope").is_none());
    }
}
