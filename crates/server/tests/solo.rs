//! The solo cube's endpoints (issue 48 point 4): levels, builds checked by the engine
//! with its reasons, "can this still be finished?" on known builds, hints followed to a
//! full cube, the limits, and best times kept per account only for a full cube (SQLite
//! and PostgreSQL).

mod common;

use reqwest::Method;
use serde_json::{json, Value};
use server::solo::SoloLimits;
use server::HubOptions;

use common::browser::Browser;
use common::{start, start_with, temp_postgres, temp_sqlite, TestServer};

fn level(edge: u8, colours: u8, rules: bool, alternate: bool) -> Value {
    json!({"edge": edge, "colours": colours, "rules": rules, "alternate": alternate})
}

fn piece(colour: &str, stone: &str, cells: &[[u8; 3]]) -> Value {
    json!({"colour": colour, "stone": stone, "cells": cells})
}

async fn post(server: &TestServer, path: &str, body: Value) -> (u16, Value) {
    server.post(path, &body.to_string()).await
}

#[tokio::test]
async fn the_level_list_says_which_levels_have_a_full_cube_and_why_not() {
    let server = start(&temp_sqlite("solo_levels"), 0).await;
    let (status, list) = server.get("/api/solo/levels").await;
    assert_eq!(status, 200, "{list}");
    let levels = list["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 48);
    let find = |edge: u8, colours: u8, rules: bool, alternate: bool| {
        levels
            .iter()
            .find(|l| l["level"] == level(edge, colours, rules, alternate))
            .unwrap()
            .clone()
    };
    assert_eq!(find(3, 1, false, false)["solvable"], "yes");
    assert_eq!(find(5, 4, true, false)["solvable"], "yes");
    let too_few = find(4, 1, false, false);
    assert_eq!(too_few["solvable"], "no");
    assert_eq!(too_few["impossible"], "too_few_cubes");
    assert_eq!(
        (too_few["cells"].clone(), too_few["cubes"].clone()),
        (json!(64), json!(40))
    );
    assert_eq!(
        find(3, 1, false, true)["impossible"],
        "one_colour_alternates"
    );
    assert_eq!(
        find(3, 3, true, true)["impossible"],
        "rules_against_alternate"
    );
    assert_eq!(find(3, 2, false, true)["impossible"], "search_exhausted");
    let playable = levels.iter().filter(|l| l["solvable"] == "yes").count();
    assert_eq!(playable, 21, "the solver table of docs/rumis-solo.md");
}

#[tokio::test]
async fn stones_are_checked_by_the_engine_with_its_reasons() {
    let server = start(&temp_sqlite("solo_checks"), 0).await;
    let rules = level(3, 2, true, false);
    let (status, state) = post(
        &server,
        "/api/solo/build",
        json!({"level": rules, "pieces": []}),
    )
    .await;
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["view"]["to_move_colour"], "red");
    assert_eq!(
        state["view"]["scenario"]["limits"],
        json!([[3, 3, 3], [3, 3, 3], [3, 3, 3]])
    );
    assert!(!state["view"]["legal"].as_array().unwrap().is_empty());
    assert_eq!(state["complete"], false);

    // A stone over an empty cell under the rules: a hole (R3).
    let floating = piece("red", "I3", &[[0, 0, 1], [1, 0, 1], [2, 0, 1]]);
    let body = json!({"level": rules, "pieces": [], "piece": floating});
    let (status, answer) = post(&server, "/api/solo/place", body).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["legal"], false);
    assert_eq!(answer["why"]["code"], "hole_under");
    assert!(
        answer["reason"].as_str().unwrap().contains("hole"),
        "{answer}"
    );

    // Red's I3 on the floor; then blue out of turn, and a taken cell.
    let red = piece("red", "I3", &[[0, 0, 0], [1, 0, 0], [2, 0, 0]]);
    let body = json!({"level": rules, "pieces": [], "piece": red});
    let (_, answer) = post(&server, "/api/solo/place", body).await;
    assert_eq!(answer["legal"], true, "{answer}");
    let again = piece("red", "D2", &[[0, 1, 0], [1, 1, 0]]);
    let body = json!({"level": rules, "pieces": [red], "piece": again});
    let (_, answer) = post(&server, "/api/solo/place", body).await;
    assert_eq!(answer["why"]["code"], "not_colours_turn", "{answer}");
    let taken = piece("blue", "D2", &[[0, 0, 0], [0, 1, 0]]);
    let body = json!({"level": rules, "pieces": [red], "piece": taken});
    let (_, answer) = post(&server, "/api/solo/place", body).await;
    assert_eq!(answer["why"]["code"], "taken", "{answer}");
    assert_eq!(answer["why"]["params"]["by"], "red");

    // Alternating colours: red beside red is refused.
    let alternate = level(3, 3, false, true);
    let beside = piece("red", "D2", &[[0, 1, 0], [1, 1, 0]]);
    let body = json!({"level": alternate, "pieces": [red], "piece": beside});
    let (_, answer) = post(&server, "/api/solo/place", body).await;
    assert_eq!(answer["why"]["code"], "solo_same_colour", "{answer}");

    // A build with a refused stone is refused with its number and reason.
    let body = json!({"level": rules, "pieces": [red, again]});
    let (status, refused) = post(&server, "/api/solo/build", body).await;
    assert_eq!(
        (status, refused["code"].clone()),
        (409, json!("bad_solo_build"))
    );
    assert!(
        refused["error"].as_str().unwrap().starts_with("stone 2:"),
        "{refused}"
    );
}

#[tokio::test]
async fn malformed_levels_and_oversized_builds_are_refused() {
    let server = start(&temp_sqlite("solo_refusals"), 0).await;
    for bad in [
        level(6, 1, false, false),
        level(3, 0, false, false),
        level(3, 5, false, false),
    ] {
        let (status, refused) = post(
            &server,
            "/api/solo/build",
            json!({"level": bad, "pieces": []}),
        )
        .await;
        assert_eq!(
            (status, refused["code"].clone()),
            (400, json!("bad_solo_level")),
            "{bad}"
        );
    }
    let (status, refused) = post(
        &server,
        "/api/solo/finishable",
        json!({"level": level(4, 1, false, false), "pieces": []}),
    )
    .await;
    assert_eq!(
        (status, refused["code"].clone()),
        (409, json!("solo_impossible"))
    );
    let (status, _) = server.post("/api/solo/build", r#"{"level": 3}"#).await;
    assert_eq!(status, 400);

    // More stones than a cube of edge 3 can hold (13): the rules' refusal; more than
    // any build (62): the document's.
    let domino = piece("red", "D2", &[[0, 0, 0], [1, 0, 0]]);
    for (count, status) in [(14, 409), (63, 400)] {
        let many = vec![domino.clone(); count];
        let body = json!({"level": level(3, 1, false, false), "pieces": many});
        let (answer, refused) = post(&server, "/api/solo/hint", body).await;
        assert_eq!(
            (answer, refused["code"].clone()),
            (status, json!("bad_solo_build")),
            "{refused}"
        );
    }
    // A stone of five cells.
    let five = piece(
        "red",
        "I4",
        &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0], [1, 1, 0]],
    );
    let (status, refused) = post(
        &server,
        "/api/solo/build",
        json!({"level": level(3, 1, false, false), "pieces": [five]}),
    )
    .await;
    assert_eq!(
        (status, refused["code"].clone()),
        (400, json!("bad_solo_build")),
        "{refused}"
    );
    // A body past the server's limit never reaches the engine.
    let huge =
        json!({"level": level(3, 1, false, false), "pieces": [], "colour": "x".repeat(70_000)});
    let (status, refused) = post(&server, "/api/solo/build", huge).await;
    assert_eq!((status, refused["code"].clone()), (413, json!("too_large")));
}

#[tokio::test]
async fn the_solver_says_yes_and_no_on_known_builds() {
    let server = start(&temp_sqlite("solo_finishable"), 0).await;
    let free = level(3, 1, false, false);
    let (status, answer) = post(
        &server,
        "/api/solo/finishable",
        json!({"level": free, "pieces": []}),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["answer"], "yes");
    // The corner cell a1 level 1 shut in by three stones: no stone fills one cell.
    let shut_in = [
        piece("red", "I3", &[[1, 0, 0], [1, 1, 0], [1, 2, 0]]),
        piece("red", "D2", &[[0, 1, 0], [0, 2, 0]]),
        piece("red", "L3", &[[0, 0, 1], [1, 0, 1], [0, 1, 1]]),
    ];
    let body = json!({"level": free, "pieces": shut_in});
    let (_, answer) = post(&server, "/api/solo/finishable", body.clone()).await;
    assert_eq!(answer["answer"], "no", "{answer}");
    let (_, hint) = post(&server, "/api/solo/hint", body).await;
    assert_eq!(hint["answer"], "no", "{hint}");
    assert!(hint.get("piece").is_none());
}

/// Hint after hint, each placed as the engine takes it, fills the cube.
async fn finish_with_hints(server: &TestServer, level: &Value) -> Vec<Value> {
    let mut pieces: Vec<Value> = Vec::new();
    loop {
        let body = json!({"level": level, "pieces": pieces});
        let (status, state) = post(server, "/api/solo/build", body.clone()).await;
        assert_eq!(status, 200, "{state}");
        if state["complete"] == true {
            assert_eq!(state["stones_used"], pieces.len());
            assert!(state["view"]["legal"].as_array().unwrap().is_empty());
            return pieces;
        }
        let (status, hint) = post(server, "/api/solo/hint", body).await;
        assert_eq!(
            (status, hint["answer"].clone()),
            (200, json!("yes")),
            "{hint}"
        );
        let body = json!({"level": level, "pieces": pieces, "piece": hint["piece"]});
        let (_, placed) = post(server, "/api/solo/place", body).await;
        assert_eq!(placed["legal"], true, "{placed}");
        pieces.push(placed["piece"].clone());
        assert!(pieces.len() <= 13);
    }
}

#[tokio::test]
async fn hints_lead_to_a_full_cube() {
    let server = start(&temp_sqlite("solo_hints"), 0).await;
    for l in [
        level(3, 1, false, false),
        level(3, 2, true, false),
        level(3, 3, false, true),
    ] {
        let pieces = finish_with_hints(&server, &l).await;
        assert!(pieces.len() >= 7, "{l}: {}", pieces.len());
    }
}

#[tokio::test]
async fn each_address_is_limited() {
    let server = start_with(
        &temp_sqlite("solo_limits"),
        HubOptions {
            solo: SoloLimits {
                checks_per_minute_per_address: 3,
                solver_per_minute_per_address: 2,
                ..SoloLimits::default()
            },
            ..common::defaults()
        },
    )
    .await;
    let body = json!({"level": level(3, 1, false, false), "pieces": []});
    for _ in 0..3 {
        assert_eq!(post(&server, "/api/solo/build", body.clone()).await.0, 200);
    }
    let mut guest = Browser::new(&server);
    let refused = guest.post("/api/solo/build", body.clone()).await;
    assert_eq!(
        (refused.status, refused.body["code"].clone()),
        (429, json!("too_many_solo_requests"))
    );
    assert!(refused.retry_after.is_some());
    for _ in 0..2 {
        assert_eq!(
            post(&server, "/api/solo/finishable", body.clone()).await.0,
            200
        );
    }
    let refused = guest.post("/api/solo/hint", body).await;
    assert_eq!(
        (refused.status, refused.body["code"].clone()),
        (429, json!("too_many_solo_requests"))
    );
}

async fn best_times_are_kept(server: &TestServer) {
    let free = level(3, 1, false, false);
    let pieces = finish_with_hints(server, &free).await;
    let finish = |millis: u64| json!({"level": free, "pieces": pieces, "millis": millis});

    let mut guest = Browser::new(server);
    assert_eq!(guest.post("/api/me/solo", finish(5000)).await.status, 401);
    assert_eq!(guest.get("/api/me/solo").await.status, 401);

    let mut ana = Browser::new(server);
    assert_eq!(
        ana.sign_up("Ana_solo", "stones of the inca 7").await.status,
        201
    );
    assert_eq!(ana.get("/api/me/solo").await.body["bests"], json!([]));
    // Only a full cube has a time, and only a sensible one.
    let half = json!({"level": free, "pieces": pieces[..3], "millis": 1000});
    let refused = ana.post("/api/me/solo", half).await;
    assert_eq!(
        (refused.status, refused.body["code"].clone()),
        (409, json!("solo_incomplete"))
    );
    for bad in [0, 100_000_000] {
        let refused = ana.post("/api/me/solo", finish(bad)).await;
        assert_eq!(
            (refused.status, refused.body["code"].clone()),
            (400, json!("bad_solo_time"))
        );
    }
    let mut wrong = pieces.clone();
    let last = wrong.len() - 1;
    wrong[last] = pieces[0].clone();
    let refused = ana
        .post(
            "/api/me/solo",
            json!({"level": free, "pieces": wrong, "millis": 100}),
        )
        .await;
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert_eq!(refused.body["code"], "bad_solo_build");

    // Each time is of a cube begun signed in (an empty build), sent once (#56).
    let begin = |level: &Value| json!({"level": level, "pieces": []});
    assert_eq!(ana.post("/api/solo/build", begin(&free)).await.status, 200);
    let first = ana.post("/api/me/solo", finish(5000)).await;
    assert_eq!(first.status, 200, "{}", first.body);
    assert_eq!(
        (
            first.body["new_best"].clone(),
            first.body["best"]["millis"].clone()
        ),
        (json!(true), json!(5000))
    );
    ana.post("/api/solo/build", begin(&free)).await;
    let slower = ana.post("/api/me/solo", finish(7000)).await;
    assert_eq!(
        (
            slower.body["new_best"].clone(),
            slower.body["best"]["millis"].clone()
        ),
        (json!(false), json!(5000))
    );
    ana.post("/api/solo/build", begin(&free)).await;
    let faster = ana.post("/api/me/solo", finish(3000)).await;
    assert_eq!(
        (
            faster.body["new_best"].clone(),
            faster.body["best"]["millis"].clone()
        ),
        (json!(true), json!(3000))
    );
    // Another level is another best; another account has its own.
    let rules = level(3, 2, true, false);
    let other = finish_with_hints(server, &rules).await;
    ana.post("/api/solo/build", begin(&rules)).await;
    let kept = ana
        .post(
            "/api/me/solo",
            json!({"level": rules, "pieces": other, "millis": 9000}),
        )
        .await;
    assert_eq!(kept.body["new_best"], true, "{}", kept.body);
    let bests = ana.get("/api/me/solo").await.body["bests"].clone();
    assert_eq!(bests.as_array().unwrap().len(), 2, "{bests}");
    assert_eq!(bests[0]["level"], free);
    assert_eq!(
        (bests[0]["millis"].clone(), bests[0]["stones"].clone()),
        (json!(3000), json!(pieces.len()))
    );
    let mut bo = Browser::new(server);
    assert_eq!(
        bo.sign_up("Bo_solo", "stones of the inca 7").await.status,
        201
    );
    assert_eq!(bo.get("/api/me/solo").await.body["bests"], json!([]));
    // A signed-in write from another site is refused.
    ana.origin = Some("https://evil.example".into());
    let refused = ana
        .send(Method::POST, "/api/me/solo", Some(finish(1000)))
        .await;
    assert_eq!(refused.status, 403);
}

#[tokio::test]
async fn best_times_are_kept_per_account_on_sqlite() {
    let server = start(&temp_sqlite("solo_bests"), 0).await;
    best_times_are_kept(&server).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn best_times_are_kept_per_account_on_postgres() {
    let server = start(&temp_postgres("solo_bests").await, 0).await;
    best_times_are_kept(&server).await;
}
