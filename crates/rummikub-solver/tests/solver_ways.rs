//! Every way of walking the numbers (`SolverCache::solve_walked`, what `rumi bench
//! solver --ways` compares) finds a play as good as the solver's: the same objective
//! and the same number of changed sets, however many states the way needs.

use rummikub::RuleSet;
use rummikub_oracle::suite;
use rummikub_solver::{Objective, SolverCache, TableAndRack, TieBreak};

fn every_way_agrees(rules: &RuleSet, seed: u64, count: usize) {
    // Middle-game tables: every way of them is quick, and wrap-around runs cross
    // several of the cuts.
    let middle = |p: &suite::SuitePosition| (12..=40).contains(&p.table_tiles());
    let positions = suite::self_play_filtered(rules, seed, count, 12, middle);
    assert_eq!(positions.len(), count);
    let ways = SolverCache::ways_of_walking(rules);
    let mut cache = SolverCache::new();
    let mut answered = 0;
    for (i, p) in positions.iter().enumerate() {
        let position = TableAndRack::with_sets(p.table.clone(), p.rack.clone(), p.melded);
        let objective = if i % 2 == 0 {
            Objective::Tiles
        } else {
            Objective::Value
        };
        let fewest = TieBreak::FewestChangedSets;
        let best = cache
            .solve_with(rules, &position, objective, fewest)
            .expect("a middle-game table");
        // (What the objective counts, and the tie-break: equally good plays may differ
        // in the other figure.)
        let figures = |s: &rummikub_solver::Solution| match objective {
            Objective::Tiles => (s.tiles as i32, s.changed_sets),
            Objective::Value => (s.value, s.changed_sets),
        };
        for way in 0..ways {
            let walked = cache
                .solve_walked(rules, &position, objective, fewest, way)
                .expect("a middle-game table");
            assert_eq!(
                walked.as_ref().map(figures),
                best.as_ref().map(figures),
                "way {way} of position {i}: {:?} + {:?}",
                p.table,
                p.rack
            );
            if let Some(walked) = &walked {
                assert!(walked.fewest_changed_proven);
            }
            // (The bench reads each way's work from the cache.)
            assert!(cache.last_states() > 0, "way {way} of position {i}");
        }
        answered += usize::from(best.is_some());
    }
    assert!(
        answered * 2 > count,
        "only {answered} of {count} had a play"
    );
}

#[test]
fn every_way_of_walking_finds_the_old_rules_best_play_with_the_fewest_changed_sets() {
    every_way_agrees(&RuleSet::old(), 7, 20);
}

#[test]
fn both_ways_of_walking_find_the_current_rules_best_play_with_the_fewest_changed_sets() {
    every_way_agrees(&RuleSet::current(), 7, 40);
}

#[test]
fn there_are_26_ways_with_wrap_around_runs_and_2_without() {
    assert_eq!(SolverCache::ways_of_walking(&RuleSet::old()), 26);
    assert_eq!(SolverCache::ways_of_walking(&RuleSet::current()), 2);
}
