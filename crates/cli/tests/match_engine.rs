//! `rumi match` seats an external engine: `rumi engine` itself, over the protocol.

use std::process::Command;

#[test]
fn match_seats_rumi_engine_as_an_external_engine() {
    let rumi = env!("CARGO_BIN_EXE_rumi");
    let seat = format!("engine:{rumi} engine --bot mcts:p=30");
    let out = Command::new(rumi)
        .args(["match", "rumis", "--scenario", "chullpa", "--seats"])
        .arg(format!("{seat},greedy"))
        .args(["--games", "2", "--json"])
        .output()
        .expect("rumi runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
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
