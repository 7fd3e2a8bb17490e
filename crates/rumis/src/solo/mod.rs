//! The solo cube (Ruling R12): build a full cube of edge 3, 4 or 5 from the stones
//! of one or more colours, optionally under the normal placement rules (R3, R7 with the
//! colours placed in turn) or with alternating colours. `docs/rumis-solo.md` gives
//! the reading of R12 and the decisions PD1–PD8 taken here.
//!
//! The solver is an exact cover by dancing links ([`dlx`]): the cells of the cube are
//! the primary items (each filled exactly once), the stone kinds secondary items with
//! a capacity (how many copies the chosen colours hold). It branches on the cell with
//! the fewest placements left. Counting up to symmetry keeps, of every orbit under the
//! cube's symmetries that map the cube to itself, the solution that is smallest.
//!
//! Pure: no I/O. Long searches report progress through a callback.
//!
//! ```
//! use rumis::solo::{CubeSpec, SoloCube};
//! use rumis::Stone;
//! let soma = CubeSpec::new(3, 1).leaving_out(&[Stone::Domino, Stone::I3, Stone::O4, Stone::I4]);
//! let cube = SoloCube::new(soma).unwrap();
//! let solution = cube.solve().unwrap();
//! assert_eq!(solution.pieces.len(), 7);
//! assert!(cube.validate(&solution).is_ok());
//! ```

mod build;
mod dlx;
mod order;
mod search;
mod symmetry;
mod turns;

use std::fmt;

use crate::board::Cell;
use crate::colour::Colour;
use crate::stones::Stone;

pub use build::{Build, Hint, PlaceError};
pub use search::{Counts, Progress};
pub use symmetry::Symmetry;
pub use turns::Decision;

/// Cube edges the solo variant offers (R12).
pub const EDGES: [u8; 3] = [3, 4, 5];
/// Colours there are: four in Rumis, six with Rumis+ (R13).
pub const MAX_COLOURS: u8 = 6;

/// What the player asks for: the cube, the colours, the options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CubeSpec {
    pub edge: u8,
    pub colours: u8,
    /// R12's first option: R3 and R7, the colours placed in turn (PD3, PD4).
    pub rules: bool,
    /// R12's second option: no two stones of one colour touch face to face (PD5).
    pub alternate: bool,
    /// Stones left out of every colour (the Soma case leaves out D2, I3, O4, I4).
    pub leave_out: Vec<Stone>,
}

impl CubeSpec {
    pub fn new(edge: u8, colours: u8) -> CubeSpec {
        CubeSpec {
            edge,
            colours,
            rules: false,
            alternate: false,
            leave_out: Vec::new(),
        }
    }

    pub fn with_rules(mut self, rules: bool) -> CubeSpec {
        self.rules = rules;
        self
    }

    pub fn with_alternate(mut self, alternate: bool) -> CubeSpec {
        self.alternate = alternate;
        self
    }

    pub fn leaving_out(mut self, stones: &[Stone]) -> CubeSpec {
        self.leave_out = stones.to_vec();
        self
    }

    /// Colours tell stones apart (PD2): under the rules or when colours alternate.
    pub fn colours_matter(&self) -> bool {
        self.rules || self.alternate
    }
}

/// Why a cube cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SoloCubeError {
    #[error("there is no solo cube of edge {0}: the edge is 3, 4 or 5 (R12)")]
    BadEdge(u8),
    #[error(
        "{0} colours cannot be chosen: there are 1 to 6 (red, blue, green, yellow, orange, violet)"
    )]
    BadColours(u8),
    #[error("every stone is left out: nothing is left to build with")]
    NoStones,
    #[error("a cube of edge {edge} has {volume} cells, but {colours} colour(s) hold only {available} cubes: take more colours or leave fewer stones out")]
    TooFewCubes {
        edge: u8,
        volume: usize,
        colours: u8,
        available: usize,
    },
    #[error("no choice of these stones adds up to the {volume} cubes of an edge-{edge} cube")]
    NoSum { edge: u8, volume: usize },
    #[error("alternating colours needs at least two colours: in a full cube some two stones always touch face to face (PD5)")]
    AlternateOneColour,
    #[error("--rules and --alternate cannot both hold: an edge-{edge} cube needs at least {min_stones} stones, so one of the {colours} colours places two, and R7 makes its second stone touch its own colour, which alternating colours forbids (PD6)")]
    RulesWithAlternate {
        edge: u8,
        min_stones: usize,
        colours: u8,
    },
}

/// A stone in one orientation at one place in the cube.
#[derive(Clone, Debug)]
pub struct Placement {
    pub stone: Stone,
    /// Index into [`Stone::orientations`].
    pub orientation: u8,
    /// The cells, as bits of the cube (`x + e·y + e²·z`).
    pub mask: u128,
    /// Cells face to face with the stone, outside it (R2).
    pub(crate) around: u128,
    /// Cells directly under its cubes that are not its own (R3 wants them filled).
    pub(crate) below: u128,
}

/// A placed stone of a solution or a build: its colour and its placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    pub colour: Colour,
    pub stone: Stone,
    /// Index into [`SoloCube::placements`].
    pub placement: usize,
}

/// A filled cube: its pieces; under `--rules` in the order they are built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    pub pieces: Vec<Piece>,
}

/// What the solver works on: a kind of stone with how many copies there are. Without
/// colours mattering a kind is a stone over all colours (capacity = colours, PD2),
/// otherwise one colour's stone (capacity 1).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Kind {
    pub stone: Stone,
    pub colour: Option<Colour>,
    pub capacity: u32,
}

/// A cube set up: the cube's placements, the kinds and the symmetries.
pub struct SoloCube {
    spec: CubeSpec,
    edge: usize,
    /// The stones of each colour (all eleven less those left out), in [`Stone::ALL`] order.
    stones: Vec<Stone>,
    placements: Vec<Placement>,
    pub(crate) kinds: Vec<Kind>,
    /// Per cell, the cells face to face with it.
    neighbours: Vec<u128>,
    symmetries: Vec<Symmetry>,
}

impl SoloCube {
    /// Checks the request and precomputes every placement of every stone in the cube.
    pub fn new(spec: CubeSpec) -> Result<SoloCube, SoloCubeError> {
        if !EDGES.contains(&spec.edge) {
            return Err(SoloCubeError::BadEdge(spec.edge));
        }
        if spec.colours == 0 || spec.colours > MAX_COLOURS {
            return Err(SoloCubeError::BadColours(spec.colours));
        }
        let stones: Vec<Stone> = Stone::ALL
            .into_iter()
            .filter(|s| !spec.leave_out.contains(s))
            .collect();
        if stones.is_empty() {
            return Err(SoloCubeError::NoStones);
        }
        let edge = spec.edge as usize;
        let volume = edge * edge * edge;
        let per_colour: usize = stones.iter().map(|s| s.size()).sum();
        let available = per_colour * spec.colours as usize;
        if available < volume {
            return Err(SoloCubeError::TooFewCubes {
                edge: spec.edge,
                volume,
                colours: spec.colours,
                available,
            });
        }
        if !sum_reachable(&stones, spec.colours as usize, volume) {
            return Err(SoloCubeError::NoSum {
                edge: spec.edge,
                volume,
            });
        }
        if spec.alternate && spec.colours == 1 {
            return Err(SoloCubeError::AlternateOneColour);
        }
        let min_stones = volume.div_ceil(4);
        if spec.alternate && spec.rules && min_stones > spec.colours as usize {
            return Err(SoloCubeError::RulesWithAlternate {
                edge: spec.edge,
                min_stones,
                colours: spec.colours,
            });
        }
        let kinds = if spec.colours_matter() {
            (0..spec.colours)
                .flat_map(|c| {
                    stones.iter().map(move |&stone| Kind {
                        stone,
                        colour: Some(Colour(c)),
                        capacity: 1,
                    })
                })
                .collect()
        } else {
            stones
                .iter()
                .map(|&stone| Kind {
                    stone,
                    colour: None,
                    capacity: spec.colours as u32,
                })
                .collect()
        };
        let mut cube = SoloCube {
            edge,
            neighbours: (0..volume).map(|i| face_neighbours(edge, i)).collect(),
            placements: Vec::new(),
            stones,
            kinds,
            spec,
            symmetries: Vec::new(),
        };
        cube.placements = cube.enumerate_placements();
        cube.symmetries = symmetry::of_puzzle(&cube);
        Ok(cube)
    }

    pub fn spec(&self) -> &CubeSpec {
        &self.spec
    }

    pub fn edge(&self) -> usize {
        self.edge
    }

    pub fn volume(&self) -> usize {
        self.edge * self.edge * self.edge
    }

    /// The stones every colour holds.
    pub fn stones(&self) -> &[Stone] {
        &self.stones
    }

    pub fn placements(&self) -> &[Placement] {
        &self.placements
    }

    /// The symmetries of the cube that map this cube onto itself (PD7).
    pub fn symmetries(&self) -> &[Symmetry] {
        &self.symmetries
    }

    /// Cell index of a cell inside the cube.
    pub fn cell_index(&self, cell: Cell) -> Option<usize> {
        let e = self.edge;
        let (x, y, z) = (cell.x as usize, cell.y as usize, cell.z as usize);
        (x < e && y < e && z < e).then_some(x + e * (y + e * z))
    }

    pub fn cell(&self, index: usize) -> Cell {
        let e = self.edge;
        Cell {
            x: (index % e) as u8,
            y: (index / e % e) as u8,
            z: (index / (e * e)) as u8,
        }
    }

    /// The cells of a mask, ascending.
    pub fn cells_of(&self, mask: u128) -> Vec<Cell> {
        bits(mask).map(|i| self.cell(i)).collect()
    }

    /// Every placement of every stone of the set, stone by stone.
    fn enumerate_placements(&self) -> Vec<Placement> {
        let e = self.edge as i8;
        let mut out = Vec::new();
        for &stone in &self.stones {
            for (o, shape) in stone.orientations().iter().enumerate() {
                let ext = shape.extent();
                for z in 0..=e - ext[2] {
                    for y in 0..=e - ext[1] {
                        for x in 0..=e - ext[0] {
                            let mask = shape.cubes().iter().fold(0u128, |m, c| {
                                let cell = Cell {
                                    x: (x + c[0]) as u8,
                                    y: (y + c[1]) as u8,
                                    z: (z + c[2]) as u8,
                                };
                                m | 1 << self.cell_index(cell).expect("inside by extent")
                            });
                            out.push(self.placement(stone, o as u8, mask));
                        }
                    }
                }
            }
        }
        out
    }

    fn placement(&self, stone: Stone, orientation: u8, mask: u128) -> Placement {
        let layer = self.edge * self.edge;
        let mut around = 0;
        let mut below = 0;
        for i in bits(mask) {
            around |= self.neighbours[i];
            if i >= layer {
                below |= 1 << (i - layer);
            }
        }
        Placement {
            stone,
            orientation,
            mask,
            around: around & !mask,
            below: below & !mask,
        }
    }

    /// The placement with exactly these cells, if the set has a stone of that shape.
    pub fn placement_of(&self, mask: u128) -> Option<usize> {
        self.placements.iter().position(|p| p.mask == mask)
    }

    /// Checks a solution from scratch, without the solver's tables: every cell filled
    /// exactly once, every piece a stone of the set in one of its rotations (R5), no
    /// colour using a stone twice, and the chosen options (R3, R7 in turn; alternation).
    pub fn validate(&self, solution: &Solution) -> Result<(), String> {
        let e = self.edge;
        let mut owner = vec![None::<usize>; self.volume()];
        let mut used = std::collections::HashSet::new();
        for (n, piece) in solution.pieces.iter().enumerate() {
            if piece.colour.0 >= self.spec.colours {
                return Err(format!(
                    "piece {n} has colour {} out of range",
                    piece.colour.0
                ));
            }
            if !self.stones.contains(&piece.stone) {
                return Err(format!("piece {n}: {} is left out", piece.stone));
            }
            if !used.insert((piece.colour, piece.stone)) {
                return Err(format!("{} {} is used twice", piece.colour, piece.stone));
            }
            let p = self
                .placements
                .get(piece.placement)
                .ok_or(format!("piece {n}: no placement {}", piece.placement))?;
            let cells = self.cells_of(p.mask);
            let offsets: Vec<[i8; 3]> = cells
                .iter()
                .map(|c| [c.x as i8, c.y as i8, c.z as i8])
                .collect();
            match crate::stones::identify(&offsets) {
                Some((stone, _)) if stone == piece.stone => {}
                other => {
                    return Err(format!(
                        "piece {n} is said to be {} but its cells form {other:?}",
                        piece.stone
                    ))
                }
            }
            for c in &cells {
                let i = c.x as usize + e * (c.y as usize + e * c.z as usize);
                if let Some(m) = owner[i] {
                    return Err(format!("cell {c} is filled by pieces {m} and {n}"));
                }
                owner[i] = Some(n);
            }
        }
        if let Some(i) = owner.iter().position(Option::is_none) {
            return Err(format!("cell {} is empty", self.cell(i)));
        }
        let touch = |a: &[Cell], b: &[Cell]| {
            a.iter().any(|p| {
                b.iter()
                    .any(|q| (p.x.abs_diff(q.x) + p.y.abs_diff(q.y) + p.z.abs_diff(q.z)) == 1)
            })
        };
        let cells: Vec<Vec<Cell>> = solution
            .pieces
            .iter()
            .map(|p| self.cells_of(self.placements[p.placement].mask))
            .collect();
        if self.spec.alternate {
            for (i, a) in solution.pieces.iter().enumerate() {
                for (j, b) in solution.pieces.iter().enumerate().skip(i + 1) {
                    if a.colour == b.colour && touch(&cells[i], &cells[j]) {
                        return Err(format!("two {} stones touch (pieces {i}, {j})", a.colour));
                    }
                }
            }
        }
        if self.spec.rules {
            for (n, piece) in solution.pieces.iter().enumerate() {
                let turn = Colour((n % self.spec.colours as usize) as u8);
                if piece.colour != turn {
                    return Err(format!(
                        "stone {n} is {}, but it was {turn}'s turn",
                        piece.colour
                    ));
                }
                for c in &cells[n] {
                    let supported = c.z == 0
                        || cells[..=n]
                            .iter()
                            .flatten()
                            .any(|d| d.x == c.x && d.y == c.y && d.z + 1 == c.z);
                    if !supported {
                        return Err(format!("stone {n} leaves a hole under {c} (R3)"));
                    }
                }
                let own: Vec<usize> = (0..n)
                    .filter(|&m| solution.pieces[m].colour == piece.colour)
                    .collect();
                if !own.is_empty() && !own.iter().any(|&m| touch(&cells[m], &cells[n])) {
                    return Err(format!("stone {n} does not touch its own colour (R7)"));
                }
            }
        }
        Ok(())
    }
}

impl fmt::Display for CubeSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "edge {}, {} colour(s)", self.edge, self.colours)?;
        if !self.leave_out.is_empty() {
            let codes: Vec<&str> = self.leave_out.iter().map(|s| s.code()).collect();
            write!(f, ", without {}", codes.join(" "))?;
        }
        if self.rules {
            f.write_str(", placement rules")?;
        }
        if self.alternate {
            f.write_str(", alternating colours")?;
        }
        Ok(())
    }
}

/// The set bits of a mask, ascending.
pub(crate) fn bits(mut mask: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            i
        })
    })
}

fn face_neighbours(edge: usize, i: usize) -> u128 {
    let (x, y, z) = (i % edge, i / edge % edge, i / (edge * edge));
    let mut m = 0u128;
    let layer = edge * edge;
    if x > 0 {
        m |= 1 << (i - 1);
    }
    if x + 1 < edge {
        m |= 1 << (i + 1);
    }
    if y > 0 {
        m |= 1 << (i - edge);
    }
    if y + 1 < edge {
        m |= 1 << (i + edge);
    }
    if z > 0 {
        m |= 1 << (i - layer);
    }
    if z + 1 < edge {
        m |= 1 << (i + layer);
    }
    m
}

/// Whether some choice of stones (each up to `copies` times) has exactly `volume` cubes.
fn sum_reachable(stones: &[Stone], copies: usize, volume: usize) -> bool {
    let mut reach = vec![false; volume + 1];
    reach[0] = true;
    for stone in stones.iter().flat_map(|&s| std::iter::repeat_n(s, copies)) {
        for v in (stone.size()..=volume).rev() {
            reach[v] |= reach[v - stone.size()];
        }
    }
    reach[volume]
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn soma() -> CubeSpec {
        CubeSpec::new(3, 1).leaving_out(&[Stone::Domino, Stone::I3, Stone::O4, Stone::I4])
    }

    #[test]
    fn bad_requests_are_refused_with_their_reason() {
        let err = |spec: CubeSpec| SoloCube::new(spec).err().unwrap();
        assert_eq!(err(CubeSpec::new(6, 2)), SoloCubeError::BadEdge(6));
        assert_eq!(err(CubeSpec::new(2, 1)), SoloCubeError::BadEdge(2));
        assert_eq!(err(CubeSpec::new(3, 0)), SoloCubeError::BadColours(0));
        assert_eq!(err(CubeSpec::new(3, 7)), SoloCubeError::BadColours(7));
        assert_eq!(
            err(CubeSpec::new(5, 3)),
            SoloCubeError::TooFewCubes {
                edge: 5,
                volume: 125,
                colours: 3,
                available: 120
            }
        );
        assert!(err(CubeSpec::new(4, 1))
            .to_string()
            .contains("only 40 cubes"));
        assert_eq!(
            err(CubeSpec::new(3, 1).leaving_out(&Stone::ALL)),
            SoloCubeError::NoStones
        );
        // Only tetracubes: 27 is no multiple of 4.
        let odd: Vec<Stone> = Stone::ALL.into_iter().filter(|s| s.size() != 4).collect();
        assert_eq!(
            err(CubeSpec::new(3, 4).leaving_out(&odd)),
            SoloCubeError::NoSum {
                edge: 3,
                volume: 27
            }
        );
        assert_eq!(
            err(CubeSpec::new(3, 1).with_alternate(true)),
            SoloCubeError::AlternateOneColour
        );
        assert_eq!(
            err(CubeSpec::new(3, 6).with_rules(true).with_alternate(true)),
            SoloCubeError::RulesWithAlternate {
                edge: 3,
                min_stones: 7,
                colours: 6
            }
        );
    }

    #[test]
    fn placements_cover_every_orientation_at_every_place() {
        let cube = SoloCube::new(CubeSpec::new(3, 1)).unwrap();
        // The domino in a 3-cube: 3 directions x 2 x 3 x 3 places.
        let dominoes = cube
            .placements()
            .iter()
            .filter(|p| p.stone == Stone::Domino)
            .count();
        assert_eq!(dominoes, 54);
        for p in cube.placements() {
            assert_eq!(p.mask.count_ones() as usize, p.stone.size());
            assert_eq!(p.around & p.mask, 0);
        }
        let masks: std::collections::HashSet<u128> =
            cube.placements().iter().map(|p| p.mask).collect();
        assert_eq!(masks.len(), cube.placements().len(), "no placement twice");
    }

    #[test]
    fn cells_and_indices_agree() {
        let cube = SoloCube::new(CubeSpec::new(4, 2)).unwrap();
        for i in 0..64 {
            assert_eq!(cube.cell_index(cube.cell(i)), Some(i));
        }
        assert_eq!(cube.cell_index(Cell { x: 4, y: 0, z: 0 }), None);
    }
}
