//! The plain reference move generator: slow, obviously right, the oracle the fast
//! generator is tested and benchmarked against.

use std::sync::Arc;

use super::{Position, Setup, SetupError};
use crate::board::{Cell, Move};
use crate::colour::Colour;
use crate::rules::check_placement;
use crate::stones::Stone;

impl Position {
    /// A new game that generates moves with the plain reference implementation (every
    /// stone, orientation and translation checked by [`check_placement`]). Slow; it is
    /// the oracle the fast generator is tested and benchmarked against.
    pub fn new_reference(setup: Setup) -> Result<Position, SetupError> {
        let board = Arc::new(setup.board()?);
        Position::build(setup, board, false)
    }

    /// The reference generator: every stone in supply, every orientation, every
    /// translation in the board's box, checked by the plain rules.
    pub(super) fn reference_moves(&self, colour: Colour) -> Vec<Move> {
        let board = &self.board;
        let mut moves = Vec::new();
        self.with_context(colour, |ctx| {
            for stone in Stone::ALL {
                if self.stones_left[colour.index()] & (1 << stone.index()) == 0 {
                    continue;
                }
                for shape in stone.orientations() {
                    for z in 0..board.height as u8 {
                        for y in 0..board.depth as u8 {
                            for x in 0..board.width as u8 {
                                let cells = Cell::of_shape(shape, x, y, z);
                                if check_placement(ctx, &cells).is_ok() {
                                    let indices: Vec<u16> =
                                        cells.iter().filter_map(|&c| board.cell_index(c)).collect();
                                    moves.extend(board.find(stone, &indices));
                                }
                            }
                        }
                    }
                }
            }
        });
        moves.sort();
        moves
    }
}
