//! The one interface every game offers to bots, the match runner and the engine
//! protocol (in the spirit of OpenSpiel's `Game`/`State`).
//!
//! - seats: [`Game::seats`]; whose turn: [`Game::to_act`];
//! - actions: listed by [`Game::legal_actions`] where they can be listed (Rumis), or
//!   only checked by [`Game::validate`] where they are too many (a Rummikub turn is a
//!   whole new table); [`Game::apply`] plays one and changes nothing when it is refused;
//! - hidden information: [`Game::observe`] is what one seat may know, and bots choose
//!   from an observation only ([`crate::bots::Bot`]);
//! - chance: every chance event (the Rummikub deal and draws, a random Rumis ruin) comes
//!   from the seed given to [`Game::start`], so a seed replays a whole game;
//! - the outcome: [`Game::outcome`], scores and winners once the game is over.

use std::fmt;

/// The games this crate plays: the one list of games, also on the server's wire
/// (`rumis`, `rummikub`; the `wire` feature derives its serde, OpenAPI and TypeScript).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "wire",
    derive(serde::Serialize, serde::Deserialize, utoipa::ToSchema, ts_rs::TS),
    serde(rename_all = "lowercase")
)]
pub enum GameKind {
    Rumis,
    Rummikub,
}

impl GameKind {
    pub const ALL: [GameKind; 2] = [GameKind::Rumis, GameKind::Rummikub];

    /// The name on the command line and in the protocol (`rumis`).
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Rumis => "rumis",
            GameKind::Rummikub => "rummikub",
        }
    }

    /// The name in a sentence (`Rumis`).
    pub const fn title(self) -> &'static str {
        match self {
            GameKind::Rumis => "Rumis",
            GameKind::Rummikub => "Rummikub",
        }
    }
}

/// Why a bot, a match or an engine could not go on: a bad bot spec or setting, a bot
/// that failed, an engine that stopped answering, or a game's own error passed up. The
/// text for a person is the `Display`. A game's refusals are its own typed errors
/// ([`Game::Error`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// No bot of `game` has this spec (it may be the other game's).
    #[error("{}", crate::bots::unknown_bot(*.game, .spec))]
    UnknownBot { game: GameKind, spec: String },
    /// A bot was asked to move in a finished game.
    #[error("the game is over")]
    GameOver,
    #[error(
        "unknown scenario `{0}` (known: {known})",
        known = rumis::Scenario::builtin_keys().collect::<Vec<_>>().join(", ")
    )]
    UnknownScenario(String),
    #[error("unknown variant `{0}` (known: {known})", known = rumis::Variant::names())]
    UnknownVariant(String),
    #[error("unknown first-stone rule `{0}` (edge for R14, face for R6)")]
    UnknownFirstStones(String),
    #[error(
        "unknown rule preset `{0}` (presets: {known})",
        known = rummikub::rules::PRESETS.join(", ")
    )]
    UnknownPreset(String),
    /// K9: a game is 1 to 20 rounds.
    #[error("rounds must be 1 to 20, not {0}")]
    Rounds(u32),
    /// K7: a turn clock is 1 to 3600 seconds.
    #[error("a turn clock of {0} seconds: give 1 to 3600, or null for none")]
    TurnSeconds(u32),
    /// A match needs one bot per seat.
    #[error("{bots} bots for {seats} seats")]
    BotsForSeats { bots: usize, seats: usize },
    #[error("no entrants")]
    NoEntrants,
    /// A game that stopped before its outcome.
    #[error("the game stopped before its end")]
    Unfinished,
    /// A game that went on past any real game's length (a broken bot or rule).
    #[error("the game did not end within {0} actions")]
    TooLong(usize),
    /// A seat's bot failed (seats are 0-based; the text counts from 1).
    #[error("{bot} (seat {}): {error}", .seat + 1)]
    Bot {
        bot: String,
        seat: usize,
        error: Box<GameError>,
    },
    /// The rules refused a bot's action (written in the game's notation).
    #[error("{bot} (seat {}) chose `{action}`: {refusal}", .seat + 1)]
    BotRefused {
        bot: String,
        seat: usize,
        action: String,
        refusal: String,
    },
    /// A bot that panicked.
    #[error("a bot panicked")]
    BotPanicked,
    /// An outside engine (an `engine:COMMAND` entrant) that failed: how, in words.
    #[error("{0}")]
    Engine(String),
    /// A game's own error ([`Game::Error`]), as its text.
    #[error("{0}")]
    Game(String),
}

impl GameError {
    /// A game's own error ([`Game::Error`]), as text.
    pub fn of(error: impl fmt::Display) -> GameError {
        GameError::Game(error.to_string())
    }
}

/// The end of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Each seat's final score (Rumis: points, R9; Rummikub: game totals, K9).
    pub scores: Vec<f64>,
    /// Seats that share the win (usually one).
    pub winners: Vec<usize>,
}

impl Outcome {
    /// A seat's share of the win: 1 for a sole win, 1/n for a win shared by n.
    pub fn win_share(&self, seat: usize) -> f64 {
        if self.winners.contains(&seat) {
            1.0 / self.winners.len() as f64
        } else {
            0.0
        }
    }
}

/// A game between seats, from its seeded start to its outcome.
pub trait Game: Clone + Send + 'static {
    /// What fixes a game before its first action (scenario and players, rule set …).
    type Config: Clone + Send + Sync;
    /// One action of one seat.
    type Action: Clone + PartialEq + fmt::Debug + Send;
    /// What one seat may know.
    type Observation: Clone;
    /// Why the game could not start or refused an action: the game's own reasons, for
    /// a front end to tell apart (the server says each refusal as a key).
    type Error: std::error::Error + Clone + PartialEq + Send + Sync + 'static;
    /// What an action did, for a front end to tell (Rummikub: the tiles laid, the tile
    /// drawn); `()` where the new state says it all (Rumis).
    type Event;

    /// The game's name, as on the command line (`rumis`, `rummikub`).
    const NAME: &'static str;

    /// A new game; every chance event in it is drawn from `seed`.
    fn start(config: &Self::Config, seed: u64) -> Result<Self, Self::Error>;

    fn seats(&self) -> usize;

    /// The seat to act, `None` once the game is over.
    fn to_act(&self) -> Option<usize>;

    /// Every legal action of the seat to act, or `None` where they are too many to list
    /// (then [`Game::validate`] decides).
    fn legal_actions(&self) -> Option<Vec<Self::Action>>;

    /// Whether `seat` may take `action` now, with the reason when it may not.
    fn validate(&self, seat: usize, action: &Self::Action) -> Result<(), Self::Error>;

    /// Takes the action; a refused action changes nothing.
    fn apply(&mut self, seat: usize, action: &Self::Action) -> Result<Self::Event, Self::Error>;

    /// What `seat` may know now.
    fn observe(&self, seat: usize) -> Self::Observation;

    /// Scores and winners once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// The action in the game's text notation.
    fn format_action(&self, action: &Self::Action) -> String;

    /// Reads an action in the game's notation for the seat to act.
    fn parse_action(&self, text: &str) -> Result<Self::Action, Self::Error>;

    /// The game so far as a text record that replays it.
    fn record(&self, seats: Option<&str>) -> String;

    /// Seconds the seat to act has for its turn, when the game keeps a turn clock now
    /// (Rummikub K7). A table's server runs the clock; the game only says how long.
    fn turn_clock(&self) -> Option<u32> {
        None
    }

    /// The action taken for the seat to act when its turn time runs out (K7).
    fn time_out_action(&self) -> Option<Self::Action> {
        None
    }

    /// Whether a finished round waits for someone to deal the next (K9), rather than
    /// the game dealing it by itself.
    fn awaits_next_round(&self) -> bool {
        false
    }

    /// Deals the next round of a game that [`Game::awaits_next_round`].
    fn start_next_round(&mut self) -> Result<(), Self::Error>;
}
