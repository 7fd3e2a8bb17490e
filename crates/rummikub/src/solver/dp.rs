//! The dynamic program over the numbers 1..13 (after van Rijn, Takes & Vis), searched
//! best first.
//!
//! Numbers are processed in order. A state after number n holds, per colour, the runs
//! still open at n (an interned id of their tokens, see [`super::runs`]), the jokers
//! used so far, the old table sets kept whole that are still running (a mask), the
//! initial-meld value reached (capped) and whether a rack tile was laid. Number n is
//! decided in one step made of smaller choices: which old sets starting at n stay
//! unchanged, then colour by colour how the open runs go on and how many tiles of the
//! colour are set aside for groups, then the groups (with jokers). The states are
//! searched in order of potential (score so far plus a bound on the rest, see
//! [`solve_best_first`]); the first play reached is walked back to build the sets.
//!
//! Keeping an old set whole reserves its tiles and scores one tie-break point: among
//! equally good plays the one that changes the fewest old sets wins. (Re-forming an old
//! set from its tiles is the same as keeping it, so nothing is lost by this.)

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

use super::groups::{self, GroupShape};
use super::runs::{
    any_leads_with_joker, close_at_13, dominates, unpack, Act, ColOpt, Packed, RunRules, Tok,
};
use crate::tile::{Colour, Tile};

/// Weight of the primary objective; the fewer-changed-sets tie-break counts in units
/// below it (a table holds at most 35 sets).
pub(crate) const PRIMARY: i32 = 64;

/// The objective the DP maximises (before the tie-break).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unit {
    Tiles,
    Value,
}

impl Unit {
    fn of(self, number: u8) -> i32 {
        match self {
            Unit::Tiles => 1,
            Unit::Value => i32::from(number),
        }
    }
}

/// An old table set that may stay on the table unchanged.
#[derive(Clone, Debug)]
pub(crate) struct Keepable {
    pub index: usize,
    /// Numbered tiles by number (1..=13) and colour.
    pub counts: [[u8; 4]; 14],
    pub first: u8,
    pub last: u8,
    pub jokers: u8,
    /// Score of keeping it: its size or value at the primary weight, plus one.
    pub score: i32,
    /// What its jokers stand for, for the initial-meld value.
    pub joker_value: u32,
}

/// One problem for the DP: tiles by number and colour, jokers, rules.
#[derive(Clone, Debug)]
pub(crate) struct Problem {
    /// Table tiles that must be laid (not in a fixed set), by number 1..=13 and colour.
    pub table: [[u8; 4]; 14],
    /// Rack tiles that may be laid.
    pub rack: [[u8; 4]; 14],
    pub table_jokers: u8,
    pub rack_jokers: u8,
    /// Old runs (and sets read either way) that may stay unchanged (at most 64).
    pub keepable: Vec<Keepable>,
    /// Old groups that may stay unchanged: (number, colours as bits in `Colour::ALL`
    /// order, jokers). They need no keep choice: the group step scores a tie-break
    /// point for every group it forms that is one of these (see [`GroupBonus`]).
    pub old_groups: Vec<(u8, u8, u8)>,
    pub jokers_per_set: u8,
    pub wrap: bool,
    pub unit: Unit,
    /// The initial meld: rack value laid plus joker values must reach this.
    pub threshold: Option<u32>,
    pub start_acc: u32,
    /// A rack tile is already laid (a joker swap outside the DP).
    pub start_any: bool,
}

/// Most states the search stores before it gives up (about 300 MB).
pub(crate) const MAX_STATES: usize = 4_000_000;

/// The position needs more states than [`MAX_STATES`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct TooLarge(pub usize);

/// The DP's answer: its score and the sets it builds, plus the old sets it keeps.
#[derive(Clone, Debug)]
pub(crate) struct Answer {
    pub score: i32,
    pub sets: Vec<Vec<Tile>>,
    pub kept: Vec<usize>,
}

/// FxHash-style hasher: the keys are a handful of integers.
#[derive(Default)]
struct Fx(u64);
impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    fn write_u16(&mut self, i: u16) {
        self.add(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
}
impl Fx {
    fn add(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}
type Map<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;

/// A state: per colour the id of its open runs, the kept sets still running, jokers
/// used, meld value reached, whether a rack tile was laid, and inside a number the tiles
/// of the decided colours set aside for groups (2 bits each).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Key {
    mask: u64,
    cols: [u16; 4],
    jokers: u8,
    acc: u8,
    any: bool,
    x: u8,
    /// The number the state is after (0: the start, [`FINAL_NUMBER`]: a play).
    number: u8,
}

impl Key {
    /// The key packed into three words, for hashing.
    fn words(&self) -> [u64; 3] {
        let cols = self
            .cols
            .iter()
            .fold(0u64, |w, &c| (w << 16) | u64::from(c));
        let rest = u64::from(self.jokers)
            | u64::from(self.acc) << 8
            | u64::from(self.any) << 16
            | u64::from(self.x) << 24
            | u64::from(self.number) << 32;
        [self.mask, cols, rest]
    }
}

#[derive(Clone, Copy)]
struct State {
    key: Key,
    score: i32,
    /// Index of the predecessor in the arena.
    prev: u32,
}

/// An open-addressing index of the states stored: slots hold positions in the arena
/// (plus one; 0 is empty), keys are read from the states themselves. Cheaper than a
/// general map: no keys stored twice.
#[derive(Default)]
struct StateIndex {
    /// Arena position plus one (0: empty) and the key's hash tag, so that most
    /// mismatches are seen without reading the arena.
    slots: Vec<(u32, u32)>,
    len: usize,
}

impl StateIndex {
    fn hash(key: &Key) -> u64 {
        let [mask, cols, rest] = key.words();
        let h = mask.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ cols.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            ^ rest.wrapping_mul(0x1656_67B1_9E37_79F9);
        (h ^ (h >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9)
    }

    /// The slot to start probing at (high bits of the hash) and the tag (low bits).
    fn place(&self, key: &Key) -> (usize, u32) {
        let h = Self::hash(key);
        let bits = self.slots.len().trailing_zeros();
        ((h >> (64 - bits)) as usize, h as u32)
    }

    /// Empties the index, sized for about `hint` states.
    fn reset(&mut self, hint: usize) {
        let size = (hint * 2).max(64).next_power_of_two();
        self.slots.clear();
        self.slots.resize(size, (0, 0));
        self.len = 0;
    }

    /// The arena position of the state with `key`, or the slot (and tag) to insert it
    /// at.
    fn find(&self, states: &[State], key: &Key) -> Result<usize, (usize, u32)> {
        let mask = self.slots.len() - 1;
        let (mut slot, tag) = self.place(key);
        loop {
            match self.slots[slot] {
                (0, _) => return Err((slot, tag)),
                (i, t) if t == tag && states[i as usize - 1].key == *key => {
                    return Ok(i as usize - 1)
                }
                _ => slot = (slot + 1) & mask,
            }
        }
    }

    /// Records the state at arena position `at` in `slot`; grows (re-indexing `states`)
    /// when half full.
    fn insert(&mut self, (slot, tag): (usize, u32), at: usize, states: &[State]) {
        self.slots[slot] = (at as u32 + 1, tag);
        self.len += 1;
        if self.len * 2 > self.slots.len() {
            let size = self.slots.len() * 2;
            self.slots.clear();
            self.slots.resize(size, (0, 0));
            let mask = size - 1;
            for (k, s) in states.iter().enumerate() {
                let (mut slot, tag) = self.place(&s.key);
                while self.slots[slot].0 != 0 {
                    slot = (slot + 1) & mask;
                }
                self.slots[slot] = (k as u32 + 1, tag);
            }
        }
    }
}

/// Every state stored in one vector, with an index to find them by key, and the best-first
/// search's scratch.
#[derive(Default)]
struct Arena {
    states: Vec<State>,
    /// Each state's choices for its number, by arena position.
    choices: Vec<NumberChoice>,
    index: StateIndex,
    /// The waiting states by potential (see [`solve_best_first`]).
    buckets: Vec<Vec<u32>>,
    /// The successors of one expansion.
    offered: Vec<(Key, i32, NumberChoice)>,
    /// Successors found below their state's level (see [`Walked`]).
    buffered: Vec<Buffered>,
    /// Per arena position, what the state's last walk found.
    walks: Vec<Walked>,
    /// The dominance candidates: per (number, kept sets, jokers) the last state stored,
    /// chained through `dom_next`.
    dom_heads: Map<(u8, u64, u8), u32>,
    dom_next: Vec<u32>,
}

impl Arena {
    /// Stores a state reached from arena position `prev` by `choice`, unless one with
    /// its key is stored already (reached first, so by a path at least as good) or an
    /// earlier one dominates it. Its arena position.
    fn store(
        &mut self,
        ctx: &mut Ctx,
        key: Key,
        score: i32,
        prev: usize,
        choice: NumberChoice,
    ) -> Option<usize> {
        let slot = self.index.find(&self.states, &key).err()?;
        let group = (key.number, key.mask, key.jokers);
        if self.dominated(ctx, group, &key) {
            return None;
        }
        self.states.push(State {
            key,
            score,
            prev: prev as u32,
        });
        self.choices.push(choice);
        let at = self.states.len() - 1;
        self.index.insert(slot, at, &self.states);
        let head = self.dom_heads.entry(group).or_insert(u32::MAX);
        self.dom_next.resize(at + 1, u32::MAX);
        self.dom_next[at] = *head;
        *head = at as u32;
        Some(at)
    }

    /// Whether a state stored earlier with the same (number, kept sets, jokers) beats
    /// `key` whatever comes (best-first search). It was stored with at least the same
    /// potential, and its bound on the rest is the same, so it scores at least as much;
    /// its runs must do everything these can.
    fn dominated(&self, ctx: &mut Ctx, group: (u8, u64, u8), key: &Key) -> bool {
        let mut j = self.dom_heads.get(&group).copied().unwrap_or(u32::MAX);
        let mut checks = 0;
        while j != u32::MAX && checks < DOMINANCE_CHECKS {
            let a = self.states[j as usize].key;
            if a.acc >= key.acc
                && a.any >= key.any
                && (0..4).all(|c| ctx.config_dominates(a.cols[c], key.cols[c], key.number))
            {
                return true;
            }
            j = self.dom_next[j as usize];
            checks += 1;
        }
        false
    }
}

/// Interned colour configurations and their cached options.
struct Ctx {
    rules: RunRules,
    packed: Vec<Packed>,
    ids: Map<Packed, u16>,
    lists: Vec<OptList>,
    /// Option list per (configuration, number class, tiles, jokers), see
    /// [`Ctx::list_slot`]; `u32::MAX` where not built yet.
    list_ids: Vec<u32>,
    /// `dominance[strict][a][b]`: 1 if configuration a dominates b, 0 if not, or
    /// [`UNKNOWN`]; `strict` as [`RunRules::strict_len`].
    dominance: [Vec<Vec<u8>>; 2],
    /// Per configuration: 1 if its runs can all close at 13, 0 if not, or [`UNKNOWN`].
    closes: Vec<u8>,
}

const UNKNOWN: u8 = 2;

/// Past this many undominated states in one group, further states are kept unchecked
/// (bounds the quadratic check; keeping a state is always safe).
const DOMINANCE_CHECKS: usize = 64;

/// The options of one (configuration, number, tiles, jokers), compact for the hot loop.
struct OptList {
    hot: Vec<HotOpt>,
    full: Vec<ColOpt>,
}

/// What the walk reads of one option.
#[derive(Clone, Copy, Debug)]
struct HotOpt {
    /// The configuration after it.
    next: u16,
    /// Tiles and jokers it takes.
    tiles: u8,
    jokers: u8,
    /// Whether a run in it began with a joker.
    leads: bool,
    /// Its runs of one tile and of two tiles (they must go on).
    short: (u8, u8),
}

/// How many of the packed runs are one tile long and how many two.
fn short_runs(packed: Packed) -> (u8, u8) {
    let (mut one, mut two) = (0u8, 0u8);
    for i in 0..8 {
        match (packed >> (8 * i)) as u8 & 3 {
            1 => one += 1,
            2 => two += 1,
            _ => {}
        }
    }
    (one, two)
}

thread_local! {
    /// Contexts per rule shape, kept between calls: the option lists and dominance
    /// tables depend on the rules alone, and building them is most of a small position.
    static CONTEXTS: std::cell::RefCell<Vec<Ctx>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Past this many interned configurations a kept context is dropped (memory bound).
const MAX_CONTEXT_CONFIGS: usize = 8_192;
/// Past this many bytes of dominance table a kept context is dropped (seen: about 3 MB
/// after hundreds of old-rules positions).
const MAX_CONTEXT_DOMINANCE: usize = 64 << 20;

impl Ctx {
    /// This thread's context for `rules` (a fresh one the first time).
    fn take(rules: RunRules) -> Ctx {
        let same =
            |c: &Ctx| c.rules.jokers_per_set == rules.jokers_per_set && c.rules.wrap == rules.wrap;
        let kept = CONTEXTS.with(|all| {
            let mut all = all.borrow_mut();
            let i = all.iter().position(same)?;
            Some(all.swap_remove(i))
        });
        kept.unwrap_or_else(|| Ctx {
            rules,
            packed: Vec::new(),
            ids: Map::default(),
            lists: Vec::new(),
            list_ids: Vec::new(),
            dominance: [Vec::new(), Vec::new()],
            closes: Vec::new(),
        })
    }

    /// Keeps the context for the next call on this thread.
    fn give_back(self) {
        let dominance_bytes: usize = self
            .dominance
            .iter()
            .flat_map(|matrix| matrix.iter().map(Vec::len))
            .sum();
        if self.packed.len() <= MAX_CONTEXT_CONFIGS && dominance_bytes <= MAX_CONTEXT_DOMINANCE {
            CONTEXTS.with(|all| all.borrow_mut().push(self));
        }
    }

    /// Whether configuration `a` can do everything configuration `b` can (cached; the
    /// first time it is worked out in [`Ctx::config_dominates_cold`]).
    #[inline]
    fn config_dominates(&mut self, a: u16, b: u16, n: u8) -> bool {
        if a == b {
            return true;
        }
        let strict = self.rules.strict_len(n);
        let (ai, bi) = (usize::from(a), usize::from(b));
        let matrix = &self.dominance[usize::from(strict)];
        if let Some(&d) = matrix.get(ai).and_then(|row| row.get(bi)) {
            if d != UNKNOWN {
                return d == 1;
            }
        }
        self.config_dominates_cold(ai, bi, strict)
    }

    #[cold]
    fn config_dominates_cold(&mut self, ai: usize, bi: usize, strict: bool) -> bool {
        let d = dominates(&unpack(self.packed[ai]), &unpack(self.packed[bi]), strict);
        let matrix = &mut self.dominance[usize::from(strict)];
        if matrix.len() <= ai {
            matrix.resize(ai + 1, Vec::new());
        }
        let row = &mut matrix[ai];
        if row.len() <= bi {
            row.resize(bi + 1, UNKNOWN);
        }
        row[bi] = u8::from(d);
        d
    }

    /// Whether the open runs of configuration `id` can all close at 13 (cached).
    fn closes(&mut self, id: u16) -> bool {
        let i = usize::from(id);
        if self.closes.len() <= i {
            self.closes.resize(i + 1, UNKNOWN);
        }
        if self.closes[i] == UNKNOWN {
            let tokens = unpack(self.packed[i]);
            self.closes[i] = u8::from(close_at_13(&tokens, self.rules.track_joker()).is_some());
        }
        self.closes[i] == 1
    }

    fn id(&mut self, packed: Packed) -> u16 {
        if let Some(&id) = self.ids.get(&packed) {
            return id;
        }
        let id = self.packed.len() as u16;
        self.packed.push(packed);
        self.ids.insert(packed, id);
        id
    }

    /// Where the option list of (configuration, number, tiles, jokers) is indexed: a
    /// flat array (it is looked up for every state and colour). Without wrap-around
    /// runs the options do not depend on the number. Tiles and jokers are at most 2.
    fn list_slot(&self, config: u16, n: u8, tiles: u8, jokers: u8) -> usize {
        // (Dense: the array is read for every colour of every walk.)
        let (n_class, classes) = if self.rules.wrap {
            (usize::from(n), 14)
        } else {
            (0, 1)
        };
        ((usize::from(config) * classes + n_class) * 3 + usize::from(tiles.min(2))) * 3
            + usize::from(jokers.min(2))
    }

    fn list(&mut self, config: u16, n: u8, tiles: u8, jokers: u8) -> u32 {
        let slot = self.list_slot(config, n, tiles, jokers);
        if let Some(&l) = self.list_ids.get(slot) {
            if l != u32::MAX {
                return l;
            }
        }
        let mut full = self.rules.options(
            self.packed[usize::from(config)],
            n,
            tiles.min(2),
            jokers.min(2),
        );
        // By jokers taken, fewest first: the walk stops at the first that the jokers'
        // cost puts below its floor (see `Expansion::colour`).
        full.sort_by_key(|o| o.jokers);
        let hot = full
            .iter()
            .map(|o| HotOpt {
                next: self.id(o.next),
                tiles: o.tiles,
                jokers: o.jokers,
                leads: any_leads_with_joker(o.next),
                short: short_runs(o.next),
            })
            .collect();
        let l = self.lists.len() as u32;
        self.lists.push(OptList { hot, full });
        if self.list_ids.len() <= slot {
            self.list_ids
                .resize((slot + 1).next_power_of_two(), u32::MAX);
        }
        self.list_ids[slot] = l;
        l
    }
}

/// Solves the problem; `None` when no arrangement lays every table tile and at least one
/// rack tile (and reaches the initial meld's threshold).
pub(crate) fn solve(p: &Problem) -> Result<Option<Answer>, TooLarge> {
    solve_at_least(p, i32::MIN)
}

/// Like [`solve`], but only a play scoring at least `at_least` counts (`None` if there is
/// none): the caller already has one that good, so the DP prunes everything below it
/// and skips the position at once when even its upper bound falls short.
pub(crate) fn solve_at_least(p: &Problem, at_least: i32) -> Result<Option<Answer>, TooLarge> {
    // The arena is reused between calls on one thread: fresh memory costs page faults.
    thread_local! {
        static ARENA: std::cell::RefCell<Arena> = std::cell::RefCell::default();
    }
    let bounds = Bounds::new(p);
    let prep = Prepared {
        joker_bounds: bounds.colour_step_jokers(),
        bounds,
        group_need: group_need(p),
        gaps_to_13: gaps_to_13(p),
        group_bonus: GroupBonus::new(p),
        starting: (0..14u8)
            .map(|n| {
                (0..p.keepable.len())
                    .filter(|&b| p.keepable[b].first == n)
                    .collect()
            })
            .collect(),
        ending: std::array::from_fn(|n| {
            (0..p.keepable.len())
                .filter(|&b| usize::from(p.keepable[b].last) == n)
                .fold(0, |mask, b| mask | 1 << b)
        }),
    };
    let rules = RunRules {
        jokers_per_set: p.jokers_per_set,
        wrap: p.wrap,
    };
    let mut ctx = Ctx::take(rules);
    let start = start_key(p, &mut ctx);
    let bound = prep.bounds.potential(&start, 0, 0, 0, 1);
    if bound < at_least {
        ctx.give_back();
        return Ok(None);
    }
    let mut arena = ARENA.with(|a| std::mem::take(&mut *a.borrow_mut()));
    let answer = solve_best_first(p, &mut ctx, &prep, &mut arena, (start, bound), at_least);
    ctx.give_back();
    if arena.states.capacity() <= MAX_STATES {
        ARENA.with(|a| *a.borrow_mut() = arena);
    }
    answer
}

/// What the search of one problem needs, computed once.
struct Prepared {
    bounds: Bounds,
    group_need: [&'static GroupNeed; 14],
    /// `gaps_to_13[n][c]`: numbers after n up to 13 without a tile of colour c (table
    /// or rack); a run that began with a joker and is open at n needs that many jokers.
    gaps_to_13: [[u8; 4]; 14],
    group_bonus: GroupBonus,
    /// Per number, the keepable sets (positions in `Problem::keepable`) starting there.
    starting: Vec<Vec<usize>>,
    /// Per number, the keepable sets ending there, as mask bits.
    ending: [u64; 14],
    /// `joker_bounds[left][n][j]`: the jokers' part of the bound in the colour steps of
    /// number n with `left` jokers unused, after an option takes j of them.
    joker_bounds: Vec<[[i32; 3]; 14]>,
}

/// The state before number 1.
fn start_key(p: &Problem, ctx: &mut Ctx) -> Key {
    let cap = p.threshold.unwrap_or(0).min(255);
    Key {
        mask: 0,
        cols: [ctx.id(0); 4],
        jokers: 0,
        acc: p.start_acc.min(cap) as u8,
        any: p.start_any,
        x: 0,
        number: 0,
    }
}

/// Upper bounds on what a state can still score: its potential is its score plus these.
struct Bounds {
    /// `rest[i]`: the score of every tile at positions `i..` (position = 4 (n - 1) + c),
    /// table and rack.
    rest: [i32; 53],
    /// The same for the tiles of each keepable set (their tiles are scored when kept).
    kept_rest: Vec<[i32; 53]>,
    /// Per number n, how many keepable sets start after n.
    keep_after: [i32; 14],
    /// Per number m, how many old groups are at m or later.
    groups_from: [i32; 15],
    /// Score of a joker at best.
    joker: i32,
    total_jokers: u8,
    /// Per number n, how many keepable sets starting after n hold one joker and how
    /// many two: keeping them needs that many jokers still unused.
    keep_jokers: [[u8; 2]; 14],
    /// Per number m, the same for the old groups at m or later.
    group_jokers: [[u8; 2]; 15],
}

impl Bounds {
    fn new(p: &Problem) -> Bounds {
        let suffix = |counts: &dyn Fn(usize, usize) -> u8| {
            let mut rest = [0i32; 53];
            for i in (0..52).rev() {
                let (n, c) = (i / 4 + 1, i % 4);
                rest[i] = rest[i + 1] + i32::from(counts(n, c)) * p.unit.of(n as u8) * PRIMARY;
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
        let counted: Vec<&Keepable> = p
            .keepable
            .iter()
            .filter(|k| keeps_gain(k.jokers, k.joker_value))
            .collect();
        let counted_groups: Vec<(u8, u8, u8)> = p
            .old_groups
            .iter()
            .copied()
            .filter(|g| keeps_gain(g.2, u32::from(g.0) * u32::from(g.2)))
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
        }
    }

    /// The jokers' part of the bound with `left` jokers unused, once the keep choices up
    /// to number n and the old groups before `groups_from` are decided: each joker at
    /// its best, less a tie-break point for every old set still to come that holds
    /// jokers and cannot be kept for want of them (the old sets part of
    /// [`Bounds::tiles_ahead`] counts them all).
    fn jokers(&self, left: u8, n: u8, groups_from: u8) -> i32 {
        let [k1, k2] = self.keep_jokers[usize::from(n)];
        let [g1, g2] = self.group_jokers[usize::from(groups_from)];
        let (one, two) = (k1 + g1, k2 + g2);
        let kept_one = one.min(left);
        let kept_two = two.min((left - kept_one) / 2);
        i32::from(left) * self.joker - i32::from(one + two - kept_one - kept_two)
    }

    /// The most a state with `key` and `score` can end with, once every tile before
    /// position `from` is decided (and the keep choices up to number n, and the old
    /// groups before number `groups_from`).
    fn potential(&self, key: &Key, score: i32, from: usize, n: u8, groups_from: u8) -> i32 {
        score
            + self.tiles_ahead(key.mask, from, n, groups_from)
            + self.jokers(self.total_jokers - key.jokers, n, groups_from)
    }

    /// The part of [`Bounds::potential`] that depends on the kept sets alone (the same
    /// for every successor of a state within a number): tiles and old sets still to come.
    fn tiles_ahead(&self, mut mask: u64, from: usize, n: u8, groups_from: u8) -> i32 {
        let mut reserved = 0;
        while mask != 0 {
            let bit = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            reserved += self.kept_rest[bit][from];
        }
        self.ahead(from, reserved, n, groups_from)
    }

    /// [`Bounds::tiles_ahead`] with the kept sets' part (`reserved`) already summed.
    fn ahead(&self, from: usize, reserved: i32, n: u8, groups_from: u8) -> i32 {
        self.rest[from] - reserved
            + self.keep_after[usize::from(n)]
            + self.groups_from[usize::from(groups_from)]
    }

    /// `[left][n][j]`: the jokers' part of the bound in the colour steps of number n
    /// with `left` jokers unused, after an option takes j of them (see
    /// [`Prepared::joker_bounds`]).
    fn colour_step_jokers(&self) -> Vec<[[i32; 3]; 14]> {
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
struct KeptAt {
    reserved: [u8; 4],
    ahead: [i32; 4],
    /// Tiles of each colour free for open runs at n + 1 and n + 2 (none past 13).
    free_after: [[u8; 4]; 2],
    /// The bound on the rest after the group step of n, but for the jokers (see
    /// [`Bounds::tiles_ahead`]; the kept sets ending at n are done).
    after_groups: i32,
}

impl KeptAt {
    fn new(p: &Problem, prep: &Prepared, mask: u64, n: u8) -> KeptAt {
        let ni = usize::from(n);
        // One pass over the kept sets: their tiles at n, n + 1 and n + 2, and their part
        // of the bound after each colour of n (see `Bounds::tiles_ahead`).
        let mut reserved = [[0u8; 4]; 3];
        let mut reserved_rest = [0i32; 4];
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
            let rest = &prep.bounds.kept_rest[bit];
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
        }
    }

    /// The fewest jokers colour c's open runs (after number n; `one` and `two` tiles
    /// long, see [`short_runs`]) need to go on: a run of one or two tiles needs a tile
    /// or a joker at n + 1, one of one tile at n + 2 as well; `u8::MAX` if they cannot
    /// (a run of one tile after 12). Only without wrap-around runs (whose parts after
    /// 13 wait for their parts before).
    fn jokers_to_go_on(&self, (one, two): (u8, u8), n: u8, c: usize) -> u8 {
        if n >= 13 || one > 0 && n >= 12 {
            return if one + two > 0 { u8::MAX } else { 0 };
        }
        (one + two).saturating_sub(self.free_after[0][c])
            + one.saturating_sub(self.free_after[1][c])
    }
}

/// Whether a state after number 13 is a play: every open run closes, every table tile
/// and joker is laid, a rack tile is laid, the meld's value reached.
fn is_play(p: &Problem, ctx: &mut Ctx, key: &Key) -> bool {
    let cap = p.threshold.unwrap_or(0).min(255);
    key.mask == 0
        && key.jokers >= p.table_jokers
        && u32::from(key.acc) >= cap
        && (key.any || key.jokers > p.table_jokers)
        && key.cols.iter().all(|&id| ctx.closes(id))
}

/// One number's decisions in the best-first search: the old runs kept (bits in the
/// order of [`Prepared::starting`]), each colour's option (list, position), the tiles
/// set aside for groups, the jokers in groups.
#[derive(Clone, Copy, Debug, Default)]
struct NumberChoice {
    keep: u16,
    colours: [(u32, u16); 4],
    x: u8,
    group_jokers: u8,
}

/// A successor found by a walk below its state's level, kept with the state until the
/// search comes down to it (see [`solve_best_first`]).
#[derive(Clone, Copy, Debug)]
struct Buffered {
    key: Key,
    score: i32,
    reach: i32,
    choice: NumberChoice,
}

/// How far below the level a state's second and later walks go (in potential units:
/// tie-break points, or 1/64 of an objective point).
const WINDOW: i32 = 8;

/// What a state expanded before keeps: the successors its last walk found below the
/// level (`buffered[start..end]`), complete down to `walked` (that walk's floor), and
/// the best potential below that (where it must be walked again).
#[derive(Clone, Copy, Debug)]
struct Walked {
    start: u32,
    end: u32,
    walked: i32,
    below: i32,
}

/// A state not expanded yet.
const NOT_WALKED: Walked = Walked {
    start: 0,
    end: 0,
    walked: i32::MAX,
    below: i32::MIN,
};

/// One expansion of the best-first search: the successors, a whole number later, of a
/// state waiting with potential `level`. The number is walked depth first: keep
/// choices, then colour by colour, then the groups. A partial successor is walked on
/// only if its potential keeps the level; the best potential below it is where the state
/// waits for the rest (it bounds every successor below that partial one). Successors
/// never have a higher potential than their predecessor: the bound only loses what a
/// choice does not lay.
struct Expansion<'a> {
    p: &'a Problem,
    prep: &'a Prepared,
    level: i32,
    /// How deep this walk goes: partial successors down to here are walked on, and the
    /// successors between it and the level are kept in `buffered` for later (see
    /// [`solve_best_first`]); the level itself on a state's first expansion.
    floor: i32,
    at_least: i32,
    /// Successors that keep the level: offered now.
    offered: &'a mut Vec<(Key, i32, NumberChoice)>,
    /// Successors below the level down to the floor, with their potentials.
    buffered: &'a mut Vec<Buffered>,
    /// The best potential below the level among the others: the state waits there for
    /// them.
    next_best: i32,
    /// The kept sets' reserved tiles and bounds for the number being walked.
    kept: KeptAt,
    /// The choices of the walk so far (each colour writes its own entry on the way
    /// down; a leaf copies them).
    choice: NumberChoice,
}

impl Expansion<'_> {
    /// Whether to walk on from a partial successor with potential `reach`; if not, the
    /// state waits for it (see the type's doc).
    fn worth(&mut self, reach: i32) -> bool {
        if reach >= self.floor {
            return true;
        }
        if reach >= self.at_least {
            self.next_best = self.next_best.max(reach);
        }
        false
    }

    /// Number n: every choice of the old runs starting there to keep whole (their tiles
    /// reserved, their score and tie-break point at once), then the colours.
    fn number(&mut self, ctx: &mut Ctx, n: u8, key: Key, score: i32) {
        let (p, prep) = (self.p, self.prep);
        let starting = &prep.starting[usize::from(n)];
        let from = usize::from(n - 1) * 4;
        let cap = p.threshold.unwrap_or(0).min(255);
        for keep in 0u16..(1 << starting.len()) {
            let mut next = key;
            let mut gain = 0;
            let mut acc = u32::from(next.acc);
            for (b, &bit) in starting.iter().enumerate() {
                if keep & (1 << b) != 0 {
                    let k = &p.keepable[bit];
                    next.mask |= 1 << bit;
                    next.jokers += k.jokers;
                    gain += k.score;
                    acc += k.joker_value;
                }
            }
            if next.jokers > p.table_jokers + p.rack_jokers {
                continue;
            }
            next.acc = acc.min(cap) as u8;
            let score = score + gain;
            if !self.worth(prep.bounds.potential(&next, score, from, n, n)) {
                continue;
            }
            self.kept = KeptAt::new(p, prep, next.mask, n);
            self.choice.keep = keep;
            self.colour(ctx, (n, 0), next, score, 0);
        }
    }

    /// Colour c at number n: how its open runs go on (a tile, a joker, end, new runs)
    /// and how many of its tiles are set aside for groups. `jokers_needed`: what the
    /// colours before need so that their runs can go on after n.
    fn colour(
        &mut self,
        ctx: &mut Ctx,
        (n, c): (u8, usize),
        key: Key,
        score: i32,
        jokers_needed: u8,
    ) {
        if c == 4 {
            self.groups(n, key, score, jokers_needed);
            return;
        }
        let (p, prep, kept) = (self.p, self.prep, self.kept);
        let ni = usize::from(n);
        let unit = p.unit.of(n) * PRIMARY;
        let total_jokers = p.table_jokers + p.rack_jokers;
        let cap = p.threshold.unwrap_or(0).min(255);
        let Some(must) = p.table[ni][c].checked_sub(kept.reserved[c]) else {
            return;
        };
        let avail = must + p.rack[ni][c];
        let jokers_left = total_jokers - key.jokers;
        let list = ctx.list(key.cols[c], n, avail, jokers_left);
        let need = &prep.group_need[ni][c];
        let group_loss = prep.group_bonus.loss(n).map(|loss| &loss[c]);
        let gaps = prep.gaps_to_13[ni][c];
        // The jokers' part of the bound after an option that takes 0, 1 or 2 jokers.
        let joker_bound = prep.joker_bounds[usize::from(jokers_left)][ni];
        let options = ctx.lists[list as usize].hot.len();
        // The most an option taking j jokers can reach: every tile there laid, none of
        // the old groups lost. It falls with j, and the options come by jokers.
        let most_with_jokers = |j: u8| {
            score + i32::from(avail + j) * unit + kept.ahead[c] + joker_bound[usize::from(j)]
        };
        // (By index: the walk on builds option lists of other colours.)
        for o in 0..options {
            let HotOpt {
                next: cols,
                tiles,
                jokers,
                leads,
                short,
            } = ctx.lists[list as usize].hot[o];
            if jokers > 0 && !self.worth(most_with_jokers(jokers)) {
                break;
            }
            // A run that began with a joker must reach 13 (canonical form, see
            // `runs::LEAD`): the jokers left must fill the gaps up to 13.
            if leads && gaps + jokers > jokers_left {
                continue;
            }
            // (The list holds only options within the tiles there: `tiles <= avail`.)
            let slots = i32::from(tiles) + i32::from(jokers);
            let reach = score + slots * unit + kept.ahead[c] + joker_bound[usize::from(jokers)];
            // Tiles set aside for groups: the table's must all be used, at most two.
            let fewest = must.saturating_sub(tiles);
            let most = (avail - tiles).min(2);
            // The potential falls with every tile not set aside (a tile's unit is more
            // than the old groups it can cost), so only the most tiles set aside down to
            // the first below the floor are walked; that one bounds the rest.
            let potential_with = |x: u8| {
                let partial =
                    (usize::from(key.x) | usize::from(x) << (2 * c)) & ((4 << (2 * c)) - 1);
                // Old groups here that the tiles set aside can no longer re-form.
                let lost = group_loss.map_or(0, |loss| i32::from(loss[partial]));
                (reach + i32::from(x) * unit - lost, partial)
            };
            let mut least = most + 1;
            while least > fewest {
                let (potential, _) = potential_with(least - 1);
                if !self.worth(potential) {
                    break;
                }
                least -= 1;
            }
            if least > most {
                continue;
            }
            let jokers_after = key.jokers + jokers;
            let jokers_free = total_jokers - jokers_after;
            // Runs that cannot go on die at the next number: not walked (a third of the
            // states stored were such).
            let needed = if p.wrap {
                0
            } else {
                kept.jokers_to_go_on(short, n, c)
            };
            let needed = needed.saturating_add(jokers_needed);
            if needed > jokers_free {
                continue;
            }
            for x in least..=most {
                let (_, partial) = potential_with(x);
                // The tiles set aside so far must still fit into groups.
                if need[partial] > jokers_free {
                    continue;
                }
                let mut next = key;
                next.cols[c] = cols;
                next.jokers = jokers_after;
                next.x = partial as u8;
                let from_rack = x + tiles - must;
                let acc =
                    u32::from(next.acc) + u32::from(n) * (u32::from(from_rack) + u32::from(jokers));
                next.acc = acc.min(cap) as u8;
                next.any |= from_rack > 0;
                self.choice.colours[c] = (list, o as u16);
                let score = score + (slots + i32::from(x)) * unit;
                self.colour(ctx, (n, c + 1), next, score, needed);
            }
        }
    }

    /// The groups at number n from the tiles set aside, with jokers; the kept sets ending
    /// at n leave the mask. A whole successor, offered if it keeps the level.
    fn groups(&mut self, n: u8, key: Key, score: i32, needed: u8) {
        let mut choice = self.choice;
        let p = self.p;
        let unit = p.unit.of(n) * PRIMARY;
        let cap = p.threshold.unwrap_or(0).min(255);
        let x = unpack_x(key.x);
        let jokers_left = p.table_jokers + p.rack_jokers - key.jokers;
        choice.x = key.x;
        for gj in 0..=jokers_left.min(2) {
            if needed > jokers_left - gj || groups::splits(x, gj, p.jokers_per_set).is_empty() {
                continue;
            }
            let mut next = key;
            next.jokers += gj;
            next.mask &= !self.prep.ending[usize::from(n)];
            next.x = 0;
            next.number = n;
            let acc = u32::from(next.acc) + u32::from(n) * u32::from(gj);
            next.acc = acc.min(cap) as u8;
            let kept_groups = i32::from(self.prep.group_bonus.kept(n, x, gj));
            let score = score + i32::from(gj) * unit + kept_groups;
            // (`Bounds::potential`, the kept sets' part worked out once per keep choice.)
            let jokers = self.prep.bounds.jokers(jokers_left - gj, n, n + 1);
            let potential = score + self.kept.after_groups + jokers;
            choice.group_jokers = gj;
            self.leaf(next, score, potential, choice);
        }
    }

    fn leaf(&mut self, key: Key, score: i32, reach: i32, choice: NumberChoice) {
        if reach == self.level {
            self.offered.push((key, score, choice));
        } else if reach < self.level && reach >= self.floor && reach >= self.at_least {
            self.buffered.push(Buffered {
                key,
                score,
                reach,
                choice,
            });
        } else if reach < self.level && reach >= self.at_least {
            // (Successors above the level were offered when the state waited there.)
            self.next_best = self.next_best.max(reach);
        }
    }
}

/// Best-first search (A*) over the states between numbers: states are expanded in order
/// of potential, the deepest first among equals, so the first play reached is a best one,
/// and only states whose potential beats the best play are ever expanded (plus the dive
/// to it). The bound is consistent (a successor's potential is at most its
/// predecessor's), so a state is reached first by a best path and never improved later.
///
/// Partial expansion: a state offers only the successors that keep its potential, and
/// waits with the potential of its next-best successor for the rest, so that successors
/// that lose something are never stored unless the search comes down to them. A state
/// goes a whole number at once (keep choices, four colours, groups) by a depth-first walk
/// that leaves a partial successor below the level for later (its potential bounds all
/// below it): only the states between numbers are stored (about one in nine of the
/// states of a search colour by colour, measured). A state's second and later walks go
/// [`WINDOW`] deeper and keep what they find below the level for the next levels
/// ([`Walked`]). A state an earlier one dominates is dropped ([`Arena::dominated`]).
fn solve_best_first(
    p: &Problem,
    ctx: &mut Ctx,
    prep: &Prepared,
    arena: &mut Arena,
    (start, bound): (Key, i32),
    at_least: i32,
) -> Result<Option<Answer>, TooLarge> {
    arena.states.clear();
    arena.choices.clear();
    arena.index.reset(1024);
    arena.dom_heads.clear();
    arena.dom_next.clear();
    // Bucket b holds the states waiting with one potential, as a stack. A potential is
    // 64 × objective points plus the tie-break points (one per old set kept, fewer than
    // 64), so it splits uniquely: the buckets go densely by objective points below the
    // bound's, then by tie-break points, most first. (The bound's own tie-break part can
    // be below a play's: under the value objective it leaves out old sets whose jokers
    // stand for less than 13, see `Bounds::new`.)
    let sets = (p.keepable.len() + p.old_groups.len()).min(PRIMARY as usize - 1) + 1;
    let top = bound.div_euclid(PRIMARY);
    let bucket_of = |potential: i32| {
        let points = (top - potential.div_euclid(PRIMARY)) as usize;
        let tie = (potential.rem_euclid(PRIMARY) as usize).min(sets - 1);
        points * sets + (sets - 1 - tie)
    };
    let potential_at = |bucket: usize| {
        (top - (bucket / sets) as i32) * PRIMARY + (sets - 1 - bucket % sets) as i32
    };
    let mut buckets = std::mem::take(&mut arena.buckets);
    let mut used = 0usize;
    let mut push = |buckets: &mut Vec<Vec<u32>>, b: usize, at: usize| {
        if buckets.len() <= b {
            buckets.resize_with(b + 1, Vec::new);
        }
        used = used.max(b + 1);
        buckets[b].push(at as u32);
    };
    arena.store(ctx, start, 0, 0, NumberChoice::default());
    push(&mut buckets, bucket_of(bound), 0);
    let mut offered = std::mem::take(&mut arena.offered);
    let mut buffered = std::mem::take(&mut arena.buffered);
    let mut walks = std::mem::take(&mut arena.walks);
    buffered.clear();
    walks.clear();
    let mut current = 0usize;
    let answer = loop {
        while current < buckets.len() && buckets[current].is_empty() {
            current += 1;
        }
        let Some(u) = buckets.get_mut(current).and_then(Vec::pop) else {
            break Ok(None);
        };
        let u = u as usize;
        let s = arena.states[u];
        let level = potential_at(current);
        let after = usize::from(s.key.number);
        offered.clear();
        if walks.len() <= u {
            walks.resize(u + 1, NOT_WALKED);
        }
        let last = walks[u];
        if level < last.walked {
            // A state's first walk stops at its level; later ones go a window deeper,
            // so that the next few levels need no walk of their own.
            let floor = if last.walked == i32::MAX {
                level
            } else {
                level - WINDOW
            };
            let start = buffered.len() as u32;
            let mut expansion = Expansion {
                p,
                prep,
                level,
                floor,
                at_least,
                offered: &mut offered,
                buffered: &mut buffered,
                next_best: i32::MIN,
                kept: KeptAt::default(),
                choice: NumberChoice::default(),
            };
            match after {
                FINAL_NUMBER => break Ok(Some(walk_back(ctx, p, prep, arena, u))),
                // The play itself, worth its score.
                13 if is_play(p, ctx, &s.key) => {
                    let key = Key {
                        number: FINAL_NUMBER as u8,
                        ..s.key
                    };
                    expansion.leaf(key, s.score, s.score, NumberChoice::default());
                }
                13 => {}
                _ => expansion.number(ctx, after as u8 + 1, s.key, s.score),
            }
            let below = expansion.next_best;
            walks[u] = Walked {
                start,
                end: buffered.len() as u32,
                walked: floor,
                below,
            };
        }
        // The state's last walk found every successor down to here (those at the level
        // it walked for are offered already, the others are buffered): take the ones at
        // this level, and wait for the best below.
        let walked = walks[u];
        let mut next_best = walked.below;
        for b in &buffered[walked.start as usize..walked.end as usize] {
            if b.reach == level {
                offered.push((b.key, b.score, b.choice));
            } else if b.reach < level {
                next_best = next_best.max(b.reach);
            }
        }
        for &(key, score, choice) in offered.iter() {
            if let Some(at) = arena.store(ctx, key, score, u, choice) {
                push(&mut buckets, current, at);
            }
        }
        if next_best != i32::MIN {
            push(&mut buckets, bucket_of(next_best), u);
        }
        if arena.states.len() > MAX_STATES {
            break Err(TooLarge(arena.states.len()));
        }
    };
    for bucket in buckets.iter_mut().take(used) {
        bucket.clear();
    }
    arena.buckets = buckets;
    arena.offered = offered;
    arena.buffered = buffered;
    arena.walks = walks;
    answer
}

/// The step of the best-first search's final states (after number 13 comes the play).
const FINAL_NUMBER: usize = 14;

/// The play of the best-first search's final state at arena position `at`, walked back
/// to the start.
fn walk_back(ctx: &Ctx, p: &Problem, prep: &Prepared, arena: &Arena, at: usize) -> Answer {
    let last = arena.states[at];
    let mut numbers = Vec::with_capacity(13);
    let mut at = last.prev as usize;
    while at != 0 {
        numbers.push((arena.states[at].key.number, arena.choices[at]));
        at = arena.states[at].prev as usize;
    }
    numbers.reverse();
    rebuild(ctx, p, &prep.group_bonus, &numbers, last.key, last.score)
}

/// The old groups each number's group step can re-form: for every (tiles set aside per
/// colour, jokers) the most old groups one split of them contains. Forming an old group
/// again is keeping it, so this scores the tie-break without a keep choice per group.
pub(crate) struct GroupBonus {
    jokers_per_set: u8,
    /// Per number, the old groups there as (colours, jokers).
    at: Vec<Vec<(u8, u8)>>,
    /// Per number with old groups, what they mean for its group steps.
    numbers: [Option<Rc<GroupsAt>>; 14],
}

/// What the old groups at one number mean for its group steps. It depends only on those
/// groups, the tiles of that number and the jokers allowed per set, so it is worked out
/// once per thread for each such combination ([`GROUPS_AT`]): most old groups recur
/// from one position to the next.
struct GroupsAt {
    /// `kept[x][gj]`, x as in [`x_index`].
    kept: [[u8; 3]; 81],
    /// Only with old groups without jokers there.
    loss: Option<GroupLoss>,
}

/// The old groups at one number (sorted, padded with `(0, 0)`: a group has two colours or
/// more, so no old group reads so), the tiles there per colour, the jokers per set.
type GroupsAtKey = ([(u8, u8); MAX_GROUPS_PER_NUMBER], [u8; 4], u8);

/// Old groups at one number: each holds two numbered tiles or more, of eight there.
const MAX_GROUPS_PER_NUMBER: usize = 4;

/// Past this many entries the cache of [`GroupsAt`] starts again (memory bound; about
/// 1.3 KB each).
const MAX_GROUPS_AT: usize = 4_096;

thread_local! {
    static GROUPS_AT: RefCell<HashMap<GroupsAtKey, Rc<GroupsAt>>> = RefCell::new(HashMap::new());
}

/// `loss[c][partial]`: of the old groups without jokers at one number, how many no
/// split can re-form once the tiles set aside in colours 0..=c are `partial` (2 bits
/// each), whatever the other colours add. The colour walk counts them lost at once
/// instead of at the group step. (Groups holding jokers are left to the jokers' part of
/// the bound, so that no group is counted lost twice.)
type GroupLoss = [[u8; 256]; 4];

fn x_index(x: [u8; 4]) -> usize {
    x.iter().fold(0, |i, &c| i * 3 + usize::from(c))
}

/// Tiles set aside per colour, 2 bits each (as in the DP's keys).
fn pack_x(x: [u8; 4]) -> usize {
    x.iter()
        .enumerate()
        .fold(0, |acc, (c, &v)| acc | usize::from(v) << (2 * c))
}

/// The tiles per colour of an [`x_index`].
fn x_of_index(i: usize) -> [u8; 4] {
    X_OF_INDEX[i]
}

/// [`x_of_index`] for every index (worked out at compile time: it is read in the setup
/// of every problem).
const X_OF_INDEX: [[u8; 4]; 81] = {
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
    fn new(p: &Problem) -> GroupBonus {
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
            let cached = GROUPS_AT.with(|cache| cache.borrow().get(&key).cloned());
            Some(cached.unwrap_or_else(|| {
                let worked_out = Rc::new(GroupsAt::new(&at[n], there, p.jokers_per_set));
                GROUPS_AT.with(|cache| {
                    let mut cache = cache.borrow_mut();
                    if cache.len() >= MAX_GROUPS_AT {
                        cache.clear();
                    }
                    cache.insert(key, Rc::clone(&worked_out));
                });
                worked_out
            }))
        });
        GroupBonus {
            jokers_per_set: p.jokers_per_set,
            at,
            numbers,
        }
    }

    /// How many old groups at n the split contains (each old group once).
    fn matches(&self, n: u8, split: &[GroupShape]) -> u8 {
        matches(&self.at[usize::from(n)], split).0
    }

    /// The [`GroupLoss`] table of number n, if it has old groups without jokers.
    fn loss(&self, n: u8) -> Option<&GroupLoss> {
        self.numbers[usize::from(n)].as_ref()?.loss.as_ref()
    }

    fn kept(&self, n: u8, x: [u8; 4], gj: u8) -> u8 {
        self.numbers[usize::from(n)]
            .as_ref()
            .map_or(0, |at| at.kept[x_index(x)][usize::from(gj.min(2))])
    }

    /// A split of the tiles into groups with the most old groups in it.
    fn best_split(&self, n: u8, x: [u8; 4], gj: u8) -> Option<&'static Vec<GroupShape>> {
        groups::splits(x, gj, self.jokers_per_set)
            .iter()
            .max_by_key(|split| self.matches(n, split))
    }
}

impl GroupsAt {
    /// `old`: the old groups at the number; `there`: its tiles per colour (table and
    /// rack).
    fn new(old: &[(u8, u8)], there: [u8; 4], jokers_per_set: u8) -> GroupsAt {
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
        // `group_need`).
        let loss =
            (plain > 0).then(|| most_plain.map(|row| row.map(|m| m.map_or(0, |m| plain - m))));
        GroupsAt { kept, loss }
    }
}

/// How many of the old groups `old` the split contains (each old group once), and how
/// many of them hold no joker.
fn matches(old: &[(u8, u8)], split: &[GroupShape]) -> (u8, u8) {
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

/// `group_need[n][c][x]`: the fewest jokers with which the tiles `x` set aside for groups
/// in colours 0..=c at number n (2 bits each) can still make groups, whatever the other
/// colours add (within the tiles there are); `u8::MAX` if they cannot.
fn group_need(p: &Problem) -> [&'static GroupNeed; 14] {
    static TABLES: std::sync::OnceLock<Vec<GroupNeed>> = std::sync::OnceLock::new();
    // Per jokers per set (0..=2) and tiles there (0..=2 per colour, as in `x_index`).
    let tables = TABLES.get_or_init(|| {
        (0..3u8)
            .flat_map(|jokers_per_set| {
                (0..81usize).map(move |most| group_need_for(x_of_index(most), jokers_per_set))
            })
            .collect()
    });
    std::array::from_fn(|n| {
        let most = std::array::from_fn(|c| (p.table[n][c] + p.rack[n][c]).min(2));
        &tables[usize::from(p.jokers_per_set.min(2)) * 81 + x_index(most)]
    })
}

/// [`group_need`] for one number with `most` tiles of each colour there.
fn group_need_for(most: [u8; 4], jokers_per_set: u8) -> GroupNeed {
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

/// One number's [`group_need`]: by colour, by the tiles set aside so far (2 bits each).
type GroupNeed = [[u8; 256]; 4];

/// Per number n and colour, how many numbers after n up to 13 have no tile of the
/// colour, on the table or the rack.
fn gaps_to_13(p: &Problem) -> [[u8; 4]; 14] {
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

fn unpack_x(x: u8) -> [u8; 4] {
    [x & 3, (x >> 2) & 3, (x >> 4) & 3, (x >> 6) & 3]
}

fn tile(c: usize, n: u8) -> Tile {
    Tile::new(Colour::ALL[c], n).unwrap_or(Tile::JOKER)
}

/// Replays each number's choices with concrete runs to build the sets.
fn rebuild(
    ctx: &Ctx,
    p: &Problem,
    group_bonus: &GroupBonus,
    numbers: &[(u8, NumberChoice)],
    last: Key,
    score: i32,
) -> Answer {
    let mut sets: Vec<Vec<Tile>> = Vec::new();
    let mut kept = Vec::new();
    // Per colour: open runs with their token and tiles.
    let mut runs: [Vec<(Tok, Vec<Tile>)>; 4] = Default::default();
    for &(n, choice) in numbers {
        let starting = p.keepable.iter().filter(|k| k.first == n);
        for (b, k) in starting.enumerate() {
            if choice.keep & (1 << b) != 0 {
                kept.push(k.index);
            }
        }
        for (c, &(list, opt)) in choice.colours.iter().enumerate() {
            if let Some(opt) = ctx.lists[list as usize].full.get(usize::from(opt)) {
                let current = std::mem::take(&mut runs[c]);
                runs[c] = replay(current, opt, c, n, &mut sets);
            }
        }
        let x = unpack_x(choice.x);
        if let Some(shapes) = group_bonus.best_split(n, x, choice.group_jokers) {
            for &GroupShape { colours, jokers } in shapes {
                let mut set: Vec<Tile> = (0..4)
                    .filter(|c| colours & (1 << c) != 0)
                    .map(|c| tile(c, n))
                    .collect();
                set.extend(std::iter::repeat_n(Tile::JOKER, usize::from(jokers)));
                sets.push(set);
            }
        }
    }
    let track_joker = ctx.rules.track_joker();
    for (c, colour_runs) in runs.iter_mut().enumerate() {
        colour_runs.sort_by_key(|r| std::cmp::Reverse(r.0));
        let tokens: Vec<Tok> = unpack(ctx.packed[usize::from(last.cols[c])]);
        let pairs = close_at_13(&tokens, track_joker).unwrap_or_default();
        let mut taken = vec![false; colour_runs.len()];
        for (o, r) in pairs {
            let mut set = colour_runs[r].1.clone();
            set.extend(colour_runs[o].1.iter().copied());
            sets.push(set);
            taken[o] = true;
            taken[r] = true;
        }
        for (i, (_, tiles)) in colour_runs.iter().enumerate() {
            if !taken[i] {
                sets.push(tiles.clone());
            }
        }
    }
    Answer { score, sets, kept }
}

/// Applies one colour option to the concrete open runs of that colour.
fn replay(
    mut current: Vec<(Tok, Vec<Tile>)>,
    opt: &ColOpt,
    c: usize,
    n: u8,
    sets: &mut Vec<Vec<Tile>>,
) -> Vec<(Tok, Vec<Tile>)> {
    current.sort_by_key(|r| std::cmp::Reverse(r.0));
    let mut next = Vec::new();
    let acts = opt.acts.len();
    for (((_, mut tiles), act), &after) in current.into_iter().zip(opt.acts.iter()).zip(&opt.after)
    {
        match act {
            Act::Pass => next.push((after, tiles)),
            Act::End if after != 0 => next.push((after, tiles)),
            Act::End => sets.push(tiles),
            Act::Tile | Act::Joker => {
                tiles.push(if *act == Act::Joker {
                    Tile::JOKER
                } else {
                    tile(c, n)
                });
                next.push((after, tiles));
            }
        }
    }
    for (&joker, &after) in opt.starts.iter().zip(&opt.after[acts..]) {
        next.push((after, vec![if joker { Tile::JOKER } else { tile(c, n) }]));
    }
    next
}
