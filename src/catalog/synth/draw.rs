//! Seeded draws and the small numeric helpers the generator uses.

use rand::RngExt;
use rand::rngs::StdRng;

/// A seeded generator with the few draws this file needs.
pub(super) struct Draw(pub(super) StdRng);

impl Draw {
    pub(super) fn float(&mut self, (low, high): (f64, f64)) -> f64 {
        if high > low { self.0.random_range(low..high) } else { low }
    }

    pub(super) fn int(&mut self, (low, high): (i64, i64)) -> i64 {
        if high > low { self.0.random_range(low..=high) } else { low }
    }

    pub(super) fn below(&mut self, n: usize) -> usize {
        self.0.random_range(0..n)
    }

    pub(super) fn chance(&mut self, p: f64) -> bool {
        self.0.random_bool(p.clamp(0.0, 1.0))
    }

    pub(super) fn pick<T: Copy>(&mut self, list: &[T]) -> T {
        list[self.below(list.len())]
    }

    /// An index into a list of `n`, the first ones far more often (a few popular cartridges).
    pub(super) fn popular(&mut self, n: usize) -> usize {
        let u: f64 = self.0.random();
        ((u * u * n as f64) as usize).min(n - 1)
    }

    pub(super) fn weighted<T: Copy>(&mut self, items: &[(T, f64)]) -> T {
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

pub(super) fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

pub(super) fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Kinetic energy in joules of a `grams` bullet at `mps` metres per second.
pub(super) fn energy(grams: f64, mps: f64) -> f64 {
    0.5 * (grams / 1000.0) * mps * mps
}

pub(super) fn digits(n: usize) -> usize {
    n.max(1).to_string().len()
}
