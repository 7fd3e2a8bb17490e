//! `rumi-bench rumis`: the fast move generator against the plain reference generator,
//! in the same run, on one core: legal-move generation per position and random
//! playouts (whole games) per second, and their ratios.

use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rumis::{Position, Scenario, Setup};

#[derive(Args)]
pub struct BenchArgs {
    /// Seconds spent on each measurement.
    #[arg(long, default_value_t = 2.0)]
    seconds: f64,
    /// Scenarios to measure (4 players each).
    #[arg(long, value_delimiter = ',', default_value = "chullpa,coricancha")]
    scenarios: Vec<String>,
}

struct Measured {
    count: u64,
    elapsed: Duration,
}

impl Measured {
    fn per_second(&self) -> f64 {
        self.count as f64 / self.elapsed.as_secs_f64()
    }
    fn micros_each(&self) -> f64 {
        self.elapsed.as_secs_f64() * 1e6 / self.count as f64
    }
}

/// Runs `step` until `budget` is spent (at least once), with a progress bar; `step`
/// returns the units it did.
fn measure(label: String, budget: Duration, mut step: impl FnMut() -> u64) -> Measured {
    let bar = ProgressBar::new(budget.as_millis() as u64).with_style(
        ProgressStyle::with_template("{msg:32} {bar:30} {elapsed}").expect("valid template"),
    );
    bar.set_message(label);
    let start = Instant::now();
    let mut count = 0;
    loop {
        count += step();
        let elapsed = start.elapsed();
        bar.set_position(
            (elapsed.as_secs_f64() * 1000.0).min(budget.as_secs_f64() * 1000.0) as u64,
        );
        if elapsed >= budget {
            bar.finish_and_clear();
            return Measured { count, elapsed };
        }
    }
}

/// Positions met in seeded random games, as move lists from the start.
fn sample_games(setup: &Setup, games: u64) -> Vec<Vec<rumis::Move>> {
    let start = Position::new(setup.clone()).expect("benchmark setups are valid");
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut lines = Vec::new();
    for _ in 0..games {
        let mut p = start.clone();
        while let Some(mv) = p.random_move(&mut rng) {
            lines.push(p.history().to_vec());
            p.play_unchecked(mv);
        }
    }
    lines
}

/// A built-in scenario by its key, or a scenario file.
fn load_scenario(name: &str) -> anyhow::Result<Scenario> {
    if let Some(s) = Scenario::builtin(name) {
        return Ok(s);
    }
    let text = std::fs::read_to_string(name).map_err(|e| {
        let keys: Vec<&str> = Scenario::builtin_keys().collect();
        anyhow::anyhow!(
            "unknown scenario `{name}`: not a built-in one ({}) and no file to read ({e})",
            keys.join(", ")
        )
    })?;
    let stem = std::path::Path::new(name)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("scenario");
    Ok(Scenario::parse(name, stem, &text)?)
}

pub fn bench(args: BenchArgs) -> anyhow::Result<()> {
    let budget = Duration::from_secs_f64(args.seconds);
    let mut rows = Vec::new();
    for key in &args.scenarios {
        let scenario = load_scenario(key)?;
        rows.push(bench_scenario(&scenario, budget)?);
    }
    println!();
    println!(
        "{:<11} {:>13} {:>13} {:>8} {:>14} {:>14} {:>8}",
        "scenario", "movegen µs", "reference µs", "ratio", "playouts/s", "reference/s", "ratio"
    );
    for r in rows {
        println!(
            "{:<11} {:>13.3} {:>13.1} {:>7.0}× {:>14.0} {:>14.2} {:>7.0}×",
            r.key,
            r.fast_gen.micros_each(),
            r.slow_gen.micros_each(),
            r.slow_gen.micros_each() / r.fast_gen.micros_each(),
            r.fast_playouts.per_second(),
            r.slow_playouts.per_second(),
            r.fast_playouts.per_second() / r.slow_playouts.per_second(),
        );
    }
    println!("(4 players, one core; movegen = listing every legal move of one position, averaged over positions from seeded random games)");
    Ok(())
}

struct Row {
    key: String,
    fast_gen: Measured,
    slow_gen: Measured,
    fast_playouts: Measured,
    slow_playouts: Measured,
}

fn bench_scenario(scenario: &Scenario, budget: Duration) -> anyhow::Result<Row> {
    let setup = Setup::new(scenario.clone(), 4);
    let lines = sample_games(&setup, 20);
    let replay = |fast: bool| -> anyhow::Result<Vec<Position>> {
        let start = if fast {
            Position::new(setup.clone())?
        } else {
            Position::new_reference(setup.clone())?
        };
        // Every position of the sample, built incrementally game by game.
        let mut out = Vec::with_capacity(lines.len());
        for line in &lines {
            let mut p = start.clone();
            for &mv in line {
                p.play_unchecked(mv);
            }
            out.push(p);
        }
        Ok(out)
    };
    let fast_positions = replay(true)?;
    let slow_positions = replay(false)?;
    let mut buffer = Vec::new();
    let mut i = 0;
    let fast_gen = measure(format!("{}: fast movegen", scenario.key), budget, || {
        buffer.clear();
        let p = &fast_positions[i % fast_positions.len()];
        p.for_each_legal(|m| buffer.push(m));
        i += 1;
        1
    });
    let mut i = 0;
    let slow_gen = measure(
        format!("{}: reference movegen", scenario.key),
        budget,
        || {
            // Spread over the game: every 7th position.
            let p = &slow_positions[(i * 7) % slow_positions.len()];
            i += 1;
            std::hint::black_box(p.legal_moves().len());
            1
        },
    );

    let playout = |start: &Position, rng: &mut ChaCha8Rng| {
        let mut p = start.clone();
        p.play_randomly(rng);
        std::hint::black_box(p.score());
        1
    };
    let fast_start = Position::new(setup.clone())?;
    let slow_start = Position::new_reference(setup.clone())?;
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let fast_playouts = measure(format!("{}: fast playouts", scenario.key), budget, || {
        playout(&fast_start, &mut rng)
    });
    let slow_playouts = measure(
        format!("{}: reference playouts", scenario.key),
        budget,
        || playout(&slow_start, &mut rng),
    );
    Ok(Row {
        key: scenario.key.clone(),
        fast_gen,
        slow_gen,
        fast_playouts,
        slow_playouts,
    })
}
