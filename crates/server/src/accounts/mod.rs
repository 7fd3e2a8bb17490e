//! Accounts (issue 47): sign up, sign in, server-side sessions, password changes,
//! deletion and the data export. Guests need none of it: seat tokens keep working.
//!
//! A session is a random id in a cookie; the database keeps only its SHA-256, so a
//! copy of the database opens no session, and every node of a cluster knows it.
//! Sign-ins are limited per name and per address; an unknown name and a wrong
//! password get the same answer in the same time. A browser that signed in to an
//! account before (its device cookie) guesses on an allowance of its own, so that
//! guesses from elsewhere do not lock its owner out; passkeys are not guessed and
//! count against no name. Adding or removing a passkey needs the password proved
//! within the last minutes (a stolen session alone cannot keep the account).

mod limits;
pub mod names;
pub mod passkeys;
pub mod passwords;
mod profiles;

use std::net::IpAddr;
use std::time::Duration;

use rand::RngCore;
use sha2::{Digest, Sha256};

use crate::clock::Clock;
use crate::error::ApiError;
use crate::store::{NameClash, NewAccount, Store, StoredAccount};
use crate::transport::{client_key, Rate, RateLimiter};
use crate::wire::{AccountData, AccountView, ErrorCode, SessionData};
use limits::SignInLimit;
use passwords::Hasher;

/// How accounts are limited, and how their cookie is sent.
#[derive(Clone, Debug)]
pub struct AccountOptions {
    /// Mark the session cookie `Secure` (the site is served over TLS, e.g. behind a
    /// TLS proxy).
    pub secure_cookies: bool,
    /// Sign-in attempts per name (folded), whether or not it exists.
    pub sign_ins_per_name: Rate,
    /// Sign-in and sign-up attempts per client address (IPv6 per /64).
    pub sign_ins_per_address: Rate,
    /// Argon2 hashes computed at once, and waiting beyond those.
    pub concurrent_hashes: usize,
    pub hash_queue: usize,
    /// How long a session lasts.
    pub session_lifetime: Duration,
    /// Profile and leaderboard reads per client address.
    pub profile_reads_per_address: Rate,
    /// How long ago a session must have proved its password to add or remove a
    /// passkey.
    pub reauth_window: Duration,
    /// How long a browser's device cookie lasts.
    pub device_lifetime: Duration,
}

impl Default for AccountOptions {
    fn default() -> Self {
        AccountOptions {
            secure_cookies: false,
            // Five tries, then one every two minutes.
            sign_ins_per_name: Rate {
                per_second: 1.0 / 120.0,
                burst: 5.0,
            },
            sign_ins_per_address: Rate {
                per_second: 20.0 / 60.0,
                burst: 20.0,
            },
            concurrent_hashes: 1,
            hash_queue: 32,
            session_lifetime: Duration::from_secs(30 * 24 * 3600),
            // A person browsing profiles: a page a second, sixty at once.
            profile_reads_per_address: Rate {
                per_second: 1.0,
                burst: 60.0,
            },
            reauth_window: Duration::from_secs(5 * 60),
            device_lifetime: Duration::from_secs(365 * 24 * 3600),
        }
    }
}

/// A signed-in request: the account, the hash of its session's id, when the session
/// last proved the password, and the browser's device cookie (if it sent one).
#[derive(Clone, Debug)]
pub struct SignedIn {
    pub account: StoredAccount,
    pub session: String,
    pub reauth_ms: i64,
    pub device: Option<String>,
}

/// A new session: the cookie's value (given to the client once) and when it ends, and
/// the browser's device cookie (the one it sent, or a new one) with its lifetime.
pub struct NewSession {
    pub cookie: String,
    pub max_age: Duration,
    pub device: String,
    pub device_max_age: Duration,
}

pub struct Accounts {
    store: Store,
    hasher: Hasher,
    /// Password tries per name, and per known browser of an account (its own).
    per_name: SignInLimit,
    per_device: SignInLimit,
    per_address: SignInLimit,
    profile_reads: RateLimiter,
    limits: AccountOptions,
    /// Makes the made-up passkey of a name without passkeys (`passkeys`).
    decoy_secret: String,
    clock: Clock,
}

/// The stored form of a session id.
fn session_hash(cookie: &str) -> String {
    hex::encode(Sha256::digest(cookie.as_bytes()))
}

/// Whether a cookie value is one this server made: 32 random bytes in hex.
fn is_our_cookie(value: &str) -> bool {
    value.len() == 64 && value.bytes().all(|b| b.is_ascii_hexdigit())
}

fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::thread_rng().fill_bytes(&mut buf);
    hex::encode(buf)
}

fn view(account: &StoredAccount) -> AccountView {
    AccountView {
        name: account.name.clone(),
        created_ms: account.created_ms,
    }
}

/// The one answer to a failed sign-in, whether the name exists or not.
fn bad_credentials() -> ApiError {
    ApiError::unauthorized(ErrorCode::BadCredentials, "wrong name or password")
}

impl Accounts {
    pub fn new(store: Store, limits: AccountOptions, clock: Clock) -> Accounts {
        Accounts {
            per_name: SignInLimit::new("name", limits.sign_ins_per_name, &store),
            per_device: SignInLimit::new("device", limits.sign_ins_per_name, &store),
            per_address: SignInLimit::new("address", limits.sign_ins_per_address, &store),
            store,
            clock,
            hasher: Hasher::new(limits.concurrent_hashes, limits.hash_queue),
            profile_reads: RateLimiter::new(limits.profile_reads_per_address),
            decoy_secret: random_hex(32),
            limits,
        }
    }

    fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    pub fn secure_cookies(&self) -> bool {
        self.limits.secure_cookies
    }

    async fn check_address(&self, from: IpAddr) -> Result<(), ApiError> {
        let key = client_key(from).to_string();
        match self.per_address.take(&key, self.now_ms()).await? {
            None => Ok(()),
            Some(wait) => Err(ApiError::too_many_for(
                ErrorCode::TooManySignIns,
                format!(
                    "too many sign-ins from your address; try again in {} s",
                    wait.as_secs().max(1)
                ),
                wait,
            )),
        }
    }

    /// Whether `from` may read another profile or leaderboard now.
    pub fn check_profile_read(&self, from: IpAddr) -> Result<(), ApiError> {
        self.profile_reads.check(from).map_err(|wait| {
            ApiError::too_many_for(
                ErrorCode::RateLimited,
                "too many profiles and leaderboards from your address; wait a moment",
                wait,
            )
        })
    }

    /// A new session of `account`; the browser's device cookie (`device`, or a new
    /// one) is remembered as a known browser of the account.
    async fn start_session(
        &self,
        account: &StoredAccount,
        device: Option<&str>,
    ) -> Result<NewSession, ApiError> {
        let cookie = random_hex(32);
        let now = self.now_ms();
        let max_age = self.limits.session_lifetime;
        self.store
            .create_session(
                &session_hash(&cookie),
                &account.id,
                now,
                now + max_age.as_millis() as i64,
            )
            .await?;
        let device = device
            .filter(|d| is_our_cookie(d))
            .map_or_else(|| random_hex(32), str::to_string);
        self.store
            .remember_device(&session_hash(&device), &account.id, now)
            .await?;
        Ok(NewSession {
            cookie,
            max_age,
            device,
            device_max_age: self.limits.device_lifetime,
        })
    }

    /// A new account with `name` and `password`, signed in.
    pub async fn sign_up(
        &self,
        name: &str,
        password: &str,
        from: IpAddr,
        device: Option<&str>,
    ) -> Result<(AccountView, NewSession), ApiError> {
        let name = names::account_name(name)?;
        // The rate first: refused sign-ups cost no password check.
        self.check_address(from).await?;
        passwords::check_new_off_runtime(password, &name.name).await?;
        let hash = self.hasher.hash(password.to_string(), from).await?;
        let account = StoredAccount {
            id: random_hex(12),
            name: name.name.clone(),
            password_hash: Some(hash.clone()),
            created_ms: self.now_ms(),
        };
        let made = self
            .store
            .create_account(&NewAccount {
                id: &account.id,
                name: &name.name,
                name_key: &name.key,
                skeleton: &name.skeleton,
                password_hash: &hash,
                created_ms: account.created_ms,
            })
            .await?;
        if let Err(clash) = made {
            return Err(ApiError::conflict(
                ErrorCode::AccountNameTaken,
                match clash {
                    NameClash::Taken => format!("the name `{}` is taken", name.name),
                    NameClash::LooksLike => {
                        format!("`{}` looks too much like another player's name", name.name)
                    }
                },
            ));
        }
        let session = self.start_session(&account, device).await?;
        Ok((view(&account), session))
    }

    /// Whether a password of the account of `name_key` (if there is one) may be
    /// tried now. A browser that signed in to that account before (`device`) tries on
    /// an allowance of its own; any other try counts against the name, whether it
    /// exists or not.
    async fn check_name(
        &self,
        name_key: &str,
        account: Option<&StoredAccount>,
        device: Option<&str>,
    ) -> Result<(), ApiError> {
        let now = self.now_ms();
        let own = match (account, device.filter(|d| is_our_cookie(d))) {
            (Some(account), Some(device)) => {
                let device = session_hash(device);
                self.store
                    .is_known_device(&device, &account.id)
                    .await?
                    .then(|| format!("{}:{device}", account.id))
            }
            _ => None,
        };
        let wait = match own {
            Some(key) => self.per_device.take(&key, now).await?,
            None => self.per_name.take(name_key, now).await?,
        };
        match wait {
            None => Ok(()),
            Some(wait) => Err(ApiError::too_many_for(
                ErrorCode::SignInLocked,
                format!(
                    "too many sign-ins for this name; it is locked for {} s",
                    wait.as_secs().max(1)
                ),
                wait,
            )),
        }
    }

    /// Signs in by name and password, from the browser of `device` (its device
    /// cookie, if it sent one).
    pub async fn sign_in(
        &self,
        name: &str,
        password: &str,
        from: IpAddr,
        device: Option<&str>,
    ) -> Result<(AccountView, NewSession), ApiError> {
        if password.len() > passwords::MAX_BYTES || name.chars().count() > 64 {
            return Err(bad_credentials());
        }
        self.check_address(from).await?;
        // No account's name has a control character (and PostgreSQL takes no NUL).
        if name.chars().any(char::is_control) {
            return Err(bad_credentials());
        }
        let key = names::name_key(name);
        let account = self.store.account_by_key(&key).await?;
        self.check_name(&key, account.as_ref(), device).await?;
        let hash = account.as_ref().and_then(|a| a.password_hash.clone());
        if !self.hasher.verify(password.to_string(), hash, from).await? {
            return Err(bad_credentials());
        }
        let account = account.ok_or_else(bad_credentials)?;
        let session = self.start_session(&account, device).await?;
        Ok((view(&account), session))
    }

    /// The live account of a name (any case), if there is one.
    pub async fn by_name(&self, name: &str) -> Result<Option<StoredAccount>, ApiError> {
        if name.chars().count() > names::MAX_CHARS {
            return Ok(None);
        }
        Ok(self.store.account_by_key(&names::name_key(name)).await?)
    }

    /// Who a session cookie belongs to, if it is live; `device` is the browser's
    /// device cookie.
    pub async fn session(
        &self,
        cookie: &str,
        device: Option<&str>,
    ) -> Result<Option<SignedIn>, ApiError> {
        if !is_our_cookie(cookie) {
            return Ok(None);
        }
        let session = session_hash(cookie);
        let found = self.store.session_account(&session, self.now_ms()).await?;
        Ok(found.map(|(account, reauth_ms)| SignedIn {
            account,
            session,
            reauth_ms,
            device: device.filter(|d| is_our_cookie(d)).map(str::to_string),
        }))
    }

    /// Refuses (403 `reauth_needed`) unless the session proved the password (or a
    /// passkey, by signing in with it) within [`AccountOptions::reauth_window`].
    pub fn check_recent_reauth(&self, signed: &SignedIn) -> Result<(), ApiError> {
        let window = self.limits.reauth_window.as_millis() as i64;
        if self.now_ms() - signed.reauth_ms <= window {
            return Ok(());
        }
        Err(ApiError::forbidden(
            ErrorCode::ReauthNeeded,
            format!(
                "confirm your password first (POST /api/me/reauth): this needs it proved within the last {} minutes",
                window / 60_000
            ),
        ))
    }

    /// The session proves the account's password again (for [`Self::check_recent_reauth`]).
    pub async fn reauth(
        &self,
        signed: &SignedIn,
        password: &str,
        from: IpAddr,
    ) -> Result<(), ApiError> {
        self.check_address(from).await?;
        self.check_password(signed, password, from).await?;
        self.store
            .set_reauth(&signed.session, self.now_ms())
            .await
            .map_err(ApiError::from)
    }

    pub async fn sign_out(&self, signed: &SignedIn) -> Result<(), ApiError> {
        self.store
            .delete_session(&signed.session)
            .await
            .map_err(ApiError::from)
    }

    /// Ends every session of the account, on every device.
    pub async fn sign_out_everywhere(&self, signed: &SignedIn) -> Result<u64, ApiError> {
        self.store
            .delete_sessions_of(&signed.account.id)
            .await
            .map_err(ApiError::from)
    }

    /// Checks the account's current password as a sign-in try of its name, or of the
    /// session's known browser (so that a session cannot guess without end); the
    /// caller has counted the address's try.
    async fn check_password(
        &self,
        signed: &SignedIn,
        password: &str,
        from: IpAddr,
    ) -> Result<(), ApiError> {
        self.check_name(
            &names::name_key(&signed.account.name),
            Some(&signed.account),
            signed.device.as_deref(),
        )
        .await?;
        let ok = password.len() <= passwords::MAX_BYTES
            && self
                .hasher
                .verify(
                    password.to_string(),
                    signed.account.password_hash.clone(),
                    from,
                )
                .await?;
        if ok {
            Ok(())
        } else {
            Err(ApiError::forbidden(
                ErrorCode::WrongPassword,
                "the current password is wrong",
            ))
        }
    }

    /// A new password; every other session ends, and with `remove_passkeys` every
    /// passkey goes too (one a thief added with a stolen session among them).
    pub async fn change_password(
        &self,
        signed: &SignedIn,
        current: &str,
        new: &str,
        remove_passkeys: bool,
        from: IpAddr,
    ) -> Result<(), ApiError> {
        self.check_address(from).await?;
        passwords::check_new_off_runtime(new, &signed.account.name).await?;
        self.check_password(signed, current, from).await?;
        let hash = self.hasher.hash(new.to_string(), from).await?;
        self.store
            .set_password(
                &signed.account.id,
                &hash,
                &signed.session,
                remove_passkeys,
                self.now_ms(),
            )
            .await
            .map_err(ApiError::from)
    }

    /// Deletes the account (its password confirms it): games stay, the name becomes
    /// "deleted player", every session ends.
    pub async fn delete(
        &self,
        signed: &SignedIn,
        password: &str,
        from: IpAddr,
    ) -> Result<(), ApiError> {
        self.check_address(from).await?;
        self.check_password(signed, password, from).await?;
        self.store
            .delete_account(&signed.account.id, self.now_ms())
            .await
            .map_err(ApiError::from)
    }

    /// Everything stored about the account, for its owner.
    pub async fn export(&self, signed: &SignedIn) -> Result<AccountData, ApiError> {
        let sessions = self.store.sessions_of(&signed.account.id).await?;
        Ok(AccountData {
            account: view(&signed.account),
            profile: self.profile_of(&signed.account).await?,
            tables: self.games_of(&signed.account).await?.games,
            sessions: sessions
                .into_iter()
                .map(|(created_ms, expires_ms)| SessionData {
                    created_ms,
                    expires_ms,
                })
                .collect(),
        })
    }
}
