//! R16, the two-player dismantling game (Rumis+): build inside the red line, take the
//! interim score, then take stones off and place them outside the red line.

use std::sync::Arc;

use super::Score;
use super::{Event, Phase, Position, EMPTY};
use crate::board::Move;
use crate::colour::Colour;
use crate::movegen::FastGen;
use crate::rules::{check_removal, Illegal};
use crate::stones::Stone;

impl Position {
    /// The stone R16 makes the colour to move place: the one it just took off.
    pub fn stone_in_hand(&self) -> Option<Stone> {
        let colour = self.to_move?;
        (self.phase == Phase::Rebuild).then(|| self.supply(colour)[0])
    }

    /// R16: the colour to move must take one of its stones off (`x L4`) before placing.
    pub fn removing(&self) -> bool {
        self.phase == Phase::Remove
    }

    /// R16: the dismantle-and-rebuild phase has begun (the interim score is taken).
    pub fn dismantling(&self) -> bool {
        self.interim.is_some()
    }

    /// R16: the interim score, once the build inside the red line is finished.
    pub fn interim(&self) -> Option<&Score> {
        self.interim.as_ref()
    }

    /// R16: the columns inside the red line (row-major), in the dismantling game.
    pub fn red_line(&self) -> Option<&[bool]> {
        self.board.red_line()
    }

    /// Stones each colour has set aside in the dismantling phase (R16).
    pub fn set_aside(&self, colour: Colour) -> u8 {
        self.set_aside[colour.index()]
    }

    /// Where a colour's stone stands on the build, if it does.
    pub fn stone_on_build(&self, colour: Colour, stone: Stone) -> Option<Move> {
        if self.stones_left[colour.index()] & (1 << stone.index()) != 0
            && self.board.red().is_none()
        {
            return None;
        }
        let placed = |mv: Move| self.board.placement(mv).stone == stone;
        if self.board.red().is_some() {
            return self
                .present
                .iter()
                .find(|&&(c, mv)| c == colour.0 && placed(mv))
                .map(|&(_, mv)| mv);
        }
        // Without removals every move of the history is on the build; the ruin's
        // neutral colour and each player colour place a stone once.
        let mut replay_colour = self.history.iter().filter(|&&mv| placed(mv));
        replay_colour
            .find(|&&mv| {
                let cell = self.board.placement(mv).cells()[0];
                self.colour_of_index(cell) == Some(colour)
            })
            .copied()
    }

    /// R16: takes `stone` of the colour to move off the build, if the rules allow it.
    pub fn check_removal(&self, stone: Stone) -> Result<Move, Illegal> {
        let colour = self.to_move.ok_or(Illegal::GameOver)?;
        if self.phase != Phase::Remove {
            return Err(Illegal::NoRemovalNow);
        }
        let mv = self
            .stone_on_build(colour, stone)
            .ok_or(Illegal::NotOnTheBuild { colour, stone })?;
        let red = &self
            .board
            .red()
            .expect("the dismantling game has a red line")
            .columns;
        let cell_colour = |i: u16| self.colour_of_index(i);
        check_removal(
            &self.board,
            &cell_colour,
            red,
            colour,
            stone,
            &self.cells_of(mv),
        )?;
        Ok(mv)
    }

    /// R16: the stones the colour to move may take off (placements, in build order).
    pub(super) fn removals(&self) -> Vec<Move> {
        let Some(colour) = self.to_move else {
            return Vec::new();
        };
        self.removals_of(colour)
    }

    pub(super) fn removals_of(&self, colour: Colour) -> Vec<Move> {
        let Some(red) = self.board.red() else {
            return Vec::new();
        };
        let cell_colour = |i: u16| self.colour_of_index(i);
        let mut moves: Vec<Move> = self
            .present
            .iter()
            .filter(|&&(c, _)| c == colour.0)
            .map(|&(_, mv)| mv)
            .filter(|&mv| {
                let stone = self.board.placement(mv).stone;
                check_removal(
                    &self.board,
                    &cell_colour,
                    &red.columns,
                    colour,
                    stone,
                    &self.cells_of(mv),
                )
                .is_ok()
            })
            .collect();
        moves.sort();
        moves
    }

    /// R16: takes the colour's stone `mv` off the build; it must then be placed outside
    /// the red line, or, when it cannot be, it is set aside and the colour is out.
    pub(super) fn remove(&mut self, colour: Colour, mv: Move) {
        let board = Arc::clone(&self.board);
        let p = board.placement(mv);
        for &cell in p.cells() {
            self.cells[cell as usize] = EMPTY;
        }
        for span in p.spans() {
            self.heights[span.column as usize] = span.bottom;
        }
        self.present.retain(|&(_, m)| m != mv);
        self.stones_on_board -= 1;
        self.placed[colour.index()] -= 1;
        self.stones_left[colour.index()] |= 1 << p.stone.index();
        self.history.push(mv);
        self.phase = Phase::Rebuild;
        self.rebuild_fast();
        if !self.has_legal_move(colour) {
            // R16: cannot place the stone taken off: it is set aside, the colour is out.
            self.stones_left[colour.index()] = 0;
            self.set_aside[colour.index()] += 1;
            self.out[colour.index()] = true;
            let ply = self.history.len();
            self.events.push(Event::SetAside {
                ply,
                colour,
                stone: p.stone,
            });
            self.events.push(Event::Out { ply, colour });
            self.phase = Phase::Remove;
            self.settle(self.turn + 1);
        }
    }

    /// R16: heights shrank, so the fast generator is built anew for the stones still
    /// on the build (its bit sets assume heights only grow); it allows placements
    /// outside the red line only.
    pub(super) fn rebuild_fast(&mut self) {
        if self.fast.is_none() {
            return;
        }
        let red = self.board.red().expect("only the dismantling game removes");
        let board = &self.board;
        let mut fast = FastGen::new(board, self.colour_count(), Some(&red.outside));
        let mut heights = vec![0u8; board.column_count()];
        let cells = &self.cells;
        for &(colour, mv) in &self.present {
            fast.place(board, mv, colour as usize, &heights, |c| {
                cells[c as usize] != EMPTY
            });
            for span in board.placement(mv).spans() {
                heights[span.column as usize] = span.top;
            }
        }
        self.fast = Some(fast);
    }

    /// R16: no one can place inside the red line any more. The interim score is taken
    /// (own visible squares minus own unplaced stones), the unplaced stones leave the
    /// game, and both players take part again; the player who placed last begins.
    /// Returns that player's place in the turn order.
    pub(super) fn begin_dismantling(&mut self) -> usize {
        self.interim = Some(self.score());
        self.events.push(Event::Interim {
            ply: self.history.len(),
        });
        for left in &mut self.stones_left {
            *left = 0;
        }
        for out in &mut self.out {
            *out = false;
        }
        let last = self.last_mover.unwrap_or(self.order[0]);
        self.order.iter().position(|&c| c == last).unwrap_or(0)
    }
}
