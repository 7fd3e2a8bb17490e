//! Whole games kept as records: each replays move by move under the rules, ends, and
//! gives the result written in it; writing the replayed game gives the same text.

use rumis::record::Record;
use rumis::Scenario;

#[test]
fn golden_games_replay_to_their_recorded_results() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(
        files.len(),
        12,
        "one golden game per variant and several scenarios, Rumis+ included"
    );
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let record = Record::parse(&text).unwrap();
        assert!(record.result.is_some(), "{}: finished game", path.display());
        let game = record
            .replay(Scenario::builtin(&record.scenario).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(game.is_over());
        assert_eq!(
            Record::write(&game, record.seats.as_deref()),
            text,
            "{}",
            path.display()
        );
    }
}

#[test]
fn a_tampered_golden_game_is_rejected_at_the_bad_line() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden");
    let text = std::fs::read_to_string(format!("{dir}/chullpa-4p-standard.record")).unwrap();
    // Blue's first stone is changed to lie on cells red already holds.
    let lines: Vec<&str> = text.lines().collect();
    let first_move = lines.iter().position(|l| l.starts_with("L4 ")).unwrap();
    let mut tampered: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    tampered[first_move + 1] = "D2 c3:1 c4:1".to_string(); // on red's cells
    let err = Record::parse(&tampered.join("\n"))
        .unwrap()
        .replay(Scenario::builtin("chullpa").unwrap())
        .unwrap_err();
    assert_eq!(err.line, first_move + 2);
    assert!(err.problem.contains("already taken by red"), "{err}");
}
