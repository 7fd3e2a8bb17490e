//! `rumi-bench puzzles`: how long the Rummikub puzzle generator takes per puzzle, and
//! how many dealt rounds it needs: the daily puzzles of a range of dates, then a
//! held-out range of plain seeds the generator was not tuned on. One thread, the
//! puzzles one after another (as the server builds one puzzle per core). Prints a line
//! per puzzle on stderr, then p50/p99/max of the time and the attempts per range, and
//! the difficulties.

use std::time::{Duration, Instant};

use anyhow::bail;
use clap::Args;
use play::rummikub_puzzles::{daily_seed, generate, PuzzleDate, MAX_DIFFICULTY};

#[derive(Args)]
pub struct PuzzlesArgs {
    /// Daily puzzles: this many dates, ending with --last.
    #[arg(long, default_value_t = 60)]
    dates: u32,
    /// The last date (YYYY-MM-DD).
    #[arg(long, default_value = "2026-12-06")]
    last: String,
    /// Held-out puzzles: seeds --seed … --seed + --seeds − 1.
    #[arg(long, default_value_t = 60)]
    seeds: u32,
    #[arg(long, default_value_t = 1_000_000)]
    seed: u64,
}

/// One generated puzzle's figures.
struct Sample {
    time: Duration,
    attempts: u32,
    difficulty: u8,
}

pub fn bench(args: PuzzlesArgs) -> anyhow::Result<()> {
    let Ok(last) = PuzzleDate::parse(&args.last) else {
        bail!("--last is a date YYYY-MM-DD, not {}", args.last);
    };
    if args.dates + args.seeds == 0 {
        bail!("give --dates or --seeds");
    }
    let dates: Vec<(String, u64)> = (0..args.dates)
        .rev()
        .map(|back| {
            let date = last.plus_days(-i64::from(back));
            (date.to_string(), daily_seed(date))
        })
        .collect();
    let seeds: Vec<(String, u64)> = (0..u64::from(args.seeds))
        .map(|i| (format!("seed {}", args.seed + i), args.seed + i))
        .collect();
    let daily = run("daily", &dates)?;
    let held_out = run("held-out seeds", &seeds)?;
    println!("Rummikub puzzle generation, one thread, one puzzle after another:");
    println!();
    println!("| range | puzzles | time p50 | p99 | max | attempts p50 | p99 | max |");
    println!("|---|---|---|---|---|---|---|---|");
    for (name, samples) in [
        (format!("daily, {} dates to {last}", args.dates), &daily),
        (
            format!(
                "held-out seeds {}…{}",
                args.seed,
                (args.seed + u64::from(args.seeds)).saturating_sub(1)
            ),
            &held_out,
        ),
    ] {
        if samples.is_empty() {
            continue;
        }
        let mut times: Vec<Duration> = samples.iter().map(|s| s.time).collect();
        times.sort();
        let mut attempts: Vec<u32> = samples.iter().map(|s| s.attempts).collect();
        attempts.sort();
        let ms = |d: Duration| format!("{:.0} ms", d.as_secs_f64() * 1e3);
        println!(
            "| {name} | {} | {} | {} | {} | {} | {} | {} |",
            samples.len(),
            ms(quantile(&times, 0.5)),
            ms(quantile(&times, 0.99)),
            ms(times[times.len() - 1]),
            quantile(&attempts, 0.5),
            quantile(&attempts, 0.99),
            attempts[attempts.len() - 1],
        );
    }
    println!();
    let all: Vec<&Sample> = daily.iter().chain(&held_out).collect();
    let by_difficulty: Vec<String> = (1..=MAX_DIFFICULTY)
        .map(|d| {
            let n = all.iter().filter(|s| s.difficulty == d).count();
            format!("{d}: {n}")
        })
        .collect();
    println!("difficulties (puzzles): {}", by_difficulty.join(", "));
    Ok(())
}

/// Generates every puzzle of a range, a progress line each.
fn run(name: &str, seeds: &[(String, u64)]) -> anyhow::Result<Vec<Sample>> {
    let mut samples = Vec::new();
    for (i, (label, seed)) in seeds.iter().enumerate() {
        let started = Instant::now();
        let puzzle = generate(*seed)?;
        let time = started.elapsed();
        eprintln!(
            "{name} {}/{}: {label}: {:.0} ms, {} attempt(s), lay {} of {} tiles, {} sets change, {} joker(s), difficulty {}",
            i + 1,
            seeds.len(),
            time.as_secs_f64() * 1e3,
            puzzle.attempts,
            puzzle.goal,
            puzzle.rack.len(),
            puzzle.changed_sets,
            puzzle.jokers,
            puzzle.difficulty,
        );
        samples.push(Sample {
            time,
            attempts: puzzle.attempts,
            difficulty: puzzle.difficulty,
        });
    }
    Ok(samples)
}

/// The `q` quantile of sorted values (nearest rank).
fn quantile<T: Copy>(sorted: &[T], q: f64) -> T {
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}
