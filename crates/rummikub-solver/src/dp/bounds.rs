//! Upper bounds on what a state can still score (its potential), and the tables the
//! walk prunes by: the jokers groups still need, the gaps a joker-led run must fill.

use super::group_bonus::{pack_x, x_index, x_of_index};
use super::search::Prepared;
use super::state::Key;
use super::{Keepable, Problem, Unit, PRIMARY};
use crate::groups;

/// Upper bounds on what a state can still score: its potential is its score plus these.
pub(super) struct Bounds {
    /// `rest[i]`: the score of every tile at positions `i..` (position = 4 (n - 1) + c),
    /// table and rack.
    pub(super) rest: [i32; 53],
    /// The same for the tiles of each keepable set (their tiles are scored when kept).
    pub(super) kept_rest: Vec<[i32; 53]>,
    /// Per number n, how many keepable sets start after n.
    pub(super) keep_after: [i32; 14],
    /// Per number m, how many old groups are at m or later.
    pub(super) groups_from: [i32; 15],
    /// Score of a joker standing for 13 (what `counted_keepable` is measured against;
    /// the bound itself reads `joker_from`).
    pub(super) joker: i32,
    /// `joker_from[g]`: score of a joker laid at number g or later, at best (the
    /// value objective: the highest printed number from g on; under a cut of the
    /// cycle or walking down that falls below 13 before the walk ends).
    pub(super) joker_from: [i32; 15],
    /// `uncounted_after[n]` and `uncounted_groups_from[m]`: the old sets the bound
    /// does not count (see `counted_keepable`) after number n, and the old groups at
    /// m or later. Once no joker can stand for 13 any more they count again (see
    /// [`Bounds::jokers`]).
    uncounted_after: [i32; 14],
    uncounted_groups_from: [i32; 15],
    pub(super) total_jokers: u8,
    /// Per number n, how many keepable sets starting after n hold one joker and how
    /// many two: keeping them needs that many jokers still unused.
    pub(super) keep_jokers: [[u8; 2]; 14],
    /// Per number m, the same for the old groups at m or later.
    pub(super) group_jokers: [[u8; 2]; 15],
    /// Per keepable set and per old group, whether the bound counts its point.
    pub(super) counted_keepable: Vec<bool>,
    pub(super) counted_group: Vec<bool>,
}

impl Bounds {
    pub(super) fn new(p: &Problem) -> Bounds {
        let suffix = |counts: &dyn Fn(usize, usize) -> u8| {
            let mut rest = [0i32; 53];
            for i in (0..52).rev() {
                let (n, c) = (i / 4 + 1, i % 4);
                rest[i] = rest[i + 1] + i32::from(counts(n, c)) * p.unit_at(n as u8) * PRIMARY;
            }
            rest
        };
        // Under the value objective every joker counts at 13 in the bound, so an old
        // set whose jokers stand for less gains nothing by being kept: its tie-break
        // point (one) is worth less than the joker's value lost (64 a number). Only the
        // sets that can gain count in the bound.
        let keeps_gain = |jokers: u8, joker_value: u32| {
            p.unit == Unit::Tiles || joker_value == 13 * u32::from(jokers)
        };
        let counted_keepable: Vec<bool> = p
            .keepable
            .iter()
            .map(|k| keeps_gain(k.jokers, k.joker_value))
            .collect();
        let counted_group: Vec<bool> = p
            .old_groups
            .iter()
            .map(|g| {
                let printed = u32::from(p.printed[usize::from(g.0)]);
                keeps_gain(g.2, printed * u32::from(g.2))
            })
            .collect();
        let counted: Vec<&Keepable> = p
            .keepable
            .iter()
            .filter(|k| keeps_gain(k.jokers, k.joker_value))
            .collect();
        let counted_groups: Vec<(u8, u8, u8)> = p
            .old_groups
            .iter()
            .copied()
            // (A group's jokers stand for its printed number: the DP's differs when the
            // numbers are walked down or the cycle is cut elsewhere.)
            .filter(|g| {
                let printed = u32::from(p.printed[usize::from(g.0)]);
                keeps_gain(g.2, printed * u32::from(g.2))
            })
            .collect();
        let mut keep_after = [0i32; 14];
        for (n, slot) in keep_after.iter_mut().enumerate() {
            *slot = counted.iter().filter(|k| usize::from(k.first) > n).count() as i32;
        }
        Bounds {
            rest: suffix(&|n, c| p.table[n][c] + p.rack[n][c]),
            kept_rest: p
                .keepable
                .iter()
                .map(|k| suffix(&|n, c| k.counts[n][c]))
                .collect(),
            keep_after,
            groups_from: {
                let mut from = [0i32; 15];
                for m in (0..14).rev() {
                    from[m] = from[m + 1]
                        + counted_groups
                            .iter()
                            .filter(|g| usize::from(g.0) == m)
                            .count() as i32;
                }
                from
            },
            joker: p.unit.of(13) * PRIMARY,
            joker_from: {
                let mut from = [0i32; 15];
                let mut best = 0;
                for g in (1..14).rev() {
                    best = best.max(p.unit.of(p.printed[g]) * PRIMARY);
                    // A kept old run's jokers are laid with it at its first number, but
                    // stand where its reading puts them, which may be a number the walk
                    // has passed: walking down, [k11 k12 J] is kept at 12, its joker at
                    // 13 (without this the bound lost the joker's 13 there and the search
                    // missed a play keeping one more set).
                    for k in p.keepable.iter().filter(|k| usize::from(k.first) == g) {
                        if k.jokers > 0 {
                            // (Each of two jokers stands for at least 1.)
                            let one = k.joker_value.saturating_sub(u32::from(k.jokers) - 1);
                            best = best.max(p.unit.of(one.min(13) as u8) * PRIMARY);
                        }
                    }
                    from[g] = best;
                }
                from[0] = best;
                from
            },
            uncounted_after: std::array::from_fn(|n| {
                let after = p.keepable.iter().zip(&counted_keepable);
                after
                    .filter(|(k, &c)| !c && usize::from(k.first) > n)
                    .count() as i32
            }),
            uncounted_groups_from: std::array::from_fn(|m| {
                let from = p.old_groups.iter().zip(&counted_group);
                from.filter(|(g, &c)| !c && usize::from(g.0) >= m).count() as i32
            }),
            total_jokers: p.table_jokers + p.rack_jokers,
            keep_jokers: std::array::from_fn(|n| {
                let holding = |j| {
                    let sets = counted.iter().filter(|k| usize::from(k.first) > n);
                    sets.filter(|k| k.jokers == j).count() as u8
                };
                [holding(1), holding(2)]
            }),
            group_jokers: std::array::from_fn(|m| {
                let holding = |j| {
                    let groups = counted_groups.iter().filter(|g| usize::from(g.0) >= m);
                    groups.filter(|g| g.2 == j).count() as u8
                };
                [holding(1), holding(2)]
            }),
            counted_keepable,
            counted_group,
        }
    }

    /// The jokers' part of the bound with `left` jokers unused, once the keep choices up
    /// to number n and the old groups before `groups_from` are decided: each joker at
    /// its best, less a tie-break point for every old set still to come that holds
    /// jokers and cannot be kept for want of them (the old sets part of
    /// [`Bounds::tiles_ahead`] counts them all).
    pub(super) fn jokers(&self, left: u8, n: u8, groups_from: u8) -> i32 {
        let [k1, k2] = self.keep_jokers[usize::from(n)];
        let [g1, g2] = self.group_jokers[usize::from(groups_from)];
        let (one, two) = (k1 + g1, k2 + g2);
        let kept_one = one.min(left);
        let kept_two = two.min((left - kept_one) / 2);
        // A joker laid from `groups_from` on stands for a number there. Where none of
        // those is printed 13, an old set whose jokers stand for less (left out of the
        // bound, see `counted_keepable`) may be kept with its jokers at the highest
        // value still to come: such sets count again (a point each, less than the 64
        // a number that the jokers' value falls by).
        let value = self.joker_from[usize::from(groups_from)];
        let uncounted = if value < self.joker && left > 0 {
            self.uncounted_after[usize::from(n)]
                + self.uncounted_groups_from[usize::from(groups_from)]
        } else {
            0
        };
        i32::from(left) * value - i32::from(one + two - kept_one - kept_two) + uncounted
    }

    /// The most a state with `key` and `score` can end with, once every tile before
    /// position `from` is decided (and the keep choices up to number n, and the old
    /// groups before number `groups_from`).
    pub(super) fn potential(
        &self,
        key: &Key,
        score: i32,
        from: usize,
        n: u8,
        groups_from: u8,
    ) -> i32 {
        score
            + self.tiles_ahead(key.mask, from, n, groups_from)
            + self.jokers(self.total_jokers - key.jokers, n, groups_from)
    }

    /// The part of [`Bounds::potential`] that depends on the kept sets alone (the same
    /// for every successor of a state within a number): tiles and old sets still to come.
    pub(super) fn tiles_ahead(&self, mut mask: u64, from: usize, n: u8, groups_from: u8) -> i32 {
        let mut reserved = 0;
        while mask != 0 {
            let bit = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            reserved += self.kept_rest[bit][from];
        }
        self.ahead(from, reserved, n, groups_from)
    }

    /// [`Bounds::tiles_ahead`] with the kept sets' part (`reserved`) already summed.
    pub(super) fn ahead(&self, from: usize, reserved: i32, n: u8, groups_from: u8) -> i32 {
        self.rest[from] - reserved
            + self.keep_after[usize::from(n)]
            + self.groups_from[usize::from(groups_from)]
    }

    /// `[left][n][j]`: the jokers' part of the bound in the colour steps of number n
    /// with `left` jokers unused, after an option takes j of them (see
    /// [`Prepared::joker_bounds`](super::search::Prepared::joker_bounds)).
    pub(super) fn colour_step_jokers(&self) -> Vec<[[i32; 3]; 14]> {
        (0..=self.total_jokers)
            .map(|left| {
                std::array::from_fn(|n| {
                    std::array::from_fn(|j| {
                        self.jokers(left.saturating_sub(j as u8), n as u8, n as u8)
                    })
                })
            })
            .collect()
    }
}

/// What the old sets kept whole (a mask) mean for the colour steps of number n: the
/// tiles of each colour they reserve, and the bound on the rest after each colour.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct KeptAt {
    pub(super) reserved: [u8; 4],
    pub(super) ahead: [i32; 4],
    /// Tiles of each colour free for open runs at n + 1 and n + 2 (none past 13).
    pub(super) free_after: [[u8; 4]; 2],
    /// Tiles of each colour free at the last three numbers, 13, 12 and 11 (see
    /// [`KeptAt::jokers_for_tails`]).
    pub(super) free_at_end: [[u8; 4]; 3],
    /// The bound on the rest after the group step of n, but for the jokers (see
    /// [`Bounds::tiles_ahead`]; the kept sets ending at n are done).
    pub(super) after_groups: i32,
    /// The bound on the rest from n's first colour on, but for the jokers (the tiles
    /// part of the keep choice's [`Bounds::potential`]).
    pub(super) before_colours: i32,
}

impl KeptAt {
    pub(super) fn new(p: &Problem, prep: &Prepared, mask: u64, n: u8) -> KeptAt {
        let ni = usize::from(n);
        // One pass over the kept sets: their tiles at n, n + 1 and n + 2, and their part
        // of the bound after each colour of n (see `Bounds::tiles_ahead`).
        let mut reserved = [[0u8; 4]; 3];
        let mut reserved_at_end = [[0u8; 4]; 3];
        let mut reserved_rest = [0i32; 4];
        let mut reserved_from_n = 0;
        let mut bits = mask;
        while bits != 0 {
            let bit = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let k = &p.keepable[bit];
            for (d, row) in reserved.iter_mut().enumerate() {
                if let Some(counts) = k.counts.get(ni + d) {
                    for c in 0..4 {
                        row[c] += counts[c];
                    }
                }
            }
            if p.wrap {
                for (i, row) in reserved_at_end.iter_mut().enumerate() {
                    for (slot, count) in row.iter_mut().zip(k.counts[13 - i]) {
                        *slot += count;
                    }
                }
            }
            let rest = &prep.bounds.kept_rest[bit];
            reserved_from_n += rest[(ni - 1) * 4];
            for (c, slot) in reserved_rest.iter_mut().enumerate() {
                *slot += rest[(ni - 1) * 4 + c + 1];
            }
        }
        let free = |d: usize, c: usize| {
            let m = ni + d;
            if m > 13 {
                0
            } else {
                p.table[m][c] + p.rack[m][c] - reserved[d][c]
            }
        };
        KeptAt {
            before_colours: prep.bounds.ahead((ni - 1) * 4, reserved_from_n, n, n),
            after_groups: prep
                .bounds
                .tiles_ahead(mask & !prep.ending[ni], ni * 4, n, n + 1),
            reserved: reserved[0],
            ahead: std::array::from_fn(|c| {
                prep.bounds
                    .ahead((ni - 1) * 4 + c + 1, reserved_rest[c], n, n)
            }),
            free_after: [
                std::array::from_fn(|c| free(1, c)),
                std::array::from_fn(|c| free(2, c)),
            ],
            // (Read only under wrap-around runs.)
            free_at_end: if p.wrap {
                std::array::from_fn(|i| {
                    std::array::from_fn(|c| {
                        (p.table[13 - i][c] + p.rack[13 - i][c])
                            .saturating_sub(reserved_at_end[i][c])
                    })
                })
            } else {
                [[0; 4]; 3]
            },
        }
    }

    /// The fewest jokers colour c's open runs (after number n; `one` and `two` tiles
    /// long, see [`short_runs`](super::context::short_runs)) need to go on: a run of one
    /// or two tiles needs a tile or a joker at n + 1, one of one tile at n + 2 as well;
    /// `u8::MAX` if they cannot (a run of one tile after 12). Under wrap-around runs
    /// (`wrap`) a run open at 13 may be the part before 1 of a run over 13 (it waits for
    /// a part after 13), so a run of one tile after 12 needs only 13 and none after 13
    /// needs anything.
    pub(super) fn jokers_to_go_on(&self, (one, two): (u8, u8), n: u8, c: usize, wrap: bool) -> u8 {
        if wrap && n >= 12 {
            return if n >= 13 {
                0
            } else {
                (one + two).saturating_sub(self.free_after[0][c])
            };
        }
        if n >= 13 || one > 0 && n >= 12 {
            return if one + two > 0 { u8::MAX } else { 0 };
        }
        jokers_to_go_on_before_12((one, two), self.free_at(c))
    }

    /// Colour c's free tiles at n + 1 and n + 2.
    pub(super) fn free_at(&self, c: usize) -> [u8; 2] {
        [self.free_after[0][c], self.free_after[1][c]]
    }

    /// The fewest jokers colour c's parts after 13 (`tails`, see
    /// [`tails_needed`](crate::runs::tails_needed)) need for their parts before
    /// 1, at the numbers of the walk's last three that come after n + 2 (the numbers
    /// before are [`KeptAt::jokers_to_go_on`]'s: no slot is counted twice). Each part
    /// before 1 is a run of its own, so each needs a tile or a joker at each of its
    /// numbers.
    pub(super) fn jokers_for_tails(&self, tails: [u8; 3], n: u8, c: usize) -> u8 {
        (0..3)
            .filter(|&i| 13 - i > n + 2)
            .map(|i| tails[usize::from(i)].saturating_sub(self.free_at_end[usize::from(i)][c]))
            .sum()
    }
}

/// [`KeptAt::jokers_to_go_on`] after a number n before 12, whatever the rules: a run of
/// one or two tiles needs a tile or a joker at n + 1, one of one tile at n + 2 as well
/// (`free`: the colour's free tiles there). The walk calls it for every option, with
/// `free` read once per colour step.
#[inline]
pub(super) fn jokers_to_go_on_before_12((one, two): (u8, u8), [next, after]: [u8; 2]) -> u8 {
    (one + two).saturating_sub(next) + one.saturating_sub(after)
}

/// The groups look-ahead, `need_table(most, jokers_per_set)[c][x]`: the fewest jokers
/// with which the tiles `x` set aside for groups in colours 0..=c at a number (2 bits
/// each) can still make groups, whatever the other colours add when colour c' can set
/// aside at most `most[c']` tiles (2 or more: any); `u8::MAX` if they cannot. The walk
/// reads the table for what its keep choice leaves each colour to set aside
/// (`Expansion::colours_at`).
pub(super) fn need_table(most: [u8; 4], jokers_per_set: u8) -> &'static GroupNeed {
    static TABLES: std::sync::OnceLock<Vec<GroupNeed>> = std::sync::OnceLock::new();
    // Per jokers per set (0..=2) and tiles there (0..=2 per colour, as in `x_index`).
    let tables = TABLES.get_or_init(|| {
        (0..3u8)
            .flat_map(|jokers_per_set| {
                (0..81usize).map(move |most| group_need_for(x_of_index(most), jokers_per_set))
            })
            .collect()
    });
    &tables[usize::from(jokers_per_set.min(2)) * 81 + x_index(most.map(|m| m.min(2)))]
}

/// [`need_table`] for colours that can set aside `most` tiles each.
pub(super) fn group_need_for(most: [u8; 4], jokers_per_set: u8) -> GroupNeed {
    let mut table = [[u8::MAX; 256]; 4];
    for x in 0..81usize {
        let xs = x_of_index(x);
        if xs.iter().zip(&most).any(|(v, m)| v > m) {
            continue;
        }
        let Some(gj) = (0..=2u8).find(|&gj| !groups::splits(xs, gj, jokers_per_set).is_empty())
        else {
            continue;
        };
        let packed = pack_x(xs);
        for (c, row) in table.iter_mut().enumerate() {
            let partial = packed & ((1 << (2 * c + 2)) - 1);
            row[partial] = row[partial].min(gj);
        }
    }
    table
}

/// One [`need_table`]: by colour, by the tiles set aside so far (2 bits each).
pub(super) type GroupNeed = [[u8; 256]; 4];

/// Per number n and colour, how many numbers after n up to 13 have no tile of the
/// colour, on the table or the rack.
pub(super) fn gaps_to_13(p: &Problem) -> [[u8; 4]; 14] {
    let mut gaps = [[0u8; 4]; 14];
    for n in (1..13).rev() {
        let next = gaps[n + 1];
        for (c, gap) in gaps[n].iter_mut().enumerate() {
            let missing = p.table[n + 1][c] + p.rack[n + 1][c] == 0;
            *gap = next[c] + u8::from(missing);
        }
    }
    gaps
}

#[cfg(test)]
mod tests {
    use super::{need_table, x_of_index};
    use crate::groups;

    /// The walk reads the groups look-ahead for what the colours after can set aside in
    /// the keep choice walked (`Expansion::colours_at`): with fewer tiles to set aside
    /// the tiles set aside so far need at least as many jokers, and a full choice of
    /// tiles set aside needs exactly the fewest jokers with which it splits into groups.
    #[test]
    fn the_groups_look_ahead_needs_more_jokers_with_fewer_tiles_to_set_aside() {
        for jokers_per_set in 0..3u8 {
            for most in (0..81).map(x_of_index) {
                let table = need_table(most, jokers_per_set);
                let all = need_table([2; 4], jokers_per_set);
                for (c, (row, row_all)) in table.iter().zip(all).enumerate() {
                    for (partial, (&need, &need_all)) in row.iter().zip(row_all).enumerate() {
                        assert!(
                            need >= need_all,
                            "{most:?}, colour {c}, tiles set aside {partial:#b}: {need} < {need_all}"
                        );
                    }
                }
                for x in (0..81).map(x_of_index) {
                    if x.iter().zip(&most).any(|(v, m)| v > m) {
                        continue;
                    }
                    let packed = x.iter().rev().fold(0usize, |p, &v| p << 2 | usize::from(v));
                    let fewest = (0..=2u8)
                        .find(|&j| !groups::splits(x, j, jokers_per_set).is_empty())
                        .unwrap_or(u8::MAX);
                    assert_eq!(table[3][packed], fewest, "{x:?} within {most:?}");
                }
            }
        }
    }
}
