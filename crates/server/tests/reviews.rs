//! Reviews of finished games: a Rummikub review agrees with the exact solver (what
//! `rumi solve` answers) on every turn of whole games under the old and the current
//! rules, from the racks and tables the replay shows; a Rumis review charts every
//! player's win chance and judges moves by its drop; a review is pending with its
//! progress, then ready, computed once and kept in the database; running and unknown
//! tables have none; requests are limited per address and by a bounded queue.

mod common;

use std::time::{Duration, Instant};

use common::{start_with, temp_sqlite, TestServer};
use rummikub::notation::{parse_table, parse_tiles};
use rummikub::RuleSet;
use rummikub_solver::{Objective, SolverCache, TableAndRack};
use serde_json::{json, Value};
use server::reviews::ReviewLimits;
use server::HubOptions;

fn options(reviews: ReviewLimits) -> HubOptions {
    HubOptions {
        bot_delay: Duration::ZERO,
        max_open_tables_per_address: 0,
        tables_per_minute_per_address: 0,
        replays: server::replays::ReplayLimits {
            per_minute_per_address: 0,
            ..Default::default()
        },
        reviews,
        ..common::defaults()
    }
}

fn unlimited(playouts: u32) -> ReviewLimits {
    ReviewLimits {
        per_minute_per_address: 0,
        rumis_playouts: playouts,
        ..ReviewLimits::default()
    }
}

/// A bots-only table, played to its end.
async fn finished(server: &TestServer, body: Value) -> String {
    let created = server.create_raw(body).await;
    let id = created["id"].as_str().unwrap().to_string();
    let deadline = Instant::now() + Duration::from_secs(180);
    loop {
        if server.view(&id, None).await["over"] == true {
            return id;
        }
        assert!(Instant::now() < deadline, "the bots never finished {id}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn rummikub(rules: &str, seed: u64, bots: &[&str]) -> Value {
    let seats: Vec<Value> = bots
        .iter()
        .map(|b| json!({"kind": "bot", "bot": b}))
        .collect();
    json!({"game": "rummikub", "rummikub": {"rules": rules, "turn_seconds": null},
           "seats": seats, "seed": seed})
}

fn rumis(seed: u64) -> Value {
    json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2},
           "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}],
           "seed": seed})
}

/// Asks for the review until it is ready; checks that progress never goes back.
async fn ready(server: &TestServer, id: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(240);
    let mut last = 0.0;
    loop {
        let (status, review) = server.get(&format!("/api/tables/{id}/review")).await;
        assert_eq!(status, 200, "{review}");
        let progress = review["progress"].as_f64().unwrap();
        assert!(
            (0.0..=1.0).contains(&progress) && progress >= last,
            "{progress} after {last}"
        );
        last = progress;
        if review["status"] == "ready" {
            assert_eq!(progress, 1.0);
            return review;
        }
        assert_eq!(review["status"], "pending");
        assert!(review["turns"].as_array().unwrap().is_empty());
        assert!(
            Instant::now() < deadline,
            "the review of {id} never got ready"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn metric(server: &TestServer, name: &str) -> f64 {
    let text = server.running.app.render_metrics();
    text.lines()
        .find(|l| l.starts_with(&format!("rumi_{name}{{")))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no metric {name}"))
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect()
}

fn table_text(table: &Value) -> String {
    table
        .as_array()
        .unwrap()
        .iter()
        .map(|set| format!("[{}]", strings(set).join(" ")))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Checks every turn of a Rummikub review against the replay (the rack and table the
/// player had) and the solver asked directly, as `rumi solve` asks it.
fn check_rummikub(review: &Value, replay: &Value, rules: &RuleSet) -> usize {
    let turns = review["turns"].as_array().unwrap();
    assert!(!turns.is_empty());
    let racks = replay["racks"].as_array().expect("a finished game's racks");
    let mut solver = SolverCache::new();
    let mut laid = vec![0; review["players"].as_array().unwrap().len()];
    for turn in turns {
        let version = turn["version"].as_u64().unwrap() as usize;
        let seat = turn["seat"].as_u64().unwrap() as usize;
        let before = &replay["steps"][version - 1]["rummikub"];
        let r = &turn["rummikub"];
        let mut rack = strings(&r["rack"]);
        let mut shown = strings(&racks[version - 1][seat]);
        rack.sort();
        shown.sort();
        assert_eq!(rack, shown, "turn {version}: the rack the player had");
        assert_eq!(
            r["table"], before["table"],
            "turn {version}: the table before"
        );
        assert_eq!(r["melded"], before["melded"][seat], "turn {version}");
        let after = &replay["steps"][version]["rummikub"];
        assert_eq!(
            r["played"]["table"], after["table"],
            "turn {version}: the table after"
        );
        let position = TableAndRack::with_sets(
            parse_table(&table_text(&r["table"])).unwrap(),
            parse_tiles(&rack.join(" ")).unwrap(),
            r["melded"] == true,
        );
        for (objective, key, field) in [
            (Objective::Tiles, "best_tiles", "tiles"),
            (Objective::Value, "best_value", "value"),
        ] {
            let best = solver.solve(rules, &position, objective).unwrap();
            let reviewed = &r[key];
            match best {
                None => assert!(reviewed.is_null(), "turn {version}: {key} {reviewed}"),
                Some(best) => {
                    // The objective's figure; among plays equally good on it, the one
                    // of fewest changed sets (when the solver proved it the fewest).
                    let figure = match objective {
                        Objective::Tiles => best.tiles,
                        Objective::Value => best.value as u32,
                    };
                    assert_eq!(reviewed[field], figure, "turn {version}: {key}");
                    if best.fewest_changed_proven && reviewed["fewest_changed_proven"] == true {
                        assert_eq!(
                            reviewed["changed_sets"], best.changed_sets,
                            "turn {version}"
                        );
                    }
                    // Nobody lays more than the best play.
                    assert!(r["played"][field].as_u64() <= reviewed[field].as_u64());
                }
            }
        }
        let drew = r["played"]["kind"] != "play";
        assert_eq!(r["drew_with_play"], drew && !r["best_tiles"].is_null());
        laid[seat] += r["played"]["tiles"].as_u64().unwrap();
    }
    for player in review["players"].as_array().unwrap() {
        let seat = player["seat"].as_u64().unwrap() as usize;
        let totals = &player["rummikub"];
        assert_eq!(totals["tiles_laid"], laid[seat]);
        assert!(totals["tiles_laid"].as_u64() <= totals["tiles_possible"].as_u64());
    }
    turns.len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rummikub_review_agrees_with_the_solver_on_every_turn() {
    let server = start_with(&temp_sqlite("review-rummikub"), options(unlimited(200))).await;
    let games = [
        ("current", 11, vec!["greedy", "random"]),
        ("old", 12, vec!["random", "greedy", "keeper", "random"]),
        ("current", 13, vec!["keeper", "random", "greedy", "random"]),
    ];
    for (rules_name, seed, bots) in games {
        let id = finished(&server, rummikub(rules_name, seed, &bots)).await;
        let review = ready(&server, &id).await;
        assert_eq!(review["game"], "rummikub");
        let (status, replay) = server.get(&format!("/api/tables/{id}/replay")).await;
        assert_eq!(status, 200);
        let rules = RuleSet::preset(rules_name).unwrap();
        let turns = check_rummikub(&review, &replay, &rules);
        // Every draw and play of the log is a turn (deals of rounds and redeals are not).
        let actions = replay["actions"].as_array().unwrap();
        let expected = actions
            .iter()
            .filter(|a| matches!(a["action"]["type"].as_str(), Some("play" | "draw")))
            .count();
        assert_eq!(turns, expected, "{rules_name} {seed}");
        let players = bots.len();
        println!("{rules_name} rules, {players} players, seed {seed}: {turns} turns agree with the solver");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_is_pending_then_ready_computed_once_and_kept_in_the_database() {
    let db = temp_sqlite("review-once");
    let server = start_with(&db, options(unlimited(300))).await;
    let id = finished(&server, rumis(5)).await;
    let (status, first) = server.get(&format!("/api/tables/{id}/review")).await;
    assert_eq!(status, 200, "{first}");
    assert_eq!(first["status"], "pending");
    assert_eq!(first["game"], "rumis");
    // Many requests meanwhile, and after: one computation.
    let path = format!("/api/tables/{id}/review");
    let asks = (0..6).map(|_| server.get(&path));
    for (status, _) in futures_util::future::join_all(asks).await {
        assert_eq!(status, 200);
    }
    let review = ready(&server, &id).await;
    let again = ready(&server, &id).await;
    assert_eq!(review, again);
    assert_eq!(metric(&server, "reviews_computed_total").await, 1.0);

    // Every move: every player's chances before and after, the best move, and a
    // judgement that follows from the drop and the stated thresholds.
    let method = &review["rumis"];
    assert_eq!(method["playouts"], 300);
    let (inaccuracy, mistake, blunder) = (
        method["inaccuracy"].as_f64().unwrap(),
        method["mistake"].as_f64().unwrap(),
        method["blunder"].as_f64().unwrap(),
    );
    assert!(inaccuracy < mistake && mistake < blunder);
    let turns = review["turns"].as_array().unwrap();
    let (_, replay) = server.get(&format!("/api/tables/{id}/replay")).await;
    assert_eq!(turns.len(), replay["actions"].as_array().unwrap().len());
    for (n, turn) in turns.iter().enumerate() {
        let r = &turn["rumis"];
        assert_eq!(r["move"], replay["actions"][n]["action"]["move"]);
        for key in ["before", "after"] {
            let chances: Vec<f64> = r[key]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_f64().unwrap())
                .collect();
            assert_eq!(chances.len(), 2, "{r}");
            assert!(chances.iter().all(|c| (0.0..=1.0).contains(c)), "{r}");
            assert!((chances.iter().sum::<f64>() - 1.0).abs() < 1e-6, "{r}");
        }
        // The drop is the mover's chance after the best move less theirs after the
        // move played; the same chances when the best move (or the only one) was played.
        let mover = turn["seat"].as_u64().unwrap() as usize;
        let chance = |key: &str| r[key][mover].as_f64().unwrap();
        let drop = r["drop"].as_f64().unwrap();
        let fall = ((chance("before") - chance("after")).max(0.0) * 1000.0).round() / 10.0;
        assert_eq!(drop, fall, "{r}");
        if r["forced"] == true || r["best"]["move"] == r["move"] {
            assert_eq!(r["before"], r["after"], "{r}");
        } else {
            assert_eq!(r["best"]["win_chance"].as_f64().unwrap(), chance("before"));
        }
        let judged = if drop >= blunder {
            json!("blunder")
        } else if drop >= mistake {
            json!("mistake")
        } else if drop >= inaccuracy {
            json!("inaccuracy")
        } else {
            Value::Null
        };
        assert_eq!(r["judgement"], judged, "{r}");
        assert_eq!(r["forced"], r["best"].is_null());
    }
    // The last move's "after" is the result.
    let last = &turns.last().unwrap()["rumis"]["after"];
    let winners = replay["result"]["winners"].as_array().unwrap();
    for seat in 0..2 {
        let won = winners.iter().any(|w| w == seat);
        assert_eq!(last[seat].as_f64().unwrap() > 0.0, won);
    }
    let judged: u64 = review["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let p = &p["rumis"];
            ["inaccuracies", "mistakes", "blunders"]
                .iter()
                .map(|k| p[k].as_u64().unwrap())
                .sum::<u64>()
        })
        .sum();
    let marked = turns
        .iter()
        .filter(|t| !t["rumis"]["judgement"].is_null())
        .count();
    assert_eq!(judged, marked as u64);
    println!("{} moves, {marked} judged", turns.len());

    // Kept in the database: a restarted server answers it without computing.
    server.running.shutdown();
    let _ = server.running.task.await;
    let restarted = start_with(&db, options(unlimited(300))).await;
    let (status, kept) = restarted.get(&format!("/api/tables/{id}/review")).await;
    assert_eq!((status, &kept), (200, &review));
    assert_eq!(metric(&restarted, "reviews_computed_total").await, 0.0);

    // A game still being played has no review; an unknown table neither.
    let created = restarted
        .create_raw(
            json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2},
                           "seats": [{"kind": "human"}, {"kind": "human"}]}),
        )
        .await;
    let (status, body) = restarted
        .get(&format!(
            "/api/tables/{}/review",
            created["id"].as_str().unwrap()
        ))
        .await;
    assert_eq!((status, body["code"].as_str()), (409, Some("not_over")));
    let (status, _) = restarted.get("/api/tables/t000000000000/review").await;
    assert_eq!(status, 404);
    let (status, _) = restarted.get("/api/tables/nonsense/review").await;
    assert_eq!(status, 404);
}

async fn get_with_retry_after(server: &TestServer, path: &str) -> (u16, Value, Option<u64>) {
    let response = server
        .client
        .get(format!("{}{path}", server.base))
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let wait = response
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok()?.parse().ok());
    (status, response.json().await.unwrap_or(Value::Null), wait)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reviews_are_limited_per_address_and_by_a_bounded_queue() {
    // One review at a time may be pending here; a long search keeps it pending.
    let server = start_with(
        &temp_sqlite("review-limits"),
        options(ReviewLimits {
            per_minute_per_address: 0,
            max_pending: 1,
            rumis_playouts: 20_000,
            ..ReviewLimits::default()
        }),
    )
    .await;
    let first = finished(&server, rumis(6)).await;
    let second = finished(&server, rumis(7)).await;
    let (status, pending) = server.get(&format!("/api/tables/{first}/review")).await;
    assert_eq!((status, pending["status"].as_str()), (200, Some("pending")));
    let (status, busy, wait) =
        get_with_retry_after(&server, &format!("/api/tables/{second}/review")).await;
    assert_eq!(
        (status, busy["code"].as_str()),
        (429, Some("reviews_busy")),
        "{busy}"
    );
    assert!(wait.is_some_and(|w| w >= 1));
    // The one pending still answers with its progress.
    let (status, still) = server.get(&format!("/api/tables/{first}/review")).await;
    assert_eq!((status, still["status"].as_str()), (200, Some("pending")));
    assert_eq!(metric(&server, "reviews_refused_total").await, 1.0);

    // Three requests a minute per address, then 429 with Retry-After.
    let limited = start_with(
        &temp_sqlite("review-rate"),
        options(ReviewLimits {
            per_minute_per_address: 3,
            rumis_playouts: 100,
            ..ReviewLimits::default()
        }),
    )
    .await;
    let id = finished(&limited, rumis(8)).await;
    for _ in 0..3 {
        let (status, _) = limited.get(&format!("/api/tables/{id}/review")).await;
        assert_eq!(status, 200);
    }
    let (status, body, wait) =
        get_with_retry_after(&limited, &format!("/api/tables/{id}/review")).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("too_many_reviews"))
    );
    assert!(wait.is_some_and(|w| (1..=20).contains(&w)), "{wait:?}");
}
