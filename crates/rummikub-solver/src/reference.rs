//! A slow reference solver that is easy to check by reading: a memoized dynamic program
//! over the tile counts left, for tests to hold the fast solver against on small
//! positions. It shares no code with the fast search; the rules engine alone says which
//! sets are valid and what they are worth.
//!
//! The recursion takes the lowest tile kind still on the table or the rack. A rack tile
//! of that kind may stay on the rack; otherwise the tile goes into a set, and since every
//! lower kind is used up, that set is one whose lowest kind it is. Table tiles must all
//! be used. Tiles of one kind are interchangeable, so a set takes table copies first and
//! the rack copies it takes are the tiles laid. The state is the counts left, how many
//! old sets of each kind may still be re-formed (a set re-formed from the same tiles is
//! unchanged, KD12), the new table's value so far (for the initial meld, capped at what
//! it needs) and whether a rack tile was laid (K5). The sets that do not depend on the
//! recursion are fixed before it: under the current rules an initial meld leaves the
//! table as it is (K4); under the old rules a frozen joker set is kept whole or has its
//! joker swapped for a rack tile, the freed joker laid again (K5, KD7).

use std::collections::{HashMap, HashSet};

use rummikub::round::table_value;
use rummikub::set::check_tiles;
use rummikub::tile::{TileCounts, KINDS, MAX_NUMBER};
use rummikub::{Colour, RuleSet, Set, Tile};

use crate::Objective;

/// The best play the reference finds (best on the objective, then fewest sets changed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReferencePlay {
    /// The whole new table.
    pub table: Vec<Set>,
    /// Rack tiles laid (a joker counts as one).
    pub tiles: u32,
    /// How much the table's value grows (KD11).
    pub value: i32,
    /// Old table sets not on the new table unchanged.
    pub changed_sets: usize,
}

/// The best play from `rack` onto `table`, or `None` when no legal play lays a tile.
/// Exponential in the worst case: for positions of a few sets and a few rack tiles.
pub fn best_play(
    rules: &RuleSet,
    table: &[Set],
    rack: &[Tile],
    melded: bool,
    objective: Objective,
) -> Option<ReferencePlay> {
    let on_table = TileCounts::from_tiles(table.iter().flat_map(|s| s.tiles()));
    let in_rack = TileCounts::from_tiles(rack);
    let mut available = on_table.clone();
    for &t in rack {
        available.add(t);
    }
    let old_value = table_value(table, rules);
    let mut old_kinds: Vec<Vec<Tile>> = table.iter().map(|s| s.sorted_tiles()).collect();
    old_kinds.sort();
    old_kinds.dedup();
    let credits: Vec<u8> = old_kinds
        .iter()
        .map(|k| table.iter().filter(|s| s.sorted_tiles() == *k).count() as u8)
        .collect();
    let meld_needed =
        (!melded && rules.initial_meld_minimum > 0).then(|| old_value + rules.initial_meld_minimum);

    let mut search = Search {
        objective,
        sets: valid_sets(rules, &available),
        old_kinds,
        meld_needed,
        memo: HashMap::new(),
    };
    let mut best: Option<(Score, Vec<Set>)> = None;
    for fixed in fixed_choices(rules, table, melded, &in_rack) {
        let mut state = State {
            table: on_table.clone(),
            rack: in_rack.clone(),
            credits: credits.clone(),
            value: 0,
            laid: false,
        };
        let mut score = Score::default();
        for (set, swapped_in) in &fixed {
            let gain = search.take(&mut state, &SetTiles::new(set, rules), *swapped_in);
            score = score.plus(gain);
        }
        let Some(rest) = search.best(&state) else {
            continue;
        };
        let score = score.plus(rest);
        if best.as_ref().is_none_or(|(b, _)| score > *b) {
            let mut sets: Vec<Set> = fixed.iter().map(|(set, _)| set.clone()).collect();
            sets.extend(search.rebuild(state));
            best = Some((score, sets));
        }
    }
    let (score, new_table) = best?;
    let value = table_value(&new_table, rules) as i32 - old_value as i32;
    let tiles = (TileCounts::from_tiles(new_table.iter().flat_map(|s| s.tiles())).len()
        - on_table.len()) as u32;
    Some(ReferencePlay {
        changed_sets: table.len() - score.unchanged as usize,
        table: new_table,
        tiles,
        value,
    })
}

/// The sets fixed before the recursion, one list per choice, each set with the rack tile
/// swapped into it if any: none to choose (one empty list); every old set (the current
/// rules' initial meld); or each frozen joker set kept or swapped.
fn fixed_choices(
    rules: &RuleSet,
    table: &[Set],
    melded: bool,
    rack: &TileCounts,
) -> Vec<Vec<(Set, Option<Tile>)>> {
    if !melded && !rules.initial_meld_may_use_table {
        return vec![table.iter().map(|s| (s.clone(), None)).collect()];
    }
    let mut choices: Vec<Vec<(Set, Option<Tile>)>> = vec![Vec::new()];
    if !rules.frozen_joker_sets {
        return choices;
    }
    for frozen in table.iter().filter(|s| s.jokers() > 0) {
        let mut options = vec![(frozen.clone(), None)];
        for (tile, _) in rack.iter().filter(|(t, _)| !t.is_joker()) {
            let mut tiles = frozen.sorted_tiles();
            tiles.pop(); // a joker: jokers sort last
            tiles.push(tile);
            if check_tiles(&tiles, rules).is_ok() {
                options.push((Set::new(tiles), Some(tile)));
            }
        }
        choices = choices
            .into_iter()
            .flat_map(|chosen| {
                options.iter().map(move |option| {
                    let mut next = chosen.clone();
                    next.push(option.clone());
                    next
                })
            })
            .collect();
    }
    choices
}

/// A valid set as tile counts, with its lowest kind and its value (highest reading).
#[derive(Clone, Debug)]
struct SetTiles {
    tiles: Vec<Tile>,
    counts: TileCounts,
    value: u32,
}

impl SetTiles {
    fn new(set: &Set, rules: &RuleSet) -> SetTiles {
        let tiles = set.sorted_tiles();
        SetTiles {
            counts: TileCounts::from_tiles(&tiles),
            value: check_tiles(&tiles, rules).map_or(0, |r| r.value),
            tiles,
        }
    }
}

/// Every valid set (by the rules engine) that the available tiles can make, listed by
/// its lowest kind: each run (a colour, consecutive numbers, wrapping past 13 if the
/// rules allow) and each group (one number, distinct colours) with up to two of its
/// places taken by jokers, kept if `check_tiles` accepts it.
fn valid_sets(rules: &RuleSet, available: &TileCounts) -> Vec<Vec<SetTiles>> {
    let mut shapes: Vec<Vec<Option<Tile>>> = Vec::new();
    for colour in Colour::ALL {
        for start in 1..=MAX_NUMBER {
            for len in 3..=MAX_NUMBER {
                let numbers: Vec<u8> = (0..len).map(|i| (start - 1 + i) % 13 + 1).collect();
                if !rules.run_wraps_around && start + len - 1 > MAX_NUMBER {
                    continue;
                }
                shapes.push(numbers.iter().map(|&n| Tile::new(colour, n)).collect());
            }
        }
    }
    for number in 1..=MAX_NUMBER {
        for mask in 1u8..16 {
            let tiles: Vec<Option<Tile>> = Colour::ALL
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, &c)| Tile::new(c, number))
                .collect();
            for jokers in 0..=2 {
                let mut shape = tiles.clone();
                shape.extend(std::iter::repeat_n(None, jokers));
                if (3..=4).contains(&shape.len()) {
                    shapes.push(shape);
                }
            }
        }
    }
    let mut seen = HashSet::new();
    let mut by_lowest: Vec<Vec<SetTiles>> = vec![Vec::new(); KINDS];
    for shape in shapes {
        // Up to two places of the shape taken by jokers.
        let n = shape.len();
        let mut joker_places: Vec<Vec<usize>> = vec![vec![]];
        joker_places.extend((0..n).map(|i| vec![i]));
        joker_places.extend((0..n).flat_map(|i| (i + 1..n).map(move |j| vec![i, j])));
        for places in joker_places {
            let mut tiles: Vec<Tile> = shape
                .iter()
                .enumerate()
                .map(|(i, t)| match t {
                    Some(t) if !places.contains(&i) => *t,
                    _ => Tile::JOKER,
                })
                .collect();
            tiles.sort();
            let counts = TileCounts::from_tiles(&tiles);
            if !counts.is_subset_of(available) || !seen.insert(tiles.clone()) {
                continue;
            }
            if let Ok(reading) = check_tiles(&tiles, rules) {
                by_lowest[tiles[0].index()].push(SetTiles {
                    tiles,
                    counts,
                    value: reading.value,
                });
            }
        }
    }
    by_lowest
}

#[derive(Clone, PartialEq, Eq, Hash)]
struct State {
    table: TileCounts,
    rack: TileCounts,
    /// Per kind of old set (`Search::old_kinds`): how many may still be re-formed.
    credits: Vec<u8>,
    /// The new table's value so far, capped at what the initial meld needs.
    value: u32,
    laid: bool,
}

/// What a play scores from some state on, compared as (objective, unchanged sets).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Score {
    objective: i64,
    unchanged: i64,
}

impl Score {
    fn plus(self, other: Score) -> Score {
        Score {
            objective: self.objective + other.objective,
            unchanged: self.unchanged + other.unchanged,
        }
    }
}

#[derive(Clone, Copy)]
enum Choice {
    /// One rack tile of this kind stays on the rack.
    Leave(Tile),
    /// The set `sets[kind][i]` goes on the table.
    Lay(usize, usize),
}

struct Search {
    objective: Objective,
    sets: Vec<Vec<SetTiles>>,
    old_kinds: Vec<Vec<Tile>>,
    meld_needed: Option<u32>,
    /// The best score from a state and its first choice (none once every tile is placed).
    memo: HashMap<State, Option<(Score, Option<Choice>)>>,
}

impl Search {
    /// Lays `set` from the state and returns what it scores: `from_rack` (a tile swapped
    /// for a frozen set's joker) from the rack, the other tiles from the table first.
    fn take(&self, state: &mut State, set: &SetTiles, from_rack: Option<Tile>) -> Score {
        let mut laid = 0;
        let mut tiles = set.counts.clone();
        if let Some(t) = from_rack {
            let (in_set, in_rack) = (tiles.remove(t), state.rack.remove(t));
            debug_assert!(in_set && in_rack, "a swapped tile comes from the rack");
            laid += 1;
        }
        for t in tiles.tiles() {
            if !state.table.remove(t) {
                let from_rack = state.rack.remove(t);
                debug_assert!(from_rack, "the set's tiles are available");
                laid += 1;
            }
        }
        state.laid |= laid > 0;
        state.value += set.value;
        if let Some(needed) = self.meld_needed {
            state.value = state.value.min(needed);
        }
        let mut unchanged = 0;
        if let Some(k) = self.old_kinds.iter().position(|k| *k == set.tiles) {
            if state.credits[k] > 0 {
                state.credits[k] -= 1;
                unchanged = 1;
            }
        }
        Score {
            objective: match self.objective {
                Objective::Tiles => laid,
                Objective::Value => i64::from(set.value),
            },
            unchanged,
        }
    }

    /// The most the rest can score from `state`, `None` if no legal play is left.
    fn best(&mut self, state: &State) -> Option<Score> {
        if let Some(known) = self.memo.get(state) {
            return known.map(|(score, _)| score);
        }
        let found = self.search(state);
        self.memo.insert(state.clone(), found);
        found.map(|(score, _)| score)
    }

    fn search(&mut self, state: &State) -> Option<(Score, Option<Choice>)> {
        let Some(lowest) = Tile::kinds().find(|&t| state.table.count(t) + state.rack.count(t) > 0)
        else {
            let meld_reached = self.meld_needed.is_none_or(|needed| state.value >= needed);
            return (state.laid && meld_reached).then_some((Score::default(), None));
        };
        let mut best: Option<(Score, Option<Choice>)> = None;
        if state.table.count(lowest) == 0 {
            let mut next = state.clone();
            next.rack.remove(lowest);
            if let Some(score) = self.best(&next) {
                best = Some((score, Some(Choice::Leave(lowest))));
            }
        }
        let mut available = state.table.clone();
        for (t, c) in state.rack.iter() {
            for _ in 0..c {
                available.add(t);
            }
        }
        for i in 0..self.sets[lowest.index()].len() {
            let set = self.sets[lowest.index()][i].clone();
            if !set.counts.is_subset_of(&available) {
                continue;
            }
            let mut next = state.clone();
            let gain = self.take(&mut next, &set, None);
            if let Some(rest) = self.best(&next) {
                let score = gain.plus(rest);
                if best.is_none_or(|(b, _)| score > b) {
                    best = Some((score, Some(Choice::Lay(lowest.index(), i))));
                }
            }
        }
        best
    }

    /// The sets of the best play from `state` (which `best` has searched).
    fn rebuild(&mut self, mut state: State) -> Vec<Set> {
        let mut sets = Vec::new();
        while let Some(Some((_, Some(choice)))) = self.memo.get(&state).copied() {
            match choice {
                Choice::Leave(t) => {
                    state.rack.remove(t);
                }
                Choice::Lay(kind, i) => {
                    let set = self.sets[kind][i].clone();
                    self.take(&mut state, &set, None);
                    sets.push(Set::new(set.tiles));
                }
            }
        }
        sets
    }
}
