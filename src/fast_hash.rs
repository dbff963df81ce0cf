//! A fast hash for the maps the access layer reads on every request (the key cache, the
//! in-memory rate-limit counters, the pending usage counts): the standard SipHash was a few per
//! cent of a firearm detail, hashing a 32-byte digest and four strings per request.
//!
//! The multiply-and-rotate of rustc's `FxHasher`. It does not resist chosen collisions, which
//! these maps need not: their keys are made by the service (account and key ids, existing
//! firearm ids, the UTC day) or are SHA-256 digests, so a caller cannot choose what is inserted.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A `HashMap` with `FastHasher`.
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

#[derive(Default, Clone, Copy)]
pub struct FastHasher(u64);

const MULTIPLIER: u64 = 0xf135_7aea_2e62_a9c5;

impl FastHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0 ^ word).wrapping_mul(MULTIPLIER);
    }
}

impl Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            self.add(u64::from_le_bytes(word.try_into().expect("eight bytes")));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(last) ^ (rest.len() as u64) << 59);
        }
    }

    fn write_u8(&mut self, byte: u8) {
        self.add(u64::from(byte));
    }

    fn write_usize(&mut self, number: usize) {
        self.add(number as u64);
    }

    /// The product's high bits are its best; the table indexes buckets by the low ones.
    fn finish(&self) -> u64 {
        self.0.rotate_left(26)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    #[test]
    fn equal_keys_hash_alike_and_near_keys_apart() {
        let hash = |text: &str| BuildHasherDefault::<FastHasher>::default().hash_one(text);
        assert_eq!(hash("acct_1f2e"), hash("acct_1f2e"));
        let keys = ["acct_1", "acct_2", "acct_10", "key:acct_1", "2026-11-28", "2026-11-29", ""];
        let mut hashes: Vec<u64> = keys.iter().map(|key| hash(key)).collect();
        hashes.sort_unstable();
        hashes.dedup();
        assert_eq!(hashes.len(), keys.len());
        let mut map: FastMap<String, usize> = FastMap::default();
        for (i, key) in keys.iter().enumerate() {
            map.insert((*key).to_owned(), i);
        }
        assert!(keys.iter().enumerate().all(|(i, key)| map.get(*key) == Some(&i)));
    }
}
