//! The transcript in docs/engine-protocol.md, replayed line by line against the engine.

use play::engine::Engine;

#[test]
fn the_documented_transcript_holds() {
    let doc = include_str!("../../../docs/engine-protocol.md");
    let start = doc.find("```text\n").expect("a transcript block") + "```text\n".len();
    let block = &doc[start..start + doc[start..].find("```").expect("its end")];
    let mut engine = Engine::new();
    let mut commands = 0;
    let mut lines = block.lines().peekable();
    while let Some(line) = lines.next() {
        let command = line.strip_prefix("> ").expect("a command line");
        let mut expected = String::new();
        while let Some(next) = lines.peek() {
            if next.starts_with("> ") {
                break;
            }
            expected.push_str(next);
            expected.push('\n');
            lines.next();
        }
        assert_eq!(engine.handle(command), expected, "after `{command}`");
        commands += 1;
    }
    assert!(commands > 10);
    assert!(engine.quit);
}

#[test]
fn bad_input_is_refused_not_panicked() {
    let mut engine = Engine::new();
    for line in [
        "play O4 a1:1",
        "genmove",
        "newgame chess",
        "newgame rumis players=9",
        "newgame rumis scenario=nowhere",
        "newgame rumis seed=x",
        "newgame rummikub players=7",
        "bot nonsense",
        "frobnicate",
    ] {
        let answer = engine.handle(line);
        assert!(answer.starts_with("? "), "`{line}` gave {answer:?}");
        assert!(answer.ends_with("\n\n"));
    }
    assert_eq!(engine.handle(""), "");
    assert!(engine.handle("newgame rumis players=2").starts_with('='));
    assert!(engine.handle("play").starts_with('?'));
    assert!(engine.handle("genmove mcts:9").starts_with('?'));
    assert!(engine.handle("analyse 2 mcts:p=50").starts_with("= 2\n"));
}

#[test]
fn a_record_sets_the_position() {
    let mut engine = Engine::new();
    engine.handle("newgame rumis scenario=chullpa players=2 seed=3");
    engine.handle("genmove greedy");
    engine.handle("genmove greedy");
    let record = engine.handle("record");
    let body = record.strip_prefix("=\n").expect("a record");
    let mut other = Engine::new();
    assert_eq!(other.handle("setrecord"), "");
    for line in body.trim_end().lines() {
        assert_eq!(other.handle(line), "");
    }
    assert_eq!(other.handle("end"), "=\n\n");
    assert_eq!(other.handle("record"), record);
    other.handle("setrecord");
    other.handle("game: rumis");
    other.handle("scenario: chullpa");
    other.handle("players: 2");
    other.handle("Q9 z1:1");
    assert!(other.handle("end").starts_with("? "));
}
