//! A Rumis game at a table: seats are the players (R6), actions are stone placements
//! in the project's move notation, and every check is the engine's.

use play::bots::WithBots;
use play::rumis_game::RumisGame;
use rumis::notation::{format_move, MoveError};
use rumis::record::Record;
use rumis::{Cell, Colour, Position, Scenario, Setup, Stone, Variant};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{field, ActionError, GameResult};

/// The table settings of a Rumis game.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RumisConfig {
    /// A built-in scenario key (`chullpa`).
    pub scenario: String,
    pub players: u8,
    /// `standard`, `four-colours`, `ruinas`, `ruinas-random`.
    #[serde(default = "standard")]
    pub variant: String,
}

fn standard() -> String {
    Variant::Standard.name().to_string()
}

#[derive(Clone)]
pub struct RumisTable {
    position: Position,
    /// Each move as written when it was played (R16: a removal reads `x L4 …`).
    history: Vec<String>,
}

impl RumisTable {
    pub fn new(config: &RumisConfig, seed: u64) -> Result<RumisTable, String> {
        let scenario =
            Scenario::builtin(&config.scenario.to_ascii_lowercase()).ok_or_else(|| {
                let known: Vec<&str> = Scenario::builtin_keys().collect();
                format!(
                    "unknown scenario `{}` (known: {})",
                    config.scenario,
                    known.join(", ")
                )
            })?;
        let variant = Variant::from_name(&config.variant).ok_or_else(|| {
            let known: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
            format!(
                "unknown variant `{}` (known: {})",
                config.variant,
                known.join(", ")
            )
        })?;
        let setup = Setup::new(scenario, config.players)
            .with_variant(variant)
            .with_seed(seed);
        let position = Position::new(setup).map_err(|e| e.to_string())?;
        // A random ruin (R11) is already built when the game starts.
        let history = position
            .history()
            .iter()
            .map(|&mv| format_move(&position, mv))
            .collect();
        Ok(RumisTable { position, history })
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn seat_count(&self) -> usize {
        self.position.setup().players as usize
    }

    pub fn to_move(&self) -> Option<usize> {
        self.position.actor().map(usize::from)
    }

    pub fn is_over(&self) -> bool {
        self.position.is_over()
    }

    pub fn result(&self) -> Option<GameResult> {
        if !self.is_over() {
            return None;
        }
        let score = self.position.score();
        Some(GameResult {
            winners: score.winners.iter().map(|&w| w as usize).collect(),
            scores: score.player_points.iter().map(|&p| i64::from(p)).collect(),
        })
    }

    /// `{"move": "L4 a1:1 …"}` or `{"stone": "L4", "cells": [[x, y, z], …]}`.
    pub fn apply(&mut self, seat: usize, action: &Value) -> Result<Value, ActionError> {
        let mv = self.read_move(seat, action)?;
        let text = format_move(&self.position, mv);
        self.position
            .play(mv)
            .map_err(|e| ActionError::Illegal(e.to_string()))?;
        self.history.push(text.clone());
        Ok(json!({ "move": text }))
    }

    /// Checks a placement for `seat` without playing it (the client's red ghost).
    pub fn check(&self, seat: usize, action: &Value) -> Result<(), ActionError> {
        self.read_move(seat, action).map(|_| ())
    }

    fn read_move(&self, seat: usize, action: &Value) -> Result<rumis::Move, ActionError> {
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
            return self.position.parse_move(text).map_err(|e| match e {
                MoveError::Notation(n) => ActionError::Malformed(n.to_string()),
                MoveError::Illegal(i) => ActionError::Illegal(i.to_string()),
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
        if self.position.removing() {
            // R16: taking a stone off; the cells must be where that stone stands.
            let mv = self
                .position
                .check_removal(stone)
                .map_err(|e| ActionError::Illegal(e.to_string()))?;
            let mut standing = self.position.cells_of(mv);
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
        self.position
            .check(stone, &cells)
            .map_err(|e| ActionError::Illegal(e.to_string()))
    }

    pub fn view(&self, seat: Option<usize>, full: bool) -> Value {
        let position = &self.position;
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
                        cubes.push(json!({
                            "x": x, "y": y, "z": z, "colour": colour.name(),
                            "stone": stone_of_cell.get(&cell),
                        }));
                    }
                }
            }
        }
        let score = position.score();
        let colours: Vec<Value> = (0..position.colour_count())
            .map(|c| {
                let colour = Colour(c as u8);
                json!({
                    "colour": colour.name(),
                    "owner": position.owner(colour),
                    "out": position.is_out(colour),
                    "supply": position.supply(colour).iter().map(|s| s.code()).collect::<Vec<_>>(),
                    "score": score.colour_points[c],
                })
            })
            .collect();
        let legal: Vec<Value> = match seat {
            Some(seat) if self.to_move() == Some(seat) => position
                .legal_moves()
                .into_iter()
                .map(|mv| {
                    let cells: Vec<[u8; 3]> = position
                        .cells_of(mv)
                        .iter()
                        .map(|c| [c.x, c.y, c.z])
                        .collect();
                    json!({ "stone": board.placement(mv).stone.code(), "cells": cells })
                })
                .collect(),
            _ => Vec::new(),
        };
        let setup = position.setup();
        let mut view = json!({
            "scenario": {
                "key": setup.scenario.key, "name": setup.scenario.name,
                "width": board.width, "depth": board.depth, "limits": limits,
            },
            "players": setup.players,
            "variant": setup.variant.name(),
            "cubes": cubes,
            "colours": colours,
            "to_move_colour": position.to_move().map(|c| c.name()),
            "building_ruin": position.building_ruin(),
            "scores": score.player_points,
            "legal": legal,
            "history": self.history,
            // R16, the dismantling game: the red line, the phase, the interim score.
            "red_line": position.red_line().map(|red| {
                red.chunks(board.width.max(1)).map(<[bool]>::to_vec).collect::<Vec<_>>()
            }),
            "removing": position.removing(),
            "stone_in_hand": position.stone_in_hand().map(|s| s.code()),
            "interim": score.interim,
        });
        if full {
            view["stones"] = stone_orientations();
        }
        view
    }

    pub fn bot_action(&self, bot: &str, seat: usize, seed: u64) -> Option<Value> {
        if self.to_move() != Some(seat) {
            return None;
        }
        let mv = RumisGame::bot(bot, seed)
            .ok()?
            .choose(&self.position, seat)
            .ok()?;
        Some(json!({ "move": format_move(&self.position, mv) }))
    }

    pub fn record(&self) -> String {
        Record::write(&self.position, None)
    }
}

/// Every stone's distinct orientations as cube offsets (R5), the same for every game.
fn stone_orientations() -> Value {
    static STONES: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    STONES
        .get_or_init(|| {
            Stone::ALL
                .iter()
                .map(|s| {
                    let shapes: Vec<Value> =
                        s.orientations().iter().map(|o| json!(o.cubes())).collect();
                    (s.code().to_string(), Value::Array(shapes))
                })
                .collect::<serde_json::Map<String, Value>>()
                .into()
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
