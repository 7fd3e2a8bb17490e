//! A bound on what a state can still score by a Lagrangian relaxation of the rest of the
//! problem: tiles laid (or their value, the value objective) and old sets kept whole together.
//!
//! The fewest-changed-sets search spends most of its states proving that the tie-break
//! levels above the best play hold no play (see docs/rummikub-solver.md, *Performance*):
//! the potential counts every old set not yet decided as kept and every rack tile
//! as laid, while the tiles still to come usually force several old sets open together,
//! or stay on the rack.
//!
//! The exact rest is a search as large as the problem; its relaxation here splits it in
//! parts that are cheap alone: each colour's runs (with that colour's old runs kept whole
//! or not, and its rack tiles laid or not) walked over the numbers, and each number's
//! groups (with its old groups). The parts are joined by prices: `lambda[m][c]` for a tile
//! of number m and colour c that the colour sets aside for groups (paid by the colour,
//! earned by the groups that take it), `mu` for a joker laid (the jokers left are a budget
//! shared by all parts). For *any* prices, the sum of the parts' best values plus the
//! jokers' term bounds the rest from above (weak duality): every play is a choice in each
//! part whose prices cancel. Rounds of a subgradient method make the prices good; the
//! bound of a state is then read from each part's best value from that state on (each
//! colour's parts are a graph valued in one pass, [`PartGraph`]). Under the value
//! objective a joker scores in the part that lays it. Under wrap-around runs a colour's part walks its runs over 13 as the search
//! does: a run begun at the walk's first number may be a part after 13, and its part
//! before 1 (of one, two, or three or more tiles) must then be open at the walk's end.
//! The parts relax the rules where it makes them simpler (jokers per set, how far a part
//! after 13 may reach, the initial meld's minimum, the rack tile a play must lay), which
//! only loosens the bound.

use rustc_hash::FxHashMap;

use super::context::Ctx;
use super::group_bonus::{GroupBonus, X_OF_INDEX};
use super::state::Key;
use super::{Problem, Unit, PRIMARY};
use crate::groups;
use crate::runs::{kind, len, tail, unpack, HEAD, OBLIGATION};

/// Subgradient rounds when a search starts using the bound. More rounds give a tighter
/// bound and fewer states, but past about thirty a fit costs more time than the states
/// it saves; fewer leave the bound loose. A round is one pass over every colour's
/// [`PartGraph`].
const ROUNDS: usize = 30;

/// How far below the best bound so far each subgradient step aims (Polyak's step), in
/// potential units (a tile is 64): from `AIM` in the first round down to `AIM_END` in
/// the last, tiles first, tie-break points at the end. Aiming at one point from the
/// start fits the tie-break before the tiles and leaves the bound loose; aiming half a
/// tile below all along never fits the tie-break.
const AIM: f64 = 32.0;
const AIM_END: f64 = 1.0;

/// Without wrap-around runs (the current rules) a search works the bound out once it
/// has stored this many states (see
/// [`Cache::relaxation_from`](super::Cache::relaxation_from)): the self-play searches
/// end before. Under the current rules a fit costs more than a whole search at the
/// tail, so earlier it only slows them down.
pub(super) const RELAXATION_FROM: usize = 50_000;

/// From how many states a search uses the bound: under wrap-around runs (the old rules)
/// from the first state that looks for stuck tiles
/// ([`STUCK_FROM`](super::expand::STUCK_FROM), the 256th); else from
/// [`RELAXATION_FROM`]. Under the old rules the earlier bound costs the median (a fit
/// where a search passes 256 states) and keeps the worst positions cheapest: a later
/// one lets an initial meld whose frozen-set choices each search on without it run
/// several times longer.
pub(super) fn relaxation_from(wrap: bool) -> usize {
    if wrap {
        0
    } else {
        RELAXATION_FROM
    }
}

/// A colour's part value read for a state, by its runs' configuration (see
/// [`Relaxation::rest`]).
#[derive(Clone, Copy, Default)]
struct Read {
    /// The configuration, number, jokers left and colour; 0: empty.
    tag: u64,
    mask: u64,
    value: f64,
}

/// The reads kept (by a hash of the read, the last one in each slot): a state's four
/// colours are read for every successor, most of them read before, and the look-up of
/// a part by its runs cost more than the rest of the walk of the successor.
const READ_CACHE_BITS: u32 = 12;

/// What a tile laid adds to the score (the tiles objective).
const TILE: f64 = PRIMARY as f64;

/// The most a tile laid (or a joker) can add to the score at any number.
fn most_worth(tile: &[f64; 14]) -> f64 {
    tile.iter().copied().fold(0.0, f64::max)
}

/// An old run (or a set read either way) of one colour, for that colour's part.
#[derive(Clone, Debug)]
struct ColourSet {
    /// Its bit in the state's mask of kept sets.
    bit: u64,
    first: u8,
    last: u8,
    /// Its tiles at each number.
    counts: [u8; 14],
    jokers: u8,
    /// What keeping it scores: its tiles (its jokers count in the jokers' term) and the
    /// tie-break point.
    score: f64,
}

/// One way to make groups at a number: the tiles of each colour and the jokers it takes,
/// and how many old groups of the number it re-forms.
#[derive(Clone, Copy, Debug)]
struct GroupChoice {
    tiles: [u8; 4],
    jokers: u8,
    reformed: u8,
}

/// Prices one search fitted, by printed number, for the other searches of the same
/// problem (see [`Relaxation::new`]): a fit is dear, and a problem is walked up to three
/// ways at once, more in a race.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Prices {
    by_printed: [[f64; 4]; 14],
    mu: f64,
}

/// One colour's part from a state on: the number it is after, its open runs (of one, two
/// and three or more tiles; a part after 13 counts its part before 1 too), the parts
/// before 1 its parts after 13 need at the walk's end (of one, two, and three or more
/// tiles: runs open at the end of those lengths), its kept sets still running (mask
/// bits) and the jokers it may still use.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Part {
    n: u8,
    runs: [u8; 3],
    tails: [u8; 3],
    mask: u64,
    jokers: u8,
}

/// One way on from a colour's part to its part at the next number.
#[derive(Clone, Copy, Debug)]
struct Step {
    /// What it scores whatever the prices: its old runs kept (their tiles and tie-break
    /// points), its tiles laid in runs (and under the value objective its jokers).
    fixed: f64,
    /// The part it leads to: its position in the colour's [`PartGraph`].
    next: u32,
    /// Jokers it lays (each pays the price `mu`).
    jokers: u8,
    /// Tiles left over: all set aside for groups where a tile set aside is worth more
    /// than its price (`over`), else the fewest the table's tiles allow (`least`).
    over: u8,
    least: u8,
}

impl Step {
    /// Its value where a tile set aside at its number is worth `aside_worth` (the tile
    /// less its price) and the part it leads to `rest`; the tiles it sets aside.
    #[inline]
    fn value(&self, rest: f64, aside_worth: f64, mu: f64) -> (f64, u8) {
        let base = rest + self.fixed - mu * f64::from(self.jokers);
        let aside = if aside_worth >= 0.0 {
            self.over
        } else {
            self.least
        };
        (base + aside_worth * f64::from(aside), aside)
    }
}

/// No step: a part at 13, or one from which its colour cannot go on.
const NO_STEP: u32 = u32::MAX;

/// One colour's parts reached so far with their steps, each stored after every part it
/// leads to: one pass in order values them all at new prices (a subgradient round),
/// with no look-up and no step worked out twice (a memoized recursion, tried first, was
/// a hundred times slower).
#[derive(Default)]
struct PartGraph {
    index: FxHashMap<Part, u32>,
    parts: Vec<Part>,
    /// Part i's steps are `steps[ends[i - 1]..ends[i]]`.
    ends: Vec<u32>,
    steps: Vec<Step>,
    /// Per part at 13, whether its runs close there (value 0; else none).
    closes: Vec<bool>,
    /// Per part its best value from there on at the current prices, and its best step.
    value: Vec<f64>,
    best: Vec<u32>,
    /// How many parts `value` holds (parts added since are valued on demand).
    valued: usize,
}

impl PartGraph {
    fn steps_of(&self, i: usize) -> std::ops::Range<usize> {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        start..self.ends[i] as usize
    }
}

/// The relaxation of one problem, its prices, and the parts' best values read so far.
pub(super) struct Relaxation {
    /// Table tiles (laid whatever happens) and rack tiles (laid or not), by number and
    /// colour.
    table: [[u8; 4]; 14],
    rack: [[u8; 4]; 14],
    jokers: u8,
    table_jokers: u8,
    /// Old sets in all (runs and sets read either way, and groups).
    old_sets: i32,
    wrap: bool,
    sets: [Vec<ColourSet>; 4],
    colour_bits: [u64; 4],
    /// Per number, every way to make its groups.
    choices: Vec<Vec<GroupChoice>>,
    lambda: [[f64; 4]; 14],
    mu: f64,
    /// What a tile laid at each number scores (the tiles objective: the same
    /// everywhere; the value objective: its printed number).
    tile: [f64; 14],
    /// What a joker a part lays at each number scores there: under the value objective
    /// the number it stands for; under the tiles objective nothing, a joker laid scoring
    /// a tile wherever it is, in the jokers' term (see [`Relaxation::joker_term`]).
    joker_at: [f64; 14],
    /// What the jokers' term scores for each joker laid besides its price.
    joker_anywhere: f64,
    /// `groups_from[m][j]`: the groups' parts at numbers m.. with at most j jokers each.
    groups_from: [[f64; 3]; 15],
    graphs: [PartGraph; 4],
    /// The printed number at each number walked (the prices are shared by it).
    printed: [u8; 14],
    /// The reads of part values at the prices (see [`Read`]).
    read_cache: Vec<Read>,
    /// The ways on of the parts being added to a graph (see [`Relaxation::node`]).
    pending: Vec<(Part, Step)>,
}

impl Relaxation {
    /// The relaxation of `p`, not yet priced, its graphs empty (see
    /// [`Relaxation::price`]); `None` where
    /// an old set of several colours is read as a run (it belongs to no colour). An
    /// initial meld's minimum is left out (the bound only grows). Under the value
    /// objective a joker scores the number it stands for, which the part that lays it
    /// knows: in a run or a group the number it is laid at, in an old set kept what it
    /// stands for there.
    pub(super) fn new(p: &Problem, group_bonus: &GroupBonus) -> Option<Relaxation> {
        let by_tiles = p.unit == Unit::Tiles;
        let mut sets: [Vec<ColourSet>; 4] = Default::default();
        let mut colour_bits = [0u64; 4];
        for (b, k) in p.keepable.iter().enumerate() {
            let colours: Vec<usize> = (0..4)
                .filter(|&c| (1..14).any(|m| k.counts[m][c] > 0))
                .collect();
            let &[c] = colours.as_slice() else {
                return None;
            };
            sets[c].push(ColourSet {
                bit: 1 << b,
                first: k.first,
                last: k.last,
                counts: std::array::from_fn(|m| k.counts[m][c]),
                jokers: k.jokers,
                // (Under the tiles objective its jokers count in the jokers' term, as
                // every joker laid.)
                score: f64::from(
                    k.score
                        - if by_tiles {
                            PRIMARY * i32::from(k.jokers)
                        } else {
                            0
                        },
                ),
            });
            colour_bits[c] |= 1 << b;
        }
        let tiles: [[u8; 4]; 14] =
            std::array::from_fn(|m| std::array::from_fn(|c| p.table[m][c] + p.rack[m][c]));
        let jokers = p.table_jokers + p.rack_jokers;
        let tile: [f64; 14] = std::array::from_fn(|m| f64::from(p.unit_at(m as u8) * PRIMARY));
        let choices = (0..14)
            .map(|m| group_choices(p, group_bonus, &tiles, jokers, m as u8))
            .collect();
        let lay = Relaxation {
            table: p.table,
            rack: p.rack,
            jokers,
            table_jokers: p.table_jokers,
            old_sets: (p.keepable.len() + p.old_groups.len()) as i32,
            wrap: p.wrap,
            sets,
            colour_bits,
            choices,
            lambda: [[0.0; 4]; 14],
            // (Under the value objective a joker first costs what it can score at most,
            // as the potential counts it: the parts lay one only where it scores that.)
            mu: if by_tiles { 0.0 } else { most_worth(&tile) },
            tile,
            joker_at: if by_tiles { [0.0; 14] } else { tile },
            joker_anywhere: if by_tiles { TILE } else { 0.0 },
            groups_from: [[0.0; 3]; 15],
            graphs: Default::default(),
            printed: p.printed,
            // (Sized and emptied by `price`, which always follows.)
            read_cache: Vec::new(),
            pending: Vec::new(),
        };
        // (The parts are added to the graphs as they are needed: from the start by a
        // fit, else from the states the search reads.)
        Some(lay)
    }

    /// The part every colour starts from.
    fn root(&self) -> Part {
        Part {
            n: 0,
            runs: [0; 3],
            tails: [0; 3],
            mask: 0,
            jokers: self.jokers,
        }
    }

    /// Prices the relaxation: those another search of the problem fitted, or fitted
    /// here by subgradient rounds and left in `shared` for the others.
    pub(super) fn price(&mut self, shared: &mut Option<Prices>) {
        self.read_cache.clear();
        self.read_cache
            .resize(1 << READ_CACHE_BITS, Read::default());
        match shared {
            // Another search of the problem fitted prices: walked another way it is the
            // same relaxation (runs over 13 are walked exactly wherever the cycle is
            // cut). (Shared between the problems of one call too, the other frozen-set
            // choices, they made an initial meld slower: each choice has its own rest.)
            Some(prices) => {
                for m in 1..14 {
                    self.lambda[m] = prices.by_printed[usize::from(self.printed[m])];
                }
                self.mu = prices.mu;
                self.set_groups();
                // (No graph walked from the start: the searches that take shared prices
                // are most of those that use the bound, and they read only the parts of
                // the states they reach, each added then with every part it leads to.)
            }
            None => {
                self.fit_prices();
                let mut by_printed = [[0.0; 4]; 14];
                for m in 1..14 {
                    by_printed[usize::from(self.printed[m])] = self.lambda[m];
                }
                *shared = Some(Prices {
                    by_printed,
                    mu: self.mu,
                });
            }
        }
    }

    /// Subgradient rounds on the bound at the start: each round moves the prices against
    /// the parts' disagreement (tiles set aside but not grouped, or grouped but not set
    /// aside; jokers laid against jokers there are), by a step aimed at proving one point
    /// less than the best bound so far (Polyak). The best prices found are kept.
    fn fit_prices(&mut self) {
        let mut best = (f64::INFINITY, self.lambda, self.mu);
        // (Aimed in tiles of the highest value under the value objective.)
        let aim_scale = most_worth(&self.tile) / TILE;
        for round in 0..ROUNDS {
            let aim = (AIM + (AIM_END - AIM) * round as f64 / ROUNDS as f64) * aim_scale;
            self.set_groups();
            let (term, laid) = self.joker_term(self.table_jokers, self.jokers);
            let mut value = term;
            // Tiles set aside by the colours less those the groups take, per colour and
            // number; jokers there are less those laid.
            let mut gap = [[0.0f64; 14]; 4];
            let mut joker_gap = f64::from(laid);
            for (c, gaps) in gap.iter_mut().enumerate() {
                let mut at = self.node(c, self.root()) as usize;
                self.value_from(c, 0);
                let graph = &self.graphs[c];
                value += graph.value[at];
                for (m, slot) in gaps.iter_mut().enumerate().skip(1) {
                    let Some(step) = graph.steps.get(graph.best[at] as usize) else {
                        break;
                    };
                    let worth = self.tile[m] - self.lambda[m][c];
                    let (_, aside) = step.value(0.0, worth, self.mu);
                    *slot += f64::from(aside);
                    joker_gap -= f64::from(step.jokers);
                    at = step.next as usize;
                }
            }
            for m in 1..14 {
                let (groups, choice) = self.group_best(m, self.jokers);
                value += groups;
                joker_gap -= f64::from(choice.jokers);
                for (gaps, &taken) in gap.iter_mut().zip(&choice.tiles) {
                    gaps[m] -= f64::from(taken);
                }
            }
            if !value.is_finite() {
                // A colour cannot lay its table tiles whatever it does: no play at all.
                break;
            }
            if value < best.0 {
                best = (value, self.lambda, self.mu);
            }
            let norm = joker_gap * joker_gap + gap.iter().flatten().map(|g| g * g).sum::<f64>();
            if norm == 0.0 {
                break;
            }
            let target = best.0 - aim;
            let step = (value - target).max(0.05) / norm;
            for (m, row) in self.lambda.iter_mut().enumerate() {
                for (l, gaps) in row.iter_mut().zip(&gap) {
                    *l += step * gaps[m];
                }
            }
            self.mu -= step * joker_gap;
        }
        if best.0.is_finite() {
            (_, self.lambda, self.mu) = best;
        }
        self.set_groups();
        for c in 0..4 {
            self.value_from(c, 0);
        }
    }

    /// The groups' best at number m with at most `jokers` jokers, and the choice.
    fn group_best(&self, m: usize, jokers: u8) -> (f64, GroupChoice) {
        let mut best = (
            0.0,
            GroupChoice {
                tiles: [0; 4],
                jokers: 0,
                reformed: 0,
            },
        );
        for g in &self.choices[m] {
            if g.jokers > jokers {
                continue;
            }
            let v = f64::from(g.reformed)
                + (0..4)
                    .map(|c| self.lambda[m][c] * f64::from(g.tiles[c]))
                    .sum::<f64>()
                - self.mu * f64::from(g.jokers)
                + self.joker_at[m] * f64::from(g.jokers);
            if v > best.0 {
                best = (v, *g);
            }
        }
        best
    }

    fn set_groups(&mut self) {
        for m in (1..14).rev() {
            for j in 0..3 {
                self.groups_from[m][j] = self.groups_from[m + 1][j] + self.group_best(m, j as u8).0;
            }
        }
    }

    /// The highest potential at most `bound`: 64 per objective point plus at most one
    /// tie-break point per old set (the search's buckets number no more, see
    /// `search::Numbering`).
    pub(super) fn as_potential(&self, bound: i32) -> i32 {
        let ties = bound.rem_euclid(PRIMARY);
        bound - ties + ties.min(self.old_sets)
    }

    /// The jokers' term: each joker laid earns its price `mu` (the parts pay it), and
    /// under the tiles objective scores a tile; at least `least` and at most `most` are
    /// laid. The term and how many.
    fn joker_term(&self, least: u8, most: u8) -> (f64, u8) {
        let each = self.joker_anywhere + self.mu;
        let laid = if each >= 0.0 { most } else { least };
        (each * f64::from(laid), laid)
    }

    /// At most what a state after number `n` with `key` (open runs from `ctx`) can
    /// still score; `None` if no play goes on from it.
    pub(super) fn rest(&mut self, ctx: &Ctx, n: u8, key: &Key) -> Option<i32> {
        let jokers = self.jokers.checked_sub(key.jokers)?;
        let (term, _) = self.joker_term(self.table_jokers.saturating_sub(key.jokers), jokers);
        let mut value = term + self.groups_from[usize::from(n) + 1][usize::from(jokers.min(2))];
        for c in 0..4 {
            let mask = key.mask & self.colour_bits[c];
            let tag = u64::from(key.cols[c])
                | u64::from(n) << 16
                | u64::from(jokers) << 24
                | (c as u64) << 32
                | 1 << 40;
            let slot = ((tag.wrapping_mul(0x9E37_79B9_7F4A_7C15)
                ^ mask.wrapping_mul(0xC2B2_AE3D_27D4_EB4F))
                >> (64 - READ_CACHE_BITS)) as usize;
            let read = self.read_cache[slot];
            if read.tag == tag && read.mask == mask {
                value += read.value;
                continue;
            }
            let (mut runs, mut tails) = ([0u8; 3], [0u8; 3]);
            for t in unpack(ctx.packed[usize::from(key.cols[c])]) {
                let k = kind(t);
                if k == HEAD || k == OBLIGATION {
                    tails[usize::from(tail(t).clamp(1, 3)) - 1] += 1;
                }
                // A part after 13 may end once it and its part before 1 make three.
                let class = match k {
                    OBLIGATION => continue,
                    HEAD => len(t) + tail(t),
                    _ => len(t),
                };
                runs[usize::from(class.clamp(1, 3)) - 1] += 1;
            }
            let part = Part {
                n,
                runs,
                tails,
                mask,
                jokers,
            };
            let at = self.node(c, part) as usize;
            let graph = &self.graphs[c];
            if graph.valued < graph.parts.len() {
                self.value_from(c, graph.valued);
            }
            let part_value = self.graphs[c].value[at];
            self.read_cache[slot] = Read {
                tag,
                mask,
                value: part_value,
            };
            value += part_value;
        }
        // (The prices are fractions: a little slack against rounding.)
        value.is_finite().then(|| (value + 1e-6).floor() as i32)
    }

    /// Values colour c's parts from position `from` on at the current prices: its old
    /// runs kept, minus the prices of the tiles it sets aside and the jokers it lays.
    fn value_from(&mut self, c: usize, from: usize) {
        let mu = self.mu;
        let graph = &mut self.graphs[c];
        let count = graph.parts.len();
        graph.value.resize(count, f64::NEG_INFINITY);
        graph.best.resize(count, NO_STEP);
        for i in from..count {
            let part = graph.parts[i];
            let mut best = (f64::NEG_INFINITY, NO_STEP);
            if part.n == 13 {
                if graph.closes[i] {
                    best.0 = 0.0;
                }
            } else {
                let m = usize::from(part.n) + 1;
                let worth = self.tile[m] - self.lambda[m][c];
                for k in graph.steps_of(i) {
                    let step = &graph.steps[k];
                    let (value, _) = step.value(graph.value[step.next as usize], worth, mu);
                    if value > best.0 {
                        best = (value, k as u32);
                    }
                }
            }
            (graph.value[i], graph.best[i]) = best;
        }
        graph.valued = count;
    }

    /// Colour c's part `part` in its graph, added with every part it leads to if new.
    fn node(&mut self, c: usize, part: Part) -> u32 {
        if let Some(&at) = self.graphs[c].index.get(&part) {
            return at;
        }
        // (Its ways on wait on a stack shared by the parts being added, each part's
        // above those of the part that leads to it.)
        let start = self.pending.len();
        let mut pending = std::mem::take(&mut self.pending);
        let closes = self.ways_on(c, part, &mut pending);
        self.pending = pending;
        for k in start..self.pending.len() {
            let next = self.pending[k].0;
            self.pending[k].1.next = self.node(c, next);
        }
        let graph = &mut self.graphs[c];
        let at = graph.parts.len() as u32;
        graph.parts.push(part);
        graph.closes.push(closes);
        graph
            .steps
            .extend(self.pending.drain(start..).map(|(_, step)| step));
        graph.ends.push(graph.steps.len() as u32);
        graph.index.insert(part, at);
        at
    }

    /// Colour c's ways on from `part` onto `ways` (each step with the part it leads to;
    /// its `next` is filled in by [`Relaxation::node`]); at 13 whether its runs close.
    fn ways_on(&self, c: usize, part: Part, ways: &mut Vec<(Part, Step)>) -> bool {
        let [one, two, three] = part.runs;
        if part.n == 13 {
            // Runs shorter than three must go on; under wrap-around runs the parts
            // before 1 that the parts after 13 need are the runs open here, of their
            // lengths (one of three or more may also just end).
            let [tail1, tail2, tail3] = part.tails;
            let closes = one == tail1 && two == tail2 && three >= tail3;
            return closes;
        }
        let m = part.n + 1;
        let mi = usize::from(m);
        let sets = &self.sets[c];
        let (mut held, mut ending) = (0u8, 0u64);
        let mut starting = [(0u64, 0u8, 0u8, 0.0f64); 8];
        let mut starts_here = 0;
        for s in sets {
            if part.mask & s.bit != 0 {
                held += s.counts[mi];
            }
            if s.last == m {
                ending |= s.bit;
            }
            if s.first == m && starts_here < starting.len() {
                starting[starts_here] = (s.bit, s.counts[mi], s.jokers, s.score);
                starts_here += 1;
            }
        }
        let starting = &starting[..starts_here];
        let (table, rack) = (self.table[mi][c], self.rack[mi][c]);
        let wrap = self.wrap;
        for keep in 0u32..(1 << starting.len()) {
            let mut mask = part.mask;
            let mut kept = 0.0;
            let mut keep_jokers = 0u8;
            let mut reserved = held;
            for (i, &(bit, counts, jokers, score)) in starting.iter().enumerate() {
                if keep & (1 << i) != 0 {
                    mask |= bit;
                    kept += score;
                    keep_jokers += jokers;
                    reserved += counts;
                }
            }
            if keep_jokers > part.jokers || reserved > table + rack {
                continue;
            }
            // The tiles not in kept sets: the table's must be laid, the rack's may stay.
            let free = table + rack - reserved;
            let must = table.saturating_sub(reserved);
            let jokers_left = part.jokers - keep_jokers;
            let mask = mask & !ending;
            // Each open run of one or two tiles goes on, each of three or more goes on
            // or ends, new runs start: every slot filled by a tile or a joker. The
            // tiles left over are set aside for groups.
            for starts in 0..=(free + jokers_left).min(4) {
                for going_on in 0..=three {
                    let slots = one + two + going_on + starts;
                    for jokers in 0..=jokers_left.min(slots) {
                        let used = slots - jokers;
                        if used > free {
                            continue;
                        }
                        // Under wrap-around runs a run begun at 1 may be a part after 13
                        // whose part before 1 is one, two, or three or more tiles.
                        let heads = if wrap && m == 1 { starts } else { 0 };
                        for (head1, head2, head3) in head_splits(heads) {
                            let plain = starts - head1 - head2 - head3;
                            let runs = [plain, one + head1, two + going_on + head2 + head3];
                            if runs.iter().sum::<u8>() > 8 {
                                continue;
                            }
                            let [tail1, tail2, tail3] = part.tails;
                            let next = Part {
                                n: m,
                                runs,
                                tails: [tail1 + head1, tail2 + head2, tail3 + head3],
                                mask,
                                jokers: jokers_left - jokers,
                            };
                            // The tiles left over are set aside for groups (a tile each, less
                            // the price), or stay on the rack as far as the rack holds them
                            // and the table's are laid: the better of the two ends.
                            let over = free - used;
                            let least = must.saturating_sub(used).max(over.saturating_sub(rack));
                            let step = Step {
                                fixed: kept
                                    + self.joker_at[mi] * f64::from(jokers)
                                    + self.tile[mi] * f64::from(used),
                                next: NO_STEP,
                                jokers: keep_jokers + jokers,
                                over,
                                least,
                            };
                            ways.push((next, step));
                        }
                    }
                }
            }
        }
        false
    }
}

/// The ways to take `heads` of the runs begun at a number as parts after 13 whose parts
/// before 1 are one, two, or three or more tiles (the rest plain runs).
fn head_splits(heads: u8) -> impl Iterator<Item = (u8, u8, u8)> {
    (0..=heads).flat_map(move |one| {
        (0..=heads - one)
            .flat_map(move |two| (0..=heads - one - two).map(move |three| (one, two, three)))
    })
}

/// Every way to make groups at number m from its tiles: the tiles of each colour and the
/// jokers, wherever they split into groups (`groups::splits`), with the most old groups
/// of m a split re-forms (`GroupBonus`, as the search scores them).
fn group_choices(
    p: &Problem,
    group_bonus: &GroupBonus,
    tiles: &[[u8; 4]; 14],
    jokers: u8,
    m: u8,
) -> Vec<GroupChoice> {
    if m == 0 {
        return Vec::new();
    }
    let top = tiles[usize::from(m)];
    let mut out = Vec::new();
    for x in X_OF_INDEX {
        if x.iter().zip(&top).any(|(x, t)| x > t) {
            continue;
        }
        for gj in 0..=jokers.min(2) {
            if !groups::splits(x, gj, p.jokers_per_set).is_empty() {
                out.push(GroupChoice {
                    tiles: x,
                    jokers: gj,
                    reformed: group_bonus.kept(m, x, gj),
                });
            }
        }
    }
    out
}
