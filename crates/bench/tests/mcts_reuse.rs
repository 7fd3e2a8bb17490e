//! `rumi-bench mcts-reuse`: a kept MCTS bot against the same bot rebuilt every move,
//! through the match runner.

use std::process::Command;

#[test]
fn the_reuse_bench_plays_both_seatings_and_prints_the_win_share() {
    let output = Command::new(env!("CARGO_BIN_EXE_rumi-bench"))
        .args(["mcts-reuse", "--games", "2", "--ms", "5"])
        .output()
        .expect("rumi-bench runs");
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        out.starts_with(
            "mcts-reuse: 2 games on chullpa (2 players, standard), seeds from 0, 5 ms a move"
        ),
        "{out}"
    );
    let share = out
        .lines()
        .find_map(|l| l.strip_prefix("kept tree against rebuilt each move: win share "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        share.contains("% (95% CI, 2 seat-games; an even match is 50.0%)"),
        "{out}"
    );
    assert!(out.contains("of its moves with a kept subtree"), "{out}");

    let bad = Command::new(env!("CARGO_BIN_EXE_rumi-bench"))
        .args(["mcts-reuse", "--games", "2", "--scenario", "nowhere"])
        .output()
        .expect("rumi-bench runs");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown scenario `nowhere`"));
}
