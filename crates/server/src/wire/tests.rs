use super::*;

/// What the server reads a request with.
fn read<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    super::read(text.as_bytes())
}

/// OpenAPI 3.1's `integer` admits `2.0`: it is read as 2; a fraction or a negative
/// seat is refused like any other malformed request.
#[test]
fn a_whole_number_written_as_a_float_is_that_integer_and_a_fraction_is_refused() {
    assert_eq!(read::<JoinRequest>(r#"{"seat": 2}"#).unwrap().seat, Some(2));
    assert_eq!(
        read::<JoinRequest>(r#"{"seat": 2.0}"#).unwrap().seat,
        Some(2)
    );
    assert_eq!(
        read::<ActionRequest>(r#"{"version": 1e1, "action": {"type": "draw"}}"#)
            .unwrap()
            .version,
        10
    );
    assert!(read::<JoinRequest>(r#"{"seat": 2.5}"#).is_err());
    assert!(read::<JoinRequest>(r#"{"seat": -1}"#).is_err());
}

/// Every form the log has stored reads back as the same action, and is written
/// again exactly as it was stored (existing databases replay).
#[test]
fn logged_actions_read_back_as_they_were_stored() {
    for stored in [
        r#"{"move":"L4 a1:1 b1:1 c1:1 a2:1"}"#,
        r#"{"move":"x L4 a1:1 b1:1 c1:1 a2:1"}"#,
        r#"{"type":"play","table":[["r7","r8","r9"],["J","b5","k5"]]}"#,
        r#"{"type":"draw"}"#,
        r#"{"type":"redeal"}"#,
        r#"{"type":"next_round"}"#,
        r#"{"type":"timeout"}"#,
    ] {
        let action: GameAction = read(stored).unwrap();
        assert_eq!(serde_json::to_string(&action).unwrap(), stored);
    }
    let cells: GameAction = read(r#"{"stone": "l4", "cells": [[0, 0, 0], [1, 0, 0]]}"#).unwrap();
    assert_eq!(
        serde_json::to_string(&cells).unwrap(),
        r#"{"stone":"L4","cells":[[0,0,0],[1,0,0]]}"#
    );
}

/// A malformed action is refused with what is wrong with it, in the engine's words
/// where the engine reads it.
#[test]
fn a_malformed_action_says_what_is_wrong() {
    let wrong = |text: &str| read::<GameAction>(text).unwrap_err();
    assert!(wrong(r#"{"move": "X9 a1"}"#).contains("unknown stone `X9`"));
    assert!(wrong(r#"{"move": "L4 a1 b1 c1 zz"}"#).contains("`zz` is not a cell"));
    assert!(wrong(r#"{"move": "L4"}"#).contains("a move needs the stone's cells"));
    let long = format!(r#"{{"move": "L4 {}"}}"#, "a1 ".repeat(80));
    assert!(wrong(&long).contains("at most 200 characters"));
    assert!(wrong(r#"{"stone": "Q4", "cells": []}"#).contains("unknown stone `Q4`"));
    assert!(wrong(r#"{"stone": "D2", "cells": [[0, 0, 64]]}"#).contains("0 to 63"));
    assert!(wrong(r#"{"stone": "D2"}"#).contains("needs `cells`"));
    assert!(wrong(r#"{"type": "play", "table": [["r7", "r8", "r99"]]}"#).contains("r99"));
    assert!(wrong(r#"{"type": "play"}"#).contains("needs `table`"));
    assert!(wrong(r#"{"type": "jump"}"#).contains("unknown variant `jump`"));
    assert!(wrong(r#"{"type": "draw", "move": "L4 a1 b1 c1 a2"}"#).contains("not both"));
    assert!(wrong(r#"{}"#).contains("an action is"));
    assert!(wrong(r#"5"#).contains("invalid type"));
    let many = format!(
        r#"{{"type": "play", "table": [[{}]]}}"#,
        vec![r#""r1""#; 107].join(",")
    );
    assert!(wrong(&many).contains("at most the game's 106 tiles"));
}

/// Everything the document's move pattern admits, the engine's notation reads: the
/// pattern only describes the notation, it never widens it.
#[test]
fn what_the_move_pattern_admits_the_notation_reads() {
    let matches = |pattern: &str, text: &str| regex::Regex::new(pattern).unwrap().is_match(text);
    let stone = rumis::notation::stone_pattern();
    let mv = rumis::notation::move_pattern();
    for code in [
        "D2", "d2", "I3", "L3", "I4", "O4", "T4", "L4", "S4", "Y4", "A4", "B4", "domino", "TriPod",
        "D", "o", "T", "s", "y",
    ] {
        assert!(matches(&stone, code), "{code}");
        assert!(rumis::Stone::from_code(code).is_some(), "{code}");
    }
    for text in [
        "L4 a1:1 b1:1 c1:1 a2:1",
        "  l4\ta1 b1   c1 a2:99 ",
        "D2/7@c3",
        "domino/123@Z99",
        "x L4",
        "X y4 a1 b2:3",
    ] {
        assert!(matches(&mv, text), "{text}");
        assert!(RumisMove::parse(text).is_ok(), "{text}");
    }
    for text in [
        "",
        "L4",
        "L4 a0",
        "L4 a1:0",
        "Q4 a1",
        "L4 a1 > aside",
        "x",
        "L4/7@c3:1",
    ] {
        assert!(!matches(&mv, text), "{text}");
    }
    for tile in ["J", "j", "r1", "R13", "k09", "o10"] {
        assert!(matches(rummikub::Tile::PATTERN, tile), "{tile}");
        assert!(tile.parse::<rummikub::Tile>().is_ok(), "{tile}");
    }
    for tile in ["r0", "r14", "x1", "r100", "jj", ""] {
        assert!(!matches(rummikub::Tile::PATTERN, tile), "{tile}");
        assert!(tile.parse::<rummikub::Tile>().is_err(), "{tile}");
    }
}
