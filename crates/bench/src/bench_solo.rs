//! `rumi-bench solo`: the solo cube's "can this still be finished?" as the server
//! answers it (`server::solo::finishable`, within the server's bound), timed over
//! random partial builds of every level: random legal stones, and prefixes of the
//! full cubes the solver completes them to (so finishable builds of every size). A
//! level of no full cube at all is refused when it is set up (no build to time).

use std::time::{Duration, Instant};

use anyhow::Result;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rumis::solo::{Build, Decision, Piece, SoloCube};
use rumis::Colour;
use server::solo::{all_levels, cube, finishable, SOLVER_BOUND};
use server::wire::{SoloAnswer, SoloLevel};

/// Options for `rumi-bench solo`.
#[derive(Args)]
pub struct SoloBenchArgs {
    /// Random partial builds per playable level.
    #[arg(long, default_value_t = 40)]
    pub builds: usize,
    #[arg(long, default_value_t = 48)]
    pub seed: u64,
}

/// A random legal stone on the build (any colour that may place it), if there is one.
fn random_stone(build: &Build, rng: &mut ChaCha8Rng) -> Option<Piece> {
    let cube = build.cube();
    let mut order: Vec<usize> = (0..cube.placements().len()).collect();
    order.shuffle(rng);
    let colours = cube.spec().colours;
    order.into_iter().find_map(|i| {
        let p = &cube.placements()[i];
        let cells = cube.cells_of(p.mask);
        let colour = Colour(rng.gen_range(0..colours));
        build
            .check(Some(colour), p.stone, &cells)
            .or_else(|_| build.check(None, p.stone, &cells))
            .ok()
    })
}

/// A build of `stones` random legal stones (fewer when none fits any more).
fn random_build<'a>(cube: &'a SoloCube, rng: &mut ChaCha8Rng, stones: usize) -> Build<'a> {
    let mut build = Build::new(cube);
    for _ in 0..stones {
        let Some(piece) = random_stone(&build, rng) else {
            break;
        };
        let cells = build.cells(&piece);
        build
            .place(Some(piece.colour), piece.stone, &cells)
            .expect("checked");
    }
    build
}

/// `count` random partial builds: half of up to an eighth of the cube's cells in random
/// legal stones (as a person might place them), half prefixes of the full cube the
/// solver finds from one or two random stones (finishable builds of every size).
fn builds(cube: &SoloCube, rng: &mut ChaCha8Rng, count: usize) -> Vec<Vec<Piece>> {
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let stones = rng.gen_range(0..=cube.volume() / 8);
        out.push(random_build(cube, rng, stones).pieces().to_vec());
        if out.len() == count {
            break;
        }
        let first = rng.gen_range(0..=2);
        let start = random_build(cube, rng, first);
        let until = Instant::now() + SOLVER_BOUND;
        let pieces = start.pieces().to_vec();
        if let Decision::Solved(solution) =
            cube.decide_from(&pieces, &mut || Instant::now() >= until)
        {
            let cut = rng.gen_range(pieces.len()..=solution.pieces.len());
            out.push(solution.pieces[..cut].to_vec());
        }
    }
    out
}

#[derive(Default)]
struct Tally {
    times: Vec<Duration>,
    yes: usize,
    no: usize,
    unknown: usize,
}

impl Tally {
    fn add(&mut self, time: Duration, answer: SoloAnswer) {
        self.times.push(time);
        match answer {
            SoloAnswer::Yes => self.yes += 1,
            SoloAnswer::No => self.no += 1,
            SoloAnswer::Unknown => self.unknown += 1,
        }
    }

    fn quantile(&self, q: f64) -> Duration {
        let mut times = self.times.clone();
        times.sort();
        if times.is_empty() {
            return Duration::ZERO;
        }
        let i = ((times.len() as f64 * q).ceil() as usize).clamp(1, times.len()) - 1;
        times[i]
    }

    fn line(&self) -> String {
        let ms = |d: Duration| format!("{:.1} ms", d.as_secs_f64() * 1000.0);
        format!(
            "{:>5} builds  yes {:>5}  no {:>5}  unknown {:>3}  p50 {:>9}  p99 {:>9}  max {:>9}",
            self.times.len(),
            self.yes,
            self.no,
            self.unknown,
            ms(self.quantile(0.5)),
            ms(self.quantile(0.99)),
            ms(self.quantile(1.0)),
        )
    }
}

fn name(level: &SoloLevel) -> String {
    format!(
        "edge {} colours {} {:<5} {:<9}",
        level.edge,
        level.colours,
        if level.rules { "rules" } else { "" },
        if level.alternate { "alternate" } else { "" }
    )
}

pub fn bench(args: SoloBenchArgs) -> Result<()> {
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let levels = all_levels();
    let mut playable = Vec::new();
    for level in &levels {
        match cube(level).map_err(|e| anyhow::anyhow!("{}", e.message))? {
            Ok(p) => playable.push((*level, p)),
            Err(e) => println!("{}  refused at set-up: {e}", name(level)),
        }
    }
    eprintln!(
        "{} of {} levels playable; {} random builds each, bound {:?}, one thread",
        playable.len(),
        levels.len(),
        args.builds,
        SOLVER_BOUND
    );
    let bar = ProgressBar::new((playable.len() * args.builds) as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} builds {msg} [{elapsed}]")
            .expect("a template"),
    );
    let mut per_edge: Vec<(u8, Tally)> = Vec::new();
    for (level, cube) in playable {
        bar.set_message(name(&level));
        let mut tally = Tally::default();
        for pieces in builds(cube, &mut rng, args.builds) {
            let started = Instant::now();
            let answer = finishable(cube, &pieces, SOLVER_BOUND);
            tally.add(started.elapsed(), answer);
            bar.inc(1);
        }
        bar.suspend(|| println!("{}  {}", name(&level), tally.line()));
        match per_edge.iter_mut().find(|(e, _)| *e == level.edge) {
            Some((_, t)) => {
                t.times.extend(&tally.times);
                t.yes += tally.yes;
                t.no += tally.no;
                t.unknown += tally.unknown;
            }
            None => per_edge.push((level.edge, tally)),
        }
    }
    bar.finish_and_clear();
    println!("\nper edge (\"can this still be finished?\", bound {SOLVER_BOUND:?}):");
    let mut all = Tally::default();
    for (edge, tally) in &per_edge {
        println!("edge {edge}  {}", tally.line());
        all.times.extend(&tally.times);
        all.yes += tally.yes;
        all.no += tally.no;
        all.unknown += tally.unknown;
    }
    println!("all     {}", all.line());
    Ok(())
}
