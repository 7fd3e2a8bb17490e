//! The engine text protocol (in the spirit of GTP and UCI): one command a line in, one
//! response out. A response's first line starts with `= ` (done) or `? ` (refused, with
//! the reason); lines after it carry lists; an empty line ends every response.
//! See `docs/engine-protocol.md`. [`Engine::handle`] is pure: the `rumi engine` command
//! only moves lines between it and stdin/stdout.

use rumis::record::Record;
use rumis::Scenario;

use crate::bots::{Bot, WithBots};
use crate::game::{Game, GameError};
use crate::mcts::{analyse, MctsConfig};
use crate::rumis_game::{RumisConfig, RumisGame};
use crate::rummikub_game::{RummikubConfig, RummikubGame};

/// Version of the protocol, answered to `protocol`.
pub const PROTOCOL_VERSION: u32 = 1;

/// The bot that answers `genmove`: its spec, and the bot itself once made. The bot stays
/// from one move to the next (an MCTS bot keeps its tree; a view's bot its chance).
struct BotSlot<G: WithBots> {
    spec: String,
    seed: u64,
    bot: Option<Box<dyn Bot<G>>>,
}

impl<G: WithBots> BotSlot<G> {
    fn new(spec: String, seed: u64) -> BotSlot<G> {
        BotSlot {
            spec,
            seed,
            bot: None,
        }
    }

    /// `bot SPEC`: checked now, made at the next `genmove`.
    fn set(&mut self, spec: &str) -> Result<(), GameError> {
        G::bot(spec, self.seed)?;
        self.spec = spec.to_string();
        self.bot = None;
        Ok(())
    }

    /// The action of the bot named by `spec` (else the current one) for `seat`.
    fn choose(
        &mut self,
        spec: Option<&str>,
        observation: &G::Observation,
        seat: usize,
    ) -> Result<G::Action, GameError> {
        if let Some(spec) = spec.filter(|&s| s != self.spec) {
            self.spec = spec.to_string();
            self.bot = None;
        }
        let bot = match &mut self.bot {
            Some(bot) => bot,
            empty => empty.insert(G::bot(&self.spec, self.seed)?),
        };
        bot.choose(observation, seat)
    }
}

/// What the engine holds: a game with its bot ([`Session`]) or a Rummikub seat's view
/// ([`ViewSession`]). Each answer is a whole response; what needs a game is refused by
/// default, as a view answers (it has no game behind it).
trait Held: Send {
    fn set_bot(&mut self, spec: &str) -> String;
    fn genmove(&mut self, spec: Option<&str>) -> String;

    fn state(&self) -> String {
        refuse(NO_GAME_BEHIND_A_VIEW)
    }

    fn moves(&self) -> String {
        refuse(NO_GAME_BEHIND_A_VIEW)
    }

    fn play(&mut self, _text: &str) -> String {
        refuse(NO_GAME_BEHIND_A_VIEW)
    }

    fn record(&self) -> String {
        refuse(NO_GAME_BEHIND_A_VIEW)
    }

    fn analyse(&self, _args: &[&str]) -> String {
        refuse(NO_GAME_BEHIND_A_VIEW)
    }

    /// A Rummikub view's bot, to keep when the next view comes.
    fn into_view_bot(self: Box<Self>) -> Option<BotSlot<RummikubGame>> {
        None
    }
}

/// A game in progress with the bot that answers `genmove` for it.
struct Session<G: WithBots> {
    game: G,
    seed: u64,
    bot: BotSlot<G>,
}

/// A Rummikub seat's view sent by `setview` (no game behind it): `genmove` answers for
/// that seat, nothing is played.
struct ViewSession {
    view: rummikub::PlayerView,
    bot: BotSlot<RummikubGame>,
}

const NO_GAME_BEHIND_A_VIEW: &str = "a view has no game behind it: only `genmove` and `bot` answer (start a game with `newgame` or `setrecord`)";

impl Held for ViewSession {
    fn set_bot(&mut self, spec: &str) -> String {
        answer(self.bot.set(spec).map(|_| String::new()))
    }

    fn genmove(&mut self, spec: Option<&str>) -> String {
        let chosen = self.bot.choose(spec, &self.view, self.view.player);
        answer(chosen.map(|action| rummikub::record::format_action(&action)))
    }

    fn into_view_bot(self: Box<Self>) -> Option<BotSlot<RummikubGame>> {
        Some(self.bot)
    }
}

/// What the lines after `setrecord` or `setview` are, until `end`.
enum Reading {
    Record(Vec<String>),
    View(Vec<String>),
}

/// The protocol's state: the game, the bot, and a record being read.
pub struct Engine {
    current: Option<Box<dyn Held>>,
    /// Lines of a record or view being read, until `end`.
    reading: Option<Reading>,
    /// Set by `quit`.
    pub quit: bool,
    /// The bot `genmove` uses in a new game, when one was chosen for the engine.
    default_bot: Option<String>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

fn ok(text: impl AsRef<str>) -> String {
    let text = text.as_ref();
    if text.is_empty() {
        "=\n\n".to_string()
    } else {
        format!("= {text}\n\n")
    }
}

fn refuse(text: impl std::fmt::Display) -> String {
    format!("? {text}\n\n")
}

fn answer(result: Result<String, GameError>) -> String {
    match result {
        Ok(text) => ok(text),
        Err(e) => refuse(e),
    }
}

const HELP: &str = "commands:
protocol | name | help | quit
newgame rumis [scenario=KEY] [players=N] [variant=NAME] [seed=N]
newgame rummikub [players=N] [rules=current|old] [seed=N]
setrecord   (then the record's lines, then a line `end`)
setview     (then a Rummikub seat's view as key: value lines, then `end`; genmove answers for it)
state | record | moves
play ACTION
bot SPEC    (the bot that answers genmove, e.g. mcts:5, planner:4, greedy)
genmove [SPEC]
analyse [COUNT] [SPEC]   (Rumis: best moves with win chances)";

/// Reads `key=value` words into pairs, refusing anything else.
fn options(words: &[&str]) -> Result<Vec<(String, String)>, String> {
    words
        .iter()
        .map(|w| {
            w.split_once('=')
                .map(|(k, v)| (k.to_ascii_lowercase(), v.to_string()))
                .ok_or_else(|| format!("expected key=value, got `{w}`"))
        })
        .collect()
}

fn number<T: std::str::FromStr>(key: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("`{key}` must be a whole number, not `{value}`"))
}

impl<G: WithBots> Session<G> {
    fn new(config: G::Config, seed: u64, bot_spec: String) -> Result<Session<G>, String> {
        let game = G::start(&config, seed).map_err(|e| e.to_string())?;
        Ok(Session {
            game,
            seed,
            bot: BotSlot::new(bot_spec, seed),
        })
    }
}

impl<G: Analysed> Held for Session<G> {
    fn state(&self) -> String {
        match (self.game.to_act(), self.game.outcome()) {
            (_, Some(outcome)) => {
                let scores: Vec<String> = outcome.scores.iter().map(|s| s.to_string()).collect();
                let winners: Vec<String> = outcome
                    .winners
                    .iter()
                    .map(|w| (w + 1).to_string())
                    .collect();
                ok(format!(
                    "over scores={} winners={}",
                    scores.join(","),
                    winners.join(",")
                ))
            }
            (Some(seat), None) => ok(format!("to_act={}", seat + 1)),
            (None, None) => ok("waiting"),
        }
    }

    fn moves(&self) -> String {
        match self.game.legal_actions() {
            Some(actions) => {
                let mut text = format!("= {}\n", actions.len());
                for a in &actions {
                    text.push_str(&self.game.format_action(a));
                    text.push('\n');
                }
                text.push('\n');
                text
            }
            None => refuse(format!(
                "{} actions are too many to list: send one with `play` and the engine checks it",
                G::NAME
            )),
        }
    }

    fn play(&mut self, text: &str) -> String {
        let Some(seat) = self.game.to_act() else {
            return refuse("the game is over");
        };
        let result = self
            .game
            .parse_action(text)
            .and_then(|a| self.game.apply(seat, &a));
        answer(result.map(|_| String::new()).map_err(GameError::of))
    }

    fn set_bot(&mut self, spec: &str) -> String {
        answer(self.bot.set(spec).map(|_| String::new()))
    }

    fn genmove(&mut self, spec: Option<&str>) -> String {
        let Some(seat) = self.game.to_act() else {
            return refuse("the game is over");
        };
        let observation = self.game.observe(seat);
        let chosen = self.bot.choose(spec, &observation, seat).and_then(|a| {
            let text = self.game.format_action(&a);
            self.game
                .apply(seat, &a)
                .map(|_| text)
                .map_err(GameError::of)
        });
        answer(chosen)
    }

    /// The record without its empty lines (an empty line ends a response; records
    /// read back without them).
    fn record(&self) -> String {
        let record = self.game.record(None);
        let lines: Vec<&str> = record.lines().filter(|l| !l.trim().is_empty()).collect();
        format!("=\n{}\n\n", lines.join("\n"))
    }

    fn analyse(&self, args: &[&str]) -> String {
        self.game.analysis(args, self.seed)
    }
}

/// A game's answer to `analyse`: the best moves with win chances where the game has a
/// search to ask (Rumis), a refusal otherwise.
trait Analysed: WithBots {
    fn analysis(&self, _args: &[&str], _seed: u64) -> String {
        refuse(format!(
            "analysis is for Rumis games, not {}: start one with `newgame rumis`",
            Self::KIND.title()
        ))
    }
}

impl Analysed for RummikubGame {}

impl Analysed for RumisGame {
    fn analysis(&self, args: &[&str], seed: u64) -> String {
        let mut count = 3usize;
        let mut spec = "mcts:5".to_string();
        for a in args {
            match a.parse::<usize>() {
                Ok(n) if n > 0 => count = n,
                _ => spec = a.to_string(),
            }
        }
        let Some(config) = spec
            .strip_prefix("mcts:")
            .and_then(crate::bots::mcts_config)
        else {
            return refuse(format!(
                "analysis takes an mcts spec (mcts:5, mcts:p=N, mcts:ms=N), not `{spec}`"
            ));
        };
        if self.position.is_over() {
            return refuse("the game is over");
        }
        let lines = analyse_lines(&self.position, config, seed, count);
        format!("= {}\n{}\n\n", lines.len(), lines.join("\n"))
    }
}

impl Engine {
    pub fn new() -> Engine {
        Engine {
            current: None,
            reading: None,
            quit: false,
            default_bot: None,
        }
    }

    /// An engine whose `genmove` uses `spec` in every new game (until `bot` changes it).
    pub fn with_bot(spec: &str) -> Engine {
        Engine {
            default_bot: Some(spec.to_string()),
            ..Engine::new()
        }
    }

    /// Handles one line and returns the response (empty while a record is read).
    pub fn handle(&mut self, line: &str) -> String {
        if let Some(reading) = &mut self.reading {
            if line.trim() != "end" {
                match reading {
                    Reading::Record(lines) | Reading::View(lines) => lines.push(line.to_string()),
                }
                return String::new();
            }
            let result = match self.reading.take() {
                Some(Reading::Record(lines)) => self.set_record(&lines.join("\n")),
                Some(Reading::View(lines)) => self.set_view(&lines),
                None => Ok(()),
            };
            return match result {
                Ok(()) => ok(""),
                Err(e) => refuse(e),
            };
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return String::new();
        };
        let rest = line.trim_start()[command.len()..].trim();
        match command.to_ascii_lowercase().as_str() {
            "protocol" => ok(format!("rumi-engine {PROTOCOL_VERSION}")),
            "name" => ok(format!("rumi {}", env!("CARGO_PKG_VERSION"))),
            "help" => format!("= {HELP}\n\n"),
            "quit" => {
                self.quit = true;
                ok("bye")
            }
            "newgame" => match self.new_game(args) {
                Ok(()) => ok(""),
                Err(e) => refuse(e),
            },
            "setrecord" => {
                self.reading = Some(Reading::Record(Vec::new()));
                String::new()
            }
            "setview" => {
                self.reading = Some(Reading::View(Vec::new()));
                String::new()
            }
            "state" => self.with(|held| held.state()),
            "moves" => self.with(|held| held.moves()),
            "record" => self.with(|held| held.record()),
            "play" if rest.is_empty() => refuse("play what? e.g. `play O4 a1:1 b1:1 a2:1 b2:1`"),
            "play" => self.with(|held| held.play(rest)),
            "bot" => match args {
                [spec] => self.with(|held| held.set_bot(spec)),
                _ => refuse("usage: bot SPEC"),
            },
            "genmove" => match args {
                [] | [_] => self.with(|held| held.genmove(args.first().copied())),
                _ => refuse("usage: genmove [SPEC]"),
            },
            "analyse" | "analyze" => self.with(|held| held.analyse(args)),
            other => refuse(format!("unknown command `{other}`; `help` lists them")),
        }
    }

    fn with(&mut self, answer: impl FnOnce(&mut dyn Held) -> String) -> String {
        match &mut self.current {
            None => refuse("no game: start one with `newgame`"),
            Some(held) => answer(held.as_mut()),
        }
    }

    /// The bot a new game of `G` starts with: the engine's own, else the game's level 5.
    fn start_bot<G: WithBots>(&self) -> String {
        self.default_bot.clone().unwrap_or_else(|| G::level_spec(5))
    }

    fn new_game(&mut self, args: &[&str]) -> Result<(), String> {
        let Some((game, rest)) = args.split_first() else {
            return Err("usage: newgame rumis|rummikub [key=value …]".into());
        };
        let opts = options(rest)?;
        let mut seed = 0u64;
        let held: Box<dyn Held> = match game.to_ascii_lowercase().as_str() {
            "rumis" => {
                let mut scenario = "chullpa".to_string();
                let mut players = 2u8;
                let mut variant = "standard".to_string();
                for (k, v) in &opts {
                    match k.as_str() {
                        "scenario" => scenario = v.clone(),
                        "players" => players = number(k, v)?,
                        "seed" => seed = number(k, v)?,
                        "variant" => variant = v.clone(),
                        _ => return Err(format!("newgame rumis has no option `{k}`")),
                    }
                }
                let config =
                    RumisConfig::named(&scenario, players, &variant).map_err(|e| e.to_string())?;
                Box::new(Session::<RumisGame>::new(
                    config,
                    seed,
                    self.start_bot::<RumisGame>(),
                )?)
            }
            "rummikub" => {
                let mut players = 2usize;
                let mut rules = "current".to_string();
                for (k, v) in &opts {
                    match k.as_str() {
                        "players" => players = number(k, v)?,
                        "seed" => seed = number(k, v)?,
                        "rules" => rules = v.clone(),
                        _ => return Err(format!("newgame rummikub has no option `{k}`")),
                    }
                }
                let config = RummikubConfig::preset(&rules, players).map_err(|e| e.to_string())?;
                let bot = self.start_bot::<RummikubGame>();
                Box::new(Session::<RummikubGame>::new(config, seed, bot)?)
            }
            other => return Err(format!("unknown game `{other}` (rumis, rummikub)")),
        };
        self.current = Some(held);
        Ok(())
    }

    /// A record sets up its game and replays it; the game is named by the record itself.
    fn set_record(&mut self, text: &str) -> Result<(), String> {
        if text.contains("game: rumis") {
            let record = Record::parse(text).map_err(|e| e.to_string())?;
            let scenario = Scenario::builtin(&record.scenario).ok_or_else(|| {
                format!(
                    "the engine knows built-in scenarios only, not `{}`",
                    record.scenario
                )
            })?;
            let position = record.replay(scenario.clone()).map_err(|e| e.to_string())?;
            let config = RumisConfig {
                scenario,
                players: record.players,
                variant: record.variant,
                first_stones: record.first_stones,
            };
            let bot = self.start_bot::<RumisGame>();
            let mut session = Session::<RumisGame>::new(config, record.seed, bot)?;
            session.game = RumisGame::from_position(position);
            self.current = Some(Box::new(session));
            return Ok(());
        }
        let record = rummikub::record::Record::parse(text).map_err(|e| e.to_string())?;
        let config = RummikubConfig::new(record.rules.clone(), record.players);
        let bot = self.start_bot::<RummikubGame>();
        let mut session = Session::<RummikubGame>::new(config, record.seed, bot)?;
        for (line, m) in &record.moves {
            session
                .game
                .apply(m.player, &m.action)
                .map_err(|e| format!("line {line}: {e}"))?;
        }
        self.current = Some(Box::new(session));
        Ok(())
    }

    /// A Rummikub seat's view: `genmove` answers for that seat from then on. The bot of
    /// the previous view stays (its chance goes on), unless `bot` changes it.
    fn set_view(&mut self, lines: &[String]) -> Result<(), String> {
        let view = rummikub::view::parse_view(lines)?;
        let bot = self
            .current
            .take()
            .and_then(|held| held.into_view_bot())
            .unwrap_or_else(|| BotSlot::new(self.start_bot::<RummikubGame>(), 0));
        self.current = Some(Box::new(ViewSession { view, bot }));
        Ok(())
    }
}

/// The analysis as text lines: move, estimated win chance, visits.
pub fn analyse_lines(
    position: &rumis::Position,
    config: MctsConfig,
    seed: u64,
    count: usize,
) -> Vec<String> {
    analyse(position, config, seed, count)
        .iter()
        .map(|s| {
            format!(
                "{}  win={:.1}%  visits={}",
                rumis::notation::format_move(position, s.mv),
                s.win_chance * 100.0,
                s.visits
            )
        })
        .collect()
}
