//! A Rummikub game at a table: seats are the players; an action is a whole new table
//! (K5), a draw (K6), a redeal claim (K2) or starting the next round (K9). The turn
//! clock's time-out (K7) is an action of the server's clock, never of a client.

use play::bots::WithBots;
use play::rummikub_game::RummikubGame;
use rummikub::record::write_record;
use rummikub::solver::{self, Objective, Position, SolveError};
use rummikub::{Action, EndReason, Event, Game, GameLength, RuleSet, Set, Tile, TurnError};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{field, ActionError, Actor, GameResult};

/// The table settings of a Rummikub game.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RummikubConfig {
    /// Rule preset: `current` or `old` (K10).
    #[serde(default = "current")]
    pub rules: String,
    /// Seconds per turn (K7); `null` switches the clock off; missing keeps the preset's.
    #[serde(default, with = "serde_with_double_option")]
    pub turn_seconds: Option<Option<u32>>,
    /// Rounds in the game (K9).
    #[serde(default = "one")]
    pub rounds: u32,
    /// Filled in by the lobby from the number of seats.
    #[serde(default)]
    pub players: usize,
}

fn current() -> String {
    "current".into()
}

fn one() -> u32 {
    1
}

/// `Option<Option<T>>` that tells a missing field from an explicit `null`.
mod serde_with_double_option {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(value: &Option<Option<u32>>, s: S) -> Result<S::Ok, S::Error> {
        match value {
            None => s.serialize_none(),
            Some(inner) => inner.serialize(s),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<u32>>, D::Error> {
        Option::<u32>::deserialize(d).map(Some)
    }
}

#[derive(Clone)]
pub struct RummikubTable {
    preset: String,
    game: Game,
    /// Records of the finished rounds, written before the next round is dealt.
    round_records: Vec<String>,
    /// What happened last, said without secrets ("player 2 drew a tile").
    last: Option<String>,
}

impl RummikubTable {
    pub fn new(config: &RummikubConfig, seed: u64) -> Result<RummikubTable, String> {
        let mut rules = RuleSet::preset(&config.rules).ok_or_else(|| {
            format!(
                "unknown rule preset `{}` (presets: current, old)",
                config.rules
            )
        })?;
        if let Some(seconds) = config.turn_seconds {
            if seconds == Some(0) {
                return Err("a turn clock of 0 seconds: give at least 1, or null for none".into());
            }
            rules.turn_time_seconds = seconds;
        }
        if config.rounds == 0 || config.rounds > 20 {
            return Err(format!("rounds must be 1 to 20, not {}", config.rounds));
        }
        rules.game_length = GameLength::Rounds(config.rounds);
        let game = Game::new(rules, config.players, seed).map_err(|e| e.to_string())?;
        Ok(RummikubTable {
            preset: config.rules.clone(),
            game,
            round_records: Vec::new(),
            last: None,
        })
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn seat_count(&self) -> usize {
        self.game.round().players()
    }

    pub fn to_move(&self) -> Option<usize> {
        let round = self.game.round();
        (!round.is_over()).then(|| round.current_player())
    }

    pub fn is_over(&self) -> bool {
        self.game.is_over()
    }

    pub fn awaits_next_round(&self) -> bool {
        self.game.round().is_over() && !self.game.is_over()
    }

    pub fn turn_seconds(&self) -> Option<u32> {
        if self.game.round().is_over() {
            None
        } else {
            self.game.rules().turn_time_seconds
        }
    }

    pub fn result(&self) -> Option<GameResult> {
        self.is_over().then(|| GameResult {
            winners: self.game.winners(),
            scores: self.game.totals().iter().map(|&t| i64::from(t)).collect(),
        })
    }

    pub fn apply(&mut self, actor: Actor, action: &Value) -> Result<Value, ActionError> {
        let seat = match actor {
            Actor::Clock => {
                let player = self
                    .to_move()
                    .ok_or_else(|| ActionError::Illegal("no turn is running".into()))?;
                return self.act(player, Action::TimeOut, json!({ "type": "timeout" }));
            }
            Actor::Seat(seat) => seat,
        };
        if seat >= self.seat_count() {
            return Err(ActionError::OutOfTurn(format!(
                "there is no player {} at this table",
                seat + 1
            )));
        }
        let kind = field(action, "type", "one of play, draw, redeal, next_round")?
            .as_str()
            .ok_or_else(|| ActionError::Malformed("`type` must be a string".into()))?;
        match kind {
            "play" => {
                let table = read_table(field(
                    action,
                    "table",
                    "the whole new table as lists of tiles",
                )?)?;
                let canonical = json!({ "type": "play", "table": table_json(&table) });
                self.act(seat, Action::Play(table), canonical)
            }
            "draw" => self.act(seat, Action::Draw, json!({ "type": "draw" })),
            "redeal" => self.act(seat, Action::ClaimRedeal, json!({ "type": "redeal" })),
            "next_round" => {
                if self.game.is_over() {
                    return Err(ActionError::Illegal("the game is over".into()));
                }
                if !self.game.round().is_over() {
                    return Err(ActionError::Illegal(
                        "the round is still being played".into(),
                    ));
                }
                let record = write_record(self.game.round());
                if !self.game.next_round() {
                    return Err(ActionError::Illegal(
                        "the next round could not be dealt".into(),
                    ));
                }
                self.round_records.extend(record);
                self.last = Some(format!("round {} dealt", self.game.round_number()));
                Ok(json!({ "type": "next_round" }))
            }
            "timeout" => Err(ActionError::Illegal(
                "only the server's clock can time a turn out (K7)".into(),
            )),
            other => Err(ActionError::Malformed(format!(
                "unknown action type `{other}` (play, draw, redeal, next_round)"
            ))),
        }
    }

    fn act(&mut self, seat: usize, action: Action, canonical: Value) -> Result<Value, ActionError> {
        let event = self.game.apply(seat, action).map_err(|e| match e {
            TurnError::NotYourTurn { .. } => ActionError::OutOfTurn(e.to_string()),
            other => ActionError::Illegal(other.to_string()),
        })?;
        let who = format!("player {}", seat + 1);
        self.last = Some(match event {
            Event::Played {
                tiles,
                initial_meld,
            } => {
                let tiles: Vec<String> = tiles.iter().map(Tile::to_string).collect();
                match initial_meld {
                    Some(value) => format!("{who} melded {} (worth {value})", tiles.join(" ")),
                    None => format!("{who} played {}", tiles.join(" ")),
                }
            }
            // The drawn tile is the drawer's secret.
            Event::Drew(Some(_)) => format!("{who} drew a tile"),
            Event::Drew(None) => format!("{who} passed: the pool is empty"),
            Event::Penalty(tiles) => {
                format!(
                    "{who} ran out of time and drew {} penalty tiles",
                    tiles.len()
                )
            }
            Event::Redealt => format!("{who} held three pairs: new deal"),
        });
        Ok(canonical)
    }

    pub fn view(&self, seat: Option<usize>) -> Value {
        let round = self.game.round();
        let rules = self.game.rules();
        let players = round.players();
        let own = seat.filter(|&s| s < players);
        let outcome = round.outcome().map(|o| {
            json!({
                "winners": o.winners,
                "scores": o.scores,
                "rack_values": o.rack_values,
                "reason": match o.reason {
                    EndReason::Rummikub => "rummikub",
                    EndReason::PoolExhausted => "pool exhausted",
                },
            })
        });
        let rounds = match rules.game_length {
            GameLength::Rounds(n) => n,
            GameLength::TargetScore(_) => 0,
        };
        json!({
            "rules": {
                "name": self.preset,
                "initial_meld": rules.initial_meld_minimum,
                "initial_meld_may_use_table": rules.initial_meld_may_use_table,
                "turn_seconds": rules.turn_time_seconds,
                "jokers_per_set": rules.jokers_per_set,
                "run_wraps_around": rules.run_wraps_around,
                "frozen_joker_sets": rules.frozen_joker_sets,
                "joker_penalty": rules.joker_penalty,
            },
            "rack": own.map(|s| round.rack(s).iter().map(Tile::to_string).collect::<Vec<_>>()),
            "rack_sizes": (0..players).map(|p| round.rack_len(p)).collect::<Vec<_>>(),
            "melded": (0..players).map(|p| round.has_melded(p)).collect::<Vec<_>>(),
            "pool_size": round.pool_len(),
            "table": table_json(round.table()),
            "round": self.game.round_number().max(1),
            "rounds": rounds,
            "totals": self.game.totals(),
            "round_over": outcome,
            "can_claim_redeal": own.is_some_and(|s| round.can_claim_redeal(s)),
            "last": self.last,
        })
    }

    /// What a seat's hint is worked out from: the rules, the table, the seat's own rack
    /// and whether it has melded (nothing the seat does not see). The solver runs
    /// outside the table's lock ([`best_play`]).
    pub fn hint_position(&self, seat: usize) -> Result<(RuleSet, Position), ActionError> {
        let round = self.game.round();
        if seat >= round.players() {
            return Err(ActionError::OutOfTurn(format!(
                "there is no player {} at this table",
                seat + 1
            )));
        }
        if round.is_over() {
            return Err(ActionError::Illegal(
                "the round is over: there is nothing to play".into(),
            ));
        }
        let position = Position::with_sets(
            round.table().to_vec(),
            round.rack(seat),
            round.has_melded(seat),
        );
        Ok((self.game.rules().clone(), position))
    }

    /// The bots of `play::bots`: `random`, `greedy` (the solver's most tiles every
    /// turn), `planner:1` … `planner:5`. A bot sees only the seat's view.
    pub fn bot_action(&self, bot: &str, seat: usize, seed: u64) -> Option<Value> {
        if self.to_move() != Some(seat) {
            return None;
        }
        let view = self.game.view(seat);
        let action = RummikubGame::bot(bot, seed)
            .ok()?
            .choose(&view, seat)
            .ok()?;
        Some(match action {
            Action::Play(table) => json!({ "type": "play", "table": table_json(&table) }),
            _ => json!({ "type": "draw" }),
        })
    }

    pub fn record(&self) -> String {
        let mut records = self.round_records.clone();
        if self.game.round().is_over() {
            records.extend(write_record(self.game.round()));
        }
        records.join("\n")
    }
}

fn table_json(table: &[Set]) -> Vec<Vec<String>> {
    table
        .iter()
        .map(|set| set.tiles().iter().map(Tile::to_string).collect())
        .collect()
}

fn read_table(value: &Value) -> Result<Vec<Set>, ActionError> {
    let bad = || {
        ActionError::Malformed(
            "`table` must be a list of sets, each a list of tiles like \"r7\" or \"J\"".into(),
        )
    };
    let sets = value.as_array().ok_or_else(bad)?;
    sets.iter()
        .map(|set| {
            let tiles = set.as_array().ok_or_else(bad)?;
            let tiles = tiles
                .iter()
                .map(|t| {
                    let text = t.as_str().ok_or_else(bad)?;
                    text.parse::<Tile>()
                        .map_err(|e| ActionError::Malformed(e.to_string()))
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Set::new(tiles))
        })
        .collect()
}

/// The best play for a hint, by the exact solver (most tiles or most value, the fewest
/// old sets changed among equal plays), as the `rumi solve --json` object plus
/// `changed_sets`; `null` when no legal play lays a tile (draw).
pub fn best_play(
    rules: &RuleSet,
    position: &Position,
    objective: Objective,
) -> Result<Value, ActionError> {
    match solver::solve(rules, position, objective) {
        Ok(Some(best)) => Ok(json!({
            "placed": best.placed.iter().map(Tile::to_string).collect::<Vec<_>>(),
            "table": table_json(&best.table),
            "tiles": best.tiles,
            "value": best.value,
            "changed_sets": best.changed_sets,
        })),
        Ok(None) => Ok(Value::Null),
        Err(SolveError::TooLarge(states)) => Err(ActionError::Illegal(format!(
            "this position is too large for the exact solver ({states} states)"
        ))),
        Err(other) => Err(ActionError::Illegal(format!("no hint: {other}"))),
    }
}
