//! Where the solver puts jokers at the ends of runs: a run may begin with a joker only
//! when it reaches 13 (the DP's canonical form, `runs::LEAD`), which must never cost a
//! play. These positions need the joker below a run or above it, and value tells which.

use rummikub::notation::{parse_table, parse_tiles};
use rummikub::{RuleSet, Tile};
use rummikub_solver::{solve, Objective, Solution, TableAndRack};

fn best(table: &str, rack: &str, melded: bool, objective: Objective) -> Solution {
    let position = TableAndRack::with_sets(
        parse_table(table).expect("table"),
        parse_tiles(rack).expect("rack"),
        melded,
    );
    solve(&RuleSet::current(), &position, objective)
        .expect("solvable")
        .expect("a play")
}

#[test]
fn a_joker_beside_two_tiles_reads_as_the_higher_neighbour() {
    // [J r5 r6] and [r5 r6 J] lay the same tiles; on top the joker is worth 7, not 4.
    let play = best("", "J r5 r6", true, Objective::Value);
    assert_eq!((play.tiles, play.value), (3, 18));
}

#[test]
fn a_joker_goes_below_a_run_that_ends_at_13() {
    // Only below: [J r12 r13] reads 11 12 13.
    let play = best("", "J r12 r13", true, Objective::Tiles);
    assert_eq!((play.tiles, play.value), (3, 36));
    // Two jokers: one above 11 12 is 13, the other must go below (10).
    let play = best("", "J J r11 r12", true, Objective::Value);
    assert_eq!((play.tiles, play.value), (4, 46));
}

#[test]
fn a_joker_below_a_run_reaching_13_can_meet_the_initial_meld() {
    // 11 + 12 + 13 = 36 from the rack alone reaches the 30 of the current rules.
    let play = best("[b1 b2 b3]", "J r12 r13 k5", false, Objective::Tiles);
    assert_eq!(play.tiles, 3);
    assert!(play.placed.contains(&Tile::JOKER));
    assert_eq!(
        play.changed_sets, 0,
        "the initial meld leaves the table alone"
    );
}

#[test]
fn table_jokers_at_the_bottom_of_a_run_may_stay_or_move_up() {
    // The old run [J r11 r12 r13] has its joker below; laying r10 under it needs the
    // joker to begin the run again, as r9: [J r10 r11 r12 r13].
    let play = best("[J r11 r12 r13]", "r10", true, Objective::Tiles);
    assert_eq!(play.tiles, 1);
    assert_eq!(play.table.iter().map(|s| s.len()).sum::<usize>(), 5);
}

#[test]
fn an_old_set_whose_joker_stands_below_13_stays_when_moving_the_joker_gains_nothing() {
    // r6 goes on [r7 r8 r9]. The joker of [b10 k10 o10 J] could move on top, as r10, and
    // leave [b10 k10 o10]: the same value (10 either way), but two sets changed instead
    // of one. (Under the value objective the search's bound counts every joker at 13
    // and so leaves such a set's tie-break point out; keeping it must still score it.)
    for objective in [Objective::Value, Objective::Tiles] {
        let play = best("[b10 k10 o10 J] [r7 r8 r9]", "r6", true, objective);
        assert_eq!((play.tiles, play.value, play.changed_sets), (1, 6, 1));
        let sorted = |tiles: &[Tile]| {
            let mut tiles = tiles.to_vec();
            tiles.sort();
            tiles
        };
        let kept = sorted(&parse_tiles("b10 k10 o10 J").expect("tiles"));
        assert!(
            play.table.iter().any(|set| sorted(set.tiles()) == kept),
            "{objective:?}: {:?}",
            play.table
        );
    }
}
