//! A tile that no set can take while every old set still to come stays whole: the
//! bound's claim (every tile laid, every old set not yet decided kept) then loses at
//! least a point, and the state's potential one tie-break point.
//!
//! Why it pays: the fewest-changed-sets search walks every partial play that has broken
//! fewer old sets than the best play; such a play has usually left the tiles of the sets
//! it broke, or a rack tile, with nowhere to go but into another old set. The bound saw
//! that only when the walk reached the tile's number.
//!
//! Why the potential stays consistent (a successor never above its predecessor): a
//! successor that keeps its predecessor's potential lays every tile of its number and
//! keeps every old set starting there, so the tiles free after it are the same, its
//! unused jokers fewer, and its open runs made of tiles and jokers its predecessor could
//! use. A tile stuck before is stuck after (and one stuck at the next number leaves no
//! such successor). A successor that loses a point may free one; the potential falls by
//! that point already.

use super::bounds::Bounds;
use super::context::Ctx;
use super::expand::NumberChoice;
use super::{Keepable, Problem};

/// What the check needs of a problem, per number n: the tiles after n (and the jokers)
/// held by the old sets still to come that the bound counts as kept.
pub(super) struct Held {
    /// `jokers[n]`: jokers in the counted old sets after n (runs starting after n,
    /// groups after n).
    jokers: [u8; 14],
    /// `free[n][m][c]`: the tiles of colour c at number m > n (table and rack) that no
    /// counted old set after n holds; zero at m <= n and past 13.
    free: Vec<Rows>,
    /// Each keepable set's tiles by number and colour, in the same shape.
    kept: Vec<Rows>,
}

/// Tiles by number (0..16, so that the rows after 13 read as none) and colour.
type Rows = [[u8; 4]; 16];

/// `into - take` row by row, at least zero (a fixed shape, so that it compiles to a few
/// vector instructions: it runs for every kept set of every keep choice checked).
fn subtract(into: &mut Rows, take: &Rows) {
    for (row, counts) in into.iter_mut().zip(take) {
        for (slot, count) in row.iter_mut().zip(counts) {
            *slot = slot.saturating_sub(*count);
        }
    }
}

impl Held {
    pub(super) fn new(p: &Problem, bounds: &Bounds) -> Held {
        let mut tiles = vec![[[0u8; 4]; 14]; 14];
        let mut jokers = [0u8; 14];
        // From 13 down: the sets after n are those after n + 1 and those at n + 1 (each
        // set added once).
        for n in (0..13usize).rev() {
            tiles[n] = tiles[n + 1];
            jokers[n] = jokers[n + 1];
            let runs = p
                .keepable
                .iter()
                .zip(&bounds.counted_keepable)
                .filter(|(k, &counted)| counted && usize::from(k.first) == n + 1)
                .map(|(k, _)| k);
            for k in runs {
                add_counts(&mut tiles[n], k);
                jokers[n] += k.jokers;
            }
            let groups = p
                .old_groups
                .iter()
                .zip(&bounds.counted_group)
                .filter(|(g, &counted)| counted && usize::from(g.0) == n + 1);
            for (&(m, colours, group_jokers), _) in groups {
                for (c, slot) in tiles[n][usize::from(m)].iter_mut().enumerate() {
                    *slot += (colours >> c) & 1;
                }
                jokers[n] += group_jokers;
            }
        }
        let rows = |counts: &[[u8; 4]; 14], after: usize| -> Rows {
            std::array::from_fn(|m| {
                if m > after && m <= 13 {
                    counts[m]
                } else {
                    [0; 4]
                }
            })
        };
        let mut all = [[0u8; 4]; 14];
        for (m, row) in all.iter_mut().enumerate() {
            *row = std::array::from_fn(|c| p.table[m][c] + p.rack[m][c]);
        }
        let free = (0..14)
            .map(|n| {
                let mut free = rows(&all, n);
                subtract(&mut free, &rows(&tiles[n], n));
                free
            })
            .collect();
        let kept = p.keepable.iter().map(|k| rows(&k.counts, 0)).collect();
        Held { jokers, free, kept }
    }
}

fn add_counts(into: &mut [[u8; 4]; 14], k: &Keepable) {
    for (row, counts) in into.iter_mut().zip(&k.counts) {
        for (slot, count) in row.iter_mut().zip(counts) {
            *slot += count;
        }
    }
}

/// The open runs of each colour after number n, as far as [`stuck`] reads them: the
/// longest (0 none, 3 three or more) and the runs that must go on (see
/// [`short_runs`](super::context::short_runs)).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct OpenRuns {
    pub(super) longest: [u8; 4],
    pub(super) short: [(u8, u8); 4],
}

impl OpenRuns {
    /// The open runs after the options a walk took (read from the option lists when the
    /// check runs, not recorded on the way down: most leaves are never checked).
    pub(super) fn of(ctx: &Ctx, choice: &NumberChoice) -> OpenRuns {
        let mut open = OpenRuns::default();
        for (c, &(list, o)) in choice.colours.iter().enumerate() {
            let option = &ctx.lists[list as usize].hot[usize::from(o)];
            open.longest[c] = option.longest;
            open.short[c] = option.short;
        }
        open
    }
}

/// The tiles after number n free of every old set kept (`mask`) or still to come, worked
/// out once per keep choice of a walk (the leaves below it share them), and, once asked,
/// whether a tile at n + 3 or later, where no open run reaches, has no run and no group
/// with no joker or one joker to fill.
pub(super) struct Free {
    tiles: Rows,
    far: [Option<bool>; 2],
}

impl Free {
    pub(super) fn new(held: &Held, n: u8, mask: u64) -> Free {
        let mut tiles = held.free[usize::from(n)];
        let mut bits = mask;
        while bits != 0 {
            subtract(&mut tiles, &held.kept[bits.trailing_zeros() as usize]);
            bits &= bits - 1;
        }
        Free {
            tiles,
            far: [None; 2],
        }
    }

    /// Whether a tile at n + 3 or later has no set with `fillers` jokers (no open run
    /// reaches there: `longest` is not read).
    fn far(&mut self, p: &Problem, n: u8, fillers: u8) -> bool {
        let ni = usize::from(n);
        if let Some(far) = self.far[usize::from(fillers)] {
            return far;
        }
        let far = (ni + 3..14).any(|m| self.homeless(p, n, m, fillers, &[0; 4]));
        self.far[usize::from(fillers)] = Some(far);
        far
    }

    /// Whether some free tile at number m > n can go into no group (free colours and
    /// `fillers` jokers fewer than three) and no run of three (the open runs, `longest`
    /// per colour, cover the numbers up to n as far back as they are long).
    fn homeless(&self, p: &Problem, n: u8, m: usize, fillers: u8, longest: &[u8; 4]) -> bool {
        let row = &self.tiles[m];
        let colours = row.iter().filter(|&&f| f > 0).count() as u8;
        if colours == 0 || colours + fillers >= 3 {
            return false;
        }
        let available = |q: i32, c: usize| -> bool {
            if q > i32::from(n) {
                q <= 13 && self.tiles[q as usize][c] > 0
            } else {
                q >= 1 && i32::from(n) - q < i32::from(longest[c])
            }
        };
        let mi = m as i32;
        row.iter()
            .enumerate()
            .filter(|(_, &f)| f > 0)
            .any(|(c, _)| {
                let has_run = (mi - 2..=mi).any(|a| {
                    // Under wrap-around runs a run through either end of the walk goes on
                    // past it: not checked.
                    if a < 1 || a + 2 > 13 {
                        return p.wrap;
                    }
                    let missing = (a..=a + 2).filter(|&q| q != mi && !available(q, c)).count();
                    missing <= usize::from(fillers)
                });
                !has_run
            })
    }
}

/// Whether, after number `n` (the free tiles `free` of its keep choice, `jokers_used`,
/// the open runs `open`), the open runs cannot go on, or some tile after n can go into
/// no run and no group, without a tile of an old set the bound counts as kept (see the
/// module doc).
pub(super) fn stuck(
    p: &Problem,
    held: &Held,
    free: &mut Free,
    n: u8,
    jokers_used: u8,
    open: &OpenRuns,
) -> bool {
    let ni = usize::from(n);
    if n >= 13 {
        return false;
    }
    let left = p.table_jokers + p.rack_jokers - jokers_used;
    // (Fewer jokers than the old sets to come hold: the bound counts that loss itself.)
    let Some(spare) = left.checked_sub(held.jokers[ni]) else {
        return false;
    };
    let tiles = &free.tiles;
    // The open runs of one or two tiles go on at the next numbers (as the walk's
    // `KeptAt::jokers_to_go_on`, with the tiles the old sets to come hold taken out).
    let mut needed = 0u8;
    for (c, &(one, two)) in open.short.iter().enumerate() {
        let (next, after) = (tiles[ni + 1][c], tiles[ni + 2][c]);
        needed = needed.saturating_add(if p.wrap && n == 12 {
            // (A run open at 13 may be the part before 1 of a run over 13.)
            (one + two).saturating_sub(next)
        } else if one > 0 && n == 12 {
            // (A run of one tile after 12 cannot reach three.)
            return true;
        } else {
            (one + two).saturating_sub(next) + one.saturating_sub(after)
        });
    }
    if needed > spare {
        return true;
    }
    let fillers = spare.min(p.jokers_per_set);
    if fillers >= 2 {
        // [t J J], [J t J] or [J J t]: every tile has a run.
        return false;
    }
    (ni + 1..(ni + 3).min(14)).any(|m| free.homeless(p, n, m, fillers, &open.longest))
        || free.far(p, n, fillers)
}
