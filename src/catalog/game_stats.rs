//! The eight live game stats, derived from each firearm's specifications (spec "FirearmGameStats").
//!
//! Every stat is a 0–100 integer built from one saturating curve, `100 · x / (x + reference)`:
//! a figure equal to its reference scores 50, twice it 67, half of it 33, and no figure can reach
//! the ends of the scale. The references are game-design constants, not catalog figures; where the
//! spec says "relative to category" the reference is the category's own. A stat whose inputs are
//! all unknown is null rather than guessed.
//!
//! | Stat | Input | Reference |
//! |---|---|---|
//! | gameDamage | muzzle energy (the firearm's, else its primary cartridge's typical) | category energy below |
//! | gameAccuracy | mean of barrel length (ref 300 mm), sight radius (ref 400 mm), empty weight (ref 3 kg) | |
//! | gameRange | effective range | category range below |
//! | gameFireRate | rate of fire, else the action's practical rate below | 600 rpm |
//! | gameMobility | inverse of loaded (else empty) weight | 3 kg |
//! | gameRecoilControl | grams of empty weight per joule of muzzle energy | 1.5 g/J |
//! | gameReloadSpeed | 70% magazine type (below) + 30% capacity curve (ref 30 rounds) | |
//! | gameConcealment | inverse of the shortest overall length (folded if known) | 400 mm |
//!
//! Stats depend only on the firearm and its cartridge, never on other firearms, so an import that
//! changes one record cannot move the stats (and so the version) of another.

use std::collections::HashMap;

use serde::Serialize;

use super::model::{Caliber, Catalog, Firearm};

/// The stats' column names, in served order: the one list the SQL of the live and frozen stats is
/// written from.
pub const COLUMNS: [&str; 8] = [
    "game_damage",
    "game_accuracy",
    "game_range",
    "game_fire_rate",
    "game_mobility",
    "game_recoil_control",
    "game_reload_speed",
    "game_concealment",
];

/// `COLUMNS` joined for a SELECT list, each with `prefix` (such as `s.`).
pub fn column_list(prefix: &str) -> String {
    COLUMNS.iter().map(|c| format!("{prefix}{c}")).collect::<Vec<_>>().join(", ")
}

/// The eight stats, each 0 to 100 or null when unknown.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize, sqlx::FromRow, utoipa::ToSchema,
)]
#[serde(rename_all = "camelCase")]
#[schema(as = GameStatValues)]
pub struct GameStats {
    pub game_damage: Option<i64>,
    pub game_accuracy: Option<i64>,
    pub game_range: Option<i64>,
    pub game_fire_rate: Option<i64>,
    pub game_mobility: Option<i64>,
    pub game_recoil_control: Option<i64>,
    pub game_reload_speed: Option<i64>,
    pub game_concealment: Option<i64>,
}

impl GameStats {
    /// The stats in their served order, with their camelCase names.
    pub fn named(&self) -> [(&'static str, Option<i64>); 8] {
        [
            ("gameDamage", self.game_damage),
            ("gameAccuracy", self.game_accuracy),
            ("gameRange", self.game_range),
            ("gameFireRate", self.game_fire_rate),
            ("gameMobility", self.game_mobility),
            ("gameRecoilControl", self.game_recoil_control),
            ("gameReloadSpeed", self.game_reload_speed),
            ("gameConcealment", self.game_concealment),
        ]
    }

    /// The stats from their values in served order (as `named` gives them).
    pub fn from_values(values: [Option<i64>; 8]) -> Self {
        let [damage, accuracy, range, fire_rate, mobility, recoil_control, reload_speed, concealment] =
            values;
        Self {
            game_damage: damage,
            game_accuracy: accuracy,
            game_range: range,
            game_fire_rate: fire_rate,
            game_mobility: mobility,
            game_recoil_control: recoil_control,
            game_reload_speed: reload_speed,
            game_concealment: concealment,
        }
    }
}

/// Muzzle energy (J) and effective range (m) that score 50 in each category.
fn category_reference(category_id: &str) -> (f64, f64) {
    match category_id {
        "pistols" => (500.0, 50.0),
        "revolvers" => (700.0, 50.0),
        "submachine-guns" => (550.0, 150.0),
        "carbines" => (1_500.0, 300.0),
        "rifles" => (2_500.0, 500.0),
        "precision-rifles" => (4_500.0, 1_000.0),
        "machine-guns" => (3_500.0, 1_000.0),
        "shotguns" => (3_000.0, 50.0),
        _ => (1_500.0, 200.0),
    }
}

/// Aimed rounds per minute by action, used when the catalog has no rate of fire.
fn practical_rate(action_type: &str) -> Option<f64> {
    let rate = match action_type {
        "break_action" | "muzzleloader" | "falling_block" | "rolling_block" | "trapdoor"
        | "breech_loading" | "hinged_breechblock" | "spring_piston" | "pneumatic" => 8.0,
        "bolt_action" | "straight_pull" => 15.0,
        "lever_action" | "pump_action" | "single_action" | "single_action_revolver" => 20.0,
        "revolving" | "double_action" | "double_action_revolver" | "double_action_only" => 30.0,
        _ if action_type.contains("blowback")
            || action_type.contains("recoil")
            || action_type.contains("gas") =>
        {
            45.0
        }
        _ => return None,
    };
    Some(rate)
}

/// How quickly a magazine of this type is refilled or swapped, 0–100.
fn magazine_score(magazine_type: &str) -> Option<f64> {
    let score = match magazine_type {
        "detachable_box" | "detachable_single_stack_box" | "detachable_triple_box" => 85.0,
        "stripper_clip" | "en_bloc_clip" | "feed_strip" => 60.0,
        "drum" | "pan" | "helical" => 45.0,
        "belt" | "belt_fed" | "disintegrating_link_belt" => 35.0,
        "revolving_cylinder" | "rotary" => 40.0,
        "fixed_box" | "internal" | "internal_box" | "integral" | "tube" | "tubular" | "dual_tubular" => 30.0,
        "single_shot" | "none" => 15.0,
        _ => return None,
    };
    Some(score)
}

/// `100 · x / (x + reference)`, rounded; None for a missing or non-positive figure.
fn curve(x: Option<f64>, reference: f64) -> Option<f64> {
    x.filter(|x| *x > 0.0).map(|x| 100.0 * x / (x + reference))
}

fn inverse_curve(x: Option<f64>, reference: f64) -> Option<f64> {
    x.filter(|x| *x > 0.0).map(|x| 100.0 * reference / (x + reference))
}

fn score(x: Option<f64>) -> Option<i64> {
    x.map(|x| x.round().clamp(0.0, 100.0) as i64)
}

fn mean(parts: &[Option<f64>]) -> Option<f64> {
    let known: Vec<f64> = parts.iter().flatten().copied().collect();
    (!known.is_empty()).then(|| known.iter().sum::<f64>() / known.len() as f64)
}

/// The stats of one firearm; `cartridge_energy` is its primary cartridge's typical muzzle energy.
pub fn derive_one(firearm: &Firearm, cartridge_energy: Option<f64>) -> GameStats {
    let (energy_reference, range_reference) = category_reference(&firearm.category_id);
    let energy = firearm.muzzle_energy_j.or(cartridge_energy);
    let weight = firearm.weight_empty_g.or(firearm.weight_loaded_g);
    let fire_rate = firearm
        .rate_of_fire_rpm
        .map(|r| r as f64)
        .or_else(|| firearm.action_type.as_deref().and_then(practical_rate));
    let recoil_ratio = match (weight, energy) {
        (Some(w), Some(e)) if e > 0.0 => Some(w / e),
        _ => None,
    };
    let reload = match (firearm.magazine_type.as_deref().and_then(magazine_score), firearm.magazine_capacity)
    {
        (Some(kind), Some(capacity)) => curve(Some(capacity as f64), 30.0).map(|c| 0.7 * kind + 0.3 * c),
        (Some(kind), None) => Some(kind),
        (None, _) => None,
    };
    let shortest = match (firearm.overall_length_mm, firearm.folded_length_mm) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    GameStats {
        game_damage: score(curve(energy, energy_reference)),
        game_accuracy: score(mean(&[
            curve(firearm.barrel_length_mm, 300.0),
            curve(firearm.sight_radius_mm, 400.0),
            curve(weight, 3_000.0),
        ])),
        game_range: score(curve(firearm.effective_range_m, range_reference)),
        game_fire_rate: score(curve(fire_rate, 600.0)),
        game_mobility: score(inverse_curve(firearm.weight_loaded_g.or(firearm.weight_empty_g), 3_000.0)),
        game_recoil_control: score(curve(recoil_ratio, 1.5)),
        game_reload_speed: score(reload),
        game_concealment: score(inverse_curve(shortest, 400.0)),
    }
}

/// Each caliber's typical muzzle energy by id: a firearm without its own falls back on its
/// primary cartridge's.
pub type CartridgeEnergies = HashMap<String, Option<f64>>;

pub fn cartridge_energies<'a>(calibers: impl IntoIterator<Item = &'a Caliber>) -> CartridgeEnergies {
    calibers.into_iter().map(|c| (c.id.clone(), c.typical_muzzle_energy_j)).collect()
}

/// Every firearm's stats, by firearm id.
pub fn derive(catalog: &Catalog) -> HashMap<String, GameStats> {
    derive_with(&catalog.firearms.typed(), &cartridge_energies(&catalog.calibers))
}

/// The stats of `firearms`, by firearm id, their cartridges' energies looked up in `energies`.
pub fn derive_with(
    firearms: &[std::sync::Arc<Firearm>],
    energies: &CartridgeEnergies,
) -> HashMap<String, GameStats> {
    firearms
        .iter()
        .map(|firearm| {
            let primary = firearm.calibers.iter().find(|c| c.is_primary).or(firearm.calibers.first());
            let cartridge_energy = primary.and_then(|c| energies.get(&c.caliber_id).copied().flatten());
            (firearm.id.clone(), derive_one(firearm, cartridge_energy))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn firearm(category: &str) -> Firearm {
        let value =
            serde_json::json!({"id": "x", "name": "X", "manufacturerId": "m", "categoryId": category});
        let mut firearm: Firearm = serde_json::from_value(value).unwrap();
        firearm.category_id = category.to_owned();
        firearm
    }

    #[test]
    fn a_firearm_with_no_figures_has_no_stats() {
        assert_eq!(derive_one(&firearm("pistols"), None), GameStats::default());
    }

    #[test]
    fn damage_is_relative_to_the_category() {
        let mut pistol = firearm("pistols");
        pistol.muzzle_energy_j = Some(500.0);
        let mut rifle = firearm("rifles");
        rifle.muzzle_energy_j = Some(500.0);
        assert_eq!(derive_one(&pistol, None).game_damage, Some(50));
        assert_eq!(derive_one(&rifle, None).game_damage, Some(17));
    }

    #[test]
    fn the_cartridge_energy_stands_in_for_a_missing_muzzle_energy() {
        let pistol = firearm("pistols");
        assert_eq!(derive_one(&pistol, Some(1_000.0)).game_damage, Some(67));
    }

    #[test]
    fn heavier_is_less_mobile_and_longer_is_less_concealable() {
        let mut light = firearm("pistols");
        light.weight_empty_g = Some(600.0);
        light.overall_length_mm = Some(180.0);
        let mut heavy = firearm("rifles");
        heavy.weight_empty_g = Some(4_000.0);
        heavy.overall_length_mm = Some(1_000.0);
        heavy.folded_length_mm = Some(750.0);
        let (l, h) = (derive_one(&light, None), derive_one(&heavy, None));
        assert_eq!(l.game_mobility, Some(83));
        assert_eq!(h.game_mobility, Some(43));
        assert_eq!(l.game_concealment, Some(69));
        assert_eq!(h.game_concealment, Some(35), "the folded length counts");
    }

    #[test]
    fn the_action_stands_in_for_a_missing_rate_of_fire() {
        let mut bolt = firearm("rifles");
        bolt.action_type = Some("bolt_action".into());
        assert_eq!(derive_one(&bolt, None).game_fire_rate, Some(2));
        bolt.rate_of_fire_rpm = Some(600);
        assert_eq!(derive_one(&bolt, None).game_fire_rate, Some(50));
    }

    #[test]
    fn reload_speed_weighs_magazine_type_and_capacity() {
        let mut glock = firearm("pistols");
        glock.magazine_type = Some("detachable_box".into());
        glock.magazine_capacity = Some(17);
        // 0.7 · 85 + 0.3 · (100 · 17 / 47) = 59.5 + 10.85
        assert_eq!(derive_one(&glock, None).game_reload_speed, Some(70));
    }
}
