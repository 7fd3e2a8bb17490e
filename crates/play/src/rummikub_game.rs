//! Rummikub behind the [`Game`] trait: hidden racks, so a seat observes its
//! [`PlayerView`]; an action is a whole turn ([`Action`]: the new table, or a draw),
//! too many to list, so [`Game::legal_actions`] is `None` and [`Game::validate`] decides.
//! The deal and every draw come from the game's seed (rounds after the first from
//! seeds derived from it, [`rummikub::game::round_seed`]).

use rummikub::record::{format_action, parse_action, write_record};
use rummikub::round::{Event, TurnError};
use rummikub::{Action, PlayerView, RuleSet};

use crate::game::{Game, GameError, Outcome};

/// What fixes a Rummikub game: the rule set and the number of players.
#[derive(Clone, Debug)]
pub struct RummikubConfig {
    pub rules: RuleSet,
    pub players: usize,
    /// A finished round waits for [`Game::start_next_round`] (a table, where people
    /// look at the scores first) instead of dealing the next at once (bots, matches).
    pub pause_between_rounds: bool,
}

impl RummikubConfig {
    /// A game that deals each next round at once.
    pub fn new(rules: RuleSet, players: usize) -> RummikubConfig {
        RummikubConfig {
            rules,
            players,
            pause_between_rounds: false,
        }
    }
}

/// A Rummikub game (one or more rounds, K9) for the shared interface.
#[derive(Clone, Debug)]
pub struct RummikubGame {
    pub game: rummikub::Game,
    /// Records of the finished rounds.
    rounds: Vec<String>,
    pause_between_rounds: bool,
}

impl RummikubGame {
    /// Deals the next round when the current one is over and the game is not.
    fn continue_game(&mut self) {
        if self.game.round().is_over() && !self.game.is_over() && !self.pause_between_rounds {
            self.deal_next();
        }
    }

    /// [`Game::apply`] that says what happened, or why not in the engine's terms (a
    /// table shows both to its players).
    pub fn play_turn(&mut self, seat: usize, action: Action) -> Result<Event, TurnError> {
        let event = self.game.apply(seat, action)?;
        self.continue_game();
        Ok(event)
    }

    fn deal_next(&mut self) {
        if self.game.round().is_over() && !self.game.is_over() {
            self.rounds.extend(write_record(self.game.round()));
            self.game.next_round();
        }
    }
}

impl Game for RummikubGame {
    type Config = RummikubConfig;
    type Action = Action;
    type Observation = PlayerView;

    const NAME: &'static str = "rummikub";

    fn start(config: &RummikubConfig, seed: u64) -> Result<RummikubGame, GameError> {
        let game =
            rummikub::Game::new(config.rules.clone(), config.players, seed).map_err(|e| {
                GameError::new(format!("Rummikub is played by 2 to 4 players, not {}", e.0))
            })?;
        Ok(RummikubGame {
            game,
            rounds: Vec::new(),
            pause_between_rounds: config.pause_between_rounds,
        })
    }

    fn seats(&self) -> usize {
        self.game.round().players()
    }

    fn to_act(&self) -> Option<usize> {
        let round = self.game.round();
        (!round.is_over()).then(|| round.current_player())
    }

    fn legal_actions(&self) -> Option<Vec<Action>> {
        None
    }

    fn validate(&self, seat: usize, action: &Action) -> Result<(), GameError> {
        let round = self.game.round();
        match action {
            Action::Play(table) => round
                .check_play(seat, table)
                .map(|_| ())
                .map_err(|e| GameError::new(e.to_string())),
            _ => round
                .clone()
                .apply(seat, action.clone())
                .map(|_| ())
                .map_err(|e| GameError::new(e.to_string())),
        }
    }

    fn apply(&mut self, seat: usize, action: &Action) -> Result<(), GameError> {
        self.play_turn(seat, action.clone())
            .map(|_| ())
            .map_err(|e| GameError::new(e.to_string()))
    }

    fn observe(&self, seat: usize) -> PlayerView {
        self.game.view(seat)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.is_over().then(|| Outcome {
            scores: self.game.totals().iter().map(|&t| f64::from(t)).collect(),
            winners: self.game.winners(),
        })
    }

    fn format_action(&self, action: &Action) -> String {
        format_action(action)
    }

    fn parse_action(&self, text: &str) -> Result<Action, GameError> {
        parse_action(text).map_err(GameError::new)
    }

    fn record(&self, _seats: Option<&str>) -> String {
        let mut records = self.rounds.clone();
        records.extend(write_record(self.game.round()));
        records.join("\n")
    }

    fn turn_clock(&self) -> Option<u32> {
        self.to_act()?;
        self.game.rules().turn_time_seconds
    }

    fn time_out_action(&self) -> Option<Action> {
        self.turn_clock().map(|_| Action::TimeOut)
    }

    fn awaits_next_round(&self) -> bool {
        self.game.round().is_over() && !self.game.is_over()
    }

    fn start_next_round(&mut self) -> Result<(), GameError> {
        if self.game.is_over() {
            return Err(GameError::new("the game is over"));
        }
        if !self.game.round().is_over() {
            return Err(GameError::new("the round is still being played"));
        }
        self.deal_next();
        Ok(())
    }
}
