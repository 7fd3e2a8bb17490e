//! A game of Rummikub in the rules' sense (K9): rounds in a row, totals summed over
//! rounds, and the winner. Named a round series so that it is never taken for the
//! `play` crate's `Game` interface that both games implement.

use crate::deal::PlayerCountError;
use crate::round::{Action, Event, Round, RoundOutcome, TurnError};
use crate::rules::{GameLength, RuleSet};
use crate::view::PlayerView;

/// A series of rounds under one rule set: one Rummikub game (K9).
#[derive(Clone, Debug)]
pub struct RoundSeries {
    seed: u64,
    round: Round,
    finished: Vec<RoundOutcome>,
    totals: Vec<i32>,
}

/// Each round gets its own seed derived from the game seed; round 1 uses the game seed
/// itself, so a one-round game and a round record with that seed deal the same.
pub fn round_seed(game_seed: u64, round_index: usize) -> u64 {
    game_seed.wrapping_add((round_index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

impl RoundSeries {
    pub fn new(rules: RuleSet, players: usize, seed: u64) -> Result<RoundSeries, PlayerCountError> {
        Ok(RoundSeries {
            seed,
            round: Round::new(rules, players, round_seed(seed, 0))?,
            finished: Vec::new(),
            totals: vec![0; players],
        })
    }

    pub fn rules(&self) -> &RuleSet {
        self.round.rules()
    }

    /// The round being played (or just finished).
    pub fn round(&self) -> &Round {
        &self.round
    }

    /// 1-based number of the current round.
    pub fn round_number(&self) -> usize {
        self.finished.len() + usize::from(!self.round.is_over())
    }

    pub fn finished_rounds(&self) -> &[RoundOutcome] {
        &self.finished
    }

    /// Totals over the finished rounds (K9).
    pub fn totals(&self) -> &[i32] {
        &self.totals
    }

    /// Applies an action to the current round; a finished round adds to the totals.
    pub fn apply(&mut self, player: usize, action: Action) -> Result<Event, TurnError> {
        let event = self.round.apply(player, action)?;
        if let Some(outcome) = self.round.outcome() {
            for (total, score) in self.totals.iter_mut().zip(&outcome.scores) {
                *total += score;
            }
            self.finished.push(outcome.clone());
        }
        Ok(event)
    }

    /// K9: the game ends after the set number of rounds, or once a total reaches the
    /// target score.
    pub fn is_over(&self) -> bool {
        match self.rules().game_length {
            GameLength::Rounds(n) => self.finished.len() >= n as usize,
            GameLength::TargetScore(target) => self.totals.iter().any(|&t| t >= target),
        }
    }

    /// Deals the next round once the current one is over and the game is not.
    /// Returns false (and changes nothing) otherwise.
    pub fn next_round(&mut self) -> bool {
        if !self.round.is_over() || self.is_over() {
            return false;
        }
        let players = self.round.players();
        let seed = round_seed(self.seed, self.finished.len());
        match Round::new(self.rules().clone(), players, seed) {
            Ok(round) => {
                self.round = round;
                true
            }
            Err(_) => false,
        }
    }

    /// K9: the highest total wins; players tied at the top share the win.
    pub fn winners(&self) -> Vec<usize> {
        if !self.is_over() {
            return Vec::new();
        }
        let best = self.totals.iter().copied().max().unwrap_or(0);
        (0..self.totals.len())
            .filter(|&p| self.totals[p] == best)
            .collect()
    }

    /// The player's view of the current round, with the game totals.
    pub fn view(&self, player: usize) -> PlayerView {
        let mut view = self.round.view(player);
        view.totals = self.totals.clone();
        view
    }
}
