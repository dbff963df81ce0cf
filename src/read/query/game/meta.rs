//! The game stats' means and spreads per category and catalog-wide, with archetype counts (21).

use serde::Serialize;

use crate::read::game::archetype::ARCHETYPE_NAMES;
use crate::read::game::distribution::Distribution;
use crate::read::game::{GameAnalytics, Scope};
use crate::read::snapshot::Snapshot;

/// Catalog-wide and per-category figures.
#[derive(Serialize, utoipa::ToSchema)]
pub struct GameMeta<'a> {
    /// The frozen version answered from; null for the live stats.
    pub version: Option<&'a str>,
    #[schema(value_type = Option<crate::read::rendered::shapes::GameArchetype>)]
    pub archetype: Option<&'static str>,
    pub catalog: GameMetaFigures,
    /// Every category, in catalog order.
    pub categories: Vec<GameMetaCategory<'a>>,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GameMetaCategory<'a> {
    // The figures first, then the category's id and name: the order the answer is served in.
    #[serde(flatten)]
    pub figures: GameMetaFigures,
    pub category_id: &'a str,
    pub name: &'a str,
}

/// The figures of one set of firearms.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GameMetaFigures {
    #[schema(value_type = i64)]
    pub firearm_count: u32,
    /// Firearms with fewer than four known stats (no archetype); 0 when `archetype` is given.
    #[schema(value_type = i64)]
    pub unclassified_count: u32,
    /// Firearms per archetype (with `archetype`: that one alone).
    pub archetypes: Vec<GameArchetypeCount>,
    pub stats: GameStatSummaries,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct GameArchetypeCount {
    #[schema(value_type = crate::read::rendered::shapes::GameArchetype)]
    pub archetype: &'static str,
    #[schema(value_type = i64)]
    pub count: u32,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GameStatSummaries {
    pub game_damage: GameStatSummary,
    pub game_accuracy: GameStatSummary,
    pub game_range: GameStatSummary,
    pub game_fire_rate: GameStatSummary,
    pub game_mobility: GameStatSummary,
    pub game_recoil_control: GameStatSummary,
    pub game_reload_speed: GameStatSummary,
    pub game_concealment: GameStatSummary,
}

impl GameStatSummaries {
    /// Per stat, in `STAT_NAMES` order.
    fn of(stats: &[Distribution; 8]) -> Self {
        let [
            game_damage,
            game_accuracy,
            game_range,
            game_fire_rate,
            game_mobility,
            game_recoil_control,
            game_reload_speed,
            game_concealment,
        ] = stats.each_ref().map(GameStatSummary::of);
        Self {
            game_damage,
            game_accuracy,
            game_range,
            game_fire_rate,
            game_mobility,
            game_recoil_control,
            game_reload_speed,
            game_concealment,
        }
    }
}

/// One stat over a set of firearms (those whose stat is known); null figures when none is.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GameStatSummary {
    #[schema(value_type = i64)]
    pub count: u32,
    /// Two decimals.
    pub mean: Option<f64>,
    /// Population standard deviation (divided by n), three decimals.
    pub standard_deviation: Option<f64>,
    #[schema(value_type = Option<i64>)]
    pub min: Option<u8>,
    #[schema(value_type = Option<i64>)]
    pub max: Option<u8>,
}

impl GameStatSummary {
    fn of(d: &Distribution) -> Self {
        Self {
            count: d.count(),
            mean: d.mean(),
            standard_deviation: d.standard_deviation(),
            min: d.min(),
            max: d.max(),
        }
    }
}

/// Stat means and spreads catalog-wide and per category (catalog order), and how many firearms
/// each archetype holds; `archetype` (a position in `ARCHETYPE_NAMES`) narrows every figure to
/// that archetype's firearms.
pub fn game_meta<'a>(
    snapshot: &'a Snapshot,
    analytics: &'a GameAnalytics,
    archetype: Option<usize>,
) -> GameMeta<'a> {
    GameMeta {
        version: analytics.version.as_deref(),
        archetype: archetype.map(|at| ARCHETYPE_NAMES[at]),
        catalog: figures(analytics.catalog_scope(), archetype),
        categories: snapshot
            .catalog
            .categories
            .iter()
            .enumerate()
            .map(|(at, category)| GameMetaCategory {
                figures: figures(analytics.category_scope(at), archetype),
                category_id: &category.id,
                name: &category.name,
            })
            .collect(),
    }
}

/// One scope's figures, narrowed to an archetype when asked.
fn figures(scope: &Scope, archetype: Option<usize>) -> GameMetaFigures {
    let (firearms, stats) = match archetype {
        Some(at) => (scope.archetypes[at].firearms, &scope.archetypes[at].stats),
        None => (scope.firearms, &scope.stats),
    };
    let archetypes = ARCHETYPE_NAMES
        .iter()
        .zip(&scope.archetypes)
        .enumerate()
        .filter(|(at, (_, group))| archetype.is_none_or(|only| only == *at && group.firearms > 0))
        .map(|(_, (name, group))| GameArchetypeCount { archetype: name, count: group.firearms })
        .collect();
    GameMetaFigures {
        firearm_count: firearms,
        unclassified_count: if archetype.is_some() { 0 } else { scope.unclassified },
        archetypes,
        stats: GameStatSummaries::of(stats),
    }
}
