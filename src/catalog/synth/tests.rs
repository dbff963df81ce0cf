//! The synthetic catalog passes the loader and is deterministic.

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
        firearms: catalog.firearms.into_iter().map(std::sync::Arc::unwrap_or_clone).collect(),
        calibers: catalog.calibers,
        ammunition: catalog.ammunition.into_iter().map(std::sync::Arc::unwrap_or_clone).collect(),
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
        assert!(f.sources.iter().all(|s| s.kind == "other" && s.url.starts_with("https://example.invalid/")));
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
