use rummikub::solver::{Objective, SolverCache, TableAndRack, TieBreak};
use rummikub::RuleSet;
use rummikub_oracle::suite;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed: u64 = args[1].parse().unwrap();
    let count: usize = args[2].parse().unwrap();
    let min_ms: f64 = args[3].parse().unwrap();
    let old = args.get(4).is_some_and(|a| a == "old");
    let rules = if old {
        RuleSet::old()
    } else {
        RuleSet::current()
    };
    let positions = suite::self_play(&rules, seed, count, 12);
    let mut cache = SolverCache::default();
    for (i, p) in positions.iter().enumerate() {
        let objective = if i % 2 == 0 {
            Objective::Tiles
        } else {
            Objective::Value
        };
        let pos = TableAndRack::with_sets(p.table.clone(), p.rack.clone(), p.melded);
        let t = Instant::now();
        let _ = cache.solve_with(&p.rules, &pos, objective, TieBreak::FewestChangedSets);
        let ms = t.elapsed().as_secs_f64() * 1e3;
        if ms >= min_ms {
            let states = cache.last_states();
            let t = Instant::now();
            let _ = cache.solve_with(&p.rules, &pos, objective, TieBreak::Any);
            let any = t.elapsed().as_secs_f64() * 1e3;
            println!(
                "#{i} {ms:.1} ms states {} (any {any:.1} ms) {:?} rack {} table {:?}",
                states,
                objective,
                p.rack
                    .iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(" "),
                p.table
                    .iter()
                    .map(|s| s
                        .tiles()
                        .iter()
                        .map(|t| t.to_string())
                        .collect::<Vec<_>>()
                        .join(" "))
                    .collect::<Vec<_>>()
            );
        }
    }
}
