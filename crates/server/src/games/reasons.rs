//! The engines' refusals and the table's events as keys with parameters, so that a
//! client says them in the player's language and links each refusal to the rule it
//! enforces ("Why? R7"). The matches are exhaustive: a new refusal in an engine does
//! not compile until it has a key here, and the client's build checks that every key
//! listed in [`KEYS`] has a text in each language.

use std::collections::BTreeMap;

use rumis::rules::{CellName, Illegal};
use rummikub::round::TurnError;
use rummikub::set::SetProblem;
use serde_json::{json, Value};

use crate::wire::Reason;

/// Every key a reason or event can carry (the client's translations are checked
/// against this list).
pub const KEYS: &[&str] = &[
    "game_over",
    "no_such_placement",
    "not_colours_turn",
    "already_placed",
    "cube_count",
    "not_the_stone",
    "cell_twice",
    "outside",
    "too_high",
    "taken",
    "hole_under",
    "first_on_board",
    "first_touch",
    "own_contact",
    "no_such_orientation",
    "would_leave",
    "first_edge",
    "first_face",
    "inverse_own",
    "inverse_other",
    "outside_red",
    "inside_red",
    "rebuilt_on_board",
    "rebuilt_touch",
    "must_remove",
    "no_removal_now",
    "place_removed",
    "not_on_build",
    "remove_outside",
    "removal_hole",
    "cannot_set_aside",
    "round_over",
    "no_such_player",
    "not_players_turn",
    "set_problem",
    "third_copy",
    "unknown_tile",
    "left_table",
    "play_one",
    "meld_value",
    "meld_touch",
    "frozen",
    "no_clock",
    "redeal_old",
    "redeal_late",
    "redeal_pairs",
    "played",
    "melded",
    "drew",
    "passed",
    "penalty",
    "redealt",
    "round_dealt",
];

/// The problem keys of an invalid set (a parameter of `set_problem`).
pub const PROBLEMS: &[&str] = &["too_short", "jokers", "neither"];

fn reason(code: &str, rule: Option<&str>, params: Value) -> Reason {
    let params: BTreeMap<String, Value> = params
        .as_object()
        .map(|m| m.clone().into_iter().collect())
        .unwrap_or_default();
    debug_assert!(KEYS.contains(&code), "{code} is not in KEYS");
    Reason {
        code: code.to_string(),
        rule: rule.map(str::to_string),
        params,
    }
}

/// A cell as the client shows it: its column (`b5`) and level (counted from 1).
fn cell(name: &CellName) -> Value {
    json!({ "column": name.0.column_name(), "level": name.0.z + 1 })
}

/// Why a Rumis placement or removal was refused (R1–R16).
pub fn rumis(e: &Illegal) -> Reason {
    use Illegal::*;
    match e {
        GameOver => reason("game_over", None, json!({})),
        NoSuchPlacement(n) => reason("no_such_placement", None, json!({ "number": n })),
        NotYourTurn { colour, to_move } => reason(
            "not_colours_turn",
            Some("R6"),
            json!({ "colour": colour.name(), "to_move": to_move.name() }),
        ),
        StoneAlreadyPlaced { colour, stone } => reason(
            "already_placed",
            Some("R5"),
            json!({ "colour": colour.name(), "stone": stone.code() }),
        ),
        WrongCubeCount {
            stone,
            expected,
            given,
        } => reason(
            "cube_count",
            Some("R5"),
            json!({ "stone": stone.code(), "expected": expected, "given": given }),
        ),
        NotTheStone { stone } => reason(
            "not_the_stone",
            Some("R5"),
            json!({ "stone": stone.code() }),
        ),
        RepeatedCell(c) => reason("cell_twice", Some("R1"), json!({ "cell": cell(c) })),
        OutsideFootprint(c) => reason("outside", Some("R4"), json!({ "cell": cell(c) })),
        TooHigh { cell: c, limit } => reason(
            "too_high",
            Some("R4"),
            json!({ "cell": cell(c), "limit": limit }),
        ),
        Occupied { cell: c, by } => reason(
            "taken",
            Some("R1"),
            json!({ "cell": cell(c), "by": by.name() }),
        ),
        Hole(c) => reason("hole_under", Some("R3"), json!({ "cell": cell(c) })),
        FirstStoneNotOnBoard(colour) => reason(
            "first_on_board",
            Some("R6"),
            json!({ "colour": colour.name() }),
        ),
        FirstStoneWithoutContact(colour) => reason(
            "first_touch",
            Some("R6"),
            json!({ "colour": colour.name() }),
        ),
        NoOwnContact(colour) => reason(
            "own_contact",
            Some("R7"),
            json!({ "colour": colour.name() }),
        ),
        NoSuchOrientation {
            stone,
            orientation,
            count,
        } => reason(
            "no_such_orientation",
            Some("R5"),
            json!({ "stone": stone.code(), "orientation": orientation, "count": count }),
        ),
        OffTheBoard { stone, column } => reason(
            "would_leave",
            Some("R4"),
            json!({ "stone": stone.code(), "column": column }),
        ),
        FirstStoneWithoutEdgeContact { colour } => reason(
            "first_edge",
            Some("R14"),
            json!({ "colour": colour.name() }),
        ),
        FirstStonesFaceToFace {
            colour,
            other,
            cell: c,
        } => reason(
            "first_face",
            Some("R14"),
            json!({ "colour": colour.name(), "other": other.name(), "cell": cell(c) }),
        ),
        InverseOwnContact { colour, cell: c } => reason(
            "inverse_own",
            Some("R15"),
            json!({ "colour": colour.name(), "cell": cell(c) }),
        ),
        InverseWithoutOtherContact(colour) => reason(
            "inverse_other",
            Some("R15"),
            json!({ "colour": colour.name() }),
        ),
        OutsideRedLine(c) => reason("outside_red", Some("R16"), json!({ "cell": cell(c) })),
        InsideRedLine(c) => reason("inside_red", Some("R16"), json!({ "cell": cell(c) })),
        FirstRebuiltNotOnBoard(colour) => reason(
            "rebuilt_on_board",
            Some("R16"),
            json!({ "colour": colour.name() }),
        ),
        FirstRebuiltWithoutContact(colour) => reason(
            "rebuilt_touch",
            Some("R16"),
            json!({ "colour": colour.name() }),
        ),
        MustRemove { colour, example } => reason(
            "must_remove",
            Some("R16"),
            json!({ "colour": colour.name(), "example": example.code() }),
        ),
        NoRemovalNow => reason("no_removal_now", Some("R16"), json!({})),
        NotTheRemovedStone {
            colour,
            removed,
            stone,
        } => reason(
            "place_removed",
            Some("R16"),
            json!({ "colour": colour.name(), "stone": removed.code(), "given": stone.code() }),
        ),
        NotOnTheBuild { colour, stone } => reason(
            "not_on_build",
            Some("R16"),
            json!({ "colour": colour.name(), "stone": stone.code() }),
        ),
        RemovalOutsideRedLine { colour, stone } => reason(
            "remove_outside",
            Some("R16"),
            json!({ "colour": colour.name(), "stone": stone.code() }),
        ),
        RemovalLeavesHole { stone, cell: c } => reason(
            "removal_hole",
            Some("R16"),
            json!({ "stone": stone.code(), "cell": cell(c) }),
        ),
        CannotSetAside(stone) => reason(
            "cannot_set_aside",
            Some("R16"),
            json!({ "stone": stone.code() }),
        ),
    }
}

fn problem(p: &SetProblem) -> Value {
    match p {
        SetProblem::TooShort(count) => json!({ "problem": "too_short", "count": count }),
        SetProblem::TooManyJokers { jokers, allowed } => {
            json!({ "problem": "jokers", "jokers": jokers, "allowed": allowed })
        }
        SetProblem::NeitherRunNorGroup => json!({ "problem": "neither" }),
    }
}

/// Why a Rummikub turn was refused (K1–K10). Players are named by seat (`player`,
/// 0-based) so that the client shows their names.
pub fn rummikub(e: &TurnError) -> Reason {
    use TurnError::*;
    match e {
        RoundOver => reason("round_over", Some("K8"), json!({})),
        NoSuchPlayer(n) => reason(
            "no_such_player",
            None,
            json!({ "player": n.saturating_sub(1) }),
        ),
        NotYourTurn { player, current } => reason(
            "not_players_turn",
            None,
            json!({ "player": player.saturating_sub(1), "current": current.saturating_sub(1) }),
        ),
        InvalidSet {
            index,
            set,
            problem: p,
        } => {
            let mut params = problem(p);
            params["set"] = json!(index);
            params["tiles"] = json!(set.to_string());
            reason("set_problem", Some("K3"), params)
        }
        ThirdCopy(tile) => reason(
            "third_copy",
            Some("K1"),
            json!({ "tile": tile.to_string() }),
        ),
        NotAvailable(tile) => reason(
            "unknown_tile",
            Some("K5"),
            json!({ "tile": tile.to_string() }),
        ),
        LeftTable(tile) => reason(
            "left_table",
            Some("K5"),
            json!({ "tile": tile.to_string() }),
        ),
        NoTilePlayed => reason("play_one", Some("K5"), json!({})),
        InitialMeldTooLow { value, needed } => reason(
            "meld_value",
            Some("K4"),
            json!({ "value": value, "needed": needed }),
        ),
        InitialMeldTouchedTable(set) => reason(
            "meld_touch",
            Some("K4"),
            json!({ "tiles": set.to_string() }),
        ),
        FrozenJokerSet(set) => reason("frozen", Some("K5"), json!({ "tiles": set.to_string() })),
        NoTimeLimit => reason("no_clock", Some("K7"), json!({})),
        RedealNotAllowed => reason("redeal_old", Some("K2"), json!({})),
        RedealTooLate => reason("redeal_late", Some("K2"), json!({})),
        NotThreePairs { player, pairs } => reason(
            "redeal_pairs",
            Some("K2"),
            json!({ "player": player.saturating_sub(1), "pairs": pairs }),
        ),
    }
}

/// An event at a Rummikub table, for the client to say with names.
pub fn event(code: &str, params: Value) -> Reason {
    reason(code, None, params)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_listed_once() {
        let mut keys = KEYS.to_vec();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), KEYS.len());
    }
}
