//! GET /v1/game/matchups: two firearms stat by stat, with a verdict (operation 87).

use axum::extract::State;
use axum::response::Response;
use serde::Serialize;
use serde_json::json;
use serde_json::value::RawValue;

use crate::access::caller::Caller;
use crate::http::extract::query::{Params, QueryParam, QueryParams, Rule, Valid};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::game::{self, StatValues, VERSION};
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState, respond};
use crate::read::game::Entry;
use crate::read::game::matchup::matchup;
use crate::read::snapshot::Snapshot;
use crate::read::views::View;

const A: QueryParam = QueryParam::new("a", Rule::Slug, "the first firearm's id").required();
const B: QueryParam = QueryParam::new("b", Rule::Slug, "the second firearm's id").required();

pub struct MatchupQuery {
    a: String,
    b: String,
    version: Option<String>,
}

impl QueryParams for MatchupQuery {
    const PARAMS: &'static [QueryParam] = &[A, B, VERSION];
    fn read(params: &mut Params) -> Self {
        Self {
            a: params.slug(&A).unwrap_or_default(),
            b: params.slug(&B).unwrap_or_default(),
            version: game::version(params),
        }
    }
}

crate::query_params_doc!(MatchupQuery);

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Side<'a> {
    id: &'a str,
    name: &'a str,
    archetype: Option<&'static str>,
    overall: Option<f64>,
    stats: StatValues,
    firearm: Option<Box<RawValue>>,
}

fn side<'a>(snapshot: &Snapshot, view: View, entry: &'a Entry) -> Side<'a> {
    Side {
        id: &entry.id,
        name: &entry.name,
        archetype: game::archetype_name(entry),
        overall: entry.overall,
        stats: StatValues::of(entry),
        firearm: game::listed(snapshot, view, entry),
    }
}

/// `a` against `b`: each stat's winner and the verdict (rules in the description). Either id
/// unknown (to the catalog, or to the frozen version) is 404 naming it in `details.missing`.
#[utoipa::path(get, path = "/v1/game/matchups", tag = "Game analytics", params(MatchupQuery),
    responses((status = 200, body = schemas::One<schemas::Matchup>)),
    description = game::describe_matchups())]
pub async fn matchups(
    State(state): State<AppState>,
    snapshot: CurrentSnapshot,
    caller: Caller,
    Valid(query): Valid<MatchupQuery>,
) -> Result<Response, ApiError> {
    let analytics = state.catalog.game(&snapshot.0, query.version.as_deref()).await?;
    let (a, b) = (analytics.entry(&query.a), analytics.entry(&query.b));
    let (Some(a), Some(b)) = (a, b) else {
        let missing: Vec<&String> = [(&query.a, a.is_none()), (&query.b, b.is_none())]
            .into_iter()
            .filter_map(|(id, missing)| missing.then_some(id))
            .collect();
        let what = match &query.version {
            Some(label) => format!("firearm in game-stats version {label}"),
            None => "firearm".to_owned(),
        };
        return Err(ApiError::missing_ids(&what, &missing));
    };
    let view = View::of(caller.plan);
    let side = |entry| side(&snapshot, view, entry);
    let duel = matchup(a, b);
    let stats: Vec<_> = duel
        .stats
        .iter()
        .map(|d| json!({ "stat": d.stat, "a": d.a, "b": d.b, "winner": d.winner.map(|w| w.name()) }))
        .collect();
    Ok(respond::one(json!({
        "version": query.version,
        "a": side(a),
        "b": side(b),
        "stats": stats,
        "verdict": {
            "winner": duel.verdict.name(),
            "aWins": duel.a_wins,
            "bWins": duel.b_wins,
            "draws": duel.draws,
            "decidedBy": duel.decided_by,
        },
    })))
}
