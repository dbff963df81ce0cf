//! Tiers S to D over a ranked order (best first). A firearm's standing is the share of the
//! ranked firearms placed strictly above it: q = 100 · r / n, where r is the 0-based position of
//! the first firearm with its score (equal scores share a standing, so a tie never straddles two
//! tiers). S: q < 10, A: 10 ≤ q < 30, B: 30 ≤ q < 70, C: 70 ≤ q < 90, D: q ≥ 90, so about the best
//! 10% are S, the next 20% A, the middle 40% B, the next 20% C and the last 10% D.

/// Tier names and the upper bound (exclusive) of q for each; D takes the rest.
pub const TIERS: [(&str, f64, f64); 5] =
    [("S", 0.0, 10.0), ("A", 10.0, 30.0), ("B", 30.0, 70.0), ("C", 70.0, 90.0), ("D", 90.0, 100.0)];

/// The cut-offs in one sentence, for the OpenAPI descriptions.
pub const RULE: &str = "Tiers: ranked best first (ties by name), a firearm's standing q = 100 · r / n, r being \
    the 0-based position of the first firearm with its score (ties share a standing and a tier), n the \
    firearms ranked; S q < 10, A 10 ≤ q < 30, B 30 ≤ q < 70, C 70 ≤ q < 90, D q ≥ 90.";

/// The tier (position in `TIERS`) of standing `q`.
pub fn tier_of(q: f64) -> usize {
    TIERS.iter().position(|(_, _, upper)| q < *upper).unwrap_or(TIERS.len() - 1)
}

/// The competition rank r (0-based) of position `p` among `n` scores best first: the position
/// of the first score equal to it. Binary search, so a tier list costs O(log n) per firearm shown.
pub fn rank_at(score: impl Fn(usize) -> f64, p: usize) -> usize {
    let target = score(p);
    partition(p, |q| score(q) > target)
}

/// Where each tier starts and ends among `n` scores best first: tier t holds positions
/// `bounds[t]..bounds[t + 1]`. The first position of tier t+1 is the first one whose rank r has
/// 100 · r / n ≥ the tier's upper bound: from k = ⌈upper · n / 100⌉ on, past the firearms tied
/// with position k − 1.
pub fn bounds(score: impl Fn(usize) -> f64, n: usize) -> [usize; 6] {
    let mut out = [0, 0, 0, 0, 0, n];
    for (t, (_, _, upper)) in TIERS.iter().enumerate().take(TIERS.len() - 1) {
        let k = ((upper * n as f64) / 100.0).ceil() as usize;
        let start = if k == 0 || k >= n {
            k.min(n)
        } else {
            let tied = score(k - 1);
            k + partition(n - k, |q| score(k + q) == tied)
        };
        out[t + 1] = start.max(out[t]);
    }
    out
}

/// The first i in 0..len for which `pred` is false (`pred` true then false, as slices'
/// `partition_point`).
fn partition(len: usize, pred: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0, len);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if pred(mid) { lo = mid + 1 } else { hi = mid }
    }
    lo
}

/// The standing q of competition rank `r` among `n`.
pub fn standing(r: usize, n: usize) -> f64 {
    if n == 0 { 0.0 } else { 100.0 * r as f64 / n as f64 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_share_a_rank_and_a_tier() {
        let scores = [90.0, 80.0, 80.0, 70.0];
        let ranks: Vec<usize> = (0..4).map(|p| rank_at(|q| scores[q], p)).collect();
        assert_eq!(ranks, vec![0, 1, 1, 3]);
        assert_eq!(tier_of(standing(0, 20)), 0);
        assert_eq!(tier_of(standing(2, 20)), 1, "q = 10 is A");
        assert_eq!(tier_of(standing(5, 20)), 1);
        assert_eq!(tier_of(standing(6, 20)), 2, "q = 30 is B");
        assert_eq!(tier_of(standing(18, 20)), 4, "q = 90 is D");
    }

    #[test]
    fn bounds_agree_with_the_standing_of_each_position() {
        let scores: Vec<f64> =
            [99, 97, 97, 90, 88, 88, 88, 80, 70, 70, 60, 50, 50, 50, 40, 30, 20, 20, 10, 5, 1]
                .iter()
                .map(|v| f64::from(*v))
                .collect();
        let n = scores.len();
        let b = bounds(|q| scores[q], n);
        for p in 0..n {
            let tier = tier_of(standing(rank_at(|q| scores[q], p), n));
            assert!((b[tier]..b[tier + 1]).contains(&p), "position {p} is in tier {tier}: {b:?}");
        }
        assert_eq!(bounds(|q| scores[q], 0), [0; 6]);
    }
}
