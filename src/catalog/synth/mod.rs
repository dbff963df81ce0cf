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

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

use super::model::{
    Adopter, Ammunition, Caliber, CaliberLink, Catalog, Category, Firearm, Manufacturer, Source, Term,
};

mod draw;
mod profiles;

use draw::*;
use profiles::*;

fn provenance(id: &str) -> Vec<Source> {
    vec![Source {
        url: format!("https://example.invalid/synthetic/{id}"),
        kind: "other".into(),
        fields: Vec::new(),
    }]
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
        firearm_records.push(record.into());
    }
    let ammunition = synthesize_ammunition(&mut draw, &world, firearms / 2);
    let mut catalog = Catalog {
        categories,
        manufacturers,
        calibers,
        firearms: firearm_records.into(),
        ammunition: ammunition.into_iter().map(Into::into).collect::<Vec<_>>().into(),
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
            Some(Term::from(format!("{grooves} grooves, right hand"))),
            Some(round1(draw.float((180.0, 400.0)))),
            Some(grooves),
        )
    } else {
        (Some(Term::from("smoothbore")), None, None)
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
        variant_type: variant_type.map(Term::from),
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
        slide_material: (profile.id == "pistols").then(|| "steel".into()),
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
mod tests;
