//! GET /v1/firearms/{id}/game-stats: a firearm's live game-balance stats (operation 26).

use axum::response::Response;

use crate::http::extract::path::ValidPath;
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};
use crate::read::query::game;

/// The live game stats (0 to 100, null when the specifications do not allow one), recomputed by
/// every import. Each stat is `100·x/(x+reference)`: damage from muzzle energy (the cartridge's
/// typical energy when the firearm has none) against a per-category reference (pistols 500 J,
/// revolvers 700, submachine guns 550, carbines 1,500, rifles 2,500, precision rifles 4,500,
/// machine guns 3,500, shotguns 3,000, others 1,500); range from effective range against a
/// per-category reference (50 m to 1,000 m); accuracy the mean of barrel length (300 mm), sight
/// radius (400 mm) and weight (3 kg); fire rate from the rate of fire (600 rpm; the action's
/// practical rate when unknown); mobility the inverse of weight (3 kg); recoil control grams per
/// joule (1.5); reload speed 70% magazine type and 30% capacity (30 rounds); concealment the
/// inverse of the shortest overall length (400 mm). The same text is in ARCHITECTURE.md.
#[utoipa::path(get, path = "/v1/firearms/{id}/game-stats", tag = "Game stats",
    params(("id" = String, Path)),
    responses((status = 200, body = schemas::One<game::FirearmGameStats>)))]
pub async fn game_stats(
    snapshot: CurrentSnapshot,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    Ok(respond::one(game::live_stats(&snapshot, &id)?))
}
