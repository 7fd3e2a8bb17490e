//! Bots behind the [`Game`] trait, named by a spec as on the command line, and the one
//! registry of them ([`REGISTRY`]) that every front end reads: the terminal's seats,
//! the match runner, the engine protocol, and the server's meta and seat checks.
//!
//! Besides the registered specs, the parser takes parameterised ones for experiments:
//! `mcts:p=N` (playouts) and `mcts:ms=N` (milliseconds) for Rumis, `level:L` (the game's
//! level `L`) for both, and `mcts` / `planner` alone for level 5.
//!
//! A bot chooses from an observation only (its seat's [`Game::observe`]), so a Rummikub
//! bot never sees another rack.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::game::{Game, GameError, GameKind};
use crate::mcts::{Budget, MctsBot, MctsConfig};
use crate::rumis_bots::RumisBot;
use crate::rumis_game::RumisGame;
use crate::rummikub_bots::{greedy_action, keeper_action, PlannerBot, PlannerConfig};
use crate::rummikub_game::RummikubGame;
use rummikub_solver::SolverCache;

/// One bot a seat can be given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BotEntry {
    /// The spec that names it everywhere (`mcts:3`).
    pub spec: &'static str,
    pub game: GameKind,
    /// 1 (beginner) to 5 (expert).
    pub level: u8,
    pub description: &'static str,
}

const fn entry(
    game: GameKind,
    spec: &'static str,
    level: u8,
    description: &'static str,
) -> BotEntry {
    BotEntry {
        spec,
        game,
        level,
        description,
    }
}

/// Every bot of both games, weakest first within a game. Front ends list and accept
/// these; nothing else keeps a list of bots.
pub const REGISTRY: &[BotEntry] = &[
    entry(
        GameKind::Rumis,
        "random",
        1,
        "Beginner: a random legal stone",
    ),
    entry(
        GameKind::Rumis,
        "greedy",
        2,
        "Casual: the best immediate score",
    ),
    entry(
        GameKind::Rumis,
        "mcts:1",
        2,
        "Casual: a short Monte-Carlo search",
    ),
    entry(
        GameKind::Rumis,
        "mcts:2",
        3,
        "Intermediate: Monte-Carlo tree search",
    ),
    entry(
        GameKind::Rumis,
        "mcts:3",
        3,
        "Intermediate: Monte-Carlo tree search",
    ),
    entry(
        GameKind::Rumis,
        "mcts:4",
        4,
        "Advanced: a longer Monte-Carlo search",
    ),
    entry(
        GameKind::Rumis,
        "mcts:5",
        5,
        "Expert: the longest Monte-Carlo search",
    ),
    entry(
        GameKind::Rummikub,
        "random",
        1,
        "Beginner: random sets from its rack",
    ),
    entry(
        GameKind::Rummikub,
        "greedy",
        2,
        "Casual: the exact solver's most tiles every turn",
    ),
    entry(
        GameKind::Rummikub,
        "keeper",
        4,
        "Advanced: greedy, but keeps its jokers",
    ),
    entry(
        GameKind::Rummikub,
        "planner:1",
        1,
        "Beginner: the planner at level 1",
    ),
    entry(
        GameKind::Rummikub,
        "planner:2",
        2,
        "Casual: the planner at level 2",
    ),
    entry(
        GameKind::Rummikub,
        "planner:3",
        3,
        "Intermediate: the planner at level 3",
    ),
    entry(
        GameKind::Rummikub,
        "planner:4",
        4,
        "Advanced: the planner at level 4",
    ),
    entry(
        GameKind::Rummikub,
        "planner:5",
        5,
        "Expert: look-ahead over sampled deals",
    ),
];

/// The registered bots of one game.
pub fn registered(game: GameKind) -> impl Iterator<Item = &'static BotEntry> {
    REGISTRY.iter().filter(move |b| b.game == game)
}

/// The registered bot of `game` named `spec` (case-insensitive), if there is one.
pub fn registered_bot(game: GameKind, spec: &str) -> Option<&'static BotEntry> {
    let spec = spec.trim();
    registered(game).find(|b| b.spec.eq_ignore_ascii_case(spec))
}

/// The registered specs of `game`, comma-separated, for messages.
pub fn registered_specs(game: GameKind) -> String {
    registered(game)
        .map(|b| b.spec)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Something that chooses actions for one seat.
pub trait Bot<G: Game>: Send {
    /// The spec the bot was made from (`mcts:5`).
    fn name(&self) -> String;

    /// An action for `seat`, whose turn it is, from what the seat observes.
    ///
    /// A bot object may be kept for a whole game and asked again on each of its turns
    /// (the match runner and the server's tables do): the observation then shows what
    /// happened since its last choice (a Rumis position holds every move; a Rummikub
    /// view the table, the rack and the other racks' sizes), and what the bot kept (an
    /// MCTS tree, the solver's cache) carries over.
    fn choose(&mut self, observation: &G::Observation, seat: usize)
        -> Result<G::Action, GameError>;

    /// Search work carried over from earlier moves into the last choice (the root
    /// visits of a kept MCTS tree); 0 for bots that keep none.
    fn carried_visits(&self) -> u32 {
        0
    }
}

/// A game whose bots can be named by a spec.
pub trait WithBots: Game {
    /// Which game's bots in the [`REGISTRY`].
    const KIND: GameKind;
    /// The parameterised specs the parser takes besides the registered ones.
    const MORE_SPECS: &'static str;

    /// The bot a spec names; its chance comes from `seed`.
    fn bot(spec: &str, seed: u64) -> Result<Box<dyn Bot<Self>>, GameError> {
        Self::bot_within(spec, seed, TreeBound::default())
    }

    /// [`WithBots::bot`] whose search tree stays within `bound` (a server keeping
    /// many bots between their moves; bots without a tree ignore it).
    fn bot_within(spec: &str, seed: u64, bound: TreeBound)
        -> Result<Box<dyn Bot<Self>>, GameError>;

    /// The spec of level `level` (1–5).
    fn level_spec(level: u8) -> String;
}

/// How big a bot's search tree may grow (MCTS: [`MctsConfig::max_tree_edges`]) and
/// what it keeps between its moves ([`MctsConfig::max_kept_edges`]), in edges of
/// at most [`crate::mcts::BYTES_PER_EDGE`] bytes each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeBound {
    pub search_edges: usize,
    pub kept_edges: usize,
}

impl Default for TreeBound {
    fn default() -> Self {
        TreeBound {
            search_edges: crate::mcts::DEFAULT_MAX_TREE_EDGES,
            kept_edges: crate::mcts::DEFAULT_MAX_KEPT_EDGES,
        }
    }
}

impl TreeBound {
    /// `config` within this bound.
    pub fn apply(&self, config: MctsConfig) -> MctsConfig {
        MctsConfig {
            max_tree_edges: self.search_edges,
            max_kept_edges: self.kept_edges.min(self.search_edges),
            ..config
        }
    }
}

/// Every spec `G` accepts, for help texts and messages.
pub fn accepted_specs<G: WithBots>() -> String {
    accepted_specs_of(G::KIND)
}

/// Every spec `game` accepts.
fn accepted_specs_of(game: GameKind) -> String {
    let more = match game {
        GameKind::Rumis => RumisGame::MORE_SPECS,
        GameKind::Rummikub => RummikubGame::MORE_SPECS,
    };
    format!("{}; also {more}", registered_specs(game))
}

/// An unknown spec, or another game's bot.
fn bad_spec<G: WithBots>(spec: &str) -> GameError {
    GameError::UnknownBot {
        game: G::KIND,
        spec: spec.trim().to_string(),
    }
}

/// [`GameError::UnknownBot`] in words, with what `game` accepts.
pub(crate) fn unknown_bot(game: GameKind, spec: &str) -> String {
    let other = GameKind::ALL.into_iter().find(|&g| g != game);
    let known_elsewhere = other.filter(|&g| registered_bot(g, spec).is_some());
    let what = match known_elsewhere {
        Some(g) => format!(
            "`{spec}` is a {} bot, not a {} one",
            g.title(),
            game.title()
        ),
        None => format!("unknown {} bot `{spec}`", game.name()),
    };
    format!("{what}; use {}", accepted_specs_of(game))
}

/// Reads `L` of `name:L` as a level 1–5.
fn level_of(text: &str) -> Option<u8> {
    text.parse::<u8>().ok().filter(|l| (1..=5).contains(l))
}

struct RumisAdapter {
    spec: String,
    bot: Box<dyn RumisBot + Send>,
}

impl Bot<RumisGame> for RumisAdapter {
    fn name(&self) -> String {
        self.spec.clone()
    }

    fn choose(
        &mut self,
        position: &rumis::Position,
        _seat: usize,
    ) -> Result<rumis::Move, GameError> {
        self.bot.choose(position).ok_or(GameError::GameOver)
    }

    fn carried_visits(&self) -> u32 {
        self.bot.carried_visits()
    }
}

/// A plain Rumis bot as a seat's bot of the game interface (named as the bot names
/// itself).
pub fn rumis_seat(bot: Box<dyn RumisBot + Send>) -> Box<dyn Bot<RumisGame>> {
    Box::new(RumisAdapter {
        spec: bot.name().to_string(),
        bot,
    })
}

/// A bot built anew from its spec for every move, as the server built its bots before
/// it kept them: what a kept bot is measured against. Move `n` gets seed `seed + n`.
pub struct RebuiltEachMove<G> {
    spec: String,
    seed: u64,
    moves: u64,
    game: std::marker::PhantomData<fn() -> G>,
}

impl<G: WithBots> RebuiltEachMove<G> {
    /// Fails as [`WithBots::bot`] does for a bad spec.
    pub fn new(spec: &str, seed: u64) -> Result<RebuiltEachMove<G>, GameError> {
        G::bot(spec, seed)?;
        Ok(RebuiltEachMove {
            spec: spec.to_string(),
            seed,
            moves: 0,
            game: std::marker::PhantomData,
        })
    }
}

impl<G: WithBots> Bot<G> for RebuiltEachMove<G> {
    fn name(&self) -> String {
        format!("{} (rebuilt each move)", self.spec)
    }

    fn choose(
        &mut self,
        observation: &G::Observation,
        seat: usize,
    ) -> Result<G::Action, GameError> {
        let mut bot = G::bot(&self.spec, self.seed.wrapping_add(self.moves))?;
        self.moves += 1;
        bot.choose(observation, seat)
    }
}

/// Reads an MCTS spec after `mcts:`: a level, `p=N` playouts or `ms=N` milliseconds.
pub fn mcts_config(arg: &str) -> Option<MctsConfig> {
    if let Some(level) = level_of(arg) {
        return MctsConfig::level(level);
    }
    let (key, value) = arg.split_once('=')?;
    let n: u64 = value.parse().ok().filter(|&n| n > 0)?;
    let budget = match key {
        "p" | "playouts" => Budget::Playouts(u32::try_from(n).ok()?),
        "ms" => Budget::Millis(n),
        _ => return None,
    };
    Some(MctsConfig::with_budget(budget))
}

impl WithBots for RumisGame {
    const KIND: GameKind = GameKind::Rumis;
    const MORE_SPECS: &'static str =
        "mcts:p=N (playouts), mcts:ms=N (milliseconds), level:1 … level:5";

    fn bot_within(
        spec: &str,
        seed: u64,
        bound: TreeBound,
    ) -> Result<Box<dyn Bot<RumisGame>>, GameError> {
        let lower = spec.trim().to_ascii_lowercase();
        let (head, arg) = lower.split_once(':').unwrap_or((&lower, ""));
        let bot: Box<dyn RumisBot + Send> = match (head, arg) {
            ("random", "") => Box::new(crate::rumis_bots::RandomBot::new(seed)),
            ("greedy", "") => Box::new(crate::rumis_bots::GreedyBot::new(seed)),
            ("mcts", "") => Box::new(MctsBot::new(
                bound.apply(MctsConfig::level(5).expect("level 5")),
                seed,
            )),
            ("mcts", arg) => Box::new(MctsBot::new(
                bound.apply(mcts_config(arg).ok_or_else(|| bad_spec::<RumisGame>(spec))?),
                seed,
            )),
            ("level", arg) => {
                let level = level_of(arg).ok_or_else(|| bad_spec::<RumisGame>(spec))?;
                return RumisGame::bot_within(&RumisGame::level_spec(level), seed, bound);
            }
            _ => return Err(bad_spec::<RumisGame>(spec)),
        };
        Ok(Box::new(RumisAdapter {
            spec: lower.clone(),
            bot,
        }))
    }

    fn level_spec(level: u8) -> String {
        format!("mcts:{level}")
    }
}

struct RummikubRandom {
    rng: ChaCha8Rng,
}

impl Bot<RummikubGame> for RummikubRandom {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(
        &mut self,
        view: &rummikub::PlayerView,
        _seat: usize,
    ) -> Result<rummikub::Action, GameError> {
        Ok(crate::rummikub_random::random_action(view, &mut self.rng))
    }
}

/// A Rummikub bot that is a plain function of the view (greedy, keeper).
struct RummikubPolicy {
    name: &'static str,
    policy: fn(&mut SolverCache, &rummikub::PlayerView) -> rummikub::Action,
    /// The solver's cache, kept from one of the bot's moves to the next.
    cache: SolverCache,
}

impl Bot<RummikubGame> for RummikubPolicy {
    fn name(&self) -> String {
        self.name.into()
    }

    fn choose(
        &mut self,
        view: &rummikub::PlayerView,
        _seat: usize,
    ) -> Result<rummikub::Action, GameError> {
        Ok((self.policy)(&mut self.cache, view))
    }
}

impl Bot<RummikubGame> for PlannerBot {
    fn name(&self) -> String {
        format!("planner:{}", self.config().level)
    }

    fn choose(
        &mut self,
        view: &rummikub::PlayerView,
        _seat: usize,
    ) -> Result<rummikub::Action, GameError> {
        Ok(self.act(view))
    }
}

impl WithBots for RummikubGame {
    const KIND: GameKind = GameKind::Rummikub;
    const MORE_SPECS: &'static str = "level:1 … level:5";

    fn bot_within(
        spec: &str,
        seed: u64,
        _bound: TreeBound,
    ) -> Result<Box<dyn Bot<RummikubGame>>, GameError> {
        let lower = spec.trim().to_ascii_lowercase();
        let (head, arg) = lower.split_once(':').unwrap_or((&lower, ""));
        Ok(match (head, arg) {
            ("random", "") => Box::new(RummikubRandom {
                rng: ChaCha8Rng::seed_from_u64(seed),
            }),
            ("greedy", "") => Box::new(RummikubPolicy {
                name: "greedy",
                policy: greedy_action,
                cache: SolverCache::new(),
            }),
            ("keeper", "") => Box::new(RummikubPolicy {
                name: "keeper",
                policy: keeper_action,
                cache: SolverCache::new(),
            }),
            ("planner", "") => Box::new(PlannerBot::new(PlannerConfig::level(5), seed)),
            ("planner", arg) | ("level", arg) => {
                let level = level_of(arg).ok_or_else(|| bad_spec::<RummikubGame>(spec))?;
                Box::new(PlannerBot::new(PlannerConfig::level(level), seed))
            }
            _ => return Err(bad_spec::<RummikubGame>(spec)),
        })
    }

    fn level_spec(level: u8) -> String {
        format!("planner:{level}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The registry and the parser agree: every listed bot builds under its own game,
    /// answers to its spec, and each game's levels are listed.
    #[test]
    fn every_registered_bot_builds_and_keeps_its_name() {
        fn check<G: WithBots>() {
            for entry in registered(G::KIND) {
                let bot = G::bot(entry.spec, 1).expect(entry.spec);
                assert_eq!(bot.name(), entry.spec);
                assert!((1..=5).contains(&entry.level));
            }
            for level in 1..=5 {
                assert!(registered_bot(G::KIND, &G::level_spec(level)).is_some());
            }
        }
        check::<RumisGame>();
        check::<RummikubGame>();
    }

    #[test]
    fn a_wrong_spec_names_what_is_accepted() {
        let err = RummikubGame::bot("mcts:2", 0).err().unwrap().to_string();
        assert_eq!(
            err,
            "`mcts:2` is a Rumis bot, not a Rummikub one; use random, greedy, keeper, \
             planner:1, planner:2, planner:3, planner:4, planner:5; also level:1 … level:5"
        );
        let err = RumisGame::bot("mcts:9", 0).err().unwrap().to_string();
        assert!(err.starts_with("unknown rumis bot `mcts:9`; use random, greedy, mcts:1"));
    }
}
