//! The synthetic catalog's shape: how many cartridges of each kind, and what each category's
//! firearms look like (weights, lengths, actions, materials). The generator is in `mod.rs`.

/// The confidence every synthetic record carries: the weakest there is short of none.
pub(super) const CONFIDENCE: f64 = 0.1;
/// The number of synthetic cartridges, whatever the catalog size.
pub(super) const CALIBER_COUNT: usize = 60;
/// The last year a synthetic record may carry.
pub(super) const LAST_YEAR: i64 = 2024;
/// The first year a synthetic firearm may carry.
pub(super) const FIRST_YEAR: i64 = 1850;

pub(super) const COUNTRIES: &[&str] = &[
    "US", "DE", "BE", "AT", "CH", "IT", "RU", "GB", "FR", "CZ", "IL", "SE", "FI", "JP", "KR", "BR", "TR",
    "PL", "ES", "HR", "CN", "ZA", "CA", "AU", "NO",
];

/// The cartridge families the synthetic calibers fall into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Pistol,
    Rifle,
    Rimfire,
    Shot,
    Ball,
}

impl Kind {
    pub(super) const ALL: [Kind; 5] = [Kind::Pistol, Kind::Rifle, Kind::Rimfire, Kind::Shot, Kind::Ball];

    pub(super) fn index(self) -> usize {
        self as usize
    }

    /// How many of the synthetic cartridges are of this kind (the counts add up to `CALIBER_COUNT`).
    pub(super) fn count(self) -> usize {
        match self {
            Kind::Pistol => 18,
            Kind::Rifle => 24,
            Kind::Rimfire => 6,
            Kind::Shot => 6,
            Kind::Ball => 6,
        }
    }

    pub(super) fn cartridge_type(self) -> &'static str {
        match self {
            Kind::Pistol => "centerfire_pistol",
            Kind::Rifle => "centerfire_rifle",
            Kind::Rimfire => "rimfire",
            Kind::Shot => "shotshell",
            Kind::Ball => "muzzleloader_projectile",
        }
    }

    pub(super) fn label(self) -> &'static str {
        match self {
            Kind::Pistol => "pistol cartridge",
            Kind::Rifle => "rifle cartridge",
            Kind::Rimfire => "rimfire cartridge",
            Kind::Shot => "shotshell",
            Kind::Ball => "muzzleloader ball",
        }
    }

    /// Mass of one whole round relative to its bullet (case, powder and primer included).
    pub(super) fn round_mass_factor(self) -> f64 {
        match self {
            Kind::Pistol => 1.6,
            Kind::Rifle => 2.4,
            Kind::Rimfire => 1.5,
            Kind::Shot => 1.4,
            Kind::Ball => 1.1,
        }
    }

    pub(super) fn bullet_types(self) -> &'static [&'static str] {
        match self {
            Kind::Pistol => {
                &["fmj", "jhp", "hp", "lead_round_nose", "semi_wadcutter", "wadcutter", "frangible"]
            }
            Kind::Rifle => {
                &["fmj", "fmjbt", "sp", "soft_point", "hpbt", "match", "ap", "tracer", "polymer_tip", "ball"]
            }
            Kind::Rimfire => &["lead_round_nose", "hp", "sp", "fmj"],
            Kind::Shot => &["slug", "buckshot", "birdshot"],
            Kind::Ball => &["ball", "lead_round_nose"],
        }
    }
}

/// What one category's firearms look like.
pub(super) struct Profile {
    pub(super) id: &'static str,
    pub(super) name: &'static str,
    pub(super) label: &'static str,
    /// Relative frequency among firearms.
    pub(super) share: f64,
    /// Cartridge kinds and their relative frequency.
    pub(super) kinds: &'static [(Kind, f64)],
    pub(super) weight_g: (f64, f64),
    pub(super) length_mm: (f64, f64),
    pub(super) barrel_share: (f64, f64),
    pub(super) height_mm: (f64, f64),
    pub(super) width_mm: (f64, f64),
    pub(super) folded_chance: f64,
    pub(super) capacity: (i64, i64),
    /// Chance of automatic fire, and its rate range.
    pub(super) automatic: (f64, (i64, i64)),
    pub(super) effective_m: (f64, f64),
    pub(super) trigger_pull_n: (f64, f64),
    pub(super) years: (i64, i64),
    pub(super) rifled: bool,
    pub(super) detachable_magazine: bool,
    pub(super) actions: &'static [&'static str],
    pub(super) firing: &'static [&'static str],
    pub(super) triggers: &'static [&'static str],
    pub(super) magazines: &'static [&'static str],
    pub(super) frames: &'static [&'static str],
    pub(super) stocks: &'static [&'static str],
}

pub(super) const PROFILES: [Profile; 9] = [
    Profile {
        id: "pistols",
        name: "Pistols",
        label: "Pistol",
        share: 22.0,
        kinds: &[(Kind::Pistol, 0.9), (Kind::Rimfire, 0.1)],
        weight_g: (550.0, 1200.0),
        length_mm: (150.0, 230.0),
        barrel_share: (0.45, 0.62),
        height_mm: (110.0, 150.0),
        width_mm: (25.0, 38.0),
        folded_chance: 0.0,
        capacity: (6, 21),
        automatic: (0.03, (900, 1300)),
        effective_m: (25.0, 50.0),
        trigger_pull_n: (20.0, 50.0),
        years: (1895, LAST_YEAR),
        rifled: true,
        detachable_magazine: true,
        actions: &[
            "short_recoil",
            "blowback",
            "delayed_blowback",
            "short_recoil_rotating_barrel",
            "gas_delayed_blowback",
        ],
        firing: &[
            "striker_fired",
            "hammer_fired",
            "double_action_single_action",
            "double_action_only",
            "single_action",
        ],
        triggers: &[
            "safe_action",
            "single_action",
            "double_action",
            "da_sa",
            "double_action_only",
            "single_stage",
        ],
        magazines: &["detachable_box", "detachable_single_stack_box"],
        frames: &["polymer", "steel", "aluminium alloy"],
        stocks: &[],
    },
    Profile {
        id: "revolvers",
        name: "Revolvers",
        label: "Revolver",
        share: 8.0,
        kinds: &[(Kind::Pistol, 0.8), (Kind::Rimfire, 0.2)],
        weight_g: (400.0, 1600.0),
        length_mm: (160.0, 350.0),
        barrel_share: (0.25, 0.55),
        height_mm: (110.0, 170.0),
        width_mm: (33.0, 45.0),
        folded_chance: 0.0,
        capacity: (5, 8),
        automatic: (0.0, (0, 0)),
        effective_m: (20.0, 50.0),
        trigger_pull_n: (20.0, 60.0),
        years: (1850, LAST_YEAR),
        rifled: true,
        detachable_magazine: false,
        actions: &["single_action_revolver", "double_action_revolver", "revolving"],
        firing: &["hammer_fired", "single_action", "double_action", "hammerless"],
        triggers: &["single_action", "double_action", "double_action_single_action", "double_action_only"],
        magazines: &["revolving_cylinder"],
        frames: &["steel", "stainless steel", "aluminium alloy", "titanium"],
        stocks: &[],
    },
    Profile {
        id: "rifles",
        name: "Rifles",
        label: "Rifle",
        share: 20.0,
        kinds: &[(Kind::Rifle, 1.0)],
        weight_g: (2800.0, 5500.0),
        length_mm: (850.0, 1250.0),
        barrel_share: (0.4, 0.6),
        height_mm: (180.0, 280.0),
        width_mm: (55.0, 80.0),
        folded_chance: 0.2,
        capacity: (5, 30),
        automatic: (0.4, (600, 950)),
        effective_m: (300.0, 600.0),
        trigger_pull_n: (15.0, 40.0),
        years: (1880, LAST_YEAR),
        rifled: true,
        detachable_magazine: true,
        actions: &[
            "gas_operated",
            "gas_operated_rotating_bolt",
            "gas_operated_short_stroke_piston",
            "gas_operated_long_stroke",
            "gas_operated_direct_impingement",
            "bolt_action",
            "lever_action",
            "roller_delayed_blowback",
            "straight_pull",
        ],
        firing: &["hammer_fired", "closed_bolt", "rotating_bolt"],
        triggers: &["single_stage", "two_stage", "selective_fire", "semi_auto"],
        magazines: &["detachable_box", "internal_box", "fixed_box", "en_bloc_clip", "stripper_clip"],
        frames: &["steel", "aluminium alloy", "polymer"],
        stocks: &["wood", "polymer", "aluminium alloy"],
    },
    Profile {
        id: "carbines",
        name: "Carbines",
        label: "Carbine",
        share: 10.0,
        kinds: &[(Kind::Pistol, 0.3), (Kind::Rifle, 0.7)],
        weight_g: (2000.0, 3800.0),
        length_mm: (650.0, 950.0),
        barrel_share: (0.3, 0.5),
        height_mm: (170.0, 260.0),
        width_mm: (50.0, 75.0),
        folded_chance: 0.4,
        capacity: (10, 30),
        automatic: (0.4, (650, 1000)),
        effective_m: (150.0, 400.0),
        trigger_pull_n: (15.0, 40.0),
        years: (1890, LAST_YEAR),
        rifled: true,
        detachable_magazine: true,
        actions: &[
            "gas_operated",
            "blowback",
            "gas_operated_short_stroke",
            "roller_delayed_blowback",
            "lever_action",
        ],
        firing: &["hammer_fired", "closed_bolt", "rotating_bolt"],
        triggers: &["single_stage", "two_stage", "selective_fire", "semi_auto"],
        magazines: &["detachable_box", "tubular", "fixed_box"],
        frames: &["steel", "aluminium alloy", "polymer"],
        stocks: &["wood", "polymer", "aluminium alloy"],
    },
    Profile {
        id: "shotguns",
        name: "Shotguns",
        label: "Shotgun",
        share: 10.0,
        kinds: &[(Kind::Shot, 1.0)],
        weight_g: (2500.0, 4200.0),
        length_mm: (950.0, 1300.0),
        barrel_share: (0.45, 0.7),
        height_mm: (170.0, 250.0),
        width_mm: (50.0, 80.0),
        folded_chance: 0.1,
        capacity: (2, 8),
        automatic: (0.0, (0, 0)),
        effective_m: (40.0, 100.0),
        trigger_pull_n: (15.0, 35.0),
        years: (1870, LAST_YEAR),
        rifled: false,
        detachable_magazine: false,
        actions: &["pump_action", "break_action", "inertia_operated", "gas_operated", "long_recoil"],
        firing: &["hammer_fired", "internal_hammer", "hammerless"],
        triggers: &["single_trigger", "double_trigger", "single_selective", "single_stage"],
        magazines: &["tube", "tubular", "dual_tubular", "detachable_box"],
        frames: &["steel", "aluminium alloy"],
        stocks: &["wood", "polymer"],
    },
    Profile {
        id: "submachine-guns",
        name: "Submachine guns",
        label: "Submachine Gun",
        share: 9.0,
        kinds: &[(Kind::Pistol, 1.0)],
        weight_g: (2000.0, 4500.0),
        length_mm: (450.0, 850.0),
        barrel_share: (0.2, 0.35),
        height_mm: (150.0, 250.0),
        width_mm: (45.0, 70.0),
        folded_chance: 0.6,
        capacity: (20, 50),
        automatic: (1.0, (550, 1200)),
        effective_m: (100.0, 200.0),
        trigger_pull_n: (20.0, 45.0),
        years: (1918, LAST_YEAR),
        rifled: true,
        detachable_magazine: true,
        actions: &["blowback", "roller_delayed_blowback", "delayed_blowback", "gas_operated"],
        firing: &["open_bolt", "closed_bolt"],
        triggers: &["selective_fire", "select_fire", "automatic_only", "progressive"],
        magazines: &["detachable_box", "drum", "helical"],
        frames: &["steel", "stamped steel", "polymer", "aluminium alloy"],
        stocks: &["wood", "polymer", "steel wire"],
    },
    Profile {
        id: "machine-guns",
        name: "Machine guns",
        label: "Machine Gun",
        share: 7.0,
        kinds: &[(Kind::Rifle, 1.0)],
        weight_g: (7000.0, 38000.0),
        length_mm: (1000.0, 1700.0),
        barrel_share: (0.4, 0.65),
        height_mm: (200.0, 350.0),
        width_mm: (100.0, 250.0),
        folded_chance: 0.1,
        capacity: (30, 250),
        automatic: (1.0, (450, 1200)),
        effective_m: (600.0, 1800.0),
        trigger_pull_n: (30.0, 70.0),
        years: (1884, LAST_YEAR),
        rifled: true,
        detachable_magazine: false,
        actions: &[
            "gas_operated",
            "gas_operated_long_stroke",
            "short_recoil",
            "recoil_operated",
            "gas_operated_open_bolt",
        ],
        firing: &["open_bolt", "closed_bolt"],
        triggers: &["automatic_only", "full_auto_only", "spade_grip", "thumb_triggers", "selective_fire"],
        magazines: &["belt", "belt_fed", "disintegrating_link_belt", "drum", "pan", "feed_strip"],
        frames: &["steel", "stamped steel"],
        stocks: &["wood", "polymer", "steel"],
    },
    Profile {
        id: "precision-rifles",
        name: "Precision rifles",
        label: "Precision Rifle",
        share: 8.0,
        kinds: &[(Kind::Rifle, 1.0)],
        weight_g: (4000.0, 14000.0),
        length_mm: (1000.0, 1450.0),
        barrel_share: (0.5, 0.65),
        height_mm: (180.0, 300.0),
        width_mm: (60.0, 110.0),
        folded_chance: 0.3,
        capacity: (5, 10),
        automatic: (0.0, (0, 0)),
        effective_m: (800.0, 2000.0),
        trigger_pull_n: (5.0, 20.0),
        years: (1900, LAST_YEAR),
        rifled: true,
        detachable_magazine: true,
        actions: &["bolt_action", "straight_pull", "gas_operated", "gas_operated_short_stroke_piston"],
        firing: &["striker_fired", "hammer_fired", "closed_bolt"],
        triggers: &[
            "two_stage",
            "adjustable",
            "adjustable_two_stage",
            "adjustable_match",
            "match",
            "set_trigger",
        ],
        magazines: &["detachable_box", "internal_box"],
        frames: &["steel", "aluminium alloy"],
        stocks: &["wood", "polymer", "aluminium alloy", "carbon fibre"],
    },
    Profile {
        id: "historical-arms",
        name: "Historical arms",
        label: "Historical Arm",
        share: 6.0,
        kinds: &[(Kind::Ball, 1.0)],
        weight_g: (3500.0, 5000.0),
        length_mm: (1250.0, 1550.0),
        barrel_share: (0.65, 0.8),
        height_mm: (150.0, 200.0),
        width_mm: (50.0, 70.0),
        folded_chance: 0.0,
        capacity: (1, 1),
        automatic: (0.0, (0, 0)),
        effective_m: (100.0, 300.0),
        trigger_pull_n: (20.0, 60.0),
        years: (FIRST_YEAR, 1900),
        rifled: true,
        detachable_magazine: false,
        actions: &[
            "muzzleloader",
            "breech_loading",
            "trapdoor",
            "rolling_block",
            "falling_block",
            "hinged_breechblock",
        ],
        firing: &["percussion", "percussion_cap", "flintlock"],
        triggers: &["single_trigger", "double_set", "single_set", "set_trigger"],
        magazines: &["single_shot"],
        frames: &["steel", "iron", "brass"],
        stocks: &["walnut", "wood"],
    },
];
