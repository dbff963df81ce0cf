//! Each rule, broken on purpose, is reported with its record, field and message: the plausibility
//! rules here, the source rules in `sources`, the warnings in `coverage`, the host list in `hosts`.

use super::*;
use crate::catalog::model::{Adopter, CaliberLink, Category, Interface, Manufacturer, Source};

mod coverage;
mod hosts;
mod sources;

const YEAR: i64 = 2025;

/// The host list of these tests: one reference host, a second one, a maker and a mirror.
const HOSTS: &str = r#"
[[hosts]]
host = "example.org"
kind = "reference"

[[hosts]]
host = "encyclopedia.example.net"
kind = "reference"

[[hosts]]
host = "maker.example.com"
kind = "manufacturer"

[[mirrors]]
host = "mirror.example.org"
mirrorOf = "example.org"
"#;

fn hosts() -> HostList {
    HostList::parse(HOSTS).unwrap()
}

fn source(url: &str, kind: &str, fields: &[&str]) -> Source {
    Source { url: url.into(), kind: kind.into(), fields: fields.iter().map(|f| (*f).into()).collect() }
}

fn sources() -> Vec<Source> {
    vec![source("https://example.org/page", "reference", &[])]
}

/// The key figures the clean pistol fills.
const PISTOL_FIGURES: &[&str] = &["weightEmptyG", "overallLengthMm", "barrelLengthMm", "muzzleVelocityMps"];

fn caliber(id: &str) -> Caliber {
    Caliber {
        id: id.into(),
        name: id.into(),
        aliases: None,
        nato_designation: None,
        bullet_diameter_mm: None,
        neck_diameter_mm: None,
        base_diameter_mm: None,
        case_length_mm: None,
        overall_length_mm: None,
        max_pressure_mpa: None,
        max_pressure_psi: None,
        typical_bullet_weight_g: None,
        typical_muzzle_velocity_mps: None,
        typical_muzzle_energy_j: None,
        primer_type: None,
        cartridge_type: None,
        parent_cartridge_id: None,
        designer: None,
        year_introduced: None,
        description: None,
        spec_source: None,
        data_confidence: None,
        sources: sources(),
        verified_at: None,
        verified_fields: None,
    }
}

fn firearm(id: &str) -> Firearm {
    Firearm {
        id: id.into(),
        name: id.into(),
        manufacturer_id: "acme".into(),
        category_id: "pistols".into(),
        parent_firearm_id: None,
        variant_type: None,
        year_introduced: None,
        year_discontinued: None,
        status: None,
        country_of_origin: None,
        designer: None,
        weight_empty_g: None,
        weight_loaded_g: None,
        overall_length_mm: None,
        barrel_length_mm: None,
        height_mm: None,
        width_mm: None,
        sight_radius_mm: None,
        folded_length_mm: None,
        action_type: None,
        firing_mechanism: None,
        trigger_type: None,
        magazine_type: None,
        trigger_pull_n: None,
        magazine_capacity: None,
        muzzle_velocity_mps: None,
        muzzle_energy_j: None,
        effective_range_m: None,
        max_range_m: None,
        rate_of_fire_rpm: None,
        barrel_rifling: None,
        rifling_twist_mm: None,
        number_of_grooves: None,
        frame_material: None,
        slide_material: None,
        barrel_material: None,
        stock_material: None,
        finish: None,
        safety_mechanisms: None,
        features: None,
        feed_systems: None,
        alternate_names: None,
        firing_modes: None,
        conflicts: None,
        production_numbers: None,
        description: None,
        notes: None,
        lore: None,
        platform_id: None,
        interfaces: Vec::new(),
        calibers: vec![CaliberLink { caliber_id: "9mm".into(), is_primary: true }],
        users: Vec::new(),
        images: Vec::new(),
        data_confidence: None,
        sources: sources(),
        verified_at: None,
        verified_fields: None,
    }
}

fn ammunition(id: &str) -> Ammunition {
    Ammunition {
        id: id.into(),
        name: id.into(),
        caliber_id: "9mm".into(),
        manufacturer_id: None,
        product_line: None,
        bullet_weight_g: None,
        bullet_type: None,
        muzzle_velocity_mps: None,
        muzzle_energy_j: None,
        ballistic_coefficient_g1: None,
        test_barrel_length_mm: None,
        is_common: None,
        description: None,
        data_confidence: None,
        sources: sources(),
        verified_at: None,
        verified_fields: None,
    }
}

/// A small catalog that breaks no rule and gives no warning, with figures filled in where rules look.
fn clean() -> Catalog {
    let nine = Caliber {
        typical_bullet_weight_g: Some(8.0),
        typical_muzzle_velocity_mps: Some(360.0),
        typical_muzzle_energy_j: Some(518.0),
        year_introduced: Some(1902),
        ..caliber("9mm")
    };
    let pistol = Firearm {
        year_introduced: Some(1982),
        year_discontinued: Some(2000),
        weight_empty_g: Some(625.0),
        weight_loaded_g: Some(905.0),
        overall_length_mm: Some(202.0),
        barrel_length_mm: Some(114.0),
        magazine_capacity: Some(17),
        muzzle_velocity_mps: Some(375.0),
        muzzle_energy_j: Some(570.0),
        data_confidence: Some(0.6),
        sources: vec![source("https://example.org/pistol-1", "reference", PISTOL_FIGURES)],
        users: vec![Adopter {
            user_name: "Army".into(),
            user_type: None,
            country_code: None,
            designation: None,
            adopted_year: Some(1982),
        }],
        ..firearm("pistol-1")
    };
    let load = Ammunition {
        bullet_weight_g: Some(7.45),
        muzzle_velocity_mps: Some(360.0),
        muzzle_energy_j: Some(483.0),
        ..ammunition("9mm-fmj")
    };
    Catalog {
        categories: vec![Category { id: "pistols".into(), name: "Pistols".into(), description: None }],
        manufacturers: vec![Manufacturer {
            id: "acme".into(),
            name: "Acme".into(),
            country_code: None,
            founded_year: Some(1900),
            website: None,
            logo_url: None,
            description: None,
            data_confidence: Some(0.9),
            sources: vec![source("https://maker.example.com/about", "manufacturer", &[])],
            verified_at: None,
            verified_fields: None,
        }],
        calibers: vec![nine],
        firearms: vec![pistol.into()].into(),
        ammunition: vec![load.into()].into(),
        interfaces: vec![Interface {
            id: "picatinny-rail".into(),
            name: "Picatinny".into(),
            kind: None,
            standard_body: None,
            description: None,
            data_confidence: None,
            sources: sources(),
            verified_at: None,
            verified_fields: None,
        }],
        ..Catalog::default()
    }
}

/// Every error, in order.
fn errors(catalog: &Catalog) -> Vec<Violation> {
    check_in_year(catalog, &hosts(), YEAR).errors
}

/// The (record, field) of every error, in order.
fn found(catalog: &Catalog) -> Vec<(String, String)> {
    errors(catalog).into_iter().map(|v| (v.record, v.field)).collect()
}

fn expect(catalog: &Catalog, expected: &[(&str, &str)]) {
    let expected: Vec<(String, String)> = expected.iter().map(|&(r, f)| (r.into(), f.into())).collect();
    assert_eq!(found(catalog), expected, "{:#?}", errors(catalog));
}

/// The one error of `catalog`, as printed.
fn only_error(catalog: &Catalog) -> String {
    let errors = errors(catalog);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    errors[0].to_string()
}

#[test]
fn a_clean_catalog_has_no_error_and_no_warning() {
    let report = check(&clean(), &hosts());
    assert_eq!(report.errors, Vec::new());
    assert_eq!(report.all_warnings().collect::<Vec<_>>(), Vec::<&Violation>::new());
    assert_eq!(
        report.summary(),
        "6 records checked: 0 error(s), 0 warning(s) (cartridges no firearm chambers: 0, \
         firearms with key figures no source names: 0)"
    );
}

#[test]
fn barrel_and_folded_lengths_are_shorter_than_the_whole() {
    let mut catalog = clean();
    let f = std::sync::Arc::make_mut(&mut catalog.firearms.typed_mut()[0]);
    f.overall_length_mm = Some(110.0);
    f.barrel_length_mm = Some(120.0);
    f.folded_length_mm = Some(110.0);
    expect(&catalog, &[("firearm pistol-1", "barrelLengthMm"), ("firearm pistol-1", "foldedLengthMm")]);
    assert_eq!(
        errors(&catalog)[0].to_string(),
        "firearm pistol-1 barrelLengthMm: 120 mm is not shorter than overallLengthMm 110 mm"
    );
}

#[test]
fn loaded_weight_is_not_below_empty_weight() {
    let mut catalog = clean();
    std::sync::Arc::make_mut(&mut catalog.firearms.typed_mut()[0]).weight_loaded_g = Some(600.0);
    expect(&catalog, &[("firearm pistol-1", "weightLoadedG")]);
}

#[test]
fn years_are_in_range_and_in_order() {
    let mut catalog = clean();
    catalog.manufacturers[0].founded_year = Some(1200);
    catalog.calibers[0].year_introduced = Some(YEAR + 1);
    let f = std::sync::Arc::make_mut(&mut catalog.firearms.typed_mut()[0]);
    f.year_introduced = Some(1990);
    f.year_discontinued = Some(1985);
    f.users[0].adopted_year = Some(3000);
    expect(
        &catalog,
        &[
            ("manufacturer acme", "foundedYear"),
            ("caliber 9mm", "yearIntroduced"),
            ("firearm pistol-1", "yearDiscontinued"),
            ("firearm pistol-1", "users.adoptedYear"),
        ],
    );
    catalog = clean();
    std::sync::Arc::make_mut(&mut catalog.firearms.typed_mut()[0]).year_introduced = Some(YEAR);
    std::sync::Arc::make_mut(&mut catalog.firearms.typed_mut()[0]).year_discontinued = None;
    expect(&catalog, &[]);
}

#[test]
fn muzzle_energy_follows_mass_and_velocity() {
    let mut catalog = clean();
    catalog.calibers[0].typical_muzzle_energy_j = Some(900.0);
    std::sync::Arc::make_mut(&mut catalog.firearms.typed_mut()[0]).muzzle_energy_j = Some(300.0);
    std::sync::Arc::make_mut(&mut catalog.ammunition.typed_mut()[0]).muzzle_energy_j = Some(4830.0);
    expect(
        &catalog,
        &[
            ("caliber 9mm", "typicalMuzzleEnergyJ"),
            ("firearm pistol-1", "muzzleEnergyJ"),
            ("ammunition 9mm-fmj", "muzzleEnergyJ"),
        ],
    );
    assert_eq!(
        errors(&catalog)[0].message,
        "energy 900 J is 74% off 0.5·m·v² = 518 J with m = 8 g, v = 360 m/s (tolerance 30%)"
    );
    // Without the caliber's typical bullet weight the firearm's energy cannot be checked.
    catalog.calibers[0].typical_bullet_weight_g = None;
    expect(&catalog, &[("ammunition 9mm-fmj", "muzzleEnergyJ")]);
}

#[test]
fn magazine_capacity_is_positive() {
    let mut catalog = clean();
    std::sync::Arc::make_mut(&mut catalog.firearms.typed_mut()[0]).magazine_capacity = Some(0);
    expect(&catalog, &[("firearm pistol-1", "magazineCapacity")]);
}

#[test]
fn a_firearm_has_exactly_one_primary_caliber() {
    let mut catalog = clean();
    std::sync::Arc::make_mut(&mut catalog.firearms.typed_mut()[0]).calibers[0].is_primary = false;
    expect(&catalog, &[("firearm pistol-1", "calibers")]);
    std::sync::Arc::make_mut(&mut catalog.firearms.typed_mut()[0]).calibers = vec![
        CaliberLink { caliber_id: "9mm".into(), is_primary: true },
        CaliberLink { caliber_id: "9mm".into(), is_primary: true },
    ];
    expect(&catalog, &[("firearm pistol-1", "calibers")]);
}

#[test]
fn every_record_but_categories_cites_a_complete_source() {
    let mut catalog = clean();
    catalog.manufacturers[0].sources.clear();
    catalog.calibers[0].sources[0].url = " ".into();
    catalog.interfaces[0].sources[0].kind = "".into();
    expect(
        &catalog,
        &[
            ("manufacturer acme", "sources"),
            ("caliber 9mm", "sources"),
            ("interface picatinny-rail", "sources"),
        ],
    );
}

#[test]
fn ids_are_lowercase_slugs() {
    let mut catalog = clean();
    catalog.categories[0].id = "Pistols".into();
    std::sync::Arc::make_mut(&mut catalog.ammunition.typed_mut()[0]).id = "9mm fmj".into();
    expect(&catalog, &[("category Pistols", "id"), ("ammunition 9mm fmj", "id")]);
}

#[test]
fn figures_are_positive_and_confidence_is_a_fraction() {
    let mut catalog = clean();
    catalog.calibers[0].case_length_mm = Some(-19.0);
    std::sync::Arc::make_mut(&mut catalog.firearms.typed_mut()[0]).rate_of_fire_rpm = Some(0);
    std::sync::Arc::make_mut(&mut catalog.firearms.typed_mut()[0]).effective_range_m = Some(f64::NAN);
    std::sync::Arc::make_mut(&mut catalog.firearms.typed_mut()[0]).data_confidence = Some(1.5);
    expect(
        &catalog,
        &[
            ("caliber 9mm", "caseLengthMm"),
            ("firearm pistol-1", "dataConfidence"),
            ("firearm pistol-1", "effectiveRangeM"),
            ("firearm pistol-1", "rateOfFireRpm"),
        ],
    );
}
