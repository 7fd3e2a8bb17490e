//! The analysis board over HTTP: a Rummikub position set up by hand gets the exact
//! solver's best plays (the same as `rumi solve`'s), a Rumis record is replayed move
//! by move and the bot's best moves at a point are legal there; every bad input gets
//! its specific refusal.

mod common;

use common::{start, temp_sqlite, TestServer};
use rumis::record::Record;
use rumis::{Position, Scenario, Setup};
use rummikub::notation::{parse_table, parse_tiles};
use rummikub::{RuleSet, Set};
use rummikub_solver::{Objective, TableAndRack};
use serde_json::{json, Value};

async fn rummikub(server: &TestServer, body: Value) -> (u16, Value) {
    server
        .post("/api/analysis/rummikub", &body.to_string())
        .await
}

/// The solver's own answer for the same position, as `rumi solve` computes it.
fn solver_tiles(table: &str, rack: &str, rules: &str, melded: bool, objective: Objective) -> u32 {
    let rules = RuleSet::preset(rules).unwrap();
    let position = TableAndRack::with_sets(
        parse_table(table).unwrap(),
        parse_tiles(rack).unwrap(),
        melded,
    );
    rummikub_solver::solve(&rules, &position, objective)
        .unwrap()
        .map_or(0, |best| match objective {
            Objective::Tiles => best.tiles,
            Objective::Value => best.value.max(0) as u32,
        })
}

fn tiles_of(sets: &Value) -> Vec<String> {
    let mut all: Vec<String> = sets
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| {
            s.as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap().to_string())
        })
        .collect();
    all.sort();
    all
}

#[tokio::test]
async fn a_position_set_up_by_hand_gets_the_solvers_best_plays() {
    let server = start(&temp_sqlite("analysis-rummikub"), 0).await;
    let positions = [
        ("[r1 r2 r3] [b5 k5 o5]", "r4 o6 o7 J b9", "current"),
        (
            "[r3 r4 r5 r6] [k7 k8 k9] [b11 o11 k11]",
            "r7 k10 b2 o12",
            "current",
        ),
        ("[o1 o2 o3] [b1 b2 b3] [k1 k2 k3]", "r1 r2 r3 J", "old"),
        ("", "b10 b11 b12 k13", "current"),
    ];
    for (table, rack, rules) in positions {
        let (status, answer) = rummikub(
            &server,
            json!({ "table": table, "rack": rack, "rules": rules }),
        )
        .await;
        assert_eq!(status, 200, "{table} / {rack}: {answer}");
        for (key, objective) in [
            ("by_tiles", Objective::Tiles),
            ("by_value", Objective::Value),
        ] {
            let expected = solver_tiles(table, rack, rules, true, objective);
            let play = &answer[key];
            let got = match objective {
                Objective::Tiles => play["tiles"].as_u64().unwrap_or(0),
                Objective::Value => play["value"].as_u64().unwrap_or(0),
            };
            assert_eq!(
                got,
                u64::from(expected),
                "{key} of {table} / {rack}: {answer}"
            );
            if play.is_null() {
                continue;
            }
            // The new table holds the old one's tiles and the laid ones, in valid sets.
            let mut before = tiles_of(&answer["table"]);
            before.extend(
                play["placed"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| t.as_str().unwrap().to_string()),
            );
            before.sort();
            assert_eq!(tiles_of(&play["table"]), before, "{key}: {play}");
            let rule_set = RuleSet::preset(rules).unwrap();
            for set in play["table"].as_array().unwrap() {
                let tiles: Vec<String> = set
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| t.as_str().unwrap().to_string())
                    .collect();
                let set = Set::new(parse_tiles(&tiles.join(" ")).unwrap());
                assert!(
                    set.check(&rule_set).is_ok(),
                    "{key}: {set} is not a valid set"
                );
            }
        }
    }
    // Known by hand: r4 extends the run; nothing else fits.
    let (_, answer) = rummikub(&server, json!({ "table": "[r1 r2 r3]", "rack": "r4 b9" })).await;
    assert_eq!(answer["by_tiles"]["placed"], json!(["r4"]), "{answer}");
    assert_eq!(
        answer["by_tiles"]["table"],
        json!([["r1", "r2", "r3", "r4"]])
    );
    // Nothing fits: the player draws.
    let (status, answer) =
        rummikub(&server, json!({ "table": "[r1 r2 r3]", "rack": "b9 o2" })).await;
    assert_eq!(status, 200);
    assert!(
        answer["by_tiles"].is_null() && answer["by_value"].is_null(),
        "{answer}"
    );
    // K4: before the initial meld, a run worth 6 cannot be laid alone.
    let (_, answer) = rummikub(&server, json!({ "rack": "r1 r2 r3", "initial": true })).await;
    assert!(answer["by_tiles"].is_null(), "{answer}");
    let (_, answer) = rummikub(&server, json!({ "rack": "r1 r2 r3", "initial": false })).await;
    assert_eq!(answer["by_tiles"]["tiles"], 3, "{answer}");
}

#[tokio::test]
async fn a_position_that_cannot_be_read_or_played_is_refused_with_its_reason() {
    let server = start(&temp_sqlite("analysis-refusals"), 0).await;
    let refused = [
        (json!({ "table": "[r1 r2 r3]", "rack": "x9" }), "rack"),
        (json!({ "table": "[r1 r2", "rack": "r4" }), "table"),
        (json!({ "table": "[r1 b2 k3]", "rack": "r4" }), "set"),
        (
            json!({ "table": "[r1 r2 r3] [r1 r2 r3]", "rack": "r1" }),
            "two",
        ),
        (json!({ "rack": "r4", "rules": "house" }), "current"),
        (json!({ "rack": "" }), "empty"),
        (json!({ "rack": "r1 ".repeat(600) }), "characters"),
    ];
    for (body, says) in refused {
        let (status, answer) = rummikub(&server, body.clone()).await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert_eq!(answer["code"], "bad_position", "{body}: {answer}");
        let message = answer["error"].as_str().unwrap();
        assert!(
            message.contains(says),
            "{body}: `{message}` should say {says}"
        );
    }
    // An unknown field is a malformed request, not a position.
    let (status, answer) = rummikub(&server, json!({ "rack": "r4", "cheat": true })).await;
    assert_eq!(status, 400, "{answer}");
}

/// A short game of random legal moves, as a record.
fn random_record(moves: usize) -> (String, Vec<Position>) {
    let scenario = Scenario::builtin("chullpa").unwrap();
    let mut position = rumis::Boards::new()
        .position(Setup::new(scenario, 2))
        .unwrap();
    let mut positions = vec![position.clone()];
    let mut state = 7u64;
    for _ in 0..moves {
        let legal = position.legal_moves();
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mv = legal[(state >> 33) as usize % legal.len()];
        position.play(mv).unwrap();
        positions.push(position.clone());
    }
    (Record::write(&position, None), positions)
}

#[tokio::test]
async fn a_record_is_replayed_and_the_bots_best_moves_are_legal_where_asked() {
    let server = start(&temp_sqlite("analysis-rumis"), 0).await;
    let (record, positions) = random_record(6);
    let (status, answer) = server
        .post(
            "/api/analysis/rumis",
            &json!({ "record": record }).to_string(),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    let steps = answer["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 7, "the start and one board per move");
    assert_eq!(answer["moves"].as_array().unwrap().len(), 6);
    // Each step after the first: what it keeps of the one before, then its own.
    let mut boards: Vec<(Vec<Value>, Vec<Value>)> = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        let own = |field: &str| step[field].as_array().unwrap().clone();
        let kept = |field: &str| answer["kept"][i][field].as_u64().unwrap() as usize;
        let (mut cubes, mut history) = boards.last().cloned().unwrap_or_default();
        cubes.truncate(kept("cubes"));
        history.truncate(kept("history"));
        cubes.extend(own("cubes"));
        history.extend(own("history"));
        boards.push((cubes, history));
    }
    for (i, ((step, position), (cubes, history))) in
        steps.iter().zip(&positions).zip(&boards).enumerate()
    {
        assert_eq!(history.len(), position.history().len(), "step {i}");
        let cubes = cubes.len();
        let expected: usize = position
            .history()
            .iter()
            .map(|&m| position.cells_of(m).len())
            .sum();
        assert_eq!(
            cubes, expected,
            "step {i}: every stone of the record so far"
        );
        assert_eq!(
            step["to_move_colour"].as_str(),
            position.to_move().map(|c| c.name()),
            "step {i}"
        );
    }
    assert!(
        steps[0]["stones"].is_object(),
        "the first step has the stones' shapes"
    );

    let (status, best) = server
        .post(
            "/api/analysis/rumis/best",
            &json!({ "record": record, "ply": 2 }).to_string(),
        )
        .await;
    assert_eq!(status, 200, "{best}");
    assert_eq!(best["ply"], 2);
    let position = &positions[2];
    assert_eq!(
        best["to_move"].as_str(),
        position.to_move().map(|c| c.name())
    );
    let moves = best["moves"].as_array().unwrap();
    assert!(!moves.is_empty(), "{best}");
    for m in moves {
        let chance = m["win_chance"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&chance), "{m}");
        let mut after = position.clone();
        after
            .play_text(m["move"].as_str().unwrap())
            .unwrap_or_else(|e| panic!("{m} is not legal after 2 moves: {e}"));
    }
}

#[tokio::test]
async fn a_record_that_cannot_be_replayed_is_refused_with_the_line_at_fault() {
    let server = start(&temp_sqlite("analysis-records"), 0).await;
    let (record, _) = random_record(3);
    // The third move played again: the stone is already used or the cells taken.
    let last = record.lines().last().unwrap().to_string();
    let broken = format!("{record}{last}\n");
    let line = broken.lines().count();
    let refused = [
        (json!({ "record": broken }), format!("line {line}")),
        (
            json!({ "record": record.replace("chullpa", "/etc/passwd") }),
            "not one of rumi's".to_string(),
        ),
        (
            json!({ "record": record, "ply": 4 }),
            "from 0 to 3".to_string(),
        ),
        (json!({ "record": "x".repeat(40_000) }), "KiB".to_string()),
    ];
    for (body, says) in refused {
        let path = if body.get("ply").is_some() {
            "/api/analysis/rumis/best"
        } else {
            "/api/analysis/rumis"
        };
        let (status, answer) = server.post(path, &body.to_string()).await;
        assert_eq!(status, 400, "{answer}");
        assert_eq!(answer["code"], "bad_record", "{answer}");
        let message = answer["error"].as_str().unwrap();
        assert!(message.contains(&says), "`{message}` should say {says}");
    }
}
