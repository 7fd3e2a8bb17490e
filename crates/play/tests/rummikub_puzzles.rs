//! The Rummikub puzzles: each stated solution is a legal new table, lays as many tiles
//! as the best play (optimal), and its rearranging is necessary: no play that changes
//! fewer table sets lays as many tiles. Necessity is checked here independently of the
//! generator and of the fast solver's tie-break: for every choice of k − 1 table sets
//! (k the sets the puzzle says must change), the slow reference solver finds the most
//! tiles a play can lay rearranging only those sets, the others left as they are.

use play::rummikub_puzzles::{
    changed_sets, daily, daily_seed, generate, puzzle_rules, PuzzleDate, MAX_DIFFICULTY, MIN_GOAL,
};
use rummikub::tile::TileCounts;
use rummikub::{Set, Tile};
use rummikub_solver::reference::best_play;
use rummikub_solver::{solve, Objective, TableAndRack};

/// Every way of choosing `k` of `0..n`, in order.
fn choices(n: usize, k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for first in 0..n {
        for mut rest in choices(n, k - 1) {
            if rest.first().is_none_or(|&r| r > first) {
                rest.insert(0, first);
                all.push(rest);
            }
        }
    }
    all
}

fn tiles_of(table: &[Set]) -> TileCounts {
    TileCounts::from_tiles(table.iter().flat_map(|s| s.tiles()))
}

#[test]
fn daily_puzzles_are_optimal_and_need_their_rearranging() {
    let rules = puzzle_rules();
    let first = PuzzleDate::parse("2026-11-07").unwrap();
    for day in 0..30 {
        let date = first.plus_days(day);
        let puzzle = daily(date).unwrap_or_else(|e| panic!("{date}: {e}"));
        let name = format!("{date} (seed {})", puzzle.seed);

        // The stated solution: valid sets holding exactly the old table's tiles and
        // `goal` tiles of the rack.
        for set in &puzzle.solution {
            assert!(
                set.check(&rules).is_ok(),
                "{name}: set {set} of the solution"
            );
        }
        let mut laid = tiles_of(&puzzle.solution);
        for (tile, count) in tiles_of(&puzzle.table).iter() {
            for _ in 0..count {
                assert!(laid.remove(tile), "{name}: the solution lost {tile}");
            }
        }
        assert!(
            laid.is_subset_of(&TileCounts::from_tiles(&puzzle.rack)),
            "{name}"
        );
        assert_eq!(laid.len() as u32, puzzle.goal, "{name}: tiles laid");
        assert!(puzzle.goal >= MIN_GOAL && puzzle.goal as usize <= puzzle.rack.len());

        // Optimal: the best play lays no more.
        let position = TableAndRack::with_sets(puzzle.table.clone(), puzzle.rack.clone(), true);
        let best = solve(&rules, &position, Objective::Tiles).unwrap().unwrap();
        assert_eq!(best.tiles, puzzle.goal, "{name}: the best play");

        // It changes the sets it says, at least two.
        let changed = changed_sets(&puzzle.table, &puzzle.solution);
        assert_eq!(changed.len(), puzzle.changed_sets, "{name}");
        assert!(puzzle.changed_sets >= 2, "{name}");

        // Necessary: with only k − 1 sets free, fewer tiles.
        let k = puzzle.changed_sets;
        for free in choices(puzzle.table.len(), k - 1) {
            let sets: Vec<Set> = free.iter().map(|&i| puzzle.table[i].clone()).collect();
            let most = best_play(&rules, &sets, &puzzle.rack, true, Objective::Tiles)
                .map_or(0, |p| p.tiles);
            assert!(
                most < puzzle.goal,
                "{name}: rearranging only sets {free:?} lays {most} of the goal {}",
                puzzle.goal
            );
        }
        assert!((1..=MAX_DIFFICULTY).contains(&puzzle.difficulty), "{name}");
        let jokers = puzzle.rack.iter().filter(|t| t.is_joker()).count()
            + changed
                .iter()
                .map(|&i| puzzle.table[i].jokers())
                .sum::<usize>();
        assert_eq!(puzzle.jokers, jokers, "{name}");
        let expected = (k - 1 + jokers).min(usize::from(MAX_DIFFICULTY));
        assert_eq!(
            usize::from(puzzle.difficulty),
            expected,
            "{name}: difficulty"
        );
    }
}

#[test]
fn a_date_gives_the_same_puzzle_and_dates_differ() {
    let date = PuzzleDate::parse("2026-12-06").unwrap();
    let once = daily(date).unwrap();
    assert_eq!(daily(date).unwrap(), once);
    assert_eq!(once.seed, daily_seed(date));
    let next = daily(date.plus_days(1)).unwrap();
    assert_ne!(
        (next.table, next.rack),
        (once.table.clone(), once.rack.clone())
    );
    // The rack is a player's real tiles: the table and rack hold no third copy.
    let mut all = tiles_of(&once.table);
    for &t in &once.rack {
        all.add(t);
    }
    assert!(all.iter().all(|(t, n)| n <= t.copies_in_box()));
    assert!(once
        .rack
        .iter()
        .all(|t| *t != Tile::JOKER || all.count(Tile::JOKER) <= 2));
    assert_eq!(generate(once.seed).unwrap(), once);
}
