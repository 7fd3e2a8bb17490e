//! What fixes a game before its first move: scenario, players, variant (seed 000,
//! "Varianten"), how the first stones are placed, the seed of a random ruin.

use std::fmt;

use crate::board::{Board, BoardKey};
use crate::scenario::Scenario;

/// How a game is played (seed 000, "Varianten").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// One colour per player, 2–4 players.
    Standard,
    /// R10: two players with two colours each, played A1 B1 A2 B2 on the 4-player board.
    FourColours,
    /// R11: players first build all eleven stones of an unused colour together, then
    /// play on the board for one player more.
    Ruinas,
    /// R11, "the software may also generate a random ruin": the neutral stones are
    /// placed at random (legal placements drawn with the game's seed).
    RuinasRandom,
    /// R15 (Rumis+, 5 and 6 players): no stone touches its own colour face to face;
    /// every later stone touches another colour.
    Inverse,
    /// R16 (Rumis+, 2 players on Colca, Puncu, Apachita): build inside the red line,
    /// interim score, then take stones off and rebuild them outside it.
    Dismantle,
}

impl Variant {
    pub const ALL: [Variant; 6] = [
        Variant::Standard,
        Variant::FourColours,
        Variant::Ruinas,
        Variant::RuinasRandom,
        Variant::Inverse,
        Variant::Dismantle,
    ];

    /// Name used on the command line and in records.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::FourColours => "four-colours",
            Variant::Ruinas => "ruinas",
            Variant::RuinasRandom => "ruinas-random",
            Variant::Inverse => "inverse",
            Variant::Dismantle => "dismantle",
        }
    }

    /// The variant names, for help and error texts.
    pub fn names() -> String {
        Variant::ALL.map(|v| v.name()).join(", ")
    }

    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.name() == name)
    }

    pub(super) fn has_ruin(self) -> bool {
        matches!(self, Variant::Ruinas | Variant::RuinasRandom)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How the players' first stones are placed (a rule option).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FirstStones {
    /// R6: touching a placed stone face to face.
    Face,
    /// R14 (Rumis+, 5 and 6 players): touching a placed stone along an edge, and no
    /// face contact between first stones.
    Edge,
}

impl FirstStones {
    pub fn name(self) -> &'static str {
        match self {
            FirstStones::Face => "face",
            FirstStones::Edge => "edge",
        }
    }

    pub fn from_name(name: &str) -> Option<FirstStones> {
        [FirstStones::Face, FirstStones::Edge]
            .into_iter()
            .find(|f| f.name() == name)
    }

    /// R14 is the rule for 5 and 6 players (RD10): the default there, R6 otherwise.
    pub fn default_for(players: u8) -> FirstStones {
        if players >= 5 {
            FirstStones::Edge
        } else {
            FirstStones::Face
        }
    }
}

impl fmt::Display for FirstStones {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Everything that fixes a game before the first move.
#[derive(Clone, Debug)]
pub struct Setup {
    pub scenario: Scenario,
    pub players: u8,
    pub variant: Variant,
    /// Used only where the rules call for chance (the random ruin).
    pub seed: u64,
    /// R6 or R14; [`FirstStones::default_for`] the player count unless chosen.
    pub first_stones: FirstStones,
}

/// Why a setup cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("Rumis is played by 2 to 4 players (Rumis+ up to 6), not {0}")]
    PlayerCount(u8),
    #[error("the four-colour variant (R10) is for exactly 2 players, not {0}")]
    FourColoursNeedsTwo(u8),
    #[error("Ruinas (R11) is for 2 or 3 players, not {0}")]
    RuinasPlayers(u8),
    #[error("the inverse variant (R15) is for 5 or 6 players, not {0}")]
    InversePlayers(u8),
    #[error("the dismantling game (R16) is for exactly 2 players, not {0}")]
    DismantlePlayers(u8),
    #[error("first stones touching by edges (R14) is the rule for 5 or 6 players, not {0}")]
    EdgeFirstStonesPlayers(u8),
    #[error("{0}")]
    Scenario(String),
    #[error("the board given ({given}) is not the one this setup plays on ({expected})")]
    WrongBoard { expected: String, given: String },
}

impl Setup {
    pub fn new(scenario: Scenario, players: u8) -> Setup {
        Setup {
            scenario,
            players,
            variant: Variant::Standard,
            seed: 0,
            first_stones: FirstStones::default_for(players),
        }
    }

    /// Chooses the first-stone rule (R6 or R14).
    pub fn with_first_stones(mut self, first_stones: FirstStones) -> Setup {
        self.first_stones = first_stones;
        self
    }

    pub fn with_variant(mut self, variant: Variant) -> Setup {
        self.variant = variant;
        self
    }

    pub fn with_seed(mut self, seed: u64) -> Setup {
        self.seed = seed;
        self
    }

    /// The player count whose footprint and heights apply (R4, R10, R11).
    pub fn board_players(&self) -> Result<u8, SetupError> {
        let p = self.players;
        if !(2..=6).contains(&p) {
            return Err(SetupError::PlayerCount(p));
        }
        match self.variant {
            Variant::Standard => Ok(p),
            Variant::FourColours if p == 2 => Ok(4),
            Variant::FourColours => Err(SetupError::FourColoursNeedsTwo(p)),
            Variant::Ruinas | Variant::RuinasRandom if p == 2 || p == 3 => Ok(p + 1),
            Variant::Ruinas | Variant::RuinasRandom => Err(SetupError::RuinasPlayers(p)),
            Variant::Inverse if p >= 5 => Ok(p),
            Variant::Inverse => Err(SetupError::InversePlayers(p)),
            Variant::Dismantle if p == 2 => Ok(2),
            Variant::Dismantle => Err(SetupError::DismantlePlayers(p)),
        }
    }

    /// What fixes the board this setup plays on (the footprint for the board's player
    /// count, R16's red line), checking the setup; cheap next to building the board.
    pub fn board_key(&self) -> Result<BoardKey, SetupError> {
        let players = self.board_players()?;
        if self.first_stones == FirstStones::Edge && self.players < 5 {
            return Err(SetupError::EdgeFirstStonesPlayers(self.players));
        }
        let (footprint, red_line) = if self.variant == Variant::Dismantle {
            let (footprint, red) = self
                .scenario
                .dismantle_footprint()
                .map_err(SetupError::Scenario)?;
            (footprint, Some(red))
        } else {
            let footprint = self
                .scenario
                .footprint(players)
                .map_err(SetupError::Scenario)?;
            (footprint, None)
        };
        Ok(BoardKey {
            scenario_key: self.scenario.key.clone(),
            footprint,
            red_line,
        })
    }

    /// Builds the board this setup plays on (with R16's red line in the dismantling
    /// game). To share one board between games use [`crate::Boards`].
    pub fn board(&self) -> Result<Board, SetupError> {
        Ok(Board::from_key(self.board_key()?))
    }
}
