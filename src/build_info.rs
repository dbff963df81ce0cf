//! The running binary's identity: what is derived by one build's rules (a persisted snapshot, the
//! import's memory of validated files) is trusted again only by the same build.

use std::sync::OnceLock;

/// A fingerprint of the running binary's bytes (any rebuild changes it), computed once.
pub fn fingerprint() -> u64 {
    static FINGERPRINT: OnceLock<u64> = OnceLock::new();
    *FINGERPRINT.get_or_init(|| {
        let bytes = std::env::current_exe().and_then(std::fs::read).unwrap_or_default();
        // Without its own bytes the binary is told apart by version alone: never reuse then.
        if bytes.is_empty() { rand::random() } else { xxhash_rust::xxh3::xxh3_64(&bytes) }
    })
}
