//! Passkeys (issue 47) at the API: who may start a ceremony, on which site, and what
//! a forged or replayed finish gets. A whole ceremony with an authenticator is the
//! browser test `web/e2e/passkeys.spec.ts` (Chromium's virtual authenticator).

mod common;

use reqwest::Method;
use serde_json::{json, Value};

use common::browser::Browser;
use common::{start, temp_postgres, temp_sqlite, TestServer};

const PASSWORD: &str = "stones of the inca 7";

/// A browser on the site by its name (`localhost`), as WebAuthn requires.
fn by_name(server: &TestServer) -> Browser<'_> {
    let mut browser = Browser::new(server);
    let port = server.base.rsplit(':').next().unwrap().to_string();
    browser.host = Some(format!("localhost:{port}"));
    browser.origin = Some(format!("http://localhost:{port}"));
    browser
}

fn code(answer: &common::browser::Answer) -> (u16, String) {
    (
        answer.status,
        answer.body["code"].as_str().unwrap_or("").to_string(),
    )
}

fn allowed(challenge: &Value) -> Vec<Value> {
    challenge["options"]["publicKey"]["allowCredentials"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

#[tokio::test]
async fn a_passkey_ceremony_starts_only_for_its_account_on_the_sites_name() {
    let server = start(&temp_sqlite("passkeys_start"), 0).await;
    let mut ana = by_name(&server);
    assert_eq!(ana.sign_up("Ana", PASSWORD).await.status, 201);

    let started = ana.post("/api/me/passkeys/start", json!({})).await;
    assert_eq!(started.status, 200, "{}", started.body);
    let options = &started.body["options"]["publicKey"];
    assert_eq!(options["rp"]["id"], "localhost");
    assert_eq!(options["user"]["name"], "Ana");
    assert!(options["challenge"].as_str().unwrap().len() >= 43);

    // A guest, another site's page, and the site by its address get no ceremony.
    let mut guest = by_name(&server);
    assert_eq!(
        code(&guest.post("/api/me/passkeys/start", json!({})).await),
        (401, "not_signed_in".into())
    );
    ana.origin = Some("https://evil.example".into());
    assert_eq!(
        code(&ana.post("/api/me/passkeys/start", json!({})).await),
        (403, "foreign_origin".into())
    );
    let mut by_address = Browser::new(&server);
    by_address.cookie = ana.cookie.clone();
    assert_eq!(
        code(&by_address.post("/api/me/passkeys/start", json!({})).await),
        (409, "passkeys_unavailable".into())
    );
}

#[tokio::test]
async fn a_forged_or_replayed_finish_adds_nothing_and_signs_nobody_in_on_sqlite() {
    let server = start(&temp_sqlite("passkeys_forged"), 0).await;
    forged_and_replayed(&server).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn a_forged_or_replayed_finish_adds_nothing_and_signs_nobody_in_on_postgres() {
    let server = start(&temp_postgres("passkeys_forged").await, 0).await;
    forged_and_replayed(&server).await;
}

/// Ceremonies are taken once, from the database every node shares.
async fn forged_and_replayed(server: &TestServer) {
    let mut ana = by_name(server);
    assert_eq!(ana.sign_up("Ana", PASSWORD).await.status, 201);
    let started = ana.post("/api/me/passkeys/start", json!({})).await;
    let ceremony = started.body["ceremony"].as_str().unwrap().to_string();
    let forged = json!({"id": "AAAA", "rawId": "AAAA", "type": "public-key",
        "response": {"attestationObject": "AAAA", "clientDataJSON": "AAAA"}});
    let refused = ana
        .post(
            "/api/me/passkeys/finish",
            json!({"ceremony": ceremony, "credential": forged}),
        )
        .await;
    assert_eq!(code(&refused), (400, "passkey_refused".into()));
    // The ceremony is spent: the same finish again is refused as unknown.
    let again = ana
        .post(
            "/api/me/passkeys/finish",
            json!({"ceremony": ceremony, "credential": forged}),
        )
        .await;
    assert_eq!(code(&again), (400, "passkey_refused".into()));
    assert!(again.body["error"].as_str().unwrap().contains("ceremony"));
    assert_eq!(
        ana.get("/api/me/passkeys").await.body,
        json!({"passkeys": []})
    );
    assert_eq!(
        ana.send(Method::DELETE, "/api/me/passkeys/AAAA", None)
            .await
            .status,
        404
    );

    // A sign-in finish with a made-up credential is a wrong password.
    let mut thief = by_name(server);
    let start = thief
        .post("/api/session/passkey/start", json!({"name": "ana"}))
        .await;
    assert_eq!(start.status, 200);
    let assertion = json!({"id": "AAAA", "rawId": "AAAA", "type": "public-key",
        "response": {"authenticatorData": "AAAA", "clientDataJSON": "AAAA", "signature": "AAAA"}});
    let finish = thief
        .post(
            "/api/session/passkey/finish",
            json!({"ceremony": start.body["ceremony"], "credential": assertion}),
        )
        .await;
    assert_eq!(code(&finish), (401, "bad_credentials".into()));
    assert!(finish.set_cookie.is_none());
    assert_eq!(thief.me().await.status, 401);
}

#[tokio::test]
async fn the_start_of_a_passkey_sign_in_does_not_tell_who_has_an_account() {
    let server = start(&temp_sqlite("passkeys_enumerate"), 0).await;
    let mut ana = by_name(&server);
    assert_eq!(ana.sign_up("Ana", PASSWORD).await.status, 201);
    let mut b = by_name(&server);
    let mut challenges = Vec::new();
    for name in ["ana", "nobody", "nobody"] {
        let answer = b
            .post("/api/session/passkey/start", json!({ "name": name }))
            .await;
        assert_eq!(answer.status, 200, "{name}: {}", answer.body);
        challenges.push(answer.body);
    }
    // The same shape for an account without passkeys and for no account: one
    // credential allowed, the same for the same name.
    for c in &challenges {
        assert_eq!(allowed(c).len(), 1, "{c}");
        assert_eq!(c["options"]["publicKey"]["rpId"], "localhost");
    }
    assert_eq!(allowed(&challenges[1]), allowed(&challenges[2]));
    assert_ne!(allowed(&challenges[0]), allowed(&challenges[1]));
    // From another site's page: refused.
    b.origin = Some("https://evil.example".into());
    let framed = b
        .post("/api/session/passkey/start", json!({"name": "ana"}))
        .await;
    assert_eq!(code(&framed), (403, "foreign_origin".into()));
}
