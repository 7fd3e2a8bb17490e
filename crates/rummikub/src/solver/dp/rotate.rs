//! Where the DP cuts the cycle of numbers under wrap-around runs (old rules, KD2).
//!
//! With runs over 13 (12-13-1, 13-1-2, …) the numbers are a cycle for the runs: only
//! the tiles' printed values tell 13 from 1. The DP walks the numbers in a line, so a
//! run across its cut is carried as two parts, one started at its first number and
//! waiting (an obligation) until its last (see [`crate::solver::runs`]). Those parts
//! multiply the states: between 13 and 1, where a middle-game table holds the most
//! wrap-around runs, a few colours with two possible crossing runs cost millions of
//! states (measured: 4,000,000 and more on 13 of 300 self-play positions), where
//! another cut of the same position can take milliseconds. [`cuts`] ranks the cuts
//! cheaply (fewest runs that can cross), [`predicted_cuts`] well but at a few
//! milliseconds' cost (the run configurations the colours reach).
//!
//! A rotated problem numbers the tiles from the cut: DP number 1 is printed number
//! `start`. Everything the DP does with runs and groups is the same on the cycle; what
//! a tile is worth (value objective, initial meld) and the tiles the answer is built of
//! go through [`Problem::printed`].

use super::context::Ctx;
use super::Problem;

/// The printed number at DP number `d` (1..=13) of the cut before printed `start`.
fn printed_at(start: u8, d: usize) -> usize {
    (usize::from(start) + d - 2) % 13 + 1
}

/// The problem with DP number 1 at printed number `start` (1: unchanged).
pub(super) fn rotated(p: &Problem, start: u8) -> Problem {
    let mut r = p.clone();
    let printed = |d: usize| printed_at(start, d);
    let dp_of = |n: u8| ((usize::from(n) + 13 - usize::from(start)) % 13 + 1) as u8;
    for d in 1..=13 {
        let n = printed(d);
        r.printed[d] = p.printed[n];
        r.table[d] = p.table[n];
        r.rack[d] = p.rack[n];
    }
    for k in &mut r.keepable {
        let original = k.counts;
        let (mut first, mut last) = (13, 1);
        for d in 1..=13u8 {
            let counts = original[printed(usize::from(d))];
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
        g.0 = dp_of(g.0);
    }
    r
}

/// The cuts worth trying, best first: printed numbers to start the DP at, by how many
/// runs can cross the cut before them (per colour the fewer tiles on either side), then
/// by the tiles on both sides.
pub(super) fn cuts(p: &Problem) -> Vec<u8> {
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

/// The cuts ranked by how large their searches are likely to be, smallest first, the
/// `keep` best of them (see [`predicted_states`]).
pub(super) fn predicted_cuts(p: &Problem, ctx: &mut Ctx, keep: usize) -> Vec<u8> {
    let mut scored: Vec<(f64, u8)> = Vec::with_capacity(13);
    for start in cuts(p) {
        // (A cut already worse than the `keep` best so far is not counted to its end.)
        let mut best: Vec<f64> = scored.iter().map(|s| s.0).collect();
        best.sort_by(f64::total_cmp);
        let beat = best
            .get(keep.saturating_sub(1))
            .copied()
            .unwrap_or(f64::INFINITY);
        scored.push((predicted_states(p, ctx, start, beat), start));
    }
    scored.sort_by(|a, b| a.0.total_cmp(&b.0));
    scored
        .into_iter()
        .take(keep)
        .map(|(_, start)| start)
        .collect()
}

/// How large the search cut before printed number `start` is likely to be: per colour,
/// the run configurations it can reach at each number on its own (every option its
/// tiles allow without jokers, tiles left over going to groups), multiplied over the
/// colours and summed over the numbers; infinite once past `beat` or past
/// [`MAX_CONFIGS`] in a colour. The colours' runs are what the states multiply: counted
/// on slow positions, a cut that takes milliseconds reaches tens of configurations in
/// three colours, one that hits the state limit hundreds in each.
pub(super) fn predicted_states(p: &Problem, ctx: &mut Ctx, start: u8, beat: f64) -> f64 {
    // (Only the tiles are read: the problem is not rotated.)
    let printed = |n: u8| printed_at(start, usize::from(n));
    // (Jokers left out: counted at every number they make every colour reach thousands
    // of configurations at every cut, which ranks nothing.)
    let jokers = 0;
    let mut reach: [Vec<u16>; 4] = std::array::from_fn(|_| vec![ctx.id(0)]);
    let mut seen = rustc_hash::FxHashSet::default();
    let mut total = 0.0;
    for n in 1..=13u8 {
        let mut product = 1.0;
        for (c, configs) in reach.iter_mut().enumerate() {
            let tiles = p.table[printed(n)][c] + p.rack[printed(n)][c];
            seen.clear();
            let mut next = Vec::new();
            for &config in configs.iter() {
                let list = ctx.list(config, n, tiles, jokers);
                for o in 0..ctx.lists[list as usize].hot.len() {
                    let id = ctx.lists[list as usize].hot[o].next;
                    if seen.insert(id) {
                        next.push(id);
                    }
                }
            }
            if next.len() > MAX_CONFIGS {
                return f64::INFINITY;
            }
            product *= next.len().max(1) as f64;
            *configs = next;
        }
        total += product;
        if total > beat {
            return f64::INFINITY;
        }
    }
    total
}

/// Past this many configurations of one colour at one number a cut counts as hopeless.
const MAX_CONFIGS: usize = 2048;

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::super::portfolio::solve_at_cut;
    use super::super::{Cache, Unit};
    use crate::rules::RuleSet;
    use crate::set::{check_tiles, Set};
    use crate::solver::{base_problem, old_set_readings, set_value};
    use crate::tile::{Colour, Tile, TileCounts};

    /// A random old-rules table of valid sets (runs over 13 among them, a frozen joker
    /// set sometimes left out: the DP sees its joker free) and a rack.
    fn position(rng: &mut ChaCha8Rng) -> (Vec<Set>, TileCounts) {
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
                let (first, len) = (rng.gen_range(1..=13u8), rng.gen_range(3..=5u8));
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
            if let Some(tiles) = take(tiles, &mut used) {
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
        if rng.gen_bool(0.3) {
            rack.add(Tile::JOKER);
        }
        (table, rack)
    }

    #[test]
    fn every_cut_of_the_cycle_finds_a_best_play_of_the_same_score() {
        // (Wrap-around runs are the old rules, KD2: any cut is the same problem.)
        let rules = RuleSet::old();
        let mut rng = ChaCha8Rng::seed_from_u64(20);
        let mut cache = Cache::default();
        let mut answered = 0;
        for round in 0..60 {
            let (table, rack) = position(&mut rng);
            let unit = if round % 2 == 0 {
                Unit::Tiles
            } else {
                Unit::Value
            };
            let table_tiles = TileCounts::from_tiles(table.iter().flat_map(|s| s.tiles()));
            let mut p = base_problem(&rules, unit, &table_tiles, &rack);
            let values: Vec<u32> = table.iter().map(|s| set_value(s, &rules)).collect();
            old_set_readings((&table, &values), &[], unit, &mut p);
            let scores: Vec<Option<i32>> = (1..=13)
                .map(|start| {
                    let answer = solve_at_cut(&mut cache, &p, start).expect("small position")?;
                    // The sets built are valid and hold every table tile, kept sets
                    // included.
                    let mut laid = TileCounts::new();
                    for set in &answer.sets {
                        check_tiles(set, &rules).expect("a valid set");
                        set.iter().for_each(|&t| laid.add(t));
                    }
                    for &k in &answer.kept {
                        table[k].tiles().iter().for_each(|&t| laid.add(t));
                    }
                    for (t, n) in table_tiles.iter() {
                        assert!(laid.count(t) >= n, "{t} left the table at cut {start}");
                    }
                    Some(answer.score)
                })
                .collect();
            assert!(
                scores.iter().all(|s| *s == scores[0]),
                "cuts disagree on {table:?} + {:?}: {scores:?}",
                rack.tiles()
            );
            answered += usize::from(scores[0].is_some());
        }
        assert!(answered > 30, "only {answered} positions had a play");
    }
}
