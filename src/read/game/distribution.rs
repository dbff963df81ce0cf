//! One stat's values over a set of firearms, kept as a count per value (stats are integers 0 to
//! 100), so mean, standard deviation, percentiles, percentile ranks and histograms cost 101 steps
//! whatever the catalog's size.
//!
//! - mean and standard deviation are the population's (divide by n, not n − 1);
//! - percentile p (nearest rank): the smallest value v such that at least p% of the values are
//!   ≤ v, that is the value at rank ⌈p/100 · n⌉ in ascending order;
//! - percentile rank of a value v (mid-rank): 100 · (count below v + ½ · count equal to v) / n;
//! - histogram of b bins over 0..100: bin i holds the values v with ⌊v · b / 100⌋ = i (100 falls in
//!   the last bin), so bin i spans [100·i/b, 100·(i+1)/b), the last one closed.

use super::stat::{round2, round3};

#[derive(Clone, serde::Serialize, serde::Deserialize)]
pub struct Distribution {
    #[serde(with = "counts")]
    counts: [u32; 101],
    n: u32,
}

/// The counts as a list when persisted (serde derives arrays of up to 32 items only).
mod counts {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(counts: &[u32; 101], serializer: S) -> Result<S::Ok, S::Error> {
        counts[..].serialize(serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<[u32; 101], D::Error> {
        let counts = Vec::<u32>::deserialize(deserializer)?;
        counts.try_into().map_err(|_| serde::de::Error::custom("a distribution holds 101 counts"))
    }
}

impl Default for Distribution {
    fn default() -> Self {
        Self { counts: [0; 101], n: 0 }
    }
}

// One bin of a histogram: from its lower bound (inclusive) to its upper one (exclusive, except
// the last bin's 100). Plain comments: the description says so once for the whole histogram.
#[derive(Debug, Clone, PartialEq, serde::Serialize, utoipa::ToSchema)]
#[schema(as = HistogramBin)]
pub struct Bin {
    pub from: f64,
    pub to: f64,
    #[schema(value_type = i64)]
    pub count: u32,
}

impl Distribution {
    pub fn add(&mut self, value: u8) {
        self.counts[usize::from(value.min(100))] += 1;
        self.n += 1;
    }

    pub fn count(&self) -> u32 {
        self.n
    }

    fn values(&self) -> impl Iterator<Item = (f64, f64)> + '_ {
        self.counts.iter().enumerate().filter(|(_, c)| **c > 0).map(|(v, c)| (v as f64, f64::from(*c)))
    }

    /// The exact mean (None without values).
    pub fn mean_exact(&self) -> Option<f64> {
        (self.n > 0).then(|| self.values().map(|(v, c)| v * c).sum::<f64>() / f64::from(self.n))
    }

    /// The population standard deviation, exact (None without values).
    pub fn sd_exact(&self) -> Option<f64> {
        let mean = self.mean_exact()?;
        let variance = self.values().map(|(v, c)| c * (v - mean).powi(2)).sum::<f64>() / f64::from(self.n);
        Some(variance.sqrt())
    }

    /// The mean, rounded to two decimals.
    pub fn mean(&self) -> Option<f64> {
        self.mean_exact().map(round2)
    }

    /// The population standard deviation, rounded to three decimals.
    pub fn standard_deviation(&self) -> Option<f64> {
        self.sd_exact().map(round3)
    }

    pub fn min(&self) -> Option<u8> {
        self.counts.iter().position(|c| *c > 0).map(|v| v as u8)
    }

    pub fn max(&self) -> Option<u8> {
        self.counts.iter().rposition(|c| *c > 0).map(|v| v as u8)
    }

    /// Percentile `p` (0 < p ≤ 100) by nearest rank.
    pub fn percentile(&self, p: u32) -> Option<u8> {
        if self.n == 0 {
            return None;
        }
        let rank = (u64::from(p) * u64::from(self.n)).div_ceil(100).max(1);
        let mut seen = 0u64;
        for (value, count) in self.counts.iter().enumerate() {
            seen += u64::from(*count);
            if seen >= rank {
                return Some(value as u8);
            }
        }
        self.max()
    }

    /// The mid-rank percentile of `value` among these values, 0 to 100, two decimals.
    pub fn percentile_rank(&self, value: u8) -> Option<f64> {
        if self.n == 0 {
            return None;
        }
        let at = usize::from(value.min(100));
        let below: u32 = self.counts[..at].iter().sum();
        let equal = self.counts[at];
        Some(round2(100.0 * (f64::from(below) + 0.5 * f64::from(equal)) / f64::from(self.n)))
    }

    /// `bins` equal bins over 0..100.
    pub fn histogram(&self, bins: usize) -> Vec<Bin> {
        let bins = bins.max(1);
        let mut out: Vec<Bin> = (0..bins)
            .map(|i| Bin {
                from: round2(100.0 * i as f64 / bins as f64),
                to: round2(100.0 * (i + 1) as f64 / bins as f64),
                count: 0,
            })
            .collect();
        for (value, count) in self.counts.iter().enumerate() {
            out[(value * bins / 100).min(bins - 1)].count += count;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(values: &[u8]) -> Distribution {
        let mut d = Distribution::default();
        values.iter().for_each(|v| d.add(*v));
        d
    }

    #[test]
    fn percentiles_take_the_nearest_rank() {
        let d = of(&[10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
        assert_eq!(d.percentile(10), Some(10));
        assert_eq!(d.percentile(25), Some(30), "rank ⌈2.5⌉ = 3");
        assert_eq!(d.percentile(50), Some(50));
        assert_eq!(d.percentile(90), Some(90));
        assert_eq!(d.mean(), Some(55.0));
        assert_eq!(d.standard_deviation(), Some(28.723));
    }

    #[test]
    fn histograms_put_one_hundred_in_the_last_bin() {
        let d = of(&[0, 9, 10, 99, 100]);
        let h = d.histogram(10);
        assert_eq!(h[0].count, 2);
        assert_eq!(h[1].count, 1);
        assert_eq!(h[9].count, 2);
        assert_eq!(h.iter().map(|b| b.count).sum::<u32>(), 5);
        let h = d.histogram(3);
        assert_eq!((h[0].from, h[0].to, h[0].count), (0.0, 33.33, 3));
    }

    #[test]
    fn percentile_ranks_count_half_the_ties() {
        let d = of(&[10, 20, 20, 40]);
        assert_eq!(d.percentile_rank(20), Some(50.0));
        assert_eq!(d.percentile_rank(40), Some(87.5));
    }
}
