//! `rumi play rumis`: a game of Rumis in the terminal, people and bots at one table.
//!
//! ```text
//! rumi play rumis --scenario chullpa --players 4 --seats human,random,greedy,greedy
//! ```
//!
//! The game loop is the terminal table both games share ([`crate::terminal`]); these
//! files draw Rumis (`show`, `report`) and read a person's commands (`commands`).
//! People type moves in either form of the notation (`L4 a1 b1 c1 a2`, levels
//! optional, or the drop form `L4/7@c3`) or a command (`help` lists them); bots move
//! by themselves.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::bail;
use clap::Args;
use play::bots::Bot;
use play::rumis_game::{RumisConfig, RumisGame};
use rumis::{Position, Scenario, Setup};

use super::draw::{self, Paint};
use crate::terminal::{clock_seed, play_session, seat_bots, Console, Ending, Seat};

/// What a person types: the commands, and the game loop's front end.
mod commands;
/// The scores: interim (R16) and final.
mod report;
/// What the terminal shows: the record, the labels, the board and the events.
mod show;
/// Most moves `moves` prints before it asks to be narrowed to one stone.
const MOVES_SHOWN: usize = 100;

#[derive(Args)]
pub struct PlayArgs {
    /// Built-in scenario (chullpa, pirka, tambo, pisac, coricancha, cucho; Rumis+:
    /// colca, puncu, apachita, chaka, huaca, incahuasi) or the path of a scenario file.
    #[arg(long, default_value = "chullpa")]
    scenario: String,
    /// Play on your own scenario file instead of a built-in one.
    #[arg(long, value_name = "PATH")]
    scenario_file: Option<PathBuf>,
    /// Number of players (default: one per seat given, else 2).
    #[arg(long)]
    players: Option<u8>,
    /// Who sits at each seat, in turn order, comma-separated, one per player: human or
    /// a Rumis bot (`greedy`, `mcts:3`; an unknown name lists them all). Default: human,
    /// then greedy.
    #[arg(long, value_delimiter = ',')]
    seats: Vec<String>,
    /// standard, four-colours (R10: 2 players, two colours each), ruinas or
    /// ruinas-random (R11: 2 or 3 players build a neutral ruin first), inverse (R15:
    /// 5 or 6 players, never beside your own colour) or dismantle (R16: 2 players on
    /// colca, puncu or apachita).
    #[arg(long, default_value = "standard")]
    variant: String,
    /// First stones: `edge` (R14, default for 5 and 6 players: first stones touch only
    /// by edges) or `face` (R6, default otherwise).
    #[arg(long, value_name = "RULE")]
    first_stones: Option<String>,
    /// Seed for the bots' choices and the random ruin (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Write the game record to this file when the game ends (or is quit).
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
}

/// The scenario named on the command line: a built-in key, or a user's file.
fn load_scenario(key: &str, file: Option<&Path>) -> anyhow::Result<Scenario> {
    match file {
        Some(path) => super::load_scenario(&path.display().to_string()),
        None => super::load_scenario(key),
    }
}

/// What Rumis shows and reads at the terminal (the game loop is [`play_session`]'s).
struct Terminal {
    game: RumisGame,
    seats: Vec<Seat>,
    paint: Paint,
    /// The user's scenario file, if the game is played on one: records name it by path.
    scenario_file: Option<PathBuf>,
    events_seen: usize,
    /// The build changed since it was last drawn.
    board_stale: bool,
}

/// A game being played at the terminal: the Rumis front end and the seats' bots.
pub struct Session {
    terminal: Terminal,
    bots: Vec<Option<Box<dyn Bot<RumisGame>>>>,
    /// Write each command after its prompt (for piped input, so the log reads well).
    echo: bool,
    save: Option<PathBuf>,
}

impl Session {
    /// A new game; `seats` has one entry per player, the bots' chance comes from the
    /// setup's seed.
    pub fn new(setup: Setup, seats: Vec<Seat>) -> anyhow::Result<Session> {
        if seats.len() != setup.players as usize {
            bail!(
                "{} seats given for {} players: give one per player, e.g. --seats {}",
                seats.len(),
                setup.players,
                std::iter::once("human")
                    .chain(std::iter::repeat("greedy"))
                    .take(setup.players as usize)
                    .collect::<Vec<_>>()
                    .join(",")
            );
        }
        let bots = seat_bots::<RumisGame>(&seats, setup.seed)?;
        let game = RumisGame::from_position(Position::new(setup)?);
        Ok(Session {
            terminal: Terminal {
                game,
                seats,
                paint: Paint::PLAIN,
                scenario_file: None,
                events_seen: 0,
                board_stale: true,
            },
            bots,
            echo: false,
            save: None,
        })
    }

    pub fn with_paint(mut self, paint: Paint) -> Session {
        self.terminal.paint = paint;
        self
    }

    pub fn with_echo(mut self, echo: bool) -> Session {
        self.echo = echo;
        self
    }

    pub fn with_save(mut self, save: Option<PathBuf>) -> Session {
        self.save = save;
        self
    }

    /// The game is played on this scenario file (saved records name it by path, so
    /// that `rumi rumis replay` finds it).
    pub fn with_scenario_file(mut self, path: Option<PathBuf>) -> Session {
        self.terminal.scenario_file = path;
        self
    }

    /// Plays the game to its end or until a person quits; people's commands come from
    /// `input` (its end counts as `quit`), everything shown goes to `out`.
    pub fn run(&mut self, mut input: impl BufRead, out: &mut impl Write) -> anyhow::Result<Ending> {
        let mut console = Console::new(&mut input, out, self.echo);
        let ending = play_session(&mut self.terminal, &mut self.bots, &mut console)?;
        if let Some(path) = &self.save {
            write!(out, "{}", self.terminal.save_to(path))?;
        }
        Ok(ending)
    }

    #[cfg(test)]
    fn position(&self) -> &Position {
        &self.terminal.game.position
    }

    #[cfg(test)]
    fn record(&self) -> String {
        self.terminal.record()
    }
}

/// Builds the session the command line asks for.
fn session(args: PlayArgs) -> anyhow::Result<Session> {
    // A scenario given by path (either option) is named by that path in records.
    let scenario_file = args.scenario_file.clone().or_else(|| {
        Scenario::builtin(&args.scenario)
            .is_none()
            .then(|| PathBuf::from(&args.scenario))
    });
    let scenario = load_scenario(&args.scenario, scenario_file.as_deref())?;
    let players = args.players.unwrap_or(if args.seats.is_empty() {
        2
    } else {
        args.seats.len() as u8
    });
    let config = RumisConfig::from_words(
        scenario,
        players,
        &args.variant,
        args.first_stones.as_deref(),
    )?;
    let seats = if args.seats.is_empty() {
        (0..players)
            .map(|p| match p {
                0 => Seat::Human,
                _ => Seat::Bot("greedy".into()),
            })
            .collect()
    } else {
        Seat::parse_all::<RumisGame>(&args.seats)?
    };
    let seed = args.seed.unwrap_or_else(clock_seed);
    let setup = config.setup(seed);
    Ok(Session::new(setup, seats)?
        .with_save(args.save)
        .with_scenario_file(scenario_file))
}

pub fn play(args: PlayArgs) -> anyhow::Result<()> {
    let session = session(args)?;
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut session = session
        .with_paint(Paint {
            ansi: stdout.is_terminal(),
        })
        .with_echo(!stdin.is_terminal());
    session.run(stdin.lock(), &mut stdout.lock())?;
    Ok(())
}

#[cfg(test)]
mod tests;
