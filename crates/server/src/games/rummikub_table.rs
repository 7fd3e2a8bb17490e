//! A Rummikub game at a table: seats are the players; an action is a whole new table
//! (K5), a draw (K6), a redeal claim (K2) or starting the next round (K9). The turn
//! clock's time-out (K7) is an action of the server's clock, never of a client.

use play::game::Game;
use play::rummikub_game::{RummikubConfig, RummikubGame};
use rummikub::{Action, EndReason, Event, GameLength, RuleSet, Set, Tile};
use rummikub_solver::{self as solver, Objective, SolveError, TableAndRack};
use serde_json::json;

use super::clock::TimeOuts;
use super::{
    name_of, ActionError, Adapter, GameView, HintJob, Illegal, NotForThisGame, OutOfTurn, Refusal,
};
use crate::wire::{
    EventCode, GameAction, GameKind, HintAnswer, HintPlay, RoundOverView, RulesView,
    RummikubAction, RummikubSettings, RummikubView, Sets,
};

/// What happened last at the table, said without secrets; rendered with the
/// players' names when a view is built.
#[derive(Clone, Debug)]
enum LastEvent {
    Played {
        seat: usize,
        tiles: Vec<Tile>,
        meld: bool,
    },
    Drew {
        seat: usize,
    },
    Passed {
        seat: usize,
    },
    Penalty {
        seat: usize,
        tiles: usize,
    },
    Redealt {
        seat: usize,
    },
    RoundDealt {
        round: usize,
    },
}

#[derive(Clone)]
pub struct RummikubTable {
    preset: String,
    game: RummikubGame,
    last: Option<LastEvent>,
    time_outs: TimeOuts,
}

impl RummikubTable {
    pub fn new(
        config: &RummikubSettings,
        players: usize,
        seed: u64,
    ) -> Result<RummikubTable, String> {
        // A missing `turn_seconds` keeps the preset's clock; `null` switches it off.
        let mut config_of_game = RummikubConfig::preset(&config.rules, players)
            .and_then(|c| c.with_rounds(config.rounds))
            .map_err(|e| e.to_string())?
            .pausing_between_rounds();
        if let Some(seconds) = config.turn_seconds {
            config_of_game = config_of_game
                .with_turn_seconds(seconds)
                .map_err(|e| e.to_string())?;
        }
        let game = RummikubGame::start(&config_of_game, seed).map_err(|e| e.to_string())?;
        Ok(RummikubTable {
            preset: config.rules.to_string(),
            game,
            last: None,
            time_outs: TimeOuts::new(players),
        })
    }

    pub fn game(&self) -> &rummikub::RoundSeries {
        &self.game.series
    }

    /// Plays a turn through the game interface and notes what happened for the view.
    fn act(&mut self, seat: usize, action: Action) -> Result<(), ActionError> {
        let round = self.game.series.round();
        if !round.is_over() && seat < round.players() && !matches!(action, Action::ClaimRedeal) {
            let current = round.current_player();
            if current != seat && !matches!(action, Action::TimeOut) {
                return Err(OutOfTurn::NotYourTurn {
                    seat,
                    to_move: current,
                }
                .into());
            }
        }
        // One check, by the engine: a refusal comes with its reason as a key, and an
        // accepted turn with what happened.
        let event = self
            .game
            .play_turn(seat, action)
            .map_err(Refusal::Rummikub)?;
        self.last = Some(match event {
            Event::Played {
                tiles,
                initial_meld,
            } => LastEvent::Played {
                seat,
                tiles,
                meld: initial_meld.is_some(),
            },
            Event::Drew(Some(_)) => LastEvent::Drew { seat },
            Event::Drew(None) => LastEvent::Passed { seat },
            Event::Penalty(tiles) => LastEvent::Penalty {
                seat,
                tiles: tiles.len(),
            },
            Event::Redealt => LastEvent::Redealt { seat },
        });
        Ok(())
    }

    /// The last event as a key with parameters (players by seat).
    fn last_event(&self) -> Option<crate::wire::Event> {
        use super::reasons::event;
        let tiles_of = |tiles: &[Tile]| tiles.iter().map(Tile::to_string).collect::<Vec<_>>();
        Some(match self.last.as_ref()? {
            LastEvent::Played { seat, tiles, meld } => event(
                if *meld {
                    EventCode::Melded
                } else {
                    EventCode::Played
                },
                json!({ "player": seat, "tiles": tiles_of(tiles) }),
            ),
            LastEvent::Drew { seat } => event(EventCode::Drew, json!({ "player": seat })),
            LastEvent::Passed { seat } => event(EventCode::Passed, json!({ "player": seat })),
            LastEvent::Penalty { seat, tiles } => event(
                EventCode::Penalty,
                json!({ "player": seat, "tiles": tiles }),
            ),
            LastEvent::Redealt { seat } => event(EventCode::Redealt, json!({ "player": seat })),
            LastEvent::RoundDealt { round } => {
                event(EventCode::RoundDealt, json!({ "round": round }))
            }
        })
    }

    fn last_text(&self, names: &[String]) -> Option<String> {
        let tiles_text = |tiles: &[Tile]| {
            tiles
                .iter()
                .map(Tile::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        };
        Some(match self.last.as_ref()? {
            LastEvent::Played { seat, tiles, meld } => format!(
                "{} {} {}",
                name_of(names, *seat),
                if *meld { "melded" } else { "played" },
                tiles_text(tiles)
            ),
            // The drawn tile is the drawer's secret.
            LastEvent::Drew { seat } => format!("{} drew a tile", name_of(names, *seat)),
            LastEvent::Passed { seat } => {
                format!("{} passed: the pool is empty", name_of(names, *seat))
            }
            LastEvent::Penalty { seat, tiles } => format!(
                "{} ran out of time and drew {tiles} penalty tiles",
                name_of(names, *seat)
            ),
            LastEvent::Redealt { seat } => {
                format!("{} held three pairs: new deal", name_of(names, *seat))
            }
            LastEvent::RoundDealt { round } => format!("round {round} dealt"),
        })
    }

    fn rummikub_view(&self, seat: Option<usize>, names: &[String]) -> RummikubView {
        let game = &self.game.series;
        let round = game.round();
        let rules = game.rules();
        let players = round.players();
        let own = seat.filter(|&s| s < players);
        let round_over = round.outcome().map(|o| RoundOverView {
            winners: o.winners.clone(),
            scores: o.scores.clone(),
            rack_values: o.rack_values.clone(),
            reason: match o.reason {
                EndReason::Rummikub => "rummikub",
                EndReason::PoolExhausted => "pool exhausted",
            }
            .to_string(),
        });
        let rounds = match rules.game_length {
            GameLength::Rounds(n) => n,
            GameLength::TargetScore(_) => 0,
        };
        RummikubView {
            rules: rules_view(&self.preset, rules),
            rack: own.map(|s| round.rack(s).iter().map(Tile::to_string).collect()),
            rack_sizes: (0..players).map(|p| round.rack_len(p)).collect(),
            melded: (0..players).map(|p| round.has_melded(p)).collect(),
            pool_size: round.pool_len(),
            table: table_json(round.table()),
            round: game.round_number().max(1) as u32,
            rounds,
            totals: game.totals().to_vec(),
            round_over,
            can_claim_redeal: own.is_some_and(|s| round.can_claim_redeal(s)),
            last: self.last_text(names),
            last_event: self.last_event(),
        }
    }

    /// What a seat's hint is worked out from: the rules, the table, the seat's own rack
    /// and whether it has melded (nothing the seat does not see). The solver runs
    /// outside the table's lock ([`best_play`]).
    pub fn hint_position(&self, seat: usize) -> Result<(RuleSet, TableAndRack), ActionError> {
        let round = self.game.series.round();
        if seat >= round.players() {
            return Err(OutOfTurn::NoSuchSeat { seat }.into());
        }
        if round.is_over() {
            return Err(Illegal::RoundOver.into());
        }
        let position = TableAndRack::with_sets(
            round.table().to_vec(),
            round.rack(seat),
            round.has_melded(seat),
        );
        Ok((self.game.series.rules().clone(), position))
    }
}

impl Adapter for RummikubTable {
    type Engine = RummikubGame;

    fn engine(&self) -> &RummikubGame {
        &self.game
    }

    fn time_outs(&self) -> &TimeOuts {
        &self.time_outs
    }

    fn time_outs_mut(&mut self) -> &mut TimeOuts {
        &mut self.time_outs
    }

    fn apply_wire(&mut self, seat: usize, action: &GameAction) -> Result<GameAction, ActionError> {
        let GameAction::Rummikub(action) = action else {
            return Err(NotForThisGame::OtherGame(GameKind::Rummikub).into());
        };
        if seat >= self.seat_count() {
            return Err(OutOfTurn::NoSuchSeat { seat }.into());
        }
        match action {
            RummikubAction::Play { table } => {
                let table = table.to_sets();
                let canonical = RummikubAction::Play {
                    table: Sets::from_sets(&table),
                };
                self.act(seat, Action::Play(table))?;
                Ok(GameAction::Rummikub(canonical))
            }
            RummikubAction::Draw => {
                self.act(seat, Action::Draw)?;
                Ok(GameAction::Rummikub(RummikubAction::Draw))
            }
            RummikubAction::Redeal => {
                self.act(seat, Action::ClaimRedeal)?;
                Ok(GameAction::Rummikub(RummikubAction::Redeal))
            }
            RummikubAction::NextRound => self.next_round_wire(),
            RummikubAction::Timeout => Err(Illegal::ClockOnly.into()),
        }
    }

    fn time_out_wire(&mut self) -> Result<GameAction, ActionError> {
        let seat = self.to_move().ok_or(Illegal::NoTurn)?;
        let action = self.game.time_out_action().ok_or(Illegal::NoClock)?;
        self.act(seat, action)?;
        Ok(GameAction::Rummikub(RummikubAction::Timeout))
    }

    fn next_round_wire(&mut self) -> Result<GameAction, ActionError> {
        self.game.start_next_round().map_err(Illegal::Rummikub)?;
        self.last = Some(LastEvent::RoundDealt {
            round: self.game.series.round_number(),
        });
        Ok(GameAction::Rummikub(RummikubAction::NextRound))
    }

    fn view_wire(&self, seat: Option<usize>, _full: bool, names: &[String]) -> GameView {
        GameView::Rummikub(Box::new(self.rummikub_view(seat, names)))
    }

    fn action_wire(&self, action: &Action) -> GameAction {
        GameAction::Rummikub(match action {
            Action::Play(table) => RummikubAction::Play {
                table: Sets::from_sets(table),
            },
            _ => RummikubAction::Draw,
        })
    }

    /// The random bot's turn if the rules take it, else a draw (or a pass: the pool is
    /// empty), which they always take.
    fn fallback_wire(&self, seat: usize, seed: u64) -> Option<GameAction> {
        use rand::SeedableRng;
        let view = self.game.observe(seat);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let random = play::rummikub_random::random_action(&view, &mut rng);
        let action = if self.game.validate(seat, &random).is_ok() {
            random
        } else {
            Action::Draw
        };
        Some(self.action_wire(&action))
    }

    /// The exact solver's best play, from the seat's own rack and the table.
    fn hint_job(&self, seat: usize) -> Result<HintJob, ActionError> {
        let (rules, position) = self.hint_position(seat)?;
        Ok(Box::new(move |request| {
            best_play(&rules, &position, request.objective).map(|play| HintAnswer {
                play,
                moves: Vec::new(),
            })
        }))
    }
}

/// The rules as a view shows them, under the preset's name.
pub(crate) fn rules_view(preset: &str, rules: &RuleSet) -> RulesView {
    RulesView {
        name: preset.to_string(),
        initial_meld: rules.initial_meld_minimum,
        initial_meld_may_use_table: rules.initial_meld_may_use_table,
        turn_seconds: rules.turn_time_seconds,
        jokers_per_set: rules.jokers_per_set,
        run_wraps_around: rules.run_wraps_around,
        frozen_joker_sets: rules.frozen_joker_sets,
        joker_penalty: rules.joker_penalty,
    }
}

fn table_json(table: &[Set]) -> Vec<Vec<String>> {
    table
        .iter()
        .map(|set| set.tiles().iter().map(Tile::to_string).collect())
        .collect()
}

/// A solver's play as the wire shows it.
pub fn play_of(best: &solver::Solution) -> HintPlay {
    HintPlay {
        placed: best.placed.iter().map(Tile::to_string).collect(),
        table: table_json(&best.table),
        tiles: best.tiles,
        value: best.value.max(0) as u32,
        changed_sets: best.changed_sets as u32,
        fewest_changed_proven: best.fewest_changed_proven,
    }
}

/// The best play for a hint, by the exact solver (most tiles or most value, the fewest
/// old sets changed among equal plays); `None` when no legal play lays a tile (draw).
pub fn best_play(
    rules: &RuleSet,
    position: &TableAndRack,
    objective: Objective,
) -> Result<Option<HintPlay>, ActionError> {
    match solver::solve(rules, position, objective) {
        Ok(Some(best)) => Ok(Some(play_of(&best))),
        Ok(None) => Ok(None),
        Err(SolveError::TooLarge(states)) => Err(Illegal::TooLarge(states).into()),
        Err(other) => Err(Illegal::NoHint(other).into()),
    }
}
