//! A Rumis game at a table: seats are the players (R6), actions are stone placements
//! in the project's move notation, and every check is the engine's.

use std::collections::BTreeMap;

use play::game::Game;
use play::rumis_game::{RumisConfig, RumisGame};
use rumis::notation::{format_move, MoveError};
use rumis::{Cell, Colour, Position, Stone};
use serde_json::{json, Value};

use super::{field, ActionError, Adapter, GameView, TableGame};
use crate::wire::{
    ColourView, CubeView, GameKind, PlacementView, RumisSettings, RumisSuggestion, RumisView,
    ScenarioView,
};

#[derive(Clone)]
pub struct RumisTable {
    game: RumisGame,
    /// Each move as written when it was played (R16: a removal reads `x L4 …`).
    history: Vec<String>,
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
        Ok(RumisTable { game, history })
    }

    pub fn position(&self) -> &Position {
        &self.game.position
    }

    /// What a seat's hint is worked out from: the position, when it is the seat's
    /// turn (the search runs outside the table's lock, [`suggestions`]).
    pub fn hint_position(&self, seat: usize) -> Result<Position, ActionError> {
        match self.to_move() {
            Some(actor) if actor == seat => Ok(self.position().clone()),
            Some(actor) => Err(ActionError::OutOfTurn(format!(
                "it is player {}'s turn: a hint is for the player to move",
                actor + 1
            ))),
            None => Err(ActionError::Illegal("the game is over".into())),
        }
    }

    fn read_move(&self, seat: usize, action: &Value) -> Result<rumis::Move, ActionError> {
        if !action.is_object() {
            return Err(ActionError::Malformed(
                "a Rumis action is {\"move\": \"L4 a1:1 …\"} or {\"stone\": \"L4\", \"cells\": [[x, y, z], …]}".into(),
            ));
        }
        if seat >= self.seat_count() {
            return Err(ActionError::OutOfTurn(format!(
                "there is no player {} at this table",
                seat + 1
            )));
        }
        match self.to_move() {
            None => return Err(ActionError::Illegal("the game is over".into())),
            Some(actor) if actor != seat => {
                return Err(ActionError::OutOfTurn(format!(
                    "it is player {}'s turn, not player {}'s",
                    actor + 1,
                    seat + 1
                )))
            }
            Some(_) => {}
        }
        if let Some(text) = action.get("move") {
            let text = text
                .as_str()
                .ok_or_else(|| ActionError::Malformed("`move` must be a string".into()))?;
            return self.position().parse_move(text).map_err(|e| match e {
                MoveError::Notation(n) => ActionError::Malformed(n.to_string()),
                MoveError::Illegal(i) => refused(&i),
            });
        }
        let stone = field(action, "stone", "a stone code like \"L4\", or `move`")?;
        let code = stone
            .as_str()
            .ok_or_else(|| ActionError::Malformed("`stone` must be a string".into()))?;
        let stone = Stone::from_code(code).ok_or_else(|| {
            ActionError::Malformed(format!(
                "unknown stone `{code}` (stones: D2 I3 L3 I4 O4 T4 L4 S4 Y4 A4 B4)"
            ))
        })?;
        let cells = read_cells(field(action, "cells", "a list of [x, y, z] cells")?)?;
        let position = self.position();
        if position.removing() {
            // R16: taking a stone off; the cells must be where that stone stands.
            let mv = position.check_removal(stone).map_err(|e| refused(&e))?;
            let mut standing = position.cells_of(mv);
            let mut given = cells;
            standing.sort();
            given.sort();
            if standing != given {
                return Err(ActionError::Illegal(format!(
                    "your {} does not stand on those cells",
                    stone.code()
                )));
            }
            return Ok(mv);
        }
        position.check(stone, &cells).map_err(|e| refused(&e))
    }
}

/// A refusal of the rules, with its reason as a key (`reasons::rumis`).
fn refused(e: &rumis::rules::Illegal) -> ActionError {
    ActionError::Refused(e.to_string(), super::reasons::rumis(e))
}

impl Adapter for RumisTable {
    type Engine = RumisGame;
    const KIND: GameKind = GameKind::Rumis;

    fn engine(&self) -> &RumisGame {
        &self.game
    }

    /// `{"move": "L4 a1:1 …"}` or `{"stone": "L4", "cells": [[x, y, z], …]}`.
    fn apply_wire(&mut self, seat: usize, action: &Value) -> Result<Value, ActionError> {
        let mv = self.read_move(seat, action)?;
        let text = format_move(self.position(), mv);
        self.game
            .apply(seat, &mv)
            .map_err(|e| ActionError::Illegal(e.to_string()))?;
        self.history.push(text.clone());
        Ok(json!({ "move": text }))
    }

    fn time_out_wire(&mut self) -> Result<Value, ActionError> {
        Err(ActionError::Illegal("Rumis has no turn clock".into()))
    }

    fn next_round_wire(&mut self) -> Result<Value, ActionError> {
        Err(ActionError::Illegal("Rumis is played in one round".into()))
    }

    /// Checks a placement for `seat` without playing it (the client's red ghost).
    fn check_wire(&self, seat: usize, action: &Value) -> Result<(), ActionError> {
        self.read_move(seat, action).map(|_| ())
    }

    fn view_wire(&self, seat: Option<usize>, full: bool, _names: &[String]) -> GameView {
        GameView::Rumis(Box::new(self.rumis_view(seat, full)))
    }

    fn action_wire(&self, mv: &rumis::Move) -> Value {
        json!({ "move": format_move(self.position(), *mv) })
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
    STONES
        .get_or_init(|| {
            Stone::ALL
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
        })
        .clone()
}

fn read_cells(value: &Value) -> Result<Vec<Cell>, ActionError> {
    let bad = || {
        ActionError::Malformed(
            "`cells` must be a list of [x, y, z] with small whole numbers".into(),
        )
    };
    let list = value.as_array().ok_or_else(bad)?;
    list.iter()
        .map(|cell| {
            let xyz = cell.as_array().filter(|a| a.len() == 3).ok_or_else(bad)?;
            let mut n = [0u8; 3];
            for (slot, v) in n.iter_mut().zip(xyz) {
                *slot = v
                    .as_u64()
                    .and_then(|v| u8::try_from(v).ok())
                    .filter(|&v| v < 64)
                    .ok_or_else(bad)?;
            }
            Ok(Cell {
                x: n[0],
                y: n[1],
                z: n[2],
            })
        })
        .collect()
}

/// The strongest bot's best `count` moves for the player to move, from a search of
/// `millis` milliseconds (`play::mcts::analyse`), best first.
pub fn suggestions(position: &Position, millis: u64, count: usize) -> Vec<RumisSuggestion> {
    let config = play::mcts::MctsConfig::with_budget(play::mcts::Budget::Millis(millis));
    play::mcts::analyse(position, config, 0x5eed, count)
        .into_iter()
        .map(|stats| RumisSuggestion {
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
        })
        .collect()
}
