//! The solo cube in the browser (R12, `docs/rumis-solo.md`): a person builds a full
//! cube of edge 3, 4 or 5 from one to four colours, with or without the placement
//! rules and alternating colours. The server keeps no build: each request names the
//! level and the stones placed so far, which are replayed through the cube engine
//! (`rumis::solo::Build`), so every stone is the engine's to accept.
//!
//! "Can this still be finished?" and a hint run the exact solver on the thinking pool
//! within [`SOLVER_BOUND`]; beyond it the answer is "unknown". The 48 levels are
//! decided once per process ([`levels`]). [`routes`] has the HTTP side and its limits.

pub mod routes;

use std::collections::BTreeMap;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use rumis::rules::{CellName, Illegal};
use rumis::solo::{Build, CubeSpec, Decision, Hint, Piece, PlaceError, SoloCube, SoloCubeError};
use rumis::{Cell, Colour, Stone};
use serde_json::json;

use crate::error::ApiError;
use crate::wire::{
    ColourView, CubeView, ErrorCode, PlacementView, Reason, RefusalCode, RumisView, ScenarioView,
    SoloAnswer, SoloImpossible, SoloLevel, SoloLevelInfo, SoloPiece, SoloPlaced, SoloState,
};

pub use routes::{routes, Solo, SoloLimits};

/// How long "can this still be finished?" and a hint may search.
pub const SOLVER_BOUND: Duration = Duration::from_secs(2);
/// How long each level may search when the level list is decided (once per process).
const LEVEL_BOUND: Duration = Duration::from_secs(20);
/// The edges and colour counts of the level list.
pub const EDGES: [u8; 3] = [3, 4, 5];
pub const MAX_COLOURS: u8 = 4;
/// Cubes one colour holds (all eleven stones, R5).
const CUBES_PER_COLOUR: u32 = 40;

/// Every level of the list, edge by edge, then colours, rules, alternation.
pub fn all_levels() -> Vec<SoloLevel> {
    let mut out = Vec::with_capacity(48);
    for edge in EDGES {
        for colours in 1..=MAX_COLOURS {
            for (rules, alternate) in [(false, false), (true, false), (false, true), (true, true)] {
                out.push(SoloLevel {
                    edge,
                    colours,
                    rules,
                    alternate,
                });
            }
        }
    }
    out
}

fn index_of(level: &SoloLevel) -> Option<usize> {
    let e = EDGES.iter().position(|&e| e == level.edge)?;
    if !(1..=MAX_COLOURS).contains(&level.colours) {
        return None;
    }
    Some(
        e * 16
            + usize::from(level.colours - 1) * 4
            + 2 * usize::from(level.rules)
            + usize::from(level.alternate),
    )
}

/// The level's cube, set up once per process; a level of no full cube is its reason.
pub fn cube(level: &SoloLevel) -> Result<Result<&'static SoloCube, SoloCubeError>, ApiError> {
    static PUZZLES: OnceLock<Vec<OnceLock<Result<SoloCube, SoloCubeError>>>> = OnceLock::new();
    let index = index_of(level).ok_or_else(|| {
        ApiError::bad_request(
            ErrorCode::BadSoloLevel,
            "a solo cube has edge 3, 4 or 5 and 1 to 4 colours",
        )
    })?;
    let all = PUZZLES.get_or_init(|| (0..48).map(|_| OnceLock::new()).collect());
    let spec = CubeSpec::new(level.edge, level.colours)
        .with_rules(level.rules)
        .with_alternate(level.alternate);
    Ok(all[index]
        .get_or_init(|| SoloCube::new(spec))
        .as_ref()
        .map_err(Clone::clone))
}

/// The level's cube, or 409 `solo_impossible` for a level of no full cube.
pub fn playable(level: &SoloLevel) -> Result<&'static SoloCube, ApiError> {
    cube(level)?.map_err(|e| {
        ApiError::conflict(
            ErrorCode::SoloImpossible,
            format!("this level has no full cube: {e}"),
        )
    })
}

/// Why a cube cannot be set up, as the level list says it.
fn impossible(e: &SoloCubeError) -> SoloImpossible {
    match e {
        SoloCubeError::AlternateOneColour => SoloImpossible::OneColourAlternates,
        SoloCubeError::RulesWithAlternate { .. } => SoloImpossible::RulesAgainstAlternate,
        _ => SoloImpossible::TooFewCubes,
    }
}

/// Every stone of a build, at most one per two cells (the smallest stone has two).
pub fn max_pieces(edge: u8) -> usize {
    usize::from(edge).pow(3) / 2
}

/// Most stones of any build (edge 5), as the document says.
pub const MAX_PIECES: usize = 62;

/// Longest colour name or stone code the document admits.
pub const MAX_NAME: usize = 16;

/// Refuses a colour name longer than the document admits (400).
pub fn bounded_colour(colour: Option<&str>) -> Result<(), ApiError> {
    match colour {
        Some(c) if c.chars().count() > MAX_NAME => Err(ApiError::bad_request(
            ErrorCode::BadSoloBuild,
            format!("a colour is a name of at most {MAX_NAME} characters"),
        )),
        _ => Ok(()),
    }
}

/// Refuses what the document forbids (400): more than [`MAX_PIECES`] stones, a stone
/// of fewer than 2 or more than 4 cells, names longer than [`MAX_NAME`].
pub fn bounded(pieces: &[SoloPiece]) -> Result<(), ApiError> {
    for p in pieces {
        bounded_colour(Some(&p.colour))?;
        bounded_colour(Some(&p.stone))?;
    }
    if pieces.len() > MAX_PIECES {
        return Err(ApiError::bad_request(
            ErrorCode::BadSoloBuild,
            format!("a build has at most {MAX_PIECES} stones"),
        ));
    }
    match pieces
        .iter()
        .position(|p| !(2..=4).contains(&p.cells.len()))
    {
        Some(n) => Err(ApiError::bad_request(
            ErrorCode::BadSoloBuild,
            format!("stone {}: a stone has 2 to 4 cells", n + 1),
        )),
        None => Ok(()),
    }
}

/// Replays `pieces` on an empty cube: each must be a stone the engine accepts there
/// (409 `bad_solo_build` with its number and reason).
pub fn replay<'a>(cube: &'a SoloCube, pieces: &[SoloPiece]) -> Result<Build<'a>, ApiError> {
    bounded(pieces)?;
    let edge = cube.edge() as u8;
    if pieces.len() > max_pieces(edge) {
        return Err(ApiError::conflict(
            ErrorCode::BadSoloBuild,
            format!(
                "a cube of edge {edge} holds at most {} stones",
                max_pieces(edge)
            ),
        ));
    }
    let mut build = Build::new(cube);
    for (n, piece) in pieces.iter().enumerate() {
        let refused = |reason: String| {
            ApiError::conflict(
                ErrorCode::BadSoloBuild,
                format!("stone {}: {reason}", n + 1),
            )
        };
        let (colour, stone, cells) = read_piece(cube, piece).map_err(&refused)?;
        build
            .place(colour, stone, &cells)
            .map_err(|e| refused(e.to_string()))?;
    }
    Ok(build)
}

/// A piece as the engine takes it; a colour may be left empty.
fn read_piece(
    cube: &SoloCube,
    piece: &SoloPiece,
) -> Result<(Option<Colour>, Stone, Vec<Cell>), String> {
    let colours = cube.spec().colours;
    let colour = match piece.colour.as_str() {
        "" => None,
        name => Some(
            Colour::from_name(name)
                .filter(|c| c.0 < colours)
                .ok_or_else(|| format!("there is no colour {name:?} in a build of {colours}"))?,
        ),
    };
    let stone = Stone::from_code(&piece.stone).ok_or_else(|| {
        format!(
            "{:?} is no stone: D2, I3, L3, I4, O4, T4, L4, S4, Y4, A4 or B4",
            piece.stone
        )
    })?;
    if piece.cells.len() > 4 {
        return Err(format!(
            "{} cells: a stone has at most 4",
            piece.cells.len()
        ));
    }
    let cells = piece
        .cells
        .iter()
        .map(|&[x, y, z]| Cell { x, y, z })
        .collect();
    Ok((colour, stone, cells))
}

/// The wire form of a placed piece.
pub fn piece_of(build: &Build, piece: &Piece) -> SoloPiece {
    SoloPiece {
        colour: piece.colour.name().to_string(),
        stone: piece.stone.code().to_string(),
        cells: build.cells(piece).iter().map(|c| [c.x, c.y, c.z]).collect(),
    }
}

/// Checks one more stone on the build: the engine's verdict with its reason.
pub fn check(build: &Build, piece: &SoloPiece) -> SoloPlaced {
    let refused = |reason: String, why: Option<Reason>| SoloPlaced {
        legal: false,
        reason: Some(reason),
        why,
        piece: None,
    };
    let (colour, stone, cells) = match read_piece(build.cube(), piece) {
        Ok(read) => read,
        Err(reason) => return refused(reason, None),
    };
    match build.check(colour, stone, &cells) {
        Ok(placed) => SoloPlaced {
            legal: true,
            reason: None,
            why: None,
            piece: Some(piece_of(build, &placed)),
        },
        Err(e) => refused(e.to_string(), why(build, &e)),
    }
}

fn reason(code: RefusalCode, rule: Option<&str>, params: serde_json::Value) -> Reason {
    Reason {
        code,
        rule: rule.map(str::to_string),
        params: params
            .as_object()
            .map(|m| m.clone().into_iter().collect())
            .unwrap_or_default(),
    }
}

fn cell(name: &CellName) -> serde_json::Value {
    json!({ "column": name.0.column_name(), "level": name.0.z + 1 })
}

/// The engine's refusal as a key with parameters, where the client has a text for it.
fn why(build: &Build, e: &PlaceError) -> Option<Reason> {
    Some(match e {
        PlaceError::Shape(illegal) => crate::games::reasons::rumis(illegal),
        PlaceError::OutsideCube(c) => crate::games::reasons::rumis(&Illegal::OutsideFootprint(*c)),
        PlaceError::Occupied(c) => {
            let by = build
                .pieces()
                .iter()
                .find(|p| build.cells(p).contains(&c.0))
                .map_or("", |p| p.colour.name());
            reason(
                RefusalCode::Taken,
                Some("R1"),
                json!({ "cell": cell(c), "by": by }),
            )
        }
        PlaceError::UsedUp { stone } => reason(
            RefusalCode::SoloUsedUp,
            Some("R12"),
            json!({ "stone": stone.code() }),
        ),
        PlaceError::ColourUsed { colour, stone } => reason(
            RefusalCode::AlreadyPlaced,
            Some("R5"),
            json!({ "colour": colour.name(), "stone": stone.code() }),
        ),
        PlaceError::NotYourTurn { colour, to_move } => reason(
            RefusalCode::NotColoursTurn,
            Some("R12"),
            json!({ "colour": colour.name(), "to_move": to_move.name() }),
        ),
        PlaceError::Hole(c) => reason(
            RefusalCode::HoleUnder,
            Some("R3"),
            json!({ "cell": cell(c) }),
        ),
        PlaceError::NoOwnContact(colour) => reason(
            RefusalCode::OwnContact,
            Some("R7"),
            json!({ "colour": colour.name() }),
        ),
        PlaceError::SameColourContact(colour) => reason(
            RefusalCode::SoloSameColour,
            Some("R12"),
            json!({ "colour": colour.name() }),
        ),
        PlaceError::Notation(_)
        | PlaceError::Complete
        | PlaceError::LeftOut { .. }
        | PlaceError::NoSuchColour(..)
        | PlaceError::OffTheCube { .. } => return None,
    })
}

/// The colour the player places with: under the rules the one to move; otherwise the
/// asked one, or the first with stones left.
fn placing_colour(build: &Build, asked: Option<&str>) -> Option<Colour> {
    if let Some(to_move) = build.to_move() {
        return Some(to_move);
    }
    let colours = build.cube().spec().colours;
    asked
        .and_then(Colour::from_name)
        .filter(|c| c.0 < colours)
        .or_else(|| {
            (0..colours)
                .map(Colour)
                .find(|&c| !build.left(c).is_empty())
        })
}

/// The build as the 3D board shows it: the cube's footprint with columns as high as
/// the edge, the cubes placed, each colour's stones left, and the placements of the
/// placing colour that rest on the build (a stone lowered from above stops there).
pub fn state(build: &Build, colour: Option<&str>) -> SoloState {
    let cube = build.cube();
    let edge = cube.edge();
    let spec = cube.spec();
    let mut filled = 0u128;
    let mut cubes = Vec::new();
    let mut history = Vec::new();
    for (n, piece) in build.pieces().iter().enumerate() {
        let cells = build.cells(piece);
        filled |= cube.placements()[piece.placement].mask;
        history.push(notation(piece.stone, &cells));
        cubes.extend(cells.iter().map(|c| CubeView {
            x: usize::from(c.x),
            y: usize::from(c.y),
            z: usize::from(c.z),
            colour: piece.colour.name().to_string(),
            stone: Some(n),
        }));
    }
    let placing = placing_colour(build, colour);
    let legal = match placing {
        Some(colour) if !build.is_complete() => legal(build, colour, filled),
        _ => Vec::new(),
    };
    let colours = (0..spec.colours)
        .map(Colour)
        .map(|c| ColourView {
            colour: c.name().to_string(),
            owner: Some(0),
            out: build.left(c).is_empty(),
            supply: build.left(c).iter().map(|s| s.code().to_string()).collect(),
            score: 0,
        })
        .collect();
    let level = SoloLevel {
        edge: spec.edge,
        colours: spec.colours,
        rules: spec.rules,
        alternate: spec.alternate,
    };
    SoloState {
        level,
        view: RumisView {
            scenario: ScenarioView {
                key: format!("solo-{edge}"),
                name: format!("solo cube {edge}"),
                width: edge,
                depth: edge,
                limits: vec![vec![edge as u8; edge]; edge],
            },
            players: 1,
            variant: "standard".into(),
            cubes,
            colours,
            to_move_colour: placing.map(|c| c.name().to_string()),
            building_ruin: false,
            scores: vec![0],
            legal,
            history,
            red_line: None,
            removing: false,
            stone_in_hand: None,
            interim: None,
            stones: Some(orientations(cube)),
        },
        complete: build.is_complete(),
        stones_used: build.pieces().len(),
    }
}

/// `L4 a1:1 b1:1 c1:1 a2:1`, as the move list writes a stone.
fn notation(stone: Stone, cells: &[Cell]) -> String {
    let mut out = stone.code().to_string();
    for c in cells {
        out.push_str(&format!(" {}:{}", c.column_name(), c.z + 1));
    }
    out
}

/// The placements of `colour`'s stones left that rest on the build and the engine
/// accepts.
fn legal(build: &Build, colour: Colour, filled: u128) -> Vec<PlacementView> {
    let cube = build.cube();
    let left = build.left(colour);
    let mut out = Vec::new();
    for p in cube.placements() {
        if p.mask & filled != 0 || !left.contains(&p.stone) {
            continue;
        }
        let cells = cube.cells_of(p.mask);
        let at = |c: &Cell, z: u8| {
            cube.cell_index(Cell { z, ..*c })
                .is_some_and(|i| filled >> i & 1 == 1)
        };
        let covered = cells
            .iter()
            .any(|c| (c.z + 1..cube.edge() as u8).any(|z| at(c, z)));
        let rests = cells.iter().any(|c| c.z == 0 || at(c, c.z - 1));
        if covered || !rests || build.check(Some(colour), p.stone, &cells).is_err() {
            continue;
        }
        out.push(PlacementView {
            stone: p.stone.code().to_string(),
            cells: cells.iter().map(|c| [c.x, c.y, c.z]).collect(),
        });
    }
    out
}

/// The stones of the cube's set with their orientations as cube offsets.
fn orientations(cube: &SoloCube) -> BTreeMap<String, Vec<Vec<[i8; 3]>>> {
    crate::games::orientations_of(cube.stones())
}

/// A stop check that says stop once `bound` has passed.
fn deadline(bound: Duration) -> impl FnMut() -> bool {
    let until = Instant::now() + bound;
    move || Instant::now() >= until
}

/// "Can this still be finished?" within `bound` (CPU: run it on the thinking pool).
pub fn finishable(cube: &SoloCube, pieces: &[Piece], bound: Duration) -> SoloAnswer {
    match cube.decide_from(pieces, &mut deadline(bound)) {
        Decision::Solved(_) => SoloAnswer::Yes,
        Decision::NoSolution => SoloAnswer::No,
        Decision::Stopped => SoloAnswer::Unknown,
    }
}

/// The next stone of a full cube that extends the build, within `bound` (CPU).
pub fn hint(build: &Build, bound: Duration) -> (SoloAnswer, Option<SoloPiece>) {
    match build.hint_until(&mut deadline(bound)) {
        Hint::Place(piece) => (SoloAnswer::Yes, Some(piece_of(build, &piece))),
        Hint::Hopeless => (SoloAnswer::No, None),
        Hint::Undecided => (SoloAnswer::Unknown, None),
    }
}

/// Each level decided: set up (a reason when it cannot be) and searched within
/// [`LEVEL_BOUND`] (CPU: run it on the thinking pool).
pub fn levels() -> Vec<SoloLevelInfo> {
    all_levels()
        .into_iter()
        .map(|level| {
            let cells = u32::from(level.edge).pow(3);
            let cubes = CUBES_PER_COLOUR * u32::from(level.colours);
            let (solvable, why) = match cube(&level).expect("a level of the list") {
                Err(e) => (SoloAnswer::No, Some(impossible(&e))),
                Ok(cube) => match cube.decide(&mut deadline(LEVEL_BOUND)) {
                    Decision::Solved(_) => (SoloAnswer::Yes, None),
                    Decision::NoSolution => (SoloAnswer::No, Some(SoloImpossible::SearchExhausted)),
                    Decision::Stopped => (SoloAnswer::Unknown, None),
                },
            };
            SoloLevelInfo {
                level,
                solvable,
                impossible: why,
                cells,
                cubes,
            }
        })
        .collect()
}
