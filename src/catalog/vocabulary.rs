//! The closed value lists of ../shared/spec/vocabularies.md. The import refuses any other value;
//! the OpenAPI description publishes each list as a named enum.

pub const FIREARM_STATUSES: &[&str] = &["in_production", "discontinued", "prototype"];
pub const ACTION_TYPES: &[&str] = &[
    "short_recoil",
    "bolt_action",
    "blowback",
    "break_action",
    "gas_operated",
    "gas_operated_long_stroke",
    "gas_operated_direct_impingement",
    "revolving",
    "gas_operated_short_stroke",
    "muzzleloader",
    "pump_action",
    "lever_action",
    "double_action",
    "falling_block",
    "roller_delayed_blowback",
    "single_action",
    "gas_operated_short_stroke_piston",
    "single_action_revolver",
    "double_action_revolver",
    "inertia_operated",
    "recoil_operated",
    "delayed_blowback",
    "long_recoil",
    "gas_operated_rotating_bolt",
    "breech_loading",
    "rolling_block",
    "straight_pull",
    "trapdoor",
    "spring_piston",
    "hinged_breechblock",
    "lever_delayed_blowback",
    "blow_forward",
    "electric_gatling",
    "double_action_only",
    "rotating_barrel",
    "pneumatic",
    "gas_operated_dual_mode",
    "delayed_blowback_rotating_barrel",
    "gas_delayed_blowback",
    "radial_delayed_blowback",
    "short_recoil_rotating_barrel",
    "gas_operated_balanced_automatics",
    "gas_operated_balanced_recoil",
    "gas_operated_blow_forward",
    "gas_operated_open_bolt",
    "gas_operated_tilting_bolt",
];
pub const FIRING_MECHANISMS: &[&str] = &[
    "striker_fired",
    "hammer_fired",
    "double_action",
    "double_action_only",
    "single_action",
    "double_action_single_action",
    "open_bolt",
    "closed_bolt",
    "rotating_bolt",
    "internal_hammer",
    "fixed_firing_pin",
    "flintlock",
    "matchlock",
    "wheellock",
    "miquelet_lock",
    "percussion",
    "percussion_cap",
    "single_action_only",
    "traditional_double_action",
    "solenoid_fired",
    "externally_powered",
    "hammerless",
    "pneumatic",
];
pub const TRIGGER_TYPES: &[&str] = &[
    "safe_action",
    "single_stage",
    "single_action",
    "two_stage",
    "double_action",
    "double_action_single_action",
    "da_sa",
    "set_trigger",
    "progressive_two_stage",
    "select_fire",
    "automatic",
    "automatic_only",
    "full_auto_only",
    "semi_auto",
    "flat_faced",
    "single_action_with_restrike",
    "double_trigger",
    "single_trigger",
    "double_action_only",
    "single_action_only",
    "single_selective",
    "selective_fire",
    "double_set",
    "single_set",
    "striker_fired",
    "adjustable",
    "adjustable_single_stage",
    "adjustable_two_stage",
    "adjustable_match",
    "two_stage_adjustable_match",
    "quattro_two_stage_adjustable",
    "match",
    "progressive",
    "electronic",
    "contact_fire",
    "strike_two",
    "flat_face_safe_action",
    "sheathed_trigger",
    "self_defense_trigger",
    "concealed_hammer",
    "internal_hammer",
    "ring_trigger",
    "spade_grip",
    "thumb_triggers",
];
pub const MAGAZINE_TYPES: &[&str] = &[
    "detachable_box",
    "detachable_single_stack_box",
    "fixed_box",
    "internal",
    "drum",
    "belt",
    "belt_fed",
    "disintegrating_link_belt",
    "tube",
    "tubular",
    "dual_tubular",
    "rotary",
    "revolving_cylinder",
    "helical",
    "en_bloc_clip",
    "stripper_clip",
    "internal_box",
    "integral",
    "feed_strip",
    "pan",
    "detachable_triple_box",
    "single_shot",
    "none",
];
pub const USER_TYPES: &[&str] = &[
    "military",
    "law_enforcement",
    "civilian",
    "paramilitary",
    "special_forces",
    "private_security",
    "training",
    "commercial",
    "government",
    "sporting",
    "tribal",
    "insurgent",
    "intelligence",
];
pub const IMAGE_TYPES: &[&str] =
    &["primary", "gallery", "thumbnail", "svg", "photo", "render", "profile", "angle", "detail", "3d_model"];
/// Strongest first: `best_source_kind` relies on this order.
pub const SOURCE_KINDS: &[&str] = &[
    "manufacturer",
    "standards_body",
    "government",
    "reference",
    "aggregator",
    "press",
    "retailer",
    "community",
    "other",
];
pub const VARIANT_TYPES: &[&str] = &[
    "generation",
    "model",
    "special_edition",
    "military_designation",
    "caliber_conversion",
    "compact",
    "subcompact",
    "carbine",
    "sniper",
    "law_enforcement",
    "civilian",
    "export",
    "prototype",
];
pub const CARTRIDGE_TYPES: &[&str] =
    &["centerfire_pistol", "centerfire_rifle", "rimfire", "shotshell", "muzzleloader_projectile"];
pub const PRIMER_TYPES: &[&str] = &["boxer", "berdan", "rimfire", "shotshell", "none"];
pub const BULLET_TYPES: &[&str] = &[
    "fmj",
    "jhp",
    "sp",
    "hp",
    "hpbt",
    "fmjbt",
    "ap",
    "tracer",
    "ball",
    "match",
    "slug",
    "buckshot",
    "birdshot",
    "lead_round_nose",
    "wadcutter",
    "semi_wadcutter",
    "soft_point",
    "polymer_tip",
    "frangible",
];
pub const INTERFACE_KINDS: &[&str] =
    &["rail", "handguard_slot", "muzzle_thread", "optic_footprint", "magazine_well", "stock_interface"];

/// Changelog entry categories (the spec's Versioning rule 7).
pub const CHANGELOG_CATEGORIES: &[&str] = &["feature", "improvement", "bugfix", "data", "breaking"];
/// Service notice variants.
pub const NOTICE_VARIANTS: &[&str] = &["info", "warning", "critical"];
/// What a notice file announces: a notice, or a scheduled maintenance window (not in the spec).
pub const NOTICE_KINDS: &[&str] = &["notice", "maintenance"];
/// Whether a notice file is served (not in the spec).
pub const NOTICE_STATUSES: &[&str] = &["active", "inactive"];
/// Blog post categories (not in the spec).
pub const BLOG_CATEGORIES: &[&str] = &["guide", "announcement", "data"];
/// Blog post statuses (not in the spec; offers have the same two).
pub const BLOG_STATUSES: &[&str] = &["draft", "published"];

/// The strongest kind among `kinds` (an unknown kind counts as `other`).
pub fn best_source_kind<'a>(kinds: impl IntoIterator<Item = &'a str>) -> Option<&'static str> {
    kinds
        .into_iter()
        .map(|kind| SOURCE_KINDS.iter().position(|k| *k == kind).unwrap_or(SOURCE_KINDS.len() - 1))
        .min()
        .map(|index| SOURCE_KINDS[index])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_strongest_kind_wins() {
        assert_eq!(best_source_kind(["press", "reference"]), Some("reference"));
        assert_eq!(best_source_kind(["blog"]), Some("other"));
        assert_eq!(best_source_kind([]), None);
    }

    #[test]
    fn the_lists_hold_the_vocabulary() {
        assert!(ACTION_TYPES.contains(&"gas_operated_tilting_bolt"));
        assert!(TRIGGER_TYPES.contains(&"thumb_triggers"));
        assert!(MAGAZINE_TYPES.contains(&"none"));
        assert_eq!(USER_TYPES.len(), 13);
    }
}
