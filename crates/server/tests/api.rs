//! The server over real HTTP and WebSocket connections: whole games, refusals that
//! change nothing, hidden information, the turn clock, seats handed to bots, the lobby.

mod common;

use std::collections::BTreeSet;
use std::time::Duration;

use common::{placing, start, temp_postgres, temp_sqlite, TestServer};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

fn rumis_table(seats: Value) -> Value {
    json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2}, "seats": seats, "seed": 7})
}

fn rummikub_table(seats: Value, turn_seconds: Value) -> Value {
    json!({"game": "rummikub", "rummikub": {"rules": "current", "turn_seconds": turn_seconds}, "seats": seats, "seed": 11})
}

#[tokio::test]
async fn a_whole_rumis_game_against_the_greedy_bot_ends_with_a_result_and_replays() {
    whole_rumis_game(&temp_sqlite("whole-rumis")).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn the_same_game_runs_on_postgresql() {
    whole_rumis_game(&temp_postgres("whole_rumis").await).await;
}

async fn whole_rumis_game(db: &str) {
    let server = start(db, 0).await;
    let (id, tokens) = server
        .create(rumis_table(
            json!([{"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "greedy"}]),
        ))
        .await;
    let token = tokens[0].clone().unwrap();
    let mut moves_made = 0;
    loop {
        let view = server
            .wait_for(&id, Some(&token), |v| {
                v["over"] == true || v["to_move"] == 0
            })
            .await;
        if view["over"] == true {
            let result = &view["result"];
            assert!(!result["winners"].as_array().unwrap().is_empty());
            assert_eq!(result["scores"].as_array().unwrap().len(), 2);
            assert!(result["text"].as_str().unwrap().contains("win"));
            break;
        }
        // The seat to move gets its legal moves; play the first one.
        let legal = view["rumis"]["legal"].as_array().unwrap();
        assert!(!legal.is_empty(), "a seat that is to move can place");
        let version = view["version"].as_u64().unwrap();
        let (status, after) = server.act(&id, &token, version, placing(&legal[0])).await;
        assert_eq!(status, 200, "{after}");
        assert_eq!(after["version"].as_u64().unwrap(), version + 1);
        moves_made += 1;
    }
    assert!(moves_made >= 5);
    let (status, replay) = server.get(&format!("/api/tables/{id}/replay")).await;
    assert_eq!(status, 200);
    let steps = replay["steps"].as_array().unwrap();
    // Racks are Rummikub's: a Rumis replay has none.
    assert!(replay.get("racks").is_none());
    let last = steps.last().unwrap();
    let final_view = server.view(&id, None).await;
    assert_eq!(
        steps.len() as u64,
        final_view["version"].as_u64().unwrap() + 1
    );
    assert_eq!(last["rumis"]["cubes"], final_view["rumis"]["cubes"]);
    // The record replays in the engine to the same final score.
    assert_eq!(
        record_scores(&replay, "chullpa"),
        final_view["result"]["scores"]
    );
}

/// The players' final scores of a replay's record, replayed by the rules engine.
fn record_scores(replay: &Value, scenario: &str) -> Value {
    let record = rumis::record::Record::parse(replay["record"].as_str().unwrap()).unwrap();
    let position = record
        .replay(rumis::Scenario::builtin(scenario).unwrap())
        .expect("the stored game replays in the engine");
    let scores: Vec<i64> = position
        .score()
        .player_points
        .iter()
        .map(|&p| i64::from(p))
        .collect();
    json!(scores)
}

/// A spectator's view without the seats' presence (who was seen when), which a
/// request of a player updates even when it is refused.
async fn game_state(server: &TestServer, id: &str) -> Value {
    let mut view = server.view(id, None).await;
    for seat in view["seats"].as_array_mut().unwrap() {
        seat.as_object_mut().unwrap().remove("handover_ms");
        seat.as_object_mut().unwrap().remove("away_since_ms");
    }
    view
}

/// Sends a refused request and checks that the table did not change.
async fn refused(server: &TestServer, id: &str, token: &str, body: &str, status: u16, says: &str) {
    let before = game_state(server, id).await;
    let (got, answer) = server
        .post_as(&format!("/api/tables/{id}/actions"), token, body)
        .await;
    assert_eq!(got, status, "{body} → {answer}");
    let message = answer["error"].as_str().unwrap_or_default();
    assert!(
        message.contains(says),
        "{body}: `{message}` should say `{says}`"
    );
    assert_eq!(
        game_state(server, id).await,
        before,
        "a refused action changed the table"
    );
}

#[tokio::test]
async fn bad_actions_get_a_clear_error_and_change_nothing() {
    let server = start(&temp_sqlite("refusals"), 0).await;
    let (id, tokens) = server
        .create(rumis_table(json!([{"kind": "human"}, {"kind": "human"}])))
        .await;
    let (first, second) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    let view = server.view(&id, Some(&first)).await;
    let legal = placing(&view["rumis"]["legal"][0]);
    let good = json!({"version": 0, "action": legal}).to_string();
    refused(&server, &id, &second, &good, 409, "turn").await;
    refused(
        &server,
        &id,
        "0123456789abcdef0123456789abcdef",
        &good,
        403,
        "token",
    )
    .await;
    refused(&server, &id, "", &good, 403, "seat token").await;
    refused(
        &server,
        &id,
        &first,
        &json!({"version": 3, "action": legal}).to_string(),
        409,
        "stale",
    )
    .await;
    refused(&server, &id, &first, "{not json", 400, "malformed").await;
    // A body is an object: not the fields of one in an array.
    refused(
        &server,
        &id,
        &first,
        r#"[0, {"type": "rumis_move", "move": "X9 a1"}]"#,
        400,
        "must be a JSON object",
    )
    .await;
    refused(
        &server,
        &id,
        &first,
        r#"{"version": 0, "action": {"type": "rumis_move", "move": "X9 a1"}}"#,
        400,
        "unknown stone",
    )
    .await;
    // Two cubes of a domino on top of each other, but on level 2: a hole under it (R3).
    refused(
        &server,
        &id,
        &first,
        r#"{"version": 0, "action": {"type": "rumis_place", "stone": "D2", "cells": [[0,0,1],[0,0,2]]}}"#,
        409,
        "hole",
    )
    .await;
    refused(
        &server,
        &id,
        &first,
        r#"{"version": 0, "action": {"type": "rumis_place", "stone": "D2", "cells": "a1"}}"#,
        400,
        "cells",
    )
    .await;
    // Unknown tables and routes are 404.
    assert_eq!(server.get("/api/tables/nope").await.0, 404);
    assert_eq!(server.get("/api/nothing").await.0, 404);
    // The first player's good move still works afterwards.
    let (status, _) = server
        .post_as(&format!("/api/tables/{id}/actions"), &first, &good)
        .await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn the_placement_check_explains_why_a_ghost_is_red() {
    let server = start(&temp_sqlite("check"), 0).await;
    let (id, tokens) = server
        .create(rumis_table(json!([{"kind": "human"}, {"kind": "human"}])))
        .await;
    let token = tokens[0].clone().unwrap();
    let check = |body: Value| {
        let server = &server;
        let path = format!("/api/tables/{id}/check");
        let token = token.clone();
        async move { server.post_as(&path, &token, &body.to_string()).await }
    };
    let (_, ok) = check(
        json!({"type": "rumis_place", "stone": "I4", "cells": [[0,0,0],[1,0,0],[2,0,0],[3,0,0]]}),
    )
    .await;
    assert_eq!(ok, json!({"legal": true}));
    let (_, off) = check(
        json!({"type": "rumis_place", "stone": "I4", "cells": [[2,0,0],[3,0,0],[4,0,0],[5,0,0]]}),
    )
    .await;
    assert_eq!(off["legal"], false);
    assert!(off["reason"].as_str().unwrap().contains("outside"), "{off}");
}

/// The tile lists a view may carry: the table, and the viewer's own rack.
fn rummikub_keys(view: &Value) -> BTreeSet<String> {
    view["rummikub"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect()
}

#[tokio::test]
async fn a_rummikub_rack_reaches_only_its_own_seat_over_http_and_websocket() {
    let server = start(&temp_sqlite("hidden"), 0).await;
    let (id, tokens) = server
        .create(rummikub_table(
            json!([{"kind": "human"}, {"kind": "human"}]),
            Value::Null,
        ))
        .await;
    let (a, b) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    let view_a = server.view(&id, Some(&a)).await;
    let view_b = server.view(&id, Some(&b)).await;
    let spectator = server.view(&id, None).await;
    assert_eq!(view_a["rummikub"]["rack"].as_array().unwrap().len(), 14);
    assert_eq!(view_b["rummikub"]["rack"].as_array().unwrap().len(), 14);
    assert_eq!(spectator["rummikub"]["rack"], Value::Null);
    // No other field carries tiles: a new field would have to be added here knowingly.
    let expected: BTreeSet<String> = [
        "rules",
        "rack",
        "rack_sizes",
        "melded",
        "pool_size",
        "table",
        "round",
        "rounds",
        "totals",
        "round_over",
        "can_claim_redeal",
        "last",
        "last_event",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    assert_eq!(rummikub_keys(&view_a), expected);
    assert_eq!(rummikub_keys(&spectator), expected);

    // Seat b and a spectator watch over WebSocket while seat a draws.
    let mut socket_b = server.socket(&id, Some(&b)).await;
    let mut socket_s = server.socket(&id, None).await;
    let current = view_a["to_move"].as_u64().unwrap();
    let (mover, mover_view) = if current == 0 {
        (&a, &view_a)
    } else {
        (&b, &view_b)
    };
    let (status, after) = server.act(&id, mover, 0, json!({"type": "draw"})).await;
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["rummikub"]["rack"].as_array().unwrap().len(), 15);
    assert_eq!(
        after["rummikub"]["last"].as_str().unwrap(),
        format!("Player {} drew a tile", current + 1)
    );
    let drawn: Vec<&Value> = after["rummikub"]["rack"]
        .as_array()
        .unwrap()
        .iter()
        .collect();
    assert!(mover_view["rummikub"]["rack"].as_array().unwrap().len() < drawn.len());

    for (socket, own_rack) in [
        (&mut socket_b, Some(view_b["rummikub"]["rack"].clone())),
        (&mut socket_s, None),
    ] {
        let mut saw_version_1 = false;
        while !saw_version_1 {
            let frame = tokio::time::timeout(Duration::from_secs(5), socket.next())
                .await
                .expect("a state message")
                .unwrap()
                .unwrap();
            let message: Value = serde_json::from_str(frame.to_text().unwrap()).unwrap();
            assert_eq!(message["type"], "state");
            let view = &message["view"];
            assert_eq!(rummikub_keys(view), expected);
            match &own_rack {
                // Seat b's frames carry b's rack (b drew nothing if a moved).
                Some(rack) if current == 0 => assert_eq!(&view["rummikub"]["rack"], rack),
                Some(_) => assert!(view["rummikub"]["rack"].as_array().unwrap().len() >= 14),
                None => assert_eq!(view["rummikub"]["rack"], Value::Null),
            }
            saw_version_1 = view["version"] == 1;
        }
    }

    // Acting on the socket: a stale version is refused with a message on the socket,
    // and a spectator cannot act at all.
    let stale = json!({"type": "action", "version": 0, "action": {"type": "draw"}});
    assert!(refusal_on_socket(&mut socket_b, stale)
        .await
        .contains("stale"));
    let action = json!({"type": "action", "version": 1, "action": {"type": "draw"}});
    assert!(refusal_on_socket(&mut socket_s, action)
        .await
        .contains("spectators"));
    assert_eq!(server.view(&id, None).await["version"], 1);
}

/// Sends a message on a socket and waits for the error message it gets back.
async fn refusal_on_socket<S>(socket: &mut S, message: Value) -> String
where
    S: futures_util::Stream<Item = Result<Message, tokio_tungstenite::tungstenite::Error>>
        + futures_util::Sink<Message>
        + Unpin,
    <S as futures_util::Sink<Message>>::Error: std::fmt::Debug,
{
    socket
        .send(Message::Text(message.to_string().into()))
        .await
        .unwrap();
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(5), socket.next())
            .await
            .expect("an answer on the socket")
            .unwrap()
            .unwrap();
        let message: Value = serde_json::from_str(frame.to_text().unwrap()).unwrap();
        if message["type"] == "error" {
            return message["message"].as_str().unwrap().to_string();
        }
    }
}

#[tokio::test]
async fn the_server_clock_times_out_a_slow_turn_with_three_penalty_tiles() {
    // K7: a player who has not finished in time draws three penalty tiles.
    let server = start(&temp_sqlite("clock"), 0).await;
    let (id, tokens) = server
        .create(rummikub_table(
            json!([{"kind": "human"}, {"kind": "human"}]),
            json!(1),
        ))
        .await;
    let first = server.view(&id, None).await;
    let slow = first["to_move"].as_u64().unwrap() as usize;
    let deadline = first["deadline_ms"].as_i64().expect("the clock runs");
    assert_eq!(deadline - server.clock().now_ms(), 1000, "a 1 s turn");
    let token = tokens[slow].clone().unwrap();
    // A client cannot time a turn out itself, nor before the time is up.
    let (status, answer) = server.act(&id, &token, 0, json!({"type": "timeout"})).await;
    assert_eq!(status, 409, "{answer}");
    server.clock().advance(Duration::from_millis(999));
    assert_eq!(server.view(&id, None).await["version"], 0);
    server.clock().advance(Duration::from_millis(1));
    let after = server
        .wait_for(&id, Some(&token), |v| v["version"] == 1)
        .await;
    assert_eq!(after["rummikub"]["rack"].as_array().unwrap().len(), 17);
    assert!(after["rummikub"]["last"]
        .as_str()
        .unwrap()
        .contains("ran out of time"));
    assert_ne!(after["to_move"].as_u64().unwrap() as usize, slow);
}

#[tokio::test]
async fn creating_a_table_with_bad_settings_is_refused_with_the_reason() {
    let server = start(&temp_sqlite("create"), 0).await;
    for (body, says) in [
        (
            json!({"game": "rumis", "rumis": {"scenario": "atlantis", "players": 2}, "seats": []}),
            "unknown scenario",
        ),
        (
            json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2}, "seats": [{"kind": "human"}]}),
            "2 seats",
        ),
        (
            json!({"game": "rummikub", "rummikub": {"rules": "new"}, "seats": [{"kind": "human"}, {"kind": "human"}]}),
            "preset",
        ),
        (
            json!({"game": "rummikub", "seats": [{"kind": "human"}]}),
            "Rummikub is played by 2 to 4",
        ),
        (
            json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2}, "seats": [{"kind": "human"}, {"kind": "robot"}]}),
            "unknown variant `robot`",
        ),
        (json!({"game": "chess", "seats": []}), "malformed"),
    ] {
        let (status, answer) = server.post("/api/tables", &body.to_string()).await;
        assert_eq!(status, 400, "{body}: {answer}");
        let message = answer["error"].as_str().unwrap();
        assert!(
            message.contains(says),
            "{body}: `{message}` should say `{says}`"
        );
    }
    assert!(server.get("/api/tables").await.1["tables"]
        .as_array()
        .unwrap()
        .is_empty());
}

#[tokio::test]
async fn every_route_in_the_openapi_document_is_served() {
    let server = start(&temp_sqlite("openapi"), 0).await;
    let (status, doc) = server.get("/api/openapi.json").await;
    assert_eq!(status, 200);
    assert!(
        doc["openapi"].as_str().unwrap().starts_with("3."),
        "{}",
        doc["openapi"]
    );
    let documented: BTreeSet<(String, String)> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, ops)| {
            ops.as_object()
                .unwrap()
                .keys()
                .map(move |method| (method.clone(), path.clone()))
        })
        .collect();
    assert_eq!(documented.len(), 60, "{documented:?}");
    for (method, path) in documented {
        let path = path
            .replace("{id}", "t000000000000")
            .replace("{seat}", "0")
            .replace("{game}", "rumis")
            .replace("{step}", "0")
            .replace("{name}", "nobody")
            .replace("{pool}", "rumis_two");
        let method = reqwest::Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
        let (status, body) = server.send(method.clone(), &path, None, Some("{}")).await;
        assert_ne!(
            body["code"], "no_route",
            "{method} {path} is documented but not served"
        );
        assert_ne!(status, 405, "{method} {path} is documented but not served");
    }
}

#[tokio::test]
async fn rummikub_bots_play_whole_rounds_on_the_server() {
    // The greedy bot (the solver's most tiles) against the random bot, two rounds;
    // the server starts the second round itself, as every seat is a bot.
    let server = start(&temp_sqlite("rummikub-bots"), 0).await;
    let (id, _) = server
        .create(json!({"game": "rummikub", "rummikub": {"rounds": 2, "turn_seconds": null},
            "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}], "seed": 4}))
        .await;
    let done = server.wait_for(&id, None, |v| v["over"] == true).await;
    let totals = done["rummikub"]["totals"].as_array().unwrap();
    assert_eq!(totals.len(), 2);
    // K9: the winner of each round gains what the others lose, so totals sum to zero.
    assert_eq!(totals.iter().map(|t| t.as_i64().unwrap()).sum::<i64>(), 0);
    assert_eq!(done["rummikub"]["round"], 2);
    assert!(done["result"]["text"].as_str().unwrap().contains("win"));
    let (status, replay) = server.get(&format!("/api/tables/{id}/replay")).await;
    assert_eq!(status, 200);
    assert!(replay["record"].as_str().unwrap().contains("play ["));
    // Spectator steps of a replay carry no rack.
    assert!(replay["steps"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["rummikub"]["rack"].is_null()));
    // Once the game is over, the replay shows every seat's rack at every step: as
    // many tiles as the step's rack sizes say, 14 each at the deal.
    let steps = replay["steps"].as_array().unwrap();
    let racks = replay["racks"].as_array().expect("a finished game's racks");
    assert_eq!(racks.len(), steps.len());
    assert!(racks[0]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r.as_array().unwrap().len() == 14));
    for (step, racks) in steps.iter().zip(racks) {
        let sizes: Vec<usize> = racks
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_array().unwrap().len())
            .collect();
        let said: Vec<usize> = step["rummikub"]["rack_sizes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_u64().unwrap() as usize)
            .collect();
        assert_eq!(sizes, said, "step {}", step["version"]);
    }
}

#[tokio::test]
async fn the_dismantling_game_is_played_to_its_final_score_through_the_api() {
    // R16 on Colca: the build inside the red line, the interim score, then turns of
    // taking a stone off and rebuilding it outside, all sent as the seat's legal moves.
    let server = start(&temp_sqlite("dismantle"), 0).await;
    let (id, tokens) = server
        .create(json!({"game": "rumis", "rumis": {"scenario": "colca", "players": 2, "variant": "dismantle"},
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], "seed": 2}))
        .await;
    let token = tokens[0].clone().unwrap();
    let mut saw_removal = false;
    let view = loop {
        let view = server
            .wait_for(&id, Some(&token), |v| {
                v["over"] == true || v["to_move"] == 0
            })
            .await;
        if view["over"] == true {
            break view;
        }
        let rumis = &view["rumis"];
        assert!(rumis["red_line"].is_array(), "the red line is shown");
        saw_removal |= rumis["removing"] == true;
        let legal = rumis["legal"].as_array().unwrap();
        let version = view["version"].as_u64().unwrap();
        let (status, after) = server.act(&id, &token, version, placing(&legal[0])).await;
        assert_eq!(status, 200, "{after}");
    };
    assert!(
        saw_removal,
        "the game reached the dismantle-and-rebuild phase"
    );
    let rumis = &view["rumis"];
    assert!(rumis["interim"].is_array(), "the interim score is kept");
    let history = rumis["history"].as_array().unwrap();
    assert!(history
        .iter()
        .any(|m| m.as_str().unwrap().starts_with("x ")));
    // The record replays in the engine to the same final score.
    let (_, replay) = server.get(&format!("/api/tables/{id}/replay")).await;
    assert_eq!(record_scores(&replay, "colca"), view["result"]["scores"]);
}

#[tokio::test]
async fn meta_offers_each_board_only_the_variants_it_can_be_played_in() {
    let server = start(&temp_sqlite("meta"), 0).await;
    let (status, meta) = server.get("/api/meta").await;
    assert_eq!(status, 200);
    let scenarios = meta["rumis"]["scenarios"].as_array().unwrap();
    let board = |key: &str| scenarios.iter().find(|s| s["key"] == key).unwrap().clone();
    // R16: the dismantling game is for two players on Colca, Puncu and Apachita only.
    assert_eq!(board("colca")["variant_players"]["dismantle"], json!([2]));
    assert!(board("chullpa")["variant_players"]
        .get("dismantle")
        .is_none());
    // R15: the inverse variant is for five and six players; R10: four colours for two.
    assert_eq!(board("huaca")["variant_players"]["inverse"], json!([5, 6]));
    assert_eq!(
        board("chullpa")["variant_players"]["four-colours"],
        json!([2])
    );
    assert_eq!(board("chullpa")["variants"][0], "standard");
}

#[tokio::test]
async fn meta_gives_every_bot_its_ladder_rating_in_each_pool_it_plays() {
    let server = start(&temp_sqlite("meta-ratings"), 0).await;
    let (status, meta) = server.get("/api/meta").await;
    assert_eq!(status, 200);
    for (game, pools) in [
        ("rumis", vec!["rumis_two", "rumis_multi"]),
        ("rummikub", vec!["rummikub"]),
    ] {
        for bot in meta[game]["bots"].as_array().unwrap() {
            let ratings = bot["ratings"].as_array().unwrap();
            let named: Vec<&str> = ratings
                .iter()
                .map(|r| r["pool"].as_str().unwrap())
                .collect();
            assert_eq!(named, pools, "{game} bot {}", bot["name"]);
            for r in ratings {
                let rating = r["rating"].as_i64().unwrap();
                assert!(rating % 10 == 0 && (0..4000).contains(&rating), "{r}");
            }
        }
    }
}

#[tokio::test]
async fn a_rummikub_hint_is_the_seats_best_play_and_the_server_accepts_it() {
    let server = start(&temp_sqlite("hint"), 0).await;
    // A deal whose first player can meld from the rack (most can; look for one).
    let mut found = None;
    for seed in 1..60u64 {
        let body = json!({"game": "rummikub", "rummikub": {"rules": "current", "turn_seconds": null},
            "seats": [{"kind": "human"}, {"kind": "human"}], "seed": seed, "hints": true});
        let (id, tokens) = server.create(body).await;
        let view = server.view(&id, None).await;
        let mover = view["to_move"].as_u64().unwrap() as usize;
        let token = tokens[mover].clone().unwrap();
        let (status, hint) = server
            .get_as(&format!("/api/tables/{id}/hint"), &token)
            .await;
        assert_eq!(status, 200, "hint: {hint}");
        if !hint["play"].is_null() {
            found = Some((id, tokens, mover, hint["play"].clone()));
            break;
        }
    }
    let (id, tokens, mover, play) = found.expect("some deal lets the first player meld");
    let token = tokens[mover].clone().unwrap();
    let before = server.view(&id, Some(&token)).await;

    // The hint lays tiles of this seat's rack only, worth the initial meld (K4).
    let mut rack: Vec<String> = before["rummikub"]["rack"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect();
    let placed: Vec<String> = play["placed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect();
    for tile in &placed {
        let at = rack.iter().position(|t| t == tile);
        assert!(at.is_some(), "hint lays {tile}, not on the rack {rack:?}");
        rack.swap_remove(at.unwrap());
    }
    assert_eq!(play["tiles"].as_u64().unwrap() as usize, placed.len());
    assert!(
        play["value"].as_i64().unwrap() >= 30,
        "an initial meld: {play}"
    );
    // An opening meld is a small search: the fewest changed sets are proven.
    assert_eq!(play["fewest_changed_proven"], true, "{play}");

    // Asking changed nothing.
    let version = before["version"].as_u64().unwrap();
    assert_eq!(server.view(&id, None).await["version"], before["version"]);
    // Playing the hint is accepted and empties the rack by that many tiles.
    let (status, after) = server
        .act(
            &id,
            &token,
            version,
            json!({"type": "play", "table": play["table"]}),
        )
        .await;
    assert_eq!(status, 200, "the hint was refused: {after}");
    assert_eq!(
        after["rummikub"]["rack"].as_array().unwrap().len(),
        before["rummikub"]["rack"].as_array().unwrap().len() - placed.len()
    );

    // Refusals: no token, a forged token, an unknown objective, a Rumis table.
    let (status, body) = server.get(&format!("/api/tables/{id}/hint")).await;
    assert_eq!(status, 403, "{body}");
    assert!(body["error"].as_str().unwrap().contains("seat token"));
    let (status, _) = server
        .get_as(&format!("/api/tables/{id}/hint"), "forged")
        .await;
    assert_eq!(status, 403);
    let (status, body) = server
        .get_as(&format!("/api/tables/{id}/hint?objective=speed"), &token)
        .await;
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().contains("tiles or value"));
    let mut rumis = rumis_table(json!([{"kind": "human"}, {"kind": "human"}]));
    rumis["hints"] = json!(true);
    let (rumis_id, rumis_tokens) = server.create(rumis).await;
    let rumis_token = rumis_tokens[0].clone().unwrap();
    let other_token = rumis_tokens[1].clone().unwrap();
    // A Rumis hint: the strongest bot's best three moves, each legal, best first.
    let (status, body) = server
        .get_as(&format!("/api/tables/{rumis_id}/hint"), &rumis_token)
        .await;
    assert_eq!(status, 200, "{body}");
    let moves = body["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3, "{body}");
    let chances: Vec<f64> = moves
        .iter()
        .map(|m| m["win_chance"].as_f64().unwrap())
        .collect();
    assert!(
        chances.iter().all(|c| (0.0..=1.0).contains(c)),
        "{chances:?}"
    );
    let visits: Vec<u64> = moves
        .iter()
        .map(|m| m["visits"].as_u64().unwrap())
        .collect();
    assert!(
        visits.windows(2).all(|w| w[0] >= w[1]),
        "most searched first: {visits:?}"
    );
    for suggestion in moves {
        let (_, check) = server
            .post_as(
                &format!("/api/tables/{rumis_id}/check"),
                &rumis_token,
                &json!({"type": "rumis_place", "stone": suggestion["stone"], "cells": suggestion["cells"]}).to_string(),
            )
            .await;
        assert_eq!(check["legal"], true, "{suggestion}: {check}");
    }
    // Not your turn: no hint.
    let (status, body) = server
        .get_as(&format!("/api/tables/{rumis_id}/hint"), &other_token)
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("out_of_turn")),
        "{body}"
    );
}

#[tokio::test]
async fn refusals_and_events_carry_keys_with_parameters_and_their_rule() {
    let server = start(&temp_sqlite("reasons"), 0).await;
    // Rumis: a placement in the air is refused for the hole under it (R3), a cell off
    // the board for the footprint (R4); the check says the same as the refusal.
    let (id, tokens) = server
        .create(rumis_table(json!([{"kind": "human"}, {"kind": "human"}])))
        .await;
    let token = tokens[0].clone().unwrap();
    let floating =
        json!({"type": "rumis_place", "stone": "I4", "cells": [[0,0,1],[1,0,1],[2,0,1],[3,0,1]]});
    let (status, refusal) = server.act(&id, &token, 0, floating.clone()).await;
    assert_eq!(status, 409, "{refusal}");
    assert_eq!(refusal["why"]["code"], "hole_under", "{refusal}");
    assert_eq!(refusal["why"]["rule"], "R3");
    assert_eq!(
        refusal["why"]["params"]["cell"],
        json!({"column": "a1", "level": 1})
    );
    let (_, check) = server
        .post_as(
            &format!("/api/tables/{id}/check"),
            &token,
            &floating.to_string(),
        )
        .await;
    assert_eq!(check["why"], refusal["why"]);
    let off =
        json!({"type": "rumis_place", "stone": "I4", "cells": [[2,0,0],[3,0,0],[4,0,0],[5,0,0]]});
    let (_, check) = server
        .post_as(&format!("/api/tables/{id}/check"), &token, &off.to_string())
        .await;
    assert_eq!(
        (check["why"]["code"].as_str(), check["why"]["rule"].as_str()),
        (Some("outside"), Some("R4"))
    );
    // Rummikub: a meld below 30 names its value (K4); a draw is an event with the seat.
    let (id, tokens) = server
        .create(rummikub_table(
            json!([{"kind": "human"}, {"kind": "human"}]),
            Value::Null,
        ))
        .await;
    let view = server.view(&id, None).await;
    let seat = view["to_move"].as_u64().unwrap() as usize;
    let token = tokens[seat].clone().unwrap();
    let rack = server.view(&id, Some(&token)).await["rummikub"]["rack"].clone();
    // The rack's 1s, 2s and 3s as one set: refused whatever the deal, since no set of
    // such tiles is worth 30 (a run of them is at most 1+2+3, a group at most 4×3).
    let low: Vec<&str> = rack
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t.as_str())
        .filter(|t| t.len() == 2 && t.ends_with(['1', '2', '3']))
        .collect();
    let (status, refusal) = server
        .act(&id, &token, 0, json!({"type": "play", "table": [low]}))
        .await;
    assert_eq!(status, 409, "{refusal}");
    assert!(
        refusal["why"]["rule"].as_str().unwrap().starts_with('K'),
        "{refusal}"
    );
    assert!(!refusal["why"]["code"].as_str().unwrap().is_empty());
    let (status, after) = server.act(&id, &token, 0, json!({"type": "draw"})).await;
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["rummikub"]["last_event"]["code"], "drew");
    assert_eq!(after["rummikub"]["last_event"]["params"]["player"], seat);
}
