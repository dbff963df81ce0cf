//! Schemas of the game-balance analytics (operations 21, 27, 85 to 89).

use utoipa::ToSchema;

use super::FirearmListItem;

/// The eight game stats (vocabulary of every `stat` parameter and field).
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub enum GameStat {
    GameDamage,
    GameAccuracy,
    GameRange,
    GameFireRate,
    GameMobility,
    GameRecoilControl,
    GameReloadSpeed,
    GameConcealment,
}

/// A game archetype (vocabularies.md).
#[derive(ToSchema)]
#[schema(rename_all = "kebab-case")]
pub enum GameArchetype {
    Sniper,
    Assault,
    Tank,
    GlassCannon,
    AllRounder,
    Support,
    Stealth,
    Speedster,
}

/// The eight stats, each 0 to 100 or null when unknown.
#[derive(ToSchema, serde::Serialize)]
#[schema(rename_all = "camelCase")]
pub struct GameStatValues {
    game_damage: Option<i64>,
    game_accuracy: Option<i64>,
    game_range: Option<i64>,
    game_fire_rate: Option<i64>,
    game_mobility: Option<i64>,
    game_recoil_control: Option<i64>,
    game_reload_speed: Option<i64>,
    game_concealment: Option<i64>,
}

/// One stat over a set of firearms (those whose stat is known); null figures when none is.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct GameStatSummary {
    count: i64,
    /// Two decimals.
    mean: Option<f64>,
    /// Population standard deviation (divided by n), three decimals.
    standard_deviation: Option<f64>,
    min: Option<i64>,
    max: Option<i64>,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct GameStatSummaries {
    game_damage: GameStatSummary,
    game_accuracy: GameStatSummary,
    game_range: GameStatSummary,
    game_fire_rate: GameStatSummary,
    game_mobility: GameStatSummary,
    game_recoil_control: GameStatSummary,
    game_reload_speed: GameStatSummary,
    game_concealment: GameStatSummary,
}

#[derive(ToSchema)]
pub struct GameArchetypeCount {
    archetype: GameArchetype,
    count: i64,
}

/// The figures of one set of firearms.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct GameMetaFigures {
    firearm_count: i64,
    /// Firearms with fewer than four known stats (no archetype); 0 when `archetype` is given.
    unclassified_count: i64,
    /// Firearms per archetype (with `archetype`: that one alone).
    archetypes: Vec<GameArchetypeCount>,
    stats: GameStatSummaries,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct GameMetaCategory {
    category_id: String,
    name: String,
    #[serde(flatten)]
    figures: GameMetaFigures,
}

/// Catalog-wide and per-category figures.
#[derive(ToSchema)]
pub struct GameMeta {
    /// The frozen version answered from; null for the live stats.
    version: Option<String>,
    archetype: Option<GameArchetype>,
    catalog: GameMetaFigures,
    /// Every category, in catalog order.
    categories: Vec<GameMetaCategory>,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct GameStatStanding {
    stat: GameStat,
    value: Option<i64>,
    /// Mid-rank percentile within the catalog (0 to 100), null when the stat is unknown.
    catalog_percentile: Option<f64>,
    /// Mid-rank percentile within the firearm's category.
    category_percentile: Option<f64>,
}

#[derive(ToSchema)]
pub struct GameArchetypeFitness {
    archetype: GameArchetype,
    fitness: f64,
}

/// A firearm's game profile.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct GameProfile {
    id: String,
    name: String,
    version: Option<String>,
    /// Null when a frozen version's firearm is no longer in the catalog.
    category_id: Option<String>,
    stats: GameStatValues,
    /// Mean of the known stats (at least four), two decimals.
    overall: Option<f64>,
    archetype: Option<GameArchetype>,
    /// The fitness for its archetype.
    archetype_fitness: Option<f64>,
    /// Fitness for every archetype, in vocabulary order.
    fitness: Vec<GameArchetypeFitness>,
    /// Stats at category percentile ≥ 75.
    strengths: Vec<GameStat>,
    /// Stats at category percentile ≤ 25.
    weaknesses: Vec<GameStat>,
    standing: Vec<GameStatStanding>,
    /// The firearm as lists show it to the caller's plan; null when no longer in the catalog.
    firearm: Option<FirearmListItem>,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct GameOutlier {
    id: String,
    name: String,
    stat: GameStat,
    value: i64,
    /// The category's mean of the stat.
    mean: f64,
    /// The category's population standard deviation of the stat.
    standard_deviation: f64,
    /// (value − mean) / standardDeviation, three decimals.
    z_score: f64,
    firearm: Option<FirearmListItem>,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct GameCategoryOutliers {
    category_id: String,
    name: String,
    firearm_count: i64,
    /// Every outlier of the category (the list holds at most `limit`).
    outlier_count: i64,
    outliers: Vec<GameOutlier>,
}

#[derive(ToSchema)]
pub struct BalanceReport {
    version: Option<String>,
    threshold: f64,
    stat: Option<GameStat>,
    /// Every category (or the one asked), in catalog order.
    categories: Vec<GameCategoryOutliers>,
}

#[derive(ToSchema)]
pub enum TierName {
    S,
    A,
    B,
    C,
    D,
}

#[derive(ToSchema)]
pub struct TieredFirearm {
    id: String,
    name: String,
    /// 1-based competition rank (ties share it).
    rank: i64,
    score: f64,
    archetype: Option<GameArchetype>,
    firearm: Option<FirearmListItem>,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct Tier {
    tier: TierName,
    /// The tier's standing range: fromPercentile ≤ q < toPercentile (D includes 100).
    from_percentile: f64,
    to_percentile: f64,
    /// Firearms in the tier.
    count: i64,
    high_score: Option<f64>,
    low_score: Option<f64>,
    /// Its best `per_tier` firearms.
    firearms: Vec<TieredFirearm>,
}

/// What a tier list ranks by: overall or a stat.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub enum TierMetric {
    Overall,
    GameDamage,
    GameAccuracy,
    GameRange,
    GameFireRate,
    GameMobility,
    GameRecoilControl,
    GameReloadSpeed,
    GameConcealment,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct TierList {
    version: Option<String>,
    metric: TierMetric,
    category: Option<String>,
    /// Firearms with a value for the metric.
    ranked_count: i64,
    /// S, A, B, C, D.
    tiers: Vec<Tier>,
}

#[derive(ToSchema)]
pub struct MatchupSide {
    id: String,
    name: String,
    archetype: Option<GameArchetype>,
    overall: Option<f64>,
    stats: GameStatValues,
    firearm: Option<FirearmListItem>,
}

#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
pub enum MatchupWinner {
    A,
    B,
    Draw,
}

#[derive(ToSchema)]
pub struct StatDuel {
    stat: GameStat,
    a: Option<i64>,
    b: Option<i64>,
    /// Null when either value is unknown.
    winner: Option<MatchupWinner>,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct MatchupVerdict {
    winner: MatchupWinner,
    a_wins: i64,
    b_wins: i64,
    draws: i64,
    /// "stats won", "overall score" or "even".
    decided_by: String,
}

#[derive(ToSchema)]
pub struct Matchup {
    version: Option<String>,
    a: MatchupSide,
    b: MatchupSide,
    stats: Vec<StatDuel>,
    verdict: MatchupVerdict,
}

#[derive(ToSchema)]
pub struct RosterMember {
    rank: i64,
    id: String,
    name: String,
    /// Fitness for the role, 0 to 100.
    fitness: f64,
    overall: Option<f64>,
    stats: GameStatValues,
    firearm: Option<FirearmListItem>,
}

#[derive(ToSchema)]
pub struct RoleRoster {
    version: Option<String>,
    role: GameArchetype,
    /// How many firearms have the archetype.
    total: i64,
    firearms: Vec<RosterMember>,
}

#[derive(ToSchema)]
pub struct HistogramBin {
    from: f64,
    to: f64,
    count: i64,
}

#[derive(ToSchema)]
pub struct StatPercentiles {
    p10: Option<i64>,
    p25: Option<i64>,
    p50: Option<i64>,
    p75: Option<i64>,
    p90: Option<i64>,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct StatDistribution {
    version: Option<String>,
    stat: GameStat,
    category: Option<String>,
    /// Firearms whose stat is known.
    count: i64,
    /// Firearms in scope whose stat is unknown.
    unknown_count: i64,
    mean: Option<f64>,
    standard_deviation: Option<f64>,
    min: Option<i64>,
    max: Option<i64>,
    percentiles: StatPercentiles,
    histogram: Vec<HistogramBin>,
}
