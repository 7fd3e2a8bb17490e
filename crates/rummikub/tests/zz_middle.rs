use rummikub::rules::RuleSet;
use rummikub::solver::{solve_with, Objective, Position, TieBreak};
use std::time::Instant;

#[test]
fn middle() {
    let positions = rummikub_oracle::suite::self_play(&RuleSet::current(), 1, 1000, 12);
    let solve = |i: usize| {
        let p = &positions[i];
        let obj = if i % 2 == 0 {
            Objective::Tiles
        } else {
            Objective::Value
        };
        let pos = Position::with_sets(p.table.clone(), p.rack.clone(), p.melded);
        solve_with(&p.rules, &pos, obj, TieBreak::FewestChangedSets).unwrap()
    };
    let file = "/tmp/middle.txt";
    if std::env::var("PICK").is_ok() {
        let mut t: Vec<(u128, usize)> = (0..positions.len())
            .map(|i| {
                let mut best = u128::MAX;
                for _ in 0..3 {
                    let s = Instant::now();
                    solve(i);
                    best = best.min(s.elapsed().as_nanos());
                }
                (best, i)
            })
            .collect();
        t.sort();
        let mid: Vec<String> = t[400..600].iter().map(|x| x.1.to_string()).collect();
        std::fs::write(file, mid.join("\n")).unwrap();
        println!("p40 {} p60 {}", t[400].0, t[599].0);
    } else {
        let idx: Vec<usize> = std::fs::read_to_string(file)
            .unwrap()
            .lines()
            .map(|l| l.parse().unwrap())
            .collect();
        let reps: usize = std::env::var("REPS")
            .map(|s| s.parse().unwrap())
            .unwrap_or(1);
        let s = Instant::now();
        for _ in 0..reps {
            for &i in &idx {
                solve(i);
            }
        }
        println!(
            "middle: {:.1} us per position",
            s.elapsed().as_secs_f64() * 1e6 / (reps * idx.len()) as f64
        );
    }
}
