//! `rumi-bench mcts-reuse`: the server's MCTS bot keeping its tree between moves (as a
//! table's bot seat does now) against the same bot built anew for every move (as the
//! server did before), at the same time per move, through the match runner: every
//! deal is played twice with the seats swapped. Prints the kept bot's win share with
//! its 95% confidence interval, and how much search each of its moves carried over.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use anyhow::bail;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use play::bots::{Bot, RebuiltEachMove, WithBots};
use play::game::GameError;
use play::match_runner::{run_match, summarize, GameRecord};
use play::rumis_game::{RumisConfig, RumisGame};

#[derive(Args)]
pub struct MctsReuseArgs {
    /// Games (a multiple of the player count plays each deal in every seating).
    #[arg(long, default_value_t = 200)]
    games: usize,
    /// Milliseconds of search per move, the same for both bots.
    #[arg(long, default_value_t = 50)]
    ms: u64,
    /// New playouts per move instead of milliseconds, the same for both bots (as the
    /// server's levels are given; the same work whatever else the machine does).
    #[arg(long, conflicts_with = "ms")]
    playouts: Option<u32>,
    #[arg(long, default_value = "chullpa")]
    scenario: String,
    #[arg(long, default_value_t = 2)]
    players: u8,
    #[arg(long, default_value = "standard")]
    variant: String,
    /// Seed of the first deal; game g uses seed + g / players.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Games played at once (each bot thinks on one core; more threads than free cores
    /// take time from the searches).
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

const KEPT: &str = "kept";
const REBUILT: &str = "rebuilt";

/// The kept bot, counting the playouts it carries into each move.
struct Counted {
    bot: Box<dyn Bot<RumisGame>>,
    carried: Arc<AtomicU64>,
    moves: Arc<AtomicU64>,
    reused: Arc<AtomicU64>,
}

impl Bot<RumisGame> for Counted {
    fn name(&self) -> String {
        self.bot.name()
    }

    fn choose(
        &mut self,
        position: &rumis::Position,
        seat: usize,
    ) -> Result<rumis::Move, GameError> {
        let mv = self.bot.choose(position, seat)?;
        let carried = u64::from(self.bot.carried_visits());
        self.carried.fetch_add(carried, Ordering::Relaxed);
        self.moves.fetch_add(1, Ordering::Relaxed);
        if carried > 0 {
            self.reused.fetch_add(1, Ordering::Relaxed);
        }
        Ok(mv)
    }
}

pub fn bench(args: MctsReuseArgs) -> anyhow::Result<()> {
    if args.games == 0 || args.ms == 0 || args.playouts == Some(0) {
        bail!("--games, --ms and --playouts must be at least 1");
    }
    let config = RumisConfig::named(&args.scenario, args.players, &args.variant)?;
    let (spec, budget) = match args.playouts {
        Some(n) => (format!("mcts:p={n}"), format!("{n} new playouts a move")),
        None => (
            format!("mcts:ms={}", args.ms),
            format!("{} ms a move", args.ms),
        ),
    };
    // One entrant kept, the others rebuilt: with more players, the kept bot meets
    // several rebuilt ones.
    let entrants: Vec<String> = (0..args.players)
        .map(|p| if p == 0 { KEPT } else { REBUILT }.to_string())
        .collect();
    let carried = Arc::new(AtomicU64::new(0));
    let moves = Arc::new(AtomicU64::new(0));
    let reused = Arc::new(AtomicU64::new(0));
    let make = {
        let (spec, carried, moves, reused) =
            (spec.clone(), carried.clone(), moves.clone(), reused.clone());
        move |entrant: &str, seed: u64| -> Result<Box<dyn Bot<RumisGame>>, GameError> {
            if entrant == KEPT {
                Ok(Box::new(Counted {
                    bot: RumisGame::bot(&spec, seed)?,
                    carried: carried.clone(),
                    moves: moves.clone(),
                    reused: reused.clone(),
                }))
            } else {
                Ok(Box::new(RebuiltEachMove::<RumisGame>::new(&spec, seed)?))
            }
        }
    };
    let bar = ProgressBar::new(args.games as u64).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {elapsed_precise} (eta {eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let done = |_: &GameRecord| bar.inc(1);
    let started = std::time::Instant::now();
    let results = run_match::<RumisGame>(
        &config,
        &entrants,
        args.games,
        args.seed,
        args.threads,
        &make,
        &done,
    )?;
    bar.finish_and_clear();
    let summary = summarize(&entrants, &results);
    let kept = summary
        .bots
        .iter()
        .find(|b| b.name == KEPT)
        .expect("the kept bot played");
    println!(
        "mcts-reuse: {} games on {} ({} players, {}), seeds from {}, {budget}, {:.0} s",
        results.len(),
        args.scenario,
        args.players,
        args.variant,
        args.seed,
        started.elapsed().as_secs_f64()
    );
    println!(
        "kept tree against rebuilt each move: win share {:.1}% ± {:.1}% (95% CI, {} seat-games; an even match is {:.1}%)",
        kept.win_share * 100.0,
        kept.ci95 * 100.0,
        kept.seat_games,
        100.0 / f64::from(args.players)
    );
    let moves = moves.load(Ordering::Relaxed).max(1) as f64;
    println!(
        "the kept bot started {:.0}% of its moves with a kept subtree, carrying {:.0} playouts into a move on average",
        reused.load(Ordering::Relaxed) as f64 * 100.0 / moves,
        carried.load(Ordering::Relaxed) as f64 / moves
    );
    Ok(())
}
