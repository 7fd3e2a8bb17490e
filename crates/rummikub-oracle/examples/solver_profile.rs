//! Times the solver alone on the bench suite, by table size: for profiling work.
//! `cargo run --release -p rummikub-oracle --example solver_profile -- [positions] [any]`

use std::time::Instant;

use rummikub::solver::{solve_with, Objective, Position, TieBreak};
use rummikub::RuleSet;
use rummikub_oracle::suite;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let count: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let tie = if args.iter().any(|a| a == "any") {
        TieBreak::Any
    } else {
        TieBreak::FewestChangedSets
    };
    let only: Option<usize> = args
        .iter()
        .find_map(|a| a.strip_prefix("only=").and_then(|v| v.parse().ok()));
    let arg = |name: &str| {
        args.iter()
            .find_map(|a| a.strip_prefix(name).and_then(|v| v.parse::<usize>().ok()))
    };
    let min = arg("min=").unwrap_or(0);
    let max = arg("max=").unwrap_or(1000);
    let positions = suite::self_play(&RuleSet::current(), 1, count, 12);
    let mut rows = Vec::new();
    for (i, p) in positions.iter().enumerate() {
        if only.is_some_and(|o| o != i) || p.table_tiles() < min || p.table_tiles() > max {
            continue;
        }
        let objective = if i % 2 == 0 {
            Objective::Tiles
        } else {
            Objective::Value
        };
        let position = Position::with_sets(p.table.clone(), p.rack.clone(), p.melded);
        for _ in 1..arg("repeat=").unwrap_or(1) {
            let _ = solve_with(&p.rules, &position, objective, tie);
        }
        let start = Instant::now();
        let answer = solve_with(&p.rules, &position, objective, tie);
        let us = start.elapsed().as_secs_f64() * 1e6;
        let laid = answer.ok().flatten().map_or(0, |s| s.tiles);
        rows.push((
            us,
            i,
            p.table_tiles(),
            p.rack.len(),
            p.jokers(),
            p.melded,
            laid,
        ));
    }
    let mut times: Vec<f64> = rows.iter().map(|r| r.0).collect();
    times.sort_by(f64::total_cmp);
    let pct = |q: f64| times[((times.len() as f64 - 1.0) * q).round() as usize];
    println!(
        "{} positions: p50 {:.1} µs p90 {:.1} µs p99 {:.1} µs max {:.1} µs total {:.1} ms",
        times.len(),
        pct(0.5),
        pct(0.9),
        pct(0.99),
        pct(1.0),
        times.iter().sum::<f64>() / 1000.0
    );
    for bucket in 0..10 {
        let b: Vec<f64> = rows
            .iter()
            .filter(|r| r.2 / 10 == bucket)
            .map(|r| r.0)
            .collect();
        if b.is_empty() {
            continue;
        }
        let mut b = b;
        b.sort_by(f64::total_cmp);
        println!(
            "table {:>2}-{:>2}: {:>4} positions, median {:>9.1} µs, max {:>10.1} µs",
            bucket * 10,
            bucket * 10 + 9,
            b.len(),
            b[b.len() / 2],
            b[b.len() - 1]
        );
    }
    if args.iter().any(|a| a == "list") {
        rows.sort_by(|a, b| a.0.total_cmp(&b.0));
        for r in &rows {
            println!(
                "{:>10.1} µs #{} table {} rack {} jokers {:?} melded {} laid {}",
                r.0, r.1, r.2, r.3, r.4, r.5, r.6
            );
        }
    }
}
