//! Who may sit where, and when a game starts: the seat model (the creator's seat,
//! invited and open seats), fair deals with a published commitment, the waiting
//! state, handing seats to bots and taking them back, and the limits one address
//! meets when it creates tables. Each test is a way a stranger could abuse a table.

mod common;

use std::time::Duration;

use common::{placing, start, start_with, temp_postgres, temp_sqlite, token_of_link, TestServer};
use futures_util::StreamExt;
use serde_json::{json, Value};
use server::HubOptions;
use sha2::{Digest, Sha256};

/// The public defaults, but bots move at once.
fn public(handover_after: Duration) -> HubOptions {
    HubOptions {
        bot_delay: Duration::ZERO,
        handover_after,
        ..common::defaults()
    }
}

fn rummikub(seats: Value) -> Value {
    json!({"game": "rummikub", "rummikub": {"rules": "current"}, "seats": seats})
}

fn rumis(seats: Value) -> Value {
    json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2}, "seats": seats})
}

#[tokio::test]
async fn a_stranger_who_joins_never_gets_a_seat_that_is_someone_elses() {
    let server = start_with(&temp_sqlite("hijack"), public(Duration::from_secs(60))).await;
    // Ana creates a table for herself, an invited friend and one open seat.
    let created = server
        .create_raw(rummikub(json!([
            {"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bo"}, {"kind": "open"}
        ])))
        .await;
    let id = created["id"].as_str().unwrap();
    let ana = created["you"]["token"].as_str().unwrap().to_string();
    assert_eq!(
        created["you"]["seat"], 0,
        "the creator's seat is theirs at creation"
    );
    let bo = token_of_link(created["seats"][1]["invite"].as_str().unwrap());
    assert!(
        created["seats"][0]["invite"].is_null(),
        "no invite for the creator's own seat"
    );
    assert!(
        created["seats"][2]["invite"].is_null(),
        "an open seat has no invite link"
    );
    let view = server.view(id, Some(&ana)).await;
    assert_eq!(view["seats"][0]["claimed"], true);
    assert_eq!(view["seats"][1]["kind"], "human");
    assert_eq!(view["seats"][2]["kind"], "open");

    // The lobby lists the table for its open seat only.
    let (_, lobby) = server.get("/api/tables").await;
    let line = lobby["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == id)
        .expect("listed");
    assert_eq!(line["open_seats"], json!([2]));

    // A stranger joins: they get the open seat with a fresh token.
    let (status, joined) = server
        .post(&format!("/api/tables/{id}/join"), r#"{"name": "Eve"}"#)
        .await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["seat"], 2);
    let eve = joined["token"].as_str().unwrap();
    assert!(
        eve != ana && eve != bo,
        "a join must never hand out a token already given"
    );
    assert_eq!(server.view(id, Some(eve)).await["you"], 2);
    // A second stranger finds nothing to take: Bo's invited seat stays Bo's.
    let (status, refused) = server.post(&format!("/api/tables/{id}/join"), "{}").await;
    assert_eq!(status, 409, "{refused}");
    assert_eq!(refused["code"], "no_open_seat");
    let (status, refused) = server
        .post(&format!("/api/tables/{id}/join"), r#"{"seat": 1}"#)
        .await;
    assert_eq!(status, 409);
    assert_eq!(refused["code"], "seat_not_open");
    // And the lobby no longer lists the table.
    let (_, lobby) = server.get("/api/tables").await;
    assert!(lobby["tables"]
        .as_array()
        .unwrap()
        .iter()
        .all(|t| t["id"] != id));
    // Bo's link still takes his seat for him.
    let bo = server.claim(id, &bo).await;
    assert_eq!(server.view(id, Some(&bo)).await["you"], 1);
    // A table of invited seats only is never in the lobby.
    let private = server
        .create_raw(rumis(json!([{"kind": "human"}, {"kind": "human"}])))
        .await;
    let (status, _) = server
        .post(
            &format!("/api/tables/{}/join", private["id"].as_str().unwrap()),
            "{}",
        )
        .await;
    assert_eq!(status, 409);
}

#[tokio::test]
async fn the_deal_is_drawn_by_the_server_and_checkable_after_the_game() {
    let server = start_with(&temp_sqlite("fair"), public(Duration::from_secs(60))).await;
    // With another person at the table, nobody may choose the deal.
    let (status, refused) = server
        .post(
            "/api/tables",
            &json!({"game": "rummikub", "seats": [{"kind": "human"}, {"kind": "human"}], "seed": 42})
                .to_string(),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(refused["code"], "seed_not_allowed");
    // Two tables of people get different deals, each with a commitment.
    let a = server
        .create_raw(rummikub(json!([{"kind": "human"}, {"kind": "human"}])))
        .await;
    let b = server
        .create_raw(rummikub(json!([{"kind": "human"}, {"kind": "human"}])))
        .await;
    assert_ne!(a["commitment"], b["commitment"]);
    assert!(a["practice_seed"].is_null());
    let view = server.view(a["id"].as_str().unwrap(), None).await;
    assert_eq!(view["fairness"]["commitment"], a["commitment"]);
    assert!(view["fairness"]["seed"].is_null() && view["fairness"]["salt"].is_null());

    // A practice table (every other seat a bot) may fix the seed, and says so.
    let practice = server
        .create_raw(json!({"game": "rummikub", "rummikub": {"turn_seconds": null},
            "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}], "seed": 42}))
        .await;
    assert_eq!(practice["practice_seed"], 42);
    let id = practice["id"].as_str().unwrap();
    let view = server.view(id, None).await;
    assert_eq!(
        view["fairness"]["practice_seed"], 42,
        "every viewer sees it is practice"
    );
    // When the game is over, seed and salt are revealed and match the commitment.
    let over = server.wait_for(id, None, |v| v["over"] == true).await;
    let fairness = &over["fairness"];
    let seed = fairness["seed"].as_u64().unwrap();
    let salt = fairness["salt"].as_str().unwrap();
    assert_eq!(seed, 42);
    let digest = hex::encode(Sha256::digest(
        format!("rumi-seed:{seed}:{salt}").as_bytes(),
    ));
    assert_eq!(fairness["commitment"].as_str().unwrap(), digest);
    assert_eq!(fairness["commitment"], practice["commitment"]);
    let (status, replay) = server.get(&format!("/api/tables/{id}/replay")).await;
    assert_eq!(status, 200);
    assert_eq!(replay["fairness"]["seed"], 42);
    assert!(!replay["actions"].as_array().unwrap().is_empty());
    // The replay's settings, seed and actions rebuild the same result.
    let settings: server::wire::TableSettings =
        serde_json::from_value(replay["settings"].clone()).unwrap();
    let actions: Vec<(Option<usize>, server::wire::GameAction)> = replay["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            let action = serde_json::from_value(a["action"].clone()).unwrap();
            (a["actor"].as_u64().map(|s| s as usize), action)
        })
        .collect();
    let (result, _) = server::hub::replay_game(&settings, seed, &actions).unwrap();
    assert_eq!(
        json!(result.unwrap().winners),
        replay["result"]["winners"],
        "the revealed seed replays to the same winners"
    );
}

#[tokio::test]
async fn a_table_waits_for_every_person_before_its_clock_and_bots_start() {
    let server = start_with(&temp_sqlite("waiting"), public(Duration::from_secs(60))).await;
    // Rummikub with the preset's clock (turn_seconds missing: 60 s), a bot and an
    // invited friend who has not opened the link yet.
    let created = server
        .create_raw(rummikub(json!([
            {"kind": "bot", "bot": "greedy"}, {"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bo"}
        ])))
        .await;
    let id = created["id"].as_str().unwrap();
    let ana = created["you"]["token"].as_str().unwrap().to_string();
    assert_eq!(created["you"]["seat"], 1);
    let view = server.view(id, Some(&ana)).await;
    assert_eq!(view["status"], "waiting");
    assert_eq!(view["waiting_for"], json!([2]));
    assert!(view["deadline_ms"].is_null(), "no clock while waiting");
    assert!(view["to_move"].is_null());
    assert_eq!(view["rummikub"]["rules"]["turn_seconds"], 60);
    // Nothing moves while waiting, whatever the bots and the clock would do: no
    // driver is due, even an hour later.
    server.clock().advance(Duration::from_secs(3600));
    let hub = &server.running.hub;
    let due = hub.store.due_before(i64::MAX).await.unwrap();
    assert!(due.iter().all(|(table, _)| table != id), "{due:?}");
    assert_eq!(server.view(id, None).await["version"], 0);
    let (status, refused) = server.act(id, &ana, 0, json!({"type": "draw"})).await;
    assert_eq!(status, 409);
    assert_eq!(refused["code"], "not_started");
    assert!(
        refused["error"].as_str().unwrap().contains("Bo (seat 3)"),
        "{refused}"
    );
    // Bo opens his link: the game starts, with the clock counting from now.
    let bo = token_of_link(created["seats"][2]["invite"].as_str().unwrap());
    let bo = server.claim(id, &bo).await;
    let started = server.view(id, Some(&bo)).await;
    assert_eq!(started["status"], "playing");
    assert_eq!(started["waiting_for"], json!([]));
    let deadline = started["deadline_ms"].as_i64().expect("the clock runs now");
    assert_eq!(
        deadline - server.clock().now_ms(),
        60_000,
        "a missing turn_seconds means the preset's 60 s clock"
    );
}

#[tokio::test]
async fn a_missing_turn_clock_stays_the_presets_after_a_restart() {
    let db = temp_sqlite("clock-restart");
    let id;
    {
        let server = start(&db, 0).await;
        let (created, _) = server
            .create(json!({"game": "rummikub", "seats": [{"kind": "human"}, {"kind": "human"}]}))
            .await;
        id = created;
        assert_eq!(
            server.view(&id, None).await["rummikub"]["rules"]["turn_seconds"],
            60
        );
    }
    let server = start(&db, 0).await;
    let view = server.view(&id, None).await;
    assert_eq!(view["rummikub"]["rules"]["turn_seconds"], 60);
    assert!(view["deadline_ms"].is_i64());
}

#[tokio::test]
async fn seats_go_to_bots_only_when_their_player_is_away_and_come_back() {
    const AWAY: Duration = Duration::from_secs(60);
    let server = start_with(&temp_sqlite("handover"), public(AWAY)).await;
    let (id, tokens) = server
        .create(rumis(
            json!([{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bo"}]),
        ))
        .await;
    let (ana, bo) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    let hand = |token: String, seat: usize, bot: &'static str| {
        let server = &server;
        let path = format!("/api/tables/{id}/seats/{seat}/bot");
        async move {
            server
                .post_as(&path, &token, &json!({"bot": bot}).to_string())
                .await
        }
    };
    // Without a token, or with an unknown bot: refused.
    assert_eq!(
        server
            .post(
                &format!("/api/tables/{id}/seats/1/bot"),
                r#"{"bot": "greedy"}"#
            )
            .await
            .0,
        403
    );
    let (status, answer) = hand(ana.clone(), 1, "genius").await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (400, Some("unknown_bot"))
    );
    // Bo is connected: nobody else may take his seat.
    let mut bo_socket = server.socket(&id, Some(&bo)).await;
    let _first_view = bo_socket.next().await;
    let (status, answer) = hand(ana.clone(), 1, "greedy").await;
    assert_eq!(status, 409, "{answer}");
    assert_eq!(answer["code"], "player_present");
    assert!(
        answer["error"].as_str().unwrap().contains("Bo (seat 2)"),
        "{answer}"
    );
    // Bo leaves: the others must wait until he has been away long enough …
    drop(bo_socket);
    server
        .wait_for(&id, None, |v| v["seats"][1]["connected"] == false)
        .await;
    let (status, answer) = hand(ana.clone(), 1, "greedy").await;
    assert_eq!(status, 409, "{answer}");
    assert_eq!(answer["code"], "player_not_away_long_enough");
    let view = server.view(&id, Some(&ana)).await;
    assert!(
        view["seats"][1]["handover_ms"].is_i64(),
        "the view shows when: {view}"
    );
    // … to the millisecond …
    server.clock().advance(AWAY - Duration::from_millis(1));
    let (status, answer) = hand(ana.clone(), 1, "greedy").await;
    assert_eq!(status, 409, "{answer}");
    assert_eq!(answer["code"], "player_not_away_long_enough");
    // … then they may.
    server.clock().advance(Duration::from_millis(1));
    let (status, view) = hand(ana.clone(), 1, "greedy").await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["seats"][1]["kind"], "bot");
    // Ana plays; the bot answers for Bo.
    let legal = placing(&view["rumis"]["legal"][0]);
    assert_eq!(server.act(&id, &ana, 0, legal).await.0, 200);
    server.wait_for(&id, None, |v| v["version"] == 2).await;
    // Bo's token may not act for the bot, and only Bo may take the seat back.
    let (status, answer) = server
        .act(
            &id,
            &bo,
            2,
            json!({"type": "rumis_move", "move": "D2 a1 a1"}),
        )
        .await;
    assert_eq!(status, 409);
    assert!(
        answer["error"].as_str().unwrap().contains("bot"),
        "{answer}"
    );
    let path = format!("/api/tables/{id}/seats/1/bot");
    let (status, _) = server
        .send(reqwest::Method::DELETE, &path, Some(&ana), None)
        .await;
    assert_eq!(status, 403, "Ana cannot take Bo's seat back");
    let (status, view) = server
        .send(reqwest::Method::DELETE, &path, Some(&bo), None)
        .await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["seats"][1]["kind"], "human");
    // Ana may hand her own seat to a bot at any time.
    let (status, view) = hand(ana.clone(), 0, "random").await;
    assert_eq!(status, 200, "{view}");
}

#[tokio::test]
async fn a_finished_table_keeps_its_seats() {
    let server = start(&temp_sqlite("handover-over"), 0).await;
    let (id, tokens) = server
        .create(
            json!({"game": "rummikub", "rummikub": {"turn_seconds": null},
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], "seed": 3}),
        )
        .await;
    let ana = tokens[0].clone().unwrap();
    // Ana hands herself to a bot; the bots finish the game.
    let path = format!("/api/tables/{id}/seats/0/bot");
    assert_eq!(
        server.post_as(&path, &ana, r#"{"bot": "greedy"}"#).await.0,
        200
    );
    server.wait_for(&id, None, |v| v["over"] == true).await;
    let (status, answer) = server
        .send(reqwest::Method::DELETE, &path, Some(&ana), None)
        .await;
    assert_eq!((status, answer["code"].as_str()), (409, Some("game_over")));
    let path = format!("/api/tables/{id}/seats/1/bot");
    let (status, answer) = server.post_as(&path, &ana, r#"{"bot": "random"}"#).await;
    assert_eq!((status, answer["code"].as_str()), (409, Some("game_over")));
}

async fn hostile_names_and_ids(server: &TestServer) {
    // A NUL byte in a table id, a path or a name never reaches the database.
    for path in [
        "/api/tables/t%00abc",
        "/api/tables/%00",
        "/api/tables/t0123456789ab%00",
    ] {
        let (status, body) = server.get(path).await;
        assert_eq!(status, 404, "{path}: {body}");
        assert_eq!(body["code"], "no_table");
    }
    let (status, body) = server
        .post(
            "/api/tables",
            &json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2},
                "seats": [{"kind": "human", "name": "Ana\u{0}"}, {"kind": "human"}]})
            .to_string(),
        )
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("bad_name")),
        "{body}"
    );
    let open = server
        .create_raw(rumis(json!([{"kind": "human"}, {"kind": "open"}])))
        .await;
    // The lobby lists it, with its seats, from one query on either database.
    let (_, lobby) = server.get("/api/tables").await;
    let line = lobby["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == open["id"])
        .expect("the open table is in the lobby")
        .clone();
    assert_eq!(line["open_seats"], json!([1]));
    assert_eq!(line["seats"].as_array().unwrap().len(), 2);
    assert_eq!(line["settings"]["rumis"]["scenario"], "chullpa");
    let (status, body) = server
        .post(
            &format!("/api/tables/{}/join", open["id"].as_str().unwrap()),
            &json!({"name": "\u{0}\u{0}"}).to_string(),
        )
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("bad_name")),
        "{body}"
    );
    let long = "x".repeat(41);
    let (status, body) = server
        .post(
            &format!("/api/tables/{}/join", open["id"].as_str().unwrap()),
            &json!({ "name": long }).to_string(),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    // A token that is not one of ours is refused as forged, without a lookup.
    let (status, body) = server
        .get_as(
            &format!("/api/tables/{}", open["id"].as_str().unwrap()),
            &"x".repeat(32),
        )
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("bad_token")),
        "{body}"
    );
}

#[tokio::test]
async fn hostile_names_and_ids_are_refused_before_sqlite() {
    hostile_names_and_ids(&start(&temp_sqlite("hostile"), 0).await).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn hostile_names_and_ids_are_refused_before_postgresql() {
    hostile_names_and_ids(&start(&temp_postgres("hostile").await, 0).await).await;
}

#[tokio::test]
async fn one_address_cannot_create_tables_without_limit() {
    let options = HubOptions {
        tables_per_minute_per_address: 3,
        max_open_tables_per_address: 100,
        ..public(Duration::from_secs(60))
    };
    let server = start_with(&temp_sqlite("rate"), options).await;
    let body = rumis(json!([{"kind": "human"}, {"kind": "bot"}])).to_string();
    for _ in 0..3 {
        assert_eq!(server.post("/api/tables", &body).await.0, 200);
    }
    let (status, answer) = server.post("/api/tables", &body).await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (429, Some("too_many_tables_per_minute"))
    );

    let options = HubOptions {
        tables_per_minute_per_address: 0,
        max_open_tables_per_address: 2,
        ..public(Duration::from_secs(60))
    };
    let server = start_with(&temp_sqlite("cap"), options).await;
    for _ in 0..2 {
        assert_eq!(server.post("/api/tables", &body).await.0, 200);
    }
    let (status, answer) = server.post("/api/tables", &body).await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (429, Some("too_many_open_tables"))
    );
}

#[tokio::test]
async fn idle_tables_leave_memory_and_come_back_on_demand() {
    let options = HubOptions {
        max_loaded_tables: 3,
        idle_after: Duration::ZERO,
        max_open_tables_per_address: 0,
        tables_per_minute_per_address: 0,
        ..public(Duration::from_secs(60))
    };
    let db = temp_sqlite("lazy");
    let server = start_with(&db, options.clone()).await;
    let mut ids = Vec::new();
    for _ in 0..8 {
        let created = server
            .create_raw(rumis(json!([{"kind": "human"}, {"kind": "human"}])))
            .await;
        ids.push(created["id"].as_str().unwrap().to_string());
    }
    let hub = &server.running.hub;
    assert!(
        hub.loaded_tables() <= 3,
        "{} tables loaded",
        hub.loaded_tables()
    );
    // Every table still answers, loaded again from the database.
    for id in &ids {
        assert_eq!(server.view(id, None).await["id"], id.as_str());
    }
    assert!(hub.loaded_tables() <= 3);
    // After a restart, tables where nothing is due stay on disk until asked for.
    drop(server);
    let server = start_with(&db, options).await;
    assert_eq!(server.running.hub.loaded_tables(), 0);
    assert_eq!(server.view(&ids[0], None).await["status"], "waiting");
}

#[tokio::test]
async fn errors_are_json_with_a_code() {
    let server = start(&temp_sqlite("json-errors"), 0).await;
    let (status, body) = server.post("/api/tables", "{not json").await;
    assert_eq!(status, 400);
    assert_eq!(body["code"], "malformed_request");
    let (status, body) = server.get("/api/nothing/here").await;
    assert_eq!((status, body["code"].as_str()), (404, Some("no_route")));
    let (status, body) = server
        .post(
            "/api/tables",
            &json!({"game": "chess", "seats": []}).to_string(),
        )
        .await;
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().contains("chess"), "{body}");
}

#[tokio::test]
async fn a_player_names_their_own_seat_and_no_other() {
    let server = start(&temp_sqlite("rename"), 0).await;
    let (id, tokens) = server
        .create(rumis(
            json!([{"kind": "human", "name": "Ana"}, {"kind": "human"}]),
        ))
        .await;
    let (ana, bo) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    let path = format!("/api/tables/{id}/seats/1/name");
    let (status, view) = server.post_as(&path, &bo, r#"{"name": "  Bo  "}"#).await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["seats"][1]["name"], "Bo");
    assert_eq!(server.view(&id, None).await["seats"][1]["name"], "Bo");
    let (status, answer) = server.post_as(&path, &ana, r#"{"name": "Eve"}"#).await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (403, Some("not_your_seat"))
    );
    let (status, answer) = server.post_as(&path, &bo, r#"{"name": "B\u0000o"}"#).await;
    assert_eq!((status, answer["code"].as_str()), (400, Some("bad_name")));
    let (status, _) = server.post_as(&path, &bo, r#"{"name": "   "}"#).await;
    assert_eq!(status, 400);
    assert_eq!(
        server.view(&id, None).await["seats"][1]["name"],
        "Bo",
        "refusals change nothing"
    );
}

#[tokio::test]
async fn people_deal_the_next_round_themselves() {
    let server = start(&temp_sqlite("next-round"), 0).await;
    let (id, tokens) = server
        .create(
            json!({"game": "rummikub", "rummikub": {"turn_seconds": null, "rounds": 2},
            "seats": [{"kind": "human"}, {"kind": "human"}]}),
        )
        .await;
    let tokens: Vec<String> = tokens.into_iter().map(Option::unwrap).collect();
    // Both draw (or pass) until the pool runs out and the round ends (K8).
    let mut view = server.view(&id, None).await;
    while view["rummikub"]["round_over"].is_null() {
        let seat = view["to_move"].as_u64().unwrap() as usize;
        let version = view["version"].as_u64().unwrap();
        let (status, after) = server
            .act(&id, &tokens[seat], version, json!({"type": "draw"}))
            .await;
        assert_eq!(status, 200, "{after}");
        view = after;
        assert!(version < 300, "the round never ended");
    }
    assert_eq!(view["over"], false, "two rounds: the game goes on");
    assert!(view["to_move"].is_null(), "nobody acts between rounds");
    // Nothing deals it by itself at a table of people (no driver is due); either
    // player may.
    let due = server.running.hub.store.due_before(i64::MAX).await.unwrap();
    assert!(due.iter().all(|(table, _)| *table != id), "{due:?}");
    let version = server.view(&id, None).await["version"].as_u64().unwrap();
    assert_eq!(version, view["version"].as_u64().unwrap());
    let (status, dealt) = server
        .act(&id, &tokens[1], version, json!({"type": "next_round"}))
        .await;
    assert_eq!(status, 200, "{dealt}");
    assert_eq!(dealt["rummikub"]["round"], 2);
    assert!(dealt["rummikub"]["round_over"].is_null());
    assert_eq!(dealt["rummikub"]["last_event"]["code"], "round_dealt");
    assert_eq!(dealt["rummikub"]["rack"].as_array().unwrap().len(), 14);
    // A second deal of the same round is refused.
    let (status, refused) = server
        .act(&id, &tokens[0], version + 1, json!({"type": "next_round"}))
        .await;
    assert_eq!(status, 409, "{refused}");
}

/// The table of issue #45: Ana creates a Rummikub table for herself and Bo and gets
/// Bo's invite link. Once Bo has taken his seat with it, the link is spent: Ana (who
/// still has it) can neither read Bo's rack nor play, rename or hand over his seat.
async fn the_creator_keeps_no_token_of_an_invited_seat(server: &TestServer) {
    let created = server
        .create_raw(rummikub(
            json!([{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bo"}]),
        ))
        .await;
    let id = created["id"].as_str().unwrap();
    let invite = token_of_link(created["seats"][1]["invite"].as_str().unwrap());
    let view_path = format!("/api/tables/{id}");
    let claim_path = format!("/api/tables/{id}/claim");
    // Before Bo comes, the link is no seat token either: it only takes the seat.
    let (status, body) = server.get_as(&view_path, &invite).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("claim_needed")),
        "{body}"
    );
    assert!(
        body.get("rummikub").is_none(),
        "no view for an invite: {body}"
    );

    // Bo opens his link: the client takes the seat and gets the seat's own token.
    let (status, grant) = server.post_as(&claim_path, &invite, "").await;
    assert_eq!(status, 200, "{grant}");
    assert_eq!(grant["seat"], 1);
    let bo = grant["token"].as_str().unwrap().to_string();
    assert_ne!(bo, invite);
    assert!(
        !created.to_string().contains(&bo),
        "the creator's answer carries no token that plays Bo's seat"
    );
    let mine = server.view(id, Some(&bo)).await;
    assert_eq!(mine["you"], 1);
    assert_eq!(mine["status"], "playing");
    assert_eq!(mine["rummikub"]["rack"].as_array().unwrap().len(), 14);

    // The creator's copy of the link: refused everywhere, saying the seat is taken.
    let (status, body) = server.get_as(&view_path, &invite).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("seat_taken")),
        "{body}"
    );
    assert!(body.get("rummikub").is_none(), "not Bo's rack: {body}");
    assert!(body["error"]
        .as_str()
        .unwrap()
        .contains("this seat is taken"));
    let draw = json!({"version": 0, "action": {"type": "draw"}}).to_string();
    let refused = [
        server
            .post_as(&format!("{view_path}/actions"), &invite, &draw)
            .await,
        server
            .post_as(
                &format!("{view_path}/seats/1/name"),
                &invite,
                r#"{"name": "Bob"}"#,
            )
            .await,
        server
            .post_as(
                &format!("{view_path}/seats/1/bot"),
                &invite,
                r#"{"bot": "random"}"#,
            )
            .await,
        server.get_as(&format!("{view_path}/hint"), &invite).await,
    ];
    for (status, body) in refused {
        assert_eq!(
            (status, body["code"].as_str()),
            (409, Some("seat_taken")),
            "{body}"
        );
    }
    let mut socket = server.socket(id, Some(&invite)).await;
    let said: Value = match socket.next().await.unwrap().unwrap() {
        tokio_tungstenite::tungstenite::Message::Text(text) => serde_json::from_str(&text).unwrap(),
        other => panic!("{other:?}"),
    };
    assert_eq!(said["code"], "seat_taken", "{said}");
    // A second use of the link takes nothing.
    let (status, body) = server.post_as(&claim_path, &invite, "").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("seat_taken")),
        "{body}"
    );
    // Bo's seat is still his, untouched.
    let mine = server.view(id, Some(&bo)).await;
    assert_eq!(
        (mine["you"].as_u64(), mine["seats"][1]["name"].as_str()),
        (Some(1), Some("Bo"))
    );
    assert_eq!(mine["seats"][1]["kind"], "human");
}

#[tokio::test]
async fn the_creator_keeps_no_token_of_an_invited_seat_sqlite() {
    let server = start(&temp_sqlite("spent-invite"), 0).await;
    the_creator_keeps_no_token_of_an_invited_seat(&server).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn the_creator_keeps_no_token_of_an_invited_seat_postgresql() {
    let server = start(&temp_postgres("spent_invite").await, 0).await;
    the_creator_keeps_no_token_of_an_invited_seat(&server).await;
}

/// Two servers on one database, each with the table loaded, both given the same invite
/// link at once: exactly one takes the seat, the other says it is taken.
async fn one_invite_link_takes_one_seat_across_nodes(db: &str) {
    let a = start(db, 0).await;
    let b = start(db, 0).await;
    let created = a
        .create_raw(rumis(json!([{"kind": "human"}, {"kind": "human"}])))
        .await;
    let id = created["id"].as_str().unwrap();
    let invite = token_of_link(created["seats"][1]["invite"].as_str().unwrap());
    assert_eq!(b.view(id, None).await["seats"][1]["claimed"], false);
    let path = format!("/api/tables/{id}/claim");
    let (first, second) =
        tokio::join!(a.post_as(&path, &invite, ""), b.post_as(&path, &invite, ""));
    let mut answers = [first, second];
    answers.sort_by_key(|(status, _)| *status);
    assert_eq!(answers[0].0, 200, "{answers:?}");
    assert_eq!(
        (answers[1].0, answers[1].1["code"].as_str()),
        (409, Some("seat_taken")),
        "{answers:?}"
    );
    let token = answers[0].1["token"].as_str().unwrap();
    // The winner's token is the seat's on both servers (each reads the database).
    let fresh = start(db, 0).await;
    assert_eq!(fresh.view(id, Some(token)).await["you"], 1);
}

#[tokio::test]
async fn one_invite_link_takes_one_seat_across_nodes_sqlite() {
    one_invite_link_takes_one_seat_across_nodes(&temp_sqlite("invite-race")).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn one_invite_link_takes_one_seat_across_nodes_postgresql() {
    one_invite_link_takes_one_seat_across_nodes(&temp_postgres("invite_race").await).await;
}

#[tokio::test]
async fn one_address_takes_one_open_seat_per_table_and_a_few_in_all() {
    let db = temp_sqlite("seat-caps");
    let options = HubOptions {
        max_open_seats_per_address: 2,
        max_open_seats_per_table_per_address: 1,
        max_open_tables_per_address: 0,
        tables_per_minute_per_address: 0,
        ..public(Duration::from_secs(60))
    };
    let server = start_with(&db, options.clone()).await;
    let open = || {
        rummikub(json!([{"kind": "human"}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}]))
    };
    let with_bot = rumis(json!([{"kind": "open"}, {"kind": "bot", "bot": "greedy"}]));
    let mut ids = Vec::new();
    for body in [open(), with_bot, open()] {
        ids.push(
            server.create_raw(body).await["id"]
                .as_str()
                .unwrap()
                .to_string(),
        );
    }
    let join = |id: &str| {
        let path = format!("/api/tables/{id}/join");
        let server = &server;
        async move { server.post(&path, "{}").await }
    };
    // The lobby says how long each seat has been open.
    let (_, lobby) = server.get("/api/tables").await;
    let line = lobby["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == ids[0])
        .unwrap()
        .clone();
    assert_eq!(
        line["seats"][1]["open_since_ms"], line["created_ms"],
        "{line}"
    );
    assert!(
        line["seats"][0]["open_since_ms"].is_null(),
        "the creator's seat is not open"
    );

    // One address, one open seat at a table: the attack took all of them.
    let (status, first) = join(&ids[0]).await;
    assert_eq!(status, 200, "{first}");
    let (status, body) = join(&ids[0]).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("already_seated")),
        "{body}"
    );
    let (_, lobby) = server.get("/api/tables").await;
    let line = lobby["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == ids[0])
        .unwrap()
        .clone();
    assert_eq!(
        line["open_seats"],
        json!([2, 3]),
        "two seats stay open for others"
    );
    assert!(
        line["seats"][1]["open_since_ms"].is_null(),
        "a taken seat is open no more"
    );
    // And at most two across unfinished tables.
    let (status, second) = join(&ids[1]).await;
    assert_eq!(status, 200, "{second}");
    let (status, body) = join(&ids[2]).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("too_many_seats")),
        "{body}"
    );

    // The caps hold across a restart (the joining address is stored).
    drop(server);
    let server = start_with(&db, options).await;
    let (status, body) = server
        .post(&format!("/api/tables/{}/join", ids[0]), "{}")
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("already_seated")),
        "{body}"
    );
    let (status, body) = server
        .post(&format!("/api/tables/{}/join", ids[2]), "{}")
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("too_many_seats")),
        "{body}"
    );
    // A seat at a finished table no longer counts: the second table's seat goes to a
    // bot, the bots finish the game, and the address may join again.
    let path = format!("/api/tables/{}/seats/0/bot", ids[1]);
    let token = second["token"].as_str().unwrap();
    let (status, body) = server.post_as(&path, token, r#"{"bot": "greedy"}"#).await;
    assert_eq!(status, 200, "{body}");
    server.wait_for(&ids[1], None, |v| v["over"] == true).await;
    let (status, body) = server
        .post(&format!("/api/tables/{}/join", ids[2]), "{}")
        .await;
    assert_eq!(status, 200, "{body}");
}

#[tokio::test]
async fn no_name_hides_text_or_passes_for_another_seats() {
    let server = start(&temp_sqlite("look-alikes"), 0).await;
    let create = |seats: Value| {
        let server = &server;
        async move { server.post("/api/tables", &rumis(seats).to_string()).await }
    };
    // Characters that reorder or hide text, each refused with its reason.
    for (name, why) in [
        ("Ana\u{202E}oB", "name_bidi"),
        ("\u{2066}Ana", "name_bidi"),
        ("A\u{200B}na", "name_invisible"),
        ("Ana\u{FEFF}", "name_invisible"),
        ("Ana\u{E0041}", "name_tag"),
    ] {
        let (status, body) =
            create(json!([{"kind": "human", "name": name}, {"kind": "human"}])).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (400, Some("bad_name")),
            "{name:?}: {body}"
        );
        assert_eq!(body["why"]["code"], why, "{name:?}: {body}");
    }
    // Two seats that look alike (case, Cyrillic letters, full-width forms).
    for other in ["ana", "Аna", "Ａｎａ", "ANA"] {
        let (status, body) =
            create(json!([{"kind": "human", "name": "Ana"}, {"kind": "human", "name": other}]))
                .await;
        assert_eq!(
            (status, body["code"].as_str()),
            (409, Some("name_taken")),
            "{other}: {body}"
        );
    }
    // Default names step aside: two random bots, and a "Player 2" the creator chose.
    let (status, created) = create(json!([
        {"kind": "human", "name": "player 2"}, {"kind": "open"}
    ]))
    .await;
    assert_eq!(status, 200, "{created}");
    assert_eq!(created["seats"][1]["name"], "Player 2 2");
    let bots = server
        .create_raw(rummikub(
            json!([{"kind": "human", "name": "Ana"}, {"kind": "bot"}, {"kind": "bot"}]),
        ))
        .await;
    assert_eq!(bots["seats"][1]["name"], "random bot");
    assert_eq!(bots["seats"][2]["name"], "random bot 2");

    // Joining and renaming keep to the same rules.
    let id = created["id"].as_str().unwrap();
    let join = format!("/api/tables/{id}/join");
    let (status, body) = server
        .post(&join, &json!({"name": "PLAYER 2"}).to_string())
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("name_taken")),
        "{body}"
    );
    let (status, body) = server
        .post(&join, &json!({"name": "Bo\u{200D}"}).to_string())
        .await;
    assert_eq!(
        (status, body["why"]["code"].as_str()),
        (400, Some("name_invisible")),
        "{body}"
    );
    let (status, bo) = server.post(&join, &json!({"name": "Bo"}).to_string()).await;
    assert_eq!(status, 200, "{bo}");
    let ana = created["you"]["token"].as_str().unwrap();
    let rename = format!("/api/tables/{id}/seats/0/name");
    let (status, body) = server.post_as(&rename, ana, r#"{"name": "B0"}"#).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("name_taken")),
        "{body}"
    );
    let (status, body) = server
        .post_as(&rename, ana, &json!({"name": "An\u{202E}a"}).to_string())
        .await;
    assert_eq!(
        (status, body["why"]["code"].as_str()),
        (400, Some("name_bidi")),
        "{body}"
    );
    let view = server.view(id, None).await;
    assert_eq!(
        (
            view["seats"][0]["name"].as_str(),
            view["seats"][1]["name"].as_str()
        ),
        (Some("player 2"), Some("Bo")),
        "refusals change nothing"
    );
    // A new name may differ from one's own old name only in case.
    let (status, body) = server
        .post_as(&rename, ana, r#"{"name": "Player 2"}"#)
        .await;
    assert_eq!(status, 200, "{body}");
}

/// A table invited before links were spent (its link's token was the seat's token):
/// after the upgrade the old link still takes the seat, once, for a new token.
#[tokio::test]
async fn an_invite_sent_before_the_upgrade_still_takes_its_seat_once() {
    use sqlx::Executor;
    let db = temp_sqlite("old-invite");
    let (id, link) = {
        let server = start(&db, 0).await;
        let created = server
            .create_raw(rumis(json!([{"kind": "human"}, {"kind": "human"}])))
            .await;
        let link = token_of_link(created["seats"][1]["invite"].as_str().unwrap());
        (created["id"].as_str().unwrap().to_string(), link)
    };
    // The database as the server before this change left it (before numbered
    // migrations and accounts too: no `_sqlx_migrations`, no account tables or columns).
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&db).await.unwrap();
    for statement in [
        "DROP TABLE _sqlx_migrations",
        "DROP TABLE rumi_sessions",
        "DROP TABLE rumi_accounts",
        "DROP TABLE rumi_recorded",
        "DROP TABLE rumi_results",
        "DROP TABLE rumi_ratings",
        "DROP TABLE rumi_passkeys",
        "DROP TABLE rumi_ceremonies",
        "DROP TABLE rumi_reviews",
        "DROP TABLE rumi_solo_bests",
        "DROP TABLE rumi_devices",
        "DROP TABLE rumi_sign_in_limits",
        "DROP TABLE rumi_blocks",
        "DROP TABLE rumi_rated_positions",
        "DROP TABLE rumi_solo_attempts",
        "ALTER TABLE rumi_tables DROP COLUMN cancelled_ms",
        "DROP INDEX rumi_seats_account",
        "ALTER TABLE rumi_seats DROP COLUMN account_id",
        "UPDATE rumi_seats SET token = invite WHERE invite <> ''",
        "DROP INDEX rumi_seats_joiner",
        "ALTER TABLE rumi_seats DROP COLUMN invite",
        "ALTER TABLE rumi_seats DROP COLUMN joiner",
    ] {
        pool.execute(statement).await.unwrap();
    }
    pool.close().await;

    let server = start(&db, 0).await;
    let path = format!("/api/tables/{id}/claim");
    let (status, grant) = server.post_as(&path, &link, "").await;
    assert_eq!(status, 200, "{grant}");
    let token = grant["token"].as_str().unwrap();
    assert_ne!(token, link);
    assert_eq!(server.view(&id, Some(token)).await["status"], "playing");
    let (status, body) = server.get_as(&format!("/api/tables/{id}"), &link).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("seat_taken")),
        "{body}"
    );
}

/// `/api/meta` tells the hand-over time the server runs with, which the client shows
/// before a seat may be handed to a bot.
#[tokio::test]
async fn the_meta_tells_the_hand_over_time_the_server_runs_with() {
    for seconds in [150, 60] {
        let server = start_with(
            &temp_sqlite(&format!("meta-handover-{seconds}")),
            public(Duration::from_secs(seconds)),
        )
        .await;
        let (status, meta) = server.get("/api/meta").await;
        assert_eq!(status, 200, "{meta}");
        assert_eq!(meta["limits"]["handover_after_seconds"], seconds, "{meta}");
    }
}
