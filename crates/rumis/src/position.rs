//! A game in progress: the build, each colour's supply, whose turn it is, and the
//! variants that change who places what (R6–R11; Rumis+: R13–R16).

use std::fmt;
use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::board::{Board, BoardKey, Cell, Move};
use crate::colour::Colour;
use crate::movegen::{ContactRule, FastGen};
use crate::rules::{
    check_placement, check_removal, Area, CellName, Contact, Illegal, PlacementContext,
};
use crate::scenario::Scenario;
use crate::stones::{identify, Stone};

/// How a game is played (seed 000, "Varianten").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// One colour per player, 2–4 players.
    Standard,
    /// R10: two players with two colours each, played A1 B1 A2 B2 on the 4-player board.
    FourColours,
    /// R11: players first build all eleven stones of an unused colour together, then
    /// play on the board for one player more.
    Ruinas,
    /// R11, "the software may also generate a random ruin": the neutral stones are
    /// placed at random (legal placements drawn with the game's seed).
    RuinasRandom,
    /// R15 (Rumis+, 5 and 6 players): no stone touches its own colour face to face;
    /// every later stone touches another colour.
    Inverse,
    /// R16 (Rumis+, 2 players on Colca, Puncu, Apachita): build inside the red line,
    /// interim score, then take stones off and rebuild them outside it.
    Dismantle,
}

impl Variant {
    pub const ALL: [Variant; 6] = [
        Variant::Standard,
        Variant::FourColours,
        Variant::Ruinas,
        Variant::RuinasRandom,
        Variant::Inverse,
        Variant::Dismantle,
    ];

    /// Name used on the command line and in records.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::FourColours => "four-colours",
            Variant::Ruinas => "ruinas",
            Variant::RuinasRandom => "ruinas-random",
            Variant::Inverse => "inverse",
            Variant::Dismantle => "dismantle",
        }
    }

    /// The variant names, for help and error texts.
    pub fn names() -> String {
        Variant::ALL.map(|v| v.name()).join(", ")
    }

    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.name() == name)
    }

    fn has_ruin(self) -> bool {
        matches!(self, Variant::Ruinas | Variant::RuinasRandom)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How the players' first stones are placed (a rule option).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FirstStones {
    /// R6: touching a placed stone face to face.
    Face,
    /// R14 (Rumis+, 5 and 6 players): touching a placed stone along an edge, and no
    /// face contact between first stones.
    Edge,
}

impl FirstStones {
    pub fn name(self) -> &'static str {
        match self {
            FirstStones::Face => "face",
            FirstStones::Edge => "edge",
        }
    }

    pub fn from_name(name: &str) -> Option<FirstStones> {
        [FirstStones::Face, FirstStones::Edge]
            .into_iter()
            .find(|f| f.name() == name)
    }

    /// R14 is the rule for 5 and 6 players (RD10): the default there, R6 otherwise.
    pub fn default_for(players: u8) -> FirstStones {
        if players >= 5 {
            FirstStones::Edge
        } else {
            FirstStones::Face
        }
    }
}

impl fmt::Display for FirstStones {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Everything that fixes a game before the first move.
#[derive(Clone, Debug)]
pub struct Setup {
    pub scenario: Scenario,
    pub players: u8,
    pub variant: Variant,
    /// Used only where the rules call for chance (the random ruin).
    pub seed: u64,
    /// R6 or R14; [`FirstStones::default_for`] the player count unless chosen.
    pub first_stones: FirstStones,
}

/// Why a setup cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("Rumis is played by 2 to 4 players (Rumis+ up to 6), not {0}")]
    PlayerCount(u8),
    #[error("the four-colour variant (R10) is for exactly 2 players, not {0}")]
    FourColoursNeedsTwo(u8),
    #[error("Ruinas (R11) is for 2 or 3 players, not {0}")]
    RuinasPlayers(u8),
    #[error("the inverse variant (R15) is for 5 or 6 players, not {0}")]
    InversePlayers(u8),
    #[error("the dismantling game (R16) is for exactly 2 players, not {0}")]
    DismantlePlayers(u8),
    #[error("first stones touching by edges (R14) is the rule for 5 or 6 players, not {0}")]
    EdgeFirstStonesPlayers(u8),
    #[error("{0}")]
    Scenario(String),
    #[error("the board given ({given}) is not the one this setup plays on ({expected})")]
    WrongBoard { expected: String, given: String },
}

impl Setup {
    pub fn new(scenario: Scenario, players: u8) -> Setup {
        Setup {
            scenario,
            players,
            variant: Variant::Standard,
            seed: 0,
            first_stones: FirstStones::default_for(players),
        }
    }

    /// Chooses the first-stone rule (R6 or R14).
    pub fn with_first_stones(mut self, first_stones: FirstStones) -> Setup {
        self.first_stones = first_stones;
        self
    }

    pub fn with_variant(mut self, variant: Variant) -> Setup {
        self.variant = variant;
        self
    }

    pub fn with_seed(mut self, seed: u64) -> Setup {
        self.seed = seed;
        self
    }

    /// The player count whose footprint and heights apply (R4, R10, R11).
    pub fn board_players(&self) -> Result<u8, SetupError> {
        let p = self.players;
        if !(2..=6).contains(&p) {
            return Err(SetupError::PlayerCount(p));
        }
        match self.variant {
            Variant::Standard => Ok(p),
            Variant::FourColours if p == 2 => Ok(4),
            Variant::FourColours => Err(SetupError::FourColoursNeedsTwo(p)),
            Variant::Ruinas | Variant::RuinasRandom if p == 2 || p == 3 => Ok(p + 1),
            Variant::Ruinas | Variant::RuinasRandom => Err(SetupError::RuinasPlayers(p)),
            Variant::Inverse if p >= 5 => Ok(p),
            Variant::Inverse => Err(SetupError::InversePlayers(p)),
            Variant::Dismantle if p == 2 => Ok(2),
            Variant::Dismantle => Err(SetupError::DismantlePlayers(p)),
        }
    }

    /// What fixes the board this setup plays on (the footprint for the board's player
    /// count, R16's red line), checking the setup; cheap next to building the board.
    pub fn board_key(&self) -> Result<BoardKey, SetupError> {
        let players = self.board_players()?;
        if self.first_stones == FirstStones::Edge && self.players < 5 {
            return Err(SetupError::EdgeFirstStonesPlayers(self.players));
        }
        let (footprint, red_line) = if self.variant == Variant::Dismantle {
            let (footprint, red) = self
                .scenario
                .dismantle_footprint()
                .map_err(SetupError::Scenario)?;
            (footprint, Some(red))
        } else {
            let footprint = self
                .scenario
                .footprint(players)
                .map_err(SetupError::Scenario)?;
            (footprint, None)
        };
        Ok(BoardKey {
            scenario_key: self.scenario.key.clone(),
            footprint,
            red_line,
        })
    }

    /// Builds the board this setup plays on (with R16's red line in the dismantling
    /// game). To share one board between games use [`crate::Boards`].
    pub fn board(&self) -> Result<Board, SetupError> {
        Ok(Board::from_key(self.board_key()?))
    }
}

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

    /// A new game that generates moves with the plain reference implementation (every
    /// stone, orientation and translation checked by [`check_placement`]). Slow; it is
    /// the oracle the fast generator is tested and benchmarked against.
    pub fn new_reference(setup: Setup) -> Result<Position, SetupError> {
        let board = Arc::new(setup.board()?);
        Position::build(setup, board, false)
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
            events: Vec::new(),
            setup: Arc::new(setup),
        };
        position.settle(0);
        if position.setup.variant == Variant::RuinasRandom {
            let mut rng = ChaCha8Rng::seed_from_u64(position.setup.seed);
            while position.phase == Phase::Ruin {
                let mv = position
                    .random_move(&mut rng)
                    .expect("the colour to move has a legal move");
                position.play_unchecked(mv);
            }
            position.generated = position.history.len();
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
    fn removals(&self) -> Vec<Move> {
        let Some(colour) = self.to_move else {
            return Vec::new();
        };
        self.removals_of(colour)
    }

    fn removals_of(&self, colour: Colour) -> Vec<Move> {
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

    /// R16: takes the colour's stone `mv` off the build; it must then be placed outside
    /// the red line, or, when it cannot be, it is set aside and the colour is out.
    fn remove(&mut self, colour: Colour, mv: Move) {
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
    fn rebuild_fast(&mut self) {
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

    /// R16: no one can place inside the red line any more. The interim score is taken
    /// (own visible squares minus own unplaced stones), the unplaced stones leave the
    /// game, and both players take part again; the player who placed last begins.
    /// Returns that player's place in the turn order.
    fn begin_dismantling(&mut self) -> usize {
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

    fn has_legal_move(&self, colour: Colour) -> bool {
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

    /// The reference generator: every stone in supply, every orientation, every
    /// translation in the board's box, checked by the plain rules.
    fn reference_moves(&self, colour: Colour) -> Vec<Move> {
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

    /// The score as it stands (R9); final once the game is over. R16: once the interim
    /// score is taken, the final score is the interim score plus own visible squares
    /// outside the red line minus one per own stone set aside, still inside the red
    /// line, or in hand; stones that left the game at the interim score count no more.
    pub fn score(&self) -> Score {
        let colours = self.colour_count();
        let mut visible = vec![0u32; colours];
        let red = self.board.red().filter(|_| self.interim.is_some());
        for column in 0..self.board.column_count() {
            if red.is_some_and(|r| r.columns[column]) {
                continue;
            }
            if let Some(c) = self.top(column) {
                visible[c.index()] += 1;
            }
        }
        let mut unplaced: Vec<u32> = self.stones_left.iter().map(|s| s.count_ones()).collect();
        let Some(interim) = &self.interim else {
            return Score::tally(&visible, &unplaced, &self.owners, self.setup.players);
        };
        for (u, &aside) in unplaced.iter_mut().zip(&self.set_aside) {
            *u += aside as u32;
        }
        for &(c, mv) in &self.present {
            let inside = self.board.placement(mv).spans()[0].column as usize;
            if red.is_some_and(|r| r.columns[inside]) {
                unplaced[c as usize] += 1;
            }
        }
        Score::tally_after(
            &interim.colour_points,
            &visible,
            &unplaced,
            &self.owners,
            self.setup.players,
        )
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

/// Scores per colour and per player (R9, R10, R11).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Score {
    /// Columns whose top cube has the colour.
    pub visible: Vec<u32>,
    /// Stones the colour has not placed.
    pub unplaced: Vec<u32>,
    /// visible − unplaced, per colour.
    pub colour_points: Vec<i32>,
    /// Per player: their colour's points (R10: their best colour's).
    pub player_points: Vec<i32>,
    /// Players with the highest points; more than one share the win (R9).
    pub winners: Vec<u8>,
    /// R16: the interim score per colour, already included in `colour_points` (then
    /// `visible` counts outside the red line only, and `unplaced` the stones set
    /// aside, still inside the red line or in hand).
    pub interim: Option<Vec<i32>>,
}

impl Score {
    /// Points from what is seen from above and what is left over (R9): each visible
    /// square of a colour scores 1, each unplaced stone costs 1. A player scores their
    /// colour (R10: their best colour; R11: a neutral colour scores for no one). The
    /// rules name no tie-break, so all players with the top score share the win.
    pub fn tally(visible: &[u32], unplaced: &[u32], owners: &[Option<u8>], players: u8) -> Score {
        Score::tally_from(None, visible, unplaced, owners, players)
    }

    /// R16's final score: the interim points plus what is counted after it (visible
    /// squares outside the red line minus stones set aside or left inside it).
    pub fn tally_after(
        interim: &[i32],
        visible: &[u32],
        unplaced: &[u32],
        owners: &[Option<u8>],
        players: u8,
    ) -> Score {
        Score::tally_from(Some(interim), visible, unplaced, owners, players)
    }

    fn tally_from(
        interim: Option<&[i32]>,
        visible: &[u32],
        unplaced: &[u32],
        owners: &[Option<u8>],
        players: u8,
    ) -> Score {
        let colour_points: Vec<i32> = visible
            .iter()
            .zip(unplaced)
            .enumerate()
            .map(|(c, (&v, &u))| interim.map_or(0, |i| i[c]) + v as i32 - u as i32)
            .collect();
        let player_points: Vec<i32> = (0..players)
            .map(|p| {
                owners
                    .iter()
                    .zip(&colour_points)
                    .filter(|(o, _)| **o == Some(p))
                    .map(|(_, &points)| points)
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let best = player_points.iter().copied().max().unwrap_or(0);
        let winners = (0..players)
            .filter(|&p| player_points[p as usize] == best)
            .collect();
        Score {
            visible: visible.to_vec(),
            unplaced: unplaced.to_vec(),
            colour_points,
            player_points,
            winners,
            interim: interim.map(|i| i.to_vec()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_books_scoring_example() {
        // Four players see 7 red, 5 blue, 4 green, 4 yellow squares; yellow kept one
        // stone: 7, 5, 4, 3, and red wins (seed 000, "Beispiel").
        let owners = [Some(0), Some(1), Some(2), Some(3)];
        let score = Score::tally(&[7, 5, 4, 4], &[0, 0, 0, 1], &owners, 4);
        assert_eq!(score.colour_points, vec![7, 5, 4, 3]);
        assert_eq!(score.player_points, vec![7, 5, 4, 3]);
        assert_eq!(score.winners, vec![0]);
    }

    #[test]
    fn unplaced_stones_cost_one_each_not_per_cube() {
        let score = Score::tally(&[10, 10], &[2, 0], &[Some(0), Some(1)], 2);
        assert_eq!(score.player_points, vec![8, 10]);
    }

    #[test]
    fn tied_players_share_the_win() {
        let owners = [Some(0), Some(1), Some(2)];
        let score = Score::tally(&[6, 6, 3], &[0, 0, 0], &owners, 3);
        assert_eq!(score.winners, vec![0, 1]);
    }

    #[test]
    fn four_colours_count_each_players_best_colour() {
        // R10: A owns colours 0 and 2, B owns 1 and 3. A's best colour (8) beats B's (6),
        // although B's two colours together have more.
        let owners = [Some(0), Some(1), Some(0), Some(1)];
        let score = Score::tally(&[3, 6, 8, 5], &[0, 0, 0, 0], &owners, 2);
        assert_eq!(score.player_points, vec![8, 6]);
        assert_eq!(score.winners, vec![0]);
    }

    #[test]
    fn a_neutral_colour_scores_for_no_one() {
        // R11: the neutral ruin colour shows 9 squares, but neither player gets them.
        let owners = [Some(0), Some(1), None];
        let score = Score::tally(&[4, 5, 9], &[0, 1, 0], &owners, 2);
        assert_eq!(score.player_points, vec![4, 4]);
        assert_eq!(score.winners, vec![0, 1]);
    }
}
