//! The games a table can hold: [`TableGame`], one variant per game, that the hub
//! drives through methods answering alike for both. Each game's adapter sits on the
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

use play::bots::{Bot, WithBots};
use play::game::{Game, GameError};
use play::rumis_game::RumisError;
use play::rummikub_game::RummikubError;
use serde::{Deserialize, Serialize};

pub use rumis_table::{orientations_of, suggestion, suggestions, RumisTable};
pub use rummikub_table::{play_of, RummikubTable};

pub use crate::wire::GameView;
use crate::wire::{
    ErrorCode, GameAction, GameKind, GameSettings, HintAnswer, Reason, RummikubAction,
    TableSettings,
};

/// Why a seat's action was refused, as data: the text for the person who sent it is
/// its `Display`, the key for programs and translations [`ActionError::code`] (and
/// [`ActionError::why`] for a refusal of the rules).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ActionError {
    /// It is not this seat's turn (HTTP 409).
    #[error(transparent)]
    OutOfTurn(#[from] OutOfTurn),
    /// The game is not where it takes this action (HTTP 409).
    #[error(transparent)]
    Illegal(#[from] Illegal),
    /// The rules forbid it: the engine's refusal, with its reason as a key (HTTP 409).
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// The table's game has no such request (HTTP 409).
    #[error(transparent)]
    NotForThisGame(#[from] NotForThisGame),
}

impl ActionError {
    /// The error's key on the wire.
    pub fn code(&self) -> ErrorCode {
        match self {
            ActionError::OutOfTurn(_) => ErrorCode::OutOfTurn,
            ActionError::Illegal(_) | ActionError::Refused(_) => ErrorCode::Illegal,
            ActionError::NotForThisGame(_) => ErrorCode::NotForThisGame,
        }
    }

    /// The engine's reason as a key with parameters, for a refusal of the rules.
    pub fn why(&self) -> Option<Reason> {
        match self {
            ActionError::Refused(refusal) => Some(refusal.reason()),
            _ => None,
        }
    }
}

/// Whose turn it is not (seats are 0-based; the text counts players from 1).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OutOfTurn {
    #[error("there is no player {} at this table", .seat + 1)]
    NoSuchSeat { seat: usize },
    #[error("it is player {}'s turn, not player {}'s", .to_move + 1, .seat + 1)]
    NotYourTurn { seat: usize, to_move: usize },
    #[error("it is player {}'s turn: a hint is for the player to move", .to_move + 1)]
    HintForMover { to_move: usize },
}

/// Why the game does not take an action now, where no rule of the engine refused it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    #[error("the game is over")]
    GameOver,
    #[error("the round is over: there is nothing to play")]
    RoundOver,
    /// R16: a stone taken off is named with the cells it stands on.
    #[error("your {} does not stand on those cells", .0.code())]
    NotWhereItStands(rumis::Stone),
    #[error("this table has no turn clock")]
    NoClock,
    #[error("no turn is running")]
    NoTurn,
    #[error("no placement to play")]
    NoPlacement,
    /// K7: a time-out is the server clock's action.
    #[error("only the server's clock can time a turn out (K7)")]
    ClockOnly,
    #[error("this position is too large for the exact solver ({0} states)")]
    TooLarge(usize),
    #[error("no hint: {0}")]
    NoHint(rummikub_solver::SolveError),
    /// The Rumis game's own refusal that is no rule's (one round only, …).
    #[error(transparent)]
    Rumis(RumisError),
    /// The Rummikub game's own refusal that is no rule's (the round still runs, …).
    #[error(transparent)]
    Rummikub(RummikubError),
}

/// A refusal of an engine's rules: the engine's own error, whose `Display` is the
/// message and whose reason as a key is made by [`reasons`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// R1–R16.
    #[error(transparent)]
    Rumis(rumis::rules::Illegal),
    /// K1–K10.
    #[error(transparent)]
    Rummikub(rummikub::round::TurnError),
}

impl Refusal {
    /// The refusal as a key with parameters, for the client's "Why?".
    pub fn reason(&self) -> Reason {
        match self {
            Refusal::Rumis(e) => reasons::rumis(e),
            Refusal::Rummikub(e) => reasons::rummikub(e),
        }
    }
}

/// A request the table's game does not have.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotForThisGame {
    #[error("checking a placement is for Rumis tables")]
    Check,
    /// An action of the other game.
    #[error("this is a {} table; that action is for the other game", .0.name())]
    OtherGame(GameKind),
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

/// A game in progress at a table, as the hub drives it: one of the two games, so that
/// each question is an exhaustive `match` and each game's own table is at hand.
#[derive(Clone)]
pub enum TableGame {
    Rumis(RumisTable),
    Rummikub(RummikubTable),
}

/// `$body` with `$table` bound to the game's adapter, for either game.
macro_rules! each {
    ($game:expr, $table:ident => $body:expr) => {
        match $game {
            TableGame::Rumis($table) => $body,
            TableGame::Rummikub($table) => $body,
        }
    };
}

impl TableGame {
    pub fn kind(&self) -> GameKind {
        match self {
            TableGame::Rumis(_) => GameKind::Rumis,
            TableGame::Rummikub(_) => GameKind::Rummikub,
        }
    }

    /// The Rumis game, if it is one.
    pub fn rumis(&self) -> Option<&RumisTable> {
        match self {
            TableGame::Rumis(table) => Some(table),
            TableGame::Rummikub(_) => None,
        }
    }

    /// The Rummikub game, if it is one.
    pub fn rummikub(&self) -> Option<&RummikubTable> {
        match self {
            TableGame::Rummikub(table) => Some(table),
            TableGame::Rumis(_) => None,
        }
    }

    pub fn seat_count(&self) -> usize {
        each!(self, t => t.seat_count())
    }

    /// The seat whose turn it is; `None` when nobody is to act (game or round over).
    pub fn to_move(&self) -> Option<usize> {
        each!(self, t => t.to_move())
    }

    pub fn result(&self) -> Option<GameResult> {
        each!(self, t => t.result())
    }

    pub fn is_over(&self) -> bool {
        self.result().is_some()
    }

    /// The running turn's clock in seconds, when the game keeps one now (K7, RD17).
    pub fn turn_seconds(&self) -> Option<u32> {
        each!(self, t => t.clock_seconds())
    }

    /// Whether the seat's player left the game: their clock ran out twice in a row
    /// (RD17, K7; [`clock::TimeOuts`]). Rebuilt by replaying the log.
    pub fn has_left(&self, seat: usize) -> bool {
        each!(self, t => t.time_outs().has_left(seat))
    }

    /// Each seat: whether its player left ([`TableGame::has_left`]).
    pub fn left(&self) -> Vec<bool> {
        each!(self, t => t.time_outs().left().to_vec())
    }

    /// Whether a finished round waits for someone to deal the next (K9).
    pub fn awaits_next_round(&self) -> bool {
        each!(self, t => t.engine().awaits_next_round())
    }

    /// Applies a seat's action; a refused action changes nothing. Returns the
    /// canonical form that is stored in the log and replayed after a restart.
    pub fn apply(&mut self, seat: usize, action: &GameAction) -> Result<GameAction, ActionError> {
        each!(self, t => t.apply(seat, action))
    }

    /// The turn clock ran out: the engine's time-out for the seat to act (K7: penalty
    /// tiles; RD17: a Rumis turn passed). Counts towards the seat leaving the game.
    pub fn time_out(&mut self) -> Result<GameAction, ActionError> {
        each!(self, t => t.time_out())
    }

    /// Deals the next round (K9) for a table of bots only; canonical action.
    pub fn next_round(&mut self) -> Result<GameAction, ActionError> {
        each!(self, t => t.next_round_wire())
    }

    /// Checks an action for `seat` without playing it (the Rumis client's ghost).
    pub fn check(&self, seat: usize, action: &GameAction) -> Result<(), ActionError> {
        match self {
            TableGame::Rumis(table) => table.check(seat, action),
            TableGame::Rummikub(_) => Err(NotForThisGame::Check.into()),
        }
    }

    /// The game part of a view for `seat` (`None`: a spectator), naming players by
    /// `names`. `full` adds what never changes during a game (the Rumis stones'
    /// orientations): a connection gets it once, not with every update.
    pub fn view(&self, seat: Option<usize>, full: bool, names: &[String]) -> GameView {
        each!(self, t => t.view_wire(seat, full, names))
    }

    /// A registered bot of this game for a seat, to be kept between its moves
    /// ([`SeatBot`]); `seed` fixes its chance.
    pub fn new_bot(
        &self,
        spec: &str,
        seed: u64,
        bound: play::bots::TreeBound,
    ) -> Result<SeatBot, GameError> {
        Ok(match self {
            TableGame::Rumis(_) => SeatBot::Rumis(KeptBot::new(spec, seed, bound)?),
            TableGame::Rummikub(_) => SeatBot::Rummikub(KeptBot::new(spec, seed, bound)?),
        })
    }

    /// What `seat` plays when its bot keeps failing: a simpler bot's action that the
    /// rules take (a random legal Rumis move; the random Rummikub bot's turn, or a
    /// draw); `None` when it is not the seat's turn.
    pub fn fallback_action(&self, seat: usize, seed: u64) -> Option<GameAction> {
        if self.to_move() != Some(seat) {
            return None;
        }
        each!(self, t => t.fallback_wire(seat, seed))
    }

    /// The game as a text record, for download and replay.
    pub fn record(&self) -> String {
        each!(self, t => t.engine().record(None))
    }

    /// A hint for `seat`, as work to do outside the table's lock.
    pub fn hint(&self, seat: usize) -> Result<HintJob, ActionError> {
        each!(self, t => t.hint_job(seat))
    }
}

/// The per-game half of a table: its `play` game, and the conversions between that
/// game's actions and views and the wire types. What every game answers alike (whose
/// turn, the result, the clock, the record) is answered once, from
/// [`play::game::Game`], by the provided methods.
pub trait Adapter: Clone + Send + Sync + 'static {
    type Engine: WithBots;

    fn engine(&self) -> &Self::Engine;

    /// Each seat's time-outs in a row (RD17, K7), kept with the game.
    fn time_outs(&self) -> &clock::TimeOuts;

    fn time_outs_mut(&mut self) -> &mut clock::TimeOuts;

    /// [`TableGame::turn_seconds`]: the engine's clock unless the table keeps its own.
    fn clock_seconds(&self) -> Option<u32> {
        self.engine().turn_clock()
    }

    /// Plays the action, answers its canonical form ([`Adapter::apply`] also counts
    /// the seat's time-outs).
    fn apply_wire(&mut self, seat: usize, action: &GameAction) -> Result<GameAction, ActionError>;

    /// The engine's time-out ([`Adapter::time_out`] also counts it).
    fn time_out_wire(&mut self) -> Result<GameAction, ActionError>;

    /// [`TableGame::next_round`].
    fn next_round_wire(&mut self) -> Result<GameAction, ActionError>;

    /// [`TableGame::view`].
    fn view_wire(&self, seat: Option<usize>, full: bool, names: &[String]) -> GameView;

    /// An action of the game as the wire carries it (a bot's, for [`SeatBot::act`]).
    fn action_wire(&self, action: &<Self::Engine as Game>::Action) -> GameAction;

    /// [`TableGame::hint`].
    fn hint_job(&self, seat: usize) -> Result<HintJob, ActionError>;

    /// [`TableGame::fallback_action`] for the seat to act.
    fn fallback_wire(&self, seat: usize, seed: u64) -> Option<GameAction>;

    fn seat_count(&self) -> usize {
        self.engine().seats()
    }

    /// [`TableGame::to_move`].
    fn to_move(&self) -> Option<usize> {
        self.engine().to_act()
    }

    /// [`TableGame::result`].
    fn result(&self) -> Option<GameResult> {
        let outcome = self.engine().outcome()?;
        Some(GameResult {
            winners: outcome.winners,
            scores: outcome.scores.iter().map(|&s| s as i64).collect(),
        })
    }

    /// [`TableGame::apply`].
    fn apply(&mut self, seat: usize, action: &GameAction) -> Result<GameAction, ActionError> {
        let canonical = self.apply_wire(seat, action)?;
        self.time_outs_mut().acted(seat);
        Ok(canonical)
    }

    /// [`TableGame::time_out`].
    fn time_out(&mut self) -> Result<GameAction, ActionError> {
        let seat = self.to_move();
        let canonical = self.time_out_wire()?;
        if let Some(seat) = seat {
            self.time_outs_mut().timed_out(seat);
        }
        Ok(canonical)
    }
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
pub enum SeatBot {
    Rumis(KeptBot<RumisTable>),
    Rummikub(KeptBot<RummikubTable>),
}

impl SeatBot {
    /// The registered spec it was built from.
    pub fn spec(&self) -> &str {
        match self {
            SeatBot::Rumis(bot) => &bot.spec,
            SeatBot::Rummikub(bot) => &bot.spec,
        }
    }

    /// The bot's action for `seat` at `game`, its table's game, from what the seat may
    /// know; the rules have not judged it yet.
    pub fn act(&mut self, game: &TableGame, seat: usize) -> Result<GameAction, BotFailure> {
        match (self, game) {
            (SeatBot::Rumis(bot), TableGame::Rumis(table)) => bot.act(table, seat),
            (SeatBot::Rummikub(bot), TableGame::Rummikub(table)) => bot.act(table, seat),
            _ => Err(BotFailure::Error("the bot of another game".into())),
        }
    }

    /// Search work carried over from the bot's earlier moves into its last choice.
    pub fn carried_visits(&self) -> u32 {
        match self {
            SeatBot::Rumis(bot) => bot.bot.carried_visits(),
            SeatBot::Rummikub(bot) => bot.bot.carried_visits(),
        }
    }

    /// The actions this bot object chose so far.
    pub fn moves(&self) -> u32 {
        match self {
            SeatBot::Rumis(bot) => bot.moves,
            SeatBot::Rummikub(bot) => bot.moves,
        }
    }
}

/// A `play` bot of the adapter's game, kept for a seat.
pub struct KeptBot<A: Adapter> {
    spec: String,
    bot: Box<dyn Bot<A::Engine>>,
    moves: u32,
}

impl<A: Adapter> KeptBot<A> {
    fn new(spec: &str, seed: u64, bound: play::bots::TreeBound) -> Result<Self, GameError> {
        Ok(KeptBot {
            spec: spec.to_string(),
            bot: A::Engine::bot_within(spec, seed, bound)?,
            moves: 0,
        })
    }

    fn act(&mut self, table: &A, seat: usize) -> Result<GameAction, BotFailure> {
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
}

/// A new game from a table's settings; a bad setting is a specific error.
pub fn new_game(settings: &TableSettings, seed: u64) -> Result<TableGame, String> {
    match &settings.settings {
        GameSettings::Rumis(rumis) => Ok(TableGame::Rumis(RumisTable::new(rumis, seed)?)),
        GameSettings::Rummikub(rummikub) => Ok(TableGame::Rummikub(RummikubTable::new(
            rummikub,
            settings.players,
            seed,
        )?)),
    }
}

/// Replays a canonical action from the log: the clock's (`actor` `None`) or a seat's.
pub fn replay_action(
    game: &mut TableGame,
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
            .act(&rumis, 0)
            .unwrap();
        let canonical = rumis.apply(0, &first).unwrap();
        assert_eq!(canonical, first);
        assert!(rummikub.apply(rummikub.to_move().unwrap(), &draw).is_ok());
    }

    /// A refused action reaches its sender as a code with a message said from it, and a
    /// refusal of the rules with the engine's own message and its reason as a key.
    #[test]
    fn a_refusal_is_said_from_its_kind() {
        use crate::error::{ApiError, ErrorKind};
        let settings = TableSettings::new(
            GameSettings::Rumis(RumisSettings {
                scenario: "chullpa".into(),
                players: 2,
                variant: "standard".into(),
                turn_seconds: None,
            }),
            2,
        );
        let mut game = new_game(&settings, 7).unwrap();
        let first = game
            .new_bot("greedy", 1, Default::default())
            .unwrap()
            .act(&game, 0)
            .unwrap();
        game.apply(0, &first).unwrap();

        let again = ApiError::from(game.apply(0, &first).unwrap_err());
        assert_eq!(
            (again.kind, again.code, again.message.as_str(), again.why),
            (
                ErrorKind::Conflict,
                ErrorCode::OutOfTurn,
                "it is player 2's turn, not player 1's",
                None
            )
        );

        // The second player cannot put a stone on the first one's cells (R1).
        let refused = game.apply(1, &first).unwrap_err();
        let ActionError::Refused(Refusal::Rumis(engine)) = &refused else {
            panic!("not the engine's refusal: {refused:?}");
        };
        let said = ApiError::from(refused.clone());
        assert_eq!(
            (said.kind, said.code),
            (ErrorKind::Conflict, ErrorCode::Illegal)
        );
        assert_eq!(said.message, engine.to_string());
        let why = said.why.expect("the engine's reason");
        assert_eq!(why, reasons::rumis(engine));
        assert!(why.rule.is_some_and(|rule| rule.starts_with('R')));

        // A bot spec of the other game is a typed error that names what is accepted.
        let Err(e) = game.new_bot("planner:2", 1, Default::default()) else {
            panic!("a Rummikub bot at a Rumis table");
        };
        assert_eq!(
            e,
            GameError::UnknownBot {
                game: GameKind::Rumis,
                spec: "planner:2".into()
            }
        );
        assert!(e
            .to_string()
            .starts_with("`planner:2` is a Rummikub bot, not a Rumis one; use random"));
    }
}
