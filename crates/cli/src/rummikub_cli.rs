//! Rummikub commands: terminal play (`rumi play rummikub`) and scripting
//! (`rumi rummikub replay|deal|selfplay|check`).

#[path = "rummikub/render.rs"]
mod render;
#[path = "rummikub/terminal.rs"]
mod terminal;

use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};

use play::bots::Bot;
use play::game::GameError;
use play::match_runner::play_game;
use play::rummikub_game::{RummikubConfig, RummikubGame};
use play::rummikub_random::random_action;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rummikub::notation::parse_set;
use rummikub::record::{write_record, Record};
use rummikub::set::{readings, SetKind};
use rummikub::{Round, RuleSet};

use crate::terminal::{clock_seed, Seat};
use render::Style;
use terminal::{run_session, SessionConfig};

/// Options for `rumi play rummikub`.
#[derive(Args)]
pub struct PlayArgs {
    /// Number of players (2 to 4).
    #[arg(long, default_value_t = 2)]
    pub players: usize,
    /// Who sits in each seat, comma separated: human or a Rummikub bot (`random`,
    /// `planner:5`; an unknown name lists them all). Missing seats are random.
    #[arg(long, default_value = "human,random")]
    pub seats: String,
    /// Rule set: `current`, `old`, optionally followed by overrides such as
    /// `"current joker_penalty=30 turn_time=40"`.
    #[arg(long, default_value = "current")]
    pub rules: String,
    /// Number of rounds (overrides the rule set's game length).
    #[arg(long)]
    pub rounds: Option<u32>,
    /// Seed for the deal; random if not given.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Do not enforce the turn time limit.
    #[arg(long)]
    pub no_timer: bool,
    /// Write the record of each round to this file (rounds after the first get
    /// `.2`, `.3`, … appended).
    #[arg(long)]
    pub record: Option<PathBuf>,
}

/// `rumi rummikub ...` scripting commands.
#[derive(Subcommand)]
pub enum RummikubCommand {
    /// Replay a round record, checking every action, and print the final position.
    Replay {
        /// The record file.
        file: PathBuf,
    },
    /// Show the deal for a seed: the start-player draw, every rack and the pool size.
    Deal {
        #[arg(long, default_value_t = 2)]
        players: usize,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        #[arg(long, default_value = "current")]
        rules: String,
    },
    /// Let random bots play a round and print its record.
    Selfplay {
        #[arg(long, default_value_t = 2)]
        players: usize,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Seed for the bots' choices (defaults to the deal seed).
        #[arg(long)]
        bot_seed: Option<u64>,
        #[arg(long, default_value = "current")]
        rules: String,
    },
    /// Check a set, e.g. "[r5 J J]": every valid reading and the set's value.
    Check {
        /// The set in notation.
        set: String,
        #[arg(long, default_value = "current")]
        rules: String,
    },
}

fn parse_rules(text: &str) -> Result<RuleSet> {
    text.parse::<RuleSet>().map_err(anyhow::Error::from)
}

/// Seats from `human,planner:5,...`, padded with random bots to the player count.
fn parse_seats(text: &str, players: usize) -> Result<Vec<Seat>> {
    let texts: Vec<String> = text
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(str::to_string)
        .collect();
    let mut seats = Seat::parse_all::<RummikubGame>(&texts)?;
    if seats.len() > players {
        bail!("{} seats given for {players} players", seats.len());
    }
    seats.resize(players, Seat::Bot("random".into()));
    Ok(seats)
}

pub fn play(args: PlayArgs) -> Result<()> {
    let mut rules = parse_rules(&args.rules)?;
    if let Some(rounds) = args.rounds {
        rules = RummikubConfig::new(rules, args.players)
            .with_rounds(rounds)?
            .rules;
    }
    let seats = parse_seats(&args.seats, args.players)?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let config = SessionConfig {
        rules,
        seats,
        seed,
        timer: !args.no_timer,
        style: Style {
            ansi: io::stdout().is_terminal(),
        },
    };
    let stdin = io::stdin();
    let end = run_session(stdin.lock(), io::stdout(), config)?;
    if let Some(path) = args.record {
        for (i, record) in end.records.iter().enumerate() {
            let mut target = path.clone().into_os_string();
            if i > 0 {
                target.push(format!(".{}", i + 1));
            }
            std::fs::write(&target, record)
                .with_context(|| format!("writing {}", PathBuf::from(&target).display()))?;
        }
    }
    Ok(())
}

pub fn run(command: RummikubCommand) -> Result<()> {
    match command {
        RummikubCommand::Replay { file } => {
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("reading {}", file.display()))?;
            let round = Record::parse(&text)?.replay()?;
            print!("{}", describe_round(&round));
            Ok(())
        }
        RummikubCommand::Deal {
            players,
            seed,
            rules,
        } => {
            let round = Round::new(parse_rules(&rules)?, players, seed)?;
            print!("{}", describe_deal(&round));
            Ok(())
        }
        RummikubCommand::Selfplay {
            players,
            seed,
            bot_seed,
            rules,
        } => {
            let round = selfplay(
                parse_rules(&rules)?,
                players,
                seed,
                bot_seed.unwrap_or(seed),
            )?;
            print!("{}", write_record(&round).unwrap_or_default());
            Ok(())
        }
        RummikubCommand::Check { set, rules } => {
            print!("{}", describe_set(&set, &parse_rules(&rules)?)?);
            Ok(())
        }
    }
}

/// Random bots play one round to its end, through the match runner. The bots draw from
/// one generator seeded with `bot_seed`, in turn order (the records this command
/// printed before stay the same).
pub fn selfplay(rules: RuleSet, players: usize, seed: u64, bot_seed: u64) -> Result<Round> {
    let config = RummikubConfig::new(rules, players).pausing_between_rounds();
    let shared = Arc::new(Mutex::new(ChaCha8Rng::seed_from_u64(bot_seed)));
    let mut bots: Vec<Box<dyn Bot<RummikubGame>>> = (0..players)
        .map(|_| Box::new(SharedRandom(shared.clone())) as Box<dyn Bot<RummikubGame>>)
        .collect();
    let game = play_game::<RummikubGame>(&config, seed, &mut bots)?;
    Ok(game.series.round().clone())
}

/// The random bot of every seat, drawing from one generator.
struct SharedRandom(Arc<Mutex<ChaCha8Rng>>);

impl Bot<RummikubGame> for SharedRandom {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(
        &mut self,
        view: &rummikub::PlayerView,
        _seat: usize,
    ) -> Result<rummikub::Action, GameError> {
        let mut rng = self.0.lock().map_err(|_| GameError::BotPanicked)?;
        Ok(random_action(view, &mut *rng))
    }
}

/// The deal as text: everything is shown, since this is for scripting and analysis.
fn describe_deal(round: &Round) -> String {
    let mut text = format!("rules {}\n", round.rules());
    for draws in round.start_draws() {
        let line: Vec<String> = draws
            .iter()
            .map(|d| format!("player {} {}", d.player + 1, d.tile))
            .collect();
        text += &format!("start draw: {}\n", line.join(", "));
    }
    text += &format!("player {} starts\n", round.start_player() + 1);
    for player in 0..round.players() {
        let rack = round.rack(player);
        let pairs = rummikub::deal::pairs_in_rack(&rack);
        text += &format!(
            "player {}: {}{}\n",
            player + 1,
            rummikub::notation::format_tiles(&rack),
            if round.can_claim_redeal(player) {
                format!("   ({pairs} pairs: may demand a new deal)")
            } else {
                String::new()
            }
        );
    }
    text += &format!("pool: {} tiles\n", round.pool_len());
    text
}

/// A replayed round as text: table, racks, pool, and the result if it is over.
fn describe_round(round: &Round) -> String {
    let mut text = format!(
        "rules {}\nactions {}\n",
        round.rules(),
        round.history().len()
    );
    text += "table:\n";
    for (i, set) in round.table().iter().enumerate() {
        text += &format!("  {:>2}: {set}\n", i + 1);
    }
    for player in 0..round.players() {
        text += &format!(
            "player {}: {} ({} tiles)\n",
            player + 1,
            rummikub::notation::format_tiles(&round.rack(player)),
            round.rack_len(player)
        );
    }
    text += &format!("pool: {} tiles\n", round.pool_len());
    match round.outcome() {
        Some(outcome) => {
            let winners: Vec<String> = outcome
                .winners
                .iter()
                .map(|w| format!("player {}", w + 1))
                .collect();
            let reason = match outcome.reason {
                rummikub::EndReason::Rummikub => "played every tile",
                rummikub::EndReason::PoolExhausted => "lowest rack when the pool ran out",
            };
            text += &format!("winner: {} ({reason})\n", winners.join(" and "));
            let scores: Vec<String> = outcome.scores.iter().map(|s| format!("{s:+}")).collect();
            text += &format!("scores: {}\n", scores.join(" "));
        }
        None => {
            text += &format!(
                "round not over: player {} to play\n",
                round.current_player() + 1
            )
        }
    }
    text
}

fn describe_set(text: &str, rules: &RuleSet) -> Result<String> {
    let set = parse_set(text)?;
    let mut out = String::new();
    match set.check(rules) {
        Ok(best) => {
            out += &format!("{} is valid, worth {}\n", set.arranged(rules), best.value);
            for reading in readings(set.tiles(), rules) {
                let kind = match reading.kind {
                    SetKind::Group => "group",
                    SetKind::Run => "run",
                };
                out += &format!(
                    "  {kind} {} = {}\n",
                    rummikub::notation::format_tiles(&reading.represented),
                    reading.value
                );
            }
        }
        Err(problem) => out += &format!("{set} {problem}\n"),
    }
    Ok(out)
}
