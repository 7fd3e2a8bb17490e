//! Under `--rules` the cube is searched in build order (PD3, PD4): the colours place in
//! turn, red first, and each stone must be legal when it is placed — no hole under it
//! (R3), touching its own colour after the colour's first stone (R7). So the two rules
//! and the turn order are enforced at every step, not checked on a finished cube.
//!
//! A state is the filled cells, the cells of each colour and the stones each colour
//! still holds (whose turn it is follows from how many stones are placed). The search
//! is depth first over the legal stones of the colour to move, with these cuts, each of
//! them sound (it drops only states from which no full cube can be built):
//!
//! - **Sizes and turns.** The stones still to come are placed in turn, so if `m` more
//!   stones are placed, each colour places a known number of them; some `m` must let
//!   every colour choose that many of its own remaining stones with sizes adding up,
//!   over all colours, to exactly the empty cells.
//! - **Dead cells.** Every empty cell must lie in some placement of a stone that some
//!   colour still holds, inside the empty cells (support and contact aside).
//! - **Cut-off colours.** A colour that has placed stones but whose stones no longer
//!   touch an empty cell can place nothing more (R7): it must have no further turn, which
//!   the sizes-and-turns count then requires.
//! - **Tiling.** The empty cells must be an exact cover by the stones still held
//!   (colours, turns and order aside), searched by the lowest empty cell within a budget
//!   of steps; only a search that ends without a tiling cuts.
//! - **Dead states.** A state found dead is remembered (exactly, not by a hash), so a
//!   state reached again by placing the same stones in another order is not searched
//!   twice. Only the cells of a colour next to an empty cell are kept in the state:
//!   the others can never be touched again.
//! - **Symmetry.** From the empty cube, red's first stone is taken only in the smallest
//!   of its images under the symmetries that keep up (PD7); any build maps to one that
//!   starts so.
//!
//! Pure and deterministic: the stones are tried in a fixed order; a caller can stop the
//! search (it is then undecided), which is checked every few thousand states.

use std::collections::HashSet;

use super::{bits, Piece, SoloCube, Solution};
use crate::colour::Colour;

/// What a search came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// A solution (checked by [`SoloCube::validate`] in the tests).
    Solved(Solution),
    /// The whole search space was searched: there is no solution.
    NoSolution,
    /// The caller stopped the search before it ended.
    Stopped,
}

/// Dead states remembered at most; past this the memory is emptied (still sound).
const MEMO_LIMIT: usize = 1 << 20;
/// States searched between two calls of the caller's stop check.
const CHECK_EVERY: u64 = 2048;

/// A state as remembered: filled cells, each colour's cells next to an empty cell,
/// and the stones each colour holds (11 bits a colour).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    filled: u128,
    own: [u128; super::MAX_COLOURS as usize],
    left: u128,
}

/// Why the search returned early.
struct Interrupted;

pub(crate) struct Turns<'a> {
    cube: &'a SoloCube,
    colours: usize,
    full: u128,
    /// Per placement: the index of its stone in [`SoloCube::stones`].
    stone_of: Vec<u8>,
    /// Per cell, per stone index: the placements whose lowest cell it is. A stone
    /// placed under R3 has its lowest cell on the floor or on a filled cell, so only
    /// the cells where a column's empty part begins need to be looked at.
    lowest: Vec<Vec<Vec<u32>>>,
    /// Per cell: the placements covering it, larger stones first.
    covering: Vec<Vec<u32>>,
    /// Per cell: the cells face to face with it.
    neighbours: Vec<u128>,
    /// Symmetries to break at the first stone (images of placements).
    symmetric_start: bool,
    filled: u128,
    own: Vec<u128>,
    /// Per colour, the stones it still holds (bits of stone indices).
    left: Vec<u16>,
    pieces: Vec<Piece>,
    dead: HashSet<Key>,
    nodes: u64,
    /// Empty regions (with the stones held) known not to be tileable.
    untileable: HashSet<(u128, [u8; 11])>,
}

/// Steps a tiling check may take before it gives up (and cuts nothing).
const TILING_BUDGET: u32 = 4000;

impl<'a> Turns<'a> {
    /// A search that continues the build `prefix` (already legal, in its order); `None`
    /// if the prefix is not a legal build of this cube.
    pub fn new(cube: &'a SoloCube, prefix: &[Piece]) -> Option<Turns<'a>> {
        let volume = cube.volume();
        let colours = cube.spec().colours as usize;
        let stone_index = |s| cube.stones().iter().position(|&t| t == s);
        let stone_of: Vec<u8> = cube
            .placements()
            .iter()
            .map(|p| stone_index(p.stone).expect("a stone of the set") as u8)
            .collect();
        let n_stones = cube.stones().len();
        let mut lowest = vec![vec![Vec::new(); n_stones]; volume];
        let mut covering = vec![Vec::new(); volume];
        for (i, p) in cube.placements().iter().enumerate() {
            lowest[p.mask.trailing_zeros() as usize][stone_of[i] as usize].push(i as u32);
            for c in bits(p.mask) {
                covering[c].push(i as u32);
            }
        }
        for list in &mut covering {
            list.sort_by_key(|&p| std::cmp::Reverse(cube.placements()[p as usize].stone.size()));
        }
        let all = (1u16 << n_stones) - 1;
        let mut turns = Turns {
            cube,
            colours,
            full: if volume == 128 {
                u128::MAX
            } else {
                (1u128 << volume) - 1
            },
            stone_of,
            lowest,
            covering,
            neighbours: (0..volume).map(|i| cube.neighbours[i]).collect(),
            symmetric_start: prefix.is_empty(),
            filled: 0,
            own: vec![0; colours],
            left: vec![all; colours],
            pieces: Vec::new(),
            dead: HashSet::new(),
            nodes: 0,
            untileable: HashSet::new(),
        };
        for piece in prefix {
            let p = piece.placement;
            let legal = p < cube.placements().len()
                && piece.colour == turns.to_move()
                && piece.stone == cube.placements()[p].stone
                && turns.legal(piece.colour.index(), p);
            if !legal {
                return None;
            }
            turns.put(*piece);
        }
        Some(turns)
    }

    fn to_move(&self) -> Colour {
        Colour((self.pieces.len() % self.colours) as u8)
    }

    /// R3, R7 and the stone still held, for a stone of colour `c` at placement `p`.
    fn legal(&self, c: usize, p: usize) -> bool {
        let placement = &self.cube.placements()[p];
        self.left[c] & 1 << self.stone_of[p] != 0
            && placement.mask & self.filled == 0
            // R3: every cube on the floor or on a filled cell.
            && placement.below & !self.filled == 0
            // R7: after the colour's first stone, touch the colour face to face.
            && (self.own[c] == 0 || placement.around & self.own[c] != 0)
    }

    fn put(&mut self, piece: Piece) {
        let c = piece.colour.index();
        let mask = self.cube.placements()[piece.placement].mask;
        self.filled |= mask;
        self.own[c] |= mask;
        self.left[c] &= !(1 << self.stone_of[piece.placement]);
        self.pieces.push(piece);
    }

    fn take_back(&mut self) {
        let piece = self.pieces.pop().expect("a stone to take back");
        let c = piece.colour.index();
        let mask = self.cube.placements()[piece.placement].mask;
        self.filled &= !mask;
        self.own[c] &= !mask;
        self.left[c] |= 1 << self.stone_of[piece.placement];
    }

    /// Cells next to an empty cell.
    fn frontier(&self) -> u128 {
        let empty = self.full & !self.filled;
        bits(empty).fold(0, |m, i| m | self.neighbours[i]) & self.filled
    }

    fn key(&self, frontier: u128) -> Key {
        let mut key = Key {
            filled: self.filled,
            own: [0; super::MAX_COLOURS as usize],
            left: 0,
        };
        for c in 0..self.colours {
            key.own[c] = self.own[c] & frontier;
            key.left |= (self.left[c] as u128) << (11 * c);
        }
        key
    }

    /// Sizes and turns: whether some number of further stones, placed in turn from the
    /// colour to move, can have sizes adding up to exactly the empty cells, each colour
    /// using its own remaining stones; a cut-off colour (`frozen`) places none.
    fn sizes_fit(&self, frozen: &[bool]) -> bool {
        let empty = (self.full & !self.filled).count_ones() as usize;
        if empty == 0 {
            return true;
        }
        let stones = self.cube.stones();
        // Per colour, per number of stones: the sums (bits) its remaining stones reach.
        let mut reach = vec![[0u64; 12]; self.colours];
        for (c, table) in reach.iter_mut().enumerate() {
            table[0] = 1;
            if frozen[c] {
                continue;
            }
            let mut count = 0;
            for (s, stone) in stones.iter().enumerate() {
                if self.left[c] & 1 << s == 0 {
                    continue;
                }
                count += 1;
                for n in (0..count).rev() {
                    table[n + 1] |= table[n] << stone.size();
                }
            }
        }
        let held: usize = (0..self.colours)
            .filter(|&c| !frozen[c])
            .map(|c| self.left[c].count_ones() as usize)
            .sum();
        let first = self.pieces.len() % self.colours;
        let mut per = vec![0usize; self.colours];
        for m in 1..=held {
            per[(first + m - 1) % self.colours] += 1;
            if per.iter().any(|&n| n > 11) {
                break;
            }
            let mut sums: u128 = 1;
            for (c, &n) in per.iter().enumerate() {
                let r = reach[c][n];
                if r == 0 {
                    sums = 0;
                    break;
                }
                let mut next = 0u128;
                for b in bits(r as u128) {
                    next |= sums << b;
                }
                sums = next;
            }
            if empty < 128 && sums & 1 << empty != 0 {
                return true;
            }
        }
        false
    }

    /// Dead cells: every empty cell lies in a placement, inside the empty cells, of a
    /// stone some colour still holds.
    fn cells_coverable(&self) -> bool {
        let held = self.left.iter().fold(0u16, |m, &l| m | l);
        let empty = self.full & !self.filled;
        let mut covered = 0u128;
        for cell in bits(empty) {
            if covered & 1 << cell != 0 {
                continue;
            }
            let found = self.covering[cell].iter().find(|&&p| {
                held & 1 << self.stone_of[p as usize] != 0
                    && self.cube.placements()[p as usize].mask & self.filled == 0
            });
            match found {
                Some(&p) => covered |= self.cube.placements()[p as usize].mask,
                None => return false,
            }
        }
        true
    }

    /// Tiling: the empty cells must be an exact cover by stones still held (each stone
    /// as often as colours hold it; colours, turns, R3 and R7 aside). Searched by the
    /// lowest empty cell within a budget; past the budget nothing is cut.
    fn tileable(&mut self) -> bool {
        let mut copies = [0u8; 11];
        for &l in &self.left {
            for (s, n) in copies.iter_mut().enumerate() {
                *n += (l >> s & 1) as u8;
            }
        }
        let empty = self.full & !self.filled;
        if self.untileable.contains(&(empty, copies)) {
            return false;
        }
        let mut budget = TILING_BUDGET;
        match self.tile(empty, &mut copies, &mut budget) {
            Some(false) => {
                if self.untileable.len() >= MEMO_LIMIT {
                    self.untileable.clear();
                }
                self.untileable.insert((empty, copies));
                false
            }
            _ => true,
        }
    }

    /// `Some(whether empty can be tiled)`, or `None` when the budget ran out.
    fn tile(&self, empty: u128, copies: &mut [u8; 11], budget: &mut u32) -> Option<bool> {
        if empty == 0 {
            return Some(true);
        }
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let cell = empty.trailing_zeros() as usize;
        let mut unknown = false;
        for s in 0..copies.len() {
            if copies[s] == 0 {
                continue;
            }
            for &p in &self.lowest[cell][s] {
                let mask = self.cube.placements()[p as usize].mask;
                if mask & !empty != 0 {
                    continue;
                }
                copies[s] -= 1;
                let result = self.tile(empty & !mask, copies, budget);
                copies[s] += 1;
                match result {
                    Some(true) => return Some(true),
                    Some(false) => {}
                    None => unknown = true,
                }
                if unknown {
                    return None;
                }
            }
        }
        Some(false)
    }

    /// The legal stones of the colour to move, in the order they are tried: the lowest
    /// first (the cube is built up level by level), then the larger stones.
    fn moves(&self) -> Vec<u32> {
        let c = self.to_move().index();
        let empty = self.full & !self.filled;
        let layer = self.cube.edge() * self.cube.edge();
        // Where a column's empty part begins: on the floor or on a filled cell.
        let floor = (1u128 << layer) - 1;
        let starts = empty & (floor | (self.filled << layer));
        let mut out: Vec<u32> = Vec::new();
        for cell in bits(starts) {
            for (s, list) in self.lowest[cell].iter().enumerate() {
                if self.left[c] & 1 << s == 0 {
                    continue;
                }
                out.extend(list.iter().copied().filter(|&p| self.legal(c, p as usize)));
            }
        }
        let placements = self.cube.placements();
        out.sort_by_key(|&p| {
            let pl = &placements[p as usize];
            let top = (127 - pl.mask.leading_zeros()) as usize / layer;
            (
                top,
                std::cmp::Reverse(pl.stone.size()),
                pl.mask.trailing_zeros(),
            )
        });
        if self.symmetric_start && self.pieces.is_empty() {
            let syms = self.cube.symmetries();
            out.retain(|&p| syms.iter().all(|g| g.placement(p as usize) >= p as usize));
        }
        out
    }

    /// Depth first from the current state: `Ok(true)` when the cube is full.
    fn search(&mut self, stop: &mut dyn FnMut() -> bool) -> Result<bool, Interrupted> {
        if self.filled == self.full {
            return Ok(true);
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) && stop() {
            return Err(Interrupted);
        }
        let frontier = self.frontier();
        let key = self.key(frontier);
        if self.dead.contains(&key) {
            return Ok(false);
        }
        // A colour that has placed but touches no empty cell can place no more (R7).
        let frozen: Vec<bool> = (0..self.colours)
            .map(|c| self.own[c] != 0 && self.own[c] & frontier == 0)
            .collect();
        if self.sizes_fit(&frozen) && self.cells_coverable() && self.tileable() {
            let colour = self.to_move();
            for p in self.moves() {
                self.put(Piece {
                    colour,
                    stone: self.cube.placements()[p as usize].stone,
                    placement: p as usize,
                });
                if self.search(stop)? {
                    return Ok(true);
                }
                self.take_back();
            }
        }
        if self.dead.len() >= MEMO_LIMIT {
            self.dead.clear();
        }
        self.dead.insert(key);
        Ok(false)
    }

    /// Runs the search to its end, or until `stop` says so.
    pub fn decide(mut self, stop: &mut dyn FnMut() -> bool) -> Decision {
        match self.search(stop) {
            Ok(true) => Decision::Solved(Solution {
                pieces: self.pieces,
            }),
            Ok(false) => Decision::NoSolution,
            Err(Interrupted) => Decision::Stopped,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::CubeSpec;
    use super::*;
    use crate::Stone;

    fn two_colours() -> SoloCube {
        SoloCube::new(CubeSpec::new(3, 2).with_rules(true)).unwrap()
    }

    fn floor_i3(cube: &SoloCube, colour: u8) -> Piece {
        let mask = 0b111;
        Piece {
            colour: Colour(colour),
            stone: Stone::I3,
            placement: cube.placement_of(mask).unwrap(),
        }
    }

    #[test]
    fn a_build_in_progress_is_continued_in_turn() {
        let cube = two_colours();
        let red = floor_i3(&cube, 0);
        let Decision::Solved(solution) = Turns::new(&cube, &[red]).unwrap().decide(&mut || false)
        else {
            panic!("an I3 on the floor can be built on");
        };
        assert_eq!(solution.pieces[0], red);
        assert_eq!(solution.pieces[1].colour, Colour(1));
        assert_eq!(cube.validate(&solution), Ok(()));
    }

    #[test]
    fn an_illegal_build_is_not_continued() {
        let cube = two_colours();
        // Blue cannot begin (PD4).
        assert!(Turns::new(&cube, &[floor_i3(&cube, 1)]).is_none());
        // Nothing may hang in the air (R3).
        let high = Piece {
            placement: cube.placement_of(0b111 << 9).unwrap(),
            ..floor_i3(&cube, 0)
        };
        assert!(Turns::new(&cube, &[high]).is_none());
    }

    #[test]
    fn the_first_stone_is_tried_once_per_orbit() {
        let cube = two_colours();
        let turns = Turns::new(&cube, &[]).unwrap();
        let first = turns.moves();
        // Every first stone lies on the floor, and none is the image of another.
        let layer = 9;
        for &p in &first {
            assert!(cube.placements()[p as usize].mask.trailing_zeros() < layer);
        }
        for &p in &first {
            for g in cube.symmetries() {
                let q = g.placement(p as usize) as u32;
                assert!(q == p || !first.contains(&q));
            }
        }
    }

    #[test]
    fn a_stopped_search_is_undecided() {
        use Stone::*;
        // No build exists, and proving it takes more states than one stop check.
        let spec = CubeSpec::new(3, 2)
            .leaving_out(&[O4, T4, S4, Tripod, ScrewA, ScrewB])
            .with_rules(true);
        let cube = SoloCube::new(spec).unwrap();
        let turns = Turns::new(&cube, &[]).unwrap();
        assert_eq!(turns.decide(&mut || true), Decision::Stopped);
    }
}
