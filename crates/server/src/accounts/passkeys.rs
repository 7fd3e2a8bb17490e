//! Passkeys (WebAuthn, by `webauthn-rs`): add and remove them signed in, and sign in
//! with one instead of the password.
//!
//! The relying party is the site as the browser reached it: its host (without the
//! port) is the RP id and its origin what the browser must sign for, so a copy of the
//! page on another site cannot use the passkey. A site reached by an IP address has no
//! passkeys (WebAuthn needs a domain name; `localhost` is one).
//!
//! Signing in names the account first. A name of no account, or of an account without
//! passkeys, gets a challenge all the same (for a made-up credential), so that the
//! start does not tell who has an account; its finish fails like a wrong passkey.

use std::net::IpAddr;
use std::time::Duration;

use sha2::{Digest, Sha256};
use webauthn_rs::prelude::{
    Passkey, PasskeyAuthentication, PasskeyRegistration as RegistrationState, PublicKeyCredential,
    RegisterPublicKeyCredential, RequestChallengeResponse, Url, Uuid,
};
use webauthn_rs::{Webauthn, WebauthnBuilder};

use super::{bad_credentials, names, random_hex, view, Accounts, NewSession, SignedIn};
use crate::error::ApiError;
use crate::store::StoredPasskey;
use crate::wire::{AccountView, ErrorCode, PasskeyChallenge, PasskeyView, Passkeys};

/// How long a ceremony may take, from its start to its finish.
const CEREMONY: Duration = Duration::from_secs(300);
/// Passkeys one account may have.
pub const MAX_PASSKEYS: usize = 10;
const REGISTER: &str = "register";
const SIGN_IN: &str = "sign_in";

/// The site the request reached: its `Host`, over HTTPS when the server says so.
pub struct Site<'a> {
    pub host: Option<&'a str>,
    pub https: bool,
}

fn unavailable() -> ApiError {
    ApiError::conflict(
        ErrorCode::PasskeysUnavailable,
        "passkeys need the site's domain name: open it by its name, not by an address",
    )
}

fn refused(what: impl std::fmt::Display) -> ApiError {
    ApiError::bad_request(
        ErrorCode::PasskeyRefused,
        format!("the passkey was not accepted: {what}"),
    )
}

/// The site's origin and its RP id (its host without the port; a domain name).
fn origin_of(site: &Site) -> Result<(Url, String), ApiError> {
    let host = site.host.ok_or_else(unavailable)?;
    let scheme = if site.https { "https" } else { "http" };
    let origin = Url::parse(&format!("{scheme}://{host}")).map_err(|_| unavailable())?;
    let rp_id = origin.domain().ok_or_else(unavailable)?.to_string();
    if rp_id.parse::<IpAddr>().is_ok() {
        return Err(unavailable());
    }
    Ok((origin, rp_id))
}

/// The relying party of `site`.
fn relying_party(site: &Site) -> Result<Webauthn, ApiError> {
    let (origin, rp_id) = origin_of(site)?;
    WebauthnBuilder::new(&rp_id, &origin)
        .map_err(|_| unavailable())?
        .rp_name("rumi")
        .timeout(CEREMONY)
        .build()
        .map_err(|_| unavailable())
}

/// The WebAuthn user handle of an account: stable, and no name in it.
fn user_handle(account_id: &str) -> Uuid {
    let digest = Sha256::digest(format!("rumi-user:{account_id}").as_bytes());
    Uuid::from_slice(&digest[..16]).expect("16 bytes")
}

/// A passkey's stored id: its credential id in base64url (encoded here: the id is
/// plain bytes in webauthn-rs 0.6, which serde would write as an array of numbers).
fn credential_id(passkey: &Passkey) -> String {
    base64url(passkey.cred_id())
}

fn passkey_view(stored: &StoredPasskey) -> PasskeyView {
    PasskeyView {
        id: stored.id.clone(),
        name: stored.name.clone(),
        created_ms: stored.created_ms,
        used_ms: stored.used_ms,
    }
}

fn options(value: &impl serde::Serialize) -> serde_json::Value {
    serde_json::to_value(value).expect("WebAuthn options serialise")
}

impl Accounts {
    /// The account's passkeys.
    pub async fn passkeys(&self, signed: &SignedIn) -> Result<Passkeys, ApiError> {
        let stored = self.store.passkeys_of(&signed.account.id).await?;
        Ok(Passkeys {
            passkeys: stored.iter().map(passkey_view).collect(),
        })
    }

    /// Starts adding a passkey to the signed-in account: the session must have proved
    /// the password within the last minutes, so that a stolen session cannot add a
    /// passkey of the thief's that outlives a password change.
    pub async fn start_passkey(
        &self,
        signed: &SignedIn,
        site: &Site<'_>,
    ) -> Result<PasskeyChallenge, ApiError> {
        let rp = relying_party(site)?;
        self.check_recent_reauth(signed)?;
        let existing = self.store.passkeys_of(&signed.account.id).await?;
        if existing.len() >= MAX_PASSKEYS {
            return Err(ApiError::conflict(
                ErrorCode::PasskeyRefused,
                format!("an account has at most {MAX_PASSKEYS} passkeys; remove one first"),
            ));
        }
        let exclude = existing
            .iter()
            .filter_map(|p| serde_json::from_str::<Passkey>(&p.passkey).ok())
            .map(|p| p.cred_id().clone())
            .collect();
        let (challenge, state) = rp
            .start_passkey_registration(
                user_handle(&signed.account.id),
                &signed.account.name,
                &signed.account.name,
                Some(exclude),
            )
            .map_err(refused)?;
        let ceremony = random_hex(16);
        self.store
            .put_ceremony(
                &ceremony,
                REGISTER,
                &signed.account.id,
                &serde_json::to_string(&state).map_err(|e| ApiError::internal(e.to_string()))?,
                self.now_ms() + CEREMONY.as_millis() as i64,
            )
            .await?;
        Ok(PasskeyChallenge {
            ceremony,
            options: options(&challenge),
        })
    }

    /// Finishes adding a passkey: the browser's new credential for the ceremony.
    pub async fn finish_passkey(
        &self,
        signed: &SignedIn,
        site: &Site<'_>,
        ceremony: &str,
        name: Option<&str>,
        credential: serde_json::Value,
    ) -> Result<PasskeyView, ApiError> {
        let rp = relying_party(site)?;
        let credential: RegisterPublicKeyCredential =
            serde_json::from_value(credential).map_err(refused)?;
        let name = match name.map(str::trim) {
            None | Some("") => "passkey".to_string(),
            Some(n) if n.chars().count() <= 40 && !n.chars().any(char::is_control) => n.to_string(),
            Some(_) => {
                return Err(ApiError::bad_request(
                    ErrorCode::BadName,
                    "a passkey's name has 1 to 40 printable characters",
                ))
            }
        };
        let taken = self.store.take_ceremony(ceremony, REGISTER).await?;
        let state = match taken {
            Some(c) if c.account_id == signed.account.id && c.expires_ms >= self.now_ms() => {
                c.state
            }
            _ => return Err(refused("the ceremony is unknown or expired; start again")),
        };
        let state: RegistrationState =
            serde_json::from_str(&state).map_err(|e| ApiError::internal(e.to_string()))?;
        let passkey = rp
            .finish_passkey_registration(&credential, &state)
            .map_err(refused)?;
        let stored = StoredPasskey {
            id: credential_id(&passkey),
            account_id: signed.account.id.clone(),
            name,
            passkey: serde_json::to_string(&passkey)
                .map_err(|e| ApiError::internal(e.to_string()))?,
            created_ms: self.now_ms(),
            used_ms: None,
        };
        if !self.store.add_passkey(&stored).await? {
            return Err(refused("this passkey is registered already"));
        }
        Ok(passkey_view(&stored))
    }

    /// Removes one of the account's passkeys (with the password proved lately, as
    /// adding one).
    pub async fn remove_passkey(&self, signed: &SignedIn, id: &str) -> Result<(), ApiError> {
        self.check_recent_reauth(signed)?;
        if self.store.remove_passkey(&signed.account.id, id).await? {
            Ok(())
        } else {
            Err(ApiError::not_found(
                ErrorCode::NotFound,
                "your account has no passkey of that id",
            ))
        }
    }

    /// Starts signing in to the account of `name` with a passkey (limited per address;
    /// a passkey cannot be guessed, so the name's limit of password guesses neither
    /// counts it nor holds it back: guesses from elsewhere do not lock the owner out).
    pub async fn start_passkey_sign_in(
        &self,
        name: &str,
        site: &Site<'_>,
        from: IpAddr,
    ) -> Result<PasskeyChallenge, ApiError> {
        let rp = relying_party(site)?;
        self.check_address(from).await?;
        if name.chars().any(char::is_control) {
            return Err(bad_credentials());
        }
        let account = self.by_name(name).await?;
        let passkeys: Vec<Passkey> = match &account {
            Some(account) => self
                .store
                .passkeys_of(&account.id)
                .await?
                .iter()
                .filter_map(|p| serde_json::from_str(&p.passkey).ok())
                .collect(),
            None => Vec::new(),
        };
        let (challenge, state) = if passkeys.is_empty() {
            // A made-up credential for a name without passkeys: the same kind of
            // answer, whose finish fails.
            (
                self.decoy_challenge(&origin_of(site)?.1, name)?,
                String::new(),
            )
        } else {
            let (challenge, state) = rp
                .start_passkey_authentication(&passkeys)
                .map_err(refused)?;
            let state =
                serde_json::to_string(&state).map_err(|e| ApiError::internal(e.to_string()))?;
            (challenge, state)
        };
        let ceremony = random_hex(16);
        let owner = match (&account, passkeys.is_empty()) {
            (Some(account), false) => account.id.clone(),
            _ => String::new(),
        };
        self.store
            .put_ceremony(
                &ceremony,
                SIGN_IN,
                &owner,
                &state,
                self.now_ms() + CEREMONY.as_millis() as i64,
            )
            .await?;
        Ok(PasskeyChallenge {
            ceremony,
            options: options(&challenge),
        })
    }

    /// Finishes a passkey sign-in from the browser of `device`: a new session, or the
    /// answer of a wrong password.
    pub async fn finish_passkey_sign_in(
        &self,
        site: &Site<'_>,
        ceremony: &str,
        credential: serde_json::Value,
        device: Option<&str>,
    ) -> Result<(AccountView, NewSession), ApiError> {
        let rp = relying_party(site)?;
        let credential: PublicKeyCredential =
            serde_json::from_value(credential).map_err(|_| bad_credentials())?;
        let Some(taken) = self.store.take_ceremony(ceremony, SIGN_IN).await? else {
            return Err(bad_credentials());
        };
        if taken.account_id.is_empty() || taken.expires_ms < self.now_ms() {
            return Err(bad_credentials());
        }
        let state: PasskeyAuthentication =
            serde_json::from_str(&taken.state).map_err(|_| bad_credentials())?;
        let result = rp
            .finish_passkey_authentication(&credential, &state)
            .map_err(|_| bad_credentials())?;
        let account = self
            .store
            .account_by_id(&taken.account_id)
            .await?
            .ok_or_else(bad_credentials)?;
        // The signature counter moves on: a cloned authenticator shows as going back.
        for stored in self.store.passkeys_of(&account.id).await? {
            let Ok(mut passkey) = serde_json::from_str::<Passkey>(&stored.passkey) else {
                continue;
            };
            if passkey.update_credential(&result).is_some() {
                let json = serde_json::to_string(&passkey)
                    .map_err(|e| ApiError::internal(e.to_string()))?;
                self.store
                    .update_passkey(&stored.id, &json, self.now_ms())
                    .await?;
            }
        }
        let session = self.start_session(&account, device).await?;
        Ok((view(&account), session))
    }

    /// A challenge for a credential nobody holds, the same for the same name on this
    /// server, shaped like a real one (a credential id of 32 bytes, as the
    /// authenticators' own are).
    fn decoy_challenge(
        &self,
        rp_id: &str,
        name: &str,
    ) -> Result<RequestChallengeResponse, ApiError> {
        let digest =
            Sha256::digest(format!("{}:{}", self.decoy_secret, names::name_key(name)).as_bytes());
        let mut challenge = [0u8; 32];
        rand::RngCore::fill_bytes(&mut rand::thread_rng(), &mut challenge);
        let decoy = serde_json::json!({
            "publicKey": {
                "challenge": base64url(&challenge),
                "timeout": CEREMONY.as_millis() as u64,
                "rpId": rp_id,
                "allowCredentials": [{"type": "public-key", "id": base64url(&digest)}],
                "userVerification": "required",
            }
        });
        serde_json::from_value(decoy).map_err(|e| ApiError::internal(format!("decoy: {e}")))
    }
}

fn base64url(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}
