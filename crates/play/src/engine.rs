//! The engine text protocol (in the spirit of GTP and UCI): one command a line in, one
//! response out. A response's first line starts with `= ` (done) or `? ` (refused, with
//! the reason); lines after it carry lists; an empty line ends every response.
//! See `docs/engine-protocol.md`. [`Engine::handle`] is pure: the `rumi engine` command
//! only moves lines between it and stdin/stdout.

use rumis::record::Record;
use rumis::{Scenario, Variant};
use rummikub::RuleSet;

use crate::bots::{Bot, WithBots};
use crate::game::{Game, GameError};
use crate::mcts::{analyse, MctsConfig};
use crate::rumis_game::{RumisConfig, RumisGame};
use crate::rummikub_game::{RummikubConfig, RummikubGame};

/// Version of the protocol, answered to `protocol`.
pub const PROTOCOL_VERSION: u32 = 1;

/// A game in progress with the bot that answers `genmove` for it.
struct Session<G: WithBots> {
    game: G,
    seed: u64,
    bot_spec: String,
    bot: Option<Box<dyn Bot<G>>>,
}

enum Current {
    None,
    Rumis(Session<RumisGame>),
    Rummikub(Session<RummikubGame>),
    /// A Rummikub seat's view sent by `setview` (no game behind it): `genmove` answers
    /// for that seat, nothing is played.
    RummikubView(ViewSession),
}

/// A Rummikub view and the bot that answers for it. The bot stays from one view to the
/// next (a match sends a view before each move).
struct ViewSession {
    view: rummikub::PlayerView,
    bot_spec: String,
    bot: Option<Box<dyn Bot<RummikubGame>>>,
}

impl ViewSession {
    fn genmove(&mut self, spec: Option<&str>) -> String {
        if let Some(spec) = spec {
            if spec != self.bot_spec {
                self.bot_spec = spec.to_string();
                self.bot = None;
            }
        }
        if self.bot.is_none() {
            match RummikubGame::bot(&self.bot_spec, 0) {
                Ok(bot) => self.bot = Some(bot),
                Err(e) => return refuse(e),
            }
        }
        let Some(bot) = self.bot.as_mut() else {
            return refuse("no bot");
        };
        match bot.choose(&self.view, self.view.player) {
            Ok(action) => ok(rummikub::record::format_action(&action)),
            Err(e) => refuse(e),
        }
    }
}

/// What the lines after `setrecord` or `setview` are, until `end`.
enum Reading {
    Record(Vec<String>),
    View(Vec<String>),
}

/// The protocol's state: the game, the bot, and a record being read.
pub struct Engine {
    current: Current,
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
            bot_spec,
            bot: None,
        })
    }

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
        match result {
            Ok(()) => ok(""),
            Err(e) => refuse(e),
        }
    }

    fn genmove(&mut self, spec: Option<&str>) -> String {
        let Some(seat) = self.game.to_act() else {
            return refuse("the game is over");
        };
        if let Some(spec) = spec {
            if spec != self.bot_spec || self.bot.is_none() {
                self.bot_spec = spec.to_string();
                self.bot = None;
            }
        }
        if self.bot.is_none() {
            match G::bot(&self.bot_spec, self.seed) {
                Ok(bot) => self.bot = Some(bot),
                Err(e) => return refuse(e),
            }
        }
        let Some(bot) = self.bot.as_mut() else {
            return refuse("no bot");
        };
        let observation = self.game.observe(seat);
        let chosen: Result<String, GameError> = bot.choose(&observation, seat).and_then(|a| {
            let text = self.game.format_action(&a);
            self.game.apply(seat, &a).map(|_| text)
        });
        match chosen {
            Ok(text) => ok(text),
            Err(e) => refuse(e),
        }
    }

    /// The record without its empty lines (an empty line ends a response; records
    /// read back without them).
    fn record(&self) -> String {
        let record = self.game.record(None);
        let lines: Vec<&str> = record.lines().filter(|l| !l.trim().is_empty()).collect();
        format!("=\n{}\n\n", lines.join("\n"))
    }
}

impl Engine {
    pub fn new() -> Engine {
        Engine {
            current: Current::None,
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
            "state" => self.with(|s| s.state(), |s| s.state()),
            "moves" => self.with(|s| s.moves(), |s| s.moves()),
            "record" => self.with(|s| s.record(), |s| s.record()),
            "play" if rest.is_empty() => refuse("play what? e.g. `play O4 a1:1 b1:1 a2:1 b2:1`"),
            "play" => self.with(|s| s.play(rest), |s| s.play(rest)),
            "bot" => match args {
                [spec] => {
                    let spec = spec.to_string();
                    let check = match &self.current {
                        Current::Rummikub(_) | Current::RummikubView(_) => {
                            RummikubGame::bot(&spec, 0).map(|_| ())
                        }
                        _ => RumisGame::bot(&spec, 0).map(|_| ()),
                    };
                    match check {
                        Err(e) => refuse(e),
                        Ok(()) if matches!(self.current, Current::RummikubView(_)) => {
                            if let Current::RummikubView(v) = &mut self.current {
                                v.bot_spec = spec;
                                v.bot = None;
                            }
                            ok("")
                        }
                        Ok(()) => self.with(
                            |s| {
                                s.bot_spec = spec.clone();
                                s.bot = None;
                                ok("")
                            },
                            |s| {
                                s.bot_spec = spec.clone();
                                s.bot = None;
                                ok("")
                            },
                        ),
                    }
                }
                _ => refuse("usage: bot SPEC"),
            },
            "genmove" => match args {
                [] | [_] => {
                    let spec = args.first().copied();
                    if let Current::RummikubView(v) = &mut self.current {
                        return v.genmove(spec);
                    }
                    self.with(|s| s.genmove(spec), |s| s.genmove(spec))
                }
                _ => refuse("usage: genmove [SPEC]"),
            },
            "analyse" | "analyze" => self.analyse(args),
            other => refuse(format!("unknown command `{other}`; `help` lists them")),
        }
    }

    fn with(
        &mut self,
        rumis: impl FnOnce(&mut Session<RumisGame>) -> String,
        rummikub: impl FnOnce(&mut Session<RummikubGame>) -> String,
    ) -> String {
        match &mut self.current {
            Current::None => refuse("no game: start one with `newgame`"),
            Current::Rumis(s) => rumis(s),
            Current::Rummikub(s) => rummikub(s),
            Current::RummikubView(_) => refuse(
                "a view has no game behind it: only `genmove` and `bot` answer (start a game with `newgame` or `setrecord`)",
            ),
        }
    }

    fn new_game(&mut self, args: &[&str]) -> Result<(), String> {
        let Some((game, rest)) = args.split_first() else {
            return Err("usage: newgame rumis|rummikub [key=value …]".into());
        };
        let opts = options(rest)?;
        let mut seed = 0u64;
        match game.to_ascii_lowercase().as_str() {
            "rumis" => {
                let mut scenario = "chullpa".to_string();
                let mut players = 2u8;
                let mut variant = Variant::Standard;
                for (k, v) in &opts {
                    match k.as_str() {
                        "scenario" => scenario = v.clone(),
                        "players" => players = number(k, v)?,
                        "seed" => seed = number(k, v)?,
                        "variant" => {
                            variant = Variant::from_name(v).ok_or_else(|| {
                                format!("unknown variant `{v}` ({})", Variant::names())
                            })?
                        }
                        _ => return Err(format!("newgame rumis has no option `{k}`")),
                    }
                }
                let mut config =
                    RumisConfig::builtin(&scenario, players).map_err(|e| e.to_string())?;
                config.variant = variant;
                let bot = self.default_bot.clone().unwrap_or("mcts:5".into());
                self.current = Current::Rumis(Session::new(config, seed, bot)?);
            }
            "rummikub" => {
                let mut players = 2usize;
                let mut rules = RuleSet::current();
                for (k, v) in &opts {
                    match k.as_str() {
                        "players" => players = number(k, v)?,
                        "seed" => seed = number(k, v)?,
                        "rules" => {
                            rules = RuleSet::preset(v)
                                .ok_or_else(|| format!("unknown rule set `{v}` (current, old)"))?
                        }
                        _ => return Err(format!("newgame rummikub has no option `{k}`")),
                    }
                }
                let config = RummikubConfig::new(rules, players);
                let bot = self.default_bot.clone().unwrap_or("planner:5".into());
                self.current = Current::Rummikub(Session::new(config, seed, bot)?);
            }
            other => return Err(format!("unknown game `{other}` (rumis, rummikub)")),
        }
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
            };
            let mut session = Session::new(config, record.seed, "mcts:5".into())?;
            session.game = RumisGame::from_position(position);
            self.current = Current::Rumis(session);
            return Ok(());
        }
        let record = rummikub::record::Record::parse(text).map_err(|e| e.to_string())?;
        let config = RummikubConfig::new(record.rules.clone(), record.players);
        let mut session = Session::<RummikubGame>::new(config, record.seed, "planner:5".into())?;
        for (line, m) in &record.moves {
            session
                .game
                .apply(m.player, &m.action)
                .map_err(|e| format!("line {line}: {e}"))?;
        }
        self.current = Current::Rummikub(session);
        Ok(())
    }

    /// A Rummikub seat's view: `genmove` answers for that seat from then on. The bot of
    /// the previous view stays (its chance goes on), unless `bot` changes it.
    fn set_view(&mut self, lines: &[String]) -> Result<(), String> {
        let view = rummikub::view::parse_view(lines)?;
        let (bot_spec, bot) = match std::mem::replace(&mut self.current, Current::None) {
            Current::RummikubView(v) => (v.bot_spec, v.bot),
            _ => (self.default_bot.clone().unwrap_or("planner:5".into()), None),
        };
        self.current = Current::RummikubView(ViewSession {
            view,
            bot_spec,
            bot,
        });
        Ok(())
    }

    fn analyse(&mut self, args: &[&str]) -> String {
        let Current::Rumis(session) = &self.current else {
            return refuse("analysis is for Rumis games: start one with `newgame rumis`");
        };
        let mut count = 3usize;
        let mut spec = "mcts:5".to_string();
        for a in args {
            match a.parse::<usize>() {
                Ok(n) if n > 0 => count = n,
                _ => spec = a.to_string(),
            }
        }
        let config = match spec
            .strip_prefix("mcts:")
            .and_then(crate::bots::mcts_config)
        {
            Some(c) => c,
            None => {
                return refuse(format!(
                    "analysis takes an mcts spec (mcts:5, mcts:p=N, mcts:ms=N), not `{spec}`"
                ))
            }
        };
        let position = &session.game.position;
        if position.is_over() {
            return refuse("the game is over");
        }
        let lines = analyse_lines(position, config, session.seed, count);
        format!("= {}\n{}\n\n", lines.len(), lines.join("\n"))
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
