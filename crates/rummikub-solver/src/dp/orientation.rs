//! Which way the DP walks the numbers: where it cuts the cycle of numbers under
//! wrap-around runs (old rules, KD2), and whether it walks them up or down.
//!
//! With runs over 13 (12-13-1, 13-1-2, …) the numbers are a cycle for the runs: only
//! the tiles' printed values tell 13 from 1. The DP walks the numbers in a line, so a
//! run across its cut is carried as two parts, one started at its first number and
//! waiting (an obligation) until its last (see [`crate::runs`]). Those parts
//! multiply the states: between 13 and 1, where a middle-game table holds the most
//! wrap-around runs, a few colours with two possible crossing runs can cost millions
//! of states, where another cut of the same position takes milliseconds. [`cuts`] ranks the cuts
//! cheaply (fewest runs that can cross); no count before the search ranks them well,
//! so a problem that grows large races the ways (see [`super::portfolio`]).
//!
//! Runs and groups read the same either way, so the DP may also walk the numbers down
//! (13 first): the same problem, mirrored. Which way is cheaper differs by orders of
//! magnitude on the slow positions, under both rule sets (the tie-break's search finds
//! the old sets a rack tile forces open only when it reaches that tile's number; see
//! [`table_lean`] for which way goes first).
//!
//! An oriented problem numbers the tiles in the order walked: DP number 1 is printed
//! number `start` walking up, the number before it walking down. Everything the DP does
//! with runs and groups is the same; what a tile is worth (value objective, initial
//! meld) and the tiles the answer is built of go through [`Problem::printed`], and a
//! run that begins with a joker must reach 13 only where that is the higher reading
//! (walking up, or where value does not count: see [`Problem::run_rules`]).

use super::Problem;

/// One way to walk the numbers: from the cut before printed number `start` (1 without
/// wrap-around runs), up (`start`, `start + 1`, …) or down (`start - 1`, `start - 2`,
/// …, `start`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Orientation {
    pub(super) start: u8,
    pub(super) down: bool,
}

impl Orientation {
    /// 1 to 13, the problem as built.
    pub(super) const UP: Orientation = Orientation {
        start: 1,
        down: false,
    };

    /// The number of the problem as built at DP number `d` (1..=13).
    fn source(self, d: usize) -> usize {
        let along = if self.down { 14 - d } else { d };
        (usize::from(self.start) + along - 2) % 13 + 1
    }
}

/// The problem walked in `orientation` ([`Orientation::UP`]: unchanged).
pub(super) fn oriented(p: &Problem, orientation: Orientation) -> Problem {
    let mut r = p.clone();
    let mut dp_of = [0u8; 14];
    for d in 1..=13 {
        let n = orientation.source(d);
        dp_of[n] = d as u8;
        r.printed[d] = p.printed[n];
        r.table[d] = p.table[n];
        r.rack[d] = p.rack[n];
    }
    for k in &mut r.keepable {
        let original = k.counts;
        let (mut first, mut last) = (13, 1);
        for d in 1..=13u8 {
            let counts = original[orientation.source(usize::from(d))];
            k.counts[usize::from(d)] = counts;
            if counts.iter().any(|&c| c > 0) {
                first = first.min(d);
                last = last.max(d);
            }
        }
        // (A set of jokers alone has no number: it keeps its place.)
        if first <= last {
            k.first = first;
            k.last = last;
        }
    }
    for g in &mut r.old_groups {
        g.0 = dp_of[usize::from(g.0)];
    }
    r
}

/// The ways worth trying, best first: each cut of the cycle (a printed number to start
/// the DP at; only 1 without wrap-around runs) ranked by how many runs can cross it
/// (per colour the fewer tiles on either side), then by the tiles on both sides; each
/// cut walked first towards the end where the table is denser (see [`table_lean`] and
/// [`LEAN_TO_WALK_DOWN`]), then the other way.
pub(super) fn orientations(p: &Problem) -> Vec<Orientation> {
    let cuts = if p.wrap { cuts(p) } else { vec![1] };
    let lean_to_walk_down = if !p.wrap && p.value_counts() {
        LEAN_TO_WALK_DOWN
    } else {
        0
    };
    cuts.into_iter()
        .flat_map(|start| {
            let down = table_lean(p, start) < lean_to_walk_down;
            [down, !down].map(|down| Orientation { start, down })
        })
        .collect()
}

/// How far the table must lean to the low numbers before a search whose runs' value
/// counts (value objective or initial meld, no wrap-around runs) walks down first.
/// Walked down, such a search walks both forms of a run with a joker at one end, [J x …
/// y] and [x … y J] (see [`Problem::run_rules`]), so walking down costs more than the
/// lean alone says; of the thresholds tried from -20 to 20 this one stored the fewest
/// states. Under wrap-around runs both forms are walked either way, and the lean alone
/// decides.
const LEAN_TO_WALK_DOWN: i32 = -13;

/// Where the table lies along the numbers walked up from the cut before `start`: the
/// sum of its tiles' distances from the middle, positive towards the end. The search
/// for the fewest changed sets walks every partial play that has broken fewer old sets
/// than the best play; where the table is dense there are many such plays, and they
/// are cut short when the walk ends soon after them, so the search walks towards the
/// dense end. (It picks the cheaper way on most large positions, more often than the
/// rack's lean does.)
fn table_lean(p: &Problem, start: u8) -> i32 {
    let up = Orientation { start, down: false };
    (1..=13)
        .map(|d| {
            let tiles: u8 = p.table[up.source(d)].iter().sum();
            i32::from(tiles) * (d as i32 - 7)
        })
        .sum()
}

/// The cuts of the cycle of numbers, best first (see [`orientations`]).
fn cuts(p: &Problem) -> Vec<u8> {
    let tiles = |n: usize, c: usize| p.table[n][c] + p.rack[n][c];
    let mut scored: Vec<(u32, u32, u8)> = (1..=13u8)
        .map(|start| {
            let after = usize::from(start);
            let before = if start == 1 { 13 } else { after - 1 };
            let crossing: u32 = (0..4)
                .map(|c| u32::from(tiles(before, c).min(tiles(after, c))))
                .sum();
            let beside: u32 = (0..4)
                .map(|c| u32::from(tiles(before, c) + tiles(after, c)))
                .sum();
            (crossing, beside, start)
        })
        .collect();
    scored.sort_unstable();
    scored.into_iter().map(|(_, _, start)| start).collect()
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::super::{Answer, Cache, Problem, TooLarge, Unit};
    use super::orientations;
    use crate::{base_problem, old_set_readings, set_value};
    use rummikub::rules::RuleSet;
    use rummikub::set::{check_tiles, Set};
    use rummikub::tile::{Colour, Tile, TileCounts};

    /// `p` searched walked its `way`-th way alone (the cache's `walk_only`, as `rumi
    /// bench solver --ways` does).
    fn walked(cache: &mut Cache, p: &Problem, way: usize) -> Result<Option<Answer>, TooLarge> {
        cache.walk_only = Some(way);
        let answer = super::super::solve(cache, p.clone());
        cache.walk_only = None;
        answer
    }

    /// A random table of valid sets (with `wrap`, runs over 13 among them; without it,
    /// a joker in a set now and then) and a rack, jokers on it now and then.
    fn position(rng: &mut ChaCha8Rng, wrap: bool) -> (Vec<Set>, TileCounts) {
        let mut used = TileCounts::new();
        let mut table = Vec::new();
        let take = |tiles: Vec<Tile>, used: &mut TileCounts| {
            let fits = tiles
                .iter()
                .all(|&t| used.count(t) + tiles.iter().filter(|&&u| u == t).count() as u8 <= 2);
            if fits {
                for &t in &tiles {
                    used.add(t);
                }
            }
            fits.then_some(tiles)
        };
        for _ in 0..rng.gen_range(3..9) {
            let colour = Colour::ALL[rng.gen_range(0..4)];
            let tiles: Vec<Tile> = if rng.gen_bool(0.6) {
                let len = rng.gen_range(3..=5u8);
                let first = rng.gen_range(1..=if wrap { 13 } else { 14 - len });
                (0..len)
                    .filter_map(|i| Tile::new(colour, (first - 1 + i) % 13 + 1))
                    .collect()
            } else {
                let n = rng.gen_range(1..=13);
                let skip = rng.gen_range(0..5);
                (0..4)
                    .filter(|&c| c != skip)
                    .filter_map(|c| Tile::new(Colour::ALL[c], n))
                    .collect()
            };
            if let Some(mut tiles) = take(tiles, &mut used) {
                // A joker in its place now and then (a group's stands for its number:
                // the value objective's bound reads it). (Not under the old rules: there a
                // set with a joker is frozen, KD7, and never reaches the DP whole.)
                if !wrap && used.count(Tile::JOKER) < 2 && rng.gen_bool(0.3) {
                    let i = rng.gen_range(0..tiles.len());
                    used.remove(tiles[i]);
                    tiles[i] = Tile::JOKER;
                    used.add(Tile::JOKER);
                }
                table.push(Set::new(tiles));
            }
        }
        let mut rack = TileCounts::new();
        for _ in 0..rng.gen_range(3..9) {
            let t = Tile::new(Colour::ALL[rng.gen_range(0..4)], rng.gen_range(1..=13));
            if let Some(t) = t.filter(|&t| used.count(t) < 2) {
                used.add(t);
                rack.add(t);
            }
        }
        for _ in used.count(Tile::JOKER)..2 {
            if rng.gen_bool(0.3) {
                rack.add(Tile::JOKER);
            }
        }
        (table, rack)
    }

    #[test]
    fn every_way_of_walking_the_numbers_finds_a_best_play_of_the_same_score() {
        // (Old rules: wrap-around runs, KD2, so any cut is the same problem; current
        // rules: up or down. The initial meld and the value objective read the printed
        // numbers, and a run that begins with a joker is canonical only walking up.)
        for (rules, seed) in [(RuleSet::old(), 20), (RuleSet::current(), 21)] {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            // (The stuck-tile check and the relaxation's bound from the first state,
            // see `Cache::stuck_from`.)
            let mut cache = Cache {
                stuck_from: 0,
                relaxation_from: Some(0),
                ..Cache::default()
            };
            let mut answered = 0;
            // (600 rounds: with 40 the kept runs whose joker stands behind the walk, see
            // `Bounds::joker_from`, went unseen until a bench seed found one; 600 find it
            // in about ten seconds of a release build.)
            for round in 0..600 {
                let (table, rack) = position(&mut rng, rules.run_wraps_around);
                let unit = if round % 2 == 0 {
                    Unit::Tiles
                } else {
                    Unit::Value
                };
                let table_tiles = TileCounts::from_tiles(table.iter().flat_map(|s| s.tiles()));
                let meld = round % 3 == 0 && !rules.initial_meld_may_use_table;
                let p = if meld {
                    // The initial meld from the rack alone (K4): the table untouched,
                    // the value reached tracked under the tiles objective.
                    let mut p = base_problem(&rules, unit, &TileCounts::new(), &rack);
                    p.threshold = (unit == Unit::Tiles).then_some(rules.initial_meld_minimum);
                    p
                } else {
                    let mut p = base_problem(&rules, unit, &table_tiles, &rack);
                    let values: Vec<u32> = table.iter().map(|s| set_value(s, &rules)).collect();
                    old_set_readings((&table, &values), &[], unit, &mut p);
                    p
                };
                let scores: Vec<Option<i32>> = (0..orientations(&p).len())
                    .map(|way| {
                        let answer = walked(&mut cache, &p, way).expect("small position")?;
                        // The sets built are valid, hold every table tile (kept sets
                        // included) and reach the meld.
                        let mut laid = TileCounts::new();
                        let mut value = 0;
                        for set in &answer.sets {
                            value += check_tiles(set, &rules).expect("a valid set").value;
                            set.iter().for_each(|&t| laid.add(t));
                        }
                        for &k in &answer.kept {
                            table[k].tiles().iter().for_each(|&t| laid.add(t));
                        }
                        for (t, n) in table_tiles.iter() {
                            assert!(meld || laid.count(t) >= n, "{t} left the table {way:?}");
                        }
                        assert!(
                            value >= p.threshold.unwrap_or(0),
                            "meld not reached {way:?}"
                        );
                        Some(answer.score)
                    })
                    .collect();
                assert!(
                    scores.iter().all(|s| *s == scores[0]),
                    "ways disagree on {table:?} + {:?}: {scores:?}",
                    rack.tiles()
                );
                answered += usize::from(scores[0].is_some());
            }
            assert!(answered > 20, "only {answered} positions had a play");
        }
    }

    #[test]
    fn the_relaxation_bounds_every_play_and_is_tighter_than_the_potential() {
        // `Relaxation` (see `super::super::relaxation`): at the start, its bound on the score is
        // never below the best play's, whichever way the numbers are walked and under
        // either objective; summed over the positions it is closer to the best plays than
        // the potential the search starts from (every rack tile laid, every old set kept,
        // every joker at 13 under the value objective).
        use super::super::context::Ctx;
        use super::super::relaxation::Relaxation;
        use super::super::search::{start_key, Prepared};
        let cases = [
            (RuleSet::old(), Unit::Tiles, 22),
            (RuleSet::current(), Unit::Tiles, 23),
            (RuleSet::old(), Unit::Value, 24),
            (RuleSet::current(), Unit::Value, 25),
        ];
        for (rules, unit, seed) in cases {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut cache = Cache::default();
            let (mut over_by_bound, mut over_by_potential, mut plays) = (0, 0, 0);
            for _ in 0..40 {
                let (table, rack) = position(&mut rng, rules.run_wraps_around);
                let table_tiles = TileCounts::from_tiles(table.iter().flat_map(|s| s.tiles()));
                let mut p = base_problem(&rules, unit, &table_tiles, &rack);
                let values: Vec<u32> = table.iter().map(|s| set_value(s, &rules)).collect();
                old_set_readings((&table, &values), &[], unit, &mut p);
                for (way, orientation) in orientations(&p).into_iter().enumerate().take(3) {
                    let oriented = super::oriented(&p, orientation);
                    let Some(best) = walked(&mut cache, &p, way).expect("small position") else {
                        continue;
                    };
                    let mut ctx = Ctx::take(&mut cache.contexts, oriented.run_rules());
                    let start = start_key(&oriented, &mut ctx);
                    let prep = Prepared::new(&oriented, &mut cache);
                    let mut lay =
                        Relaxation::new(&oriented, &prep.group_bonus).expect("runs of one colour");
                    lay.price(&mut None);
                    let rest = lay.rest(&ctx, 0, &start).expect("a play exists");
                    let bound = lay.as_potential(rest);
                    let potential = prep.bounds.potential(&start, 0, 0, 0, 1);
                    ctx.give_back(&mut cache.contexts);
                    assert!(
                        bound >= best.score,
                        "{table:?} + {:?} way {way}: bound {bound} < {}",
                        rack.tiles(),
                        best.score
                    );
                    over_by_bound += bound - best.score;
                    over_by_potential += potential - best.score;
                    plays += 1;
                }
            }
            assert!(plays > 40, "only {plays} plays");
            println!("{unit:?}, wrap {}: the relaxation {over_by_bound} over the best plays, the potential {over_by_potential}", rules.run_wraps_around);
            assert!(
                over_by_bound * 2 < over_by_potential,
                "{unit:?}: the relaxation is {over_by_bound} over the best plays, the potential {over_by_potential}"
            );
        }
    }

    #[test]
    fn walking_down_a_groups_joker_is_worth_its_printed_number() {
        // The value objective's bound counts an old group with a joker only where its
        // joker stands for 13 (KD11); walking down that group is at DP number 1. Read as
        // 1, the bound left out its point and the search took a play worth one less (a
        // middle-game table of the oracle tests: value 44 and 3 sets changed, not 45 and
        // 2, moving the joker from the 13s to b12).
        let scores = scores_every_way(
            &RuleSet::current(),
            "[r13 J k13 o13] [b6 b7 b8 b9 b10 b11] [r10 k10 o10] [r4 r5 r6 r7 r8 r9] \
             [k4 k5 k6 k7 k8 k9 k10 k11] [o6 o7 o8] [b1 b2 b3 b4]",
            "b3 b8 b11 k7 k8 o11",
            Unit::Value,
        );
        let scores: Vec<i32> = scores.into_iter().map(|s| s.expect("a play")).collect();
        // (The score is the whole new table's value at the primary weight plus the old
        // sets unchanged: 5 of the 7 in the best play.)
        assert_eq!(scores, vec![scores[0]; 2], "walked up and down");
        assert_eq!(scores[0] % 64, 5, "five old sets unchanged");
    }

    #[test]
    fn a_search_where_value_counts_walks_down_first_only_on_a_table_well_down_the_numbers() {
        // The first way walks towards the table's dense end; where value counts, walking
        // down walks both forms of a run with a joker at one end, so it goes first only
        // past `LEAN_TO_WALK_DOWN` (-13). A group of 5s leans -6, one of 2s -15.
        let current = RuleSet::current();
        let first_down = |table: &str, unit: Unit| {
            let table = rummikub::notation::parse_table(table).expect("a table");
            let table_tiles = TileCounts::from_tiles(table.iter().flat_map(|s| s.tiles()));
            let rack = TileCounts::from_tiles(&[Tile::new(Colour::Red, 9).expect("a tile")]);
            let mut p = base_problem(&current, unit, &table_tiles, &rack);
            let values: Vec<u32> = table.iter().map(|s| set_value(s, &current)).collect();
            old_set_readings((&table, &values), &[], unit, &mut p);
            let ways = orientations(&p);
            assert_eq!(ways.len(), 2, "up and down");
            assert_ne!(ways[0].down, ways[1].down, "both ways");
            ways[0].down
        };
        assert!(first_down("[r5 b5 k5]", Unit::Tiles));
        assert!(!first_down("[r5 b5 k5]", Unit::Value));
        assert!(first_down("[r2 b2 k2]", Unit::Tiles));
        assert!(first_down("[r2 b2 k2]", Unit::Value));
        assert!(!first_down("[r9 b9 k9]", Unit::Value));
    }

    /// The score of the play found walking each way (26 under the old rules, 2 under the
    /// current ones), `None` where there is none.
    fn scores_every_way(rules: &RuleSet, table: &str, rack: &str, unit: Unit) -> Vec<Option<i32>> {
        let table = rummikub::notation::parse_table(table).expect("a table");
        let rack = rummikub::notation::parse_tiles(rack).expect("a rack");
        let table_tiles = TileCounts::from_tiles(table.iter().flat_map(|s| s.tiles()));
        let mut p = base_problem(rules, unit, &table_tiles, &TileCounts::from_tiles(&rack));
        let values: Vec<u32> = table.iter().map(|s| set_value(s, rules)).collect();
        old_set_readings((&table, &values), &[], unit, &mut p);
        // (The stuck-tile check and the relaxation's bound from the first state, see
        // `Cache::stuck_from`.)
        let mut cache = Cache {
            stuck_from: 0,
            relaxation_from: Some(0),
            ..Cache::default()
        };
        (0..orientations(&p).len())
            .map(|way| {
                let answer = walked(&mut cache, &p, way).expect("small position");
                answer.map(|a| a.score)
            })
            .collect()
    }

    #[test]
    fn a_kept_run_whose_joker_stands_behind_the_walk_keeps_its_value_in_the_bound() {
        // Value objective: the best play lays r12 and b11 in groups with the o-run's
        // o11 and o12 and the long k-run's k11 and k12, the k-run's k13 with o13 and its
        // joker (a group of 13s), and keeps [k11 k12 J] whole, its joker at 13: the table
        // worth 174, one old set kept. Walked down, that run is kept at 12 with its joker
        // standing at 13, a number the walk has passed; the bound counted the joker at
        // 12 at most there and the search settled for a play keeping nothing (found by
        // the integer program in `rumi bench solver`).
        let current = RuleSet::current();
        let scores = scores_every_way(
            &current,
            "[o11 o12 o13] [k6 k7 k8 k9 J k11 k12 k13] [k11 k12 J]",
            "r12 b11",
            Unit::Value,
        );
        assert_eq!(scores, vec![Some(174 * super::super::PRIMARY + 1); 2]);
    }

    #[test]
    fn a_tile_with_nowhere_to_go_costs_the_bound_a_point_and_never_a_play() {
        // `stuck`: a tile that no run or group of free tiles can take lowers the
        // potential by a tie-break point; the search must still find the best play
        // whichever way it walks (positions where an early version lost one).
        let current = RuleSet::current();
        for (table, rack, score) in [
            // r12 has no set; the run k11 k12 k13 ends at the walk's last number.
            ("", "k11 r12 k13 k12", Some(3 * 64)),
            // b2 joins the run (one set changed), the group stays; r4 and the k1s stay
            // on the rack.
            (
                "[r4 b4 k4 o4] [b3 b4 b5 b6]",
                "b2 k1 r4 k1",
                Some(9 * 64 + 1),
            ),
            // o9 has no set without taking a tile of the run or the group.
            ("[o6 o7 o8] [r9 b9 k9]", "o9", Some(7 * 64 + 1)),
        ] {
            let scores = scores_every_way(&current, table, rack, Unit::Tiles);
            assert_eq!(scores, vec![score; 2], "{table} + {rack}");
        }
    }

    #[test]
    fn runs_over_13_are_found_wherever_the_cycle_is_cut() {
        // The walk drops a partial play whose runs of one or two tiles cannot go on; a
        // run open at the last number of the walk may still be the part before 1 of a
        // run over 13 (KD2), so a run of one tile there needs nothing, and one a number
        // before needs only the last number. Score: 64 a tile on the new table (the
        // table's and the rack's laid), plus the old sets unchanged.
        let old = RuleSet::old();
        for (table, rack, score) in [
            ("", "r13 r1 r2", Some(3 * 64)),
            ("", "r12 r13 r1", Some(3 * 64)),
            ("", "b11 b12 b13 b1 b2", Some(5 * 64)),
            // A part after 13 waits for its part before 1 of one, two or three tiles or
            // more: the tiles there must be free.
            ("", "k11 k12 k13 k1", Some(4 * 64)),
            ("[k12 k13 k1]", "k11 k10 k2", Some(6 * 64)),
            ("[o10 o11 o12 o13]", "o1 o2", Some(6 * 64)),
            ("[o11 o12 o13] [r13 b13 k13]", "o1 o2 o13", Some(9 * 64 + 2)),
            // [r13 r1] is two tiles, no run; b4 has no set.
            ("", "r13 r1 b4", None),
            // The run over 13 grows at both ends: changed.
            ("[o12 o13 o1]", "o2 o11", Some(5 * 64)),
            // k12 below the run over 13, k5 into the group: both change.
            (
                "[k13 k1 k2] [r5 b5 o5] [b8 b9 b10]",
                "k12 k5",
                Some(11 * 64 + 1),
            ),
            // r13 and r1 leave their groups of four for [r12 r13 r1].
            ("[r13 b13 k13 o13] [r1 b1 k1 o1]", "r12", Some(9 * 64)),
        ] {
            let scores = scores_every_way(&old, table, rack, Unit::Tiles);
            assert_eq!(scores, vec![score; 26], "{table} + {rack}");
        }
    }

    /// Random positions under `rules` raced with `cache` (see below) against their first
    /// way alone: the same score, valid sets. The ways the races put out, and how many
    /// of those came back.
    fn races_against_the_first_way(mut cache: Cache, rules: RuleSet) -> (usize, usize) {
        let mut rng = ChaCha8Rng::seed_from_u64(22);
        let mut answered = 0;
        for round in 0..40 {
            let (table, rack) = position(&mut rng, rules.run_wraps_around);
            let unit = if round % 2 == 0 {
                Unit::Tiles
            } else {
                Unit::Value
            };
            let table_tiles = TileCounts::from_tiles(table.iter().flat_map(|s| s.tiles()));
            let mut p = base_problem(&rules, unit, &table_tiles, &rack);
            let values: Vec<u32> = table.iter().map(|s| set_value(s, &rules)).collect();
            old_set_readings((&table, &values), &[], unit, &mut p);
            let alone = walked(&mut cache, &p, 0).expect("small position");
            let raced = super::super::solve(&mut cache, p.clone()).expect("small position");
            assert_eq!(
                raced.as_ref().map(|a| a.score),
                alone.map(|a| a.score),
                "{table:?} + {:?}",
                rack.tiles()
            );
            for set in raced.iter().flat_map(|a| &a.sets) {
                check_tiles(set, &rules).expect("a valid set");
            }
            answered += usize::from(raced.is_some());
        }
        assert!(answered > 20, "only {answered} positions had a play");
        (cache.ways_dropped, cache.ways_back)
    }

    /// A cache whose searches race from the first state with rounds of little work, so
    /// that small positions drop ways too.
    fn racing_at_once() -> Cache {
        Cache {
            race: super::super::portfolio::RaceSchedule {
                at: 0,
                first_round: 2,
                line_at: 0,
            },
            ..Cache::default()
        }
    }

    #[test]
    fn a_race_of_the_ways_finds_a_play_as_good_as_the_first_way_alone() {
        // `portfolio::Race`: the ways of walking race, the half that comes down the
        // levels slowest is put out round by round, keeping a share of each round, and
        // a way out that gets further down than those in comes back; whichever way
        // finishes, the play scores as the first way's alone.
        let (dropped, back) = races_against_the_first_way(racing_at_once(), RuleSet::old());
        assert!(dropped > 100, "the races dropped only {dropped} ways");
        assert!(back > 0, "no way out of a race came back");
    }

    #[test]
    fn a_race_of_the_two_ways_under_the_current_rules_finds_a_play_as_good_as_the_first_way_alone()
    {
        // Without wrap-around runs the two ways (up and down) race once: the second
        // does the work the first has done, the one further down the levels goes on
        // alone. Whichever it is, the play scores as the first way's alone.
        let (dropped, _) = races_against_the_first_way(racing_at_once(), RuleSet::current());
        assert!(dropped > 10, "the races dropped only {dropped} ways");
    }

    #[test]
    fn racing_ways_that_share_the_relaxations_prices_find_the_same_play() {
        // The relaxation's bound from the first state: the first way of a problem to
        // need it fits the prices, the other ways take them (`Relaxation::new`).
        let (dropped, _) = races_against_the_first_way(
            Cache {
                stuck_from: 0,
                relaxation_from: Some(0),
                ..racing_at_once()
            },
            RuleSet::old(),
        );
        // (With the bound from the first state most of these small searches end before
        // a race drops a way: some must still have raced.)
        assert!(dropped > 10, "the races dropped only {dropped} ways");
    }
}
