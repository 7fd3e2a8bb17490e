//! Listing, counting and drawing the legal moves of the colour to move (R3, R6, R7),
//! by the fast generator or, in reference mode, the plain one.

use rand::Rng;

use super::{Phase, Position};
use crate::board::Move;
use crate::colour::Colour;

impl Position {
    pub(super) fn has_legal_move(&self, colour: Colour) -> bool {
        if self.phase == Phase::Remove {
            return !self.removals_of(colour).is_empty();
        }
        let left = self.stones_left[colour.index()];
        match &self.fast {
            _ if left == 0 => false,
            Some(fast) => fast.any(&self.board, self.contact_rule(colour), left),
            None => !self.reference_moves(colour).is_empty(),
        }
    }

    /// The legal moves of the colour to move (empty when the game is over).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.for_each_legal(|m| moves.push(m));
        moves
    }

    /// Calls `f` for each legal move, in placement order, without allocating.
    pub fn for_each_legal(&self, f: impl FnMut(Move)) {
        let Some(colour) = self.to_move else { return };
        if self.phase == Phase::Remove {
            self.removals().into_iter().for_each(f);
            return;
        }
        match &self.fast {
            Some(fast) => fast.for_each(
                &self.board,
                self.contact_rule(colour),
                self.stones_left[colour.index()],
                f,
            ),
            None => self.reference_moves(colour).into_iter().for_each(f),
        }
    }

    pub fn legal_count(&self) -> usize {
        let Some(colour) = self.to_move else { return 0 };
        if self.phase == Phase::Remove {
            return self.removals().len();
        }
        match &self.fast {
            Some(fast) => fast.count(
                &self.board,
                self.contact_rule(colour),
                self.stones_left[colour.index()],
            ),
            None => self.reference_moves(colour).len(),
        }
    }

    /// A legal move drawn uniformly at random.
    pub fn random_move(&self, rng: &mut impl Rng) -> Option<Move> {
        let colour = self.to_move?;
        match &self.fast {
            Some(fast) if self.phase != Phase::Remove => {
                let rule = self.contact_rule(colour);
                let left = self.stones_left[colour.index()];
                let n = fast.count(&self.board, rule, left);
                (n > 0)
                    .then(|| fast.nth(&self.board, rule, left, rng.gen_range(0..n as u32) as usize))
            }
            _ => {
                let moves = self.legal_moves();
                (!moves.is_empty()).then(|| moves[rng.gen_range(0..moves.len() as u32) as usize])
            }
        }
    }

    /// Plays uniformly random legal moves until the game ends: a random playout.
    pub fn play_randomly(&mut self, rng: &mut impl Rng) {
        while let Some(mv) = self.random_move(rng) {
            self.play_unchecked(mv);
        }
    }
}
