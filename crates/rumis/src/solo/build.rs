//! A cube being built by a person, stone by stone: every stone is checked, and the
//! solver says whether the build can still be completed and which stone to place next.
//!
//! Stones are named in the Rumis move notation ([`crate::notation`]): `L4 a1 b1 c1 a2`
//! (cells; a left-out level lands on top of its column) or `L4/7@c3` (orientation 7
//! lowered at column c3). Column a is left, row 1 the back, level 1 the bottom.

use crate::board::Cell;
use crate::colour::Colour;
use crate::notation::{resolve_on, MoveText, NotationError};
use crate::rules::{CellName, Illegal};
use crate::stones::{identify, Offset, Stone};

use super::{Decision, Piece, SoloCube, Solution};

/// Why a stone cannot be placed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlaceError {
    #[error(transparent)]
    Notation(#[from] NotationError),
    #[error("the cube is complete")]
    Complete,
    #[error("{stone} ({name}) is left out of this puzzle", name = stone.name())]
    LeftOut { stone: Stone },
    #[error("there is no colour {0}: this puzzle has {1} colour(s)")]
    NoSuchColour(String, u8),
    /// The stone as written: wrong cube count, not the stone, a repeated cell, no such
    /// orientation (the same reasons as in a game).
    #[error(transparent)]
    Shape(#[from] Illegal),
    #[error("cell {0} is outside the cube")]
    OutsideCube(CellName),
    #[error("cell {0} is already filled")]
    Occupied(CellName),
    #[error("every colour has placed its {stone} already")]
    UsedUp { stone: Stone },
    #[error("{colour} has placed its {stone} already")]
    ColourUsed { colour: Colour, stone: Stone },
    #[error("it is {to_move}'s turn, not {colour}'s (the colours are placed in turn)")]
    NotYourTurn { colour: Colour, to_move: Colour },
    #[error("stone would leave a hole under cell {0} (R3)")]
    Hole(CellName),
    #[error("the stone must touch a {0} stone face to face (R7)")]
    NoOwnContact(Colour),
    #[error("the stone touches a {0} stone face to face, and the colours alternate")]
    SameColourContact(Colour),
    #[error(
        "{stone} cannot be lowered at {column} in that orientation: it would stick out of the cube"
    )]
    OffTheCube { stone: Stone, column: String },
}

/// What a hint comes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hint {
    /// The build can be completed; this stone is a next step.
    Place(Piece),
    /// The build cannot be completed (or is complete): the search was exhausted.
    Hopeless,
    /// The search was stopped before it decided.
    Undecided,
}

/// A build in progress.
pub struct Build<'a> {
    cube: &'a SoloCube,
    pieces: Vec<Piece>,
    filled: u128,
}

impl<'a> Build<'a> {
    pub fn new(cube: &'a SoloCube) -> Build<'a> {
        Build {
            cube,
            pieces: Vec::new(),
            filled: 0,
        }
    }

    pub fn cube(&self) -> &'a SoloCube {
        self.cube
    }

    /// The stones placed, in order.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    pub fn is_complete(&self) -> bool {
        self.filled.count_ones() as usize == self.cube.volume()
    }

    /// Under the rules, the colour whose turn it is (PD4).
    pub fn to_move(&self) -> Option<Colour> {
        self.cube
            .spec()
            .rules
            .then(|| Colour((self.pieces.len() % self.cube.spec().colours as usize) as u8))
    }

    /// The stones a colour has not placed yet.
    pub fn left(&self, colour: Colour) -> Vec<Stone> {
        self.cube
            .stones()
            .iter()
            .copied()
            .filter(|&s| {
                !self
                    .pieces
                    .iter()
                    .any(|p| p.stone == s && p.colour == colour)
            })
            .collect()
    }

    /// Height of a column: one above its highest filled cell.
    fn height(&self, x: u8, y: u8) -> u8 {
        (0..self.cube.edge() as u8)
            .rev()
            .find(|&z| {
                self.cube
                    .cell_index(Cell { x, y, z })
                    .is_some_and(|i| self.filled & 1 << i != 0)
            })
            .map_or(0, |z| z + 1)
    }

    /// Turns a written stone into cells: a left-out level lands on top of the column
    /// (above the cubes given before it there), a dropped orientation comes to rest on
    /// the build.
    pub fn resolve(&self, text: MoveText) -> Result<(Stone, Vec<Cell>), PlaceError> {
        let edge = self.cube.edge();
        resolve_on(text, edge, edge, |x, y| self.height(x, y)).map_err(|e| match e {
            Illegal::OffTheBoard { stone, column } => PlaceError::OffTheCube { stone, column },
            other => other.into(),
        })
    }

    /// Checks a stone of `colour` (or, if none is named, of the first colour it is
    /// allowed for) on exactly `cells`, and returns the piece it would be.
    pub fn check(
        &self,
        colour: Option<Colour>,
        stone: Stone,
        cells: &[Cell],
    ) -> Result<Piece, PlaceError> {
        let cube = self.cube;
        if self.is_complete() {
            return Err(PlaceError::Complete);
        }
        if !cube.stones().contains(&stone) {
            return Err(PlaceError::LeftOut { stone });
        }
        if cells.len() != stone.size() {
            return Err(PlaceError::Shape(Illegal::WrongCubeCount {
                stone,
                expected: stone.size(),
                given: cells.len(),
            }));
        }
        let mut mask = 0u128;
        for (i, &cell) in cells.iter().enumerate() {
            let index = cube
                .cell_index(cell)
                .ok_or(PlaceError::OutsideCube(CellName(cell)))?;
            if cells[..i].contains(&cell) {
                return Err(Illegal::RepeatedCell(CellName(cell)).into());
            }
            if self.filled & 1 << index != 0 {
                return Err(PlaceError::Occupied(CellName(cell)));
            }
            mask |= 1 << index;
        }
        let offsets: Vec<Offset> = cells
            .iter()
            .map(|c| [c.x as i8, c.y as i8, c.z as i8])
            .collect();
        if identify(&offsets).map(|(s, _)| s) != Some(stone) {
            return Err(Illegal::NotTheStone { stone }.into());
        }
        let placement = cube
            .placement_of(mask)
            .ok_or(Illegal::NotTheStone { stone })?;
        let p = &cube.placements()[placement];
        if cube.spec().rules {
            // R3: stones go in from above, each cube on the floor or on a filled cell.
            if let Some(i) = super::bits(p.below & !self.filled).next() {
                return Err(PlaceError::Hole(CellName(cube.cell(i))));
            }
        }
        let colour_cells = |c: Colour| {
            self.pieces
                .iter()
                .filter(|q| q.colour == c)
                .fold(0u128, |m, q| m | cube.placements()[q.placement].mask)
        };
        let holds = |c: Colour| {
            !self
                .pieces
                .iter()
                .any(|q| q.stone == stone && q.colour == c)
        };
        let piece = |colour| Piece {
            colour,
            stone,
            placement,
        };
        let colours = cube.spec().colours;
        if let Some(to_move) = self.to_move() {
            let colour = colour.unwrap_or(to_move);
            if colour != to_move {
                return Err(PlaceError::NotYourTurn { colour, to_move });
            }
            if !holds(colour) {
                return Err(PlaceError::ColourUsed { colour, stone });
            }
            // R7: after a colour's first stone, every stone touches its own colour.
            let own = colour_cells(colour);
            if own != 0 && p.around & own == 0 {
                return Err(PlaceError::NoOwnContact(colour));
            }
            return Ok(piece(colour));
        }
        let alone = |c: Colour| !cube.spec().alternate || p.around & colour_cells(c) == 0;
        match colour {
            Some(c) if c.0 >= colours => Err(PlaceError::NoSuchColour(c.to_string(), colours)),
            Some(c) if !holds(c) => Err(PlaceError::ColourUsed { colour: c, stone }),
            Some(c) if !alone(c) => Err(PlaceError::SameColourContact(c)),
            Some(c) => Ok(piece(c)),
            None => {
                let mut holding = (0..colours).map(Colour).filter(|&c| holds(c)).peekable();
                let first = *holding.peek().ok_or(PlaceError::UsedUp { stone })?;
                holding
                    .find(|&c| alone(c))
                    .map(piece)
                    .ok_or(PlaceError::SameColourContact(first))
            }
        }
    }

    /// Places a stone after [`Build::check`].
    pub fn place(
        &mut self,
        colour: Option<Colour>,
        stone: Stone,
        cells: &[Cell],
    ) -> Result<Piece, PlaceError> {
        let piece = self.check(colour, stone, cells)?;
        self.filled |= self.cube.placements()[piece.placement].mask;
        self.pieces.push(piece);
        Ok(piece)
    }

    /// Takes the last stone back.
    pub fn undo(&mut self) -> Option<Piece> {
        let piece = self.pieces.pop()?;
        self.filled &= !self.cube.placements()[piece.placement].mask;
        Some(piece)
    }

    /// A completion of the build as it stands, if there is one.
    pub fn completion(&self) -> Option<Solution> {
        self.cube.complete(&self.pieces)
    }

    /// A stone to place next that keeps the build completable: under the rules the
    /// next stone of a legal order, otherwise the one filling the lowest empty cell.
    pub fn hint(&self) -> Option<Piece> {
        match self.hint_until(&mut || false) {
            Hint::Place(piece) => Some(piece),
            Hint::Hopeless | Hint::Undecided => None,
        }
    }

    /// [`Build::hint`], giving up when `stop` says so (asked now and then).
    pub fn hint_until(&self, stop: &mut dyn FnMut() -> bool) -> Hint {
        let solution = match self.cube.decide_from(&self.pieces, stop) {
            Decision::Solved(solution) => solution,
            Decision::NoSolution => return Hint::Hopeless,
            Decision::Stopped => return Hint::Undecided,
        };
        let new = &solution.pieces[self.pieces.len()..];
        let next = if self.cube.spec().rules {
            new.first().copied()
        } else {
            new.iter()
                .copied()
                .min_by_key(|p| self.cube.placements()[p.placement].mask.trailing_zeros())
        };
        next.map_or(Hint::Hopeless, Hint::Place)
    }

    /// The cells of a piece, ascending.
    pub fn cells(&self, piece: &Piece) -> Vec<Cell> {
        self.cube
            .cells_of(self.cube.placements()[piece.placement].mask)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{tests::soma, CubeSpec};
    use super::*;
    use crate::notation::parse_move;

    fn put(build: &mut Build, colour: Option<Colour>, text: &str) -> Result<Piece, PlaceError> {
        let (stone, cells) = build.resolve(parse_move(text)?)?;
        build.place(colour, stone, &cells)
    }

    #[test]
    fn a_soma_cube_is_built_from_the_hints() {
        let cube = SoloCube::new(soma()).unwrap();
        let mut build = Build::new(&cube);
        while !build.is_complete() {
            let hint = build.hint().expect("completable");
            let cells = build.cells(&hint);
            build.place(None, hint.stone, &cells).unwrap();
        }
        let solution = Solution {
            pieces: build.pieces().to_vec(),
        };
        assert_eq!(cube.validate(&solution), Ok(()));
        assert_eq!(build.hint(), None);
        assert_eq!(
            put(&mut build, None, "D2 a1 b1").unwrap_err(),
            PlaceError::Complete
        );
    }

    #[test]
    fn wrong_stones_are_refused_with_their_reason() {
        let cube = SoloCube::new(soma()).unwrap();
        let mut build = Build::new(&cube);
        let err = |b: &mut Build, t: &str| put(b, None, t).unwrap_err().to_string();
        assert_eq!(
            err(&mut build, "I4 a1 b1 c1 d1"),
            "I4 (straight tetracube) is left out of this puzzle"
        );
        assert_eq!(
            err(&mut build, "L4 a1 b1 c1 d1"),
            "cell d1 level 1 is outside the cube"
        );
        assert_eq!(
            err(&mut build, "L4 a1 b1 c1 b2"),
            "these cells do not form the L4 (L tetracube) in any rotation (mirroring is not allowed)"
        );
        assert_eq!(
            err(&mut build, "L3 a1 b1"),
            "L3 has 3 cubes, but 2 cells were given"
        );
        assert_eq!(
            err(&mut build, "L3 a1:1 a1:1 b1:1"),
            "cell a1 level 1 is given twice"
        );
        put(&mut build, None, "L3 a1 b1 a2").unwrap();
        assert_eq!(
            err(&mut build, "T4 a1:1 b1:2 c1:1 b2:1"),
            "cell a1 level 1 is already filled"
        );
        assert_eq!(
            err(&mut build, "L3 c1 c2 c3"),
            "these cells do not form the L3 (bent tricube) in any rotation (mirroring is not allowed)"
        );
        assert_eq!(
            err(&mut build, "L3 c1 c2 b2"),
            "every colour has placed its L3 already"
        );
        assert_eq!(
            err(&mut build, "T4/99@a1"),
            "stone orientation 99 does not exist for T4 (it has 12)"
        );
        // Without levels, a cube lands on top of its column.
        let t = put(&mut build, None, "Y4 a2 a1 b1 a1").unwrap();
        let levels: Vec<u8> = build.cells(&t).iter().map(|c| c.z).collect();
        assert_eq!(levels, vec![1, 1, 1, 2]);
        assert_eq!(build.undo(), Some(t));
        assert_eq!(build.pieces().len(), 1);
    }

    #[test]
    fn the_rules_check_holes_turns_and_own_colour() {
        let cube = SoloCube::new(CubeSpec::new(3, 2).with_rules(true)).unwrap();
        let mut build = Build::new(&cube);
        let red = Some(Colour(0));
        let blue = Some(Colour(1));
        assert_eq!(build.to_move(), Some(Colour(0)));
        let err = |b: &mut Build, c, t: &str| put(b, c, t).unwrap_err().to_string();
        assert_eq!(
            err(&mut build, red, "I3 a1:2 b1:2 c1:2"),
            "stone would leave a hole under cell a1 level 1 (R3)"
        );
        assert_eq!(
            err(&mut build, blue, "I3 a1 b1 c1"),
            "it is red's turn, not blue's (the colours are placed in turn)"
        );
        put(&mut build, None, "I3 a1 b1 c1").unwrap();
        put(&mut build, None, "I3 a3 b3 c3").unwrap();
        assert_eq!(build.pieces()[1].colour, Colour(1));
        assert_eq!(
            err(&mut build, None, "D2 a3:2 b3:2"),
            "the stone must touch a red stone face to face (R7)"
        );
        // a2 touches red's a1: allowed.
        put(&mut build, None, "D2 a2:1 a2:2").unwrap();
        let hint = build.hint().expect("still completable");
        assert_eq!(hint.colour, Colour(1), "blue's turn");
    }

    #[test]
    fn alternating_colours_keep_apart() {
        let cube = SoloCube::new(CubeSpec::new(3, 2).with_alternate(true)).unwrap();
        let mut build = Build::new(&cube);
        let red = Some(Colour(0));
        let a = put(&mut build, red, "I3 a1 b1 c1").unwrap();
        assert_eq!(a.colour, Colour(0));
        assert_eq!(
            put(&mut build, red, "D2 a2 b2").unwrap_err().to_string(),
            "the stone touches a red stone face to face, and the colours alternate"
        );
        // Unnamed, it takes the first colour allowed: blue.
        let b = put(&mut build, None, "I3 a2 b2 c2").unwrap();
        assert_eq!(b.colour, Colour(1));
        assert_eq!(
            put(&mut build, Some(Colour(3)), "D2 a3 b3")
                .unwrap_err()
                .to_string(),
            "there is no colour yellow: this puzzle has 2 colour(s)"
        );
    }
}
