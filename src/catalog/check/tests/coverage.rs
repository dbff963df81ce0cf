//! The coverage rules (warnings): they are listed, counted in the summary, and never errors.

use super::*;

/// Every warning as printed, rule by rule.
fn warnings(catalog: &Catalog) -> Vec<String> {
    let report = check_in_year(catalog, &hosts(), YEAR);
    assert_eq!(report.errors, Vec::new(), "warnings only");
    report.all_warnings().map(Violation::to_string).collect()
}

#[test]
fn a_cartridge_no_firearm_chambers_is_a_warning() {
    let mut catalog = clean();
    catalog.calibers.push(caliber("45-acp"));
    catalog.calibers.push(caliber("10mm-auto"));
    // A secondary link counts: the pistol chambers 10mm Auto too.
    std::sync::Arc::make_mut(&mut catalog.firearms.typed_mut()[0])
        .calibers
        .push(CaliberLink { caliber_id: "10mm-auto".into(), is_primary: false });
    assert_eq!(warnings(&catalog), ["caliber 45-acp id: no firearm chambers this cartridge"]);
    let report = check_in_year(&catalog, &hosts(), YEAR);
    assert_eq!(
        report.summary(),
        "8 records checked: 0 error(s), 1 warning(s) (cartridges no firearm chambers: 1, \
         firearms with key figures no source names: 0)"
    );
}

#[test]
fn a_firearm_key_figure_no_source_names_is_a_warning() {
    let mut catalog = clean();
    let pistol = std::sync::Arc::make_mut(&mut catalog.firearms.typed_mut()[0]);
    pistol.sources[0].fields.retain(|f| f != "barrelLengthMm");
    pistol.rate_of_fire_rpm = Some(1100);
    assert_eq!(
        warnings(&catalog),
        ["firearm pistol-1 sources.fields: no source names barrelLengthMm, rateOfFireRpm (key figures \
             the record fills)"]
    );
    // Any source may name any of them.
    let second =
        source("https://encyclopedia.example.net/p", "reference", &["rateOfFireRpm", "barrelLengthMm"]);
    std::sync::Arc::make_mut(&mut catalog.firearms.typed_mut()[0]).sources.push(second);
    assert_eq!(warnings(&catalog), Vec::<String>::new());
    // A firearm that fills no key figure needs no source naming one.
    let mut bare = firearm("pistol-2");
    bare.sources = sources();
    catalog.firearms.typed_mut().push(bare.into());
    assert_eq!(warnings(&catalog), Vec::<String>::new());
}

#[test]
fn warnings_are_counted_per_rule_beside_the_errors() {
    let mut catalog = clean();
    catalog.calibers.push(caliber("45-acp"));
    std::sync::Arc::make_mut(&mut catalog.firearms.typed_mut()[0]).sources[0].fields.clear();
    std::sync::Arc::make_mut(&mut catalog.firearms.typed_mut()[0]).overall_length_mm = Some(100.0);
    let report = check_in_year(&catalog, &hosts(), YEAR);
    assert_eq!(
        report.summary(),
        "7 records checked: 1 error(s), 2 warning(s) (cartridges no firearm chambers: 1, \
         firearms with key figures no source names: 1)"
    );
}
