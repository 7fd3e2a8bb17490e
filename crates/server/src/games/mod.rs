//! The games a table can hold, behind one object-safe interface ([`TableGame`]) that
//! the hub drives without knowing which game it is. Each game's adapter sits on the
//! game's [`play::game::Game`] implementation and only converts between it and the
//! wire types: every rule is the engine's, the turn clock's time-out (K7) and the next
//! round (K9) included.
//!
//! Hidden information: views are built per seat from what that seat may know, so a
//! Rummikub rack can only reach its own seat.

pub mod clock;
pub mod reasons;
mod rumis_table;
pub(crate) mod rummikub_table;

use std::any::Any;

use play::bots::{Bot, WithBots};
use play::game::Game;
use serde::{Deserialize, Serialize};

pub use rumis_table::{orientations_of, suggestion, suggestions, RumisTable};
pub use rummikub_table::{play_of, RummikubTable};

pub use crate::wire::GameView;
use crate::wire::{GameAction, GameKind, GameSettings, HintAnswer, RummikubAction, TableSettings};

/// Why a seat's action was refused. The text is for the person who sent it; the code
/// is for programs and translations.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ActionError {
    /// The action could not be read (HTTP 400).
    #[error("{0}")]
    Malformed(String),
    /// It is not this seat's turn (HTTP 409).
    #[error("{0}")]
    OutOfTurn(String),
    /// The rules forbid it (HTTP 409).
    #[error("{0}")]
    Illegal(String),
    /// The rules forbid it, with the engine's reason as a key (HTTP 409).
    #[error("{0}")]
    Refused(String, crate::wire::Reason),
    /// The table's game has no such request (HTTP 409).
    #[error("{0}")]
    NotForThisGame(String),
}

/// The outcome of a finished game, for the view and the lobby.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    pub winners: Vec<usize>,
    pub scores: Vec<i64>,
}

/// What a hint is asked with.
#[derive(Clone, Copy, Debug)]
pub struct HintRequest {
    /// What the best Rummikub play is best at.
    pub objective: rummikub_solver::Objective,
    /// How long a search may take (the Rumis bot's), in milliseconds.
    pub search_millis: u64,
}

/// A hint's work, taken from the table under its lock and done outside it (on the
/// thinking pool): the game's own search, which sees only what the seat may know.
pub type HintJob = Box<dyn FnOnce(HintRequest) -> Result<HintAnswer, ActionError> + Send>;

/// A game in progress at a table, as the hub drives it.
pub trait TableGame: Send + Sync + 'static {
    fn kind(&self) -> GameKind;

    fn clone_box(&self) -> Box<dyn TableGame>;

    fn seat_count(&self) -> usize;

    /// The seat whose turn it is; `None` when nobody is to act (game or round over).
    fn to_move(&self) -> Option<usize>;

    fn result(&self) -> Option<GameResult>;

    fn is_over(&self) -> bool {
        self.result().is_some()
    }

    /// The running turn's clock in seconds, when the game keeps one now (K7, RD17).
    fn turn_seconds(&self) -> Option<u32>;

    /// Whether the seat's player left the game: their clock ran out twice in a row
    /// (RD17, K7; [`clock::TimeOuts`]). Rebuilt by replaying the log.
    fn has_left(&self, seat: usize) -> bool;

    /// Each seat: whether its player left ([`TableGame::has_left`]).
    fn left(&self) -> Vec<bool>;

    /// Whether a finished round waits for someone to deal the next (K9).
    fn awaits_next_round(&self) -> bool;

    /// Applies a seat's action; a refused action changes nothing. Returns the
    /// canonical form that is stored in the log and replayed after a restart.
    fn apply(&mut self, seat: usize, action: &GameAction) -> Result<GameAction, ActionError>;

    /// The turn clock ran out: the engine's time-out for the seat to act (K7: penalty
    /// tiles; RD17: a Rumis turn passed). Counts towards the seat leaving the game.
    fn time_out(&mut self) -> Result<GameAction, ActionError>;

    /// Deals the next round (K9) for a table of bots only; canonical action.
    fn next_round(&mut self) -> Result<GameAction, ActionError>;

    /// Checks an action for `seat` without playing it (the Rumis client's ghost).
    fn check(&self, _seat: usize, _action: &GameAction) -> Result<(), ActionError> {
        Err(ActionError::NotForThisGame(
            "checking a placement is for Rumis tables".into(),
        ))
    }

    /// The game part of a view for `seat` (`None`: a spectator), naming players by
    /// `names`. `full` adds what never changes during a game (the Rumis stones'
    /// orientations): a connection gets it once, not with every update.
    fn view(&self, seat: Option<usize>, full: bool, names: &[String]) -> GameView;

    /// A registered bot of this game for a seat, to be kept between its moves
    /// ([`SeatBot`]); `seed` fixes its chance.
    fn new_bot(
        &self,
        spec: &str,
        seed: u64,
        bound: play::bots::TreeBound,
    ) -> Result<Box<dyn SeatBot>, String>;

    /// What `seat` plays when its bot keeps failing: a simpler bot's action that the
    /// rules take (a random legal Rumis move; the random Rummikub bot's turn, or a
    /// draw); `None` when it is not the seat's turn.
    fn fallback_action(&self, seat: usize, seed: u64) -> Option<GameAction>;

    /// The game itself, for a kept bot to read its own game's observation.
    fn as_any(&self) -> &dyn Any;

    /// The game as a text record, for download and replay.
    fn record(&self) -> String;

    /// A hint for `seat` (a capability: a game without hints refuses), as work to do
    /// outside the table's lock.
    fn hint(&self, _seat: usize) -> Result<HintJob, ActionError> {
        Err(ActionError::NotForThisGame(
            "this table's game has no hints".into(),
        ))
    }
}

/// The per-game half of a table: its `play` game, and the conversions between that
/// game's actions and views and the wire types. What every game answers alike (whose
/// turn, the result, the clock, the record) is answered once, from
/// [`play::game::Game`], by the implementation of [`TableGame`] for every adapter.
pub trait Adapter: Clone + Send + Sync + 'static {
    type Engine: WithBots;
    const KIND: GameKind;

    fn engine(&self) -> &Self::Engine;

    /// Each seat's time-outs in a row (RD17, K7), kept with the game.
    fn time_outs(&self) -> &clock::TimeOuts;

    fn time_outs_mut(&mut self) -> &mut clock::TimeOuts;

    /// [`TableGame::turn_seconds`]: the engine's clock unless the table keeps its own.
    fn clock_seconds(&self) -> Option<u32> {
        self.engine().turn_clock()
    }

    /// [`TableGame::apply`]: plays the action, answers its canonical form.
    fn apply_wire(&mut self, seat: usize, action: &GameAction) -> Result<GameAction, ActionError>;

    /// [`TableGame::time_out`].
    fn time_out_wire(&mut self) -> Result<GameAction, ActionError>;

    /// [`TableGame::next_round`].
    fn next_round_wire(&mut self) -> Result<GameAction, ActionError>;

    /// [`TableGame::check`].
    fn check_wire(&self, _seat: usize, _action: &GameAction) -> Result<(), ActionError> {
        Err(ActionError::NotForThisGame(
            "checking a placement is for Rumis tables".into(),
        ))
    }

    /// [`TableGame::view`].
    fn view_wire(&self, seat: Option<usize>, full: bool, names: &[String]) -> GameView;

    /// An action of the game as the wire carries it (a bot's, for [`TableGame::bot_action`]).
    fn action_wire(&self, action: &<Self::Engine as Game>::Action) -> GameAction;

    /// [`TableGame::hint`].
    fn hint_job(&self, seat: usize) -> Result<HintJob, ActionError>;

    /// [`TableGame::fallback_action`] for the seat to act.
    fn fallback_wire(&self, seat: usize, seed: u64) -> Option<GameAction>;
}

/// Why a seat's bot gave no action the rules take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotFailure {
    /// The bot answered with an error (or with no action).
    Error(String),
    /// The bot panicked.
    Panic(String),
    /// The rules refused the bot's action.
    Refused(String),
}

impl BotFailure {
    pub fn code(&self) -> crate::wire::BotTroubleCode {
        use crate::wire::BotTroubleCode;
        match self {
            BotFailure::Error(_) => BotTroubleCode::Error,
            BotFailure::Panic(_) => BotTroubleCode::Panic,
            BotFailure::Refused(_) => BotTroubleCode::Refused,
        }
    }
}

impl std::fmt::Display for BotFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BotFailure::Error(e) => write!(f, "the bot failed: {e}"),
            BotFailure::Panic(e) => write!(f, "the bot panicked: {e}"),
            BotFailure::Refused(e) => write!(f, "the rules refused the bot's action: {e}"),
        }
    }
}

/// A seat's bot, kept with its table between the seat's moves (what it learnt, such as
/// an MCTS tree or the solver's cache, carries over), dropped with the table.
pub trait SeatBot: Send {
    /// The registered spec it was built from.
    fn spec(&self) -> &str;

    /// The bot's action for `seat` at `game`, its table's game, from what the seat may
    /// know; the rules have not judged it yet.
    fn act(&mut self, game: &dyn TableGame, seat: usize) -> Result<GameAction, BotFailure>;

    /// Search work carried over from the bot's earlier moves into its last choice.
    fn carried_visits(&self) -> u32;

    /// The actions this bot object chose so far.
    fn moves(&self) -> u32;
}

/// A `play` bot of the adapter's game, kept for a seat.
struct KeptBot<A: Adapter> {
    spec: String,
    bot: Box<dyn Bot<A::Engine>>,
    moves: u32,
}

impl<A: Adapter> SeatBot for KeptBot<A> {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn act(&mut self, game: &dyn TableGame, seat: usize) -> Result<GameAction, BotFailure> {
        let table = game
            .as_any()
            .downcast_ref::<A>()
            .ok_or_else(|| BotFailure::Error("the bot of another game".into()))?;
        let engine = table.engine();
        if engine.to_act() != Some(seat) {
            return Err(BotFailure::Error(format!(
                "it is not seat {}'s turn",
                seat + 1
            )));
        }
        let action = self
            .bot
            .choose(&engine.observe(seat), seat)
            .map_err(|e| BotFailure::Error(e.to_string()))?;
        self.moves += 1;
        Ok(table.action_wire(&action))
    }

    fn carried_visits(&self) -> u32 {
        self.bot.carried_visits()
    }

    fn moves(&self) -> u32 {
        self.moves
    }
}

impl<A: Adapter> TableGame for A {
    fn kind(&self) -> GameKind {
        A::KIND
    }

    fn clone_box(&self) -> Box<dyn TableGame> {
        Box::new(self.clone())
    }

    fn seat_count(&self) -> usize {
        self.engine().seats()
    }

    fn to_move(&self) -> Option<usize> {
        self.engine().to_act()
    }

    fn result(&self) -> Option<GameResult> {
        let outcome = self.engine().outcome()?;
        Some(GameResult {
            winners: outcome.winners,
            scores: outcome.scores.iter().map(|&s| s as i64).collect(),
        })
    }

    fn turn_seconds(&self) -> Option<u32> {
        self.clock_seconds()
    }

    fn has_left(&self, seat: usize) -> bool {
        self.time_outs().has_left(seat)
    }

    fn left(&self) -> Vec<bool> {
        self.time_outs().left().to_vec()
    }

    fn awaits_next_round(&self) -> bool {
        self.engine().awaits_next_round()
    }

    fn apply(&mut self, seat: usize, action: &GameAction) -> Result<GameAction, ActionError> {
        let canonical = self.apply_wire(seat, action)?;
        self.time_outs_mut().acted(seat);
        Ok(canonical)
    }

    fn time_out(&mut self) -> Result<GameAction, ActionError> {
        let seat = self.to_move();
        let canonical = self.time_out_wire()?;
        if let Some(seat) = seat {
            self.time_outs_mut().timed_out(seat);
        }
        Ok(canonical)
    }

    fn next_round(&mut self) -> Result<GameAction, ActionError> {
        self.next_round_wire()
    }

    fn check(&self, seat: usize, action: &GameAction) -> Result<(), ActionError> {
        self.check_wire(seat, action)
    }

    fn view(&self, seat: Option<usize>, full: bool, names: &[String]) -> GameView {
        self.view_wire(seat, full, names)
    }

    fn new_bot(
        &self,
        spec: &str,
        seed: u64,
        bound: play::bots::TreeBound,
    ) -> Result<Box<dyn SeatBot>, String> {
        let bot = A::Engine::bot_within(spec, seed, bound).map_err(|e| e.to_string())?;
        Ok(Box::new(KeptBot::<A> {
            spec: spec.to_string(),
            bot,
            moves: 0,
        }))
    }

    fn fallback_action(&self, seat: usize, seed: u64) -> Option<GameAction> {
        let game = self.engine();
        if game.to_act() != Some(seat) {
            return None;
        }
        self.fallback_wire(seat, seed)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn record(&self) -> String {
        self.engine().record(None)
    }

    fn hint(&self, seat: usize) -> Result<HintJob, ActionError> {
        self.hint_job(seat)
    }
}

impl Clone for Box<dyn TableGame> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// A new game from a table's settings; a bad setting is a specific error.
pub fn new_game(settings: &TableSettings, seed: u64) -> Result<Box<dyn TableGame>, String> {
    match &settings.settings {
        GameSettings::Rumis(rumis) => Ok(Box::new(RumisTable::new(rumis, seed)?)),
        GameSettings::Rummikub(rummikub) => Ok(Box::new(RummikubTable::new(
            rummikub,
            settings.players,
            seed,
        )?)),
    }
}

/// Replays a canonical action from the log: the clock's (`actor` `None`) or a seat's.
pub fn replay_action(
    game: &mut dyn TableGame,
    actor: Option<usize>,
    action: &GameAction,
) -> Result<(), ActionError> {
    match actor {
        None => game.time_out().map(|_| ()),
        Some(seat) if *action == GameAction::Rummikub(RummikubAction::NextRound) => {
            if game.awaits_next_round() {
                game.next_round().map(|_| ())
            } else {
                game.apply(seat, action).map(|_| ())
            }
        }
        Some(seat) => game.apply(seat, action).map(|_| ()),
    }
}

/// The bots a seat can be given: the registry of `play` ([`play::bots::REGISTRY`]).
pub fn bots(game: GameKind) -> impl Iterator<Item = &'static play::bots::BotEntry> {
    play::bots::registered(game)
}

/// Whether `bot` is one of the game's registered bots (exactly as listed: a seat
/// request names a bot by the name the meta endpoint gives).
pub fn is_bot(game: GameKind, bot: &str) -> bool {
    bots(game).any(|b| b.spec == bot)
}

/// The refusal of an action of the other game.
fn other_game(kind: GameKind) -> ActionError {
    ActionError::NotForThisGame(format!(
        "this is a {} table; that action is for the other game",
        kind.name()
    ))
}

/// A player's name for messages: their seat's name, else "player N".
fn name_of(names: &[String], seat: usize) -> String {
    names
        .get(seat)
        .cloned()
        .unwrap_or_else(|| format!("player {}", seat + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::{RumisSettings, RummikubSettings};

    fn action(json: &str) -> GameAction {
        serde_json::from_str(json).unwrap()
    }

    /// An action of the other game is refused for the table (409), whosever turn it is.
    #[test]
    fn an_action_is_checked_against_the_tables_game() {
        let rumis = TableSettings::new(
            GameSettings::Rumis(RumisSettings {
                scenario: "chullpa".into(),
                players: 2,
                variant: "standard".into(),
                turn_seconds: None,
            }),
            2,
        );
        let rummikub = TableSettings::new(GameSettings::Rummikub(RummikubSettings::default()), 2);
        let mut rumis = new_game(&rumis, 7).unwrap();
        let mut rummikub = new_game(&rummikub, 7).unwrap();
        let draw = action(r#"{"type": "draw"}"#);
        let mv = action(r#"{"type": "rumis_move", "move": "L4 a1 b1 c1 a2"}"#);
        for seat in 0..2 {
            assert!(matches!(
                rumis.apply(seat, &draw),
                Err(ActionError::NotForThisGame(_))
            ));
            assert!(matches!(
                rummikub.apply(seat, &mv),
                Err(ActionError::NotForThisGame(_))
            ));
        }
        // Each game's own action is its rules' to judge, and the log keeps its canonical form.
        let first = rumis
            .new_bot("random", 1, Default::default())
            .unwrap()
            .act(&*rumis, 0)
            .unwrap();
        let canonical = rumis.apply(0, &first).unwrap();
        assert_eq!(canonical, first);
        assert!(rummikub.apply(rummikub.to_move().unwrap(), &draw).is_ok());
    }
}
