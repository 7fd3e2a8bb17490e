//! A Rummikub game's review says what `rumi solve` says: for turns of a finished game
//! of bots (old and current rules), the review's best play by tiles and by value is
//! the one the `rumi solve rummikub` command finds from the same rack and table.

mod common;

use std::time::{Duration, Instant};

use common::{rumi, serve_with};
use serde_json::{json, Value};

fn set_text(table: &Value) -> String {
    table
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
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_review_of_a_rummikub_game_agrees_with_rumi_solve() {
    let server = serve_with(
        &format!(
            "sqlite://{}",
            std::env::temp_dir()
                .join(format!("rumi-review-solve-{}.db", std::process::id()))
                .display()
        ),
        &[
            "--bot-delay-ms",
            "0",
            "--reviews-per-minute-per-address",
            "0",
        ],
    );
    for (rules, seed) in [("current", 41), ("old", 42)] {
        let created = server
            .post(
                "/api/tables",
                json!({"game": "rummikub", "rummikub": {"rules": rules, "turn_seconds": null},
                       "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"},
                                 {"kind": "bot", "bot": "keeper"}],
                       "seed": seed}),
            )
            .unwrap();
        let id = created["id"].as_str().unwrap().to_string();
        server.wait_for(&format!("/api/tables/{id}"), |v| v["over"] == true);
        let deadline = Instant::now() + Duration::from_secs(120);
        let review = loop {
            let review = server.get(&format!("/api/tables/{id}/review"));
            if review["status"] == "ready" {
                break review;
            }
            assert!(Instant::now() < deadline, "the review never got ready");
            std::thread::sleep(Duration::from_millis(100));
        };
        let turns = review["turns"].as_array().unwrap();
        // Every fifth turn, and every turn where a better play was possible.
        let picked = turns
            .iter()
            .enumerate()
            .filter(|(n, t)| n % 5 == 0 || t["rummikub"]["tiles_missed"].as_u64().unwrap() > 0);
        let mut checked = 0;
        for (n, turn) in picked {
            let r = &turn["rummikub"];
            let rack: Vec<&str> = r["rack"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap())
                .collect();
            let rack = rack.join(" ");
            let table = set_text(&r["table"]);
            for (objective, key) in [("tiles", "best_tiles"), ("value", "best_value")] {
                let mut args = vec![
                    "solve",
                    "rummikub",
                    "--rules",
                    rules,
                    "--table",
                    &table,
                    "--rack",
                    &rack,
                    "--objective",
                    objective,
                    "--json",
                ];
                if r["melded"] == false {
                    args.push("--initial");
                }
                let (out, err, ok) = rumi(&args, "");
                assert!(ok, "rumi solve {args:?}: {err}");
                let solved: Value = serde_json::from_str(out.trim()).unwrap();
                let reviewed = &r[key];
                if solved["tiles"] == 0 {
                    assert!(
                        reviewed.is_null(),
                        "turn {n}: {key} {reviewed}, rumi solve none"
                    );
                } else {
                    // The objective's figure (plays equally good on it may differ in
                    // the other).
                    assert_eq!(reviewed[objective], solved[objective], "turn {n}: {key}");
                }
            }
            checked += 1;
        }
        assert!(checked >= 3, "{rules}: only {checked} turns checked");
    }
}
