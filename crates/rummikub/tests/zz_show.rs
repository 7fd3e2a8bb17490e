use rummikub::rules::RuleSet;
use rummikub::solver::{solve_with, Objective, Position, TieBreak};

#[test]
fn show() {
    let positions = rummikub_oracle::suite::self_play(&RuleSet::current(), 1, 1000, 12);
    let idx: Vec<usize> = std::fs::read_to_string("/tmp/middle.txt")
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    for &i in idx.iter().step_by(40) {
        let p = &positions[i];
        let obj = if i % 2 == 0 {
            Objective::Tiles
        } else {
            Objective::Value
        };
        let pos = Position::with_sets(p.table.clone(), p.rack.clone(), p.melded);
        let s = solve_with(&p.rules, &pos, obj, TieBreak::FewestChangedSets).unwrap();
        println!(
            "#{i} {obj:?}\n table: {}\n rack: {}",
            p.table
                .iter()
                .map(|s| format!("{s}"))
                .collect::<Vec<_>>()
                .join(" "),
            p.rack
                .iter()
                .map(|t| format!("{t}"))
                .collect::<Vec<_>>()
                .join(" ")
        );
        if let Some(s) = s {
            println!(" sol: {s:?}");
        }
    }
}
