//! The holes a fourth attack found (issue 56): the analysis board answering the
//! position of a running rated game, tables of bots only without a cap, challenge
//! spam and blocks, a Rumis record's answer out of proportion to it, and solo cube
//! times below what the server saw.

mod common;

use std::time::Duration;

use reqwest::Method;
use rumis::record::Record;
use rumis::{Scenario, Setup};
use serde_json::{json, Value};
use server::HubOptions;

use common::browser::{signed_up, Browser};
use common::{start_full, start_with, temp_postgres, temp_sqlite, TestServer};

/// The test defaults without the per-address table caps; bots at once, and an away
/// player's seat may be handed to a bot at once.
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

/// A server on SQLite that trusts this machine as its balancer: browsers may come
/// from any address (`Browser::at`).
async fn behind_proxy(name: &str, hub: HubOptions) -> TestServer {
    let limits = server::Limits {
        trusted_proxies: vec![server::transport::parse_proxy("127.0.0.1").unwrap()],
        ..server::Limits::default()
    };
    start_full(&temp_sqlite(name), hub, None, limits).await
}

fn code(answer: &common::browser::Answer) -> (u16, String) {
    (
        answer.status,
        answer.body["code"].as_str().unwrap_or("").to_string(),
    )
}

/// A rated table of `ana` and an account seat for `bo`, taken by him: its id.
async fn rated_table(
    ana: &mut Browser<'_>,
    bo: &mut Browser<'_>,
    bo_name: &str,
    game: Value,
) -> String {
    let mut body = game;
    body["seats"] = json!([{"kind": "human"}, {"kind": "account", "name": bo_name}]);
    body["rated"] = json!(true);
    let created = ana.post("/api/tables", body).await;
    assert_eq!(created.status, 200, "{}", created.body);
    let id = created.body["id"].as_str().unwrap().to_string();
    let grant = bo.post(&format!("/api/tables/{id}/claim"), json!({})).await;
    assert_eq!(grant.status, 200, "{}", grant.body);
    id
}

/// Ends a rated game: each player hands the other's seat to a bot, the bots finish.
async fn bots_finish<'a>(
    server: &TestServer,
    ana: &mut Browser<'a>,
    bo: &mut Browser<'a>,
    id: &str,
) {
    let path = format!("/api/tables/{id}");
    for (who, seat) in [(&mut *bo, 0), (&mut *ana, 1)] {
        let handed = who
            .post(
                &format!("{path}/seats/{seat}/bot"),
                json!({"bot": "random"}),
            )
            .await;
        assert_eq!(handed.status, 200, "{}", handed.body);
    }
    server.wait_for(id, None, |v| v["over"] == true).await;
}

fn rummikub_position(view: &Value) -> Value {
    let table: Vec<String> = view["rummikub"]["table"]
        .as_array()
        .unwrap()
        .iter()
        .map(|set| {
            let tiles: Vec<&str> = set
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap())
                .collect();
            format!("[{}]", tiles.join(" "))
        })
        .collect();
    let rack: Vec<&str> = view["rummikub"]["rack"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    json!({"table": table.join(" "), "rack": rack.join(" ")})
}

/// The rack reversed: the same position written in another order.
fn reordered(position: &Value) -> Value {
    let rack: Vec<&str> = position["rack"]
        .as_str()
        .unwrap()
        .split(' ')
        .rev()
        .collect();
    json!({"table": position["table"], "rack": rack.join(" "), "initial": true})
}

/// Rummikub: every seat's rack with the table, in any order, is refused while the
/// rated game runs, and answered once it is over; a casual table's is answered.
async fn rated_rummikub_positions_are_refused_until_the_game_ends(db: &str) {
    let server = start_with(db, options()).await;
    let mut ana = signed_up(&server, "Ana").await;
    let mut bo = signed_up(&server, "Bo_2").await;
    let game = json!({"game": "rummikub", "rummikub": {"rules": "current"}});
    let id = rated_table(&mut ana, &mut bo, "Bo_2", game).await;
    let path = format!("/api/tables/{id}");
    let mut positions = Vec::new();
    for who in [&mut ana, &mut bo] {
        let view = who.get(&path).await.body;
        assert_eq!(view["status"], "playing", "{view}");
        positions.push(rummikub_position(&view));
    }
    let mut guest = Browser::new(&server);
    for position in &positions {
        for asked in [position.clone(), reordered(position)] {
            let refused = guest.post("/api/analysis/rummikub", asked.clone()).await;
            assert_eq!(
                code(&refused),
                (403, "position_in_rated_game".into()),
                "{asked}: {}",
                refused.body
            );
        }
    }
    // One tile less is another position: answered.
    let mut fewer = positions[0].clone();
    let rack = fewer["rack"].as_str().unwrap();
    fewer["rack"] = json!(rack[..rack.rfind(' ').unwrap()].to_string());
    assert_eq!(
        guest.post("/api/analysis/rummikub", fewer).await.status,
        200
    );

    // A casual table's position is answered.
    let casual = server
        .create_raw(json!({
            "game": "rummikub",
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
        }))
        .await;
    let token = casual["you"]["token"].as_str().unwrap();
    let view = server
        .view(casual["id"].as_str().unwrap(), Some(token))
        .await;
    let answered = guest
        .post("/api/analysis/rummikub", rummikub_position(&view))
        .await;
    assert_eq!(answered.status, 200, "{}", answered.body);

    bots_finish(&server, &mut ana, &mut bo, &id).await;
    for position in &positions {
        let answered = guest.post("/api/analysis/rummikub", position.clone()).await;
        assert_eq!(answered.status, 200, "{}", answered.body);
    }
}

#[tokio::test]
async fn rated_rummikub_positions_are_refused_until_the_game_ends_sqlite() {
    rated_rummikub_positions_are_refused_until_the_game_ends(&temp_sqlite("abuse-rated-rk")).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn rated_rummikub_positions_are_refused_until_the_game_ends_postgres() {
    rated_rummikub_positions_are_refused_until_the_game_ends(
        &temp_postgres("abuse_rated_rk").await,
    )
    .await;
}

/// The record of a Rumis table's moves so far (a board of the same setup).
fn record_of(view: &Value) -> String {
    let scenario = Scenario::builtin("chullpa").unwrap();
    let mut position = rumis::Boards::new()
        .position(Setup::new(scenario, 2))
        .unwrap();
    for mv in view["rumis"]["history"].as_array().unwrap() {
        position.play_text(mv.as_str().unwrap()).unwrap();
    }
    Record::write(&position, None)
}

/// Rumis: the record of a running rated game's moves is refused at its current
/// position (its earlier positions are history), and answered once it is over; a
/// casual table's is answered.
#[tokio::test]
async fn rated_rumis_positions_are_refused_until_the_game_ends() {
    let server = start_with(&temp_sqlite("abuse-rated-rumis"), options()).await;
    let mut ana = signed_up(&server, "Ana").await;
    let mut bo = signed_up(&server, "Bo_2").await;
    let game = json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2}});
    let id = rated_table(&mut ana, &mut bo, "Bo_2", game).await;
    let path = format!("/api/tables/{id}");
    // Three moves, each by the seat to move, from its own legal placements.
    for _ in 0..3 {
        let mut seated = Vec::new();
        for who in [&mut ana, &mut bo] {
            seated.push(who.get(&path).await.body);
        }
        let view = seated
            .iter()
            .find(|v| v["you"] == v["to_move"])
            .expect("a seat to move");
        let placement = &view["rumis"]["legal"][0];
        let who = if view["you"] == 0 { &mut ana } else { &mut bo };
        let body = json!({
            "version": view["version"],
            "action": {"type": "rumis_place", "stone": placement["stone"], "cells": placement["cells"]},
        });
        let moved = who.post(&format!("{path}/actions"), body).await;
        assert_eq!(moved.status, 200, "{}", moved.body);
    }
    let view = ana.get(&path).await.body;
    let record = record_of(&view);
    let mut guest = Browser::new(&server);
    let refused = guest
        .post("/api/analysis/rumis/best", json!({"record": record}))
        .await;
    assert_eq!(
        code(&refused),
        (403, "position_in_rated_game".into()),
        "{}",
        refused.body
    );
    let earlier = guest
        .post(
            "/api/analysis/rumis/best",
            json!({"record": record, "ply": 2}),
        )
        .await;
    assert_eq!(earlier.status, 200, "{}", earlier.body);

    // A casual table's position: answered.
    let casual = server
        .create_raw(json!({
            "game": "rumis",
            "rumis": {"scenario": "chullpa", "players": 2},
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
        }))
        .await;
    let (casual_id, token) = (
        casual["id"].as_str().unwrap(),
        casual["you"]["token"].as_str().unwrap(),
    );
    let view = server
        .wait_for(casual_id, Some(token), |v| v["to_move"] == v["you"])
        .await;
    let placement = &view["rumis"]["legal"][0];
    let action =
        json!({"type": "rumis_place", "stone": placement["stone"], "cells": placement["cells"]});
    let version = view["version"].as_u64().unwrap();
    let (status, moved) = server.act(casual_id, token, version, action).await;
    assert_eq!(status, 200, "{moved}");
    let view = server.view(casual_id, Some(token)).await;
    let answered = guest
        .post(
            "/api/analysis/rumis/best",
            json!({"record": record_of(&view)}),
        )
        .await;
    assert_eq!(answered.status, 200, "{}", answered.body);

    bots_finish(&server, &mut ana, &mut bo, &id).await;
    let answered = guest
        .post("/api/analysis/rumis/best", json!({"record": record}))
        .await;
    assert_eq!(answered.status, 200, "{}", answered.body);
}

/// Tables of bots only: the cap per address, then the cap of the server; a table
/// with a person is not one of them; a finished one frees its place.
#[tokio::test]
async fn tables_of_bots_only_are_capped_per_address_and_in_all() {
    let server = behind_proxy(
        "abuse-bot-tables",
        HubOptions {
            max_bot_tables_per_address: 2,
            max_bot_tables: 3,
            // The bots wait: the tables stay unfinished.
            bot_delay: Duration::from_secs(3600),
            ..options()
        },
    )
    .await;
    let bots = json!({
        "game": "rummikub",
        "seats": [
            {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"},
            {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"},
        ],
    });
    let mut eve = Browser::at(&server, "203.0.113.66", None);
    for _ in 0..2 {
        let made = eve.post("/api/tables", bots.clone()).await;
        assert_eq!(made.status, 200, "{}", made.body);
    }
    let refused = eve.post("/api/tables", bots.clone()).await;
    assert_eq!(
        code(&refused),
        (429, "too_many_bot_tables".into()),
        "{}",
        refused.body
    );
    assert!(refused.retry_after.is_some());
    // Eve may still sit with bots.
    let mut with_person = bots.clone();
    with_person["seats"][0] = json!({"kind": "human"});
    assert_eq!(eve.post("/api/tables", with_person).await.status, 200);

    let mut ana = Browser::at(&server, "198.51.100.5", None);
    assert_eq!(ana.post("/api/tables", bots.clone()).await.status, 200);
    let mut bo = Browser::at(&server, "192.0.2.9", None);
    let full = bo.post("/api/tables", bots.clone()).await;
    assert_eq!(
        code(&full),
        (429, "bot_tables_full".into()),
        "{}",
        full.body
    );
}

/// A Rumis record's replay answers at most a bounded multiple of the record's size.
#[tokio::test]
async fn a_records_replay_answers_in_proportion_to_the_record() {
    let server = start_with(&temp_sqlite("abuse-record-size"), options()).await;
    let scenario = Scenario::builtin("chullpa").unwrap();
    let mut position = rumis::Boards::new()
        .position(Setup::new(scenario, 2))
        .unwrap();
    // A whole game, first legal move each turn.
    while let Some(&mv) = position.legal_moves().first() {
        position.play(mv).unwrap();
    }
    let record = Record::write(&position, None);
    let response = server
        .client
        .post(format!("{}/api/analysis/rumis", server.base))
        .header("content-type", "application/json")
        .body(json!({ "record": record }).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let answer = response.bytes().await.unwrap();
    let ratio = answer.len() as f64 / record.len() as f64;
    assert!(
        ratio <= MAX_REPLAY_RATIO,
        "{} bytes of record answered with {} ({ratio:.0} times)",
        record.len(),
        answer.len()
    );
}

/// What a replay may answer per byte of record.
const MAX_REPLAY_RATIO: f64 = 40.0;

/// Challenges: capped per sender account whatever its address, and per receiver; a
/// guest keeps no seat for an account.
#[tokio::test]
async fn challenges_are_capped_per_sender_and_per_receiver() {
    let server = behind_proxy(
        "abuse-challenge-caps",
        HubOptions {
            challenges: server::hub::ChallengeLimits {
                per_sender: 2,
                per_receiver: 3,
                ..Default::default()
            },
            ..options()
        },
    )
    .await;
    let mut eve = signed_up(&server, "Eve").await;
    let mut ana = signed_up(&server, "Ana").await;
    let mut cy = signed_up(&server, "Cyd").await;
    drop(signed_up(&server, "Bo_2").await);
    let challenge = |name: &str| {
        json!({
            "game": "rumis", "rumis": {"scenario": "chullpa", "players": 2},
            "seats": [{"kind": "human"}, {"kind": "account", "name": name}],
        })
    };
    // Eve from two addresses: two challenges, then no more.
    for address in ["203.0.113.66", "203.0.113.67"] {
        let mut at = Browser::at(&server, address, eve.cookie.clone());
        assert_eq!(at.post("/api/tables", challenge("Bo_2")).await.status, 200);
    }
    let mut third = Browser::at(&server, "203.0.113.68", eve.cookie.clone());
    let refused = third.post("/api/tables", challenge("Bo_2")).await;
    assert_eq!(
        code(&refused),
        (429, "too_many_challenges".into()),
        "{}",
        refused.body
    );
    // A table without an account seat is no challenge.
    let own = eve
        .post(
            "/api/tables",
            json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2},
                   "seats": [{"kind": "human"}, {"kind": "bot"}]}),
        )
        .await;
    assert_eq!(own.status, 200, "{}", own.body);

    // Bo has two waiting; Ana's makes three, Cy's is one too many.
    assert_eq!(ana.post("/api/tables", challenge("Bo_2")).await.status, 200);
    let full = cy.post("/api/tables", challenge("bo_2")).await;
    assert_eq!(
        code(&full),
        (429, "challenges_full".into()),
        "{}",
        full.body
    );
    // A guest keeps no seat for an account.
    let guest = Browser::new(&server)
        .post("/api/tables", challenge("Cyd"))
        .await;
    assert_eq!(
        code(&guest),
        (401, "not_signed_in".into()),
        "{}",
        guest.body
    );
}

/// Blocks: the blocked account's waiting challenges leave the list and its new ones
/// are refused in words that say no more than "not from you"; unblocked, it may
/// challenge again. The list names who is blocked.
#[tokio::test]
async fn a_blocked_account_no_longer_reaches_its_player() {
    let server = start_with(&temp_sqlite("abuse-blocks"), options()).await;
    let mut eve = signed_up(&server, "Eve").await;
    let mut ana = signed_up(&server, "Ana").await;
    let mut bo = signed_up(&server, "Bo_2").await;
    let challenge = json!({
        "game": "rumis", "rumis": {"scenario": "chullpa", "players": 2},
        "seats": [{"kind": "human"}, {"kind": "account", "name": "Bo_2"}],
    });
    let from_eve = eve.post("/api/tables", challenge.clone()).await;
    assert_eq!(from_eve.status, 200, "{}", from_eve.body);
    let from_ana = ana.post("/api/tables", challenge.clone()).await;
    assert_eq!(from_ana.status, 200, "{}", from_ana.body);
    let list = |body: &Value| -> Vec<String> {
        body["challenges"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["from"][0].as_str().unwrap().to_string())
            .collect()
    };
    let mut senders = list(&bo.get("/api/me/challenges").await.body);
    senders.sort();
    assert_eq!(senders, ["Ana", "Eve"]);

    // Refusals that change nothing.
    for (body, expected) in [
        (json!({"name": "nobody"}), (404, "unknown_player")),
        (json!({"name": "bo_2"}), (400, "bad_request")),
        (json!({"name": "Eve", "why": 1}), (400, "malformed_request")),
    ] {
        let refused = bo.post("/api/me/blocks", body).await;
        assert_eq!(
            code(&refused),
            (expected.0, expected.1.into()),
            "{}",
            refused.body
        );
    }
    let guest = Browser::new(&server)
        .post("/api/me/blocks", json!({"name": "Eve"}))
        .await;
    assert_eq!(code(&guest), (401, "not_signed_in".into()));
    assert_eq!(bo.get("/api/me/blocks").await.body, json!({"blocks": []}));

    let blocked = bo.post("/api/me/blocks", json!({"name": "eve"})).await;
    assert_eq!(blocked.status, 204, "{}", blocked.body);
    assert_eq!(
        bo.post("/api/me/blocks", json!({"name": "Eve"}))
            .await
            .status,
        204
    );
    let blocks = bo.get("/api/me/blocks").await.body;
    assert_eq!(blocks["blocks"].as_array().unwrap().len(), 1, "{blocks}");
    assert_eq!(blocks["blocks"][0]["name"], "Eve");
    assert_eq!(list(&bo.get("/api/me/challenges").await.body), ["Ana"]);

    let refused = eve.post("/api/tables", challenge.clone()).await;
    assert_eq!(
        code(&refused),
        (403, "challenges_refused".into()),
        "{}",
        refused.body
    );
    let said = refused.body["error"].as_str().unwrap();
    assert_eq!(said, "Bo_2 does not take challenges from you");
    // Eve's table for another player is not refused.
    let other = json!({
        "game": "rumis", "rumis": {"scenario": "chullpa", "players": 2},
        "seats": [{"kind": "human"}, {"kind": "account", "name": "Ana"}],
    });
    assert_eq!(eve.post("/api/tables", other).await.status, 200);

    let lifted = bo.send(Method::DELETE, "/api/me/blocks/EVE", None).await;
    assert_eq!(lifted.status, 204, "{}", lifted.body);
    let again = bo.send(Method::DELETE, "/api/me/blocks/Eve", None).await;
    assert_eq!(code(&again), (404, "not_found".into()));
    assert_eq!(eve.post("/api/tables", challenge).await.status, 200);
    assert_eq!(list(&bo.get("/api/me/challenges").await.body).len(), 3);
}

/// A full solo cube (edge 3, one colour), from the solver's hints.
async fn hinted_cube(browser: &mut Browser<'_>, level: &Value) -> Vec<Value> {
    let mut pieces: Vec<Value> = Vec::new();
    loop {
        let hint = browser
            .post("/api/solo/hint", json!({"level": level, "pieces": pieces}))
            .await;
        assert_eq!(hint.status, 200, "{}", hint.body);
        match &hint.body["piece"] {
            Value::Null => break,
            piece => pieces.push(piece.clone()),
        }
        let state = browser
            .post("/api/solo/build", json!({"level": level, "pieces": pieces}))
            .await;
        if state.body["complete"] == true {
            break;
        }
    }
    pieces
}

/// Solo times: a cube must begin here signed in; the time counted is at least the
/// server's since it began; a cube built with hints keeps no best; an unaided one
/// does.
#[tokio::test]
async fn a_solo_time_counts_at_least_the_servers_and_hints_keep_no_best() {
    let server = start_with(&temp_sqlite("abuse-solo"), options()).await;
    let mut ana = signed_up(&server, "Ana").await;
    let level = json!({"edge": 3, "colours": 1, "rules": false, "alternate": false});
    // The cube, from hints asked as a guest (they count for nobody).
    let mut guest = Browser::new(&server);
    let cube = hinted_cube(&mut guest, &level).await;
    let finish = json!({"level": level, "pieces": cube, "millis": 1});
    let refused = ana.post("/api/me/solo", finish.clone()).await;
    assert_eq!(
        code(&refused),
        (409, "solo_not_begun".into()),
        "{}",
        refused.body
    );

    // Begun, with a hint: no best, the server's time counted.
    let begun = ana
        .post("/api/solo/build", json!({"level": level, "pieces": []}))
        .await;
    assert_eq!(begun.status, 200);
    let hint = ana
        .post("/api/solo/hint", json!({"level": level, "pieces": []}))
        .await;
    assert!(hint.body["piece"].is_object(), "{}", hint.body);
    server.clock().advance(Duration::from_secs(95));
    let recorded = ana.post("/api/me/solo", finish.clone()).await;
    assert_eq!(recorded.status, 200, "{}", recorded.body);
    assert_eq!(recorded.body["hints"], 1);
    assert_eq!(recorded.body["millis"], 95_000);
    assert_eq!(recorded.body["new_best"], false);
    assert_eq!(recorded.body["best"], Value::Null);
    assert_eq!(ana.get("/api/me/solo").await.body["bests"], json!([]));
    // The cube is over: its time is not sent twice.
    let twice = ana.post("/api/me/solo", finish.clone()).await;
    assert_eq!(code(&twice), (409, "solo_not_begun".into()));

    // Begun again, no hint: the server's 40 s, not the 1 ms sent, is the best.
    ana.post("/api/solo/build", json!({"level": level, "pieces": []}))
        .await;
    server.clock().advance(Duration::from_secs(40));
    let recorded = ana.post("/api/me/solo", finish.clone()).await;
    assert_eq!(recorded.status, 200, "{}", recorded.body);
    assert_eq!(
        (
            recorded.body["hints"].clone(),
            recorded.body["new_best"].clone()
        ),
        (json!(0), json!(true))
    );
    assert_eq!(recorded.body["best"]["millis"], 40_000);
    // A longer time sent is the one counted.
    ana.post("/api/solo/build", json!({"level": level, "pieces": []}))
        .await;
    server.clock().advance(Duration::from_secs(5));
    let slower = json!({"level": level, "pieces": cube, "millis": 50_000});
    let recorded = ana.post("/api/me/solo", slower).await;
    assert_eq!(recorded.body["millis"], 50_000);
    assert_eq!(recorded.body["new_best"], false);
    assert_eq!(recorded.body["best"]["millis"], 40_000);
}
