//! The fast solver held against the reference dynamic program (`rummikub_solver::reference`)
//! on random small positions with jokers, under both rule presets and both objectives:
//! the same objective and the same number of changed sets, and the reference's play a
//! legal turn for the rules engine.

mod common;

use common::round_for;
use proptest::prelude::*;
use rummikub::notation::{parse_table, parse_tiles};
use rummikub::tile::TileCounts;
use rummikub::{Colour, RuleSet, Set, Tile};
use rummikub_solver::reference::{best_play, ReferencePlay};
use rummikub_solver::{solve, Objective, TableAndRack};

/// One table set: a run or a group near the position's numbers, maybe with a joker.
#[derive(Clone, Debug)]
struct SetSpec {
    run: bool,
    colour: usize,
    offset: u8,
    len: u8,
    joker_at: Option<usize>,
}

/// A rack tile: a joker, or a colour and a number near the position's numbers.
#[derive(Clone, Debug)]
enum TileSpec {
    Joker,
    Numbered(usize, u8),
}

#[derive(Clone, Debug)]
struct Position {
    table: Vec<Set>,
    rack: Vec<Tile>,
    melded: bool,
}

fn set_spec() -> impl Strategy<Value = SetSpec> {
    (
        any::<bool>(),
        0..4usize,
        0..5u8,
        3..6u8,
        prop::option::weighted(0.25, 0..5usize),
    )
        .prop_map(|(run, colour, offset, len, joker_at)| SetSpec {
            run,
            colour,
            offset,
            len,
            joker_at,
        })
}

fn tile_spec() -> impl Strategy<Value = TileSpec> {
    prop_oneof![
        1 => Just(TileSpec::Joker),
        9 => (0..4usize, 0..6u8).prop_map(|(c, k)| TileSpec::Numbered(c, k)),
    ]
}

/// Numbers from a window of nine starting anywhere (wrapping past 13, which only the old
/// rules' runs may use); sets that are not valid or do not fit in the box are skipped.
fn position(rules: RuleSet) -> impl Strategy<Value = Position> {
    (
        1..=13u8,
        prop::collection::vec(set_spec(), 0..4),
        prop::collection::vec(tile_spec(), 1..7),
        prop::bool::weighted(0.75),
    )
        .prop_map(move |(low, sets, tiles, melded)| {
            let number = |k: u8| (low - 1 + k) % 13 + 1;
            let mut used = TileCounts::new();
            let fits = |used: &TileCounts, tiles: &[Tile]| {
                TileCounts::from_tiles(tiles)
                    .iter()
                    .all(|(t, c)| used.count(t) + c <= t.copies_in_box())
            };
            let mut table = Vec::new();
            for spec in sets {
                let mut tiles: Vec<Tile> = if spec.run {
                    let colour = Colour::ALL[spec.colour];
                    (0..spec.len)
                        .filter_map(|k| Tile::new(colour, number(spec.offset + k)))
                        .collect()
                } else {
                    let n = number(spec.offset);
                    let len = usize::from(spec.len.min(4));
                    (0..4)
                        .map(|c| Colour::ALL[(spec.colour + c) % 4])
                        .filter_map(|c| Tile::new(c, n))
                        .take(len)
                        .collect()
                };
                if let Some(i) = spec.joker_at {
                    let i = i % tiles.len();
                    tiles[i] = Tile::JOKER;
                }
                let set = Set::new(tiles);
                if set.check(&rules).is_ok() && fits(&used, set.tiles()) {
                    set.tiles().iter().for_each(|&t| used.add(t));
                    table.push(set);
                }
            }
            let mut rack = Vec::new();
            for spec in tiles {
                let tile = match spec {
                    TileSpec::Joker => Tile::JOKER,
                    TileSpec::Numbered(c, k) => {
                        Tile::new(Colour::ALL[c], number(k)).expect("a number 1..13")
                    }
                };
                if fits(&used, &[tile]) {
                    used.add(tile);
                    rack.push(tile);
                }
            }
            Position {
                table,
                rack,
                melded,
            }
        })
}

/// The objective's figure and the sets changed, for the fast solver and the reference.
fn compare(rules: &RuleSet, p: &Position, objective: Objective) -> Result<(), TestCaseError> {
    let fast = solve(
        rules,
        &TableAndRack::with_sets(p.table.clone(), p.rack.clone(), p.melded),
        objective,
    )
    .expect("a valid position");
    let reference = best_play(rules, &p.table, &p.rack, p.melded, objective);
    if let Some(play) = &reference {
        let round = round_for(rules, &p.table, &p.rack, p.melded).expect("tiles fit in the box");
        prop_assert!(
            round.check_play(0, &play.table).is_ok(),
            "the reference's play is not a legal turn: {play:?}"
        );
    }
    let figure = |tiles: u32, value: i32| match objective {
        Objective::Tiles => i64::from(tiles),
        Objective::Value => i64::from(value),
    };
    let fast_score = fast
        .as_ref()
        .map(|s| (figure(s.tiles, s.value), s.changed_sets));
    let reference_score = reference
        .as_ref()
        .map(|r| (figure(r.tiles, r.value), r.changed_sets));
    prop_assert_eq!(
        fast_score,
        reference_score,
        "{:?}: fast {:?}, reference {:?}",
        objective,
        fast,
        reference
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn the_solver_agrees_with_the_reference_under_the_current_rules(
        p in position(RuleSet::current())
    ) {
        for objective in [Objective::Tiles, Objective::Value] {
            compare(&RuleSet::current(), &p, objective)?;
        }
    }

    #[test]
    fn the_solver_agrees_with_the_reference_under_the_old_rules(
        p in position(RuleSet::old())
    ) {
        // Wrap-around runs, one joker per set, frozen joker sets, a meld that may use
        // the table.
        for objective in [Objective::Tiles, Objective::Value] {
            compare(&RuleSet::old(), &p, objective)?;
        }
    }
}

fn reference(
    rules: &RuleSet,
    table: &str,
    rack: &str,
    melded: bool,
    objective: Objective,
) -> Option<ReferencePlay> {
    let table = parse_table(table).expect("a table");
    let rack = parse_tiles(rack).expect("a rack");
    best_play(rules, &table, &rack, melded, objective)
}

/// Positions whose best play is known by hand, so the reference is checked on its own.
#[test]
fn the_reference_finds_plays_known_by_hand() {
    let current = RuleSet::current();
    let old = RuleSet::old();
    // r4 on the run, the joker onto a set: two tiles, nothing changed but the run.
    let play = reference(
        &current,
        "[r1 r2 r3] [b5 k5 o5]",
        "r4 J b7",
        true,
        Objective::Tiles,
    )
    .expect("a play");
    assert_eq!((play.tiles, play.changed_sets), (2, 1), "{play:?}");
    // [b1 b2 b3 J J]: b1 and the joker (as b5) laid, the table's joker now b4.
    let play = reference(&current, "[b2 b3 J]", "k2 J b1", true, Objective::Value).expect("a play");
    assert_eq!(play.value, 6, "{play:?}");
    // Nothing fits: the player draws.
    assert_eq!(
        reference(&current, "[r1 r2 r3]", "b9", true, Objective::Tiles),
        None
    );
    // The initial meld under the current rules: 10 + 11 + 12 = 33 from the rack alone,
    // the table untouched; 27 is too little.
    let play = reference(
        &current,
        "[r1 r2 r3]",
        "k10 k11 k12 r4",
        false,
        Objective::Tiles,
    )
    .expect("a meld");
    assert_eq!((play.tiles, play.changed_sets), (3, 0), "{play:?}");
    assert_eq!(
        reference(
            &current,
            "[o5 o6 o7]",
            "k8 k9 k10 o8",
            false,
            Objective::Tiles
        ),
        None
    );
    // The old rules: runs wrap past 13, and a frozen joker set gives its joker up only
    // for the tile it stands for.
    let play = reference(&old, "", "o12 o13 o1", true, Objective::Tiles).expect("a play");
    assert_eq!(play.tiles, 3);
    // r7 (or r4) for the joker, which goes on with b9 and b10; nothing else can move.
    let play = reference(&old, "[r5 r6 J]", "r7 b9 b10", true, Objective::Tiles).expect("a swap");
    assert_eq!((play.tiles, play.changed_sets), (3, 1), "{play:?}");
    assert_eq!(
        reference(&old, "[r5 r6 J]", "b9", true, Objective::Tiles),
        None
    );
}
