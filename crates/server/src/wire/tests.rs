use super::*;

/// What the server reads a request with.
fn read<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    super::read(text.as_bytes())
}

/// Numbers are read as the document types them: an integer is written as one, and a
/// float, a fraction or a negative seat is refused like any other malformed request,
/// naming the field.
#[test]
fn an_integer_is_written_as_one() {
    assert_eq!(read::<JoinRequest>(r#"{"seat": 2}"#).unwrap().seat, Some(2));
    for (text, field) in [
        (r#"{"seat": 2.0}"#, "seat"),
        (r#"{"seat": 2.5}"#, "seat"),
        (r#"{"seat": -1}"#, "seat"),
    ] {
        let error = read::<JoinRequest>(text).unwrap_err();
        assert!(error.starts_with(&format!("{field}: ")), "{text}: {error}");
    }
    let error =
        read::<ActionRequest>(r#"{"version": 1e1, "action": {"type": "draw"}}"#).unwrap_err();
    assert!(
        error.starts_with("version: invalid type: floating point"),
        "{error}"
    );
}

/// Every action reads back as the same action, and is written again exactly as it
/// was stored: one object named by its `type`.
#[test]
fn logged_actions_read_back_as_they_were_stored() {
    for stored in [
        r#"{"type":"rumis_move","move":"L4 a1:1 b1:1 c1:1 a2:1"}"#,
        r#"{"type":"rumis_move","move":"x L4 a1:1 b1:1 c1:1 a2:1"}"#,
        r#"{"type":"rumis_place","stone":"L4","cells":[[0,0,0],[1,0,0]]}"#,
        r#"{"type":"play","table":[["r7","r8","r9"],["J","b5","k5"]]}"#,
        r#"{"type":"draw"}"#,
        r#"{"type":"redeal"}"#,
        r#"{"type":"next_round"}"#,
        r#"{"type":"timeout"}"#,
    ] {
        let action: GameAction = read(stored).unwrap();
        assert_eq!(serde_json::to_string(&action).unwrap(), stored);
    }
    // The type may come after the fields; a stone's alias is written as its code.
    let cells: GameAction =
        read(r#"{"cells": [[0, 0, 0], [1, 0, 0]], "stone": "l4", "type": "rumis_place"}"#).unwrap();
    assert_eq!(
        serde_json::to_string(&cells).unwrap(),
        r#"{"type":"rumis_place","stone":"L4","cells":[[0,0,0],[1,0,0]]}"#
    );
}

/// A malformed action is refused with what is wrong with it and where, in the
/// engine's words where the engine reads it.
#[test]
fn a_malformed_action_says_what_is_wrong() {
    let wrong = |text: &str| read::<GameAction>(text).unwrap_err();
    let says = |text: &str, what: &str| {
        let error = wrong(text);
        assert!(error.contains(what), "{text}: {error}");
    };
    says(
        r#"{"type": "rumis_move", "move": "X9 a1"}"#,
        "move: unknown stone `X9`",
    );
    says(
        r#"{"type": "rumis_move", "move": "L4 a1 b1 c1 zz"}"#,
        "`zz` is not a cell",
    );
    says(
        r#"{"type": "rumis_move", "move": "L4"}"#,
        "a move needs the stone's cells",
    );
    let long = format!(
        r#"{{"type": "rumis_move", "move": "L4 {}"}}"#,
        "a1 ".repeat(80)
    );
    says(&long, "at most 200 characters");
    says(
        r#"{"type": "rumis_place", "stone": "Q4", "cells": []}"#,
        "stone: unknown stone `Q4`",
    );
    says(
        r#"{"type": "rumis_place", "stone": "D2", "cells": [[0, 0, 64]]}"#,
        "0 to 63",
    );
    says(
        r#"{"stone": "D2", "cells": [[0, 0, 1.5]], "type": "rumis_place"}"#,
        "cells[0][2]: invalid type: floating point",
    );
    says(
        r#"{"type": "rumis_place", "stone": "D2"}"#,
        "a `rumis_place` action needs `cells`",
    );
    says(
        r#"{"type": "play", "table": [["r7", "r8", "r99"]]}"#,
        "table[0][2]: ",
    );
    says(r#"{"type": "play", "table": [["r7", "r8", "r99"]]}"#, "r99");
    says(r#"{"type": "play"}"#, "a `play` action needs `table`");
    says(r#"{"type": "jump"}"#, "type: unknown variant `jump`");
    says(
        r#"{"type": "draw", "move": "L4 a1 b1 c1 a2"}"#,
        "a `draw` action has no `move`",
    );
    says(
        r#"{"type": "draw", "type": "redeal"}"#,
        "duplicate field `type`",
    );
    says(r#"{"type": "draw", "ply": 1}"#, "unknown field `ply`");
    // The forms without a type (the log's before) are refused.
    says(
        r#"{"move": "L4 a1 b1 c1 a2"}"#,
        "an action needs its `type`",
    );
    says(r#"{}"#, "an action needs its `type`");
    says(r#"5"#, "invalid type");
    let many = format!(
        r#"{{"type": "play", "table": [[{}]]}}"#,
        vec![r#""r1""#; 107].join(",")
    );
    says(&many, "at most the game's 106 tiles");
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
