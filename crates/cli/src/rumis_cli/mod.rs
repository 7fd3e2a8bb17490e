//! Rumis commands: terminal play (`play/`), scripting (`legal`, `perft`, `replay`,
//! `stones`, `scenarios`). The benchmark is `rumi-bench rumis`.

pub(crate) mod draw;
mod play;

use std::io::Write;
use std::path::Path;

use ::play::rumis_game::RumisConfig;
use anyhow::{bail, Context};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use rumis::notation::format_move;
use rumis::perft::perft;
use rumis::record::{interim_line, result_line, Record};
use rumis::{Position, Scenario, Stone};

pub use play::{play, PlayArgs};

#[derive(Subcommand)]
pub enum RumisCommand {
    /// Print the legal moves of the side to move, one per line.
    Legal(GameArgs),
    /// Count the distinct move sequences of a given length from the empty board.
    Perft {
        #[command(flatten)]
        game: GameArgs,
        #[arg(long)]
        depth: u32,
        /// Use the plain reference generator instead of the fast one.
        #[arg(long)]
        reference: bool,
    },
    /// Replay a game record, checking every move, and print the result.
    Replay {
        /// The record file.
        file: String,
    },
    /// List the stones with their codes and orientations (numbers for the drop notation).
    Stones {
        /// Only this stone (code, e.g. L4), with every orientation drawn.
        stone: Option<String>,
    },
    /// List the shipped scenarios with their footprint per player count.
    Scenarios,
}

/// Which game to look at: a setup, optionally advanced by a record's moves.
#[derive(Args)]
pub struct GameArgs {
    /// Built-in scenario key (chullpa, pirka, tambo, pisac, coricancha, cucho; Rumis+:
    /// colca, puncu, apachita, chaka, huaca, incahuasi) or a path to a scenario file.
    #[arg(long, default_value = "chullpa")]
    scenario: String,
    #[arg(long, default_value_t = 4)]
    players: u8,
    /// standard, four-colours (R10), ruinas or ruinas-random (R11), inverse (R15) or
    /// dismantle (R16).
    #[arg(long, default_value = "standard")]
    variant: String,
    /// First stones: edge (R14, default for 5 and 6 players) or face (R6).
    #[arg(long, value_name = "RULE")]
    first_stones: Option<String>,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// A game record: its header replaces the options above, its moves are played.
    #[arg(long)]
    record: Option<String>,
}

/// A built-in scenario by key, or a user's scenario file by path.
pub fn load_scenario(name: &str) -> anyhow::Result<Scenario> {
    if let Some(s) = Scenario::builtin(name) {
        return Ok(s);
    }
    let path = Path::new(name);
    if !path.exists() {
        let keys: Vec<&str> = Scenario::builtin_keys().collect();
        bail!(
            "unknown scenario `{name}`: not a built-in one ({}) and no such file",
            keys.join(", ")
        );
    }
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("scenario");
    Ok(Scenario::parse(&path.display().to_string(), stem, &text)?)
}

/// Reads and replays a record file.
pub fn load_record(file: &str) -> anyhow::Result<(Record, Position)> {
    let text = std::fs::read_to_string(file).with_context(|| format!("cannot read {file}"))?;
    let record = Record::parse(&text).with_context(|| file.to_string())?;
    let position = record
        .replay(load_scenario(&record.scenario)?)
        .with_context(|| file.to_string())?;
    Ok((record, position))
}

impl GameArgs {
    pub(crate) fn position(&self, reference: bool) -> anyhow::Result<Position> {
        if let Some(file) = &self.record {
            let (record, position) = load_record(file)?;
            if !reference {
                return Ok(position);
            }
            let mut slow = Position::new_reference(record.setup(load_scenario(&record.scenario)?))?;
            for &mv in &position.history()[position.generated_moves()..] {
                slow.play(mv)?;
            }
            return Ok(slow);
        }
        let config = RumisConfig::from_words(
            load_scenario(&self.scenario)?,
            self.players,
            &self.variant,
            self.first_stones.as_deref(),
        )?;
        let setup = config.setup(self.seed);
        Ok(if reference {
            Position::new_reference(setup)?
        } else {
            Position::new(setup)?
        })
    }
}

pub fn run(command: RumisCommand) -> anyhow::Result<()> {
    match command {
        RumisCommand::Legal(game) => {
            let position = game.position(false)?;
            let mut out = std::io::stdout().lock();
            for mv in position.legal_moves() {
                writeln!(out, "{}", format_move(&position, mv))?;
            }
        }
        RumisCommand::Perft {
            game,
            depth,
            reference,
        } => {
            let position = game.position(reference)?;
            println!("{}", perft_with_progress(&position, depth));
        }
        RumisCommand::Replay { file } => {
            let (_, position) = load_record(&file)?;
            if let Some(interim) = interim_line(&position) {
                println!("interim score (R16): {interim}");
            }
            println!(
                "{} moves replayed, all legal; {}",
                position.history().len() - position.generated_moves(),
                if position.is_over() {
                    format!("game over: {}", result_line(&position))
                } else {
                    format!(
                        "{} to move; points so far: {}",
                        position
                            .to_move()
                            .map(|c| c.to_string())
                            .unwrap_or_default(),
                        result_line(&position)
                    )
                }
            );
        }
        RumisCommand::Stones { stone } => print_stones(stone.as_deref())?,
        RumisCommand::Scenarios => {
            for s in Scenario::builtins() {
                let counts: Vec<String> = s
                    .player_counts
                    .keys()
                    .map(|&p| {
                        let f = s.footprint(p).expect("shipped scenarios are valid");
                        let cells = f.limits.iter().filter(|&&l| l > 0).count();
                        format!("{p}p {cells} cells/{} cubes", f.volume())
                    })
                    .collect();
                println!(
                    "{:<11} {:<11} {:<13} {}{}",
                    s.key,
                    s.theme,
                    s.provenance,
                    counts.join(", "),
                    if s.dismantle.is_some() {
                        "; dismantle (R16)"
                    } else {
                        ""
                    }
                );
            }
        }
    }
    Ok(())
}

/// Perft with a progress bar over the first move when the count takes a while.
fn perft_with_progress(position: &Position, depth: u32) -> u64 {
    if depth < 3 {
        return perft(position, depth);
    }
    let moves = position.legal_moves();
    let bar = ProgressBar::new(moves.len() as u64).with_style(
        ProgressStyle::with_template("perft {bar:40} {pos}/{len} first moves, {eta} left")
            .expect("valid template"),
    );
    let mut total = 0;
    for mv in moves {
        let mut next = position.clone();
        next.play_unchecked(mv);
        total += perft(&next, depth - 1);
        bar.inc(1);
    }
    bar.finish_and_clear();
    total
}

fn print_stones(only: Option<&str>) -> anyhow::Result<()> {
    match only {
        Some(code) => {
            let stone = Stone::from_code(code).with_context(|| {
                format!("unknown stone `{code}` (D2 I3 L3 I4 O4 T4 L4 S4 Y4 A4 B4)")
            })?;
            print!("{}", draw::orientations(stone));
        }
        None => {
            for stone in Stone::ALL {
                println!(
                    "{:<3} {:<20} {} cubes, {:>2} orientations",
                    stone.code(),
                    stone.name(),
                    stone.size(),
                    stone.orientations().len()
                );
            }
        }
    }
    Ok(())
}
