//! Each game operation, table-driven: 200 with an ETag and a 304 on repeat, 401 without a key,
//! 403 PLAN_REQUIRED for Explorer, 404 for an unknown id, category or version, 400 naming a bad
//! parameter (bounds are never clamped).

use armory::access::plan::Plan;
use serde_json::json;

use crate::support::{TestApp, error_reason};

struct Operation {
    ok: &'static str,
    /// Paths that are 404 (unknown id, category, or version).
    unknown: &'static [&'static str],
    /// Paths with a bad parameter, and the parameter the 400 names.
    bad: &'static [(&'static str, &'static str)],
}

const OPERATIONS: &[Operation] = &[
    Operation {
        ok: "/v1/firearms/game-meta?archetype=sniper",
        unknown: &["/v1/firearms/game-meta?version=1999.9"],
        bad: &[
            ("/v1/firearms/game-meta?archetype=wizard", "archetype"),
            ("/v1/firearms/game-meta?version=a%20b", "version"),
        ],
    },
    Operation {
        ok: "/v1/firearms/glock-17/game-profile",
        unknown: &[
            "/v1/firearms/no-such-gun/game-profile",
            "/v1/firearms/glock-17/game-profile?version=1999.9",
        ],
        bad: &[("/v1/firearms/Glock_17/game-profile", "id")],
    },
    Operation {
        ok: "/v1/game/balance-report?threshold=1.5",
        unknown: &["/v1/game/balance-report?category=lasers", "/v1/game/balance-report?version=1999.9"],
        bad: &[
            ("/v1/game/balance-report?threshold=5.5", "threshold"),
            ("/v1/game/balance-report?threshold=0.4", "threshold"),
            ("/v1/game/balance-report?stat=gameLuck", "stat"),
            ("/v1/game/balance-report?limit=101", "limit"),
        ],
    },
    Operation {
        ok: "/v1/game/tier-list?stat=gameDamage&category=pistols",
        unknown: &["/v1/game/tier-list?category=lasers", "/v1/game/tier-list?version=1999.9"],
        bad: &[
            ("/v1/game/tier-list?stat=gameLuck", "stat"),
            ("/v1/game/tier-list?category=Pistols!", "category"),
            ("/v1/game/tier-list?per_tier=51", "per_tier"),
        ],
    },
    Operation {
        ok: "/v1/game/matchups?a=glock-17&b=ak-47",
        unknown: &[
            "/v1/game/matchups?a=glock-17&b=no-such-gun",
            "/v1/game/matchups?a=glock-17&b=ak-47&version=1999.9",
        ],
        bad: &[("/v1/game/matchups?a=glock-17", "b")],
    },
    Operation {
        ok: "/v1/game/role-roster?role=all-rounder&count=5",
        unknown: &["/v1/game/role-roster?role=sniper&version=1999.9"],
        bad: &[
            ("/v1/game/role-roster?role=sniper&count=51", "count"),
            ("/v1/game/role-roster?role=sniper&count=0", "count"),
            ("/v1/game/role-roster?role=wizard", "role"),
            ("/v1/game/role-roster", "role"),
        ],
    },
    Operation {
        ok: "/v1/game/stat-distribution?stat=gameRange&bins=5",
        unknown: &[
            "/v1/game/stat-distribution?stat=gameRange&version=1999.9",
            "/v1/game/stat-distribution?stat=gameRange&category=lasers",
        ],
        bad: &[
            ("/v1/game/stat-distribution?stat=gameRange&bins=1", "bins"),
            ("/v1/game/stat-distribution?stat=gameRange&bins=51", "bins"),
            ("/v1/game/stat-distribution", "stat"),
        ],
    },
];

crate::on_each_database!(setup = crate::support::read_catalog_app; every_game_operation_keeps_the_contract);

async fn every_game_operation_keeps_the_contract(app: TestApp) {
    let builder = app.key(Plan::Builder).await.2;
    let explorer = app.key(Plan::Explorer).await.2;
    for op in OPERATIONS {
        for path in [
            op.ok.to_owned(),
            format!("{}{}version=2026.1", op.ok, if op.ok.contains('?') { '&' } else { '?' }),
        ] {
            let response = app.get_with_key(&path, &builder).await;
            assert_eq!(response.status(), 200, "{path}");
            let etag = response.headers()["etag"].to_str().unwrap().to_owned();
            assert!(etag.starts_with('"'), "a strong ETag: {etag}");
            let body: serde_json::Value = response.json().await.unwrap();
            assert_eq!(body["success"], true, "{path}");
            let frozen = path.contains("version=");
            assert_eq!(body["data"]["version"], if frozen { json!("2026.1") } else { json!(null) }, "{path}");
            let repeat = app
                .client
                .get(app.url(&path))
                .header("x-api-key", &builder)
                .header("if-none-match", &etag)
                .send()
                .await
                .unwrap();
            assert_eq!(repeat.status(), 304, "{path}");
        }
        let (status, reason, _) = error_reason(app.get(op.ok).await).await;
        assert_eq!((status, reason.as_str()), (401, "AUTH_REQUIRED"), "{}", op.ok);
        let (status, reason, body) = error_reason(app.get_with_key(op.ok, &explorer).await).await;
        assert_eq!((status, reason.as_str()), (403, "PLAN_REQUIRED"), "{}", op.ok);
        assert_eq!(body["error"]["details"]["requiredTier"], Plan::Builder.id());
        for unknown in op.unknown {
            let (status, reason, body) = error_reason(app.get_with_key(unknown, &builder).await).await;
            assert_eq!((status, reason.as_str()), (404, "RESOURCE_NOT_FOUND"), "{unknown}: {body}");
        }
        for (bad, field) in op.bad {
            let (status, reason, body) = error_reason(app.get_with_key(bad, &builder).await).await;
            assert_eq!((status, reason.as_str()), (400, "INVALID_PARAMETER"), "{bad}: {body}");
            assert!(body["error"]["details"].get(*field).is_some(), "{bad} names {field}: {body}");
        }
    }
    // The 404s name what they miss.
    let (_, _, body) =
        error_reason(app.get_with_key("/v1/game/tier-list?category=lasers", &builder).await).await;
    assert!(body["error"]["message"].as_str().unwrap().contains("lasers"), "{body}");
    let (_, _, body) =
        error_reason(app.get_with_key("/v1/game/matchups?a=nope-1&b=ak-47", &builder).await).await;
    assert_eq!(body["error"]["details"]["missing"], json!(["nope-1"]));
    let (_, _, body) =
        error_reason(app.get_with_key("/v1/game/role-roster?role=tank&version=1999.9", &builder).await).await;
    assert!(body["error"]["message"].as_str().unwrap().contains("1999.9"), "{body}");
}
