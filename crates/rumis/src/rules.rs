//! The placement rules, written out plainly, cube by cube. This is the one place where
//! R3, R4, R6 and R7 (and Rumis+'s R14, R15 and R16) are decided for a single placement,
//! and R16's removal for a single stone; it explains every rejection.
//! The fast move generator ([`crate::movegen`]) is an optimisation of exactly this
//! function, and the tests hold the two equal.

use std::fmt;

use crate::board::{Board, Cell};
use crate::colour::Colour;
use crate::stones::Stone;

/// Why a placement (or a move in general) is not allowed. The text is for players.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    #[error("the game is over")]
    GameOver,
    #[error("there is no placement number {0} on this board")]
    NoSuchPlacement(usize),
    #[error("it is {to_move}'s turn, not {colour}'s")]
    NotYourTurn { colour: Colour, to_move: Colour },
    #[error("{colour} has already placed its {stone} ({name})", name = stone.name())]
    StoneAlreadyPlaced { colour: Colour, stone: Stone },
    #[error("{stone} has {expected} cubes, but {given} cells were given")]
    WrongCubeCount {
        stone: Stone,
        expected: usize,
        given: usize,
    },
    #[error("these cells do not form the {stone} ({name}) in any rotation (mirroring is not allowed)", name = stone.name())]
    NotTheStone { stone: Stone },
    #[error("cell {0} is given twice")]
    RepeatedCell(CellName),
    #[error("cell {0} is outside the footprint of this board")]
    OutsideFootprint(CellName),
    #[error("cell {cell} is too high: column {column} allows {limit} levels", column = cell.column(), cell = cell)]
    TooHigh { cell: CellName, limit: u8 },
    #[error("cell {cell} is already taken by {by}")]
    Occupied { cell: CellName, by: Colour },
    #[error("stone would leave a hole under cell {0}")]
    Hole(CellName),
    #[error("{0}'s first stone must lie on the board (have a cube on level 1)")]
    FirstStoneNotOnBoard(Colour),
    #[error("{0}'s first stone must touch a stone already placed, face to face")]
    FirstStoneWithoutContact(Colour),
    #[error("the stone must touch a {0} stone face to face (beside it or lying on it)")]
    NoOwnContact(Colour),
    #[error("stone orientation {orientation} does not exist for {stone} (it has {count})")]
    NoSuchOrientation {
        stone: Stone,
        orientation: usize,
        count: usize,
    },
    #[error("{stone} cannot stand at {column} in that orientation: it would leave the board")]
    OffTheBoard { stone: Stone, column: String },
    #[error("{colour}'s first stone must touch a placed stone along an edge (R14: with 5 or 6 players first stones touch only by edges)")]
    FirstStoneWithoutEdgeContact { colour: Colour },
    #[error("{colour}'s first stone may not touch {other}'s first stone face to face (at cell {cell}); R14: first stones touch only by edges")]
    FirstStonesFaceToFace {
        colour: Colour,
        other: Colour,
        cell: CellName,
    },
    #[error("inverse variant (R15): the stone may not touch a {colour} stone face to face (cell {cell} does)")]
    InverseOwnContact { colour: Colour, cell: CellName },
    #[error("inverse variant (R15): the stone must touch a stone of another colour than {0}, face to face")]
    InverseWithoutOtherContact(Colour),
    #[error("cell {0} is outside the red line: until the interim scoring only the inside is built on (R16)")]
    OutsideRedLine(CellName),
    #[error("cell {0} is inside the red line: rebuilt stones stay outside it (R16)")]
    InsideRedLine(CellName),
    #[error("{0}'s first rebuilt stone must lie on the board (have a cube on level 1) (R16)")]
    FirstRebuiltNotOnBoard(Colour),
    #[error("{0}'s first rebuilt stone must touch one of its own stones inside the red line, face to face (R16)")]
    FirstRebuiltWithoutContact(Colour),
    #[error("{colour} must first take one of its stones off the build inside the red line (R16), e.g. `x {example}`")]
    MustRemove { colour: Colour, example: Stone },
    #[error("stones are taken off only in the dismantling phase of the two-player dismantling game (R16)")]
    NoRemovalNow,
    #[error(
        "{colour} took its {removed} off the build: place that stone now, not the {stone} (R16)"
    )]
    NotTheRemovedStone {
        colour: Colour,
        removed: Stone,
        stone: Stone,
    },
    #[error("{colour}'s {stone} is not on the build there")]
    NotOnTheBuild { colour: Colour, stone: Stone },
    #[error(
        "{colour}'s {stone} is outside the red line: only stones inside it are taken off (R16)"
    )]
    RemovalOutsideRedLine { colour: Colour, stone: Stone },
    #[error("taking the {stone} off would leave a hole under the cube on cell {cell} (R16)")]
    RemovalLeavesHole { stone: Stone, cell: CellName },
    #[error("the removed {0} can still be placed, so it may not be set aside (R16)")]
    CannotSetAside(Stone),
}

/// A cell as the player reads it (`c3:2` with level counted from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellName(pub Cell);

impl CellName {
    fn column(&self) -> String {
        self.0.column_name()
    }
}

impl fmt::Display for CellName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} level {}", self.0.column_name(), self.0.z + 1)
    }
}

/// Which contact rule a stone must meet (R6, R7, R14, R15, R16): decided by the
/// position from the variant, the phase and what the colour has placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contact {
    /// R6: the game's very first stone goes anywhere inside the footprint.
    Anywhere,
    /// R6: a colour's first stone lies on the board and touches a placed stone.
    FirstStone,
    /// R14 (5 and 6 players): a colour's first stone lies on the board, touches a
    /// placed stone along an edge, and has no face contact with another first stone.
    FirstStoneByEdge,
    /// R7: every later stone touches its own colour face to face.
    Own,
    /// R15 (inverse variant): every later stone touches another colour face to face
    /// and no stone of its own colour.
    Inverse,
    /// R16: a colour's first rebuilt stone lies on the board and touches one of the
    /// colour's stones inside the red line (later rebuilt stones follow R7).
    FirstRebuilt,
}

/// R16: where a stone may stand relative to the red line (per column, `true` = inside).
#[derive(Clone, Copy)]
pub enum Area<'a> {
    /// No red-line restriction.
    Whole,
    /// Build phase of the dismantling game: inside the red line only.
    Inside(&'a [bool]),
    /// Rebuild phase: no cube inside the red line.
    Outside(&'a [bool]),
}

/// What the rules need to know about the build and the colour placing.
pub struct PlacementContext<'a> {
    pub board: &'a Board,
    /// Colour of every cell of the box, `None` if empty.
    pub cell_colour: &'a dyn Fn(u16) -> Option<Colour>,
    /// R14: is the cube in this cell part of some colour's first stone?
    pub in_first_stone: &'a dyn Fn(u16) -> bool,
    pub colour: Colour,
    pub contact: Contact,
    pub area: Area<'a>,
}

/// R16: the red-line restriction of the dismantling game's two phases.
pub fn check_area(board: &Board, area: Area<'_>, cells: &[Cell]) -> Result<(), Illegal> {
    let column = |c: &Cell| c.y as usize * board.width + c.x as usize;
    for cell in cells {
        match area {
            Area::Whole => {}
            Area::Inside(red) if !red[column(cell)] => {
                return Err(Illegal::OutsideRedLine(CellName(*cell)))
            }
            Area::Outside(red) if red[column(cell)] => {
                return Err(Illegal::InsideRedLine(CellName(*cell)))
            }
            _ => {}
        }
    }
    Ok(())
}

/// R16: may this stone (on exactly `cells`) be taken off the build? It must lie inside
/// the red line, and no cube of another stone may rest on it ("no hole left"). The
/// caller has checked that the stone is the colour's own and on the build.
pub fn check_removal(
    board: &Board,
    cell_colour: &dyn Fn(u16) -> Option<Colour>,
    red: &[bool],
    colour: Colour,
    stone: Stone,
    cells: &[Cell],
) -> Result<(), Illegal> {
    if cells
        .iter()
        .any(|c| !red[c.y as usize * board.width + c.x as usize])
    {
        return Err(Illegal::RemovalOutsideRedLine { colour, stone });
    }
    for &cell in cells {
        let above = Cell {
            z: cell.z + 1,
            ..cell
        };
        if cells.contains(&above) {
            continue;
        }
        if board.cell_index(above).and_then(cell_colour).is_some() {
            return Err(Illegal::RemovalLeavesHole {
                stone,
                cell: CellName(above),
            });
        }
    }
    Ok(())
}

/// R4: every cube stands inside the footprint for this player count (the red or blue
/// line included). Checked first, so that a stone hanging off the board is named as such.
pub fn check_footprint(board: &Board, cells: &[Cell]) -> Result<(), Illegal> {
    for &cell in cells {
        let inside = (cell.x as usize) < board.width && (cell.y as usize) < board.depth;
        if !inside || board.limit(cell.y as usize * board.width + cell.x as usize) == 0 {
            return Err(Illegal::OutsideFootprint(CellName(cell)));
        }
    }
    Ok(())
}

/// Checks the geometry and contact rules for putting a stone on exactly `cells`
/// (the caller has checked that the cells form the stone).
pub fn check_placement(ctx: &PlacementContext<'_>, cells: &[Cell]) -> Result<(), Illegal> {
    let board = ctx.board;
    let colour_at = |c: Cell| board.cell_index(c).and_then(|i| (ctx.cell_colour)(i));
    check_footprint(board, cells)?;
    check_area(board, ctx.area, cells)?;
    for (i, &cell) in cells.iter().enumerate() {
        if cells[..i].contains(&cell) {
            return Err(Illegal::RepeatedCell(CellName(cell)));
        }
        let limit = board.limit(cell.y as usize * board.width + cell.x as usize);
        // R4: below the column's height limit for this player count.
        if cell.z >= limit {
            return Err(Illegal::TooHigh {
                cell: CellName(cell),
                limit,
            });
        }
        if let Some(by) = colour_at(cell) {
            return Err(Illegal::Occupied {
                cell: CellName(cell),
                by,
            });
        }
    }
    // R3: every cube lies on the board or directly on an occupied cell (another stone's
    // or its own).
    for &cell in cells {
        if cell.z > 0 {
            let below = Cell {
                z: cell.z - 1,
                ..cell
            };
            if colour_at(below).is_none() && !cells.contains(&below) {
                return Err(Illegal::Hole(CellName(below)));
            }
        }
    }
    let touches = |wanted: &dyn Fn(Colour) -> bool| {
        cells.iter().any(|&c| {
            board
                .face_neighbours(c)
                .any(|n| colour_at(n).is_some_and(wanted))
        })
    };
    let on_board = cells.iter().any(|c| c.z == 0);
    let colour = ctx.colour;
    match ctx.contact {
        // R6: the very first stone of the game goes anywhere inside the footprint.
        Contact::Anywhere => Ok(()),
        // R6: every other first stone lies on the board and touches a placed stone.
        Contact::FirstStone => {
            if !on_board {
                return Err(Illegal::FirstStoneNotOnBoard(colour));
            }
            if !touches(&|_| true) {
                return Err(Illegal::FirstStoneWithoutContact(colour));
            }
            Ok(())
        }
        // R14: on the board, edge contact with a placed stone, and no face contact with
        // another colour's first stone.
        Contact::FirstStoneByEdge => {
            if !on_board {
                return Err(Illegal::FirstStoneNotOnBoard(colour));
            }
            let by_edge = cells
                .iter()
                .any(|&c| board.edge_neighbours(c).any(|n| colour_at(n).is_some()));
            if !by_edge {
                return Err(Illegal::FirstStoneWithoutEdgeContact { colour });
            }
            for &c in cells {
                for n in board.face_neighbours(c) {
                    let Some(i) = board.cell_index(n) else {
                        continue;
                    };
                    if let Some(other) = (ctx.cell_colour)(i) {
                        if (ctx.in_first_stone)(i) {
                            return Err(Illegal::FirstStonesFaceToFace {
                                colour,
                                other,
                                cell: CellName(n),
                            });
                        }
                    }
                }
            }
            Ok(())
        }
        // R7: every later stone touches its own colour face to face.
        Contact::Own => {
            if !touches(&|c| c == colour) {
                return Err(Illegal::NoOwnContact(colour));
            }
            Ok(())
        }
        // R15: no face contact with its own colour, face contact with another colour.
        Contact::Inverse => {
            for &c in cells {
                if let Some(n) = board
                    .face_neighbours(c)
                    .find(|&n| colour_at(n) == Some(colour))
                {
                    return Err(Illegal::InverseOwnContact {
                        colour,
                        cell: CellName(n),
                    });
                }
            }
            if !touches(&|c| c != colour) {
                return Err(Illegal::InverseWithoutOtherContact(colour));
            }
            Ok(())
        }
        // R16: the first rebuilt stone lies on the board and touches one of the colour's
        // stones inside the red line (the only ones it has then: the area rule keeps
        // rebuilt stones outside, and this is the colour's first).
        Contact::FirstRebuilt => {
            if !on_board {
                return Err(Illegal::FirstRebuiltNotOnBoard(colour));
            }
            if !touches(&|c| c == colour) {
                return Err(Illegal::FirstRebuiltWithoutContact(colour));
            }
            Ok(())
        }
    }
}
