//! Rummikub behind the [`Game`] trait: hidden racks, so a seat observes its
//! [`PlayerView`]; an action is a whole turn ([`Action`]: the new table, or a draw),
//! too many to list, so [`Game::legal_actions`] is `None` and [`Game::validate`] decides.
//! The deal and every draw come from the game's seed (rounds after the first from
//! seeds derived from it, [`rummikub::series::round_seed`]).

use rummikub::record::{format_action, parse_action, write_record};
use rummikub::round::{Event, TurnError};
use rummikub::{Action, GameLength, PlayerView, RuleSet};

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

    /// A rule preset by name (`current`, `old`), as the server and the engine name it.
    pub fn preset(name: &str, players: usize) -> Result<RummikubConfig, GameError> {
        let rules =
            RuleSet::preset(name).ok_or_else(|| GameError::UnknownPreset(name.to_string()))?;
        Ok(RummikubConfig::new(rules, players))
    }

    /// K9: a game of `rounds` rounds, 1 to 20.
    pub fn with_rounds(mut self, rounds: u32) -> Result<RummikubConfig, GameError> {
        if !(1..=20).contains(&rounds) {
            return Err(GameError::Rounds(rounds));
        }
        self.rules.game_length = GameLength::Rounds(rounds);
        Ok(self)
    }

    /// K7: the turn clock, `seconds` (1 to 3600) or none.
    pub fn with_turn_seconds(mut self, seconds: Option<u32>) -> Result<RummikubConfig, GameError> {
        if let Some(s) = seconds.filter(|s| !(1..=3600).contains(s)) {
            return Err(GameError::TurnSeconds(s));
        }
        self.rules.turn_time_seconds = seconds;
        Ok(self)
    }

    /// A finished round waits for [`Game::start_next_round`].
    pub fn pausing_between_rounds(mut self) -> RummikubConfig {
        self.pause_between_rounds = true;
        self
    }
}

/// A Rummikub game (one or more rounds, K9) for the shared interface.
#[derive(Clone, Debug)]
pub struct RummikubGame {
    pub series: rummikub::RoundSeries,
    /// Records of the finished rounds.
    rounds: Vec<String>,
    pause_between_rounds: bool,
}

impl RummikubGame {
    /// Deals the next round when the current one is over and the game is not.
    fn continue_game(&mut self) {
        if self.series.round().is_over() && !self.series.is_over() && !self.pause_between_rounds {
            self.deal_next();
        }
    }

    /// [`Game::apply`] that says what happened, or why not in the engine's terms (a
    /// table shows both to its players).
    pub fn play_turn(&mut self, seat: usize, action: Action) -> Result<Event, TurnError> {
        let event = self.series.apply(seat, action)?;
        self.continue_game();
        Ok(event)
    }

    /// The record of every round dealt so far, the current one last: the one place that
    /// collects them, for the terminal, the engine and the server alike.
    pub fn round_records(&self) -> Vec<String> {
        let mut records = self.rounds.clone();
        records.extend(write_record(self.series.round()));
        records
    }

    fn deal_next(&mut self) {
        if self.series.round().is_over() && !self.series.is_over() {
            self.rounds.extend(write_record(self.series.round()));
            self.series.next_round();
        }
    }
}

/// Why a Rummikub game refused an action (or could not start).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RummikubError {
    #[error("Rummikub is played by 2 to 4 players, not {0}")]
    Players(usize),
    /// The rules refused the turn (K1–K10).
    #[error(transparent)]
    Turn(#[from] TurnError),
    /// The action's text could not be read.
    #[error("{0}")]
    Notation(String),
    #[error("the game is over")]
    GameOver,
    #[error("the round is still being played")]
    RoundRunning,
}

impl Game for RummikubGame {
    type Config = RummikubConfig;
    type Action = Action;
    type Observation = PlayerView;
    type Event = Event;
    type Error = RummikubError;

    const NAME: &'static str = "rummikub";

    fn start(config: &RummikubConfig, seed: u64) -> Result<RummikubGame, RummikubError> {
        let series = rummikub::RoundSeries::new(config.rules.clone(), config.players, seed)
            .map_err(|e| RummikubError::Players(e.0))?;
        Ok(RummikubGame {
            series,
            rounds: Vec::new(),
            pause_between_rounds: config.pause_between_rounds,
        })
    }

    fn seats(&self) -> usize {
        self.series.round().players()
    }

    fn to_act(&self) -> Option<usize> {
        let round = self.series.round();
        (!round.is_over()).then(|| round.current_player())
    }

    fn legal_actions(&self) -> Option<Vec<Action>> {
        None
    }

    fn validate(&self, seat: usize, action: &Action) -> Result<(), RummikubError> {
        let round = self.series.round();
        match action {
            Action::Play(table) => round.check_play(seat, table).map(|_| ())?,
            _ => round.clone().apply(seat, action.clone()).map(|_| ())?,
        }
        Ok(())
    }

    fn apply(&mut self, seat: usize, action: &Action) -> Result<Event, RummikubError> {
        Ok(self.play_turn(seat, action.clone())?)
    }

    fn observe(&self, seat: usize) -> PlayerView {
        self.series.view(seat)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.series.is_over().then(|| Outcome {
            scores: self.series.totals().iter().map(|&t| f64::from(t)).collect(),
            winners: self.series.winners(),
        })
    }

    fn format_action(&self, action: &Action) -> String {
        format_action(action)
    }

    fn parse_action(&self, text: &str) -> Result<Action, RummikubError> {
        parse_action(text).map_err(RummikubError::Notation)
    }

    fn record(&self, _seats: Option<&str>) -> String {
        self.round_records().join("\n")
    }

    fn turn_clock(&self) -> Option<u32> {
        self.to_act()?;
        self.series.rules().turn_time_seconds
    }

    fn time_out_action(&self) -> Option<Action> {
        self.turn_clock().map(|_| Action::TimeOut)
    }

    fn awaits_next_round(&self) -> bool {
        self.series.round().is_over() && !self.series.is_over()
    }

    fn start_next_round(&mut self) -> Result<(), RummikubError> {
        if self.series.is_over() {
            return Err(RummikubError::GameOver);
        }
        if !self.series.round().is_over() {
            return Err(RummikubError::RoundRunning);
        }
        self.deal_next();
        Ok(())
    }
}
