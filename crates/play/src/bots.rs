//! Bots behind the [`Game`] trait, named by a spec as on the command line:
//!
//! | game | spec | bot |
//! | --- | --- | --- |
//! | both | `random` | a uniformly random legal action (Rummikub: the engine's random bot) |
//! | both | `greedy` | Rumis: best immediate score; Rummikub: the solver's most tiles |
//! | rumis | `mcts:L` (`L` = 1–5), `mcts:p=N`, `mcts:ms=N` | Monte-Carlo tree search ([`crate::mcts`]) |
//! | rummikub | `keeper` | greedy, keeping its jokers until they let it go out |
//! | rummikub | `planner:L` (`L` = 1–5) | the planning bot ([`crate::rummikub_bots`]) |
//! | both | `level:L` | the game's level `L` (1–5) |
//!
//! A bot chooses from an observation only (its seat's [`Game::observe`]), so a Rummikub
//! bot never sees another rack.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::game::{Game, GameError};
use crate::mcts::{Budget, MctsBot, MctsConfig};
use crate::rumis_bots::RumisBot;
use crate::rumis_game::RumisGame;
use crate::rummikub_bots::{greedy_action, keeper_action, PlannerBot, PlannerConfig};
use crate::rummikub_game::RummikubGame;

/// Something that chooses actions for one seat.
pub trait Bot<G: Game>: Send {
    /// The spec the bot was made from (`mcts:5`).
    fn name(&self) -> String;

    /// An action for `seat`, whose turn it is, from what the seat observes.
    fn choose(&mut self, observation: &G::Observation, seat: usize)
        -> Result<G::Action, GameError>;
}

/// A game whose bots can be named by a spec.
pub trait WithBots: Game {
    /// The specs this game's bots answer to, for help texts.
    const BOT_SPECS: &'static str;

    /// The bot a spec names; its chance comes from `seed`.
    fn bot(spec: &str, seed: u64) -> Result<Box<dyn Bot<Self>>, GameError>;

    /// The spec of level `level` (1–5).
    fn level_spec(level: u8) -> String;
}

fn bad_spec<G: WithBots>(spec: &str) -> GameError {
    GameError::new(format!(
        "unknown {} bot `{spec}`; use {}",
        G::NAME,
        G::BOT_SPECS
    ))
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
        self.bot
            .choose(position)
            .ok_or_else(|| GameError::new("the game is over"))
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
    const BOT_SPECS: &'static str =
        "random, greedy, mcts:1 … mcts:5 (levels), mcts:p=N (playouts), mcts:ms=N (milliseconds), level:1 … level:5";

    fn bot(spec: &str, seed: u64) -> Result<Box<dyn Bot<RumisGame>>, GameError> {
        let lower = spec.trim().to_ascii_lowercase();
        let (head, arg) = lower.split_once(':').unwrap_or((&lower, ""));
        let bot: Box<dyn RumisBot + Send> = match (head, arg) {
            ("random", "") => Box::new(crate::rumis_bots::RandomBot::new(seed)),
            ("greedy", "") => Box::new(crate::rumis_bots::GreedyBot::new(seed)),
            ("mcts", "") => Box::new(MctsBot::new(MctsConfig::level(5).expect("level 5"), seed)),
            ("mcts", arg) => Box::new(MctsBot::new(
                mcts_config(arg).ok_or_else(|| bad_spec::<RumisGame>(spec))?,
                seed,
            )),
            ("level", arg) => {
                let level = level_of(arg).ok_or_else(|| bad_spec::<RumisGame>(spec))?;
                return RumisGame::bot(&RumisGame::level_spec(level), seed);
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
        Ok(rummikub::bot::random_bot_action(view, &mut self.rng))
    }
}

/// A Rummikub bot that is a plain function of the view (greedy, keeper).
struct RummikubPolicy {
    name: &'static str,
    policy: fn(&rummikub::PlayerView) -> rummikub::Action,
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
        Ok((self.policy)(view))
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
    const BOT_SPECS: &'static str =
        "random, greedy, keeper, planner:1 … planner:5 (levels), level:1 … level:5";

    fn bot(spec: &str, seed: u64) -> Result<Box<dyn Bot<RummikubGame>>, GameError> {
        let lower = spec.trim().to_ascii_lowercase();
        let (head, arg) = lower.split_once(':').unwrap_or((&lower, ""));
        Ok(match (head, arg) {
            ("random", "") => Box::new(RummikubRandom {
                rng: ChaCha8Rng::seed_from_u64(seed),
            }),
            ("greedy", "") => Box::new(RummikubPolicy {
                name: "greedy",
                policy: greedy_action,
            }),
            ("keeper", "") => Box::new(RummikubPolicy {
                name: "keeper",
                policy: keeper_action,
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
