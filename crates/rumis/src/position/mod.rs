//! A game in progress: the build, each colour's supply, whose turn it is, and the
//! variants that change who places what (R6–R11; Rumis+: R13–R16).
//!
//! The game itself (state, turns, checking and playing a move) is here; its other
//! concerns have a file each: the setup before the first move (`setup`), listing
//! legal moves (`moves`), the plain reference generator (`reference`), the random
//! ruin (`ruin`, R11), the dismantling game (`dismantle`, R16) and scoring (`score`).

mod dismantle;
mod moves;
mod reference;
mod ruin;
mod score;
mod setup;

pub use score::Score;
pub use setup::{FirstStones, Setup, SetupError, Variant};

use std::fmt;
use std::sync::Arc;

use crate::board::{Board, BoardKey, Cell, Move};
use crate::colour::Colour;
use crate::movegen::{ContactRule, FastGen};
use crate::rules::{check_placement, Area, CellName, Contact, Illegal, PlacementContext};
use crate::stones::{identify, Stone};

/// Something that happened between moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// R8: the colour had no legal placement on its turn (or no stones left) after
    /// `ply` moves, and is out for the rest of the game.
    Out { ply: usize, colour: Colour },
    /// R16: no one can place inside the red line any more after `ply` moves: the
    /// interim score is taken ([`Position::interim`]), unplaced stones leave the game,
    /// and the dismantling phase begins.
    Interim { ply: usize },
    /// R16: the colour took `stone` off after `ply` moves but cannot place it: the
    /// stone is set aside and the colour is out (an `Out` event follows).
    SetAside {
        ply: usize,
        colour: Colour,
        stone: Stone,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// R11: the neutral colour is being built in.
    Ruin,
    /// Placing stones (R16: the build phase, inside the red line).
    Main,
    /// R16: the colour to move takes one of its stones off inside the red line.
    Remove,
    /// R16: the colour to move places the stone it took off, outside the red line.
    Rebuild,
    Over,
}

const EMPTY: u8 = u8::MAX;
const ALL_STONES: u16 = (1 << 11) - 1;

/// A game of Rumis in progress.
#[derive(Clone)]
pub struct Position {
    board: Arc<Board>,
    setup: Arc<Setup>,
    /// Per colour: the player who owns it (`None` for the neutral ruin colour).
    owners: Vec<Option<u8>>,
    stones_left: Vec<u16>,
    placed: Vec<u8>,
    out: Vec<bool>,
    cells: Vec<u8>,
    heights: Vec<u8>,
    stones_on_board: u32,
    /// Turn order of the main phase, as colour indices (R6, R10).
    order: Vec<u8>,
    neutral: Option<u8>,
    phase: Phase,
    turn: usize,
    to_move: Option<Colour>,
    history: Vec<Move>,
    /// Moves placed by the software before play (the random ruin).
    generated: usize,
    /// Turns passed ([`Position::pass`]), each as the number of moves played before it.
    passes: Vec<usize>,
    events: Vec<Event>,
    fast: Option<FastGen>,
    /// R16: the stones on the build in the order they were placed: (colour,
    /// placement); kept in the dismantling game only (elsewhere that is the history).
    present: Vec<(u8, Move)>,
    /// R14: per colour, its first placement.
    first_moves: Vec<Option<Move>>,
    /// R16 (the red line is the board's): the stones each colour has rebuilt and set
    /// aside, the colour that placed last, and the interim score.
    rebuilt: Vec<u8>,
    set_aside: Vec<u8>,
    last_mover: Option<u8>,
    interim: Option<Score>,
}

impl Position {
    /// A new game with the fast move generator, on a board of its own (see
    /// [`Position::with_board`] to share one).
    pub fn new(setup: Setup) -> Result<Position, SetupError> {
        let board = Arc::new(setup.board()?);
        Position::build(setup, board, true)
    }

    /// A new game on a board already built (shared with other games: a board never
    /// changes), which must be the one the setup plays on ([`Setup::board_key`]).
    pub fn with_board(setup: Setup, board: Arc<Board>) -> Result<Position, SetupError> {
        let expected = setup.board_key()?;
        if *board.key() != expected {
            let describe = |k: &BoardKey| {
                format!(
                    "{} {}x{}, limits {:?}{}",
                    k.scenario_key,
                    k.footprint.width,
                    k.footprint.depth,
                    k.footprint.limits,
                    if k.red_line.is_some() {
                        ", with a red line"
                    } else {
                        ""
                    }
                )
            };
            return Err(SetupError::WrongBoard {
                expected: describe(&expected),
                given: describe(board.key()),
            });
        }
        Position::build(setup, board, true)
    }

    /// The board this game is played on, to start other games on it
    /// ([`Position::with_board`]); cloning the `Arc` shares it.
    pub fn shared_board(&self) -> &Arc<Board> {
        &self.board
    }

    /// A new game with the same setup on the same board.
    pub fn restart(&self) -> Position {
        let setup = Setup::clone(&self.setup);
        Position::build(setup, Arc::clone(&self.board), self.fast.is_some())
            .expect("a running game's setup is valid")
    }

    fn build(setup: Setup, board: Arc<Board>, fast: bool) -> Result<Position, SetupError> {
        let players = setup.players;
        let (owners, order, neutral): (Vec<Option<u8>>, Vec<u8>, Option<u8>) = match setup.variant {
            Variant::Standard | Variant::Inverse | Variant::Dismantle => (
                (0..players).map(Some).collect(),
                (0..players).collect(),
                None,
            ),
            // R10: colours 0..4 owned A, B, A, B, played in that order.
            Variant::FourColours => (
                vec![Some(0), Some(1), Some(0), Some(1)],
                vec![0, 1, 2, 3],
                None,
            ),
            // R11: the neutral colour is the first unused one.
            Variant::Ruinas | Variant::RuinasRandom => {
                let mut owners: Vec<Option<u8>> = (0..players).map(Some).collect();
                owners.push(None);
                (owners, (0..players).collect(), Some(players))
            }
        };
        let colours = owners.len();
        let mut position = Position {
            // R16: the build phase places inside the red line only.
            fast: fast.then(|| FastGen::new(&board, colours, board.red().map(|r| &r.inside[..]))),
            cells: vec![EMPTY; board.cell_count()],
            present: Vec::new(),
            first_moves: vec![None; colours],
            rebuilt: vec![0; colours],
            set_aside: vec![0; colours],
            last_mover: None,
            interim: None,
            heights: vec![0; board.column_count()],
            board,
            owners,
            stones_left: vec![ALL_STONES; colours],
            placed: vec![0; colours],
            out: vec![false; colours],
            stones_on_board: 0,
            order,
            neutral,
            phase: if setup.variant.has_ruin() {
                Phase::Ruin
            } else {
                Phase::Main
            },
            turn: 0,
            to_move: None,
            history: Vec::new(),
            generated: 0,
            passes: Vec::new(),
            events: Vec::new(),
            setup: Arc::new(setup),
        };
        position.settle(0);
        if position.setup.variant == Variant::RuinasRandom {
            position.build_random_ruin();
        }
        Ok(position)
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// Number of colours in play (including a neutral ruin colour).
    pub fn colour_count(&self) -> usize {
        self.owners.len()
    }

    /// The player who owns a colour; `None` for the neutral ruin colour (R11).
    pub fn owner(&self, colour: Colour) -> Option<u8> {
        self.owners[colour.index()]
    }

    /// The colours a player plays.
    pub fn colours_of(&self, player: u8) -> Vec<Colour> {
        (0..self.colour_count() as u8)
            .map(Colour)
            .filter(|&c| self.owner(c) == Some(player))
            .collect()
    }

    /// The neutral ruin colour, if the variant has one.
    pub fn neutral(&self) -> Option<Colour> {
        self.neutral.map(Colour)
    }

    /// The colour whose stone is placed next; `None` when the game is over.
    pub fn to_move(&self) -> Option<Colour> {
        self.to_move
    }

    /// The player who places the next stone: the owner of the colour to move, or, while
    /// the ruin is built (R11), the players in turn.
    pub fn actor(&self) -> Option<u8> {
        let colour = self.to_move?;
        match self.phase {
            Phase::Ruin => {
                Some(((self.history.len() - self.generated) % self.setup.players as usize) as u8)
            }
            _ => self.owner(colour),
        }
    }

    /// The ruin is still being built (R11).
    pub fn building_ruin(&self) -> bool {
        self.phase == Phase::Ruin
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    pub fn is_out(&self, colour: Colour) -> bool {
        self.out[colour.index()]
    }

    /// Stones a colour has not placed yet, in [`Stone::ALL`] order.
    pub fn supply(&self, colour: Colour) -> Vec<Stone> {
        let left = self.stones_left[colour.index()];
        Stone::ALL
            .into_iter()
            .filter(|s| left & (1 << s.index()) != 0)
            .collect()
    }

    /// All moves so far, including generated ruin moves.
    pub fn history(&self) -> &[Move] {
        &self.history
    }

    /// How many of the first moves were generated by the software (the random ruin) and
    /// so are not written into a record.
    pub fn generated_moves(&self) -> usize {
        self.generated
    }

    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The colour of a cell, if a cube is there.
    pub fn colour_at(&self, cell: Cell) -> Option<Colour> {
        let i = self.board.cell_index(cell)?;
        self.colour_of_index(i)
    }

    fn colour_of_index(&self, i: u16) -> Option<Colour> {
        let c = self.cells[i as usize];
        (c != EMPTY).then_some(Colour(c))
    }

    /// Height of a column (number of cubes in it).
    pub fn height(&self, column: usize) -> u8 {
        self.heights[column]
    }

    /// The colour seen from above in a column (R9).
    pub fn top(&self, column: usize) -> Option<Colour> {
        let h = self.heights[column] as usize;
        (h > 0).then(|| Colour(self.cells[(h - 1) * self.board.column_count() + column]))
    }

    /// The contact rule for the colour to move (R6, R7, R14, R15, R16).
    fn contact(&self, colour: Colour) -> Contact {
        let c = colour.index();
        if self.phase == Phase::Rebuild {
            // R16: the first rebuilt stone touches the colour's stones inside the red
            // line; later ones follow R7.
            return if self.rebuilt[c] == 0 {
                Contact::FirstRebuilt
            } else {
                Contact::Own
            };
        }
        if self.placed[c] > 0 {
            if self.setup.variant == Variant::Inverse {
                Contact::Inverse
            } else {
                Contact::Own
            }
        } else if self.stones_on_board == 0 {
            Contact::Anywhere
        } else if self.setup.first_stones == FirstStones::Edge {
            Contact::FirstStoneByEdge
        } else {
            Contact::FirstStone
        }
    }

    fn contact_rule(&self, colour: Colour) -> ContactRule {
        ContactRule {
            contact: self.contact(colour),
            colour: colour.index(),
        }
    }

    /// R16: where stones may stand in the current phase.
    fn area(&self) -> Area<'_> {
        match (self.board.red(), self.phase) {
            (None, _) => Area::Whole,
            (Some(red), Phase::Rebuild) => Area::Outside(&red.columns),
            (Some(red), _) => Area::Inside(&red.columns),
        }
    }

    /// Runs `f` with the rules' view of the build for `colour`.
    fn with_context<T>(&self, colour: Colour, f: impl FnOnce(&PlacementContext<'_>) -> T) -> T {
        let cell_colour = |i: u16| self.colour_of_index(i);
        let in_first = |i: u16| {
            self.first_moves
                .iter()
                .flatten()
                .any(|&mv| self.board.placement(mv).cells().contains(&i))
        };
        f(&PlacementContext {
            board: &self.board,
            cell_colour: &cell_colour,
            in_first_stone: &in_first,
            colour,
            contact: self.contact(colour),
            area: self.area(),
        })
    }

    /// Checks a stone on exactly these cells for the colour to move, with the reason
    /// when it is not allowed.
    pub fn check(&self, stone: Stone, cells: &[Cell]) -> Result<Move, Illegal> {
        let colour = self.to_move.ok_or(Illegal::GameOver)?;
        if self.phase == Phase::Remove {
            let example = self
                .removals()
                .first()
                .map_or(stone, |&mv| self.board.placement(mv).stone);
            return Err(Illegal::MustRemove { colour, example });
        }
        if self.stones_left[colour.index()] & (1 << stone.index()) == 0 {
            if let Some(removed) = self.stone_in_hand() {
                return Err(Illegal::NotTheRemovedStone {
                    colour,
                    removed,
                    stone,
                });
            }
            return Err(Illegal::StoneAlreadyPlaced { colour, stone });
        }
        if cells.len() != stone.size() {
            return Err(Illegal::WrongCubeCount {
                stone,
                expected: stone.size(),
                given: cells.len(),
            });
        }
        for (i, c) in cells.iter().enumerate() {
            if cells[..i].contains(c) {
                return Err(Illegal::RepeatedCell(CellName(*c)));
            }
        }
        crate::rules::check_footprint(&self.board, cells)?;
        let offsets: Vec<[i8; 3]> = cells
            .iter()
            .map(|c| [c.x as i8, c.y as i8, c.z as i8])
            .collect();
        if identify(&offsets).map(|(s, _)| s) != Some(stone) {
            return Err(Illegal::NotTheStone { stone });
        }
        self.with_context(colour, |ctx| check_placement(ctx, cells))?;
        Ok(self
            .board
            .find(
                stone,
                &cells
                    .iter()
                    .filter_map(|&c| self.board.cell_index(c))
                    .collect::<Vec<_>>(),
            )
            .expect("a placement that passes the rules fits the board"))
    }

    /// The cells of a move.
    pub fn cells_of(&self, mv: Move) -> Vec<Cell> {
        self.board
            .placement(mv)
            .cells()
            .iter()
            .map(|&i| self.board.cell(i))
            .collect()
    }

    /// Is this move legal for the colour to move? (R16: while removing, a move names
    /// the colour's stone to take off, by where it stands.)
    pub fn is_legal(&self, mv: Move) -> bool {
        mv.index() < self.board.placement_count() && self.validate(mv).is_ok()
    }

    fn validate(&self, mv: Move) -> Result<(), Illegal> {
        let stone = self.board.placement(mv).stone;
        if self.phase == Phase::Remove {
            let colour = self.to_move.ok_or(Illegal::GameOver)?;
            return match self.check_removal(stone)? {
                found if found == mv => Ok(()),
                _ => Err(Illegal::NotOnTheBuild { colour, stone }),
            };
        }
        self.check(stone, &self.cells_of(mv)).map(|_| ())
    }

    /// Plays a move after checking it; an illegal move changes nothing.
    pub fn play(&mut self, mv: Move) -> Result<(), Illegal> {
        if mv.index() >= self.board.placement_count() {
            return Err(Illegal::NoSuchPlacement(mv.index()));
        }
        self.validate(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays a move for `colour`, refusing it (and changing nothing) when another colour
    /// is to move: what a server does with a move sent out of turn.
    pub fn play_as(&mut self, colour: Colour, mv: Move) -> Result<(), Illegal> {
        let to_move = self.to_move.ok_or(Illegal::GameOver)?;
        if colour != to_move {
            return Err(Illegal::NotYourTurn { colour, to_move });
        }
        self.play(mv)
    }

    /// Passes the turn of the colour to move without placing (a server's turn clock
    /// ran out, RD17): the colour stays in the game, and the next colour in turn
    /// order that can move is to move. Not an R8 "cannot move": nobody goes out for
    /// it. False, and nothing changes, where no turn may be passed: the game is over,
    /// the ruin is being built (R11), or a stone taken off must be placed (R16).
    pub fn pass(&mut self) -> bool {
        if self.to_move.is_none() || matches!(self.phase, Phase::Ruin | Phase::Rebuild) {
            return false;
        }
        self.passes.push(self.history.len());
        self.settle(self.turn + 1);
        true
    }

    /// The turns passed ([`Position::pass`]), each as the number of moves played
    /// before it, in order.
    pub fn passes(&self) -> &[usize] {
        &self.passes
    }

    /// Plays a move known to be legal (one from [`Position::legal_moves`]).
    pub fn play_unchecked(&mut self, mv: Move) {
        let colour = self.to_move.expect("a move is played while the game runs");
        debug_assert!(
            self.fast.is_none() || self.is_legal(mv),
            "illegal move played"
        );
        if self.phase == Phase::Remove {
            self.remove(colour, mv);
            return;
        }
        let board = Arc::clone(&self.board);
        let p = board.placement(mv);
        let first = self.phase != Phase::Rebuild && self.placed[colour.index()] == 0;
        if let Some(fast) = &mut self.fast {
            let cells = &self.cells;
            // R14: first-stone contact is tracked while a first stone is still to come.
            if self.setup.first_stones == FirstStones::Edge && self.placed.contains(&0) {
                fast.track_first(&board, mv, first, |c| cells[c as usize] != EMPTY);
            }
            fast.place(&board, mv, colour.index(), &self.heights, |c| {
                cells[c as usize] != EMPTY
            });
        }
        for &cell in p.cells() {
            self.cells[cell as usize] = colour.0;
        }
        for span in p.spans() {
            self.heights[span.column as usize] = span.top;
        }
        if first {
            self.first_moves[colour.index()] = Some(mv);
        }
        self.stones_left[colour.index()] &= !(1 << p.stone.index());
        self.placed[colour.index()] += 1;
        self.stones_on_board += 1;
        if self.board.red().is_some() {
            self.present.push((colour.0, mv));
        }
        self.history.push(mv);
        self.last_mover = Some(colour.0);
        if self.phase == Phase::Rebuild {
            // R16: the removed stone is rebuilt; the other player's turn.
            self.rebuilt[colour.index()] += 1;
            self.phase = Phase::Remove;
        }
        self.settle(self.turn + 1);
    }

    /// Finds the next colour that can move, starting at position `from` of the turn
    /// order; colours that cannot are out for good (R8). Ends the ruin phase (R11), the
    /// build phase of the dismantling game (R16) and the game when no colour can move.
    fn settle(&mut self, mut from: usize) {
        loop {
            let len = match self.phase {
                Phase::Ruin => 1,
                Phase::Main | Phase::Remove => self.order.len(),
                Phase::Rebuild | Phase::Over => return,
            };
            for step in 0..len {
                let i = (from + step) % len;
                let colour = match self.phase {
                    Phase::Ruin => Colour(self.neutral.expect("ruin phase has a neutral colour")),
                    _ => Colour(self.order[i]),
                };
                if self.out[colour.index()] {
                    continue;
                }
                if self.has_legal_move(colour) {
                    self.turn = i;
                    self.to_move = Some(colour);
                    return;
                }
                // R8: no legal placement (or no stone left) on its turn: out for good.
                // R16: in the dismantling phase, no stone to take off: out.
                self.out[colour.index()] = true;
                self.events.push(Event::Out {
                    ply: self.history.len(),
                    colour,
                });
            }
            self.to_move = None;
            from = 0;
            self.phase = match self.phase {
                Phase::Ruin => Phase::Main,
                Phase::Main if self.board.red().is_some() => {
                    from = self.begin_dismantling();
                    Phase::Remove
                }
                _ => Phase::Over,
            };
        }
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position")
            .field("scenario", &self.setup.scenario.key)
            .field("players", &self.setup.players)
            .field("variant", &self.setup.variant)
            .field("moves", &self.history.len())
            .field("to_move", &self.to_move)
            .finish()
    }
}
