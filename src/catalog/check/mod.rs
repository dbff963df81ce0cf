//! The rules of `armory catalog check` over a loaded catalog.
//!
//! The loader (`load.rs`) already refuses what is *invalid* (unknown keys, vocabulary values, dangling
//! references). These rules flag what is valid but wrong or implausible. Errors fail the check:
//! the plausibility rules here (a barrel longer than the whole gun, a year in the future, a muzzle
//! energy that does not follow from the bullet weight and velocity) and the source rules
//! (`sources.rs`, against the published host list of `hosts.rs`). Warnings are listed and never
//! fail it (`coverage.rs`). Each figure rule applies only when the fields it needs are present
//! (absent means "not known").

use std::collections::HashMap;
use std::fmt;

use time::OffsetDateTime;

use super::load::is_valid_id;
use super::model::{Ammunition, Caliber, Catalog, Firearm};
use hosts::HostList;
use sources::Cited;

pub mod coverage;
pub mod hosts;
mod sources;

pub use sources::{CONFIDENCE_WITHOUT_CORROBORATION, STRONG_KINDS};

/// How far a stated muzzle energy may stray from ½·m·v², as a fraction of ½·m·v².
///
/// Why 30%: loads of one cartridge differ in bullet weight (9×19mm runs from 7.5 g to 9.5 g around a
/// typical 8 g, ±15%), and a firearm's stated energy comes from its own barrel and some load while the
/// check takes the caliber's *typical* bullet; energy also follows v², so 10% in velocity is 21% in
/// energy. 30% lets these honest differences pass and still catches the gross mistakes: grains
/// written as grams (×15), feet per second as metres per second (×10.8 in energy), a figure of the
/// wrong cartridge, a typo. (Foot-pounds written as joules, 26% off, slips through.)
pub const ENERGY_TOLERANCE: f64 = 0.30;

/// The earliest plausible year for anything in the catalog (hand cannons appear in the 14th century).
const EARLIEST_YEAR: i64 = 1300;

/// One broken rule (an error or a warning), located like a load error (record and served field name).
#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    /// Resource kind and id, e.g. "firearm glock-17".
    pub record: String,
    /// Served camelCase field name, e.g. "barrelLengthMm" (or "users.adoptedYear" inside a list).
    pub field: String,
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}: {}", self.record, self.field, self.message)
    }
}

/// What the check found: errors fail it, warnings are listed.
#[derive(Debug, Default)]
pub struct Report {
    /// How many records were checked.
    pub records: usize,
    /// Every broken error rule, in resource then id order.
    pub errors: Vec<Violation>,
    /// Per warning rule, in rule order, what it found.
    pub warnings: Vec<coverage::Found>,
}

impl Report {
    pub fn warning_count(&self) -> usize {
        self.warnings.iter().map(|found| found.warnings.len()).sum()
    }

    /// Every warning, rule by rule.
    pub fn all_warnings(&self) -> impl Iterator<Item = &Violation> {
        self.warnings.iter().flat_map(|found| &found.warnings)
    }

    /// "1359 records checked: 0 errors, 412 warnings (rule: count, ...)".
    pub fn summary(&self) -> String {
        let per_rule: Vec<String> =
            self.warnings.iter().map(|found| format!("{}: {}", found.rule, found.warnings.len())).collect();
        format!(
            "{} records checked: {} error(s), {} warning(s) ({})",
            self.records,
            self.errors.len(),
            self.warning_count(),
            per_rule.join(", ")
        )
    }
}

/// Check `catalog` against every rule, with `hosts` the published host list.
pub fn check(catalog: &Catalog, hosts: &HostList) -> Report {
    check_in_year(catalog, hosts, i64::from(OffsetDateTime::now_utc().year()))
}

/// `check` with the current year given, so tests do not depend on the clock.
fn check_in_year(catalog: &Catalog, hosts: &HostList, this_year: i64) -> Report {
    Report {
        records: catalog.record_count(),
        errors: errors(catalog, hosts, this_year),
        warnings: coverage::warnings(catalog),
    }
}

/// The provenance facts of any record with the usual provenance fields; `$key` its key figures.
macro_rules! cited {
    ($record:expr, $key:expr) => {
        Cited {
            sources: &$record.sources,
            confidence: $record.data_confidence,
            verified_fields: $record.verified_fields.as_deref(),
            key_figures: $key,
            served: &|| serde_json::to_value($record).unwrap_or_default(),
        }
    };
}

/// Every broken error rule in `catalog`, in resource then id order.
fn errors(catalog: &Catalog, hosts: &HostList, this_year: i64) -> Vec<Violation> {
    let mut out = Vec::new();
    for c in &catalog.categories {
        Record::open("category", &c.id, this_year, hosts, &mut out);
    }
    for m in &catalog.manufacturers {
        let mut r = Record::open("manufacturer", &m.id, this_year, hosts, &mut out);
        r.provenance(&cited!(m, Vec::new()));
        r.year("foundedYear", m.founded_year);
    }
    for c in &catalog.calibers {
        caliber(c, Record::open("caliber", &c.id, this_year, hosts, &mut out));
    }
    let calibers: HashMap<&str, &Caliber> = catalog.calibers.iter().map(|c| (c.id.as_str(), c)).collect();
    for f in catalog.firearms.as_typed() {
        firearm(f, &calibers, Record::open("firearm", &f.id, this_year, hosts, &mut out));
    }
    for a in catalog.ammunition.as_typed() {
        ammunition(a, Record::open("ammunition", &a.id, this_year, hosts, &mut out));
    }
    for i in &catalog.interfaces {
        Record::open("interface", &i.id, this_year, hosts, &mut out).provenance(&cited!(i, Vec::new()));
    }
    for a in &catalog.attachments {
        let mut r = Record::open("attachment", &a.id, this_year, hosts, &mut out);
        r.provenance(&cited!(a, Vec::new()));
        r.positive(&[("weightG", a.weight_g, "g"), ("lengthMm", a.length_mm, "mm")]);
    }
    for p in &catalog.platforms {
        Record::open("platform", &p.id, this_year, hosts, &mut out).provenance(&cited!(p, Vec::new()));
    }
    out
}

fn firearm(f: &Firearm, calibers: &HashMap<&str, &Caliber>, mut r: Record<'_>) {
    r.provenance(&cited!(f, sources::firearm_key_figures(f)));
    let count = |n: Option<i64>| n.map(|n| n as f64);
    r.positive(&[
        ("weightEmptyG", f.weight_empty_g, "g"),
        ("weightLoadedG", f.weight_loaded_g, "g"),
        ("overallLengthMm", f.overall_length_mm, "mm"),
        ("barrelLengthMm", f.barrel_length_mm, "mm"),
        ("heightMm", f.height_mm, "mm"),
        ("widthMm", f.width_mm, "mm"),
        ("sightRadiusMm", f.sight_radius_mm, "mm"),
        ("foldedLengthMm", f.folded_length_mm, "mm"),
        ("riflingTwistMm", f.rifling_twist_mm, "mm"),
        ("muzzleVelocityMps", f.muzzle_velocity_mps, "m/s"),
        ("muzzleEnergyJ", f.muzzle_energy_j, "J"),
        ("effectiveRangeM", f.effective_range_m, "m"),
        ("maxRangeM", f.max_range_m, "m"),
        ("rateOfFireRpm", count(f.rate_of_fire_rpm), "rounds/min"),
        ("magazineCapacity", count(f.magazine_capacity), "rounds"),
    ]);
    if let Some(overall) = f.overall_length_mm {
        for (field, length) in
            [("barrelLengthMm", f.barrel_length_mm), ("foldedLengthMm", f.folded_length_mm)]
        {
            if let Some(length) = length
                && length >= overall
            {
                r.flag(field, format!("{length} mm is not shorter than overallLengthMm {overall} mm"));
            }
        }
    }
    if let (Some(empty), Some(loaded)) = (f.weight_empty_g, f.weight_loaded_g)
        && loaded < empty
    {
        r.flag("weightLoadedG", format!("{loaded} g is less than weightEmptyG {empty} g"));
    }
    r.year("yearIntroduced", f.year_introduced);
    r.year("yearDiscontinued", f.year_discontinued);
    if let (Some(from), Some(to)) = (f.year_introduced, f.year_discontinued)
        && to < from
    {
        r.flag("yearDiscontinued", format!("{to} is before yearIntroduced {from}"));
    }
    for user in &f.users {
        r.year("users.adoptedYear", user.adopted_year);
    }
    let primaries: Vec<&str> =
        f.calibers.iter().filter(|l| l.is_primary).map(|l| l.caliber_id.as_str()).collect();
    match primaries[..] {
        [id] => {
            if let Some(c) = calibers.get(id) {
                let of = format!(" (typical bullet of {id})");
                r.energy(
                    "muzzleEnergyJ",
                    f.muzzle_energy_j,
                    c.typical_bullet_weight_g,
                    f.muzzle_velocity_mps,
                    &of,
                );
            }
        }
        [] => r.flag("calibers", "no caliber has isPrimary = true; exactly one must".into()),
        _ => r.flag(
            "calibers",
            format!(
                "{} calibers have isPrimary = true ({}); exactly one must",
                primaries.len(),
                primaries.join(", ")
            ),
        ),
    }
}

fn caliber(c: &Caliber, mut r: Record<'_>) {
    r.provenance(&cited!(c, sources::caliber_key_figures(c)));
    r.year("yearIntroduced", c.year_introduced);
    r.positive(&[
        ("bulletDiameterMm", c.bullet_diameter_mm, "mm"),
        ("neckDiameterMm", c.neck_diameter_mm, "mm"),
        ("baseDiameterMm", c.base_diameter_mm, "mm"),
        ("caseLengthMm", c.case_length_mm, "mm"),
        ("overallLengthMm", c.overall_length_mm, "mm"),
        ("typicalBulletWeightG", c.typical_bullet_weight_g, "g"),
        ("typicalMuzzleVelocityMps", c.typical_muzzle_velocity_mps, "m/s"),
        ("typicalMuzzleEnergyJ", c.typical_muzzle_energy_j, "J"),
    ]);
    r.energy(
        "typicalMuzzleEnergyJ",
        c.typical_muzzle_energy_j,
        c.typical_bullet_weight_g,
        c.typical_muzzle_velocity_mps,
        "",
    );
}

fn ammunition(a: &Ammunition, mut r: Record<'_>) {
    r.provenance(&cited!(a, Vec::new()));
    r.positive(&[
        ("bulletWeightG", a.bullet_weight_g, "g"),
        ("muzzleVelocityMps", a.muzzle_velocity_mps, "m/s"),
        ("muzzleEnergyJ", a.muzzle_energy_j, "J"),
        ("testBarrelLengthMm", a.test_barrel_length_mm, "mm"),
    ]);
    r.energy("muzzleEnergyJ", a.muzzle_energy_j, a.bullet_weight_g, a.muzzle_velocity_mps, "");
}

/// The record being checked: where its violations go and what they are attributed to.
struct Record<'a> {
    /// The resource kind, e.g. "firearm".
    kind: &'static str,
    name: String,
    this_year: i64,
    hosts: &'a HostList,
    out: &'a mut Vec<Violation>,
}

impl<'a> Record<'a> {
    /// Start checking a record; its id is checked right away (rule for every resource).
    fn open(
        kind: &'static str,
        id: &str,
        this_year: i64,
        hosts: &'a HostList,
        out: &'a mut Vec<Violation>,
    ) -> Self {
        let mut record = Record { kind, name: format!("{kind} {id}"), this_year, hosts, out };
        if !is_valid_id(id) {
            record.flag("id", format!("'{id}' does not match ^[a-z0-9-]+$"));
        }
        record
    }

    fn flag(&mut self, field: &str, message: String) {
        self.out.push(Violation { record: self.name.clone(), field: field.to_owned(), message });
    }

    /// Every record but categories cites at least one source with a url and a kind, and states its
    /// confidence within 0..=1; then the source rules (`sources.rs`).
    fn provenance(&mut self, cited: &Cited<'_>) {
        if cited.sources.is_empty() {
            self.flag("sources", "no source; every record but categories cites at least one".into());
        }
        for (n, source) in cited.sources.iter().enumerate().map(|(i, s)| (i + 1, s)) {
            for (part, value) in [("url", source.url.as_str()), ("kind", source.kind.as_str())] {
                if value.trim().is_empty() {
                    self.flag("sources", format!("source {n} has an empty {part}"));
                }
            }
        }
        if let Some(c) = cited.confidence
            && !(0.0..=1.0).contains(&c)
        {
            self.flag("dataConfidence", format!("{c} is not within 0..1"));
        }
        let hosts = self.hosts;
        sources::check(self, hosts, cited);
    }

    /// Lengths, weights, velocities, energies, ranges and counts are all above zero.
    fn positive(&mut self, figures: &[(&str, Option<f64>, &str)]) {
        for &(field, value, unit) in figures {
            if let Some(value) = value {
                let plausible = value.is_finite() && value > 0.0;
                if !plausible {
                    self.flag(field, format!("{value} {unit} is not positive"));
                }
            }
        }
    }

    fn year(&mut self, field: &str, year: Option<i64>) {
        if let Some(year) = year
            && !(EARLIEST_YEAR..=self.this_year).contains(&year)
        {
            self.flag(field, format!("{year} is not between {EARLIEST_YEAR} and {}", self.this_year));
        }
    }

    /// A stated muzzle energy agrees with ½·m·v² within `ENERGY_TOLERANCE`. `mass_of` says where the
    /// mass comes from when it is not the record's own figure.
    fn energy(
        &mut self,
        field: &str,
        energy: Option<f64>,
        mass_g: Option<f64>,
        velocity: Option<f64>,
        mass_of: &str,
    ) {
        let (Some(energy), Some(mass_g), Some(velocity)) = (energy, mass_g, velocity) else { return };
        let expected = 0.5 * (mass_g / 1000.0) * velocity * velocity;
        let off = (energy - expected).abs() / expected;
        // With a zero or negative mass or velocity the ratio means nothing; `positive` flags those.
        if expected > 0.0 && off > ENERGY_TOLERANCE {
            self.flag(
                field,
                format!(
                    "energy {energy} J is {:.0}% off 0.5·m·v² = {expected:.0} J with m = {mass_g} g{mass_of}, \
                     v = {velocity} m/s (tolerance {:.0}%)",
                    off * 100.0,
                    ENERGY_TOLERANCE * 100.0
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests;
