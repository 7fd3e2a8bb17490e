//! The tutorials over HTTP: every step's intended move is accepted by the engine and
//! does what the step asks, every wrong try gets the answer the step promises (the
//! engine's refusal with its reason, or a legal move that misses the goal), so a step
//! can never teach what the engine refuses; and bad requests get specific errors.

mod common;

use common::{start, temp_sqlite, TestServer};
use serde_json::{json, Value};
use server::tutorial::{steps, Expect, Setup};
use server::wire::{GameKind, RefusalCode};

/// A move as the step writes it, as the client sends it.
fn body(game: GameKind, text: &str) -> String {
    match game {
        GameKind::Rumis => json!({ "type": "rumis_move", "move": text }).to_string(),
        GameKind::Rummikub => {
            let table: Vec<Vec<&str>> = text
                .split(']')
                .map(|set| set.trim().trim_start_matches('['))
                .filter(|set| !set.is_empty())
                .map(|set| set.split_whitespace().collect())
                .collect();
            json!({ "type": "play", "table": table }).to_string()
        }
    }
}

fn code(refusal: RefusalCode) -> Value {
    serde_json::to_value(refusal).unwrap()
}

async fn check(server: &TestServer, game: GameKind, step: usize, text: &str) -> Value {
    let (status, answer) = server
        .post(
            &format!("/api/tutorial/{}/{step}/check", game.name()),
            &body(game, text),
        )
        .await;
    assert_eq!(status, 200, "step {step} `{text}`: {answer}");
    answer
}

#[tokio::test]
async fn every_steps_move_is_done_and_every_wrong_try_gets_its_answer() {
    let server = start(&temp_sqlite("tutorial-steps"), 0).await;
    for game in GameKind::ALL {
        let (status, tutorial) = server.get(&format!("/api/tutorial/{}", game.name())).await;
        assert_eq!(status, 200, "{tutorial}");
        let served = tutorial["steps"].as_array().unwrap();
        let defs = steps(game);
        assert!(defs.len() >= 5, "{game:?} has {} steps", defs.len());
        assert_eq!(served.len(), defs.len());
        for (i, (def, step)) in defs.iter().zip(served).enumerate() {
            let n = i + 1;
            assert_eq!(step["number"], n, "{step}");
            assert_eq!(step["key"], serde_json::to_value(def.key).unwrap());
            // The learner is to move, and the step's rulings are cited.
            let view = &step["view"];
            assert_eq!(view["to_move"], view["you"], "step {n}: the learner moves");
            assert_eq!(view["status"], "playing");
            assert!(!def.rules.is_empty());
            if let Setup::Rumis { .. } = def.position {
                // The intended placement is among those the board marks.
                let legal = view["rumis"]["legal"].as_array().unwrap();
                assert!(!legal.is_empty(), "step {n}");
            }

            let answer = check(&server, game, n, def.solution).await;
            assert_eq!(
                answer["legal"], true,
                "step {n} `{}`: {answer}",
                def.solution
            );
            assert_eq!(
                answer["done"], true,
                "step {n} `{}`: {answer}",
                def.solution
            );
            assert!(answer.get("why").is_none(), "{answer}");
            let after = &answer["view"];
            assert_eq!(after["version"], 1);
            assert_eq!(after["you"], view["you"]);

            assert!(!def.wrong.is_empty(), "step {n} has a wrong try");
            for &(text, expect) in def.wrong {
                let answer = check(&server, game, n, text).await;
                match expect {
                    Expect::Refused(refusal) => {
                        assert_eq!(answer["legal"], false, "step {n} `{text}`: {answer}");
                        assert_eq!(answer["done"], false);
                        assert_eq!(answer["why"]["code"], code(refusal), "step {n}: {answer}");
                        let rule = answer["why"]["rule"].as_str().unwrap();
                        assert!(
                            def.rules.contains(&rule),
                            "step {n} is refused by {rule}, which it does not cite"
                        );
                        assert!(answer["reason"].as_str().is_some_and(|r| !r.is_empty()));
                        assert!(answer.get("view").is_none());
                    }
                    Expect::Missed => {
                        assert_eq!(answer["legal"], true, "step {n} `{text}`: {answer}");
                        assert_eq!(answer["done"], false, "step {n} `{text}`: {answer}");
                    }
                }
            }
            // The wrong try the client shows on request is the first, as served.
            let (shown, _) = def.wrong[0];
            let (status, served_wrong) = server
                .post(
                    &format!("/api/tutorial/{}/{n}/check", game.name()),
                    &step["wrong"].to_string(),
                )
                .await;
            assert_eq!(status, 200);
            let written = check(&server, game, n, shown).await;
            assert_eq!(served_wrong, written, "step {n}");
        }
    }
}

/// The scoring step ends a game: the learner's move is the last, the engine scores it
/// (R9) and the learner wins alone; a move that covers their own square loses.
#[tokio::test]
async fn the_scoring_step_ends_the_game_and_the_learner_wins() {
    let server = start(&temp_sqlite("tutorial-scoring"), 0).await;
    let n = steps(GameKind::Rumis)
        .iter()
        .position(|d| d.key == server::wire::TutorialKey::RumisScoring)
        .unwrap()
        + 1;
    let won = check(&server, GameKind::Rumis, n, "D2 a5:4 b5:4").await;
    let view = &won["view"];
    assert_eq!(view["over"], true);
    assert_eq!(view["status"], "over");
    assert_eq!(view["result"]["winners"], json!([0]));
    assert_eq!(view["result"]["scores"], json!([10, 7]));
    let lost = check(&server, GameKind::Rumis, n, "D2 a1:2 a1:3").await;
    assert_eq!(lost["done"], false);
    assert_eq!(lost["view"]["result"]["winners"], json!([1]));
    assert_eq!(lost["view"]["result"]["scores"], json!([8, 9]));
}

/// Rummikub: the position after a play shows the learner's rack without the laid
/// tiles and says what was laid; the other player's rack never reaches the learner.
#[tokio::test]
async fn a_rummikub_step_shows_the_learners_rack_only() {
    let server = start(&temp_sqlite("tutorial-rack"), 0).await;
    let (_, tutorial) = server.get("/api/tutorial/rummikub").await;
    let first = &tutorial["steps"][0]["view"];
    assert_eq!(
        sorted(&first["rummikub"]["rack"]),
        ["b11", "b7", "k7", "o2", "r7", "r7"]
    );
    assert_eq!(first["rummikub"]["rack_sizes"], json!([6, 14]));
    assert_eq!(first["rummikub"]["rules"]["turn_seconds"], Value::Null);
    let answer = check(&server, GameKind::Rummikub, 1, "[k1 k2 k3] [r7 b7 k7]").await;
    let rk = &answer["view"]["rummikub"];
    assert_eq!(sorted(&rk["rack"]), ["b11", "o2", "r7"]);
    assert_eq!(rk["table"], json!([["k1", "k2", "k3"], ["r7", "b7", "k7"]]));
    assert_eq!(rk["last_event"]["code"], "played");
    assert_eq!(
        rk["last_event"]["params"]["tiles"],
        json!(["r7", "b7", "k7"])
    );
    let meld = check(
        &server,
        GameKind::Rummikub,
        3,
        steps(GameKind::Rummikub)[2].solution,
    )
    .await;
    assert_eq!(meld["view"]["rummikub"]["last_event"]["code"], "melded");
    assert_eq!(meld["view"]["rummikub"]["melded"], json!([true, true]));
}

fn sorted(tiles: &Value) -> Vec<String> {
    let mut tiles: Vec<String> = serde_json::from_value(tiles.clone()).unwrap();
    tiles.sort();
    tiles
}

#[tokio::test]
async fn bad_tutorial_requests_get_specific_errors() {
    let server = start(&temp_sqlite("tutorial-bad"), 0).await;
    let post = |path: &'static str, body: &'static str| {
        let server = &server;
        async move { server.post(path, body).await }
    };
    let mv = r#"{"type": "rumis_move", "move": "L4 a1:1 b1:1 c1:1 a2:1"}"#;
    // No such game or step.
    let (status, body) = server.get("/api/tutorial/chess").await;
    assert_eq!((status, body["code"].as_str()), (404, Some("not_found")));
    for path in [
        "/api/tutorial/chess/1/check",
        "/api/tutorial/rumis/0/check",
        "/api/tutorial/rumis/7/check",
        "/api/tutorial/rumis/x/check",
        "/api/tutorial/rumis/99999999999999999999999/check",
    ] {
        let (status, body) = post(path, mv).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (404, Some("not_found")),
            "{path}: {body}"
        );
    }
    // Malformed bodies.
    for bad in [
        "",
        "not json",
        "{}",
        r#"{"type": "rumis_move", "move": "Q9 a1"}"#,
        r#"{"type": "rumis_place", "stone": "L4"}"#,
        r#"{"type": "play"}"#,
        r#"{"type": "play", "table": [["x7"]]}"#,
    ] {
        let (status, body) = server.post("/api/tutorial/rumis/1/check", bad).await;
        assert_eq!(status, 400, "{bad}: {body}");
        assert_eq!(body["code"], "malformed_request", "{bad}: {body}");
    }
    // An action of the other game, and a Rummikub action that is not a play.
    let (status, body) = post("/api/tutorial/rumis/1/check", r#"{"type": "draw"}"#).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("not_for_this_game"))
    );
    let (status, body) = post("/api/tutorial/rummikub/1/check", mv).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("not_for_this_game"))
    );
    let (status, body) = post("/api/tutorial/rummikub/1/check", r#"{"type": "draw"}"#).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("not_for_this_game"))
    );
    // A write that is not JSON, and a body over the limit.
    let response = server
        .client
        .post(format!("{}/api/tutorial/rumis/1/check", server.base))
        .header("content-type", "text/plain")
        .body(mv)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 415);
    let huge = format!(
        r#"{{"type": "rumis_move", "move": "{}"}}"#,
        "a".repeat(100_000)
    );
    let response = server
        .client
        .post(format!("{}/api/tutorial/rumis/1/check", server.base))
        .header("content-type", "application/json")
        .body(huge)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 413);
    // A check changes nothing: the step is the same afterwards.
    let (_, before) = server.get("/api/tutorial/rumis").await;
    check(&server, GameKind::Rumis, 1, "L4 a1:1 b1:1 c1:1 a2:1").await;
    let (_, again) = server.get("/api/tutorial/rumis").await;
    assert_eq!(before, again);
}

/// Checks are limited per address (a minute's worth at once), with `Retry-After`.
#[tokio::test]
async fn tutorial_checks_are_limited_per_address() {
    let server = start(&temp_sqlite("tutorial-rate"), 0).await;
    let per_minute = server::tutorial::TutorialLimits::default().checks_per_minute_per_address;
    let mv = r#"{"type": "rumis_move", "move": "I4 c4:1 d4:1 e4:1 f4:1"}"#;
    for _ in 0..per_minute {
        let (status, _) = server.post("/api/tutorial/rumis/1/check", mv).await;
        assert_eq!(status, 200);
    }
    let response = server
        .client
        .post(format!("{}/api/tutorial/rumis/1/check", server.base))
        .header("content-type", "application/json")
        .body(mv)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 429);
    assert!(response.headers().contains_key("retry-after"));
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["code"], "rate_limited");
    // Reading the tutorial is not a check.
    let (status, _) = server.get("/api/tutorial/rumis").await;
    assert_eq!(status, 200);
}
