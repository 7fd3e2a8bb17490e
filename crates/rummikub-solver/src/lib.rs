//! The Rummikub solver: the best play from a rack onto a table, rearranging the whole
//! table if the rules allow (K5), exactly, by a dynamic program over the numbers 1..13.
//!
//! Objectives: most tiles laid, or most value laid (KD11: the increase of the table's
//! value, a joker counting as the tile it stands for); the initial meld (K4) as the rules
//! say. Among equally good plays the solver picks one that leaves the most old table sets
//! unchanged (fewest sets changed). See `docs/rummikub-solver.md`.
//!
//! ```
//! use rummikub::{notation::{parse_table, parse_tiles}, RuleSet};
//! use rummikub_solver::{solve, Objective, TableAndRack};
//!
//! let table = parse_table("[r1 r2 r3] [b5 k5 o5]").unwrap();
//! let rack = parse_tiles("r4 J b7").unwrap();
//! let position = TableAndRack::with_sets(table, rack, true);
//! let best = solve(&RuleSet::current(), &position, Objective::Tiles).unwrap().unwrap();
//! assert_eq!(best.tiles, 2); // r4 on the run, the joker on a set
//! ```

mod dp;
mod groups;
pub mod reference;
mod runs;

use rummikub::rules::RuleSet;
use rummikub::set::{Reading, Set, SetProblem};
use rummikub::tile::{Tile, TileCounts, MAX_NUMBER};

use dp::{Keepable, Unit, PRIMARY};

/// What to maximise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Objective {
    /// Most tiles laid from the rack (a joker counts as a tile).
    #[default]
    Tiles,
    /// Most value laid (KD11).
    Value,
}

/// The table as given: laid sets, or just the tiles on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableInput {
    Sets(Vec<Set>),
    /// A multiset of tiles that form valid sets somehow; no set counts as unchanged.
    Tiles(Vec<Tile>),
}

/// What the solver is asked about: the table, the rack and whether the player has made
/// the initial meld.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableAndRack {
    pub table: TableInput,
    pub rack: Vec<Tile>,
    pub melded: bool,
}

impl TableAndRack {
    pub fn with_sets(table: Vec<Set>, rack: Vec<Tile>, melded: bool) -> TableAndRack {
        TableAndRack {
            table: TableInput::Sets(table),
            rack,
            melded,
        }
    }
}

/// The best play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The whole new table (each set in the order of its best reading).
    pub table: Vec<Set>,
    /// The rack tiles laid, in tile order.
    pub placed: Vec<Tile>,
    /// How many rack tiles are laid (jokers included).
    pub tiles: u32,
    /// KD11: how much the table's value grows (each set at its highest reading, KD3).
    pub value: i32,
    /// How many of the old table's sets are not on the new table unchanged (0 for a
    /// table given as tiles: it has no sets to keep).
    pub changed_sets: usize,
    /// Whether `changed_sets` is proven the fewest of all best plays: true when the
    /// fewest-changed-sets tie-break was searched to the end; false under
    /// [`TieBreak::Any`], and when that search would have stored more states than the
    /// limit and the play was found without the tie-break (still a best play on the
    /// objective, see [`SolverCache::solve_with`]).
    pub fewest_changed_proven: bool,
}

/// A position that cannot be solved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    #[error("table set {index} {set} {problem}")]
    InvalidSet {
        index: usize,
        set: Set,
        problem: SetProblem,
    },
    #[error("the table tiles cannot be arranged into valid sets")]
    TableNotSets,
    #[error("there are only two of each tile (and two jokers), but table and rack hold {count} of {tile}")]
    TooManyCopies { tile: Tile, count: usize },
    #[error("the position is too large for the exact solver ({0} states)")]
    TooLarge(usize),
}

impl From<dp::TooLarge> for SolveError {
    fn from(e: dp::TooLarge) -> SolveError {
        SolveError::TooLarge(e.0)
    }
}

/// Which of several equally good plays the solver returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TieBreak {
    /// The one that leaves the most old table sets unchanged (what players want to see).
    #[default]
    FewestChangedSets,
    /// Any of them: about four times faster, for bots that do not care which sets
    /// move.
    Any,
}

/// Finds the best play, or `None` when no legal play lays a tile (the player draws).
/// Among equally good plays it picks one that changes the fewest old table sets.
/// (A one-off call: a caller that solves many positions keeps a [`SolverCache`].)
pub fn solve(
    rules: &RuleSet,
    position: &TableAndRack,
    objective: Objective,
) -> Result<Option<Solution>, SolveError> {
    SolverCache::new().solve(rules, position, objective)
}

/// Like [`solve`], with the tie-break chosen.
pub fn solve_with(
    rules: &RuleSet,
    position: &TableAndRack,
    objective: Objective,
    tie_break: TieBreak,
) -> Result<Option<Solution>, SolveError> {
    SolverCache::new().solve_with(rules, position, objective, tie_break)
}

/// What the solver keeps from one call to the next: the run configurations and option
/// lists of each rule shape, the old groups' tables, the memory of its states. Building
/// them is most of the work on a small position, so a caller solving many positions
/// keeps one cache and calls [`SolverCache::solve`]. The answers are the same with a
/// fresh cache or a kept one; the memory it keeps is bounded.
#[derive(Default)]
pub struct SolverCache {
    dp: dp::Cache,
}

impl SolverCache {
    pub fn new() -> SolverCache {
        SolverCache::default()
    }

    /// [`solve`] with this cache.
    pub fn solve(
        &mut self,
        rules: &RuleSet,
        position: &TableAndRack,
        objective: Objective,
    ) -> Result<Option<Solution>, SolveError> {
        self.solve_with(rules, position, objective, TieBreak::FewestChangedSets)
    }

    /// A cache whose calls give up past `states` search states (all searches of one
    /// call together; the default is about four million, some 300 MB): a server
    /// bounds the memory and time one request may take.
    pub fn with_state_limit(states: usize) -> SolverCache {
        let mut cache = SolverCache::new();
        cache.dp.max_states = states.max(1);
        cache
    }

    /// [`solve_with`] with this cache.
    ///
    /// Under [`TieBreak::FewestChangedSets`], a position whose tie-break search passes
    /// the state limit is solved again without the tie-break: the answer is still a
    /// best play on the objective, with `fewest_changed_proven` false (the tie-break
    /// is most of the work on the hardest positions; a hint that fails helps nobody).
    /// [`SolveError::TooLarge`] only when that search too passes the limit.
    pub fn solve_with(
        &mut self,
        rules: &RuleSet,
        position: &TableAndRack,
        objective: Objective,
        tie_break: TieBreak,
    ) -> Result<Option<Solution>, SolveError> {
        self.dp.states_stored = 0;
        match solve_in(&mut self.dp, rules, position, objective, tie_break) {
            // (The states of both searches count: the counter goes on.)
            Err(SolveError::TooLarge(_)) if tie_break == TieBreak::FewestChangedSets => {
                solve_in(&mut self.dp, rules, position, objective, TieBreak::Any)
            }
            answer => answer,
        }
    }

    /// How many ways of walking the numbers the solver has under `rules`: up and down,
    /// and with wrap-around runs (KD2) each of the 13 places to cut the cycle of
    /// numbers (see [`SolverCache::solve_walked`]).
    pub fn ways_of_walking(rules: &RuleSet) -> usize {
        if rules.run_wraps_around {
            26
        } else {
            2
        }
    }

    /// [`SolverCache::solve_with`] with every search walking the numbers one way
    /// alone: `way` (below [`SolverCache::ways_of_walking`]) in the order the solver
    /// ranks them, and no second search past the state limit. The same answer on the
    /// objective and the changed sets, at a cost that differs by orders of magnitude
    /// from way to way: for benchmarks that compare the ways (`rumi bench solver
    /// --ways`).
    pub fn solve_walked(
        &mut self,
        rules: &RuleSet,
        position: &TableAndRack,
        objective: Objective,
        tie_break: TieBreak,
        way: usize,
    ) -> Result<Option<Solution>, SolveError> {
        self.dp.states_stored = 0;
        self.dp.walk_only = Some(way);
        let answer = solve_in(&mut self.dp, rules, position, objective, tie_break);
        self.dp.walk_only = None;
        answer
    }

    /// How many search states the last call stored (all its searches together): how
    /// hard the position was for the solver, independent of the machine.
    pub fn last_states(&self) -> usize {
        self.dp.states_stored
    }
}

fn solve_in(
    cache: &mut dp::Cache,
    rules: &RuleSet,
    position: &TableAndRack,
    objective: Objective,
    tie_break: TieBreak,
) -> Result<Option<Solution>, SolveError> {
    let table_tiles: Vec<Tile> = match &position.table {
        TableInput::Sets(sets) => sets
            .iter()
            .flat_map(|s| s.tiles().iter().copied())
            .collect(),
        TableInput::Tiles(tiles) => tiles.clone(),
    };
    let mut all = TileCounts::from_tiles(&table_tiles);
    for &t in &position.rack {
        all.add(t);
    }
    for (tile, count) in all.iter() {
        if count > tile.copies_in_box() {
            return Err(SolveError::TooManyCopies {
                tile,
                count: usize::from(count),
            });
        }
    }
    let unit = match objective {
        Objective::Tiles => Unit::Tiles,
        Objective::Value => Unit::Value,
    };
    // The old table as sets (given, or arranged by the DP itself, highest value), with
    // each set's value at its highest reading (KD3), worked out once.
    let (old_sets, old_readings): (std::borrow::Cow<[Set]>, Vec<Reading>) = match &position.table {
        TableInput::Sets(sets) => {
            let readings = sets.iter().enumerate().map(|(i, set)| {
                set.check(rules).map_err(|problem| SolveError::InvalidSet {
                    index: i + 1,
                    set: set.clone(),
                    problem,
                })
            });
            (sets.into(), readings.collect::<Result<_, SolveError>>()?)
        }
        TableInput::Tiles(tiles) => {
            let sets = arrange(cache, rules, tiles)?;
            // (The DP's own arrangement is valid sets.)
            let readings = sets
                .iter()
                .map(|s| s.check(rules))
                .collect::<Result<_, _>>();
            (sets.into(), readings.map_err(|_| SolveError::TableNotSets)?)
        }
    };
    let old_values: Vec<u32> = old_readings.iter().map(|r| r.value).collect();
    let old = OldTable {
        sets: &old_sets,
        readings: &old_readings,
        value: old_values.iter().sum(),
    };
    let keep_sets = matches!(position.table, TableInput::Sets(_));
    let old_value = old.value;
    let old_numbered: u32 = table_tiles
        .iter()
        .filter_map(|t| t.number())
        .map(u32::from)
        .sum();
    let old_joker_value = old_value.saturating_sub(old_numbered);

    let rack = TileCounts::from_tiles(&position.rack);
    // K4: the initial meld must be worth the minimum. With the value objective the best
    // play's value decides it afterwards (the DP maximises that very value); with the
    // tiles objective the DP tracks the value reached, capped at the minimum.
    let meld_check = |best: Option<Solution>| {
        best.filter(|s| position.melded || s.value >= rules.initial_meld_minimum as i32)
    };
    let track = |minimum: u32| (!position.melded && unit == Unit::Tiles).then_some(minimum);
    if !position.melded && !rules.initial_meld_may_use_table {
        // K4 (current rules): new sets from the rack alone, the table untouched.
        let problem = dp::Problem {
            threshold: track(rules.initial_meld_minimum),
            ..base_problem(rules, unit, &TileCounts::new(), &rack)
        };
        let Some(answer) = dp::solve(cache, problem)? else {
            return Ok(None);
        };
        let mut table: Vec<Laid> = (0..old_sets.len()).map(Laid::Old).collect();
        table.extend(answer.sets.into_iter().map(|s| Laid::New(Set::new(s))));
        let best = finish(rules, &old, &table_tiles, table, keep_sets, tie_break);
        return Ok(meld_check(Some(best)));
    }
    let threshold = track(rules.initial_meld_minimum + old_joker_value);

    // Frozen joker sets (old rules, KD7) stay whole or have their joker swapped for a
    // rack tile; every combination is solved by the DP (keeping them all first), each
    // only for a play better than the best so far.
    let frozen: Vec<usize> = if rules.frozen_joker_sets && keep_sets {
        (0..old_sets.len())
            .filter(|&i| old_sets[i].jokers() > 0)
            .collect()
    } else {
        Vec::new()
    };
    let mut choices: Vec<Vec<Option<Tile>>> = Vec::new();
    for &i in &frozen {
        let mut options = vec![None];
        for (t, _) in rack.iter() {
            if !t.is_joker() && swapped(&old_sets[i], t).check(rules).is_ok() {
                options.push(Some(t));
            }
        }
        choices.push(options);
    }
    // KD12 compares sets as tiles: the old sets' tiles, sorted once.
    let old_tiles: Vec<Vec<Tile>> = if frozen.is_empty() {
        Vec::new()
    } else {
        old_sets.iter().map(Set::sorted_tiles).collect()
    };
    // Every combination's DP problem with what the choice itself scores and lays; the
    // DP searches them together for the best play of all.
    let mut problems: Vec<(dp::Problem, i32)> = Vec::new();
    let mut fixed_sets: Vec<Vec<Laid>> = Vec::new();
    let mut pick = vec![0usize; frozen.len()];
    loop {
        // One combination of frozen-set choices.
        let mut fixed: Vec<Laid> = Vec::new();
        let mut table_left = TileCounts::from_tiles(&table_tiles);
        let mut rack_left = rack.clone();
        let mut freed = 0u8;
        let mut fixed_score = 0i32;
        let mut acc = 0u32;
        let mut any = false;
        let mut possible = true;
        for (f, &i) in frozen.iter().enumerate() {
            let set = &old_sets[i];
            for &t in set.tiles() {
                table_left.remove(t);
            }
            let (new_set, value) = match choices[f][pick[f]] {
                None => {
                    fixed_score += 1;
                    acc += old_values[i].saturating_sub(numbered_sum(set.tiles()));
                    (set.clone(), old_values[i])
                }
                Some(t) => {
                    possible &= rack_left.remove(t);
                    freed += 1;
                    any = true;
                    acc += u32::from(t.number().unwrap_or(0));
                    let new_set = swapped(set, t);
                    let value = set_value(&new_set, rules);
                    (new_set, value)
                }
            };
            fixed_score += PRIMARY * primary_of(&new_set, value, unit);
            fixed.push(match choices[f][pick[f]] {
                None => Laid::Old(i),
                Some(_) => Laid::New(new_set),
            });
        }
        if possible {
            let mut problem = base_problem(rules, unit, &table_left, &rack_left);
            problem.table_jokers += freed;
            problem.threshold = threshold;
            problem.start_acc = acc;
            problem.start_any = any;
            if keep_sets && tie_break == TieBreak::FewestChangedSets {
                // KD12: a swapped frozen set with the very tiles of another old set
                // leaves that set on the table unchanged.
                let mut settled = frozen.clone();
                for laid in &fixed {
                    let Laid::New(new_set) = laid else {
                        continue;
                    };
                    let tiles = new_set.sorted_tiles();
                    if let Some(j) = (0..old_tiles.len())
                        .find(|j| !settled.contains(j) && old_tiles[*j] == tiles)
                    {
                        settled.push(j);
                        fixed_score += 1;
                    }
                }
                old_set_readings((&old_sets, &old_values), &settled, unit, &mut problem);
            }
            problems.push((problem, fixed_score));
            fixed_sets.push(fixed);
        }
        // Next combination.
        let mut f = 0;
        while f < pick.len() {
            pick[f] += 1;
            if pick[f] < choices[f].len() {
                break;
            }
            pick[f] = 0;
            f += 1;
        }
        if f == pick.len() {
            break;
        }
    }
    let best = dp::solve_best_of(cache, problems)?.map(|(i, answer)| {
        let mut table = std::mem::take(&mut fixed_sets[i]);
        table.extend(answer.kept.iter().map(|&i| Laid::Old(i)));
        table.extend(answer.sets.into_iter().map(|s| Laid::New(Set::new(s))));
        table
    });
    Ok(meld_check(best.map(|table| {
        finish(rules, &old, &table_tiles, table, keep_sets, tie_break)
    })))
}

/// Arranges a table given as tiles into valid sets (highest value), or says it cannot.
fn arrange(cache: &mut dp::Cache, rules: &RuleSet, tiles: &[Tile]) -> Result<Vec<Set>, SolveError> {
    let counts = TileCounts::from_tiles(tiles);
    if counts.is_empty() {
        return Ok(Vec::new());
    }
    let mut problem = base_problem(rules, Unit::Value, &counts, &TileCounts::new());
    problem.start_any = true;
    let answer = dp::solve(cache, problem)?.ok_or(SolveError::TableNotSets)?;
    Ok(answer
        .sets
        .into_iter()
        .map(|s| Set::new(s).arranged(rules))
        .collect())
}

fn base_problem(rules: &RuleSet, unit: Unit, table: &TileCounts, rack: &TileCounts) -> dp::Problem {
    let grid = |counts: &TileCounts| {
        let mut g = [[0u8; 4]; 14];
        for (t, count) in counts.iter() {
            if let (Some(c), Some(n)) = (t.colour(), t.number()) {
                g[usize::from(n)][rummikub::tile::Colour::ALL
                    .iter()
                    .position(|&x| x == c)
                    .unwrap_or(0)] = count;
            }
        }
        g
    };
    dp::Problem {
        table: grid(table),
        rack: grid(rack),
        table_jokers: table.count(Tile::JOKER),
        rack_jokers: rack.count(Tile::JOKER),
        keepable: Vec::new(),
        old_groups: Vec::new(),
        jokers_per_set: rules.jokers_per_set.min(2),
        wrap: rules.run_wraps_around,
        unit,
        threshold: None,
        start_acc: 0,
        start_any: false,
        printed: dp::PRINTED,
    }
}

/// Every old set not `settled` (frozen, or matched by a swapped frozen set) may stay on
/// the table unchanged, for one tie-break point:
/// the DP keeps a run whole by reserving its tiles, and counts a group as kept when its
/// group step forms it again.
fn old_set_readings(
    (old, values): (&[Set], &[u32]),
    settled: &[usize],
    unit: Unit,
    problem: &mut dp::Problem,
) {
    let colour_index = |c| {
        rummikub::tile::Colour::ALL
            .iter()
            .position(|&x| x == c)
            .unwrap_or(0)
    };
    for (index, set) in old.iter().enumerate() {
        if settled.contains(&index) || index >= 64 {
            continue;
        }
        let mut counts = [[0u8; 4]; 14];
        let (mut first, mut last) = (MAX_NUMBER, 1);
        for t in set.tiles() {
            if let (Some(c), Some(n)) = (t.colour(), t.number()) {
                counts[usize::from(n)][colour_index(c)] += 1;
                first = first.min(n);
                last = last.max(n);
            }
        }
        // Two or more numbered tiles of one number: a group, kept by the DP's group
        // step re-forming it (no keep choice needed).
        if first == last && set.len() - set.jokers() >= 2 {
            let colours = set
                .tiles()
                .iter()
                .filter_map(|t| t.colour())
                .fold(0u8, |bits, c| bits | 1 << colour_index(c));
            problem
                .old_groups
                .push((first, colours, set.jokers() as u8));
            continue;
        }
        if first <= last {
            problem.keepable.push(Keepable {
                index,
                counts,
                first,
                last,
                jokers: set.jokers() as u8,
                score: PRIMARY * primary_of(set, values[index], unit) + 1,
                joker_value: values[index].saturating_sub(numbered_sum(set.tiles())),
            });
        }
    }
}

fn set_value(set: &Set, rules: &RuleSet) -> u32 {
    set.check(rules).map_or(0, |r| r.value)
}

fn numbered_sum(tiles: &[Tile]) -> u32 {
    tiles.iter().filter_map(|t| t.number()).map(u32::from).sum()
}

/// A set's worth under the objective (`value`: its value at its highest reading).
fn primary_of(set: &Set, value: u32, unit: Unit) -> i32 {
    match unit {
        Unit::Tiles => set.len() as i32,
        Unit::Value => value as i32,
    }
}

/// The set with its joker replaced by `tile` (KD7).
fn swapped(set: &Set, tile: Tile) -> Set {
    let mut tiles = set.tiles().to_vec();
    if let Some(i) = tiles.iter().position(|t| t.is_joker()) {
        tiles[i] = tile;
    }
    Set::new(tiles)
}

/// The old table: its sets with their readings (KD3), and its value.
struct OldTable<'a> {
    sets: &'a [Set],
    readings: &'a [Reading],
    value: u32,
}

/// A set of the new table: an old set left as it was, or a new one.
enum Laid {
    Old(usize),
    New(Set),
}

/// The solution's figures from the old and new tables (`tie_break`: what the search
/// that found the play minimised).
fn finish(
    rules: &RuleSet,
    old: &OldTable,
    old_tiles: &[Tile],
    laid: Vec<Laid>,
    keep_sets: bool,
    tie_break: TieBreak,
) -> Solution {
    // Each new set read once (an old one was read already): shown in the order of its
    // best reading, worth its value.
    let mut new_value = 0u32;
    let mut unchanged = 0;
    let mut old_left: Vec<bool> = vec![true; old.sets.len()];
    let mut new_sets = Vec::new();
    let table: Vec<Set> = laid
        .into_iter()
        .map(|set| match set {
            Laid::Old(i) => {
                unchanged += 1;
                old_left[i] = false;
                new_value += old.readings[i].value;
                old.sets[i].arranged_as(&old.readings[i])
            }
            Laid::New(s) => {
                let arranged = match s.check(rules) {
                    Ok(reading) => {
                        new_value += reading.value;
                        s.arranged_as(&reading)
                    }
                    Err(_) => s,
                };
                if keep_sets {
                    new_sets.push(arranged.sorted_tiles());
                }
                arranged
            }
        })
        .collect();
    let mut placed = TileCounts::from_tiles(table.iter().flat_map(|s| s.tiles()));
    for t in old_tiles {
        placed.remove(*t);
    }
    // KD11: the value laid is the growth of the table's value (sets at their highest
    // reading, KD3).
    let value = new_value as i32 - old.value as i32;
    // KD12: sets compare as tiles, so a new set may also leave an old set unchanged.
    let changed_sets = if keep_sets {
        for (i, set) in old.sets.iter().enumerate() {
            if !old_left[i] {
                continue;
            }
            let key = set.sorted_tiles();
            if let Some(j) = new_sets.iter().position(|r| *r == key) {
                new_sets.swap_remove(j);
                unchanged += 1;
            }
        }
        old.sets.len() - unchanged
    } else {
        0
    };
    Solution {
        tiles: placed.len() as u32,
        placed: placed.tiles(),
        value,
        changed_sets,
        table,
        fewest_changed_proven: tie_break == TieBreak::FewestChangedSets,
    }
}
