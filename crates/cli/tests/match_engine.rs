//! `rumi match` seats an external engine: `rumi engine` itself, over the protocol.

use std::process::{Command, Output};

/// Runs `rumi match` with these arguments; it must succeed.
fn run_match(args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_rumi"))
        .arg("match")
        .args(args)
        .output()
        .expect("rumi runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[test]
fn match_seats_rumi_engine_as_an_external_engine() {
    let rumi = env!("CARGO_BIN_EXE_rumi");
    let seats = format!("engine:{rumi} engine --bot mcts:p=30,greedy");
    let out = run_match(&[
        "rumis",
        "--scenario",
        "chullpa",
        "--seats",
        &seats,
        "--games",
        "2",
        "--json",
    ]);
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(summary["games"], 2);
    assert_eq!(summary["bots"][0]["seat_games"], 2);
    let bad = Command::new(rumi)
        .args([
            "match",
            "rumis",
            "--seats",
            "engine:/no/such/engine,greedy",
            "--games",
            "1",
        ])
        .output()
        .expect("rumi runs");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("cannot start engine"));
}

/// Rummikub: the engine gets each seat's view (`setview`) and answers with the same
/// deterministic bot, so every game comes out move for move as with that bot in process.
#[test]
fn a_rummikub_engine_plays_exactly_like_the_same_bot_in_process() {
    let rumi = env!("CARGO_BIN_EXE_rumi");
    let dir = std::env::temp_dir().join(format!("rumi-engine-match-{}", std::process::id()));
    let run = |seat: &str, name: &str| {
        let records = dir.join(name);
        let seats = format!("{seat},greedy");
        let records_arg = records.to_string_lossy().to_string();
        run_match(&[
            "rummikub",
            "--seats",
            &seats,
            "--games",
            "4",
            "--seed",
            "11",
            "--save-records",
            &records_arg,
        ]);
        (1..=4)
            .map(|g| {
                std::fs::read_to_string(records.join(format!("game-{g:04}.txt"))).expect("record")
            })
            .collect::<Vec<String>>()
    };
    let external = run(&format!("engine:{rumi} engine --bot keeper"), "external");
    let internal = run("keeper", "internal");
    assert!(
        internal.iter().all(|r| r.lines().count() > 10),
        "whole games"
    );
    assert_eq!(external, internal);
    let _ = std::fs::remove_dir_all(&dir);
}
