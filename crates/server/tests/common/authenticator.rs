//! A software passkey for tests at the API: it answers the server's WebAuthn options as
//! a platform authenticator would (ES256, "none" attestation, user verified), so that
//! a whole ceremony runs without a browser.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use crypto_glue::ecdsa_p256::{self, EcdsaP256PrivateKey, EcdsaP256Signature, EcdsaP256SigningKey};
use crypto_glue::traits::{Signer, ToSec1Point};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

/// One passkey: its key pair, its credential id (32 random bytes) and its counter.
pub struct SoftPasskey {
    key: EcdsaP256PrivateKey,
    pub id: Vec<u8>,
    counter: u32,
}

fn b64(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

/// A CBOR head: major type and length (or value).
fn cbor_head(out: &mut Vec<u8>, major: u8, n: u64) {
    let m = major << 5;
    match n {
        0..=23 => out.push(m | n as u8),
        24..=0xff => out.extend([m | 24, n as u8]),
        0x100..=0xffff => {
            out.push(m | 25);
            out.extend((n as u16).to_be_bytes());
        }
        _ => {
            out.push(m | 26);
            out.extend((n as u32).to_be_bytes());
        }
    }
}

fn cbor_int(out: &mut Vec<u8>, v: i64) {
    if v >= 0 {
        cbor_head(out, 0, v as u64);
    } else {
        cbor_head(out, 1, (-1 - v) as u64);
    }
}

fn cbor_bytes(out: &mut Vec<u8>, b: &[u8]) {
    cbor_head(out, 2, b.len() as u64);
    out.extend(b);
}

fn cbor_text(out: &mut Vec<u8>, t: &str) {
    cbor_head(out, 3, t.len() as u64);
    out.extend(t.as_bytes());
}

impl SoftPasskey {
    pub fn new() -> SoftPasskey {
        let mut id = vec![0u8; 32];
        rand::RngCore::fill_bytes(&mut rand::thread_rng(), &mut id);
        SoftPasskey {
            key: ecdsa_p256::new_key(),
            id,
            counter: 0,
        }
    }

    /// The credential id as the server names it (base64url).
    pub fn id_b64(&self) -> String {
        b64(&self.id)
    }

    fn client_data(kind: &str, options: &Value, origin: &str) -> Vec<u8> {
        json!({
            "type": kind,
            "challenge": options["publicKey"]["challenge"],
            "origin": origin,
            "crossOrigin": false,
        })
        .to_string()
        .into_bytes()
    }

    /// Authenticator data: the RP id's hash, flags (user present and verified, and
    /// `extra`), the counter.
    fn auth_data(&mut self, rp_id: &str, extra: u8) -> Vec<u8> {
        self.counter += 1;
        let mut data = Sha256::digest(rp_id.as_bytes()).to_vec();
        data.push(0x01 | 0x04 | extra);
        data.extend(self.counter.to_be_bytes());
        data
    }

    /// The answer to `navigator.credentials.create` with the options of a
    /// registration start (`credential.toJSON()`), for the page at `origin`.
    pub fn register(&mut self, options: &Value, origin: &str) -> Value {
        let rp_id = options["publicKey"]["rp"]["id"]
            .as_str()
            .unwrap()
            .to_string();
        let client_data = Self::client_data("webauthn.create", options, origin);
        let mut auth = self.auth_data(&rp_id, 0x40);
        auth.extend([0u8; 16]); // AAGUID
        auth.extend((self.id.len() as u16).to_be_bytes());
        auth.extend(&self.id);
        let point = self.key.public_key().to_sec1_point(false);
        let mut cose = Vec::new();
        cbor_head(&mut cose, 5, 5);
        for (k, v) in [(1, 2), (3, -7), (-1, 1)] {
            cbor_int(&mut cose, k);
            cbor_int(&mut cose, v);
        }
        cbor_int(&mut cose, -2);
        cbor_bytes(&mut cose, point.x().unwrap());
        cbor_int(&mut cose, -3);
        cbor_bytes(&mut cose, point.y().unwrap());
        auth.extend(cose);
        let mut attestation = Vec::new();
        cbor_head(&mut attestation, 5, 3);
        cbor_text(&mut attestation, "fmt");
        cbor_text(&mut attestation, "none");
        cbor_text(&mut attestation, "attStmt");
        cbor_head(&mut attestation, 5, 0);
        cbor_text(&mut attestation, "authData");
        cbor_bytes(&mut attestation, &auth);
        json!({
            "id": self.id_b64(),
            "rawId": self.id_b64(),
            "type": "public-key",
            "response": {
                "attestationObject": b64(&attestation),
                "clientDataJSON": b64(&client_data),
            },
            "extensions": {},
        })
    }

    /// The answer to `navigator.credentials.get` with the options of a sign-in
    /// start, for the page at `origin`.
    pub fn sign(&mut self, options: &Value, origin: &str) -> Value {
        let rp_id = options["publicKey"]["rpId"].as_str().unwrap().to_string();
        let client_data = Self::client_data("webauthn.get", options, origin);
        let auth = self.auth_data(&rp_id, 0);
        let mut signed = auth.clone();
        signed.extend(Sha256::digest(&client_data));
        let signer = EcdsaP256SigningKey::from(&self.key);
        let signature: EcdsaP256Signature = signer.try_sign(&signed).unwrap();
        json!({
            "id": self.id_b64(),
            "rawId": self.id_b64(),
            "type": "public-key",
            "response": {
                "authenticatorData": b64(&auth),
                "clientDataJSON": b64(&client_data),
                "signature": b64(signature.to_der().as_bytes()),
            },
            "extensions": {},
        })
    }
}
