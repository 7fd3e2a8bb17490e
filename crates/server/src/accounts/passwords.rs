//! Passwords: the policy (at least 10 characters, not guessable from zxcvbn's lists of
//! common passwords and patterns, which hold the 10,000 most common)
//! and Argon2id hashing on the blocking pool under a cap, so that a flood of sign-ins
//! waits for its turn instead of taking the cores the tables need.

use std::sync::Arc;
use std::time::Duration;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use tokio::sync::Semaphore;

use crate::error::ApiError;
use crate::wire::ErrorCode;

pub const MIN_CHARS: usize = 10;
/// Longer passwords are refused before hashing: hashing cost must not grow with input.
pub const MAX_BYTES: usize = 256;
/// Passwords zxcvbn guesses in fewer tries than this are refused (its scores 0 and 1,
/// "too guessable" and "very guessable").
pub const MIN_GUESSES: u64 = 1_000_000;

/// Argon2id with OWASP's recommended minimum: 19 MiB of memory, 2 passes, 1 lane.
pub fn argon2() -> Argon2<'static> {
    let params = Params::new(19 * 1024, 2, 1, None).expect("valid Argon2 parameters");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Checks a new password against the policy.
pub fn check_new(password: &str) -> Result<(), ApiError> {
    let chars = password.chars().count();
    if chars < MIN_CHARS {
        return Err(ApiError::bad_request(
            ErrorCode::WeakPassword,
            format!("a password has at least {MIN_CHARS} characters, not {chars}"),
        ));
    }
    if password.len() > MAX_BYTES {
        return Err(ApiError::bad_request(
            ErrorCode::WeakPassword,
            format!("a password has at most {MAX_BYTES} bytes"),
        ));
    }
    if is_common(password) {
        return Err(ApiError::bad_request(
            ErrorCode::WeakPassword,
            "this password is too common or too easy to guess (a common password, a keyboard row, a sequence); choose another",
        ));
    }
    Ok(())
}

/// Whether zxcvbn guesses the password in fewer than [`MIN_GUESSES`] tries: every
/// password of its list of the most common ones does (the 10,000 most common cost at
/// most a few thousand guesses each, with their case and digit variants), as do
/// keyboard walks, sequences and repeats.
pub fn is_common(password: &str) -> bool {
    zxcvbn::zxcvbn(password, &[]).guesses() < MIN_GUESSES
}

/// Hashes and verifies on the blocking pool, at most `concurrent` at once and at most
/// `queue` waiting; past that a sign-in is refused (429) rather than queued forever.
#[derive(Clone)]
pub struct Hasher {
    running: Arc<Semaphore>,
    waiting: Arc<Semaphore>,
}

/// A hash every unknown name is verified against, so that an unknown name takes as
/// long as a wrong password.
fn decoy_hash() -> &'static str {
    static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DECOY.get_or_init(|| {
        let salt = SaltString::encode_b64(b"rumi-decoy-salt!").expect("a valid salt");
        argon2()
            .hash_password(b"not anyone's password", &salt)
            .expect("hashing works")
            .to_string()
    })
}

impl Hasher {
    pub fn new(concurrent: usize, queue: usize) -> Hasher {
        Hasher {
            running: Arc::new(Semaphore::new(concurrent.max(1))),
            waiting: Arc::new(Semaphore::new(concurrent.max(1) + queue)),
        }
    }

    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let busy = || {
            ApiError::too_many_for(
                ErrorCode::AccountsBusy,
                "the server is busy signing people in; try again in a moment",
                Duration::from_secs(1),
            )
        };
        let _queued = self
            .waiting
            .clone()
            .try_acquire_owned()
            .map_err(|_| busy())?;
        let _running = self
            .running
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| busy())?;
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|_| ApiError::internal("password hashing failed"))
    }

    /// The PHC string of a new password's Argon2id hash.
    pub async fn hash(&self, password: String) -> Result<String, ApiError> {
        self.run(move || {
            let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
            argon2()
                .hash_password(password.as_bytes(), &salt)
                .map(|h| h.to_string())
        })
        .await?
        .map_err(|_| ApiError::internal("password hashing failed"))
    }

    /// Whether `password` matches `hash`; with no hash (an unknown name) it checks a
    /// decoy and says no, in the same time.
    pub async fn verify(&self, password: String, hash: Option<String>) -> Result<bool, ApiError> {
        let known = hash.is_some();
        let hash = hash.unwrap_or_else(|| decoy_hash().to_string());
        let matches = self
            .run(move || {
                PasswordHash::new(&hash)
                    .map(|parsed| {
                        argon2()
                            .verify_password(password.as_bytes(), &parsed)
                            .is_ok()
                    })
                    .unwrap_or(false)
            })
            .await?;
        Ok(known && matches)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_long_and_common_passwords_are_refused() {
        assert_eq!(
            check_new("short").unwrap_err().code,
            ErrorCode::WeakPassword
        );
        assert!(check_new(&"x".repeat(MAX_BYTES + 1)).is_err());
        for common in [
            "1234567890",
            "qwertyuiop",
            "PASSWORD123",
            "password1234",
            "iloveyou12",
            "aaaaaaaaaaaa",
        ] {
            assert!(is_common(common), "{common}");
            assert!(check_new(common).is_err(), "{common}");
        }
        for fine in ["stones of the inca 7", "Chullpa-tower-42!", "kqzvmwplrt"] {
            assert!(check_new(fine).is_ok(), "{fine}");
        }
    }

    #[tokio::test]
    async fn a_hash_verifies_its_password_only() {
        let hasher = Hasher::new(1, 4);
        let hash = hasher.hash("correct horse 9".into()).await.unwrap();
        assert!(hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        assert!(hasher
            .verify("correct horse 9".into(), Some(hash.clone()))
            .await
            .unwrap());
        assert!(!hasher
            .verify("correct horse 8".into(), Some(hash))
            .await
            .unwrap());
        assert!(!hasher.verify("correct horse 9".into(), None).await.unwrap());
    }

    #[tokio::test]
    async fn a_full_queue_refuses_instead_of_waiting() {
        let hasher = Hasher::new(1, 0);
        let _held = hasher.waiting.clone().try_acquire_owned().unwrap();
        let e = hasher.hash("correct horse 9".into()).await.unwrap_err();
        assert_eq!(e.code, ErrorCode::AccountsBusy);
    }
}
