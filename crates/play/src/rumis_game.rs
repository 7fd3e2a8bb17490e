//! Rumis behind the [`Game`] trait: perfect information, so a seat observes the whole
//! [`Position`]; an action is one [`Move`] (R16: taking a stone off and placing it are
//! two actions of the same seat).

use rumis::record::Record;
use rumis::{notation::format_move, Move, Position, Scenario, Setup, Variant};

use crate::game::{Game, GameError, Outcome};

/// What fixes a Rumis game: board, players, variant (the seed comes with the start).
#[derive(Clone, Debug)]
pub struct RumisConfig {
    pub scenario: Scenario,
    pub players: u8,
    pub variant: Variant,
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
        let scenario = Scenario::builtin(&scenario.to_ascii_lowercase()).ok_or_else(|| {
            GameError::new(format!(
                "unknown scenario `{scenario}` (known: {})",
                Scenario::builtin_keys().collect::<Vec<_>>().join(", ")
            ))
        })?;
        let variant = Variant::from_name(variant).ok_or_else(|| {
            GameError::new(format!(
                "unknown variant `{variant}` (known: {})",
                Variant::ALL
                    .iter()
                    .map(|v| v.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?;
        Ok(RumisConfig {
            scenario,
            players,
            variant,
        })
    }

    pub fn setup(&self, seed: u64) -> Setup {
        Setup::new(self.scenario.clone(), self.players)
            .with_variant(self.variant)
            .with_seed(seed)
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

impl Game for RumisGame {
    type Config = RumisConfig;
    type Action = Move;
    type Observation = Position;
    type Event = ();

    const NAME: &'static str = "rumis";

    /// The game starts on the process's shared board ([`crate::boards::shared`]).
    fn start(config: &RumisConfig, seed: u64) -> Result<RumisGame, GameError> {
        let position = crate::boards::position(config.setup(seed))
            .map_err(|e| GameError::new(e.to_string()))?;
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

    fn validate(&self, seat: usize, action: &Move) -> Result<(), GameError> {
        match self.to_act() {
            None => Err(GameError::new("the game is over")),
            Some(s) if s != seat => Err(GameError::new(format!(
                "it is player {}'s turn, not player {}'s",
                s + 1,
                seat + 1
            ))),
            Some(_) if !self.position.is_legal(*action) => {
                Err(GameError::new("that move is not legal here"))
            }
            Some(_) => Ok(()),
        }
    }

    fn apply(&mut self, seat: usize, action: &Move) -> Result<(), GameError> {
        self.validate(seat, action)?;
        self.position
            .play(*action)
            .map_err(|e| GameError::new(e.to_string()))
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

    fn parse_action(&self, text: &str) -> Result<Move, GameError> {
        self.position
            .parse_move(text)
            .map_err(|e| GameError::new(e.to_string()))
    }

    fn record(&self, seats: Option<&str>) -> String {
        Record::write(&self.position, seats)
    }
}
