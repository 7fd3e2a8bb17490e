//! Passwords: the policy (at least 10 characters, not guessable from zxcvbn's lists of
//! common passwords and patterns, which hold the 10,000 most common)
//! and Argon2id hashing on the blocking pool under a cap, so that a flood of sign-ins
//! waits for its turn instead of taking the cores the tables need. The queue is shared
//! fairly: one network (IPv4 /24, IPv6 /48) holds at most a small share of it, so that
//! one client's flood leaves room for everyone else's sign-in.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

use crate::error::ApiError;
use crate::limit::{Limiter, Limits, Refused};
use crate::transport::network_key;
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

/// Checks a new password against the policy; `name` (the account's) counts as a word
/// anyone can guess. zxcvbn takes milliseconds: call it off the async runtime
/// ([`check_new_off_runtime`]).
pub fn check_new(password: &str, name: &str) -> Result<(), ApiError> {
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
    if is_common(password, name) {
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
pub fn is_common(password: &str, name: &str) -> bool {
    let guesses = |p: &str| zxcvbn::zxcvbn(p, &[name]).guesses();
    // zxcvbn reads the first 100 characters only, and scores a long repeat of a
    // guessable piece (`19700101` × 32) as strong: a password made of one piece over
    // and over is as guessable as the piece, once per repeat.
    let chars: Vec<char> = password.chars().collect();
    let period = smallest_period(&chars);
    if period < chars.len() {
        let piece: String = chars[..period].iter().collect();
        let repeats = chars.len().div_ceil(period) as u64;
        if guesses(&piece).saturating_mul(repeats) < MIN_GUESSES {
            return true;
        }
    }
    guesses(password) < MIN_GUESSES
}

/// The length of the shortest piece that, repeated, makes `s` (the last repeat may be
/// cut short): `s.len()` when nothing repeats. Knuth–Morris–Pratt's failure function.
fn smallest_period(s: &[char]) -> usize {
    if s.is_empty() {
        return 0;
    }
    let mut border = vec![0usize; s.len()];
    for i in 1..s.len() {
        let mut k = border[i - 1];
        while k > 0 && s[i] != s[k] {
            k = border[k - 1];
        }
        if s[i] == s[k] {
            k += 1;
        }
        border[i] = k;
    }
    s.len() - border[s.len() - 1]
}

/// [`check_new`] on the blocking pool.
pub async fn check_new_off_runtime(password: &str, name: &str) -> Result<(), ApiError> {
    let (password, name) = (password.to_string(), name.to_string());
    tokio::task::spawn_blocking(move || check_new(&password, &name))
        .await
        .map_err(|_| ApiError::internal("the password check failed"))?
}

/// Hashes and verifies on the blocking pool, at most `concurrent` at once and at most
/// `queue` waiting; past that a sign-in is refused (429) rather than queued forever.
/// One network (IPv4 /24, IPv6 /48) holds at most an eighth of the places.
#[derive(Clone)]
pub struct Hasher {
    limiter: Arc<Limiter>,
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
        let places = concurrent.max(1) + queue;
        Hasher {
            limiter: Arc::new(Limiter::new(Limits {
                queue: places,
                // An eighth of the places: eight floods at once still leave room.
                share: (places / 8).max(1),
                ..Limits::running(concurrent)
            })),
        }
    }

    async fn run<T: Send + 'static>(
        &self,
        from: IpAddr,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let busy = || {
            ApiError::too_many_for(
                ErrorCode::AccountsBusy,
                "the server is busy signing people in; try again in a moment",
                Duration::from_secs(1),
            )
        };
        let _queued = match self.limiter.admit(Some(network_key(from))) {
            Ok(ticket) => ticket,
            Err(Refused::Share) => {
                return Err(ApiError::too_many_for(
                    ErrorCode::TooManySignIns,
                    format!(
                        "your network has {} password checks waiting; wait for them",
                        self.limiter.limits().share
                    ),
                    Duration::from_secs(1),
                ))
            }
            Err(Refused::Full) => return Err(busy()),
        };
        let _running = self.limiter.acquire(0).await.map_err(|_| busy())?;
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|_| ApiError::internal("password hashing failed"))
    }

    /// The PHC string of a new password's Argon2id hash.
    pub async fn hash(&self, password: String, from: IpAddr) -> Result<String, ApiError> {
        self.run(from, move || {
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
    pub async fn verify(
        &self,
        password: String,
        hash: Option<String>,
        from: IpAddr,
    ) -> Result<bool, ApiError> {
        let known = hash.is_some();
        let hash = hash.unwrap_or_else(|| decoy_hash().to_string());
        let matches = self
            .run(from, move || {
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
            check_new("short", "ana").unwrap_err().code,
            ErrorCode::WeakPassword
        );
        assert!(check_new(&"x".repeat(MAX_BYTES + 1), "ana").is_err());
        // The own name with digits is guessable, though not from a common list.
        assert!(check_new("Anakuyay_sec2026", "Anakuyay_sec").is_err());
        assert!(check_new("Anakuyay_sec2026", "Bo").is_ok());
        for common in [
            "1234567890",
            "qwertyuiop",
            "PASSWORD123",
            "password1234",
            "iloveyou12",
            "aaaaaaaaaaaa",
        ] {
            assert!(is_common(common, "ana"), "{common}");
            assert!(check_new(common, "ana").is_err(), "{common}");
        }
        for fine in ["stones of the inca 7", "Chullpa-tower-42!", "kqzvmwplrt"] {
            assert!(check_new(fine, "ana").is_ok(), "{fine}");
        }
    }

    #[test]
    fn the_smallest_period_is_the_repeated_piece() {
        let period = |s: &str| smallest_period(&s.chars().collect::<Vec<_>>());
        assert_eq!(period("abcabcab"), 3);
        assert_eq!(period("aaaa"), 1);
        assert_eq!(period("abcd"), 4);
        assert_eq!(period(&"19700101".repeat(32)), 8);
        // A strong piece repeated stays strong enough.
        assert!(!is_common(&"kqzvmwplrt".repeat(3), "ana"));
    }

    /// Issue 56: the own name plus digits, a keyboard row repeated, and a date
    /// repeated to the longest password (zxcvbn reads the first 100 characters only,
    /// which repeat the same way).
    #[test]
    fn the_weak_passwords_of_the_fourth_attack_are_refused() {
        let long_date = "19700101".repeat(32);
        assert_eq!(long_date.len(), MAX_BYTES);
        for (password, name) in [
            ("Ana_sec2026", "Ana_sec"),
            ("ana_sec12345", "Ana_sec"),
            ("qwertyuiopqwertyuiop", "Bo"),
            ("asdfghjklasdfghjklasdfghjkl", "Bo"),
            (long_date.as_str(), "Bo"),
        ] {
            let answer = check_new(password, name).map_err(|e| e.code);
            assert_eq!(answer, Err(ErrorCode::WeakPassword), "{password} ({name})");
        }
    }

    #[tokio::test]
    async fn a_hash_verifies_its_password_only() {
        let hasher = Hasher::new(1, 4);
        let hash = hasher.hash("correct horse 9".into(), ip()).await.unwrap();
        assert!(hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        assert!(hasher
            .verify("correct horse 9".into(), Some(hash.clone()), ip())
            .await
            .unwrap());
        assert!(!hasher
            .verify("correct horse 8".into(), Some(hash), ip())
            .await
            .unwrap());
        assert!(!hasher
            .verify("correct horse 9".into(), None, ip())
            .await
            .unwrap());
    }

    #[tokio::test]
    async fn a_full_queue_refuses_instead_of_waiting() {
        let hasher = Hasher::new(1, 0);
        // The one place, held by another network.
        let _held = hasher
            .limiter
            .admit(Some("198.51.100.1".parse().unwrap()))
            .unwrap();
        let e = hasher
            .hash("correct horse 9".into(), ip())
            .await
            .unwrap_err();
        assert_eq!(e.code, ErrorCode::AccountsBusy);
    }

    fn ip() -> IpAddr {
        "203.0.113.7".parse().unwrap()
    }

    #[tokio::test]
    async fn one_network_holds_at_most_its_share_of_the_queue() {
        let hasher = Hasher::new(1, 31);
        assert_eq!(hasher.limiter.limits().share, 4);
        let network = |ip: &str| Some(network_key(ip.parse().unwrap()));
        let held: Vec<_> = (0..4)
            .map(|_| hasher.limiter.admit(network("203.0.113.7")).unwrap())
            .collect();
        let same_network = "203.0.113.99".parse().unwrap();
        let refused = hasher
            .hash("correct horse 9".into(), same_network)
            .await
            .unwrap_err();
        assert_eq!(refused.code, ErrorCode::TooManySignIns);
        // Another network still gets its turn; a place given back is free again.
        let other = hasher.hash("correct horse 9".into(), "198.51.100.1".parse().unwrap());
        assert!(other.await.is_ok());
        drop(held);
        assert!(hasher
            .hash("correct horse 9".into(), same_network)
            .await
            .is_ok());
    }
}
