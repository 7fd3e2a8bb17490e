//! The dynamic program over the numbers 1..13 (after van Rijn, Takes & Vis).
//!
//! Numbers are processed in order. Before number n the state holds, per colour, the runs
//! still open at n-1 as small tokens (length so far 1, 2 or 3+, whether a joker is in
//! it when the rules allow one joker per set, and for wrap-around runs whether it is the
//! part after 13), the jokers used so far, the old table sets kept whole that are still
//! running, the initial-meld value reached (capped) and whether a rack tile was laid.
//! At number n the transition decides which old table sets that start at n stay as they
//! are, which copies of each (colour, n) tile go into groups and which into runs, which
//! open runs go on (with a tile or a joker) or end, and which new runs start.
//! States are merged per number, keeping the best score; the best final state is
//! walked back to build the sets.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::groups::{self, GroupShape};
use crate::tile::{Colour, Tile};

/// Weight of the primary objective; the fewer-changed-sets tie-break counts in units
/// below it (a table holds at most 35 sets).
pub(crate) const PRIMARY: i32 = 64;

// Token layout (u16): bits 0-1 length class 1..=3, bit 2 joker, bits 3-4 kind,
// bits 5-6 tail class of a wrap-around part, bits 8-15 the old table set (pattern + 1)
// whose tiles the run has followed so far, 0 for none.
type Tok = u16;
/// Up to eight tokens of one colour.
type Packed = u128;
const LEN_MASK: Tok = 0b11;
const JOKER: Tok = 0b100;
const KIND_SHIFT: u8 = 3;
const RUN: u8 = 0;
/// A run started at 1 or 2 under wrap-around rules: it cannot be the part before 1 of a
/// run over 13, which would then be longer than 13 tiles.
const EARLY: u8 = 1;
/// The part of a wrap-around run after 13 (1, 2, ...), still open.
const HEAD: u8 = 2;
/// A finished part after 13, waiting for its part before 13 (..., 12, 13).
const OBLIGATION: u8 = 3;
const TAIL_SHIFT: u8 = 5;

fn token(kind: u8, len: u8, joker: bool, tail: u8) -> Tok {
    Tok::from(len)
        | if joker { JOKER } else { 0 }
        | (Tok::from(kind) << KIND_SHIFT)
        | (Tok::from(tail) << TAIL_SHIFT)
}
fn kind(t: Tok) -> u8 {
    ((t >> KIND_SHIFT) & 0b11) as u8
}
fn len(t: Tok) -> u8 {
    (t & LEN_MASK) as u8
}
fn tail(t: Tok) -> u8 {
    ((t >> TAIL_SHIFT) & 0b11) as u8
}
fn has_joker(t: Tok) -> bool {
    t & JOKER != 0
}
fn label(t: Tok) -> usize {
    usize::from(t >> 8)
}
fn with_label(t: Tok, label: usize) -> Tok {
    (t & 0xff) | ((label as Tok) << 8)
}

/// Tokens of one colour packed, sorted descending, 0 = empty.
fn pack(tokens: &mut [Tok]) -> Packed {
    tokens.sort_unstable_by(|a, b| b.cmp(a));
    tokens
        .iter()
        .take(8)
        .enumerate()
        .fold(0, |acc, (i, &t)| acc | (Packed::from(t) << (16 * i)))
}
fn unpack(packed: Packed) -> Vec<Tok> {
    (0..8)
        .map(|i| (packed >> (16 * i)) as Tok)
        .take_while(|&t| t != 0)
        .collect()
}

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

/// A run reading of an old table set: the run the DP may build to leave it unchanged.
#[derive(Clone, Debug)]
pub(crate) struct Pattern {
    pub set: usize,
    pub colour: usize,
    pub first: u8,
    pub last: u8,
    /// Bit m set: the slot at number m holds a joker.
    pub jokers: u16,
}

impl Pattern {
    /// Whether a run slot at n filled by a joker (or a tile) keeps following it.
    fn follows(&self, n: u8, joker: bool) -> bool {
        (self.first..=self.last).contains(&n) && (self.jokers >> n & 1 == 1) == joker
    }
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
    /// Old sets that may stay unchanged through the mask (those read wrapping past 13).
    pub keepable: Vec<Keepable>,
    /// Run readings of the other old sets, followed by labels on the runs.
    pub patterns: Vec<Pattern>,
    /// Group readings of old sets by number: colours (bits) and jokers.
    pub group_shapes: Vec<Vec<(u8, u8)>>,
    pub jokers_per_set: u8,
    pub wrap: bool,
    pub unit: Unit,
    /// The initial meld: rack value laid plus joker values must reach this.
    pub threshold: Option<u32>,
    pub start_acc: u32,
    /// A rack tile is already laid (a joker swap outside the DP).
    pub start_any: bool,
}

/// Most states the DP keeps over all steps before it gives up (about 1 GB).
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

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Key {
    cols: [Packed; 4],
    mask: u64,
    jokers: u8,
    acc: u8,
    any: bool,
}

/// FxHash-style hasher: the keys are a handful of integers.
#[derive(Default)]
struct Fx(u64);
impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(u64::from(b));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    fn write_u128(&mut self, i: u128) {
        self.add(i as u64);
        self.add((i >> 64) as u64);
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

/// What a token does at this number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Act {
    End,
    Tile,
    Joker,
    Pass,
}

/// One way to treat one colour's open runs at one number.
#[derive(Clone, Debug)]
struct ColOpt {
    next: Packed,
    tiles: u8,
    jokers: u8,
    /// Old sets completed unchanged by this step.
    bonus: u8,
    acts: Vec<Act>,
    /// New runs (their first token) and whether a joker fills their first slot.
    starts: Vec<(Tok, bool)>,
    /// The token every run becomes, acts first then starts (0 for a run that ended).
    after: Vec<Tok>,
}

/// Tokens, colour, number, tiles and jokers available.
type OptionsKey = (Packed, u8, u8, u8, u8);

struct Ctx<'a> {
    p: &'a Problem,
    track_joker: bool,
    options: Map<OptionsKey, std::rc::Rc<Vec<ColOpt>>>,
    group_bonus: Map<(u8, u8, u8), (u8, usize)>,
}

impl Ctx<'_> {
    /// The split of the group tiles at n that leaves the most old groups unchanged.
    fn group_bonus(&mut self, n: u8, x: [u8; 4], jokers: u8) -> Option<(u8, usize)> {
        let packed = x[0] | x[1] << 2 | x[2] << 4 | x[3] << 6;
        if let Some(&found) = self.group_bonus.get(&(n, packed, jokers)) {
            return Some(found);
        }
        let all = groups::splits(x, jokers, self.p.jokers_per_set);
        if all.is_empty() {
            return None;
        }
        let old = &self.p.group_shapes[usize::from(n)];
        let mut best = (0u8, 0usize);
        for (i, split) in all.iter().enumerate() {
            let mut left: Vec<(u8, u8)> = old.clone();
            let mut matched = 0u8;
            for shape in split {
                if let Some(j) = left
                    .iter()
                    .position(|&o| o == (shape.colours, shape.jokers))
                {
                    left.swap_remove(j);
                    matched += 1;
                }
            }
            if matched > best.0 {
                best = (matched, i);
            }
        }
        self.group_bonus.insert((n, packed, jokers), best);
        Some(best)
    }

    #[allow(clippy::too_many_arguments)]
    fn options(
        &mut self,
        packed: Packed,
        c: usize,
        n: u8,
        tiles: u8,
        jokers: u8,
    ) -> std::rc::Rc<Vec<ColOpt>> {
        let key = (packed, c as u8, n, tiles, jokers);
        if let Some(found) = self.options.get(&key) {
            return found.clone();
        }
        let tokens = unpack(packed);
        let mut out = Vec::new();
        let mut seen: Map<(Packed, u8, u8, u8), ()> = Map::default();
        let mut acts = Vec::with_capacity(tokens.len());
        let mut next = Vec::with_capacity(8);
        let mut claims = Vec::new();
        self.continue_tokens(
            &tokens,
            c,
            n,
            tiles,
            jokers,
            &mut acts,
            &mut next,
            &mut claims,
            &mut out,
            &mut seen,
        );
        let out = undominated(out);
        let rc = std::rc::Rc::new(out);
        self.options.insert(key, rc.clone());
        rc
    }

    #[allow(clippy::too_many_arguments)]
    fn continue_tokens(
        &self,
        tokens: &[Tok],
        c: usize,
        n: u8,
        tiles: u8,
        jokers: u8,
        acts: &mut Vec<Act>,
        next: &mut Vec<Tok>,
        claims: &mut Vec<usize>,
        out: &mut Vec<ColOpt>,
        seen: &mut Map<(Packed, u8, u8, u8), ()>,
    ) {
        let i = acts.len();
        if i == tokens.len() {
            let mut starts = Vec::new();
            self.start_runs(
                c,
                n,
                tiles,
                jokers,
                acts,
                next,
                claims,
                &mut starts,
                out,
                seen,
            );
            return;
        }
        let t = tokens[i];
        let k = kind(t);
        let jokers_allowed = self.p.jokers_per_set > 0 && !(self.track_joker && has_joker(t));
        let grow = |joker: bool| {
            let j = has_joker(t) || (joker && self.track_joker);
            let l = label(t);
            let keeps = l > 0 && self.p.patterns[l - 1].follows(n, joker);
            with_label(
                token(k, (len(t) + 1).min(3), j, tail(t)),
                if keeps { l } else { 0 },
            )
        };
        match k {
            OBLIGATION => {
                acts.push(Act::Pass);
                next.push(t);
                self.continue_tokens(tokens, c, n, tiles, jokers, acts, next, claims, out, seen);
                next.pop();
                acts.pop();
            }
            RUN | EARLY | HEAD => {
                let may_continue = k != HEAD || n <= head_deadline(tail(t));
                let may_end = match k {
                    HEAD => tail(t) != 1 || len(t) >= 2,
                    _ => len(t) == 3,
                };
                if may_end {
                    acts.push(Act::End);
                    next.push(if k == HEAD {
                        token(OBLIGATION, 0, has_joker(t), tail(t))
                    } else {
                        0
                    });
                    // A run that followed an old set to its last tile leaves it unchanged.
                    let l = label(t);
                    let claim = l > 0 && self.p.patterns[l - 1].last + 1 == n;
                    if claim {
                        claims.push(self.p.patterns[l - 1].set);
                    }
                    self.continue_tokens(
                        tokens, c, n, tiles, jokers, acts, next, claims, out, seen,
                    );
                    if claim {
                        claims.pop();
                    }
                    next.pop();
                    acts.pop();
                }
                // Go on with a tile, or with a joker.
                let ways = [
                    (Act::Tile, tiles > 0, tiles.saturating_sub(1), jokers),
                    (
                        Act::Joker,
                        jokers > 0 && jokers_allowed,
                        tiles,
                        jokers.saturating_sub(1),
                    ),
                ];
                for (act, possible, tiles_left, jokers_left) in ways {
                    if !may_continue || !possible {
                        continue;
                    }
                    acts.push(act);
                    next.push(grow(act == Act::Joker));
                    self.continue_tokens(
                        tokens,
                        c,
                        n,
                        tiles_left,
                        jokers_left,
                        acts,
                        next,
                        claims,
                        out,
                        seen,
                    );
                    next.pop();
                    acts.pop();
                }
            }
            _ => {}
        }
    }

    /// New runs starting at n, in non-decreasing order of (token, joker) so that each
    /// multiset of starts is generated once; a new run may follow an old set that starts
    /// here.
    #[allow(clippy::too_many_arguments)]
    fn start_runs(
        &self,
        c: usize,
        n: u8,
        tiles: u8,
        jokers: u8,
        acts: &[Act],
        next: &mut Vec<Tok>,
        claims: &[usize],
        starts: &mut Vec<(Tok, bool)>,
        out: &mut Vec<ColOpt>,
        seen: &mut Map<(Packed, u8, u8, u8), ()>,
    ) {
        self.record(acts, next, claims, starts, out, seen);
        let wrap = self.p.wrap;
        let mut kinds: Vec<Tok> =
            vec![token(if wrap && n <= 2 { EARLY } else { RUN }, 1, false, 0)];
        for (i, pattern) in self.p.patterns.iter().enumerate() {
            if pattern.colour == c && pattern.first == n {
                kinds.push(with_label(kinds[0], i + 1));
            }
        }
        if wrap && n == 1 {
            for tail_class in 1..=3 {
                kinds.push(token(HEAD, 1, false, tail_class));
            }
        }
        for &base in &kinds {
            for joker in [false, true] {
                if let Some(&last) = starts.last() {
                    if (base, joker) < last {
                        continue;
                    }
                }
                if joker && (jokers == 0 || self.p.jokers_per_set == 0) || !joker && tiles == 0 {
                    continue;
                }
                let l = label(base);
                if l > 0 && !self.p.patterns[l - 1].follows(n, joker) {
                    continue;
                }
                let t = if joker && self.track_joker {
                    base | JOKER
                } else {
                    base
                };
                starts.push((base, joker));
                next.push(t);
                let (tl, jk) = if joker {
                    (tiles, jokers - 1)
                } else {
                    (tiles - 1, jokers)
                };
                self.start_runs(c, n, tl, jk, acts, next, claims, starts, out, seen);
                next.pop();
                starts.pop();
            }
        }
    }

    /// Records one option: the runs' next tokens, with labels of old sets completed now
    /// cleared from the other runs (each old set counts once).
    fn record(
        &self,
        acts: &[Act],
        next: &[Tok],
        claims: &[usize],
        starts: &[(Tok, bool)],
        out: &mut Vec<ColOpt>,
        seen: &mut Map<(Packed, u8, u8, u8), ()>,
    ) {
        let mut claimed: Vec<usize> = claims.to_vec();
        claimed.sort_unstable();
        claimed.dedup();
        let after: Vec<Tok> = next
            .iter()
            .map(|&t| {
                let l = label(t);
                if l > 0 && claimed.contains(&self.p.patterns[l - 1].set) {
                    with_label(t, 0)
                } else {
                    t
                }
            })
            .collect();
        let mut sorted: Vec<Tok> = after.iter().copied().filter(|&t| t != 0).collect();
        if sorted.len() > 8 {
            return;
        }
        let packed = pack(&mut sorted);
        let used_tiles = starts.iter().filter(|s| !s.1).count() as u8
            + acts.iter().filter(|&&a| a == Act::Tile).count() as u8;
        let used_jokers = starts.iter().filter(|s| s.1).count() as u8
            + acts.iter().filter(|&&a| a == Act::Joker).count() as u8;
        let bonus = claimed.len() as u8;
        if seen
            .insert((packed, used_tiles, used_jokers, bonus), ())
            .is_none()
        {
            out.push(ColOpt {
                next: packed,
                tiles: used_tiles,
                jokers: used_jokers,
                bonus,
                acts: acts.to_vec(),
                starts: starts.to_vec(),
                after,
            });
        }
    }
}

/// Drops options that another option with the same tiles and jokers dominates: its
/// open runs can do everything the other's can (each run matched by one at least as
/// long and no more restricted by a joker; runs left over are 3 long and may end).
fn undominated(options: Vec<ColOpt>) -> Vec<ColOpt> {
    let tokens: Vec<Vec<Tok>> = options.iter().map(|o| unpack(o.next)).collect();
    let mut keep = vec![true; options.len()];
    for i in 0..options.len() {
        for j in 0..options.len() {
            if i == j
                || !keep[j]
                || options[i].tiles != options[j].tiles
                || options[i].jokers != options[j].jokers
                || options[i].bonus > options[j].bonus
            {
                continue;
            }
            // j dominates i (ties broken by index so one of two equals stays).
            let equal = options[i].bonus == options[j].bonus && dominates(&tokens[i], &tokens[j]);
            if dominates(&tokens[j], &tokens[i]) && (!equal || j < i) {
                keep[i] = false;
                break;
            }
        }
    }
    options
        .into_iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .map(|(o, _)| o)
        .collect()
}

/// Whether the runs `a` can do everything the runs `b` can. A run following an old set
/// covers the same run following none: it drops the label as soon as it deviates, and an
/// old set completed clears the labels of the others (so each counts once).
fn dominates(a: &[Tok], b: &[Tok]) -> bool {
    // Tokens other than plain runs must agree exactly.
    let other = |v: &[Tok]| {
        let mut o: Vec<Tok> = v.iter().copied().filter(|&t| kind(t) != RUN).collect();
        o.sort_unstable();
        o
    };
    if other(a) != other(b) {
        return false;
    }
    let ra: Vec<Tok> = a.iter().copied().filter(|&t| kind(t) == RUN).collect();
    let rb: Vec<Tok> = b.iter().copied().filter(|&t| kind(t) == RUN).collect();
    let covers = |x: Tok, y: Tok| {
        len(x) >= len(y)
            && (!has_joker(x) || has_joker(y))
            && (label(y) == 0 || label(x) == label(y))
    };
    fn assign(
        ra: &[Tok],
        rb: &[Tok],
        used: &mut Vec<bool>,
        k: usize,
        covers: &dyn Fn(Tok, Tok) -> bool,
    ) -> bool {
        if k == rb.len() {
            return ra.iter().zip(used.iter()).all(|(&t, &u)| u || len(t) == 3);
        }
        for i in 0..ra.len() {
            if !used[i] && covers(ra[i], rb[k]) {
                used[i] = true;
                if assign(ra, rb, used, k + 1, covers) {
                    return true;
                }
                used[i] = false;
            }
        }
        false
    }
    let mut used = vec![false; ra.len()];
    assign(&ra, &rb, &mut used, 0, &covers)
}

/// The last number a part after 13 may reach: with a tail of one tile (13) the run may
/// go on to 12, with two (12, 13) to 11; a tail of 3 or more tiles is a valid run by
/// itself, so its head needs at most two tiles (a longer one is split off unchanged).
fn head_deadline(tail_class: u8) -> u8 {
    match tail_class {
        1 => 12,
        2 => 11,
        _ => 2,
    }
}

/// Matches waiting heads (obligations) to runs open after 13; `None` if impossible.
/// Returns the pairs (obligation, run) of the matching that leaves the most old sets
/// unchanged (runs following an old set that ends at 13), and that number.
fn match_tails(
    tokens: &[Tok],
    track_joker: bool,
    patterns: &[Pattern],
) -> Option<(Vec<(usize, usize)>, u8)> {
    if tokens.iter().any(|&t| kind(t) == HEAD) {
        return None;
    }
    let obligations: Vec<usize> = (0..tokens.len())
        .filter(|&i| kind(tokens[i]) == OBLIGATION)
        .collect();
    let runs: Vec<usize> = (0..tokens.len())
        .filter(|&i| kind(tokens[i]) != OBLIGATION)
        .collect();
    struct Search<'a> {
        tokens: &'a [Tok],
        obligations: Vec<usize>,
        runs: Vec<usize>,
        track_joker: bool,
        patterns: &'a [Pattern],
        best: Option<(Vec<(usize, usize)>, u8)>,
    }
    impl Search<'_> {
        fn go(&mut self, k: usize, used: &mut Vec<bool>, pairs: &mut Vec<(usize, usize)>) {
            if k == self.obligations.len() {
                // Unmatched runs end at 13 and must be 3 long.
                let mut sets = Vec::new();
                for (&r, &u) in self.runs.iter().zip(used.iter()) {
                    let t = self.tokens[r];
                    if u {
                        continue;
                    }
                    if len(t) != 3 {
                        return;
                    }
                    let l = label(t);
                    if l > 0 && self.patterns[l - 1].last == 13 {
                        sets.push(self.patterns[l - 1].set);
                    }
                }
                sets.sort_unstable();
                sets.dedup();
                let bonus = sets.len() as u8;
                if self.best.as_ref().is_none_or(|b| bonus > b.1) {
                    self.best = Some((pairs.clone(), bonus));
                }
                return;
            }
            let o = self.tokens[self.obligations[k]];
            for j in 0..self.runs.len() {
                let r = self.runs[j];
                let t = self.tokens[r];
                let fits = match tail(o) {
                    1 => len(t) == 1,
                    2 => len(t) == 2,
                    _ => len(t) == 3 && kind(t) == RUN,
                };
                if used[j] || !fits || (self.track_joker && has_joker(o) && has_joker(t)) {
                    continue;
                }
                used[j] = true;
                pairs.push((self.obligations[k], r));
                self.go(k + 1, used, pairs);
                pairs.pop();
                used[j] = false;
            }
        }
    }
    let mut search = Search {
        tokens,
        obligations,
        runs,
        track_joker,
        patterns,
        best: None,
    };
    let mut used = vec![false; search.runs.len()];
    search.go(0, &mut used, &mut Vec::new());
    search.best
}

fn tile(c: usize, n: u8) -> Tile {
    Tile::new(Colour::ALL[c], n).unwrap_or(Tile::JOKER)
}

/// A state inside number n after the first `colour` colours are decided: colours below
/// hold their next tokens, the others their current ones; `x` packs the tiles of each
/// decided colour that go into groups (2 bits each).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Sub {
    key: Key,
    x: u8,
}

/// How a sub-state was reached.
#[derive(Clone, Copy, Debug)]
enum Choice {
    Keep(u16),
    Colour { c: u8, opt: u16 },
    Groups(u8),
}

#[derive(Clone, Copy)]
struct SubEntry {
    score: i32,
    prev: Sub,
    choice: Choice,
}

/// Solves the problem; `None` when no arrangement lays every table tile and at least one
/// rack tile (and reaches the initial meld's threshold).
pub(crate) fn solve(p: &Problem) -> Result<Option<Answer>, TooLarge> {
    let mut ctx = Ctx {
        p,
        track_joker: p.jokers_per_set == 1,
        options: Map::default(),
        group_bonus: Map::default(),
    };
    let total_jokers = p.table_jokers + p.rack_jokers;
    let cap = p.threshold.unwrap_or(0).min(255);
    let start = Sub {
        key: Key {
            cols: [0; 4],
            mask: 0,
            jokers: 0,
            acc: p.start_acc.min(cap) as u8,
            any: p.start_any,
        },
        x: 0,
    };
    // layers[n * 6 + c]: before number n (c = 0, after the keep choice c = 1), after
    // colour c - 2 (c = 2..=5); layers[14 * 6] holds the final states.
    let mut layers: Vec<Map<Sub, SubEntry>> = Vec::with_capacity(14 * 6 + 1);
    for _ in 0..6 {
        layers.push(Map::default());
    }
    let mut first = Map::default();
    first.insert(
        start,
        SubEntry {
            score: 0,
            prev: start,
            choice: Choice::Keep(0),
        },
    );
    layers.push(first);
    let mut total = 0usize;
    for n in 1..=13u8 {
        let base = usize::from(n) * 6;
        // Keep choices: old sets that start at n stay whole or not.
        let starting: Vec<&Keepable> = p.keepable.iter().filter(|k| k.first == n).collect();
        let mut kept_layer: Map<Sub, SubEntry> = with_room(layers[base].len());
        for (sub, entry) in &layers[base] {
            for keep in 0u16..(1 << starting.len()) {
                let mut key = sub.key;
                let mut gain = 0;
                let mut acc = u32::from(key.acc);
                for (i, k) in starting.iter().enumerate() {
                    if keep & (1 << i) != 0 {
                        key.mask |= 1 << k.index;
                        key.jokers += k.jokers;
                        gain += k.score;
                        acc += k.joker_value;
                    }
                }
                if key.jokers > total_jokers {
                    continue;
                }
                key.acc = acc.min(cap) as u8;
                let next = Sub { key, x: 0 };
                offer(
                    &mut kept_layer,
                    next,
                    entry.score + gain,
                    *sub,
                    Choice::Keep(keep),
                );
            }
        }
        layers.push(prune(kept_layer));
        let ni = usize::from(n);
        let unit = p.unit.of(n);
        for c in 0..4usize {
            let mut out: Map<Sub, SubEntry> = with_room(layers[base + 1 + c].len());
            let current: Vec<(Sub, i32)> = layers[base + 1 + c]
                .iter()
                .map(|(s, e)| (*s, e.score))
                .collect();
            for (sub, score) in current {
                if total + out.len() > MAX_STATES {
                    return Err(TooLarge(total + out.len()));
                }
                let reserved: u8 = p
                    .keepable
                    .iter()
                    .filter(|k| sub.key.mask & (1 << k.index) != 0)
                    .map(|k| k.counts[ni][c])
                    .sum();
                let Some(must) = p.table[ni][c].checked_sub(reserved) else {
                    continue;
                };
                let avail = must + p.rack[ni][c];
                let jokers_left = total_jokers - sub.key.jokers;
                let options = ctx.options(sub.key.cols[c], c, n, avail.min(4), jokers_left);
                for (i, o) in options.iter().enumerate() {
                    for x in 0..=avail.min(2) {
                        let used = x + o.tiles;
                        if used < must || used > avail {
                            continue;
                        }
                        let from_rack = used - must;
                        let mut key = sub.key;
                        key.cols[c] = o.next;
                        key.jokers += o.jokers;
                        let slots = i32::from(used) + i32::from(o.jokers);
                        let acc = u32::from(key.acc)
                            + u32::from(n) * (u32::from(from_rack) + u32::from(o.jokers));
                        key.acc = acc.min(cap) as u8;
                        key.any |= from_rack > 0;
                        let next = Sub {
                            key,
                            x: sub.x | (x << (2 * c)),
                        };
                        offer(
                            &mut out,
                            next,
                            score + slots * unit * PRIMARY + i32::from(o.bonus),
                            sub,
                            Choice::Colour {
                                c: c as u8,
                                opt: i as u16,
                            },
                        );
                    }
                }
            }
            let out = prune(out);
            total += out.len();
            if total > MAX_STATES {
                return Err(TooLarge(total));
            }
            layers.push(out);
        }
        // Groups from the tiles set aside, with jokers; then kept sets ending at n leave
        // the mask.
        let mut out: Map<Sub, SubEntry> = with_room(layers[base + 5].len());
        let ending: u64 = p
            .keepable
            .iter()
            .filter(|k| k.last == n)
            .fold(0, |m, k| m | (1 << k.index));
        let current: Vec<(Sub, i32)> = layers[base + 5]
            .iter()
            .map(|(s, e)| (*s, e.score))
            .collect();
        for (sub, score) in current {
            let x = unpack_x(sub.x);
            let jokers_left = total_jokers - sub.key.jokers;
            for gj in 0..=jokers_left.min(2) {
                let Some((bonus, _)) = ctx.group_bonus(n, x, gj) else {
                    continue;
                };
                let mut key = sub.key;
                key.jokers += gj;
                key.mask &= !ending;
                let acc = u32::from(key.acc) + u32::from(n) * u32::from(gj);
                key.acc = acc.min(cap) as u8;
                let next = Sub { key, x: 0 };
                offer(
                    &mut out,
                    next,
                    score + i32::from(gj) * unit * PRIMARY + i32::from(bonus),
                    sub,
                    Choice::Groups(gj),
                );
            }
        }
        layers.push(prune(out));
    }
    // Final states: every open run must end at 13 or be matched to its head.
    let mut best: Option<(i32, Sub)> = None;
    for (sub, entry) in &layers[14 * 6] {
        let key = sub.key;
        if key.mask != 0 || key.jokers < p.table_jokers {
            continue;
        }
        if u32::from(key.acc) < cap || !(key.any || key.jokers > p.table_jokers) {
            continue;
        }
        let mut bonus = 0;
        let mut valid = true;
        for c in 0..4 {
            match match_tails(&unpack(key.cols[c]), ctx.track_joker, &p.patterns) {
                Some((_, b)) => bonus += i32::from(b),
                None => valid = false,
            }
        }
        if valid && best.is_none_or(|(s, _)| entry.score + bonus > s) {
            best = Some((entry.score + bonus, *sub));
        }
    }
    let Some((score, last)) = best else {
        return Ok(None);
    };
    // Walk back through the sub-layers.
    let mut choices = Vec::with_capacity(13 * 6);
    let mut sub = last;
    for layer in (7..=14 * 6).rev() {
        let Some(entry) = layers[layer].get(&sub) else {
            return Ok(None);
        };
        choices.push((entry.prev, entry.choice));
        sub = entry.prev;
    }
    choices.reverse();
    Ok(Some(rebuild(&mut ctx, &choices, last.key, score)))
}

/// Drops states beaten whatever comes: a state that differs from another only in the
/// initial meld's value reached and in run labels, with no more value reached and a score
/// that its labels (at most one point each) cannot lift above the other's.
fn prune(layer: Map<Sub, SubEntry>) -> Map<Sub, SubEntry> {
    if layer.len() < 2 {
        return layer;
    }
    let erase = |sub: &Sub| {
        let mut plain = *sub;
        plain.key.acc = 0;
        let mut labels = 0;
        for col in plain.key.cols.iter_mut() {
            let tokens = unpack(*col);
            if tokens.iter().any(|&t| label(t) > 0) {
                let mut erased: Vec<Tok> = tokens
                    .iter()
                    .map(|&t| {
                        labels += i32::from(label(t) > 0);
                        with_label(t, 0)
                    })
                    .collect();
                *col = pack(&mut erased);
            }
        }
        (plain, labels)
    };
    let mut groups: Map<Sub, Vec<(u8, i32, i32, Sub)>> = Map::default();
    for (sub, entry) in &layer {
        let (plain, labels) = erase(sub);
        groups
            .entry(plain)
            .or_default()
            .push((sub.key.acc, entry.score, labels, *sub));
    }
    let mut dropped: Vec<Sub> = Vec::new();
    for (_, mut members) in groups {
        if members.len() < 2 {
            continue;
        }
        // Higher value reached first; a state is beaten by the best score seen so far.
        members.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
        let mut best = i32::MIN;
        for (_, score, labels, sub) in members {
            if best != i32::MIN && best >= score + labels {
                dropped.push(sub);
            }
            best = best.max(score);
        }
    }
    let mut layer = layer;
    for sub in dropped {
        layer.remove(&sub);
    }
    layer
}

fn with_room(states: usize) -> Map<Sub, SubEntry> {
    Map::with_capacity_and_hasher(states.min(MAX_STATES), Default::default())
}

fn unpack_x(x: u8) -> [u8; 4] {
    [x & 3, (x >> 2) & 3, (x >> 4) & 3, (x >> 6) & 3]
}

fn offer(out: &mut Map<Sub, SubEntry>, next: Sub, score: i32, prev: Sub, choice: Choice) {
    match out.get_mut(&next) {
        Some(e) if e.score >= score => {}
        Some(e) => {
            *e = SubEntry {
                score,
                prev,
                choice,
            }
        }
        None => {
            out.insert(
                next,
                SubEntry {
                    score,
                    prev,
                    choice,
                },
            );
        }
    }
}

/// Replays the chosen steps with concrete runs to build the sets.
fn rebuild(ctx: &mut Ctx, choices: &[(Sub, Choice)], last: Key, score: i32) -> Answer {
    let p = ctx.p;
    let total_jokers = p.table_jokers + p.rack_jokers;
    let mut sets: Vec<Vec<Tile>> = Vec::new();
    let mut kept = Vec::new();
    // Per colour: open runs with their token and tiles.
    let mut runs: [Vec<(Tok, Vec<Tile>)>; 4] = Default::default();
    for (step, chunk) in choices.chunks(6).enumerate() {
        let n = step as u8 + 1;
        let ni = usize::from(n);
        for &(prev, choice) in chunk {
            match choice {
                Choice::Keep(keep) => {
                    let starting = p.keepable.iter().filter(|k| k.first == n);
                    for (i, k) in starting.enumerate() {
                        if keep & (1 << i) != 0 {
                            kept.push(k.index);
                        }
                    }
                }
                Choice::Colour { c, opt } => {
                    let c = usize::from(c);
                    let reserved: u8 = p
                        .keepable
                        .iter()
                        .filter(|k| prev.key.mask & (1 << k.index) != 0)
                        .map(|k| k.counts[ni][c])
                        .sum();
                    let avail = p.table[ni][c] - reserved + p.rack[ni][c];
                    let jokers_left = total_jokers - prev.key.jokers;
                    let options = ctx.options(prev.key.cols[c], c, n, avail.min(4), jokers_left);
                    if let Some(opt) = options.get(usize::from(opt)) {
                        let current = std::mem::take(&mut runs[c]);
                        runs[c] = replay(current, opt, c, n, &mut sets);
                    }
                }
                Choice::Groups(gj) => {
                    let x = unpack_x(prev.x);
                    let chosen = ctx.group_bonus(n, x, gj).map_or(0, |b| b.1);
                    if let Some(shapes) = groups::splits(x, gj, p.jokers_per_set).get(chosen) {
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
            }
        }
    }
    for (c, colour_runs) in runs.iter_mut().enumerate() {
        colour_runs.sort_by_key(|r| std::cmp::Reverse(r.0));
        let tokens: Vec<Tok> = unpack(last.cols[c]);
        let pairs = match_tails(&tokens, ctx.track_joker, &p.patterns)
            .map(|m| m.0)
            .unwrap_or_default();
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
    for (&(_, joker), &after) in opt.starts.iter().zip(&opt.after[acts..]) {
        next.push((after, vec![if joker { Tile::JOKER } else { tile(c, n) }]));
    }
    next
}
