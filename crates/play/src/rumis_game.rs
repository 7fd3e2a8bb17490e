//! Rumis behind the [`Game`] trait: perfect information, so a seat observes the whole
//! [`Position`]; an action is one [`Move`] (R16: taking a stone off and placing it are
//! two actions of the same seat).

use rumis::record::Record;
use rumis::{notation::format_move, FirstStones, Move, Position, Scenario, Setup, Variant};

use crate::game::{Game, GameError, Outcome};

/// What fixes a Rumis game: board, players, variant and first-stone rule (the seed
/// comes with the start). Every front end builds its games from this one type: the
/// server's table settings, the engine's `newgame`, the match runner's options and the
/// terminal's (a scenario file, `--first-stones`) all go through [`RumisConfig::from_words`].
#[derive(Clone, Debug)]
pub struct RumisConfig {
    pub scenario: Scenario,
    pub players: u8,
    pub variant: Variant,
    /// R14 or R6; `None`: the player count's default (edge for 5 and 6 players).
    pub first_stones: Option<FirstStones>,
}

impl RumisConfig {
    /// A built-in board by key, in the standard variant.
    pub fn builtin(key: &str, players: u8) -> Result<RumisConfig, GameError> {
        RumisConfig::named(key, players, Variant::Standard.name())
    }

    /// A game as front ends name it in words (the server's settings, the engine's
    /// `newgame`, the match runner's options): a built-in board's key (any case), the
    /// players and a variant's name.
    pub fn named(scenario: &str, players: u8, variant: &str) -> Result<RumisConfig, GameError> {
        let scenario = Scenario::builtin(&scenario.to_ascii_lowercase())
            .ok_or_else(|| GameError::UnknownScenario(scenario.to_string()))?;
        RumisConfig::from_words(scenario, players, variant, None)
    }

    /// A game on a board already read (built in or from a file), with the variant and
    /// the first-stone rule named in words (`None`: the player count's default).
    pub fn from_words(
        scenario: Scenario,
        players: u8,
        variant: &str,
        first_stones: Option<&str>,
    ) -> Result<RumisConfig, GameError> {
        let variant = Variant::from_name(variant)
            .ok_or_else(|| GameError::UnknownVariant(variant.to_string()))?;
        let first_stones = first_stones
            .map(|rule| {
                FirstStones::from_name(rule)
                    .ok_or_else(|| GameError::UnknownFirstStones(rule.to_string()))
            })
            .transpose()?;
        Ok(RumisConfig {
            scenario,
            players,
            variant,
            first_stones,
        })
    }

    pub fn setup(&self, seed: u64) -> Setup {
        let setup = Setup::new(self.scenario.clone(), self.players)
            .with_variant(self.variant)
            .with_seed(seed);
        match self.first_stones {
            Some(rule) => setup.with_first_stones(rule),
            None => setup,
        }
    }
}

/// A Rumis game for the shared interface.
#[derive(Clone, Debug)]
pub struct RumisGame {
    pub position: Position,
}

impl RumisGame {
    pub fn from_position(position: Position) -> RumisGame {
        RumisGame { position }
    }
}

/// The outcome of a finished Rumis position (R9).
pub fn rumis_outcome(position: &Position) -> Outcome {
    let score = position.score();
    Outcome {
        scores: score.player_points.iter().map(|&p| f64::from(p)).collect(),
        winners: score.winners.iter().map(|&w| usize::from(w)).collect(),
    }
}

/// Why a Rumis game refused an action (or could not start).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RumisError {
    #[error(transparent)]
    Setup(#[from] rumis::SetupError),
    #[error("the game is over")]
    GameOver,
    #[error("it is player {}'s turn, not player {}'s", .to_act + 1, .seat + 1)]
    NotYourTurn { seat: usize, to_act: usize },
    #[error("that move is not legal here")]
    NotLegal,
    /// The rules refused the move (R1–R16).
    #[error(transparent)]
    Illegal(#[from] rumis::Illegal),
    /// The move text could not be read, or the rules refused it.
    #[error(transparent)]
    Move(#[from] rumis::notation::MoveError),
    #[error("Rumis is played in one round")]
    NoRounds,
}

impl Game for RumisGame {
    type Config = RumisConfig;
    type Action = Move;
    type Observation = Position;
    type Event = ();
    type Error = RumisError;

    const NAME: &'static str = "rumis";

    /// The game starts on the process's shared board ([`crate::boards::shared`]).
    fn start(config: &RumisConfig, seed: u64) -> Result<RumisGame, RumisError> {
        let position = crate::boards::position(config.setup(seed))?;
        Ok(RumisGame { position })
    }

    fn seats(&self) -> usize {
        usize::from(self.position.setup().players)
    }

    fn to_act(&self) -> Option<usize> {
        self.position.actor().map(usize::from)
    }

    fn legal_actions(&self) -> Option<Vec<Move>> {
        Some(self.position.legal_moves())
    }

    fn validate(&self, seat: usize, action: &Move) -> Result<(), RumisError> {
        match self.to_act() {
            None => Err(RumisError::GameOver),
            Some(to_act) if to_act != seat => Err(RumisError::NotYourTurn { seat, to_act }),
            Some(_) if !self.position.is_legal(*action) => Err(RumisError::NotLegal),
            Some(_) => Ok(()),
        }
    }

    fn apply(&mut self, seat: usize, action: &Move) -> Result<(), RumisError> {
        self.validate(seat, action)?;
        Ok(self.position.play(*action)?)
    }

    fn observe(&self, _seat: usize) -> Position {
        self.position.clone()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.position
            .is_over()
            .then(|| rumis_outcome(&self.position))
    }

    fn format_action(&self, action: &Move) -> String {
        format_move(&self.position, *action)
    }

    fn parse_action(&self, text: &str) -> Result<Move, RumisError> {
        Ok(self.position.parse_move(text)?)
    }

    fn record(&self, seats: Option<&str>) -> String {
        Record::write(&self.position, seats)
    }

    fn start_next_round(&mut self) -> Result<(), RumisError> {
        Err(RumisError::NoRounds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_named_in_words_sets_up_its_variant_and_first_stones_or_says_what_is_wrong() {
        let board = Scenario::builtin("chullpa").expect("built-in board");
        // R6 is the default for four players; R14 (edge) when asked for.
        let default = RumisConfig::from_words(board.clone(), 4, "four-colours", None).unwrap();
        let setup = default.setup(7);
        assert_eq!(setup.first_stones, FirstStones::default_for(4));
        assert_eq!((setup.variant, setup.seed), (Variant::FourColours, 7));
        let edge = RumisConfig::from_words(board.clone(), 4, "standard", Some("edge")).unwrap();
        assert_eq!(edge.setup(1).first_stones, FirstStones::Edge);
        let bad_rule = RumisConfig::from_words(board.clone(), 4, "standard", Some("corner"));
        assert_eq!(
            bad_rule.unwrap_err().to_string(),
            "unknown first-stone rule `corner` (edge for R14, face for R6)"
        );
        let bad_variant = RumisConfig::from_words(board, 4, "robot", None).unwrap_err();
        assert!(bad_variant
            .to_string()
            .starts_with("unknown variant `robot` (known: standard"));
    }
}
