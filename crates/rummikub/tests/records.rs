//! Golden round records: each file in `tests/golden/` replays, every action is checked,
//! and the records written back are byte for byte the same. Plus the record errors.

use std::path::Path;

use rummikub::record::{replay, write_record, Record, RecordError};
use rummikub::{EndReason, Round};

fn golden(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn replayed(name: &str) -> Round {
    replay(&golden(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn every_golden_record_replays_and_writes_back_identically() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut count = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let round = replay(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let without_comments: String = text
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(
            write_record(&round).unwrap(),
            without_comments,
            "{}",
            path.display()
        );
        count += 1;
    }
    assert!(count >= 6, "golden records missing");
}

#[test]
fn golden_current_rules_round_ends_with_rummikub() {
    let round = replayed("current-2p-seed6-rummikub.txt");
    let outcome = round.outcome().unwrap();
    assert_eq!(outcome.reason, EndReason::Rummikub);
    assert_eq!(outcome.winners, vec![0]);
    assert_eq!(round.rack_len(0), 0);
    assert_eq!(outcome.scores, vec![10, -10]);
}

#[test]
fn golden_rounds_that_end_on_an_empty_pool() {
    for (name, winners, scores) in [
        ("current-2p-seed1.txt", vec![0], vec![45, -45]),
        ("current-4p-seed3.txt", vec![2], vec![-64, -57, 175, -54]),
        ("old-3p-seed7.txt", vec![1], vec![-30, 55, -25]),
        ("custom-2p-seed11.txt", vec![1], vec![-36, 36]),
    ] {
        let round = replayed(name);
        let outcome = round.outcome().unwrap();
        assert_eq!(outcome.reason, EndReason::PoolExhausted, "{name}");
        assert_eq!(round.pool_len(), 0, "{name}");
        assert_eq!(outcome.winners, winners, "{name}");
        assert_eq!(outcome.scores, scores, "{name}");
        // K9: the round is zero-sum with one winner.
        assert_eq!(outcome.scores.iter().sum::<i32>(), 0, "{name}");
    }
}

#[test]
fn golden_custom_rules_keep_their_values() {
    let round = replayed("custom-2p-seed11.txt");
    assert_eq!(round.rules().joker_penalty, 30);
    assert_eq!(round.rules().initial_meld_minimum, 40);
    assert_eq!(round.rules().turn_time_seconds, None);
    let old = replayed("old-3p-seed7.txt");
    assert_eq!(*old.rules(), rummikub::RuleSet::old());
}

#[test]
fn golden_redeal_and_time_outs() {
    let round = replayed("redeal-timeout-current-2p.txt");
    assert!(!round.is_over());
    // 14 dealt again; player 1: +3 penalty, +1 draw, -3 meld, -3 play, +1 draw.
    assert_eq!(round.rack_len(0), 12);
    // Player 2: +1, +1, +3 penalty, -3 meld.
    assert_eq!(round.rack_len(1), 16);
    assert_eq!(round.pool_len(), 106 - 28 - 3 - 1 - 1 - 3 - 1);
    assert_eq!(round.table().len(), 3);
    assert!(round.has_melded(0) && round.has_melded(1));
}

#[test]
fn an_illegal_action_in_a_record_is_reported_with_its_line() {
    let text = golden("redeal-timeout-current-2p.txt").replace("2 draw\n1 play", "1 draw\n1 play");
    assert_eq!(
        replay(&text).unwrap_err().to_string(),
        "line 9: player 1: it is player 2's turn, not player 1's"
    );
    let text = golden("redeal-timeout-current-2p.txt").replace("[r10 k10 o10]\n", "[r10 k10]\n");
    assert_eq!(
        replay(&text).unwrap_err().to_string(),
        "line 10: player 1: set 1 [r10 k10] has only 2 tiles; a set needs at least 3"
    );
}

#[test]
fn a_record_whose_scores_disagree_is_rejected() {
    let text = golden("current-2p-seed1.txt").replace("scores 45 -45", "scores 50 -50");
    assert_eq!(
        replay(&text).unwrap_err().to_string(),
        "line 135: the record says scores 50 -50, but the replay gives 45 -45"
    );
}

#[test]
fn malformed_records_say_what_is_missing_or_wrong() {
    let err = |t: &str| Record::parse(t).unwrap_err().to_string();
    assert_eq!(
        err("players 2\nseed 1\n"),
        "the record needs a 'rules' line before the first action"
    );
    assert_eq!(
        err("rules current\nseed 1\n"),
        "the record needs a 'players' line before the first action"
    );
    assert_eq!(
        err("rules newest\n"),
        "line 1: unknown rule preset 'newest': use current or old"
    );
    assert_eq!(
        err("rules current\nplayers 2\nseed 1\n1 jump\n"),
        "line 4: unknown action 'jump': use play [sets], draw, timeout or redeal"
    );
    assert_eq!(
        err("rules current\nplayers 2\nseed x\n"),
        "line 3: bad seed 'x'"
    );
    assert_eq!(
        err("rules current\nplayers 2\nseed 1\n1 play [r1 r2 r3\n"),
        "line 4: a '[' is not closed by ']'"
    );
    assert!(matches!(
        Record::parse("rules current\nplayers 5\nseed 1\n")
            .unwrap()
            .replay(),
        Err(RecordError::Deal(_))
    ));
}
