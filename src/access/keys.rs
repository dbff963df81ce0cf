//! API key secrets: how they look, and the hash they are stored and found by.
//!
//! A key is `ak_` followed by 40 random lower-case hex characters (160 bits). Only its SHA-256 is
//! stored; a request's key is hashed and looked up in a map keyed by hash, so the lookup's timing
//! depends on the hash, never on how close a guess came to a real key.

use rand::RngExt;
use sha2::{Digest, Sha256};

pub const KEY_PREFIX: &str = "ak_";
/// How much of a key is kept in clear to tell keys apart in listings.
const DISPLAY_PREFIX_LEN: usize = 10;

/// A new secret key, shown once to its owner.
pub fn generate_secret() -> String {
    let bytes: [u8; 20] = rand::rng().random();
    format!("{KEY_PREFIX}{}", hex::encode(bytes))
}

/// The stored form of a key: its SHA-256 in lower-case hex.
pub fn hash_secret(secret: &str) -> String {
    hex::encode(digest_secret(secret))
}

/// A key's SHA-256, as the key cache looks it up (no hex string to make on every request).
pub fn digest_secret(secret: &str) -> [u8; 32] {
    Sha256::digest(secret.as_bytes()).into()
}

pub fn display_prefix(secret: &str) -> String {
    secret.chars().take(DISPLAY_PREFIX_LEN).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_unique_and_hash_stably() {
        let (a, b) = (generate_secret(), generate_secret());
        assert_ne!(a, b);
        assert!(a.starts_with(KEY_PREFIX) && a.len() == 43);
        assert_eq!(hash_secret(&a), hash_secret(&a));
        assert_eq!(display_prefix(&a).len(), 10);
    }
}
