//! The source rules (errors): hosts, kinds, web addresses, named fields, verified fields, confidence.

use super::*;

fn pistol_sources(catalog: &mut Catalog) -> &mut Vec<Source> {
    &mut std::sync::Arc::make_mut(&mut catalog.firearms.typed_mut()[0]).sources
}

#[test]
fn a_source_url_is_a_web_page() {
    let mut catalog = clean();
    // Plain http is cited as served: an older site's page is still a page.
    pistol_sources(&mut catalog)[0].url = "http://example.org/pistol-1".into();
    assert_eq!(errors(&catalog), Vec::new());
    pistol_sources(&mut catalog)[0].url = "ftp://example.org/pistol-1".into();
    assert_eq!(
        only_error(&catalog),
        "firearm pistol-1 sources: source 1 (ftp://example.org/pistol-1) is not an http(s) page"
    );
}

#[test]
fn a_source_host_is_on_the_list_and_not_a_mirror() {
    let mut catalog = clean();
    pistol_sources(&mut catalog)[0].url = "https://unknown.example/pistol-1".into();
    assert_eq!(
        only_error(&catalog),
        "firearm pistol-1 sources: source 1 (https://unknown.example/pistol-1): host unknown.example \
         is not on the host list"
    );
    pistol_sources(&mut catalog)[0].url = "https://mirror.example.org/pistol-1".into();
    assert_eq!(
        only_error(&catalog),
        "firearm pistol-1 sources: source 1 (https://mirror.example.org/pistol-1): host \
         mirror.example.org is a mirror of example.org; cite the original"
    );
    pistol_sources(&mut catalog)[0].url = "example.org/pistol-1".into();
    assert_eq!(
        only_error(&catalog),
        "firearm pistol-1 sources: source 1 (example.org/pistol-1) is not an absolute URL with a host"
    );
}

#[test]
fn hosts_match_without_case_or_a_leading_www_but_subdomains_are_their_own() {
    let mut catalog = clean();
    pistol_sources(&mut catalog)[0].url = "https://WWW.Example.org/pistol-1".into();
    expect(&catalog, &[]);
    pistol_sources(&mut catalog)[0].url = "https://shop.example.org/pistol-1".into();
    expect(&catalog, &[("firearm pistol-1", "sources")]);
}

#[test]
fn a_source_kind_is_its_hosts_listed_kind() {
    let mut catalog = clean();
    std::sync::Arc::make_mut(&mut catalog.ammunition.typed_mut()[0]).sources[0].kind = "press".into();
    assert_eq!(
        only_error(&catalog),
        "ammunition 9mm-fmj sources: source 1 (https://example.org/page) has kind press but its host \
         example.org is listed as reference"
    );
}

#[test]
fn a_named_field_is_a_served_field_of_the_record_kind() {
    let mut catalog = clean();
    pistol_sources(&mut catalog)[0].fields.extend(["weightEmpty".into(), "sources".into()]);
    catalog.calibers[0].sources[0].fields = vec!["weightEmptyG".into()];
    let errors = errors(&catalog);
    let lines: Vec<String> = errors.iter().map(Violation::to_string).collect();
    assert_eq!(
        lines,
        [
            "caliber 9mm sources.fields: source 1 (https://example.org/page) names weightEmptyG, which \
             is not a served caliber field",
            "firearm pistol-1 sources.fields: source 1 (https://example.org/pistol-1) names weightEmpty, \
             which is not a served firearm field",
            "firearm pistol-1 sources.fields: source 1 (https://example.org/pistol-1) names sources, \
             which is not a served firearm field",
        ]
    );
}

#[test]
fn a_named_field_is_one_the_record_fills() {
    let mut catalog = clean();
    // heightMm is absent (null); interfaces is an empty list; magazineCapacity is filled.
    pistol_sources(&mut catalog)[0].fields.extend(["heightMm".into(), "interfaces".into()]);
    pistol_sources(&mut catalog)[0].fields.push("magazineCapacity".into());
    let errors = errors(&catalog);
    let lines: Vec<String> = errors.iter().map(Violation::to_string).collect();
    assert_eq!(
        lines,
        [
            "firearm pistol-1 sources.fields: source 1 (https://example.org/pistol-1) names heightMm, \
             which is a field this firearm leaves null",
            "firearm pistol-1 sources.fields: source 1 (https://example.org/pistol-1) names interfaces, \
             which is a field this firearm leaves empty",
        ]
    );
}

#[test]
fn every_verified_field_is_named_by_a_source() {
    let mut catalog = clean();
    std::sync::Arc::make_mut(&mut catalog.firearms.typed_mut()[0]).verified_fields =
        Some(vec!["weightEmptyG".into(), "magazineCapacity".into()]);
    assert_eq!(
        only_error(&catalog),
        "firearm pistol-1 verifiedFields: magazineCapacity is named by no source's fields"
    );
    std::sync::Arc::make_mut(&mut catalog.firearms.typed_mut()[0]).sources[0]
        .fields
        .push("magazineCapacity".into());
    expect(&catalog, &[]);
    // A record whose sources name nothing verifies nothing.
    catalog.interfaces[0].verified_fields = Some(vec!["name".into()]);
    assert_eq!(
        only_error(&catalog),
        "interface picatinny-rail verifiedFields: name is named by no source's fields"
    );
}

#[test]
fn confidence_above_0_6_needs_a_strong_source_or_two_independent_ones_naming_the_key_figures() {
    let mut catalog = clean();
    std::sync::Arc::make_mut(&mut catalog.firearms.typed_mut()[0]).data_confidence = Some(0.75);
    assert_eq!(
        only_error(&catalog),
        "firearm pistol-1 dataConfidence: 0.75 is above 0.6 without a manufacturer, standards_body or \
         government source or two sources on different hosts each naming every key figure it fills \
         (weightEmptyG, overallLengthMm, barrelLengthMm, muzzleVelocityMps)"
    );
    // A second page on the same host (www. aside) is not independent.
    let same_host = source("https://www.example.org/other", "reference", PISTOL_FIGURES);
    pistol_sources(&mut catalog).push(same_host);
    expect(&catalog, &[("firearm pistol-1", "dataConfidence")]);
    // A second host naming only some key figures is not enough either.
    pistol_sources(&mut catalog)[1] =
        source("https://encyclopedia.example.net/p", "reference", &PISTOL_FIGURES[..3]);
    expect(&catalog, &[("firearm pistol-1", "dataConfidence")]);
    // Two hosts each naming every key figure the record fills.
    pistol_sources(&mut catalog)[1].fields.push("muzzleVelocityMps".into());
    expect(&catalog, &[]);
    // Or one manufacturer page, naming nothing.
    pistol_sources(&mut catalog)[1] = source("https://maker.example.com/p", "manufacturer", &[]);
    expect(&catalog, &[]);
    // 0.6 itself needs nothing more.
    catalog = clean();
    assert_eq!(std::sync::Arc::make_mut(&mut catalog.firearms.typed_mut()[0]).data_confidence, Some(0.6));
    expect(&catalog, &[]);
}

#[test]
fn a_cartridges_key_figures_are_its_dimensions_and_other_kinds_are_judged_on_sources_only() {
    let mut catalog = clean();
    let nine = &mut catalog.calibers[0];
    nine.bullet_diameter_mm = Some(9.01);
    nine.case_length_mm = Some(19.15);
    nine.data_confidence = Some(0.75);
    nine.sources.push(source("https://encyclopedia.example.net/9mm", "reference", &["bulletDiameterMm"]));
    nine.sources[0].fields = vec!["bulletDiameterMm".into(), "caseLengthMm".into()];
    assert_eq!(
        only_error(&catalog),
        "caliber 9mm dataConfidence: 0.75 is above 0.6 without a manufacturer, standards_body or \
         government source or two sources on different hosts each naming every key figure it fills \
         (bulletDiameterMm, caseLengthMm)"
    );
    catalog.calibers[0].sources[1].fields.push("caseLengthMm".into());
    expect(&catalog, &[]);

    // A manufacturer record has no key figures: two sources on different hosts suffice.
    let acme = &mut catalog.manufacturers[0];
    acme.sources = sources();
    assert_eq!(
        only_error(&catalog),
        "manufacturer acme dataConfidence: 0.9 is above 0.6 without a manufacturer, standards_body or \
         government source or two sources on different hosts"
    );
    catalog.manufacturers[0].sources.push(source("https://encyclopedia.example.net/acme", "reference", &[]));
    expect(&catalog, &[]);
}
