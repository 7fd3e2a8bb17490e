//! The forms of what clients send, checked before a game sees it: an action's form is
//! checked whosever turn it is, so a malformed action is refused (400) the same way at
//! any time, an action of the other game is refused for the table (409), and only the
//! rules decide the rest. The OpenAPI document states the same forms with the same
//! patterns ([`crate::openapi`]), so the document and the server cannot disagree.

use std::collections::BTreeMap;
use std::sync::{Mutex, OnceLock};

use serde_json::Value;

use crate::error::ApiError;
use crate::wire::GameKind;

/// Longest Rumis move text, in characters.
pub const MAX_MOVE_CHARS: usize = 200;

/// Most cells a Rumis action names.
pub const MAX_CELLS: usize = 8;

/// Most tiles a Rummikub table holds (the game has 106).
pub const MAX_TILES: usize = 106;

/// A Rummikub tile as `rummikub::Tile` reads it: `J`, or a colour letter (r, b, k, o)
/// and a number 1 to 13, in any case.
pub const TILE_PATTERN: &str = "^(?:[jJ]|[rRbBkKoO](?:0?[1-9]|1[0-3]))$";

/// A WebSocket key: 16 bytes in base64 (RFC 6455 §4.1).
pub const WEBSOCKET_KEY_PATTERN: &str = "^[A-Za-z0-9+/]{21}[AQgw]==$";

/// The Rummikub action types a seat may send; `timeout` is the server clock's, and
/// refused by the rules when a seat sends it.
pub const RUMMIKUB_ACTION_TYPES: [&str; 5] = ["play", "draw", "redeal", "next_round", "timeout"];

/// A word in any case, as a pattern: `tripod` → `[tT][rR]…`.
pub fn any_case(word: &str) -> String {
    word.chars()
        .map(|c| {
            if c.is_ascii_alphabetic() {
                format!("[{}{}]", c.to_ascii_lowercase(), c.to_ascii_uppercase())
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Rumis stone codes as `rumis::Stone::from_code` reads them: the codes and their
/// aliases, in any case.
fn stone_code() -> String {
    let mut codes: Vec<String> = rumis::Stone::ALL
        .iter()
        .map(|s| any_case(s.code()))
        .collect();
    // After the codes, so that `D2` is not read as the alias `D`.
    for alias in ["DOMINO", "TRIPOD", "D", "O", "T", "S", "Y"] {
        codes.push(any_case(alias));
    }
    format!("(?:{})", codes.join("|"))
}

/// A stone's code on its own (`{"stone": "L4", …}`).
pub fn stone_pattern() -> &'static str {
    static PATTERN: OnceLock<String> = OnceLock::new();
    PATTERN.get_or_init(|| format!("^{}$", stone_code()))
}

/// A Rumis move in the notation (`rumis::notation`), as far as it is read before the
/// rules: a stone and 1 to 8 cells (`L4 a1:1 b1:1 c1:1 a2:1`; a level may be left
/// out), a drop (`L4/7@c3`), or a removal (`x L4`, R16). Words are separated by spaces
/// or tabs.
pub fn move_pattern() -> &'static str {
    static PATTERN: OnceLock<String> = OnceLock::new();
    PATTERN.get_or_init(|| {
        let code = stone_code();
        let column = "[a-zA-Z][1-9][0-9]?";
        let cell = format!("{column}(?::[1-9][0-9]?)?");
        let gap = "[ \\t]+";
        format!(
            "^[ \\t]*(?:{code}(?:{gap}{cell}){{1,{MAX_CELLS}}}|{code}/[0-9]{{1,3}}@{column}|[xX]{gap}{code}(?:{gap}{cell}){{0,{MAX_CELLS}}})[ \\t]*$"
        )
    })
}

/// Whether `text` matches one of this module's patterns.
pub fn matches(pattern: &'static str, text: &str) -> bool {
    static COMPILED: OnceLock<Mutex<BTreeMap<&'static str, regex::Regex>>> = OnceLock::new();
    let mut compiled = COMPILED
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    compiled
        .entry(pattern)
        .or_insert_with(|| regex::Regex::new(pattern).expect("a valid pattern"))
        .is_match(text)
}

/// What is wrong with the form of a Rumis action (the schema `RumisAction`): a move in
/// the notation, or a stone and at most 8 cells `[x, y, z]` of 0 to 63.
pub fn rumis_action_problem(action: &Value) -> Option<String> {
    let Some(action) = action.as_object() else {
        return Some(
            "a Rumis action is {\"move\": \"L4 a1:1 …\"} or {\"stone\": \"L4\", \"cells\": [[x, y, z], …]}"
                .into(),
        );
    };
    if let Some(text) = action.get("move") {
        let Some(text) = text.as_str() else {
            return Some("`move` must be a string".into());
        };
        if text.chars().count() > MAX_MOVE_CHARS {
            return Some(format!("a move has at most {MAX_MOVE_CHARS} characters"));
        }
        if matches(move_pattern(), text) {
            return None;
        }
        // The notation's own words for what it cannot read, where it has them.
        let notation = match rumis::notation::parse_removal(text) {
            Some(removal) => removal.err(),
            None => rumis::notation::parse_move(text).err(),
        };
        return Some(notation.map_or_else(
            || {
                format!(
                    "`{}`: write a move as a stone and up to {MAX_CELLS} cells (L4 a1:1 b1:1 c1:1 a2:1), \
                     a drop (L4/7@c3) or a removal (x L4)",
                    text.chars().take(40).collect::<String>()
                )
            },
            |e| e.to_string(),
        ));
    }
    let Some(stone) = action.get("stone") else {
        return Some("the action needs `stone` (a stone code like \"L4\") or `move`".into());
    };
    let Some(stone) = stone.as_str() else {
        return Some("`stone` must be a string".into());
    };
    if !matches(stone_pattern(), stone) {
        return Some(format!(
            "unknown stone `{}` (stones: D2 I3 L3 I4 O4 T4 L4 S4 Y4 A4 B4)",
            stone.chars().take(20).collect::<String>()
        ));
    }
    let cell = |cell: &Value| {
        cell.as_array().is_some_and(|xyz| {
            xyz.len() == 3 && xyz.iter().all(|v| v.as_u64().is_some_and(|v| v < 64))
        })
    };
    let cells = action.get("cells").and_then(Value::as_array);
    if !cells.is_some_and(|cells| cells.len() <= MAX_CELLS && cells.iter().all(cell)) {
        return Some(format!(
            "`cells` must be a list of at most {MAX_CELLS} cells [x, y, z] of whole numbers 0 to 63"
        ));
    }
    None
}

/// What is wrong with the form of a Rummikub action (the schema `RummikubAction`): a
/// play of a table of at most 106 tiles, a draw, a redeal, the next round.
pub fn rummikub_action_problem(action: &Value) -> Option<String> {
    if !action.is_object() {
        return Some(
            "a Rummikub action is {\"type\": \"play\", \"table\": [[…], …]}, {\"type\": \"draw\"}, \
             {\"type\": \"redeal\"} or {\"type\": \"next_round\"}"
                .into(),
        );
    }
    let kind = match action.get("type") {
        None => return Some("the action needs `type`: play, draw, redeal or next_round".into()),
        Some(kind) => match kind.as_str() {
            None => return Some("`type` must be a string".into()),
            Some(kind) => kind,
        },
    };
    if !RUMMIKUB_ACTION_TYPES.contains(&kind) {
        return Some(format!(
            "unknown action type `{}` (play, draw, redeal, next_round)",
            kind.chars().take(40).collect::<String>()
        ));
    }
    if kind != "play" {
        return None;
    }
    let not_sets =
        || "`table` must be a list of sets, each a list of tiles like \"r7\" or \"J\"".to_string();
    let Some(sets) = action.get("table").and_then(Value::as_array) else {
        return Some(not_sets());
    };
    let mut count = 0;
    for set in sets {
        let Some(tiles) = set.as_array() else {
            return Some(not_sets());
        };
        count += tiles.len();
        for tile in tiles {
            let Some(tile) = tile.as_str() else {
                return Some(not_sets());
            };
            if !matches(TILE_PATTERN, tile) {
                let shown: String = tile.chars().take(20).collect();
                return Some(rummikub::tile::ParseTileError(shown).to_string());
            }
        }
    }
    (count > MAX_TILES)
        .then(|| format!("a table holds at most the game's {MAX_TILES} tiles, not {count}"))
}

/// Refuses an action that is not of the form of an action of the table's game: 409
/// when it is one of the other game's (the table plays another game), else 400.
pub fn action_fits(game: GameKind, action: &Value) -> Result<(), ApiError> {
    let (problem, other) = match game {
        GameKind::Rumis => (
            rumis_action_problem(action),
            rummikub_action_problem(action),
        ),
        GameKind::Rummikub => (
            rummikub_action_problem(action),
            rumis_action_problem(action),
        ),
    };
    match problem {
        None => Ok(()),
        Some(_) if other.is_none() => Err(ApiError::conflict(
            "not_for_this_game",
            format!(
                "this is a {} table; that action is for the other game",
                game.name()
            ),
        )),
        Some(problem) => Err(ApiError::bad_request("malformed_action", problem)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Everything the patterns admit, the games read: they only narrow the notation.
    #[test]
    fn what_the_patterns_admit_the_notation_reads() {
        for code in [
            "D2", "d2", "I3", "L3", "I4", "O4", "T4", "L4", "S4", "Y4", "A4", "B4", "domino",
            "TriPod", "D", "o", "T", "s", "y",
        ] {
            assert!(matches(stone_pattern(), code), "{code}");
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
            assert!(matches(move_pattern(), text), "{text}");
            let read = match rumis::notation::parse_removal(text) {
                Some(removal) => removal.is_ok(),
                None => rumis::notation::parse_move(text).is_ok(),
            };
            assert!(read, "{text}");
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
            assert!(!matches(move_pattern(), text), "{text}");
        }
        for tile in ["J", "j", "r1", "R13", "k09", "o10"] {
            assert!(matches(TILE_PATTERN, tile), "{tile}");
            assert!(tile.parse::<rummikub::Tile>().is_ok(), "{tile}");
        }
        for tile in ["r0", "r14", "x1", "r100", "jj", ""] {
            assert!(!matches(TILE_PATTERN, tile), "{tile}");
            assert!(tile.parse::<rummikub::Tile>().is_err(), "{tile}");
        }
    }

    #[test]
    fn an_action_is_checked_against_the_tables_game() {
        let rumis = json!({"move": "L4 a1 b1 c1 a2"});
        let draw = json!({"type": "draw"});
        assert!(action_fits(GameKind::Rumis, &rumis).is_ok());
        assert!(action_fits(GameKind::Rummikub, &draw).is_ok());
        assert_eq!(
            action_fits(GameKind::Rumis, &draw).unwrap_err().code,
            "not_for_this_game"
        );
        assert_eq!(
            action_fits(GameKind::Rummikub, &rumis).unwrap_err().code,
            "not_for_this_game"
        );
        let refused = action_fits(GameKind::Rumis, &json!({"move": "X9 a1"})).unwrap_err();
        assert_eq!(refused.code, "malformed_action");
        assert!(refused.message.contains("unknown stone"), "{refused}");
        let cells = json!({"stone": "D2", "cells": [[0, 0, 64]]});
        assert!(action_fits(GameKind::Rumis, &cells).is_err());
        let tiles = json!({"type": "play", "table": [["r7", "r8", "r99"]]});
        let refused = action_fits(GameKind::Rummikub, &tiles).unwrap_err();
        assert!(refused.message.contains("unknown tile"), "{refused}");
    }
}
