//! Every catalog read operation of issue 5, table-driven: a normal call answers 200 with the
//! envelope, the plan gate refuses the plan below, an unknown id is 404 RESOURCE_NOT_FOUND, a bad
//! parameter is 400 INVALID_PARAMETER naming it, and a repeat with If-None-Match is 304.
//! Field-by-field checks against the bundled data are in `firearms_read.rs` and `reference_read.rs`.

use armory::access::plan::Plan;

use crate::support::{Backend, TestApp, error_reason};

pub(super) struct Operation {
    pub(super) ok: &'static str,
    min_plan: Plan,
    /// A path whose id (or ids) the catalog does not have.
    unknown: Option<&'static str>,
    /// A path with a bad parameter, and the parameter the 400 must name.
    bad: Option<(&'static str, &'static str)>,
    /// Whether the answer carries an ETag (a random draw does not).
    pub(super) conditional: bool,
}

const fn op(
    ok: &'static str,
    min_plan: Plan,
    unknown: Option<&'static str>,
    bad: Option<(&'static str, &'static str)>,
) -> Operation {
    Operation { ok, min_plan, unknown, bad, conditional: true }
}

pub(super) const OPERATIONS: &[Operation] = &[
    // First, while no detail has been requested, so the counts cannot move between the 200 and
    // the 304.
    op("/v1/popular/firearms?days=7", Plan::Explorer, None, Some(("/v1/popular/firearms?days=91", "days"))),
    op("/v1/data/tasks?limit=60", Plan::Explorer, None, Some(("/v1/data/tasks?limit=201", "limit"))),
    op(
        "/v1/firearms?category=pistols&sort=weight",
        Plan::Explorer,
        None,
        Some(("/v1/firearms?sort=price", "sort")),
    ),
    op("/v1/firearms/search?q=glock", Plan::Builder, None, Some(("/v1/firearms/search?q=", "q"))),
    op(
        "/v1/firearms/compare?ids=glock-17,ak-47",
        Plan::Builder,
        Some("/v1/firearms/compare?ids=glock-17,no-such-gun"),
        Some(("/v1/firearms/compare?ids=a,b,c,d,e,f", "ids")),
    ),
    op("/v1/firearms/resolve?q=AK47", Plan::Explorer, None, Some(("/v1/firearms/resolve", "q"))),
    op("/v1/firearms/filter-options", Plan::Explorer, None, None),
    op("/v1/firearms/action-types", Plan::Explorer, None, None),
    Operation {
        ok: "/v1/firearms/random?category=pistols",
        min_plan: Plan::Explorer,
        unknown: Some("/v1/firearms/random?category=pistols&country=ZZ"),
        bad: Some(("/v1/firearms/random?country=AUT", "country")),
        conditional: false,
    },
    op(
        "/v1/firearms/glock-17",
        Plan::Explorer,
        Some("/v1/firearms/no-such-gun"),
        Some(("/v1/firearms/Glock_17", "id")),
    ),
    op(
        "/v1/firearms/glock-17/variants",
        Plan::Explorer,
        Some("/v1/firearms/no-such-gun/variants"),
        Some(("/v1/firearms/Glock_17/variants", "id")),
    ),
    op(
        "/v1/firearms/glock-17/images",
        Plan::Builder,
        Some("/v1/firearms/no-such-gun/images"),
        Some(("/v1/firearms/Glock_17/images", "id")),
    ),
    op(
        "/v1/firearms/glock-17/game-stats",
        Plan::Builder,
        Some("/v1/firearms/no-such-gun/game-stats"),
        Some(("/v1/firearms/Glock_17/game-stats", "id")),
    ),
    op(
        "/v1/firearms/glock-17/users",
        Plan::Explorer,
        Some("/v1/firearms/no-such-gun/users"),
        Some(("/v1/firearms/Glock_17/users", "id")),
    ),
    op(
        "/v1/firearms/glock-17/dimensions",
        Plan::Explorer,
        Some("/v1/firearms/no-such-gun/dimensions"),
        Some(("/v1/firearms/Glock_17/dimensions", "id")),
    ),
    op(
        "/v1/firearms/glock-17-gen5/family-tree",
        Plan::Builder,
        Some("/v1/firearms/no-such-gun/family-tree"),
        Some(("/v1/firearms/Glock_17/family-tree", "id")),
    ),
    op(
        "/v1/firearms/glock-17/similar",
        Plan::Builder,
        Some("/v1/firearms/no-such-gun/similar"),
        Some(("/v1/firearms/glock-17/similar?limit=0", "limit")),
    ),
    op(
        "/v1/firearms/glock-17/adoption-map",
        Plan::Builder,
        Some("/v1/firearms/no-such-gun/adoption-map"),
        Some(("/v1/firearms/Glock_17/adoption-map", "id")),
    ),
    op("/v1/calibers", Plan::Explorer, None, Some(("/v1/calibers?cartridge_type=laser", "cartridge_type"))),
    op(
        "/v1/calibers/compare?ids=9x19mm-parabellum,556x45mm-nato",
        Plan::Builder,
        Some("/v1/calibers/compare?ids=9x19mm-parabellum,no-such-round"),
        Some(("/v1/calibers/compare?ids=", "ids")),
    ),
    op(
        "/v1/calibers/9x19mm-parabellum",
        Plan::Explorer,
        Some("/v1/calibers/no-such-round"),
        Some(("/v1/calibers/9MM", "id")),
    ),
    op(
        "/v1/calibers/9x19mm-parabellum/firearms",
        Plan::Explorer,
        Some("/v1/calibers/no-such-round/firearms"),
        Some(("/v1/calibers/9x19mm-parabellum/firearms?per_page=101", "per_page")),
    ),
    op(
        "/v1/calibers/9x19mm-parabellum/ammunition",
        Plan::Builder,
        Some("/v1/calibers/no-such-round/ammunition"),
        Some(("/v1/calibers/9x19mm-parabellum/ammunition?page=0", "page")),
    ),
    op(
        "/v1/calibers/556x45mm-nato/parent-chain",
        Plan::Builder,
        Some("/v1/calibers/no-such-round/parent-chain"),
        Some(("/v1/calibers/9MM/parent-chain", "id")),
    ),
    op(
        "/v1/calibers/223-remington/family",
        Plan::Builder,
        Some("/v1/calibers/no-such-round/family"),
        Some(("/v1/calibers/9MM/family", "id")),
    ),
    op(
        "/v1/ammunition?caliber_id=9x19mm-parabellum",
        Plan::Builder,
        None,
        Some(("/v1/ammunition?bullet_type=laser", "bullet_type")),
    ),
    op(
        "/v1/ammunition/9x19mm-parabellum-115gr-fmj",
        Plan::Builder,
        Some("/v1/ammunition/no-such-load"),
        Some(("/v1/ammunition/9MM", "id")),
    ),
    op("/v1/countries", Plan::Explorer, None, None),
    op(
        "/v1/countries/AT/arsenal",
        Plan::Builder,
        Some("/v1/countries/ZZ/arsenal"),
        Some(("/v1/countries/AUT/arsenal", "code")),
    ),
    op("/v1/conflicts?name=vietnam", Plan::Builder, None, Some(("/v1/conflicts?name=", "name"))),
    op("/v1/game-stats/versions", Plan::Builder, None, None),
    op(
        "/v1/game-stats/versions/2026.1/firearms",
        Plan::Builder,
        Some("/v1/game-stats/versions/1999.9/firearms"),
        Some(("/v1/game-stats/versions/2026.1/firearms?per_page=0", "per_page")),
    ),
    op(
        "/v1/game-stats/versions/2026.1/firearms/glock-17",
        Plan::Builder,
        Some("/v1/game-stats/versions/2026.1/firearms/no-such-gun"),
        Some(("/v1/game-stats/versions/2026.1/firearms/Glock_17", "id")),
    ),
    // The rankings (11 to 19) and a maker's history (44, 45).
    op(
        "/v1/firearms/top?stat=heaviest&category=pistols",
        Plan::Builder,
        Some("/v1/firearms/top?stat=heaviest&category=lasers"),
        Some(("/v1/firearms/top?stat=heaviest&limit=26", "limit")),
    ),
    op(
        "/v1/firearms/head-to-head?a=glock-17&b=ak-47",
        Plan::Builder,
        Some("/v1/firearms/head-to-head?a=glock-17&b=no-such-gun"),
        Some(("/v1/firearms/head-to-head?a=glock-17", "b")),
    ),
    op(
        "/v1/firearms/by-feature?feature=rail",
        Plan::Builder,
        Some("/v1/firearms/by-feature?feature=rail&category=lasers"),
        Some(("/v1/firearms/by-feature", "feature")),
    ),
    op(
        "/v1/firearms/by-action?action=short_recoil",
        Plan::Explorer,
        None,
        Some(("/v1/firearms/by-action?action=magic", "action")),
    ),
    op(
        "/v1/firearms/by-material?material=polymer&component=frame",
        Plan::Builder,
        None,
        Some(("/v1/firearms/by-material?material=polymer&component=grip", "component")),
    ),
    op(
        "/v1/firearms/by-designer?designer=browning",
        Plan::Builder,
        None,
        Some(("/v1/firearms/by-designer?designer=%20", "designer")),
    ),
    op(
        "/v1/firearms/by-conflict?conflict=vietnam",
        Plan::Studio,
        None,
        Some(("/v1/firearms/by-conflict", "conflict")),
    ),
    op(
        "/v1/firearms/power-rating?category=rifles",
        Plan::Builder,
        Some("/v1/firearms/power-rating?category=lasers"),
        Some(("/v1/firearms/power-rating?per_page=101", "per_page")),
    ),
    op(
        "/v1/firearms/timeline?from=1900&to=1950",
        Plan::Builder,
        Some("/v1/firearms/timeline?category=lasers"),
        Some(("/v1/firearms/timeline?from=99", "from")),
    ),
    op(
        "/v1/manufacturers/glock/timeline",
        Plan::Builder,
        Some("/v1/manufacturers/no-such-maker/timeline"),
        Some(("/v1/manufacturers/Glock/timeline", "id")),
    ),
    op(
        "/v1/manufacturers/glock/stats",
        Plan::Builder,
        Some("/v1/manufacturers/no-such-maker/stats"),
        Some(("/v1/manufacturers/Glock/stats", "id")),
    ),
    // The statistics (71 to 84).
    op("/v1/stats/summary", Plan::Explorer, None, None),
    op("/v1/stats/production-status", Plan::Explorer, None, None),
    op("/v1/stats/field-coverage", Plan::Builder, None, None),
    op(
        "/v1/data/gaps/records?resource=firearms&field=weightEmptyG",
        Plan::Enterprise,
        None,
        Some(("/v1/data/gaps/records?resource=guns", "resource")),
    ),
    op(
        "/v1/data/confidence?below=0.5",
        Plan::Enterprise,
        None,
        Some(("/v1/data/confidence?below=2", "below")),
    ),
    op("/v1/data/coverage", Plan::Builder, None, None),
    op("/v1/stats/catalog-coverage", Plan::Builder, None, None),
    op(
        "/v1/stats/calibers/popular",
        Plan::Explorer,
        None,
        Some(("/v1/stats/calibers/popular?limit=101", "limit")),
    ),
    op(
        "/v1/stats/manufacturers/prolific?category=pistols",
        Plan::Explorer,
        Some("/v1/stats/manufacturers/prolific?category=lasers"),
        Some(("/v1/stats/manufacturers/prolific?limit=0", "limit")),
    ),
    op("/v1/stats/by-category", Plan::Explorer, None, None),
    op(
        "/v1/stats/by-era?decade=1940s",
        Plan::Builder,
        None,
        Some(("/v1/stats/by-era?decade=1945s", "decade")),
    ),
    op("/v1/stats/materials", Plan::Builder, None, None),
    op(
        "/v1/stats/adoption/by-country?code=AT",
        Plan::Builder,
        Some("/v1/stats/adoption/by-country?code=ZZ"),
        Some(("/v1/stats/adoption/by-country?code=AUT", "code")),
    ),
    op(
        "/v1/stats/adoption/by-type?type=law_enforcement",
        Plan::Builder,
        None,
        Some(("/v1/stats/adoption/by-type?type=army", "type")),
    ),
    op(
        "/v1/stats/action-types?category=rifles",
        Plan::Explorer,
        Some("/v1/stats/action-types?category=lasers"),
        Some(("/v1/stats/action-types?category=Rifles", "category")),
    ),
    op(
        "/v1/stats/feature-frequency",
        Plan::Builder,
        Some("/v1/stats/feature-frequency?category=lasers"),
        Some(("/v1/stats/feature-frequency?limit=101", "limit")),
    ),
    op(
        "/v1/stats/caliber-popularity-by-era?from_decade=1900s&to_decade=1990s",
        Plan::Builder,
        None,
        Some(("/v1/stats/caliber-popularity-by-era?from_decade=1990s&to_decade=199Os", "to_decade")),
    ),
];

fn below(plan: Plan) -> Option<Plan> {
    match plan {
        Plan::Explorer => None,
        Plan::Builder => Some(Plan::Explorer),
        Plan::Studio => Some(Plan::Builder),
        Plan::Enterprise => Some(Plan::Studio),
    }
}

async fn expect(response: reqwest::Response, status: u16, reason: &str, what: &str) -> serde_json::Value {
    let (got, got_reason, body) = error_reason(response).await;
    assert_eq!((got, got_reason.as_str()), (status, reason), "{what}: {body}");
    body
}

crate::on_each_database!(setup = crate::support::read_catalog_app; every_read_operation_keeps_the_contract);

async fn every_read_operation_keeps_the_contract(app: TestApp) {
    let mut keys = std::collections::HashMap::new();
    for plan in [Plan::Explorer, Plan::Builder, Plan::Studio, Plan::Enterprise] {
        keys.insert(plan, app.key(plan).await.2);
    }
    for op in OPERATIONS {
        let key = &keys[&op.min_plan];
        let response = app.get_with_key(op.ok, key).await;
        assert_eq!(response.status(), 200, "{}", op.ok);
        let etag = response.headers().get("etag").map(|e| e.to_str().unwrap().to_owned());
        let body: serde_json::Value = response.json().await.unwrap();
        assert_eq!(body["success"], true, "{}", op.ok);
        assert!(!body["data"].is_null(), "{}: {body}", op.ok);

        if op.conditional {
            let etag = etag.unwrap_or_else(|| panic!("{} carries an ETag", op.ok));
            let repeat = app
                .client
                .get(app.url(op.ok))
                .header("x-api-key", key)
                .header("if-none-match", &etag)
                .send()
                .await
                .unwrap();
            assert_eq!(repeat.status(), 304, "{}", op.ok);
            assert_eq!(repeat.headers()["etag"].to_str().unwrap(), etag);
        }

        expect(app.get(op.ok).await, 401, "AUTH_REQUIRED", op.ok).await;
        if let Some(lower) = below(op.min_plan) {
            let body =
                expect(app.get_with_key(op.ok, &keys[&lower]).await, 403, "PLAN_REQUIRED", op.ok).await;
            assert_eq!(body["error"]["details"]["requiredTier"], op.min_plan.id(), "{}", op.ok);
        }
        if let Some(unknown) = op.unknown {
            expect(app.get_with_key(unknown, key).await, 404, "RESOURCE_NOT_FOUND", unknown).await;
        }
        if let Some((bad, field)) = op.bad {
            let body = expect(app.get_with_key(bad, key).await, 400, "INVALID_PARAMETER", bad).await;
            assert!(body["error"]["details"].get(field).is_some(), "{bad} names {field}: {body}");
        }
    }
}

#[tokio::test]
async fn compare_names_every_unknown_id() {
    let app = crate::support::read_catalog_app(Backend::Sqlite).await;
    let (_, _, key) = app.key(Plan::Builder).await;
    let body = expect(
        app.get_with_key("/v1/firearms/compare?ids=glock-17,nope-1,nope-2", &key).await,
        404,
        "RESOURCE_NOT_FOUND",
        "compare",
    )
    .await;
    assert_eq!(body["error"]["details"]["missing"], serde_json::json!(["nope-1", "nope-2"]));
}
