//! Fair deals that anyone can check: the server draws a table's seed from the
//! operating system's secure source and publishes, at creation, a commitment to it
//! (SHA-256 of the seed and a secret salt). Seed and salt are revealed when the game
//! is over, so every player can check that the deal was fixed before the first move
//! and that nobody (not even the server) chose it afterwards.

use rand::rngs::OsRng;
use rand::RngCore;
use sha2::{Digest, Sha256};

/// Seeds stay below 2^53, so that JavaScript clients show them exactly.
pub const SEED_LIMIT: u64 = 1 << 53;

/// A seed from the operating system's secure source.
pub fn secure_seed() -> u64 {
    OsRng.next_u64() % SEED_LIMIT
}

/// A fresh secret: 128 bits from the operating system's secure source, as 32 hex
/// digits (seat tokens and salts).
pub fn new_secret() -> String {
    let mut bytes = [0u8; 16];
    OsRng.fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// The published commitment: hex SHA-256 of `rumi-seed:{seed}:{salt}`.
pub fn commitment(seed: u64, salt: &str) -> String {
    hex::encode(Sha256::digest(
        format!("rumi-seed:{seed}:{salt}").as_bytes(),
    ))
}

/// Whether a revealed seed and salt are the ones committed to.
pub fn verify(commitment_hex: &str, seed: u64, salt: &str) -> bool {
    commitment(seed, salt).eq_ignore_ascii_case(commitment_hex.trim())
}

/// The randomness of a table's bots for the move after `version`: from the table's
/// secret salt, never from the deal's seed (a practice seed is chosen and shown, and
/// every seed is revealed at the end), so that nobody can predict a bot from what the
/// table shows during play. Stored with the table, it is the same after a restart.
pub fn bot_seed(salt: &str, version: u64) -> u64 {
    let digest = Sha256::digest(format!("rumi-bot:{salt}:{version}").as_bytes());
    u64::from_le_bytes(
        digest[..8]
            .try_into()
            .expect("a SHA-256 digest has 32 bytes"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_commitment_binds_seed_and_salt() {
        let salt = new_secret();
        let c = commitment(42, &salt);
        assert_eq!(c.len(), 64);
        assert!(verify(&c, 42, &salt));
        assert!(!verify(&c, 43, &salt), "another seed must not match");
        assert!(
            !verify(&c, 42, &new_secret()),
            "another salt must not match"
        );
        // Known answer, so that other tools can reproduce the check.
        assert_eq!(
            commitment(7, "00"),
            hex::encode(Sha256::digest(b"rumi-seed:7:00"))
        );
    }

    #[test]
    fn secure_seeds_stay_exact_in_javascript() {
        assert!((0..1000).all(|_| secure_seed() < SEED_LIMIT));
        assert_ne!(new_secret(), new_secret());
    }
}
