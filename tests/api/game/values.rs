//! Values worked out here, by hand, from the bundled catalog's live stats (the import's
//! `game_stats::derive`), and compared with the answers: one z-score, one tier boundary, one
//! histogram count, percentiles, a matchup and the archetype counts.

use serde_json::Value;

use super::{builder, bundled, data, live_stats};
use crate::support::TestApp;

crate::on_each_database!(setup = crate::support::read_catalog_app; answers_match_figures_worked_out_by_hand);

/// The pistols' known damage values, by firearm id.
fn pistol_damage() -> Vec<(String, String, f64)> {
    let catalog = bundled();
    let stats = live_stats(&catalog);
    catalog
        .firearms
        .iter()
        .filter(|f| f.category_id == "pistols")
        .filter_map(|f| stats[&f.id].game_damage.map(|d| (f.id.clone(), f.name.clone(), d as f64)))
        .collect()
}

async fn answers_match_figures_worked_out_by_hand(app: TestApp) {
    let key = builder(&app).await;

    // --- balance-report: one z-score by hand. Population mean and deviation of the pistols' damage.
    let pistols = pistol_damage();
    let n = pistols.len() as f64;
    assert!(n > 20.0, "the bundled catalog has pistols with damage figures");
    let mean = pistols.iter().map(|p| p.2).sum::<f64>() / n;
    let sd = (pistols.iter().map(|p| (p.2 - mean).powi(2)).sum::<f64>() / n).sqrt();
    let (extreme_id, _, extreme_value) =
        pistols.iter().max_by(|a, b| ((a.2 - mean).abs()).total_cmp(&(b.2 - mean).abs())).unwrap().clone();
    let expected_z = (extreme_value - mean) / sd;
    let beyond = pistols.iter().filter(|p| ((p.2 - mean) / sd).abs() > 0.5).count();
    let body =
        data(&app, "/v1/game/balance-report?threshold=0.5&stat=gameDamage&category=pistols&limit=100", &key)
            .await;
    let report = &body["data"]["categories"][0];
    assert_eq!(report["categoryId"], "pistols");
    assert_eq!(report["outlierCount"], beyond);
    let row = report["outliers"].as_array().unwrap().iter().find(|r| r["id"] == extreme_id.as_str()).unwrap();
    assert!((row["zScore"].as_f64().unwrap() - expected_z).abs() < 0.001, "z {row} vs {expected_z}");
    assert!((row["mean"].as_f64().unwrap() - mean).abs() < 0.01);
    assert!((row["standardDeviation"].as_f64().unwrap() - sd).abs() < 0.001);
    assert_eq!(row["value"].as_f64().unwrap(), extreme_value);
    assert_eq!(row["stat"], "gameDamage");
    assert_eq!(row["firearm"]["id"], extreme_id.as_str(), "the row carries the firearm record");
    assert!(row["firearm"].get("muzzleEnergyJ").is_some(), "Builder sees the full record");
    // The most extreme comes first, and the default threshold 2 lists only |z| > 2.
    assert!((report["outliers"][0]["zScore"].as_f64().unwrap().abs() - expected_z.abs()).abs() < 0.001);
    let body = data(&app, "/v1/game/balance-report?stat=gameDamage&category=pistols", &key).await;
    let beyond_two = pistols.iter().filter(|p| ((p.2 - mean) / sd).abs() > 2.0).count();
    assert_eq!(body["data"]["categories"][0]["outlierCount"], beyond_two);
    assert_eq!(body["data"]["threshold"], 2.0);

    // --- tier-list: the S/A boundary by hand. Best first; a firearm's standing is 100·r/n with r
    // the position of the first firearm with its score; S is standing < 10.
    let mut scores: Vec<f64> = pistols.iter().map(|p| p.2).collect();
    scores.sort_by(|a, b| b.total_cmp(a));
    let rank = |p: usize| scores.iter().position(|s| *s == scores[p]).unwrap();
    let in_s = (0..scores.len()).filter(|&p| 100.0 * rank(p) as f64 / n < 10.0).count();
    let in_d = (0..scores.len()).filter(|&p| 100.0 * rank(p) as f64 / n >= 90.0).count();
    let body = data(&app, "/v1/game/tier-list?stat=gameDamage&category=pistols&per_tier=50", &key).await;
    let tiers = body["data"]["tiers"].as_array().unwrap();
    assert_eq!(body["data"]["rankedCount"], pistols.len());
    assert_eq!(
        tiers.iter().map(|t| t["tier"].as_str().unwrap()).collect::<Vec<_>>(),
        ["S", "A", "B", "C", "D"]
    );
    assert_eq!(tiers[0]["count"], in_s, "{}", tiers[0]);
    assert_eq!(tiers[4]["count"], in_d);
    assert_eq!(tiers.iter().map(|t| t["count"].as_u64().unwrap()).sum::<u64>(), pistols.len() as u64);
    assert_eq!(tiers[0]["highScore"].as_f64(), Some(scores[0]));
    assert_eq!(tiers[0]["firearms"][0]["rank"], 1);
    // The first A firearm scores below the last S one: ties never straddle a boundary.
    if let (Some(low_s), Some(high_a)) = (tiers[0]["lowScore"].as_f64(), tiers[1]["highScore"].as_f64()) {
        assert!(high_a < low_s);
    }

    // `overall` is the default metric.
    let overall = data(&app, "/v1/game/tier-list?stat=overall", &key).await;
    assert_eq!(overall, data(&app, "/v1/game/tier-list", &key).await);
    assert_eq!(overall["data"]["metric"], "overall");

    // --- stat-distribution: one histogram count, the mean and the median by hand.
    let catalog = bundled();
    let stats = live_stats(&catalog);
    let mut mobility: Vec<i64> = catalog.firearms.iter().filter_map(|f| stats[&f.id].game_mobility).collect();
    mobility.sort();
    let in_bin = mobility.iter().filter(|v| (70..80).contains(*v)).count();
    let median = mobility[(mobility.len() * 50).div_ceil(100) - 1];
    let p90 = mobility[(mobility.len() * 90).div_ceil(100) - 1];
    let mean = mobility.iter().sum::<i64>() as f64 / mobility.len() as f64;
    let body = data(&app, "/v1/game/stat-distribution?stat=gameMobility&bins=10", &key).await;
    let d = &body["data"];
    assert_eq!(d["count"], mobility.len());
    assert_eq!(d["unknownCount"], catalog.firearms.len() - mobility.len());
    assert_eq!(d["histogram"][7]["count"], in_bin);
    assert_eq!(
        (d["histogram"][7]["from"].as_f64(), d["histogram"][7]["to"].as_f64()),
        (Some(70.0), Some(80.0))
    );
    assert_eq!(d["percentiles"]["p50"], median);
    assert_eq!(d["percentiles"]["p90"], p90);
    assert!((d["mean"].as_f64().unwrap() - mean).abs() < 0.005);
    assert_eq!(d["min"], mobility[0]);
    assert_eq!(
        d["histogram"].as_array().unwrap().iter().map(|b| b["count"].as_u64().unwrap()).sum::<u64>(),
        mobility.len() as u64
    );

    // --- matchups: each stat's winner by hand.
    let (glock, ak) = (&stats["glock-17"], &stats["ak-47"]);
    let body = data(&app, "/v1/game/matchups?a=glock-17&b=ak-47", &key).await;
    let duel = &body["data"];
    let (mut a_wins, mut b_wins) = (0, 0);
    for (row, ((name, a), (_, b))) in
        duel["stats"].as_array().unwrap().iter().zip(glock.named().into_iter().zip(ak.named()))
    {
        assert_eq!(row["stat"], name);
        let winner = match (a, b) {
            (Some(a), Some(b)) if a > b => {
                a_wins += 1;
                Value::from("a")
            }
            (Some(a), Some(b)) if a < b => {
                b_wins += 1;
                Value::from("b")
            }
            (Some(_), Some(_)) => Value::from("draw"),
            _ => Value::Null,
        };
        assert_eq!(row["winner"], winner, "{row}");
    }
    assert_eq!(
        (duel["verdict"]["aWins"].clone(), duel["verdict"]["bWins"].clone()),
        (a_wins.into(), b_wins.into())
    );
    if a_wins != b_wins {
        assert_eq!(duel["verdict"]["winner"], if a_wins > b_wins { "a" } else { "b" });
    }
    assert_eq!(duel["a"]["firearm"]["id"], "glock-17");

    // --- game-profile, game-meta and role-roster use one archetype rule.
    let body = data(&app, "/v1/firearms/glock-17/game-profile", &key).await;
    let profile = &body["data"];
    assert_eq!(profile["stats"]["gameMobility"], glock.game_mobility.unwrap());
    assert_eq!(profile["categoryId"], "pistols");
    let archetype = profile["archetype"].as_str().expect("the Glock has an archetype").to_owned();
    let fitness = profile["archetypeFitness"].as_f64().unwrap();
    let known: Vec<f64> = glock.named().iter().filter_map(|(_, v)| v.map(|v| v as f64)).collect();
    let overall = (known.iter().sum::<f64>() / known.len() as f64 * 100.0).round() / 100.0;
    assert_eq!(profile["overall"].as_f64(), Some(overall));
    let body = data(&app, &format!("/v1/game/role-roster?role={archetype}&count=50"), &key).await;
    let roster = &body["data"];
    let total = roster["total"].as_u64().unwrap();
    let members = roster["firearms"].as_array().unwrap();
    let fits: Vec<f64> = members.iter().map(|m| m["fitness"].as_f64().unwrap()).collect();
    assert!(fits.windows(2).all(|w| w[0] >= w[1]), "fittest first: {fits:?}");
    if total <= 50 || fitness >= fits[fits.len() - 1] {
        assert!(members.iter().any(|m| m["id"] == "glock-17"), "the Glock is in its own roster");
    }
    let body = data(&app, &format!("/v1/firearms/game-meta?archetype={archetype}"), &key).await;
    assert_eq!(body["data"]["catalog"]["firearmCount"], total);
    let body = data(&app, "/v1/firearms/game-meta", &key).await;
    let meta = &body["data"]["catalog"];
    let counted: u64 =
        meta["archetypes"].as_array().unwrap().iter().map(|a| a["count"].as_u64().unwrap()).sum();
    assert_eq!(counted + meta["unclassifiedCount"].as_u64().unwrap(), catalog.firearms.len() as u64);
    assert_eq!(meta["firearmCount"], catalog.firearms.len());
    let pistols_meta = body["data"]["categories"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["categoryId"] == "pistols")
        .unwrap()
        .clone();
    assert_eq!(pistols_meta["stats"]["gameDamage"]["count"], pistols.len());
    let damage_mean = pistols.iter().map(|p| p.2).sum::<f64>() / n;
    assert!((pistols_meta["stats"]["gameDamage"]["mean"].as_f64().unwrap() - damage_mean).abs() < 0.005);
}
