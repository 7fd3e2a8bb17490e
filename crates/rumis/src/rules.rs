//! The placement rules, written out plainly, cube by cube. This is the one place where
//! R3, R4, R6 and R7 are decided for a single placement; it explains every rejection.
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

/// What the rules need to know about the build and the colour placing.
pub struct PlacementContext<'a> {
    pub board: &'a Board,
    /// Colour of every cell of the box, `None` if empty.
    pub cell_colour: &'a dyn Fn(u16) -> Option<Colour>,
    pub colour: Colour,
    /// The colour has placed no stone yet (R6).
    pub first_stone: bool,
    /// No stone of any colour is on the board yet (R6: the starter's first stone).
    pub board_empty: bool,
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
    if ctx.first_stone {
        // R6: the very first stone of the game goes anywhere inside the footprint; every
        // other first stone lies on the board and touches a placed stone.
        if ctx.board_empty {
            return Ok(());
        }
        if !cells.iter().any(|c| c.z == 0) {
            return Err(Illegal::FirstStoneNotOnBoard(ctx.colour));
        }
        if !touches(&|_| true) {
            return Err(Illegal::FirstStoneWithoutContact(ctx.colour));
        }
        return Ok(());
    }
    // R7: every later stone touches its own colour face to face.
    if !touches(&|c| c == ctx.colour) {
        return Err(Illegal::NoOwnContact(ctx.colour));
    }
    Ok(())
}
