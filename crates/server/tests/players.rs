//! Players who come back (issue 47): seats that belong to accounts, rated tables, the
//! results and ratings of finished games, profiles, leaderboards and "my games", on
//! SQLite and PostgreSQL.

mod common;

use std::time::Duration;

use reqwest::Method;
use serde_json::{json, Value};
use server::store::{FinishedGame, SeatResult};
use server::HubOptions;

use common::browser::{signed_up, Browser, PASSWORD};
use common::{start_with, temp_postgres, temp_sqlite, TestServer};

/// The test defaults (no per-address caps), bots at once, and a player may hand an
/// away player's seat to a bot at once.
fn options() -> HubOptions {
    HubOptions {
        bot_delay: Duration::ZERO,
        handover_after: Duration::ZERO,
        max_open_tables_per_address: 0,
        tables_per_minute_per_address: 0,
        max_open_seats_per_address: 0,
        max_open_seats_per_table_per_address: 0,
        ..common::defaults()
    }
}

fn rumis(seats: Value) -> Value {
    json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2}, "seats": seats})
}

async fn signed_in<'a>(server: &'a TestServer, name: &str) -> Browser<'a> {
    let mut browser = Browser::new(server);
    let signed = browser.sign_in(name, PASSWORD).await;
    assert_eq!(signed.status, 200, "{}", signed.body);
    browser
}

fn code(answer: &common::browser::Answer) -> (u16, String) {
    (
        answer.status,
        answer.body["code"].as_str().unwrap_or("").to_string(),
    )
}

/// A rated Rumis game for two between Ana and Bo, from creation to both profiles.
async fn rated_game_moves_both_ratings(server: &TestServer) {
    let mut ana = signed_up(server, "Ana").await;
    let mut bo = signed_up(server, "Bo_2").await;

    // What a rated table may not be.
    let mut guest = Browser::new(server);
    for (as_guest, seats, extra, expected) in [
        (
            true,
            json!([{"kind": "human"}, {"kind": "account", "name": "bo_2"}]),
            json!({}),
            (400, "rated_rules"),
        ),
        (
            false,
            json!([{"kind": "human"}, {"kind": "bot", "bot": "random"}]),
            json!({}),
            (400, "rated_rules"),
        ),
        (
            false,
            json!([{"kind": "human"}, {"kind": "account", "name": "bo_2"}]),
            json!({"hints": true}),
            (400, "rated_rules"),
        ),
        (
            false,
            json!([{"kind": "human"}, {"kind": "account", "name": "nobody"}]),
            json!({}),
            (400, "unknown_player"),
        ),
        (
            false,
            json!([{"kind": "human"}, {"kind": "account", "name": "ana"}]),
            json!({}),
            (400, "bad_seats"),
        ),
    ] {
        let mut body = rumis(seats);
        body["rated"] = json!(true);
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        let who = if as_guest { &mut guest } else { &mut ana };
        let refused = who.post("/api/tables", body).await;
        assert_eq!(
            code(&refused),
            (expected.0, expected.1.into()),
            "{}",
            refused.body
        );
    }

    let mut body = rumis(json!([{"kind": "human"}, {"kind": "account", "name": "BO_2"}]));
    body["rated"] = json!(true);
    let created = ana.post("/api/tables", body).await;
    assert_eq!(created.status, 200, "{}", created.body);
    let id = created.body["id"].as_str().unwrap().to_string();
    let path = format!("/api/tables/{id}");
    assert_eq!(created.body["you"]["name"], "Ana", "the account's name");
    assert_eq!(created.body["seats"][1]["kind"], "account");
    assert_eq!(created.body["seats"][1]["name"], "Bo_2");
    assert!(
        created.body["seats"][1]["invite"].is_null(),
        "no link: Bo signs in"
    );

    // Before Bo takes the seat: Bo is a spectator and the table waits for him.
    let view = bo.get(&path).await.body;
    assert_eq!(
        (view["you"].clone(), view["status"].clone()),
        (Value::Null, json!("waiting"))
    );
    assert_eq!(view["rated"], true);
    assert_eq!(view["hints"], false);
    // Nobody else can take it.
    let claim = format!("{path}/claim");
    let mut eve = signed_up(server, "Eve").await;
    assert_eq!(
        code(&eve.post(&claim, json!({})).await),
        (403, "token_needed".into())
    );
    assert_eq!(
        code(&Browser::new(server).post(&claim, json!({})).await),
        (403, "token_needed".into())
    );
    // Not from another site's page either.
    bo.origin = Some("https://evil.example".into());
    assert_eq!(
        code(&bo.post(&claim, json!({})).await),
        (403, "foreign_origin".into())
    );
    bo.origin = Some(server.base.clone());
    let grant = bo.post(&claim, json!({})).await;
    assert_eq!(grant.status, 200, "{}", grant.body);
    assert_eq!(grant.body["seat"], 1);

    // On another of Bo's devices the seat opens by the session, with its token.
    let mut phone = signed_in(server, "bo_2").await;
    let view = phone.get(&path).await.body;
    assert_eq!(view["you"], 1, "{view}");
    assert_eq!(view["seat_token"], grant.body["token"]);
    assert_eq!(view["status"], "playing");
    assert_eq!(view["seats"][0]["account"], "Ana");
    assert_eq!(view["seats"][1]["account"], "Bo_2");
    // Asking again answers the same seat and token.
    let again = phone.post(&claim, json!({})).await;
    assert_eq!(again.body["token"], grant.body["token"]);
    // Ana's seat opens without a token for Ana only.
    assert!(ana.get(&path).await.body["seat_token"].is_string());
    assert!(eve.get(&path).await.body["seat_token"].is_null());

    // At a rated table nobody hands their own seat to a bot; the others may hand an
    // away player's seat over as anywhere (here at once), and the bots finish it.
    let own = phone
        .post(&format!("{path}/seats/1/bot"), json!({"bot": "random"}))
        .await;
    assert_eq!(code(&own), (409, "rated_table".into()));
    let handed = phone
        .post(&format!("{path}/seats/0/bot"), json!({"bot": "random"}))
        .await;
    assert_eq!(handed.status, 200, "{}", handed.body);
    let handed = ana
        .post(&format!("{path}/seats/1/bot"), json!({"bot": "random"}))
        .await;
    assert_eq!(handed.status, 200, "{}", handed.body);
    let end = server.wait_for(&id, None, |v| v["over"] == true).await;
    server.wait_recorded(&id).await;
    let winners: Vec<u64> = end["result"]["winners"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_u64().unwrap())
        .collect();

    // Both profiles show the game and the moved rating.
    for (name, seat) in [("ana", 0u64), ("BO_2", 1)] {
        let profile = Browser::new(server)
            .get(&format!("/api/users/{name}"))
            .await;
        assert_eq!(profile.status, 200, "{}", profile.body);
        let p = &profile.body;
        let rating = &p["ratings"]["rumis_two"];
        assert_eq!(rating["games"], 1, "{p}");
        assert_eq!(rating["provisional"], true);
        let game = &p["games"][0];
        assert_eq!(game["id"], id.as_str());
        assert_eq!(game["rated"], true);
        assert_eq!(game["seat"], seat);
        assert_eq!(game["names"], json!(["Ana", "Bo_2"]));
        let change = game["rating_change"].as_f64().unwrap();
        let expected = match (winners.contains(&seat), winners.len()) {
            (true, 1) => "won",
            (true, _) => "shared",
            (false, _) => "lost",
        };
        assert_eq!(game["result"], expected);
        match expected {
            "won" => assert!(change > 0.0, "{p}"),
            "lost" => assert!(change < 0.0, "{p}"),
            _ => assert_eq!(change, 0.0, "{p}"),
        }
        assert_eq!(
            rating["rating"].as_f64().unwrap(),
            1500.0 + change,
            "from 1500"
        );
        assert_eq!(p["history"].as_array().unwrap().len(), 1);
        assert_eq!(p["totals"][0]["played"], 1);
    }
    // Provisional ratings are not on the leaderboard yet.
    let board = Browser::new(server).get("/api/leaderboard/rumis_two").await;
    assert_eq!(board.status, 200);
    assert_eq!(board.body["entries"], json!([]));
    let mine = bo.get("/api/me/games").await;
    assert_eq!(mine.body["games"][0]["id"], id.as_str());
    assert_eq!(mine.body["games"][0]["finished"], true);
    // "My games" says against whom, and how it went.
    let game = &mine.body["games"][0];
    assert_eq!(game["status"], "over", "{game}");
    assert_eq!(game["opponents"], json!(["Ana"]), "{game}");
    assert_eq!(game["players"], 2, "{game}");
    let bo_won = winners.contains(&1);
    let place = game["place"].as_u64().unwrap();
    assert_eq!(place == 1, bo_won, "{game} {winners:?}");
    let data = bo.get("/api/me/data").await;
    assert_eq!(data.body["profile"]["games"][0]["id"], id.as_str());

    // A rematch is a challenge for the other account, rated like the game before.
    let rematch = ana.post(&format!("{path}/rematch"), json!({})).await;
    assert_eq!(rematch.status, 200, "{}", rematch.body);
    let challenges = bo.get("/api/me/challenges").await.body;
    assert_eq!(
        challenges["challenges"][0]["id"], rematch.body["id"],
        "{challenges}"
    );
    assert_eq!(challenges["challenges"][0]["from"], json!(["Ana"]));
    assert_eq!(challenges["challenges"][0]["rated"], true);
}

#[tokio::test]
async fn a_rated_game_between_accounts_moves_both_ratings_on_sqlite() {
    let server = start_with(&temp_sqlite("players_rated"), options()).await;
    rated_game_moves_both_ratings(&server).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn a_rated_game_between_accounts_moves_both_ratings_on_postgres() {
    let server = start_with(&temp_postgres("players_rated").await, options()).await;
    rated_game_moves_both_ratings(&server).await;
}

#[tokio::test]
async fn a_guest_who_signs_up_keeps_this_browsers_seats() {
    let server = start_with(&temp_sqlite("players_adopt"), options()).await;
    let created = server
        .create_raw(rumis(json!([
            {"kind": "human", "name": "Guest"}, {"kind": "bot", "bot": "random"}
        ])))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["you"]["token"].as_str().unwrap().to_string();
    let mut ana = signed_up(&server, "Ana").await;
    let seats = json!({"seats": [
        {"table": id, "token": token},
        {"table": id, "token": "0".repeat(32)},
        {"table": "tnosuchtable", "token": token},
    ]});
    let adopted = ana.post("/api/me/seats", seats.clone()).await;
    assert_eq!(adopted.status, 200, "{}", adopted.body);
    assert_eq!(adopted.body["tables"], json!([id]));
    // Once the account's, the seat is nobody else's to take, and not taken twice.
    assert_eq!(
        ana.post("/api/me/seats", seats.clone()).await.body["tables"],
        json!([])
    );
    let mut bo = signed_up(&server, "Bo_2").await;
    assert_eq!(
        bo.post("/api/me/seats", seats).await.body["tables"],
        json!([])
    );
    // Another device of Ana's opens it without the token.
    let mut laptop = signed_in(&server, "Ana").await;
    let view = laptop.get(&format!("/api/tables/{id}")).await.body;
    assert_eq!(view["you"], 0, "{view}");
    assert_eq!(view["seat_token"], token.as_str());
    assert_eq!(view["seats"][0]["account"], "Ana");
    // Bo's session opens nothing there.
    assert!(bo.get(&format!("/api/tables/{id}")).await.body["you"].is_null());
    // Too many seats at once, and a malformed list, are refused.
    let many: Vec<Value> = (0..101)
        .map(|_| json!({"table": id, "token": token}))
        .collect();
    let refused = ana.post("/api/me/seats", json!({"seats": many})).await;
    assert_eq!(refused.status, 400);
    let malformed = ana.post("/api/me/seats", json!({"tables": []})).await;
    assert_eq!(code(&malformed), (400, "malformed_request".into()));
    // A guest has no seats to bring.
    let guest = Browser::new(&server)
        .post("/api/me/seats", json!({"seats": []}))
        .await;
    assert_eq!(code(&guest), (401, "not_signed_in".into()));
}

#[tokio::test]
async fn a_signed_in_player_plays_under_the_accounts_name() {
    let server = start_with(&temp_sqlite("players_join"), options()).await;
    let created = server
        .create_raw(rumis(json!([
            {"kind": "human", "name": "Host"}, {"kind": "open"}
        ])))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let mut ana = signed_up(&server, "Ana").await;
    let joined = ana
        .post(&format!("/api/tables/{id}/join"), json!({"name": "Zorro"}))
        .await;
    assert_eq!(joined.status, 200, "{}", joined.body);
    assert_eq!(joined.body["name"], "Ana");
    // The name is the account's: it cannot be changed at the table.
    ana.token = joined.body["token"].as_str().map(String::from);
    let rename = ana
        .post(
            &format!("/api/tables/{id}/seats/1/name"),
            json!({"name": "Zorro"}),
        )
        .await;
    assert_eq!(code(&rename), (403, "account_seat".into()));
    // A write the session alone authenticates must come from this site.
    ana.token = None;
    ana.origin = Some("https://evil.example".into());
    let act = ana
        .send(
            Method::POST,
            &format!("/api/tables/{id}/actions"),
            Some(json!({"version": 0, "action": {"rumis": "pass"}})),
        )
        .await;
    assert_eq!(code(&act), (403, "foreign_origin".into()));
    // Profiles: an unknown player, and an unknown leaderboard.
    let mut b = Browser::new(&server);
    assert_eq!(
        code(&b.get("/api/users/nobody").await),
        (404, "unknown_player".into())
    );
    assert_eq!(b.get("/api/leaderboard/chess").await.status, 404);
    let profile = b.get("/api/users/ANA").await;
    assert_eq!(profile.body["name"], "Ana");
    assert_eq!(profile.body["ratings"], json!({}));
    assert_eq!(profile.body["games"], json!([]));
}

/// A game is recorded once, however often its end is recorded, and two games that
/// end at once both move a rating.
#[tokio::test]
async fn results_are_recorded_once_and_concurrent_games_both_count() {
    let db = temp_sqlite("players_once");
    let server = start_with(&db, options()).await;
    let mut ana = signed_up(&server, "Ana").await;
    let _bo = signed_up(&server, "Bo_2").await;
    let store = server::Store::connect(&db).await.unwrap();
    let id_of = |name: &str| {
        let store = store.clone();
        let name = name.to_string();
        async move {
            store
                .account_by_key(&name.to_lowercase())
                .await
                .unwrap()
                .unwrap()
                .id
        }
    };
    let (a, b) = (id_of("ana").await, id_of("bo_2").await);
    let game = |table: &str| FinishedGame {
        table_id: table.to_string(),
        pool: "rummikub".into(),
        rated: true,
        players: 2,
        winners: 1,
        finished_ms: 1,
    };
    let seats = vec![
        SeatResult {
            seat: 0,
            account: a.clone(),
            place: 1,
            score: 10,
        },
        SeatResult {
            seat: 1,
            account: b.clone(),
            place: 2,
            score: -10,
        },
    ];
    let (t1, t2) = (game("t1"), game("t2"));
    let (first, second) = tokio::join!(
        store.record_game(&t1, &seats),
        store.record_game(&t2, &seats)
    );
    assert!(first.unwrap() && second.unwrap());
    assert!(!store.record_game(&t1, &seats).await.unwrap());
    let profile = ana.get("/api/users/ana").await.body;
    assert_eq!(profile["ratings"]["rummikub"]["games"], 2, "{profile}");
    assert_eq!(profile["games"].as_array().unwrap().len(), 2);
    assert_eq!(profile["totals"][0]["won"], 2);
}

#[tokio::test]
async fn a_challenged_player_sees_the_invitation_and_may_decline_it_on_sqlite() {
    let server = start_with(&temp_sqlite("players_challenge"), options()).await;
    challenge_and_decline(&server).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn a_challenged_player_sees_the_invitation_and_may_decline_it_on_postgres() {
    let server = start_with(&temp_postgres("players_challenge").await, options()).await;
    challenge_and_decline(&server).await;
}

/// Invitations by name: listed for the invited account, declined once, the seat then
/// open (to account holders only at a rated table).
async fn challenge_and_decline(server: &TestServer) {
    let mut ana = signed_up(server, "Ana").await;
    let mut bo = signed_up(server, "Bo_2").await;
    let mut eve = signed_up(server, "Eve").await;
    for rated in [false, true] {
        let mut body = rumis(json!([{"kind": "human"}, {"kind": "account", "name": "Bo_2"}]));
        body["rated"] = json!(rated);
        let created = ana.post("/api/tables", body).await;
        assert_eq!(created.status, 200, "{}", created.body);
        let id = created.body["id"].as_str().unwrap().to_string();
        let list = bo.get("/api/me/challenges").await.body;
        let challenge = &list["challenges"][0];
        assert_eq!(challenge["id"], id.as_str(), "{list}");
        assert_eq!(
            (
                challenge["seat"].clone(),
                challenge["from"].clone(),
                challenge["rated"].clone()
            ),
            (json!(1), json!(["Ana"]), json!(rated))
        );
        assert_eq!(
            eve.get("/api/me/challenges").await.body["challenges"],
            json!([])
        );
        // Only Bo can decline it, once.
        let decline = format!("/api/tables/{id}/decline");
        assert_eq!(
            code(&eve.post(&decline, json!({})).await),
            (409, "no_seat".into())
        );
        assert_eq!(bo.post(&decline, json!({})).await.status, 204);
        assert_eq!(
            code(&bo.post(&decline, json!({})).await),
            (409, "no_seat".into())
        );
        assert_eq!(
            bo.get("/api/me/challenges").await.body["challenges"],
            json!([])
        );
        // The seat is open now: to anyone, or to account holders at a rated table.
        let view = server.view(&id, None).await;
        assert_eq!(view["seats"][1]["kind"], "open", "{view}");
        assert_eq!(view["seats"][1]["name"], "Player 2");
        let join = format!("/api/tables/{id}/join");
        let guest = Browser::new(server).post(&join, json!({})).await;
        if rated {
            assert_eq!(code(&guest), (403, "rated_rules".into()));
            let joined = eve.post(&join, json!({})).await;
            assert_eq!(joined.status, 200, "{}", joined.body);
            assert_eq!(joined.body["name"], "Eve");
        } else {
            assert_eq!(guest.status, 200, "{}", guest.body);
        }
    }
    let guest = Browser::new(server).get("/api/me/challenges").await;
    assert_eq!(code(&guest), (401, "not_signed_in".into()));
}

/// The attack of issue 56: at a rated table the creator handed the seat kept for an
/// account that never sat down to a bot after the hand-over time, and so won rated
/// games against an absent player (again with every rematch). A seat its account
/// never took is never handed to a bot at a rated table; at a casual one it may be.
#[tokio::test]
async fn a_rated_seat_its_account_never_took_is_never_handed_to_a_bot() {
    // The hand-over time is zero: only the never-taken rule stands in the way.
    let server = start_with(&temp_sqlite("players_never_taken"), options()).await;
    let mut ana = signed_up(&server, "Ana").await;
    let mut bo = signed_up(&server, "Bo_2").await;
    for rated in [true, false] {
        let mut body = rumis(json!([{"kind": "human"}, {"kind": "account", "name": "Bo_2"}]));
        body["rated"] = json!(rated);
        let created = ana.post("/api/tables", body).await;
        assert_eq!(created.status, 200, "{}", created.body);
        let id = created.body["id"].as_str().unwrap().to_string();
        let hand = format!("/api/tables/{id}/seats/1/bot");
        if !rated {
            let handed = ana.post(&hand, json!({"bot": "random"})).await;
            assert_eq!(handed.status, 200, "a casual table: {}", handed.body);
            continue;
        }
        for _ in 0..2 {
            let refused = ana.post(&hand, json!({"bot": "random"})).await;
            assert_eq!(
                code(&refused),
                (409, "seat_never_taken".into()),
                "{}",
                refused.body
            );
            assert!(refused.body["error"]
                .as_str()
                .unwrap()
                .contains("Bo_2 (seat 2) never sat down"));
            // Nor later (until the table is cancelled, RT7: rated_tables.rs).
            server.clock().advance(Duration::from_secs(240));
        }
        let view = server.view(&id, None).await;
        assert_eq!(
            (view["status"].clone(), view["seats"][1]["kind"].clone()),
            (json!("waiting"), json!("account")),
            "{view}"
        );
        let list = bo.get("/api/me/challenges").await.body;
        assert_eq!(list["challenges"][0]["id"], id.as_str(), "{list}");
    }
}
