//! The old groups' part of the tie-break: which old groups a number's group step
//! re-forms ([`GroupBonus`]) and which ones the tiles set aside can no longer form
//! ([`GroupLoss`]).

use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::Problem;
use crate::groups::{self, GroupShape};

/// The old groups each number's group step can re-form: for every (tiles set aside per
/// colour, jokers) the most old groups one split of them contains. Forming an old group
/// again is keeping it, so this scores the tie-break without a keep choice per group.
pub(crate) struct GroupBonus {
    pub(super) jokers_per_set: u8,
    /// Per number, the old groups there as (colours, jokers).
    pub(super) at: Vec<Vec<(u8, u8)>>,
    /// Per number with old groups, what they mean for its group steps.
    pub(super) numbers: [Option<Arc<GroupsAt>>; 14],
}

/// What the old groups at one number mean for its group steps. It depends only on those
/// groups, the tiles of that number and the jokers allowed per set, so it is worked out
/// once per cache for each such combination ([`super::Cache`]): most old groups recur
/// from one position to the next.
pub(super) struct GroupsAt {
    /// `kept[x][gj]`, x as in [`x_index`].
    pub(super) kept: [[u8; 3]; 81],
    /// Only with old groups without jokers there.
    pub(super) loss: Option<GroupLoss>,
}

/// The old groups at one number (sorted, padded with `(0, 0)`: a group has two colours or
/// more, so no old group reads so), the tiles there per colour, the jokers per set.
pub(super) type GroupsAtKey = ([(u8, u8); MAX_GROUPS_PER_NUMBER], [u8; 4], u8);

/// Old groups at one number: each holds two numbered tiles or more, of eight there.
pub(super) const MAX_GROUPS_PER_NUMBER: usize = 4;

/// Past this many entries the cache of [`GroupsAt`] starts again (memory bound; about
/// 1.3 KB each).
pub(super) const MAX_GROUPS_AT: usize = 4_096;

/// `loss[c][partial]`: of the old groups without jokers at one number, how many no
/// split can re-form once the tiles set aside in colours 0..=c are `partial` (2 bits
/// each), whatever the other colours add. The colour walk counts them lost at once
/// instead of at the group step. (Groups holding jokers are left to the jokers' part of
/// the bound, so that no group is counted lost twice.)
pub(super) type GroupLoss = [[u8; 256]; 4];

pub(super) fn x_index(x: [u8; 4]) -> usize {
    x.iter().fold(0, |i, &c| i * 3 + usize::from(c))
}

/// Tiles set aside per colour, 2 bits each (as in the DP's keys).
pub(super) fn pack_x(x: [u8; 4]) -> usize {
    x.iter()
        .enumerate()
        .fold(0, |acc, (c, &v)| acc | usize::from(v) << (2 * c))
}

/// The tiles per colour of an [`x_index`].
pub(super) fn x_of_index(i: usize) -> [u8; 4] {
    X_OF_INDEX[i]
}

/// [`x_of_index`] for every index (worked out at compile time: it is read in the setup
/// of every problem).
pub(super) const X_OF_INDEX: [[u8; 4]; 81] = {
    let mut table = [[0u8; 4]; 81];
    let mut i = 0;
    while i < 81 {
        table[i] = [
            (i / 27) as u8,
            (i / 9 % 3) as u8,
            (i / 3 % 3) as u8,
            (i % 3) as u8,
        ];
        i += 1;
    }
    table
};

impl GroupBonus {
    pub(super) fn new(
        p: &Problem,
        cache: &mut FxHashMap<GroupsAtKey, Arc<GroupsAt>>,
    ) -> GroupBonus {
        let mut at = vec![Vec::new(); 14];
        for &(n, colours, jokers) in &p.old_groups {
            at[usize::from(n)].push((colours, jokers));
        }
        for groups in &mut at {
            groups.sort_unstable();
        }
        let numbers = std::array::from_fn(|n| {
            if at[n].is_empty() {
                return None;
            }
            let there = std::array::from_fn(|c| p.table[n][c] + p.rack[n][c]);
            debug_assert!(at[n].len() <= MAX_GROUPS_PER_NUMBER);
            let mut groups = [(0, 0); MAX_GROUPS_PER_NUMBER];
            for (slot, &group) in groups.iter_mut().zip(&at[n]) {
                *slot = group;
            }
            let key = (groups, there, p.jokers_per_set);
            if let Some(cached) = cache.get(&key) {
                return Some(Arc::clone(cached));
            }
            let worked_out = Arc::new(GroupsAt::new(&at[n], there, p.jokers_per_set));
            if cache.len() >= MAX_GROUPS_AT {
                cache.clear();
            }
            cache.insert(key, Arc::clone(&worked_out));
            Some(worked_out)
        });
        GroupBonus {
            jokers_per_set: p.jokers_per_set,
            at,
            numbers,
        }
    }

    /// How many old groups at n the split contains (each old group once).
    pub(super) fn matches(&self, n: u8, split: &[GroupShape]) -> u8 {
        matches(&self.at[usize::from(n)], split).0
    }

    /// The [`GroupLoss`] table of number n, if it has old groups without jokers.
    pub(super) fn loss(&self, n: u8) -> Option<&GroupLoss> {
        self.numbers[usize::from(n)].as_ref()?.loss.as_ref()
    }

    pub(super) fn kept(&self, n: u8, x: [u8; 4], gj: u8) -> u8 {
        self.numbers[usize::from(n)]
            .as_ref()
            .map_or(0, |at| at.kept[x_index(x)][usize::from(gj.min(2))])
    }

    /// A split of the tiles into groups with the most old groups in it.
    pub(super) fn best_split(&self, n: u8, x: [u8; 4], gj: u8) -> Option<&'static Vec<GroupShape>> {
        groups::splits(x, gj, self.jokers_per_set)
            .iter()
            .max_by_key(|split| self.matches(n, split))
    }
}

impl GroupsAt {
    /// `old`: the old groups at the number; `there`: its tiles per colour (table and
    /// rack).
    pub(super) fn new(old: &[(u8, u8)], there: [u8; 4], jokers_per_set: u8) -> GroupsAt {
        let plain = old.iter().filter(|g| g.1 == 0).count() as u8;
        let mut kept = [[0; 3]; 81];
        // Per colour and tiles set aside so far, the most old groups without jokers one
        // split of some completion re-forms (`None`: no completion makes groups).
        let mut most_plain = [[None::<u8>; 256]; 4];
        for (xi, kept) in kept.iter_mut().enumerate() {
            let x = x_of_index(xi);
            // Only the tiles there can be set aside.
            if (0..4).any(|c| x[c] > there[c]) {
                continue;
            }
            let mut plain_best = None::<u8>;
            for gj in 0..=2u8 {
                let mut best = 0;
                for split in groups::splits(x, gj, jokers_per_set) {
                    let (all, plain) = matches(old, split);
                    best = best.max(all);
                    plain_best = Some(plain_best.unwrap_or(0).max(plain));
                }
                kept[usize::from(gj)] = best;
            }
            if let Some(kept) = plain_best {
                let packed = pack_x(x);
                for (c, row) in most_plain.iter_mut().enumerate() {
                    let most = &mut row[packed & ((1 << (2 * c + 2)) - 1)];
                    *most = Some(most.unwrap_or(0).max(kept));
                }
            }
        }
        // A partial no groups can complete loses nothing here (the walk drops it by
        // `need_table`).
        let loss =
            (plain > 0).then(|| most_plain.map(|row| row.map(|m| m.map_or(0, |m| plain - m))));
        GroupsAt { kept, loss }
    }
}

/// How many of the old groups `old` the split contains (each old group once), and how
/// many of them hold no joker.
pub(super) fn matches(old: &[(u8, u8)], split: &[GroupShape]) -> (u8, u8) {
    // Each old group matches one group of the split at most (bits: matched).
    let mut matched = 0u64;
    let (mut count, mut plain) = (0, 0);
    for shape in split {
        if let Some(i) = (0..old.len())
            .find(|&i| matched & (1 << i) == 0 && old[i] == (shape.colours, shape.jokers))
        {
            matched |= 1 << i;
            count += 1;
            plain += u8::from(shape.jokers == 0);
        }
    }
    (count, plain)
}
