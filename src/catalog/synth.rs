//! A deterministic synthetic catalog for scale tests (`armory catalog synth`).
//!
//! Nothing here is real data: every id starts with `synth-`, every name says "Synthetic", every
//! description says the record is synthetic, and every source points at `example.invalid` with kind
//! `other` and a data confidence of 0.1. The only real ids are the nine category slugs, so that the
//! synthetic firearms can be listed under the categories the API serves.
//!
//! The figures are drawn per category and per cartridge type so that they look plausible and pass the
//! loader's rules: references always resolve (variants point at an earlier firearm, derived
//! cartridges at an earlier cartridge), vocabulary values come from `vocabulary.rs`, barrels are
//! shorter than the whole gun, loaded weights are at least the empty weight, and every muzzle energy
//! is ½·m·v² of the figures it goes with. Generation is linear in the number of firearms.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

use super::model::{
    Adopter, Ammunition, Caliber, CaliberLink, Catalog, Category, Firearm, Manufacturer, Source,
};

/// The confidence every synthetic record carries: the weakest there is short of none.
const CONFIDENCE: f64 = 0.1;
/// The number of synthetic cartridges, whatever the catalog size.
const CALIBER_COUNT: usize = 60;
/// The last year a synthetic record may carry.
const LAST_YEAR: i64 = 2024;
/// The first year a synthetic firearm may carry.
const FIRST_YEAR: i64 = 1850;

const COUNTRIES: &[&str] = &[
    "US", "DE", "BE", "AT", "CH", "IT", "RU", "GB", "FR", "CZ", "IL", "SE", "FI", "JP", "KR", "BR", "TR",
    "PL", "ES", "HR", "CN", "ZA", "CA", "AU", "NO",
];

/// The cartridge families the synthetic calibers fall into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Pistol,
    Rifle,
    Rimfire,
    Shot,
    Ball,
}

impl Kind {
    const ALL: [Kind; 5] = [Kind::Pistol, Kind::Rifle, Kind::Rimfire, Kind::Shot, Kind::Ball];

    fn index(self) -> usize {
        self as usize
    }

    /// How many of the synthetic cartridges are of this kind (the counts add up to `CALIBER_COUNT`).
    fn count(self) -> usize {
        match self {
            Kind::Pistol => 18,
            Kind::Rifle => 24,
            Kind::Rimfire => 6,
            Kind::Shot => 6,
            Kind::Ball => 6,
        }
    }

    fn cartridge_type(self) -> &'static str {
        match self {
            Kind::Pistol => "centerfire_pistol",
            Kind::Rifle => "centerfire_rifle",
            Kind::Rimfire => "rimfire",
            Kind::Shot => "shotshell",
            Kind::Ball => "muzzleloader_projectile",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Kind::Pistol => "pistol cartridge",
            Kind::Rifle => "rifle cartridge",
            Kind::Rimfire => "rimfire cartridge",
            Kind::Shot => "shotshell",
            Kind::Ball => "muzzleloader ball",
        }
    }

    /// Mass of one whole round relative to its bullet (case, powder and primer included).
    fn round_mass_factor(self) -> f64 {
        match self {
            Kind::Pistol => 1.6,
            Kind::Rifle => 2.4,
            Kind::Rimfire => 1.5,
            Kind::Shot => 1.4,
            Kind::Ball => 1.1,
        }
    }

    fn bullet_types(self) -> &'static [&'static str] {
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
struct Profile {
    id: &'static str,
    name: &'static str,
    label: &'static str,
    /// Relative frequency among firearms.
    share: f64,
    /// Cartridge kinds and their relative frequency.
    kinds: &'static [(Kind, f64)],
    weight_g: (f64, f64),
    length_mm: (f64, f64),
    barrel_share: (f64, f64),
    height_mm: (f64, f64),
    width_mm: (f64, f64),
    folded_chance: f64,
    capacity: (i64, i64),
    /// Chance of automatic fire, and its rate range.
    automatic: (f64, (i64, i64)),
    effective_m: (f64, f64),
    trigger_pull_n: (f64, f64),
    years: (i64, i64),
    rifled: bool,
    detachable_magazine: bool,
    actions: &'static [&'static str],
    firing: &'static [&'static str],
    triggers: &'static [&'static str],
    magazines: &'static [&'static str],
    frames: &'static [&'static str],
    stocks: &'static [&'static str],
}

const PROFILES: [Profile; 9] = [
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

/// A seeded generator with the few draws this file needs.
struct Draw(StdRng);

impl Draw {
    fn float(&mut self, (low, high): (f64, f64)) -> f64 {
        if high > low { self.0.random_range(low..high) } else { low }
    }

    fn int(&mut self, (low, high): (i64, i64)) -> i64 {
        if high > low { self.0.random_range(low..=high) } else { low }
    }

    fn below(&mut self, n: usize) -> usize {
        self.0.random_range(0..n)
    }

    fn chance(&mut self, p: f64) -> bool {
        self.0.random_bool(p.clamp(0.0, 1.0))
    }

    fn pick<T: Copy>(&mut self, list: &[T]) -> T {
        list[self.below(list.len())]
    }

    /// An index into a list of `n`, the first ones far more often (a few popular cartridges).
    fn popular(&mut self, n: usize) -> usize {
        let u: f64 = self.0.random();
        ((u * u * n as f64) as usize).min(n - 1)
    }

    fn weighted<T: Copy>(&mut self, items: &[(T, f64)]) -> T {
        let total: f64 = items.iter().map(|(_, w)| w).sum();
        let mut at = self.float((0.0, total));
        for &(item, weight) in items {
            if at < weight {
                return item;
            }
            at -= weight;
        }
        items[items.len() - 1].0
    }
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Kinetic energy in joules of a `grams` bullet at `mps` metres per second.
fn energy(grams: f64, mps: f64) -> f64 {
    0.5 * (grams / 1000.0) * mps * mps
}

fn digits(n: usize) -> usize {
    n.max(1).to_string().len()
}

fn provenance(id: &str) -> Vec<Source> {
    vec![Source { url: format!("https://example.invalid/synthetic/{id}"), kind: "other".into() }]
}

/// What later records need to know about one synthetic cartridge.
struct CaliberInfo {
    kind: Kind,
    bullet_g: f64,
    velocity_mps: f64,
    year: i64,
}

/// What a variant needs to know about its parent.
#[derive(Clone, Copy)]
struct FirearmInfo {
    profile: u8,
    maker: u32,
    caliber: u16,
    year: i16,
}

/// A deterministic synthetic catalog of `firearms` firearms for scale tests; never real data.
pub fn synthesize(firearms: usize, seed: u64) -> Catalog {
    let mut draw = Draw(StdRng::seed_from_u64(seed));
    let categories = PROFILES
        .iter()
        .map(|p| Category {
            id: p.id.into(),
            name: format!("{} (synthetic)", p.name),
            description: Some(format!(
                "Synthetic catalog for scale tests: {} that do not exist.",
                p.name.to_lowercase()
            )),
        })
        .collect();
    let (manufacturers, founded, countries) = synthesize_manufacturers(&mut draw, (firearms / 25).max(5));
    let (calibers, infos) = synthesize_calibers(&mut draw);
    let mut by_kind: [Vec<usize>; 5] = Default::default();
    for (index, info) in infos.iter().enumerate() {
        by_kind[info.kind.index()].push(index);
    }
    let world = World {
        manufacturers: &manufacturers,
        founded: &founded,
        countries: &countries,
        calibers: &calibers,
        infos: &infos,
        by_kind: &by_kind,
    };
    let firearm_width = digits(firearms).max(6);
    let mut family: Vec<FirearmInfo> = Vec::with_capacity(firearms);
    let mut firearm_records = Vec::with_capacity(firearms);
    for index in 0..firearms {
        let (record, info) = synthesize_firearm(&mut draw, &world, index, firearm_width, &family);
        family.push(info);
        firearm_records.push(record);
    }
    let ammunition = synthesize_ammunition(&mut draw, &world, firearms / 2);
    let mut catalog = Catalog {
        categories,
        manufacturers,
        calibers,
        firearms: firearm_records,
        ammunition,
        interfaces: Vec::new(),
        attachments: Vec::new(),
        platforms: Vec::new(),
    };
    catalog.sort();
    catalog
}

/// The records firearms and loads refer to.
struct World<'a> {
    manufacturers: &'a [Manufacturer],
    founded: &'a [i64],
    countries: &'a [&'static str],
    calibers: &'a [Caliber],
    infos: &'a [CaliberInfo],
    by_kind: &'a [Vec<usize>; 5],
}

fn synthesize_manufacturers(
    draw: &mut Draw,
    count: usize,
) -> (Vec<Manufacturer>, Vec<i64>, Vec<&'static str>) {
    let width = digits(count).max(4);
    let mut records = Vec::with_capacity(count);
    let mut founded = Vec::with_capacity(count);
    let mut countries = Vec::with_capacity(count);
    const STYLES: &[&str] =
        &["Arms Works", "Firearms", "Gunworks", "Defence Industries", "Rifle Company", "Armory"];
    for index in 0..count {
        let number = index + 1;
        let id = format!("synth-maker-{number:0width$}");
        let country = draw.pick(COUNTRIES);
        let year = draw.int((1840, 2010));
        let style = draw.pick(STYLES);
        records.push(Manufacturer {
            name: format!("Synthetic {style} {number:0width$}"),
            country_code: Some(country.into()),
            founded_year: Some(year),
            website: None,
            logo_url: None,
            description: Some(
                "A synthetic manufacturer generated for scale tests; it does not exist.".into(),
            ),
            data_confidence: Some(CONFIDENCE),
            sources: provenance(&id),
            verified_at: None,
            verified_fields: None,
            id,
        });
        founded.push(year);
        countries.push(country);
    }
    (records, founded, countries)
}

fn synthesize_calibers(draw: &mut Draw) -> (Vec<Caliber>, Vec<CaliberInfo>) {
    let mut kinds: Vec<Kind> = Kind::ALL.iter().flat_map(|&k| std::iter::repeat_n(k, k.count())).collect();
    kinds.shuffle(&mut draw.0);
    debug_assert_eq!(kinds.len(), CALIBER_COUNT);
    let mut records: Vec<Caliber> = Vec::with_capacity(kinds.len());
    let mut infos: Vec<CaliberInfo> = Vec::with_capacity(kinds.len());
    let mut seen: [Vec<usize>; 5] = Default::default();
    for (index, &kind) in kinds.iter().enumerate() {
        let id = format!("synth-cal-{:03}", index + 1);
        // Bullet diameter, case length, bullet weight, velocity, pressure (MPa), year range.
        let (diameter, case, bullet, velocity, pressure, years) = match kind {
            Kind::Pistol => {
                ((7.6, 11.5), (15.0, 33.0), (5.0, 15.0), (250.0, 450.0), (150.0, 310.0), (1880, 2010))
            }
            Kind::Rifle => {
                ((5.5, 12.9), (39.0, 99.0), (3.5, 45.0), (700.0, 1000.0), (300.0, 440.0), (1880, 2015))
            }
            Kind::Rimfire => {
                ((5.6, 5.7), (15.0, 27.0), (1.9, 2.6), (330.0, 750.0), (140.0, 190.0), (1857, 1990))
            }
            Kind::Shot => {
                ((15.6, 19.7), (63.5, 89.0), (28.0, 42.0), (370.0, 450.0), (70.0, 90.0), (1860, 1950))
            }
            Kind::Ball => {
                ((11.4, 17.5), (0.0, 0.0), (25.0, 35.0), (280.0, 420.0), (0.0, 0.0), (FIRST_YEAR, 1870))
            }
        };
        let bullet_diameter = round2(draw.float(diameter));
        // Heavier bullets for wider rifle calibers: scale the weight range by the diameter.
        let bullet_g = if kind == Kind::Rifle {
            let span = (bullet_diameter - diameter.0) / (diameter.1 - diameter.0);
            round2(bullet.0 + (bullet.1 - bullet.0) * (span * draw.float((0.8, 1.0))).clamp(0.0, 1.0))
        } else {
            round2(draw.float(bullet))
        };
        let velocity_mps = round1(draw.float(velocity));
        let parent = if draw.chance(0.25) && !seen[kind.index()].is_empty() {
            let list = &seen[kind.index()];
            Some(list[draw.below(list.len())])
        } else {
            None
        };
        let mut year = draw.int(years);
        if let Some(parent) = parent {
            year = (infos[parent].year + draw.int((1, 30))).min(2020);
        }
        let has_case = kind != Kind::Ball;
        let case_length = has_case.then(|| round1(draw.float(case)));
        let (neck, base) = match kind {
            Kind::Rifle => {
                (bullet_diameter + draw.float((0.4, 0.8)), bullet_diameter + draw.float((2.5, 8.0)))
            }
            Kind::Pistol => {
                (bullet_diameter + draw.float((0.2, 0.4)), bullet_diameter + draw.float((0.3, 1.5)))
            }
            Kind::Rimfire => (bullet_diameter + 0.1, bullet_diameter + draw.float((0.2, 0.4))),
            Kind::Shot | Kind::Ball => (bullet_diameter, bullet_diameter),
        };
        let overall = case_length.map(|c| round1(c + bullet_diameter * draw.float((1.0, 2.2))));
        let max_pressure_mpa = has_case.then(|| round1(draw.float(pressure)));
        let primer = match kind {
            Kind::Pistol | Kind::Rifle => draw.pick(&["boxer", "boxer", "berdan"]),
            Kind::Rimfire => "rimfire",
            Kind::Shot => "shotshell",
            Kind::Ball => "none",
        };
        let size = match case_length {
            Some(c) => format!("{bullet_diameter:.1}x{c:.0}mm"),
            None => format!("{bullet_diameter:.1}mm"),
        };
        records.push(Caliber {
            name: format!("Synthetic {size} {} {:03}", kind.label(), index + 1),
            aliases: None,
            nato_designation: None,
            bullet_diameter_mm: Some(bullet_diameter),
            neck_diameter_mm: has_case.then_some(round2(neck)),
            base_diameter_mm: has_case.then_some(round2(base)),
            case_length_mm: case_length,
            overall_length_mm: overall,
            max_pressure_mpa,
            max_pressure_psi: max_pressure_mpa.map(|mpa| (mpa * 145.037_738).round()),
            typical_bullet_weight_g: Some(bullet_g),
            typical_muzzle_velocity_mps: Some(velocity_mps),
            typical_muzzle_energy_j: Some(energy(bullet_g, velocity_mps)),
            primer_type: Some(primer.into()),
            cartridge_type: Some(kind.cartridge_type().into()),
            parent_cartridge_id: parent.map(|p| records[p].id.clone()),
            designer: None,
            year_introduced: Some(year),
            description: Some(format!(
                "A synthetic {} generated for scale tests; it does not exist.",
                kind.label()
            )),
            spec_source: Some("Synthetic figures (scale tests)".into()),
            data_confidence: Some(CONFIDENCE),
            sources: provenance(&id),
            verified_at: None,
            verified_fields: None,
            id,
        });
        seen[kind.index()].push(index);
        infos.push(CaliberInfo { kind, bullet_g, velocity_mps, year });
    }
    (records, infos)
}

fn pick_profile(draw: &mut Draw) -> usize {
    let total: f64 = PROFILES.iter().map(|p| p.share).sum();
    let mut at = draw.float((0.0, total));
    for (index, profile) in PROFILES.iter().enumerate() {
        if at < profile.share {
            return index;
        }
        at -= profile.share;
    }
    PROFILES.len() - 1
}

fn pick_caliber(draw: &mut Draw, world: &World, kind: Kind) -> usize {
    let list = &world.by_kind[kind.index()];
    list[draw.popular(list.len())]
}

fn synthesize_firearm(
    draw: &mut Draw,
    world: &World,
    index: usize,
    width: usize,
    family: &[FirearmInfo],
) -> (Firearm, FirearmInfo) {
    let number = index + 1;
    let id = format!("synth-firearm-{number:0width$}");
    let parent = (index > 0 && draw.chance(0.2)).then(|| draw.below(index));
    let variant_type = parent.map(|_| draw.pick(super::vocabulary::VARIANT_TYPES));

    let (profile_index, maker, caliber, year) = match parent {
        Some(parent) => {
            let from = family[parent];
            let profile = usize::from(from.profile);
            let mut caliber = usize::from(from.caliber);
            if variant_type == Some("caliber_conversion") {
                caliber = pick_caliber(draw, world, world.infos[caliber].kind);
            }
            let maker =
                if draw.chance(0.9) { from.maker as usize } else { draw.below(world.manufacturers.len()) };
            let year =
                (i64::from(from.year) + draw.int((0, 15))).max(world.infos[caliber].year).min(LAST_YEAR);
            (profile, maker, caliber, year)
        }
        None => {
            let profile = pick_profile(draw);
            let kind = draw.weighted(PROFILES[profile].kinds);
            let caliber = pick_caliber(draw, world, kind);
            let maker = draw.below(world.manufacturers.len());
            let (low, high) = PROFILES[profile].years;
            let mut floor = low;
            for bound in [world.infos[caliber].year, world.founded[maker]] {
                if bound <= high {
                    floor = floor.max(bound);
                }
            }
            (profile, maker, caliber, draw.int((floor, high)))
        }
    };
    let profile = &PROFILES[profile_index];
    let cartridge = &world.infos[caliber];

    let status = if variant_type == Some("prototype") || (year >= 2015 && draw.chance(0.05)) {
        "prototype"
    } else if profile.id == "historical-arms" || (year < 1960 && draw.chance(0.9)) || draw.chance(0.35) {
        "discontinued"
    } else {
        "in_production"
    };
    let discontinued = match status {
        "discontinued" => Some(draw.int((year, (year + 60).min(LAST_YEAR)))),
        "prototype" if draw.chance(0.5) => Some(draw.int((year, (year + 5).min(LAST_YEAR)))),
        _ => None,
    };

    let weight_empty = round1(draw.float(profile.weight_g));
    let overall = round1(draw.float(profile.length_mm));
    let barrel = round1(overall * draw.float(profile.barrel_share));
    let folded = draw.chance(profile.folded_chance).then(|| round1(overall * draw.float((0.65, 0.85))));
    let capacity = draw.int(profile.capacity);
    let magazine_g = if profile.detachable_magazine { draw.float((50.0, 250.0)) } else { 0.0 };
    let rounds_g = capacity as f64 * cartridge.bullet_g * cartridge.kind.round_mass_factor();
    let weight_loaded = round1(weight_empty + magazine_g + rounds_g);

    let automatic = draw.chance(profile.automatic.0);
    let rate_of_fire = automatic.then(|| draw.int(profile.automatic.1) / 10 * 10);
    let firing_modes = match (automatic, profile.automatic.0 >= 1.0) {
        (true, true) if draw.chance(0.5) => vec!["auto".to_owned()],
        (true, _) => vec!["semi".to_owned(), "auto".to_owned()],
        (false, _) if profile.capacity.1 > 1 => vec!["semi".to_owned()],
        (false, _) => vec!["single".to_owned()],
    };
    let trigger_type =
        if automatic && profile.automatic.0 < 1.0 { "selective_fire" } else { draw.pick(profile.triggers) };

    let velocity = draw.chance(0.7).then(|| round1(cartridge.velocity_mps * draw.float((0.9, 1.08))));
    let muzzle_energy = velocity.filter(|_| draw.chance(0.8)).map(|v| round1(energy(cartridge.bullet_g, v)));
    let effective = round1(draw.float(profile.effective_m));
    let max_range = draw.chance(0.6).then(|| round1(effective * draw.float((3.0, 6.0))));
    let (rifling, twist, grooves) = if profile.rifled {
        let grooves = draw.int((4, 6));
        (
            Some(format!("{grooves} grooves, right hand")),
            Some(round1(draw.float((180.0, 400.0)))),
            Some(grooves),
        )
    } else {
        (Some("smoothbore".to_owned()), None, None)
    };

    let mut calibers = vec![CaliberLink { caliber_id: world.calibers[caliber].id.clone(), is_primary: true }];
    if draw.chance(0.15) {
        let second = pick_caliber(draw, world, cartridge.kind);
        if second != caliber {
            calibers.push(CaliberLink { caliber_id: world.calibers[second].id.clone(), is_primary: false });
        }
    }

    let users = if draw.chance(0.25) {
        (0..draw.int((1, 3)))
            .map(|k| {
                let user_type = draw.pick(super::vocabulary::USER_TYPES);
                let country = draw.pick(COUNTRIES);
                Adopter {
                    user_name: format!("Synthetic {} user {country}-{}", user_type.replace('_', " "), k + 1),
                    user_type: Some(user_type.into()),
                    country_code: Some(country.into()),
                    designation: draw.chance(0.5).then(|| format!("S-{}", draw.int((1, 999)))),
                    adopted_year: Some(draw.int((year, LAST_YEAR))),
                }
            })
            .collect()
    } else {
        Vec::new()
    };

    let name = match (parent, variant_type) {
        (Some(parent), Some(variant)) => format!(
            "Synthetic {} {number:0width$} ({} variant of {:0width$})",
            profile.label,
            variant.replace('_', " "),
            parent + 1
        ),
        _ => format!("Synthetic {} {number:0width$}", profile.label),
    };
    let long_gun = !profile.stocks.is_empty();
    let firearm = Firearm {
        name,
        manufacturer_id: world.manufacturers[maker].id.clone(),
        category_id: profile.id.into(),
        parent_firearm_id: parent.map(|p| format!("synth-firearm-{:0width$}", p + 1)),
        variant_type: variant_type.map(str::to_owned),
        year_introduced: Some(year),
        year_discontinued: discontinued,
        status: Some(status.into()),
        country_of_origin: Some(world.countries[maker].into()),
        designer: None,
        weight_empty_g: Some(weight_empty),
        weight_loaded_g: Some(weight_loaded),
        overall_length_mm: Some(overall),
        barrel_length_mm: Some(barrel),
        height_mm: Some(round1(draw.float(profile.height_mm))),
        width_mm: Some(round1(draw.float(profile.width_mm))),
        sight_radius_mm: draw.chance(0.5).then(|| round1(overall * draw.float((0.55, 0.85)))),
        folded_length_mm: folded,
        action_type: Some(draw.pick(profile.actions).into()),
        firing_mechanism: Some(draw.pick(profile.firing).into()),
        trigger_type: Some(trigger_type.into()),
        magazine_type: Some(draw.pick(profile.magazines).into()),
        trigger_pull_n: draw.chance(0.6).then(|| round1(draw.float(profile.trigger_pull_n))),
        magazine_capacity: Some(capacity),
        muzzle_velocity_mps: velocity,
        muzzle_energy_j: muzzle_energy,
        effective_range_m: Some(effective),
        max_range_m: max_range,
        rate_of_fire_rpm: rate_of_fire,
        barrel_rifling: rifling,
        rifling_twist_mm: twist,
        number_of_grooves: grooves,
        frame_material: Some(draw.pick(profile.frames).into()),
        slide_material: (profile.id == "pistols").then(|| "steel".to_owned()),
        barrel_material: Some(draw.pick(&["steel", "chrome-lined steel", "stainless steel"]).into()),
        stock_material: long_gun.then(|| draw.pick(profile.stocks).into()),
        finish: Some(draw.pick(&["blued", "parkerized", "nitrided", "cerakote", "matte black"]).into()),
        safety_mechanisms: None,
        features: None,
        feed_systems: None,
        alternate_names: None,
        firing_modes: Some(firing_modes),
        conflicts: None,
        production_numbers: None,
        description: Some(format!(
            "A synthetic {} generated for scale tests; it does not exist.",
            profile.label.to_lowercase()
        )),
        notes: None,
        lore: None,
        platform_id: None,
        interfaces: Vec::new(),
        calibers,
        users,
        images: Vec::new(),
        data_confidence: Some(CONFIDENCE),
        sources: provenance(&id),
        verified_at: None,
        verified_fields: None,
        id,
    };
    let info = FirearmInfo {
        profile: profile_index as u8,
        maker: maker as u32,
        caliber: caliber as u16,
        year: year as i16,
    };
    (firearm, info)
}

fn synthesize_ammunition(draw: &mut Draw, world: &World, count: usize) -> Vec<Ammunition> {
    let width = digits(count).max(6);
    (0..count)
        .map(|index| {
            let id = format!("synth-ammo-{:0width$}", index + 1);
            let caliber = draw.popular(world.calibers.len());
            let cartridge = &world.infos[caliber];
            let kind = cartridge.kind;
            let bullet_type = draw.pick(kind.bullet_types());
            let weight_share = draw.float((0.8, 1.25));
            let bullet_g = round2(cartridge.bullet_g * weight_share);
            // A heavier bullet leaves the muzzle slower, a lighter one faster.
            let velocity = round1(cartridge.velocity_mps / weight_share.sqrt() * draw.float((0.95, 1.05)));
            let (bc, barrel) = match kind {
                Kind::Pistol => {
                    (Some(round2(draw.float((0.1, 0.2)))), Some(round1(draw.float((100.0, 127.0)))))
                }
                Kind::Rifle => {
                    (Some(round2(draw.float((0.25, 0.7)))), Some(round1(draw.float((508.0, 610.0)))))
                }
                Kind::Rimfire => {
                    (Some(round2(draw.float((0.1, 0.15)))), Some(round1(draw.float((150.0, 610.0)))))
                }
                Kind::Shot => (None, Some(round1(draw.float((711.0, 762.0))))),
                Kind::Ball => (None, None),
            };
            let maker = draw
                .chance(0.7)
                .then(|| world.manufacturers[draw.below(world.manufacturers.len())].id.clone());
            Ammunition {
                name: format!("Synthetic {bullet_g:.1} g {bullet_type} load {:0width$}", index + 1),
                caliber_id: world.calibers[caliber].id.clone(),
                manufacturer_id: maker,
                product_line: Some(format!("Synthetic Line {}", draw.int((1, 12)))),
                bullet_weight_g: Some(bullet_g),
                bullet_type: Some(bullet_type.into()),
                muzzle_velocity_mps: Some(velocity),
                muzzle_energy_j: Some(energy(bullet_g, velocity)),
                ballistic_coefficient_g1: bc,
                test_barrel_length_mm: barrel,
                is_common: Some(draw.chance(0.3)),
                description: Some(
                    "A synthetic ammunition load generated for scale tests; it does not exist.".into(),
                ),
                data_confidence: Some(CONFIDENCE),
                sources: provenance(&id),
                verified_at: None,
                verified_fields: None,
                id,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::super::load::build;
    use super::super::model::DataFile;
    use super::super::vocabulary as vocab;
    use super::*;

    fn as_file(catalog: Catalog) -> DataFile {
        DataFile {
            manufacturer: None,
            manufacturers: catalog.manufacturers,
            categories: catalog.categories,
            firearms: catalog.firearms,
            calibers: catalog.calibers,
            ammunition: catalog.ammunition,
            interfaces: catalog.interfaces,
            attachments: catalog.attachments,
            platforms: catalog.platforms,
        }
    }

    #[test]
    fn two_thousand_firearms_pass_the_loader() {
        let catalog = synthesize(2_000, 7);
        let built = build(vec![("synth".into(), as_file(catalog.clone()))]);
        match built {
            Ok(loaded) => assert_eq!(loaded, catalog),
            Err(errors) => panic!("{errors}"),
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_catalog() {
        assert_eq!(synthesize(500, 42), synthesize(500, 42));
        assert_ne!(synthesize(500, 42), synthesize(500, 43));
    }

    #[test]
    fn the_firearm_count_is_exact() {
        for count in [0, 1, 24, 25, 1_001] {
            let catalog = synthesize(count, 1);
            assert_eq!(catalog.firearms.len(), count);
            assert_eq!(catalog.ammunition.len(), count / 2);
            assert!(catalog.manufacturers.len() >= 5);
            assert_eq!(catalog.calibers.len(), CALIBER_COUNT);
            assert_eq!(catalog.categories.len(), 9);
        }
        assert_eq!(synthesize(2_500, 1).manufacturers.len(), 100);
    }

    #[test]
    fn every_profile_value_is_in_the_vocabulary() {
        for p in &PROFILES {
            for (values, list) in [
                (p.actions, vocab::ACTION_TYPES),
                (p.firing, vocab::FIRING_MECHANISMS),
                (p.triggers, vocab::TRIGGER_TYPES),
                (p.magazines, vocab::MAGAZINE_TYPES),
            ] {
                for value in values {
                    assert!(list.contains(value), "{}: {value}", p.id);
                }
            }
        }
        assert!(vocab::TRIGGER_TYPES.contains(&"selective_fire"));
        for kind in Kind::ALL {
            assert!(vocab::CARTRIDGE_TYPES.contains(&kind.cartridge_type()));
            for value in kind.bullet_types() {
                assert!(vocab::BULLET_TYPES.contains(value), "{value}");
            }
        }
        assert_eq!(Kind::ALL.iter().map(|k| k.count()).sum::<usize>(), CALIBER_COUNT);
    }

    #[test]
    fn the_figures_are_plausible_and_synthetic() {
        let catalog = synthesize(3_000, 11);
        let calibers: HashMap<&str, &Caliber> = catalog.calibers.iter().map(|c| (c.id.as_str(), c)).collect();
        let close = |a: f64, b: f64, tolerance: f64| (a - b).abs() <= tolerance * b.abs();
        for c in &catalog.calibers {
            assert!(c.id.starts_with("synth-cal-") && c.name.contains("Synthetic"));
            let e = energy(c.typical_bullet_weight_g.unwrap(), c.typical_muzzle_velocity_mps.unwrap());
            assert_eq!(c.typical_muzzle_energy_j, Some(e));
            if let Some(parent) = &c.parent_cartridge_id {
                assert!(parent < &c.id, "{} derives from a later {parent}", c.id);
            }
        }
        assert!(catalog.calibers.iter().any(|c| c.parent_cartridge_id.is_some()));
        let mut variants = 0;
        for f in &catalog.firearms {
            assert!(f.id.starts_with("synth-firearm-") && f.name.starts_with("Synthetic"));
            assert!(
                f.sources.iter().all(|s| s.kind == "other" && s.url.starts_with("https://example.invalid/"))
            );
            assert_eq!(f.calibers.iter().filter(|l| l.is_primary).count(), 1);
            assert!(f.barrel_length_mm < f.overall_length_mm);
            if let Some(folded) = f.folded_length_mm {
                assert!(Some(folded) < f.overall_length_mm);
            }
            assert!(f.weight_loaded_g >= f.weight_empty_g);
            assert!(f.magazine_capacity.unwrap() > 0);
            let (from, to) = (f.year_introduced.unwrap(), f.year_discontinued.unwrap_or(LAST_YEAR));
            assert!((FIRST_YEAR..=LAST_YEAR).contains(&from) && from <= to, "{}: {from}..{to}", f.id);
            if ["submachine-guns", "machine-guns"].contains(&f.category_id.as_str()) {
                assert!(f.rate_of_fire_rpm.is_some());
            }
            if let Some(parent) = &f.parent_firearm_id {
                assert!(parent < &f.id);
                variants += 1;
            }
            if let Some(e) = f.muzzle_energy_j {
                let primary = f.calibers.iter().find(|l| l.is_primary).unwrap();
                let grams = calibers[primary.caliber_id.as_str()].typical_bullet_weight_g.unwrap();
                assert!(close(e, energy(grams, f.muzzle_velocity_mps.unwrap()), 0.1), "{}", f.id);
            }
        }
        let share = variants as f64 / catalog.firearms.len() as f64;
        assert!((0.15..0.25).contains(&share), "{share}");
        for a in &catalog.ammunition {
            assert!(a.id.starts_with("synth-ammo-"));
            assert_eq!(
                a.muzzle_energy_j,
                Some(energy(a.bullet_weight_g.unwrap(), a.muzzle_velocity_mps.unwrap()))
            );
        }
    }
}
