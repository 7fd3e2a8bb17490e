//! The engines' refusals and the table's events as keys with parameters, so that a
//! client says them in the player's language and links each refusal to the rule it
//! enforces ("Why? R7"). The matches are exhaustive: a new refusal in an engine does
//! not compile until it has a code here, and the codes are Rust enums exported to the
//! client ([`RefusalCode`], [`EventCode`], [`SetProblemCode`]), whose compiler checks
//! that every code has a text in each language.

use std::collections::BTreeMap;

use rumis::rules::{CellName, Illegal};
use rummikub::round::TurnError;
use rummikub::set::SetProblem;
use serde_json::{json, Value};

use crate::wire::{Event, EventCode, Reason, RefusalCode, SetProblemCode};

fn reason(code: RefusalCode, rule: Option<&str>, params: Value) -> Reason {
    Reason {
        code,
        rule: rule.map(str::to_string),
        params: object(params),
    }
}

fn object(params: Value) -> BTreeMap<String, Value> {
    params
        .as_object()
        .map(|m| m.clone().into_iter().collect())
        .unwrap_or_default()
}

/// A cell as the client shows it: its column (`b5`) and level (counted from 1).
fn cell(name: &CellName) -> Value {
    json!({ "column": name.0.column_name(), "level": name.0.z + 1 })
}

/// Why a Rumis placement or removal was refused (R1–R16).
pub fn rumis(e: &Illegal) -> Reason {
    use Illegal::*;
    match e {
        GameOver => reason(RefusalCode::GameOver, None, json!({})),
        NoSuchPlacement(n) => reason(RefusalCode::NoSuchPlacement, None, json!({ "number": n })),
        NotYourTurn { colour, to_move } => reason(
            RefusalCode::NotColoursTurn,
            Some("R6"),
            json!({ "colour": colour.name(), "to_move": to_move.name() }),
        ),
        StoneAlreadyPlaced { colour, stone } => reason(
            RefusalCode::AlreadyPlaced,
            Some("R5"),
            json!({ "colour": colour.name(), "stone": stone.code() }),
        ),
        WrongCubeCount {
            stone,
            expected,
            given,
        } => reason(
            RefusalCode::CubeCount,
            Some("R5"),
            json!({ "stone": stone.code(), "expected": expected, "given": given }),
        ),
        NotTheStone { stone } => reason(
            RefusalCode::NotTheStone,
            Some("R5"),
            json!({ "stone": stone.code() }),
        ),
        RepeatedCell(c) => reason(
            RefusalCode::CellTwice,
            Some("R1"),
            json!({ "cell": cell(c) }),
        ),
        OutsideFootprint(c) => reason(RefusalCode::Outside, Some("R4"), json!({ "cell": cell(c) })),
        TooHigh { cell: c, limit } => reason(
            RefusalCode::TooHigh,
            Some("R4"),
            json!({ "cell": cell(c), "limit": limit }),
        ),
        Occupied { cell: c, by } => reason(
            RefusalCode::Taken,
            Some("R1"),
            json!({ "cell": cell(c), "by": by.name() }),
        ),
        Hole(c) => reason(
            RefusalCode::HoleUnder,
            Some("R3"),
            json!({ "cell": cell(c) }),
        ),
        FirstStoneNotOnBoard(colour) => reason(
            RefusalCode::FirstOnBoard,
            Some("R6"),
            json!({ "colour": colour.name() }),
        ),
        FirstStoneWithoutContact(colour) => reason(
            RefusalCode::FirstTouch,
            Some("R6"),
            json!({ "colour": colour.name() }),
        ),
        NoOwnContact(colour) => reason(
            RefusalCode::OwnContact,
            Some("R7"),
            json!({ "colour": colour.name() }),
        ),
        NoSuchOrientation {
            stone,
            orientation,
            count,
        } => reason(
            RefusalCode::NoSuchOrientation,
            Some("R5"),
            json!({ "stone": stone.code(), "orientation": orientation, "count": count }),
        ),
        OffTheBoard { stone, column } => reason(
            RefusalCode::WouldLeave,
            Some("R4"),
            json!({ "stone": stone.code(), "column": column }),
        ),
        FirstStoneWithoutEdgeContact { colour } => reason(
            RefusalCode::FirstEdge,
            Some("R14"),
            json!({ "colour": colour.name() }),
        ),
        FirstStonesFaceToFace {
            colour,
            other,
            cell: c,
        } => reason(
            RefusalCode::FirstFace,
            Some("R14"),
            json!({ "colour": colour.name(), "other": other.name(), "cell": cell(c) }),
        ),
        InverseOwnContact { colour, cell: c } => reason(
            RefusalCode::InverseOwn,
            Some("R15"),
            json!({ "colour": colour.name(), "cell": cell(c) }),
        ),
        InverseWithoutOtherContact(colour) => reason(
            RefusalCode::InverseOther,
            Some("R15"),
            json!({ "colour": colour.name() }),
        ),
        OutsideRedLine(c) => reason(
            RefusalCode::OutsideRed,
            Some("R16"),
            json!({ "cell": cell(c) }),
        ),
        InsideRedLine(c) => reason(
            RefusalCode::InsideRed,
            Some("R16"),
            json!({ "cell": cell(c) }),
        ),
        FirstRebuiltNotOnBoard(colour) => reason(
            RefusalCode::RebuiltOnBoard,
            Some("R16"),
            json!({ "colour": colour.name() }),
        ),
        FirstRebuiltWithoutContact(colour) => reason(
            RefusalCode::RebuiltTouch,
            Some("R16"),
            json!({ "colour": colour.name() }),
        ),
        MustRemove { colour, example } => reason(
            RefusalCode::MustRemove,
            Some("R16"),
            json!({ "colour": colour.name(), "example": example.code() }),
        ),
        NoRemovalNow => reason(RefusalCode::NoRemovalNow, Some("R16"), json!({})),
        NotTheRemovedStone {
            colour,
            removed,
            stone,
        } => reason(
            RefusalCode::PlaceRemoved,
            Some("R16"),
            json!({ "colour": colour.name(), "stone": removed.code(), "given": stone.code() }),
        ),
        NotOnTheBuild { colour, stone } => reason(
            RefusalCode::NotOnBuild,
            Some("R16"),
            json!({ "colour": colour.name(), "stone": stone.code() }),
        ),
        RemovalOutsideRedLine { colour, stone } => reason(
            RefusalCode::RemoveOutside,
            Some("R16"),
            json!({ "colour": colour.name(), "stone": stone.code() }),
        ),
        RemovalLeavesHole { stone, cell: c } => reason(
            RefusalCode::RemovalHole,
            Some("R16"),
            json!({ "stone": stone.code(), "cell": cell(c) }),
        ),
        CannotSetAside(stone) => reason(
            RefusalCode::CannotSetAside,
            Some("R16"),
            json!({ "stone": stone.code() }),
        ),
    }
}

fn problem(p: &SetProblem) -> Value {
    match p {
        SetProblem::TooShort(count) => {
            json!({ "problem": SetProblemCode::TooShort, "count": count })
        }
        SetProblem::TooManyJokers { jokers, allowed } => {
            json!({ "problem": SetProblemCode::Jokers, "jokers": jokers, "allowed": allowed })
        }
        SetProblem::NeitherRunNorGroup => json!({ "problem": SetProblemCode::Neither }),
    }
}

/// Why a Rummikub turn was refused (K1–K10). Players are named by seat (`player`,
/// 0-based) so that the client shows their names.
pub fn rummikub(e: &TurnError) -> Reason {
    use TurnError::*;
    match e {
        RoundOver => reason(RefusalCode::RoundOver, Some("K8"), json!({})),
        NoSuchPlayer(n) => reason(
            RefusalCode::NoSuchPlayer,
            None,
            json!({ "player": n.saturating_sub(1) }),
        ),
        NotYourTurn { player, current } => reason(
            RefusalCode::NotPlayersTurn,
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
            reason(RefusalCode::SetProblem, Some("K3"), params)
        }
        ThirdCopy(tile) => reason(
            RefusalCode::ThirdCopy,
            Some("K1"),
            json!({ "tile": tile.to_string() }),
        ),
        NotAvailable(tile) => reason(
            RefusalCode::UnknownTile,
            Some("K5"),
            json!({ "tile": tile.to_string() }),
        ),
        LeftTable(tile) => reason(
            RefusalCode::LeftTable,
            Some("K5"),
            json!({ "tile": tile.to_string() }),
        ),
        NoTilePlayed => reason(RefusalCode::PlayOne, Some("K5"), json!({})),
        InitialMeldTooLow { value, needed } => reason(
            RefusalCode::MeldValue,
            Some("K4"),
            json!({ "value": value, "needed": needed }),
        ),
        InitialMeldTouchedTable(set) => reason(
            RefusalCode::MeldTouch,
            Some("K4"),
            json!({ "tiles": set.to_string() }),
        ),
        FrozenJokerSet(set) => reason(
            RefusalCode::Frozen,
            Some("K5"),
            json!({ "tiles": set.to_string() }),
        ),
        NoTimeLimit => reason(RefusalCode::NoClock, Some("K7"), json!({})),
        RedealNotAllowed => reason(RefusalCode::RedealOld, Some("K2"), json!({})),
        RedealTooLate => reason(RefusalCode::RedealLate, Some("K2"), json!({})),
        NotThreePairs { player, pairs } => reason(
            RefusalCode::RedealPairs,
            Some("K2"),
            json!({ "player": player.saturating_sub(1), "pairs": pairs }),
        ),
    }
}

/// An event at a Rummikub table, for the client to say with names.
pub fn event(code: EventCode, params: Value) -> Event {
    Event {
        code,
        params: object(params),
    }
}
