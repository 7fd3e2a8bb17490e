//! Under `--rules` a filled cube counts only if it can be built stone by stone with the
//! colours in turn (PD3): each stone without a hole under it (R3) and, after its
//! colour's first, touching its own colour face to face (R7).

use std::collections::HashSet;

use super::{Piece, SoloCube};

/// State of the order search over the pieces still to place.
struct Order<'a> {
    cube: &'a SoloCube,
    rest: &'a [Piece],
    filled: u128,
    colour_cells: Vec<u128>,
    /// Stones each colour has placed.
    placed: Vec<usize>,
    turn: usize,
    order: Vec<usize>,
    /// Sets of placed pieces (bits of `rest`) from which no order finishes.
    dead: HashSet<u64>,
}

/// A build order: `prefix` as it stands (already built legally), then all of `rest`.
/// `None` if there is none (or more than 64 pieces remain, which no cube needs).
pub(crate) fn build_order(cube: &SoloCube, prefix: &[Piece], rest: &[Piece]) -> Option<Vec<Piece>> {
    if rest.len() > 64 {
        return None;
    }
    let colours = cube.spec().colours as usize;
    let mut state = Order {
        cube,
        rest,
        filled: 0,
        colour_cells: vec![0; colours],
        placed: vec![0; colours],
        turn: 0,
        order: Vec::with_capacity(rest.len()),
        dead: HashSet::new(),
    };
    for piece in prefix {
        state.put(piece);
    }
    if !state.search(0) {
        return None;
    }
    let mut pieces = prefix.to_vec();
    pieces.extend(state.order.iter().map(|&i| rest[i]));
    Some(pieces)
}

impl Order<'_> {
    fn mask(&self, piece: &Piece) -> u128 {
        self.cube.placements()[piece.placement].mask
    }

    fn put(&mut self, piece: &Piece) {
        let m = self.mask(piece);
        self.filled |= m;
        self.colour_cells[piece.colour.index()] |= m;
        self.placed[piece.colour.index()] += 1;
        self.turn += 1;
    }

    fn take_back(&mut self, piece: &Piece) {
        let m = self.mask(piece);
        self.filled &= !m;
        self.colour_cells[piece.colour.index()] &= !m;
        self.placed[piece.colour.index()] -= 1;
        self.turn -= 1;
    }

    /// R3 and R7 for the next stone, `piece`.
    fn fits(&self, piece: &Piece) -> bool {
        let p = &self.cube.placements()[piece.placement];
        let c = piece.colour.index();
        p.below & !self.filled == 0 && (self.placed[c] == 0 || p.around & self.colour_cells[c] != 0)
    }

    fn search(&mut self, done: u64) -> bool {
        if done.count_ones() as usize == self.rest.len() {
            return true;
        }
        if self.dead.contains(&done) {
            return false;
        }
        // The colours in turn, red first, strictly (PD4).
        let colour = self.turn % self.colour_cells.len();
        for i in 0..self.rest.len() {
            let piece = self.rest[i];
            if done & 1 << i != 0 || piece.colour.index() != colour || !self.fits(&piece) {
                continue;
            }
            self.put(&piece);
            self.order.push(i);
            if self.search(done | 1 << i) {
                return true;
            }
            self.order.pop();
            self.take_back(&piece);
        }
        self.dead.insert(done);
        false
    }
}

#[cfg(test)]
mod tests {
    use super::super::CubeSpec;
    use super::*;
    use crate::{Colour, Stone};

    /// The cells of a placement, as (x, y, z) triples.
    fn find(cube: &SoloCube, stone: Stone, cells: &[[u8; 3]]) -> usize {
        let mask = cells.iter().fold(0u128, |m, &[x, y, z]| {
            m | 1 << cube.cell_index(crate::Cell { x, y, z }).expect("inside")
        });
        let p = cube.placement_of(mask).expect("a placement");
        assert_eq!(cube.placements()[p].stone, stone);
        p
    }

    #[test]
    fn a_stone_over_a_hole_or_away_from_its_colour_has_no_order() {
        let cube = SoloCube::new(CubeSpec::new(3, 2).with_rules(true)).unwrap();
        let red = Colour(0);
        let blue = Colour(1);
        let bottom = Piece {
            colour: red,
            stone: Stone::I3,
            placement: find(&cube, Stone::I3, &[[0, 0, 0], [1, 0, 0], [2, 0, 0]]),
        };
        let above = Piece {
            colour: blue,
            stone: Stone::I3,
            placement: find(&cube, Stone::I3, &[[0, 0, 1], [1, 0, 1], [2, 0, 1]]),
        };
        // Red below, blue on top: the order red, blue works; blue alone in the air not.
        assert!(build_order(&cube, &[], &[bottom, above]).is_some());
        assert_eq!(build_order(&cube, &[], &[above]), None);
        // Blue cannot go first (red starts, PD4).
        let blue_floor = Piece {
            colour: blue,
            ..bottom
        };
        assert_eq!(build_order(&cube, &[], &[blue_floor]), None);
        // Red's second stone must touch red (R7): far away it has no order.
        let far = Piece {
            colour: red,
            stone: Stone::Domino,
            placement: find(&cube, Stone::Domino, &[[0, 2, 0], [1, 2, 0]]),
        };
        let blue_mid = Piece {
            colour: blue,
            stone: Stone::Domino,
            placement: find(&cube, Stone::Domino, &[[0, 1, 0], [1, 1, 0]]),
        };
        assert!(build_order(&cube, &[], &[bottom, blue_mid, far]).is_none());
        let near = Piece {
            colour: red,
            stone: Stone::Domino,
            placement: find(&cube, Stone::Domino, &[[2, 1, 0], [2, 2, 0]]),
        };
        let order = build_order(&cube, &[], &[near, blue_mid, bottom]).unwrap();
        assert_eq!(order, vec![near, blue_mid, bottom]);
    }
}
