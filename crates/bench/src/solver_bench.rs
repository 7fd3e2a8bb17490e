//! `rumi-bench solver`: the Rummikub solver against the integer program (den Hertog &
//! Hulshof, good_lp + microlp) on one fixed seeded suite, both timed in the same run
//! (the solver over the suite first, then the integer program; `--interleaved` takes
//! each position by both in turn).

use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rummikub::notation::parse_table;
use rummikub::{Colour, RuleSet, Set, Tile};
use rummikub_oracle::ilp::{self, Goal};
use rummikub_oracle::suite::{self, SuitePosition};
use rummikub_solver::{Objective, Solution, SolveError, SolverCache, TableAndRack, TieBreak};

/// Options for `rumi-bench solver`.
#[derive(Args)]
pub struct SolverBenchArgs {
    /// Positions from self-play games (the constructed worst cases come on top).
    #[arg(long, default_value_t = 1000)]
    pub positions: usize,
    /// First seed of the self-play rounds (the suite is the same for the same seed and
    /// count; another seed gives a held-out suite).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Skip the integer program (time the solver alone).
    #[arg(long)]
    pub no_ilp: bool,
    /// Also list the N positions the solver took longest on.
    #[arg(long, default_value_t = 0)]
    pub slowest: usize,
    /// Among equally good plays: `fewest-changed` (what `rumi solve` and the hint show)
    /// or `any` (what the bots ask for).
    #[arg(long, value_enum, default_value_t = TieBreakArg::FewestChanged)]
    pub tie_break: TieBreakArg,
    /// Time each position this many times and keep the fastest (steadier figures on a
    /// busy machine).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub repeat: u32,
    /// Time each position by the solver and then the integer program in turn, instead of
    /// the solver over the whole suite first (the solver then runs with caches and branch
    /// predictors the integer program has just cleared: slower).
    #[arg(long)]
    pub interleaved: bool,
    /// Rules of the self-play games: `current` or `old` (wrap-around runs, one joker per
    /// set, frozen joker sets).
    #[arg(long, default_value = "current", value_parser = parse_rules)]
    pub rules: RuleSet,
    /// Also search the N positions that stored the most states one way of walking the
    /// numbers at a time (26 ways under the old rules, 2 under the current ones), and
    /// compare the best way with the solver: what a better choice of ways would gain.
    #[arg(long, default_value_t = 0)]
    pub ways: usize,
    /// Most states one way may store under `--ways` (a way past it counts as that
    /// many).
    #[arg(long, default_value_t = 1_000_000)]
    pub ways_limit: usize,
    /// Also time the N positions that stored the most states again, `--loops` times each
    /// (the fastest kept): the cost of a state where the tail is. Run under callgrind
    /// (see docs/rummikub-solver.md), its instruction count does not depend on the
    /// machine's day.
    #[arg(long, default_value_t = 0)]
    pub heaviest: usize,
    /// Solves of each position under `--heaviest`.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    pub loops: u32,
}

fn parse_rules(text: &str) -> Result<RuleSet, String> {
    text.parse().map_err(|e| format!("{e}"))
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum TieBreakArg {
    FewestChanged,
    Any,
}

impl TieBreakArg {
    fn tie_break(self) -> TieBreak {
        match self {
            TieBreakArg::FewestChanged => TieBreak::FewestChangedSets,
            TieBreakArg::Any => TieBreak::Any,
        }
    }
}

/// Hand-made hard positions: long racks after penalties and a full table.
fn worst_cases() -> Vec<(String, SuitePosition)> {
    let current = RuleSet::current();
    let numbered = |from: u8, to: u8| -> Vec<Tile> {
        Colour::ALL
            .iter()
            .flat_map(|&c| (from..=to).filter_map(move |n| Tile::new(c, n)))
            .collect()
    };
    // Both copies of 1..11 in runs on the table (88 tiles); the 12s, 13s and jokers on
    // the rack.
    let mut full_table: Vec<Set> = Vec::new();
    for _ in 0..2 {
        for c in Colour::ALL {
            full_table.push(Set::new((1..=11).filter_map(|n| Tile::new(c, n)).collect()));
        }
    }
    let mut rack_high = numbered(12, 13);
    rack_high.extend(numbered(12, 13));
    rack_high.extend([Tile::JOKER, Tile::JOKER]);
    // A 30-tile rack: 1..7 of every colour and the jokers, on an empty table.
    let mut long_rack = numbered(1, 7);
    long_rack.extend([Tile::JOKER, Tile::JOKER]);
    // Groups on the table, a rack that can extend them into runs.
    let groups = parse_table(
        "[r3 b3 k3] [r4 b4 k4 o4] [r5 b5 k5] [r6 b6 k6 o6] [r7 b7 k7] [r8 b8 k8 o8] \
         [r9 b9 k9] [r10 b10 k10 o10] [b11 k11 o11] [r12 b12 o12]",
    )
    .unwrap_or_default();
    let mut rack_runs = numbered(1, 2);
    rack_runs.extend([Tile::JOKER]);
    let position = |table: Vec<Set>, rack: Vec<Tile>, melded: bool| SuitePosition {
        rules: current.clone(),
        table,
        rack,
        melded,
    };
    vec![
        (
            "full table, 18-tile rack with both jokers".into(),
            position(full_table.clone(), rack_high.clone(), true),
        ),
        (
            "30-tile rack, empty table".into(),
            position(Vec::new(), long_rack.clone(), true),
        ),
        (
            "30-tile rack, initial meld".into(),
            position(Vec::new(), long_rack, false),
        ),
        (
            "groups table, rack of 1s, 2s and a joker".into(),
            position(groups, rack_runs, true),
        ),
        (
            "full table, old rules".into(),
            SuitePosition {
                rules: RuleSet::old(),
                ..position(full_table, rack_high, true)
            },
        ),
    ]
}

#[derive(Default)]
struct Timing {
    solver: Vec<Duration>,
    ilp: Vec<Duration>,
    disagreements: usize,
    /// Positions the solver refused as too large for its state budget.
    refused: usize,
    /// Positions answered without the fewest-changed-sets tie-break proven (its search
    /// passed the state budget; the play is still best on the objective).
    unproven: usize,
    /// Search states each solve stored (the machine-independent measure of work).
    states: Vec<usize>,
}

/// The value at fraction `p` of a sorted list (times or state counts); the default
/// for an empty list.
fn percentile<T: Copy + Default>(sorted: &[T], p: f64) -> T {
    if sorted.is_empty() {
        return T::default();
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn show(d: Duration) -> String {
    let us = d.as_secs_f64() * 1e6;
    if us < 1000.0 {
        format!("{us:.1} µs")
    } else if us < 1e6 {
        format!("{:.2} ms", us / 1000.0)
    } else {
        format!("{:.2} s", us / 1e6)
    }
}

/// Times the solver on one position (the fastest of `repeat` calls); its answer, or
/// `None` if it refused the position as too large (counted).
fn time_solver(
    cache: &mut SolverCache,
    p: &SuitePosition,
    objective: Objective,
    args: &SolverBenchArgs,
    t: &mut Timing,
) -> Result<Option<Option<Solution>>> {
    let tie_break = args.tie_break.tie_break();
    let position = TableAndRack::with_sets(p.table.clone(), p.rack.clone(), p.melded);
    let mut fastest = Duration::MAX;
    let mut ours = Ok(None);
    for _ in 0..args.repeat {
        let start = Instant::now();
        ours = cache.solve_with(&p.rules, &position, objective, tie_break);
        fastest = fastest.min(start.elapsed());
    }
    // A refused position is timed like any other, and counted.
    t.solver.push(fastest);
    t.states.push(cache.last_states());
    match ours {
        Ok(answer) => {
            let asked = tie_break == TieBreak::FewestChangedSets;
            if asked && answer.as_ref().is_some_and(|s| !s.fewest_changed_proven) {
                t.unproven += 1;
            }
            Ok(Some(answer))
        }
        Err(SolveError::TooLarge(_)) => {
            t.refused += 1;
            Ok(None)
        }
        Err(error) => Err(error.into()),
    }
}

/// Times the integer program on one position and compares its answer with the
/// solver's.
fn time_ilp(
    p: &SuitePosition,
    objective: Objective,
    args: &SolverBenchArgs,
    ours: &Option<Solution>,
    t: &mut Timing,
) -> Duration {
    let goal = match objective {
        Objective::Tiles => Goal::Tiles,
        Objective::Value => Goal::Value,
    };
    let start = Instant::now();
    let theirs = ilp::solve_position(p, goal);
    let took = start.elapsed();
    t.ilp.push(took);
    let same = match (ours, &theirs) {
        (None, None) => true,
        (Some(s), Some(i)) => {
            let primary = match objective {
                Objective::Tiles => i64::from(s.tiles) == i.tiles,
                Objective::Value => i64::from(s.value) == i.value,
            };
            // With `any` (asked for, or fallen back to past the state budget) the
            // solver does not minimise the changed sets.
            let changed = matches!(args.tie_break, TieBreakArg::Any)
                || !s.fewest_changed_proven
                || s.changed_sets as i64 == i.changed;
            primary && changed
        }
        _ => false,
    };
    if !same {
        // (Enough to solve it again: `rumi solve rummikub --table … --rack …`.)
        let table: Vec<String> = p.table.iter().map(ToString::to_string).collect();
        let rack: Vec<String> = p.rack.iter().map(|t| t.to_string()).collect();
        eprintln!(
            "disagreement ({objective:?}, melded {}): table {} rack {}: the solver {:?}, the integer program {:?}",
            p.melded,
            table.join(" "),
            rack.join(" "),
            ours.as_ref().map(|s| (s.tiles, s.value, s.changed_sets)),
            theirs.map(|i| (i.tiles, i.value, i.changed)),
        );
    }
    t.disagreements += usize::from(!same);
    took
}

/// The `count` positions that stored the most states (`states`, by position), most
/// first.
fn most_states(states: &[usize], count: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..states.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(states[i]));
    order.truncate(count);
    order
}

/// `--ways`: the positions that stored the most states, each searched one way of
/// walking the numbers at a time ([`SolverCache::solve_walked`]), against the solver's
/// own choice of ways.
fn compare_ways(
    positions: &[SuitePosition],
    states: &[usize],
    args: &SolverBenchArgs,
) -> Result<()> {
    let order = most_states(states, args.ways);
    let ways = SolverCache::ways_of_walking(&args.rules);
    let bar = ProgressBar::new((order.len() * ways) as u64).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} solves one way alone, about {eta} left")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let tie_break = args.tie_break.tie_break();
    let mut cache = SolverCache::with_state_limit(args.ways_limit);
    let mut rows = Vec::with_capacity(order.len());
    for &i in &order {
        let p = &positions[i];
        let position = TableAndRack::with_sets(p.table.clone(), p.rack.clone(), p.melded);
        let mut per_way = Vec::with_capacity(ways);
        for way in 0..ways {
            let stored =
                match cache.solve_walked(&p.rules, &position, alternating(i), tie_break, way) {
                    Ok(_) => cache.last_states(),
                    Err(SolveError::TooLarge(_)) => args.ways_limit,
                    Err(e) => bail!("position {i}, way {way}: {e}"),
                };
            per_way.push(stored);
            bar.inc(1);
        }
        rows.push((i, per_way));
    }
    bar.finish_and_clear();
    println!(
        "(c) the {} positions that stored the most states, each way of walking alone ({ways} ways, at most {} states a way):",
        order.len(),
        args.ways_limit
    );
    println!("  one digit per way, in the solver's order: log2 of its states over the best way's (9: 512 times or more)");
    let (mut solver_total, mut best_total) = (0usize, 0usize);
    // Per position, for the figures at p99 below: the solver, the best way, the first.
    let (mut solver_states, mut best_states, mut first_states) =
        (Vec::new(), Vec::new(), Vec::new());
    for (i, per_way) in &rows {
        let best = per_way.iter().copied().min().unwrap_or(1).max(1);
        let best_way = per_way.iter().position(|&s| s == best).unwrap_or(0);
        let mut sorted = per_way.clone();
        sorted.sort_unstable();
        let digits: String = per_way
            .iter()
            .map(|&s| {
                let log = (s.max(1) as f64 / best as f64).log2().round() as u32;
                char::from_digit(log.min(9), 10).unwrap_or('9')
            })
            .collect();
        println!(
            "  no. {i:>5}: solver {:>9}  best way {best:>9} (no. {best_way:>2}, {:>5.1}x fewer)  first way {:>9}  median {:>9}  {digits}",
            states[*i],
            states[*i] as f64 / best as f64,
            per_way[0],
            sorted[sorted.len() / 2],
        );
        solver_total += states[*i];
        best_total += best;
        solver_states.push(states[*i]);
        best_states.push(best);
        first_states.push(per_way[0]);
    }
    println!(
        "  in all: the solver {solver_total} states, the best way of each {best_total} ({:.1}x fewer)",
        solver_total as f64 / best_total.max(1) as f64
    );
    // With every position listed (`--ways` at least `--positions`), what a perfect choice
    // of the way would store at p99, against the solver's choice and the first way.
    let at_p99 = |mut states: Vec<usize>| {
        states.sort_unstable();
        percentile(&states, 0.99)
    };
    println!(
        "  states at p99 of these {} positions: the solver {}, the best way of each {}, the first way {}",
        rows.len(),
        at_p99(solver_states),
        at_p99(best_states),
        at_p99(first_states),
    );
    Ok(())
}

/// The `--heaviest` positions that stored the most states, solved `--loops` times each:
/// their states, and the fastest time of each.
fn heaviest(
    cache: &mut SolverCache,
    positions: &[SuitePosition],
    states: &[usize],
    args: &SolverBenchArgs,
) -> Result<()> {
    let order = most_states(states, args.heaviest);
    let fastest = time_heaviest(cache, positions, &order, args)?;
    let stored: usize = order.iter().map(|&i| states[i]).sum();
    let total: Duration = fastest.iter().sum();
    let mut sorted = fastest.clone();
    sorted.sort();
    println!(
        "(d) the {} positions that stored the most states (at least {}), each solved {} times: {stored} states, {} in all (the fastest of each), median {}, {:.3} µs a state",
        order.len(),
        order.last().map_or(0, |&i| states[i]),
        args.loops,
        show(total),
        show(percentile(&sorted, 0.5)),
        total.as_secs_f64() * 1e6 / stored.max(1) as f64,
    );
    Ok(())
}

/// The solves of [`heaviest`], in a function of their own so that a profiler can count
/// them alone (callgrind's `--toggle-collect='*time_heaviest*'`).
#[inline(never)]
fn time_heaviest(
    cache: &mut SolverCache,
    positions: &[SuitePosition],
    order: &[usize],
    args: &SolverBenchArgs,
) -> Result<Vec<Duration>> {
    let tie_break = args.tie_break.tie_break();
    let mut fastest = vec![Duration::MAX; order.len()];
    for _ in 0..args.loops {
        for (k, &i) in order.iter().enumerate() {
            let p = &positions[i];
            let position = TableAndRack::with_sets(p.table.clone(), p.rack.clone(), p.melded);
            let start = Instant::now();
            match cache.solve_with(&p.rules, &position, alternating(i), tie_break) {
                Ok(_) | Err(SolveError::TooLarge(_)) => {}
                Err(e) => bail!("position {i}: {e}"),
            }
            fastest[k] = fastest[k].min(start.elapsed());
        }
    }
    Ok(fastest)
}

/// The suite's objective at position i: tiles and value in turn.
fn alternating(i: usize) -> Objective {
    if i.is_multiple_of(2) {
        Objective::Tiles
    } else {
        Objective::Value
    }
}

/// Times the solver and (unless `--no-ilp`) the integer program on `positions` (the
/// objective alternating tiles/value, or `only`). By default the solver goes over all of
/// them first and the integer program after: timed right after an integer-program
/// solve, the solver needs three or four calls to get its caches and branch predictors
/// back, so `--interleaved` (each position by both in turn) times it slower. The
/// integer program's time per position (`None`: not run).
fn time_all(
    cache: &mut SolverCache,
    positions: &[SuitePosition],
    only: Option<Objective>,
    args: &SolverBenchArgs,
    t: &mut Timing,
    bar: &ProgressBar,
) -> Result<Vec<Option<Duration>>> {
    let objective = |i: usize| only.unwrap_or(alternating(i));
    let mut answers = Vec::with_capacity(positions.len());
    let mut ilp_times = vec![None; positions.len()];
    for (i, p) in positions.iter().enumerate() {
        let answer = time_solver(cache, p, objective(i), args, t)?;
        if args.interleaved && !args.no_ilp {
            // (A position the solver refused has nothing to compare.)
            if let Some(ours) = &answer {
                ilp_times[i] = Some(time_ilp(p, objective(i), args, ours, t));
            }
            bar.inc(1);
        }
        answers.push(answer);
        bar.inc(1);
    }
    if args.no_ilp || args.interleaved {
        return Ok(ilp_times);
    }
    for (i, (p, answer)) in positions.iter().zip(&answers).enumerate() {
        if let Some(ours) = answer {
            ilp_times[i] = Some(time_ilp(p, objective(i), args, ours, t));
        }
        bar.inc(1);
    }
    Ok(ilp_times)
}

fn report(name: &str, t: &mut Timing) {
    t.solver.sort();
    t.ilp.sort();
    let line = |label: &str, v: &[Duration]| {
        println!(
            "  {label:<7} p50 {:>10}  p99 {:>10}  max {:>10}",
            show(percentile(v, 0.5)),
            show(percentile(v, 0.99)),
            show(v.last().copied().unwrap_or_default())
        );
    };
    println!(
        "{name} ({} positions, {} refused as too large, {} answered without the fewest-changed tie-break proven):",
        t.solver.len(),
        t.refused,
        t.unproven
    );
    line("solver", &t.solver);
    t.states.sort_unstable();
    println!(
        "  states  p50 {:>10}  p99 {:>10}  max {:>10}",
        percentile(&t.states, 0.5),
        percentile(&t.states, 0.99),
        t.states.last().copied().unwrap_or(0)
    );
    if !t.ilp.is_empty() {
        line("ILP", &t.ilp);
        let ratio = |p: f64| {
            percentile(&t.ilp, p).as_secs_f64() / percentile(&t.solver, p).as_secs_f64().max(1e-9)
        };
        println!(
            "  ILP / solver: {:.1}x at p50, {:.1}x at p99; disagreements: {}",
            ratio(0.5),
            ratio(0.99),
            t.disagreements
        );
    }
}

/// Median time per table size (tiles on the table, in tens), solver and integer
/// program, as bars on a log scale: where the time goes as a round fills the table.
fn table_size_chart(rows: &[(usize, Duration, Option<Duration>)]) -> String {
    let mut out = String::from(
        "  by table size (median per position; bar: solver, log scale, one mark per x2 from 10 µs):\n",
    );
    let bar = |d: Duration| {
        let us = d.as_secs_f64() * 1e6;
        let marks = if us <= 10.0 {
            0
        } else {
            (us / 10.0).log2().round() as usize + 1
        };
        "#".repeat(marks.min(40))
    };
    for bucket in 0..=9 {
        let mut solver: Vec<Duration> = rows
            .iter()
            .filter(|r| (r.0 / 10).min(9) == bucket)
            .map(|r| r.1)
            .collect();
        if solver.is_empty() {
            continue;
        }
        solver.sort();
        let mut ilp: Vec<Duration> = rows
            .iter()
            .filter(|r| (r.0 / 10).min(9) == bucket)
            .filter_map(|r| r.2)
            .collect();
        ilp.sort();
        let median = percentile(&solver, 0.5);
        let ilp_text = if ilp.is_empty() {
            String::new()
        } else {
            format!("  ILP {:>9}", show(percentile(&ilp, 0.5)))
        };
        out.push_str(&format!(
            "  table {:>2}-{:<2} {:>4} positions  solver {:>9}{ilp_text}  {}\n",
            bucket * 10,
            if bucket == 9 {
                "".to_string()
            } else {
                (bucket * 10 + 9).to_string()
            },
            solver.len(),
            show(median),
            bar(median)
        ));
    }
    out
}

pub fn bench(args: SolverBenchArgs) -> Result<()> {
    let generating = ProgressBar::new(args.positions as u64).with_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} positions from self-play, about {eta} left",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let positions =
        suite::self_play_with_progress(&args.rules, args.seed, args.positions, 12, |so_far| {
            generating.set_position(so_far as u64)
        });
    generating.finish_and_clear();
    let racks = positions.iter().map(|p| p.rack.len());
    let tables = positions.iter().map(|p| p.table_tiles());
    println!(
        "suite: {} self-play positions (seed {}) under the {} rules (rack {}-{} tiles, table {}-{} tiles, {} with jokers), objective alternating tiles/value",
        positions.len(),
        args.seed,
        if args.rules.run_wraps_around { "old" } else { "current" },
        racks.clone().min().unwrap_or(0),
        racks.max().unwrap_or(0),
        tables.clone().min().unwrap_or(0),
        tables.max().unwrap_or(0),
        positions.iter().filter(|p| p.jokers() != (0, 0)).count()
    );
    // One step per position for the solver, one for the integer program.
    let steps = if args.no_ilp { 1 } else { 2 };
    let bar = ProgressBar::new((steps * positions.len()) as u64).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} solves, about {eta} left")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut t = Timing::default();
    // One cache for the whole run, as a caller solving many positions keeps it.
    let mut cache = SolverCache::new();
    let ilp_times = time_all(&mut cache, &positions, None, &args, &mut t, &bar)?;
    bar.finish_and_clear();
    let mut times: Vec<(Duration, usize, Objective)> = t
        .solver
        .iter()
        .enumerate()
        .map(|(i, &time)| (time, i, alternating(i)))
        .collect();
    let by_table: Vec<(usize, Duration, Option<Duration>)> = positions
        .iter()
        .zip(&t.solver)
        .zip(ilp_times)
        .map(|((p, &time), ilp)| (p.table_tiles(), time, ilp))
        .collect();
    let states_by_position = t.states.clone();
    report("(a) self-play suite", &mut t);
    print!("{}", table_size_chart(&by_table));
    times.sort_by_key(|t| std::cmp::Reverse(t.0));
    for &(time, i, objective) in times.iter().take(args.slowest) {
        let p = &positions[i];
        println!(
            "  slow: {:>10}  {objective:?}, table {} tiles in {} sets, rack {} tiles, jokers (rack, table) {:?}, melded {}",
            show(time),
            p.table_tiles(),
            p.table.len(),
            p.rack.len(),
            p.jokers(),
            p.melded
        );
    }
    if args.ways > 0 {
        compare_ways(&positions, &states_by_position, &args)?;
    }
    if args.heaviest > 0 {
        heaviest(&mut cache, &positions, &states_by_position, &args)?;
    }
    println!("(b) constructed worst cases:");
    for (name, p) in worst_cases() {
        let mut w = Timing::default();
        time_all(
            &mut cache,
            std::slice::from_ref(&p),
            Some(Objective::Tiles),
            &args,
            &mut w,
            &ProgressBar::hidden(),
        )?;
        report(&format!("  {name}"), &mut w);
        t.disagreements += w.disagreements;
    }
    if t.disagreements > 0 {
        bail!(
            "the solver and the integer program disagree on {} positions",
            t.disagreements
        );
    }
    Ok(())
}
