//! The built `rumi` binary: a short piped Rummikub game and the scripting commands.

use std::path::Path;
mod common;
use common::rumi;

#[test]
fn a_short_piped_game_melds_draws_and_quits() {
    let (out, err, ok) = rumi(
        &[
            "play",
            "rummikub",
            "--players",
            "2",
            "--seats",
            "human,random",
            "--seed",
            "12",
            "--no-timer",
        ],
        "lay r13 b13 k13 o4\nend\nback 1 o4\nend\ndraw\nquit\n",
    );
    assert!(ok, "{err}");
    assert!(
        out.contains("Not accepted: set 1 [r13 b13 k13 o4] is neither a run nor a group"),
        "{out}"
    );
    assert!(out.contains("player 1 (human) plays r13 b13 k13 (initial meld worth 39)"));
    assert!(out.contains("player 1 (human) draws "));
    assert!(out.trim_end().ends_with("Game abandoned."));
    // Piped output is plain notation.
    assert!(!out.contains('\x1b'));
}

#[test]
fn the_initial_meld_minimum_comes_from_the_rule_set() {
    let (out, _, ok) = rumi(
        &["play", "rummikub", "--seed", "12", "--no-timer"],
        "lay b9 b10 b11\nend\nquit\n",
    );
    assert!(ok);
    assert!(
        out.contains("player 1 (human) plays b9 b10 b11 (initial meld worth 30)"),
        "{out}"
    );
    let (out, _, _) = rumi(
        &[
            "play",
            "rummikub",
            "--seed",
            "12",
            "--no-timer",
            "--rules",
            "current initial_meld=40",
        ],
        "lay b9 b10 b11\nend\nquit\n",
    );
    assert!(
        out.contains("Not accepted: initial meld is worth 30, needs 40"),
        "{out}"
    );
}

#[test]
fn replay_validates_a_golden_record_and_prints_the_scores() {
    let golden = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../rummikub/tests/golden/current-2p-seed6-rummikub.txt");
    let (out, err, ok) = rumi(&["rummikub", "replay", golden.to_str().unwrap()], "");
    assert!(ok, "{err}");
    assert!(
        out.contains("winner: player 1 (played every tile)"),
        "{out}"
    );
    assert!(out.contains("scores: +10 -10"));
}

#[test]
fn replay_reports_an_illegal_record_and_fails() {
    let dir = std::env::temp_dir().join(format!("rumi-rk-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.txt");
    std::fs::write(
        &file,
        "rules current\nplayers 2\nseed 12\n1 play [r13 b13]\n",
    )
    .unwrap();
    let (_, err, ok) = rumi(&["rummikub", "replay", file.to_str().unwrap()], "");
    assert!(!ok);
    assert!(
        err.contains("line 4: player 1: set 1 [r13 b13] has only 2 tiles; a set needs at least 3"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn selfplay_records_replay_and_deal_and_check_explain_themselves() {
    let (record, _, ok) = rumi(
        &["rummikub", "selfplay", "--seed", "5", "--players", "3"],
        "",
    );
    assert!(ok);
    assert!(record.starts_with("rules current\nplayers 3\nseed 5\n"));
    assert!(rummikub::record::replay(&record).unwrap().is_over());

    let (deal, _, ok) = rumi(&["rummikub", "deal", "--seed", "0"], "");
    assert!(ok);
    assert!(deal.contains("player 1: r1 r5 r5 r8 r11 r13 b10 b10 b12 k2 k2 k4 o1 o13   (3 pairs: may demand a new deal)"), "{deal}");
    assert!(deal.contains("pool: 78 tiles"));

    let (check, _, ok) = rumi(&["rummikub", "check", "[J r5 J]"], "");
    assert!(ok);
    assert!(check.contains("is valid, worth 18"), "{check}");
    let (check, _, _) = rumi(&["rummikub", "check", "[J r5 J]", "--rules", "old"], "");
    assert!(
        check.contains("[J r5 J] has 2 jokers; these rules allow at most 1 per set"),
        "{check}"
    );
}

/// `rumi rummikub selfplay` plays through the match runner and prints, seed for seed,
/// the record it printed when it had a loop of its own (the fixture is that output).
#[test]
fn selfplay_through_the_match_runner_prints_the_same_record_as_before() {
    let (record, err, ok) = rumi(
        &[
            "rummikub",
            "selfplay",
            "--seed",
            "5",
            "--bot-seed",
            "9",
            "--players",
            "3",
            "--rules",
            "old",
        ],
        "",
    );
    assert!(ok, "{err}");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/selfplay-old-rules-seed5-botseed9-3p.txt");
    assert_eq!(record, std::fs::read_to_string(fixture).unwrap());
}
