//! The vocabularies the game-balance answers (`read::query::game`) are described with: their
//! fields hold these names as text.

use utoipa::ToSchema;

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

#[derive(ToSchema)]
pub enum TierName {
    S,
    A,
    B,
    C,
    D,
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
#[schema(rename_all = "lowercase")]
pub enum MatchupWinner {
    A,
    B,
    Draw,
}
