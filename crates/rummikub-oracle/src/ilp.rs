//! den Hertog & Hulshof's integer program for the best Rummikub play.
//!
//! Variables: `x_s` ∈ {0,1,2} copies of every valid set `s` whose tiles are available;
//! `y_t` rack tiles of kind `t` laid. Tile balance: for each kind, the sets use the
//! table's tiles plus the laid rack tiles. Objective: tiles laid (Σ y) or table value,
//! times 64, plus the number of old table sets kept whole (`k_i` ≤ copies of its set).
//! Old rules: a frozen joker set is either kept or has its joker swapped for a rack tile.

use std::collections::HashMap;
use std::sync::OnceLock;

use good_lp::{
    constraint, microlp, variable, Expression, ProblemVariables, Solution, SolverModel, Variable,
};
use rummikub::{RuleSet, Set, Tile};

/// What the integer program finds best.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IlpAnswer {
    /// Rack tiles laid (jokers included).
    pub tiles: i64,
    /// Growth of the table's value (each set at its highest reading).
    pub value: i64,
    /// Old sets not on the new table unchanged.
    pub changed: i64,
}

/// Maximise tiles laid (`true`) or value laid (`false`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    Tiles,
    Value,
}

const JOKER: usize = 52;
const WEIGHT: f64 = 64.0;

type Key = Vec<u8>;

/// Every valid set under the rule variant as sorted tile indices, with its highest value.
fn all_sets(jokers_per_set: usize, wrap: bool) -> &'static HashMap<Key, i64> {
    static CACHE: OnceLock<[[HashMap<Key, i64>; 2]; 3]> = OnceLock::new();
    let cache = CACHE.get_or_init(|| {
        let mk = |j: usize, w: bool| enumerate(j, w);
        [
            [mk(0, false), mk(0, true)],
            [mk(1, false), mk(1, true)],
            [mk(2, false), mk(2, true)],
        ]
    });
    &cache[jokers_per_set.min(2)][usize::from(wrap)]
}

fn enumerate(jokers_per_set: usize, wrap: bool) -> HashMap<Key, i64> {
    let mut sets: HashMap<Key, i64> = HashMap::new();
    let mut add = |mut key: Key, value: i64| {
        key.sort_unstable();
        let entry = sets.entry(key).or_insert(value);
        *entry = (*entry).max(value);
    };
    // Groups: one number, 3 or 4 different colours, jokers standing in for colours.
    for n in 0..13u8 {
        for colours in 1u8..16 {
            let real = colours.count_ones() as usize;
            for jokers in 0..=jokers_per_set {
                if (3..=4).contains(&(real + jokers)) {
                    let mut key: Key = (0..4u8)
                        .filter(|c| colours & (1 << c) != 0)
                        .map(|c| c * 13 + n)
                        .collect();
                    key.extend(std::iter::repeat_n(JOKER as u8, jokers));
                    add(key, i64::from(n + 1) * (real + jokers) as i64);
                }
            }
        }
    }
    // Runs: one colour, consecutive numbers (wrapping past 13 if allowed).
    for colour in 0..4u8 {
        for start in 0..13usize {
            for len in 3..=13usize {
                if !wrap && start + len > 13 {
                    continue;
                }
                let numbers: Vec<usize> = (0..len).map(|i| (start + i) % 13).collect();
                let value: i64 = numbers.iter().map(|&n| n as i64 + 1).sum();
                // Joker positions: every subset of size up to the limit.
                let mut patterns: Vec<Vec<usize>> = vec![vec![]];
                if jokers_per_set >= 1 {
                    patterns.extend((0..len).map(|i| vec![i]));
                }
                if jokers_per_set >= 2 {
                    for i in 0..len {
                        for j in i + 1..len {
                            patterns.push(vec![i, j]);
                        }
                    }
                }
                for pattern in patterns {
                    let key: Key = (0..len)
                        .map(|i| {
                            if pattern.contains(&i) {
                                JOKER as u8
                            } else {
                                colour * 13 + numbers[i] as u8
                            }
                        })
                        .collect();
                    add(key, value);
                }
            }
        }
    }
    sets
}

fn key_of(tiles: &[Tile]) -> Key {
    let mut key: Key = tiles.iter().map(|t| t.index() as u8).collect();
    key.sort_unstable();
    key
}

fn counts(tiles: &[Tile]) -> [i64; 53] {
    let mut c = [0i64; 53];
    for t in tiles {
        c[t.index()] += 1;
    }
    c
}

/// The value of a set under the rules, or `None` if it is not a valid set.
pub fn set_value(tiles: &[Tile], rules: &RuleSet) -> Option<i64> {
    all_sets(usize::from(rules.jokers_per_set), rules.run_wraps_around)
        .get(&key_of(tiles))
        .copied()
}

/// [`solve`] for a suite position (table given as sets).
pub fn solve_position(p: &crate::suite::SuitePosition, goal: Goal) -> Option<IlpAnswer> {
    let tiles: Vec<Tile> = p
        .table
        .iter()
        .flat_map(|s| s.tiles().iter().copied())
        .collect();
    solve(&p.rules, Some(&p.table), &tiles, &p.rack, p.melded, goal)
}

/// Solves the position by integer programming; `None` when no legal play lays a tile.
/// `table_sets` is `None` for a table given only as tiles (`table_tiles`).
pub fn solve(
    rules: &RuleSet,
    table_sets: Option<&[Set]>,
    table_tiles: &[Tile],
    rack: &[Tile],
    melded: bool,
    goal: Goal,
) -> Option<IlpAnswer> {
    let sets = all_sets(usize::from(rules.jokers_per_set), rules.run_wraps_around);
    let old: Vec<Set> = table_sets.map(|s| s.to_vec()).unwrap_or_default();
    let old_value: i64 = old
        .iter()
        .map(|s| set_value(s.tiles(), rules).unwrap_or(0))
        .sum();
    let table_untouched = !melded && !rules.initial_meld_may_use_table;
    let frozen: Vec<usize> = if rules.frozen_joker_sets && !table_untouched {
        (0..old.len())
            .filter(|&i| old[i].tiles().iter().any(|t| t.is_joker()))
            .collect()
    } else {
        Vec::new()
    };
    let rack_count = counts(rack);
    // The table tiles the new sets must use: all (minus frozen sets), or none when the
    // initial meld may not touch the table.
    let mut free_table = if table_untouched {
        [0i64; 53]
    } else {
        counts(table_tiles)
    };
    for &f in &frozen {
        for t in old[f].tiles() {
            free_table[t.index()] -= 1;
        }
    }
    let available: Vec<i64> = (0..53).map(|i| free_table[i] + rack_count[i]).collect();
    // Jokers freed by swaps may be used too.
    let joker_room = available[JOKER] + frozen.len() as i64;

    let mut vars = ProblemVariables::new();
    let mut candidates: Vec<(&Key, i64, Variable)> = Vec::new();
    for (key, &value) in sets {
        let mut need = [0i64; 53];
        for &t in key {
            need[usize::from(t)] += 1;
        }
        let fits = (0..52).all(|i| need[i] <= available[i]) && need[JOKER] <= joker_room;
        if fits {
            let most = (0..53)
                .filter(|&i| need[i] > 0)
                .map(|i| if i == JOKER { joker_room } else { available[i] } / need[i])
                .min()
                .unwrap_or(0)
                .min(2);
            if most > 0 {
                let x = vars.add(variable().integer().min(0).max(most as f64));
                candidates.push((key, value, x));
            }
        }
    }
    let y: Vec<Variable> = (0..53)
        .map(|i| vars.add(variable().integer().min(0).max(rack_count[i] as f64)))
        .collect();
    // Frozen sets: keep, or swap the joker for rack tile t.
    let mut frozen_options: Vec<Vec<(Option<usize>, Variable, i64)>> = Vec::new();
    // The swaps by the tiles of the set they leave (KD12: it may be another old set).
    let mut swapped_sets: Vec<(Key, Variable)> = Vec::new();
    for &f in &frozen {
        let tiles = old[f].tiles();
        let mut options = vec![(
            None,
            vars.add(variable().binary()),
            set_value(tiles, rules).unwrap_or(0),
        )];
        for (t, &count) in rack_count.iter().enumerate().take(52) {
            if count == 0 {
                continue;
            }
            let mut swapped: Vec<Tile> = tiles.to_vec();
            if let Some(j) = swapped.iter().position(|x| x.is_joker()) {
                swapped[j] = Tile::from_index(t).unwrap_or(Tile::JOKER);
            }
            if let Some(v) = set_value(&swapped, rules) {
                let choice = vars.add(variable().binary());
                swapped_sets.push((key_of(&swapped), choice));
                options.push((Some(t), choice, v));
            }
        }
        frozen_options.push(options);
    }
    // Old non-frozen sets kept whole.
    let keep: Vec<(usize, Variable)> = if table_untouched {
        Vec::new()
    } else {
        (0..old.len())
            .filter(|i| !frozen.contains(i))
            .map(|i| (i, vars.add(variable().binary())))
            .collect()
    };

    let tiles_laid: Expression = y.iter().copied().sum();
    let mut new_value = Expression::from(0.0);
    for (_, value, x) in &candidates {
        new_value += *value as f64 * *x;
    }
    for options in &frozen_options {
        for (_, v, value) in options {
            new_value += *value as f64 * *v;
        }
    }
    let kept_count: Expression = keep.iter().map(|(_, k)| *k).sum::<Expression>()
        + frozen_options.iter().map(|o| o[0].1).sum::<Expression>();
    let primary = match goal {
        Goal::Tiles => tiles_laid.clone(),
        Goal::Value => new_value.clone(),
    };
    let mut model = vars
        .maximise(WEIGHT * primary + kept_count.clone())
        .using(microlp);
    // Tile balance per kind.
    for i in 0..53 {
        let mut used = Expression::from(0.0);
        for (key, _, x) in &candidates {
            let n = key.iter().filter(|&&t| usize::from(t) == i).count();
            if n > 0 {
                used += n as f64 * *x;
            }
        }
        let mut supply = Expression::from(free_table[i] as f64) + y[i];
        for options in &frozen_options {
            for (t, v, _) in options {
                match t {
                    Some(t) if *t == i => used += *v,
                    Some(_) if i == JOKER => supply += *v,
                    _ => {}
                }
            }
        }
        model = model.with(constraint!(used == supply));
    }
    for options in &frozen_options {
        let one: Expression = options.iter().map(|o| o.1).sum();
        model = model.with(constraint!(one == 1.0));
    }
    // KD7: a joker is swapped only for a tile from the rack, never one taken from
    // another table set.
    for (i, &yi) in y.iter().enumerate().take(52) {
        let swaps: Expression = frozen_options
            .iter()
            .flatten()
            .filter(|(t, _, _)| *t == Some(i))
            .map(|(_, v, _)| *v)
            .sum();
        model = model.with(constraint!(swaps <= yi));
    }
    // A kept set needs a copy of its set on the new table: a new set, or a frozen set
    // whose joker swap left exactly its tiles (KD12).
    let mut by_key: HashMap<Key, Vec<Variable>> = HashMap::new();
    for (i, k) in &keep {
        by_key.entry(key_of(old[*i].tiles())).or_default().push(*k);
    }
    for (key, ks) in by_key {
        let mut copies = candidates
            .iter()
            .find(|(k, _, _)| **k == key)
            .map(|(_, _, x)| Expression::from(*x))
            .unwrap_or_else(|| Expression::from(0.0));
        for (swapped, choice) in &swapped_sets {
            if *swapped == key {
                copies += *choice;
            }
        }
        let total: Expression = ks.into_iter().sum();
        model = model.with(constraint!(total <= copies));
    }
    model = model.with(constraint!(tiles_laid.clone() >= 1.0));
    if !melded {
        let minimum = f64::from(rules.initial_meld_minimum);
        // K4: the meld's value is what the table gains (KD3).
        let base = if table_untouched {
            0.0
        } else {
            old_value as f64
        };
        model = model.with(constraint!(new_value.clone() >= base + minimum));
    }
    let solution = model.solve().ok()?;
    let round = |e: &Expression| solution.eval(e).round() as i64;
    let laid = round(&tiles_laid);
    let value = round(&new_value) - if table_untouched { 0 } else { old_value };
    let changed = if table_untouched {
        0
    } else {
        old.len() as i64 - round(&kept_count)
    };
    Some(IlpAnswer {
        tiles: laid,
        value,
        changed: if table_sets.is_some() { changed } else { 0 },
    })
}
