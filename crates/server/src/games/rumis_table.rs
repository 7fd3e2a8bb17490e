//! A Rumis game at a table: seats are the players (R6), actions are stone placements
//! in the project's move notation, and every check is the engine's.

use std::collections::BTreeMap;

use play::game::Game;
use play::rumis_game::{RumisConfig, RumisError, RumisGame};
use rumis::notation::format_move;
use rumis::{Cell, Colour, Position, Stone};

use super::clock::{rumis_turn_seconds, TimeOuts};
use super::{ActionError, Adapter, GameView, HintJob, Illegal, NotForThisGame, OutOfTurn, Refusal};
use crate::wire::{
    ColourView, CubeView, GameAction, GameKind, HintAnswer, PlacementView, RumisAction, RumisMove,
    RumisSettings, RumisSuggestion, RumisView, ScenarioView,
};

#[derive(Clone)]
pub struct RumisTable {
    game: RumisGame,
    /// Each move as written when it was played (R16: a removal reads `x L4 …`).
    history: Vec<String>,
    /// Seconds per turn (RD17); `None`: no clock.
    turn_seconds: Option<u32>,
    time_outs: TimeOuts,
}

impl RumisTable {
    pub fn new(settings: &RumisSettings, seed: u64) -> Result<RumisTable, String> {
        let config = RumisConfig::named(&settings.scenario, settings.players, &settings.variant)
            .map_err(|e| e.to_string())?;
        let game = RumisGame::start(&config, seed).map_err(|e| e.to_string())?;
        // A random ruin (R11) is already built when the game starts.
        let position = &game.position;
        let history = position
            .history()
            .iter()
            .map(|&mv| format_move(position, mv))
            .collect();
        Ok(RumisTable {
            game,
            history,
            turn_seconds: rumis_turn_seconds(settings),
            time_outs: TimeOuts::new(usize::from(settings.players)),
        })
    }

    pub fn position(&self) -> &Position {
        &self.game.position
    }

    /// A game from its first position, for the analysis board (a record's setup).
    pub fn from_start(position: Position) -> RumisTable {
        let history = position
            .history()
            .iter()
            .map(|&mv| format_move(&position, mv))
            .collect();
        let players = usize::from(position.setup().players);
        RumisTable {
            game: RumisGame::from_position(position),
            history,
            turn_seconds: None,
            time_outs: TimeOuts::new(players),
        }
    }

    /// Plays a turn written in the notation (R16: a removal `x … > …`), as a record
    /// holds it; the engine's reason when it does not take it.
    pub fn play_text(&mut self, text: &str) -> Result<(), String> {
        self.game
            .position
            .play_text(text)
            .map_err(|e| e.to_string())?;
        self.history.push(text.trim().to_string());
        Ok(())
    }

    /// What a spectator sees (`stones`: with every stone's shapes, for a first view).
    pub fn spectator_view(&self, stones: bool) -> RumisView {
        self.rumis_view(None, stones)
    }

    /// What a seat's hint is worked out from: the position, when it is the seat's
    /// turn (the search runs outside the table's lock, [`suggestions`]).
    pub fn hint_position(&self, seat: usize) -> Result<Position, ActionError> {
        match self.to_move() {
            Some(actor) if actor == seat => Ok(self.position().clone()),
            Some(to_move) => Err(OutOfTurn::HintForMover { to_move }.into()),
            None => Err(Illegal::GameOver.into()),
        }
    }

    fn read_move(&self, seat: usize, action: &GameAction) -> Result<rumis::Move, ActionError> {
        let GameAction::Rumis(action) = action else {
            return Err(NotForThisGame::OtherGame(GameKind::Rumis).into());
        };
        if seat >= self.seat_count() {
            return Err(OutOfTurn::NoSuchSeat { seat }.into());
        }
        match self.to_move() {
            None => return Err(Illegal::GameOver.into()),
            Some(to_move) if to_move != seat => {
                return Err(OutOfTurn::NotYourTurn { seat, to_move }.into())
            }
            Some(_) => {}
        }
        let position = self.position();
        let (stone, cells) = match action {
            RumisAction::Notation { notation } => {
                return position
                    .resolve_written(notation.written())
                    .map_err(refused)
            }
            RumisAction::Cells { stone, cells } => (stone.0, &cells.0),
        };
        let cells: Vec<Cell> = cells.iter().map(|&[x, y, z]| Cell { x, y, z }).collect();
        if position.removing() {
            // R16: taking a stone off; the cells must be where that stone stands.
            let mv = position.check_removal(stone).map_err(refused)?;
            let mut standing = position.cells_of(mv);
            let mut given = cells;
            standing.sort();
            given.sort();
            if standing != given {
                return Err(Illegal::NotWhereItStands(stone).into());
            }
            return Ok(mv);
        }
        position.check(stone, &cells).map_err(refused)
    }

    /// Checks a placement for `seat` without playing it (the client's red ghost).
    pub fn check(&self, seat: usize, action: &GameAction) -> Result<(), ActionError> {
        self.read_move(seat, action).map(|_| ())
    }

    /// A move as the log keeps it: its canonical text.
    fn canonical(&self, mv: rumis::Move) -> GameAction {
        let text = format_move(self.position(), mv);
        let notation = RumisMove::parse(&text).expect("the engine reads what it writes");
        GameAction::Rumis(RumisAction::Notation { notation })
    }
}

/// A refusal of the rules (R1–R16).
fn refused(e: rumis::rules::Illegal) -> ActionError {
    Refusal::Rumis(e).into()
}

/// The Rumis game's error as the table's: a rule's refusal with its reason, whose turn
/// it is, or the game's own.
fn engine_error(e: RumisError) -> ActionError {
    match e {
        RumisError::Illegal(e) => refused(e),
        RumisError::GameOver => Illegal::GameOver.into(),
        RumisError::NotYourTurn { seat, to_act } => OutOfTurn::NotYourTurn {
            seat,
            to_move: to_act,
        }
        .into(),
        other => Illegal::Rumis(other).into(),
    }
}

impl Adapter for RumisTable {
    type Engine = RumisGame;

    fn engine(&self) -> &RumisGame {
        &self.game
    }

    fn time_outs(&self) -> &TimeOuts {
        &self.time_outs
    }

    fn time_outs_mut(&mut self) -> &mut TimeOuts {
        &mut self.time_outs
    }

    /// The table's own clock (RD17), while someone is to move.
    fn clock_seconds(&self) -> Option<u32> {
        self.turn_seconds.filter(|_| self.to_move().is_some())
    }

    /// `{"move": "L4 a1:1 …"}` or `{"stone": "L4", "cells": [[x, y, z], …]}`.
    fn apply_wire(&mut self, seat: usize, action: &GameAction) -> Result<GameAction, ActionError> {
        let mv = self.read_move(seat, action)?;
        let canonical = self.canonical(mv);
        self.game.apply(seat, &mv).map_err(engine_error)?;
        if let GameAction::Rumis(RumisAction::Notation { notation }) = &canonical {
            self.history.push(notation.text().to_string());
        }
        Ok(canonical)
    }

    /// RD17: the turn is passed (the player stays in the game); while the ruin is
    /// built (R11) or a stone taken off waits to be placed (R16), where no turn is
    /// passed, the engine's first legal placement is played for the seat.
    fn time_out_wire(&mut self) -> Result<GameAction, ActionError> {
        if self.turn_seconds.is_none() {
            return Err(Illegal::NoClock.into());
        }
        let seat = self.to_move().ok_or(Illegal::NoTurn)?;
        if !self.game.position.pass() {
            let mv = *self
                .position()
                .legal_moves()
                .first()
                .ok_or(Illegal::NoPlacement)?;
            let canonical = self.canonical(mv);
            self.game.apply(seat, &mv).map_err(engine_error)?;
            if let GameAction::Rumis(RumisAction::Notation { notation }) = &canonical {
                self.history.push(notation.text().to_string());
            }
        }
        // The clock's action, the same for both games; the log's actor is the clock.
        Ok(GameAction::Rummikub(crate::wire::RummikubAction::Timeout))
    }

    fn next_round_wire(&mut self) -> Result<GameAction, ActionError> {
        Err(Illegal::Rumis(RumisError::NoRounds).into())
    }

    fn view_wire(&self, seat: Option<usize>, full: bool, _names: &[String]) -> GameView {
        GameView::Rumis(Box::new(self.rumis_view(seat, full)))
    }

    fn action_wire(&self, mv: &rumis::Move) -> GameAction {
        self.canonical(*mv)
    }

    /// The random bot's move.
    fn fallback_wire(&self, _seat: usize, seed: u64) -> Option<GameAction> {
        use play::rumis_bots::RumisBot;
        let mv = play::rumis_bots::RandomBot::new(seed).choose(self.position())?;
        Some(self.canonical(mv))
    }

    /// The strongest bot's best three moves, for the seat to move only.
    fn hint_job(&self, seat: usize) -> Result<HintJob, ActionError> {
        let position = self.hint_position(seat)?;
        Ok(Box::new(move |request| {
            Ok(HintAnswer {
                play: None,
                moves: suggestions(&position, request.search_millis, 3),
            })
        }))
    }
}

impl RumisTable {
    fn rumis_view(&self, seat: Option<usize>, full: bool) -> RumisView {
        let position = self.position();
        let board = position.board();
        let limits: Vec<Vec<u8>> = (0..board.depth)
            .map(|y| {
                (0..board.width)
                    .map(|x| board.limit(y * board.width + x))
                    .collect()
            })
            .collect();
        let mut stone_of_cell = std::collections::HashMap::new();
        for (index, &mv) in position.history().iter().enumerate() {
            for cell in position.cells_of(mv) {
                stone_of_cell.insert(cell, index);
            }
        }
        let mut cubes = Vec::new();
        for y in 0..board.depth {
            for x in 0..board.width {
                for z in 0..position.height(y * board.width + x) {
                    let cell = Cell {
                        x: x as u8,
                        y: y as u8,
                        z,
                    };
                    if let Some(colour) = position.colour_at(cell) {
                        cubes.push(CubeView {
                            x,
                            y,
                            z: usize::from(z),
                            colour: colour.name().to_string(),
                            stone: stone_of_cell.get(&cell).copied(),
                        });
                    }
                }
            }
        }
        let score = position.score();
        let colours = (0..position.colour_count())
            .map(|c| {
                let colour = Colour(c as u8);
                ColourView {
                    colour: colour.name().to_string(),
                    owner: position.owner(colour),
                    out: position.is_out(colour),
                    supply: position
                        .supply(colour)
                        .iter()
                        .map(|s| s.code().to_string())
                        .collect(),
                    score: score.colour_points[c],
                }
            })
            .collect();
        let legal = match seat {
            Some(seat) if self.to_move() == Some(seat) => position
                .legal_moves()
                .into_iter()
                .map(|mv| PlacementView {
                    stone: board.placement(mv).stone.code().to_string(),
                    cells: position
                        .cells_of(mv)
                        .iter()
                        .map(|c| [c.x, c.y, c.z])
                        .collect(),
                })
                .collect(),
            _ => Vec::new(),
        };
        let setup = position.setup();
        RumisView {
            scenario: ScenarioView {
                key: setup.scenario.key.clone(),
                name: setup.scenario.name.clone(),
                width: board.width,
                depth: board.depth,
                limits,
            },
            players: setup.players,
            variant: setup.variant.name().to_string(),
            cubes,
            colours,
            to_move_colour: position.to_move().map(|c| c.name().to_string()),
            building_ruin: position.building_ruin(),
            scores: score.player_points.clone(),
            legal,
            history: self.history.clone(),
            // R16, the dismantling game: the red line, the phase, the interim score.
            red_line: position.red_line().map(|red| {
                red.chunks(board.width.max(1))
                    .map(<[bool]>::to_vec)
                    .collect::<Vec<_>>()
            }),
            removing: position.removing(),
            stone_in_hand: position.stone_in_hand().map(|s| s.code().to_string()),
            interim: score.interim.clone(),
            stones: full.then(stone_orientations),
        }
    }
}

/// Every stone's distinct orientations as cube offsets (R5), the same for every game.
fn stone_orientations() -> BTreeMap<String, Vec<Vec<[i8; 3]>>> {
    static STONES: std::sync::OnceLock<BTreeMap<String, Vec<Vec<[i8; 3]>>>> =
        std::sync::OnceLock::new();
    STONES.get_or_init(|| orientations_of(&Stone::ALL)).clone()
}

/// Stones with their distinct orientations as cube offsets (R5), by code.
pub fn orientations_of(stones: &[Stone]) -> BTreeMap<String, Vec<Vec<[i8; 3]>>> {
    stones
        .iter()
        .map(|s| {
            let shapes = s
                .orientations()
                .iter()
                .map(|o| o.cubes().to_vec())
                .collect();
            (s.code().to_string(), shapes)
        })
        .collect()
}

/// The strongest bot's best `count` moves for the player to move, from a search of
/// `millis` milliseconds (`play::mcts::analyse`), best first.
pub fn suggestions(position: &Position, millis: u64, count: usize) -> Vec<RumisSuggestion> {
    let config = play::mcts::MctsConfig::with_budget(play::mcts::Budget::Millis(millis));
    play::mcts::analyse(position, config, 0x5eed, count)
        .iter()
        .map(|stats| suggestion(position, stats))
        .collect()
}

/// A searched move as the wire shows it: its notation, stone, cells and win chance.
pub fn suggestion(position: &Position, stats: &play::mcts::MoveStats) -> RumisSuggestion {
    RumisSuggestion {
        notation: format_move(position, stats.mv),
        stone: position
            .board()
            .placement(stats.mv)
            .stone
            .code()
            .to_string(),
        cells: position
            .cells_of(stats.mv)
            .iter()
            .map(|c| [c.x, c.y, c.z])
            .collect(),
        win_chance: stats.win_chance,
        visits: stats.visits,
    }
}
