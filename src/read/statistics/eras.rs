//! Firearms and cartridges by decade of introduction: what a decade brought (78) and the
//! cartridges most chambered by the firearms of each decade (84).

use std::collections::BTreeMap;

use super::{Read, tally};
use crate::read::facts::Facts;
use crate::read::orders::Order;

/// A decade is named by its first year and an `s`: 1980s.
pub fn decade_label(decade: i64) -> String {
    format!("{decade}s")
}

/// `1980s` → 1980; anything else (1985s, 80s, 1980) is None.
pub fn parse_decade(text: &str) -> Option<i64> {
    let digits = text.strip_suffix('s')?;
    let year: i64 =
        digits.parse().ok().filter(|_| digits.len() == 4 && digits.bytes().all(|b| b.is_ascii_digit()))?;
    (year % 10 == 0).then_some(year)
}

#[derive(serde::Serialize, serde::Deserialize)]
pub struct Eras {
    /// Decade → positions of the firearms introduced in it, by year then name.
    pub firearms: BTreeMap<i64, Vec<usize>>,
    /// Decade → (caliber position, firearms of the decade chambered for it), most first.
    pub calibers: BTreeMap<i64, Vec<(usize, usize)>>,
}

impl Eras {
    pub fn build(read: &[Read], facts: &[Facts], names: &Order) -> Self {
        let mut firearms: BTreeMap<i64, Vec<usize>> = BTreeMap::new();
        for (at, year) in read.iter().map(|f| f.year_introduced).enumerate() {
            if let Some(year) = year {
                firearms.entry(year - year.rem_euclid(10)).or_default().push(at);
            }
        }
        // By year, then by name (the name order's rank: case aside, ties by id).
        for positions in firearms.values_mut() {
            positions.sort_unstable_by_key(|&at| (read[at].year_introduced, names.key(at, false)));
        }
        let calibers = firearms
            .iter()
            .map(|(&decade, positions)| {
                let chambered = positions
                    .iter()
                    .flat_map(|&at| facts[at].calibers.iter().map(|&caliber| caliber as usize));
                (decade, tally(chambered))
            })
            .collect();
        Self { firearms, calibers }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decades_are_four_digits_ending_in_zero_and_an_s() {
        assert_eq!(parse_decade("1980s"), Some(1980));
        for bad in ["1985s", "80s", "1980", "+980s", "19800s", ""] {
            assert_eq!(parse_decade(bad), None, "{bad}");
        }
        assert_eq!(decade_label(1940), "1940s");
    }
}
