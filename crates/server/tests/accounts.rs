//! Accounts and sessions (issue 47): sign up, sign in and out, the session cookie, the
//! origin check, sign-in limits, password changes, deletion and the data export, on
//! SQLite and PostgreSQL.

mod common;

use reqwest::Method;
use serde_json::json;

use common::browser::Browser;
use common::{start, start_full, temp_postgres, temp_sqlite, TestServer};

const PASSWORD: &str = "stones of the inca 7";

async fn sign_up_sign_in_and_out(server: &TestServer) {
    let mut ana = Browser::new(server);
    let made = ana.sign_up("Ana_7", PASSWORD).await;
    assert_eq!(made.status, 201, "{}", made.body);
    assert_eq!(made.body["name"], "Ana_7");
    let cookie = made.set_cookie.unwrap();
    for attribute in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age="] {
        assert!(cookie.contains(attribute), "{cookie}");
    }
    assert!(!cookie.contains("Secure"), "plain HTTP: {cookie}");
    assert_eq!(ana.me().await.body["name"], "Ana_7");

    // A guest has no account.
    let mut guest = Browser::new(server);
    let me = guest.me().await;
    assert_eq!(
        (me.status, me.body["code"].clone()),
        (401, json!("not_signed_in"))
    );

    // Another device signs in with any case of the name.
    let mut phone = Browser::new(server);
    let signed = phone.sign_in("ana_7", PASSWORD).await;
    assert_eq!(signed.status, 200, "{}", signed.body);
    assert_eq!(phone.me().await.body["name"], "Ana_7");

    // Signing out ends this session only.
    let out = phone.send(Method::DELETE, "/api/session", None).await;
    assert_eq!(out.status, 204);
    assert!(out.set_cookie.unwrap().contains("Max-Age=0"));
    assert_eq!(phone.me().await.status, 401);
    assert_eq!(ana.me().await.status, 200);

    // Signing out everywhere ends every session.
    let mut laptop = Browser::new(server);
    assert_eq!(laptop.sign_in("ANA_7", PASSWORD).await.status, 200);
    let kept = laptop.cookie.clone();
    assert_eq!(
        ana.send(Method::DELETE, "/api/sessions", None).await.status,
        204
    );
    laptop.cookie = kept;
    assert_eq!(laptop.me().await.status, 401);
    assert_eq!(ana.me().await.status, 401);
}

#[tokio::test]
async fn a_player_signs_up_in_and_out_on_sqlite() {
    let server = start(&temp_sqlite("accounts_flow"), 0).await;
    sign_up_sign_in_and_out(&server).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn a_player_signs_up_in_and_out_on_postgres() {
    let server = start(&temp_postgres("accounts_flow").await, 0).await;
    sign_up_sign_in_and_out(&server).await;
}

#[tokio::test]
async fn names_and_passwords_are_refused_with_their_reason() {
    let server = start(&temp_sqlite("accounts_names"), 0).await;
    let mut b = Browser::new(&server);
    assert_eq!(b.sign_up("Ana", PASSWORD).await.status, 201);
    let mut other = Browser::new(&server);
    for (name, password, status, code) in [
        ("Al", PASSWORD, 400, "bad_account_name"),
        ("Ana Bo", PASSWORD, 400, "bad_account_name"),
        ("a".repeat(21).as_str(), PASSWORD, 400, "bad_account_name"),
        ("admin", PASSWORD, 400, "reserved_name"),
        ("Inti", PASSWORD, 400, "reserved_name"),
        ("Bo_1", "short", 400, "weak_password"),
        ("Bo_1", "1234567890", 400, "weak_password"),
        ("Bo_1", "qwertyuiop", 400, "weak_password"),
        ("ANA", PASSWORD, 409, "account_name_taken"),
        // Cyrillic А: another name that looks the same.
        ("\u{0410}na", PASSWORD, 409, "account_name_taken"),
    ] {
        let answer = other.sign_up(name, password).await;
        assert_eq!(answer.status, status, "{name} {password}: {}", answer.body);
        assert_eq!(answer.body["code"], code, "{name} {password}");
        assert!(answer.set_cookie.is_none());
    }
    assert_eq!(other.me().await.status, 401, "no refusal signed anyone in");
    // A malformed body says what is wrong.
    let bad = other
        .send(Method::POST, "/api/accounts", Some(json!({"name": "Bo_1"})))
        .await;
    assert_eq!(bad.status, 400);
    assert!(bad.body["error"].as_str().unwrap().contains("password"));
}

#[tokio::test]
async fn an_unknown_name_and_a_wrong_password_look_the_same_and_tries_are_limited() {
    let server = start(&temp_sqlite("accounts_limits"), 0).await;
    let mut ana = Browser::new(&server);
    assert_eq!(ana.sign_up("Ana", PASSWORD).await.status, 201);
    let mut thief = Browser::new(&server);
    let wrong = thief.sign_in("Ana", "not the password").await;
    let unknown = thief.sign_in("Nobody", "not the password").await;
    assert_eq!(wrong.status, 401);
    assert_eq!(
        (wrong.status, &wrong.body),
        (unknown.status, &unknown.body),
        "the same answer"
    );
    assert_eq!(wrong.body["code"], "bad_credentials");
    // Five tries per name, then the name is locked for a while, even with the right
    // password; the answer says for how long.
    for _ in 0..4 {
        assert_eq!(thief.sign_in("Ana", "still not it").await.status, 401);
    }
    let locked = thief.sign_in("ANA", PASSWORD).await;
    assert_eq!(locked.status, 429, "{}", locked.body);
    assert_eq!(locked.body["code"], "sign_in_locked");
    let seconds: u64 = locked.retry_after.unwrap().parse().unwrap();
    assert!(seconds >= 1);
    assert!(locked.body["error"].as_str().unwrap().contains(" s"));
    assert!(thief.cookie.is_none());
    // The existing session is untouched.
    assert_eq!(ana.me().await.status, 200);
}

#[tokio::test]
async fn a_password_change_ends_the_other_sessions() {
    let server = start(&temp_sqlite("accounts_password"), 0).await;
    let mut ana = Browser::new(&server);
    assert_eq!(ana.sign_up("Ana", PASSWORD).await.status, 201);
    let mut phone = Browser::new(&server);
    assert_eq!(phone.sign_in("Ana", PASSWORD).await.status, 200);
    let change = |current: &str, new: &str| json!({"current": current, "new": new});
    let wrong = ana
        .send(
            Method::POST,
            "/api/me/password",
            Some(change("nope nope nope", "a new long secret")),
        )
        .await;
    assert_eq!(
        (wrong.status, wrong.body["code"].clone()),
        (403, json!("wrong_password"))
    );
    let weak = ana
        .send(
            Method::POST,
            "/api/me/password",
            Some(change(PASSWORD, "password1")),
        )
        .await;
    assert_eq!(
        (weak.status, weak.body["code"].clone()),
        (400, json!("weak_password"))
    );
    let done = ana
        .send(
            Method::POST,
            "/api/me/password",
            Some(change(PASSWORD, "a new long secret")),
        )
        .await;
    assert_eq!(done.status, 204, "{}", done.body);
    assert_eq!(ana.me().await.status, 200, "this session stays");
    assert_eq!(phone.me().await.status, 401, "the others end");
    let mut again = Browser::new(&server);
    assert_eq!(again.sign_in("Ana", PASSWORD).await.status, 401);
    assert_eq!(again.sign_in("Ana", "a new long secret").await.status, 200);
}

#[tokio::test]
async fn a_write_from_another_site_is_refused_and_changes_nothing() {
    let server = start(&temp_sqlite("accounts_origin"), 0).await;
    let mut ana = Browser::new(&server);
    assert_eq!(ana.sign_up("Ana", PASSWORD).await.status, 201);
    let body = json!({"current": PASSWORD, "new": "a new long secret"});
    for origin in [Some("https://evil.example".to_string()), None] {
        ana.origin = origin.clone();
        let refused = ana
            .send(Method::POST, "/api/me/password", Some(body.clone()))
            .await;
        assert_eq!(refused.status, 403, "{origin:?}");
        assert_eq!(refused.body["code"], "foreign_origin");
        let refused = ana.send(Method::DELETE, "/api/sessions", None).await;
        assert_eq!(refused.status, 403, "{origin:?}");
    }
    // Reading needs no origin; the session and the password are as they were.
    assert_eq!(ana.me().await.status, 200);
    let mut again = Browser::new(&server);
    assert_eq!(again.sign_in("Ana", PASSWORD).await.status, 200);
    // Signing in from another site's page is refused too (login CSRF).
    let mut framed = Browser::new(&server);
    framed.origin = Some("https://evil.example".into());
    assert_eq!(framed.sign_in("Ana", PASSWORD).await.status, 403);
}

#[tokio::test]
async fn a_player_downloads_their_data_and_deletes_the_account() {
    let server = start(&temp_sqlite("accounts_delete"), 0).await;
    let mut ana = Browser::new(&server);
    assert_eq!(ana.sign_up("Ana", PASSWORD).await.status, 201);
    let data = ana.send(Method::GET, "/api/me/data", None).await;
    assert_eq!(data.status, 200);
    assert!(data
        .disposition
        .unwrap()
        .starts_with("attachment; filename=\"rumi-"));
    assert_eq!(data.body["account"]["name"], "Ana");
    assert_eq!(data.body["sessions"].as_array().unwrap().len(), 1);
    assert!(
        data.body.to_string().find("argon2").is_none(),
        "no hash in the export"
    );

    let wrong = ana
        .send(
            Method::DELETE,
            "/api/me",
            Some(json!({"password": "nope nope nope"})),
        )
        .await;
    assert_eq!(wrong.status, 403);
    assert_eq!(ana.me().await.status, 200);
    let gone = ana
        .send(
            Method::DELETE,
            "/api/me",
            Some(json!({"password": PASSWORD})),
        )
        .await;
    assert_eq!(gone.status, 204);
    assert_eq!(ana.me().await.status, 401);
    let mut again = Browser::new(&server);
    assert_eq!(again.sign_in("Ana", PASSWORD).await.status, 401);
    // The name is free again.
    assert_eq!(
        again.sign_up("ana", "another long secret").await.status,
        201
    );
}

/// The attack of issue 56: one signed-in client kept 40 checks of a wrong current
/// password in flight and so held the shared hashing queue: other people's sign-ins
/// were refused for as long as it went on. A password check is a sign-in try (the
/// name's and the address's limits), and one network holds a small share of the queue.
#[tokio::test]
async fn password_checks_are_limited_and_one_client_cannot_hold_the_queue() {
    let limits = server::Limits {
        trusted_proxies: vec![server::transport::parse_proxy("127.0.0.1").unwrap()],
        ..server::Limits::default()
    };
    let server = start_full(
        &temp_sqlite("accounts_flood"),
        common::defaults(),
        None,
        limits,
    )
    .await;
    let mut eve = Browser::at(&server, "203.0.113.66", None);
    assert_eq!(eve.sign_up("Eve_sec", PASSWORD).await.status, 201);
    let mut ana = Browser::at(&server, "198.51.100.5", None);
    assert_eq!(ana.sign_up("Ana", PASSWORD).await.status, 201);
    let mut flood = Vec::new();
    for n in 0..40 {
        let mut browser = Browser::at(&server, "203.0.113.66", eve.cookie.clone());
        let path = if n % 2 == 0 {
            "/api/me/password"
        } else {
            "/api/me"
        };
        flood.push(async move {
            let answer = if n % 2 == 0 {
                let body =
                    json!({"current": format!("guess number {n}"), "new": "a new password 42"});
                browser.send(Method::POST, path, Some(body)).await
            } else {
                let body = json!({"password": format!("guess number {n}")});
                browser.send(Method::DELETE, path, Some(body)).await
            };
            (
                answer.status,
                answer.body["code"].as_str().unwrap_or("").to_string(),
            )
        });
    }
    let mut bo = Browser::at(&server, "198.51.100.5", None);
    let (answers, signed_in) = tokio::join!(
        futures_util::future::join_all(flood),
        bo.sign_in("Ana", PASSWORD)
    );
    assert_eq!(signed_in.status, 200, "{}", signed_in.body);
    let checked = answers.iter().filter(|(s, _)| *s == 403).count();
    assert!(
        answers
            .iter()
            .all(|(s, code)| (*s == 403 && code == "wrong_password")
                || (*s == 429 && ["sign_in_locked", "too_many_sign_ins"].contains(&code.as_str()))),
        "{answers:?}"
    );
    assert!(
        checked <= 5,
        "{checked} guesses checked: the name allows five"
    );
    // The account is untouched.
    assert_eq!(eve.me().await.status, 200);
}
