//! The best-first search (A*) over the states between numbers, resumable (see
//! [`super::portfolio`] for the entry points).

use super::bounds::KeptAt;
use super::bounds::{gaps_to_13, need_table, Bounds};
use super::context::Ctx;
use super::expand::{Expansion, NumberChoice, Walked, NOT_WALKED, WINDOW};
use super::group_bonus::GroupBonus;
use super::rebuild::rebuild;
use super::relaxation::{self, Prices, Relaxation};
use super::state::{Arena, Key};
use super::stuck::Held;
use super::{Answer, Cache, Problem, TooLarge, PRIMARY};
use crate::groups;
use crate::runs::RunRules;

/// What the search of one problem needs, computed once.
pub(super) struct Prepared {
    pub(super) bounds: Bounds,
    /// Per tiles set aside for groups (packed), the jokers with which they make groups
    /// ([`groups::split_jokers`]).
    pub(super) split_jokers: &'static [u8; 256],
    /// `gaps_to_13[n][c]`: numbers after n up to 13 without a tile of colour c (table
    /// or rack); a run that began with a joker and is open at n needs that many jokers.
    pub(super) gaps_to_13: [[u8; 4]; 14],
    pub(super) group_bonus: GroupBonus,
    /// Per number, the keepable sets (positions in `Problem::keepable`) starting there.
    pub(super) starting: Vec<Vec<usize>>,
    /// Per number, the keepable sets ending there, as mask bits.
    pub(super) ending: [u64; 14],
    /// `joker_bounds[left][n][j]`: the jokers' part of the bound in the colour steps of
    /// number n with `left` jokers unused, after an option takes j of them.
    pub(super) joker_bounds: Vec<[[i32; 3]; 14]>,
    /// The tiles the old sets still to come hold (see [`super::stuck`]).
    pub(super) held: Held,
}

impl Prepared {
    pub(super) fn new(p: &Problem, cache: &mut Cache) -> Prepared {
        let bounds = Bounds::new(p);
        Prepared {
            held: Held::new(p, &bounds),
            joker_bounds: bounds.colour_step_jokers(),
            bounds,
            split_jokers: groups::split_jokers(p.jokers_per_set),
            gaps_to_13: gaps_to_13(p),
            group_bonus: GroupBonus::new(p, &mut cache.groups_at),
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
        }
    }
}

/// The state before number 1.
pub(super) fn start_key(p: &Problem, ctx: &mut Ctx) -> Key {
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

/// Whether a state after number 13 is a play: every open run closes, every table tile
/// and joker is laid, a rack tile is laid, the meld's value reached.
pub(super) fn is_play(p: &Problem, ctx: &mut Ctx, key: &Key) -> bool {
    let cap = p.threshold.unwrap_or(0).min(255);
    key.mask == 0
        && key.jokers >= p.table_jokers
        && u32::from(key.acc) >= cap
        && (key.any || key.jokers > p.table_jokers)
        && key.cols.iter().all(|&id| ctx.closes(id))
}

/// Best-first search (A*) over the states between numbers: states are expanded in order
/// of potential, the deepest first among equals, so the first play reached is a best one,
/// and only states whose potential beats the best play are ever expanded (plus the dive
/// to it). Each potential's states are a stack: the successors a state offers go on top,
/// and when the search comes down to a new level, the states waiting there (pushed as
/// they waited, in no useful order) are sorted by their number, the deepest on top. The
/// level of the best play is the only one the search need not exhaust, and the sooner
/// its dive finds a play the better (sorting them stores fewer states under both rule
/// sets; sorting by score or jokers left after the number changed nothing). The bound
/// is consistent (a successor's
/// potential is at most its predecessor's), so a state is reached first by a best path
/// and never improved later.
///
/// Partial expansion: a state offers only the successors that keep its potential, and
/// waits with the potential of its next-best successor for the rest, so that successors
/// that lose something are never stored unless the search comes down to them. A state
/// goes a whole number at once (keep choices, four colours, groups) by a depth-first walk
/// that leaves a partial successor below the level for later (its potential bounds all
/// below it): only the states between numbers are stored (about one in nine of the
/// states of a search colour by colour, measured). A state's second and later walks go
/// [`WINDOW`](super::expand::WINDOW) deeper and keep what they find below the level for the next levels
/// ([`Walked`](super::expand::Walked)). A state an earlier one dominates is dropped ([`Arena::dominated`](super::state::Arena::dominated)).
///
/// A [`Search`] can stop after some expansions and go on later ([`Search::run`]), so
/// that several run in turns ([`super::portfolio`]).
pub(super) struct Search {
    pub(super) arena: Arena,
    p: Problem,
    prep: Prepared,
    at_least: i32,
    /// See [`Cache::stuck_from`].
    stuck_from: usize,
    /// The relaxation's bound on the rest (see [`super::relaxation`]): `None` until the
    /// search has stored `relaxation_from` states (see [`Cache::relaxation_from`] and
    /// [`relaxation::relaxation_from`]), then the bound, or `Some(None)` where the
    /// problem has none.
    relaxation: Option<Option<Relaxation>>,
    relaxation_from: usize,
    numbering: Numbering,
    /// The bucket the search is at, and one past the last ever used.
    current: usize,
    used: usize,
    /// Each level the search has come down to, with the work it had done when it got
    /// there: how fast it progresses, to rank the ways of walking (see
    /// [`Search::progress_at`]).
    levels: Vec<(i32, usize)>,
    /// Colour steps walked and options tried in them (see [`Search::work`]).
    steps: usize,
}

impl Search {
    /// A search of `p` from its start (in an arena the cache kept, emptied), or `None` if
    /// no play can reach `at_least`.
    pub(super) fn new(
        cache: &mut Cache,
        ctx: &mut Ctx,
        p: Problem,
        at_least: i32,
    ) -> Option<Search> {
        let prep = Prepared::new(&p, cache);
        let stuck_from = if widest_keep_choice(&prep) >= WIDE_KEEP_CHOICE {
            0
        } else {
            cache.stuck_from
        };
        let relaxation_from = cache
            .relaxation_from
            .unwrap_or_else(|| relaxation::relaxation_from(p.wrap));
        let start = start_key(&p, ctx);
        let bound = prep.bounds.potential(&start, 0, 0, 0, 1);
        if bound < at_least {
            return None;
        }
        let mut arena = cache.arenas.pop().unwrap_or_default();
        arena.states.clear();
        arena.choices.clear();
        arena.index.reset(256);
        arena.clear_dominance();
        arena.buffered.clear();
        arena.keep_bests.clear();
        arena.walks.clear();
        arena.kept_table.next_search();
        // Bucket b holds the states waiting with one potential, as a stack (see
        // `Numbering`). (The bound's own tie-break part can be below a play's: under the
        // value objective it leaves out old sets whose jokers stand for less than 13,
        // see `Bounds::new`.)
        let sets = (p.keepable.len() + p.old_groups.len()).min(PRIMARY as usize - 1) + 1;
        let mut search = Search {
            p,
            prep,
            arena,
            at_least,
            stuck_from,
            relaxation: None,
            relaxation_from,
            numbering: Numbering {
                sets: sets + 1,
                top: (bound + 1).div_euclid(PRIMARY),
            },
            current: 0,
            used: 0,
            levels: Vec::new(),
            steps: 0,
        };
        search
            .arena
            .store(ctx, start, 0, 0, NumberChoice::default());
        let first = search.numbering.bucket_of(bound);
        push(&mut search.arena.buckets, &mut search.used, first, 0);
        Some(search)
    }

    /// The arena back, its buckets emptied.
    pub(super) fn into_arena(mut self) -> Arena {
        for bucket in self.arena.buckets.iter_mut().take(self.used) {
            bucket.clear();
        }
        self.arena
    }

    /// The shape of the runs its problem is searched with.
    pub(super) fn run_rules(&self) -> RunRules {
        self.p.run_rules()
    }

    /// The potential of the states waiting first: no play the search can still find
    /// scores more. `None` when no state waits.
    pub(super) fn level(&mut self) -> Option<i32> {
        let buckets = &self.arena.buckets;
        while self.current < buckets.len() && buckets[self.current].is_empty() {
            self.current += 1;
        }
        (self.current < buckets.len()).then(|| self.numbering.potential_at(self.current))
    }

    /// How far the search had come when it had done `work` ([`Search::work`]): the level
    /// it was at, and the work it had done when it got there. Searches of one problem
    /// walked different ways come down the same levels to the same best play, and one
    /// that is lower, or got to its level with less work, is likely to get there first
    /// (see [`super::portfolio`]).
    pub(super) fn progress_at(&self, work: usize) -> (i32, usize) {
        self.levels
            .iter()
            .take_while(|&&(_, at)| at <= work)
            .last()
            .map_or((i32::MAX, 0), |&(level, at)| (level, at))
    }

    /// The work done so far: colour steps walked and options tried in them, in units of
    /// [`WORK_UNIT`]. What a state costs differs from one way of walking to another
    /// (cut through dense runs over 13, a colour's configurations have many options), so
    /// the ways are compared by this, not by the states they store.
    pub(super) fn work(&self) -> usize {
        self.steps / WORK_UNIT
    }

    /// Expands up to `steps` states: the answer if the search ends (the best play, none,
    /// or more than `budget` states stored), `None` if it is not done yet. `prices`: the
    /// relaxation's prices another search of the problem fitted, or where this one leaves
    /// them (see [`super::relaxation`]).
    pub(super) fn run(
        &mut self,
        ctx: &mut Ctx,
        steps: usize,
        budget: usize,
        prices: &mut Option<Prices>,
    ) -> Option<Result<Option<Answer>, TooLarge>> {
        let (p, prep) = (&self.p, &self.prep);
        let arena = &mut self.arena;
        let mut buckets = std::mem::take(&mut arena.buckets);
        let mut offered = std::mem::take(&mut arena.offered);
        let mut buffered = std::mem::take(&mut arena.buffered);
        let mut walks = std::mem::take(&mut arena.walks);
        let mut kept_table = std::mem::take(&mut arena.kept_table);
        let mut keep_bests = std::mem::take(&mut arena.keep_bests);
        let (numbering, at_least) = (self.numbering, self.at_least);
        let mut used = self.used;
        let mut current = self.current;
        let mut answer = None;
        // (An expansion's groups look-ahead is set per keep choice, before its colours
        // are walked.)
        let unset_need = need_table([2; 4], p.jokers_per_set);
        for _ in 0..steps {
            while current < buckets.len() && buckets[current].is_empty() {
                current += 1;
            }
            let Some(waiting) = buckets.get_mut(current) else {
                answer = Some(Ok(None));
                break;
            };
            let level = numbering.potential_at(current);
            if self.levels.last().is_none_or(|&(last, _)| last != level) {
                self.levels.push((level, self.steps / WORK_UNIT));
                // A new level: its deepest states first (see `Search`).
                let states = &arena.states;
                waiting.sort_by_key(|&u| states[u as usize].key.number);
            }
            let Some(u) = waiting.pop() else {
                answer = Some(Ok(None));
                break;
            };
            let u = u as usize;
            let s = arena.states[u];
            let after = usize::from(s.key.number);
            offered.clear();
            if walks.len() <= u {
                walks.resize(u + 1, NOT_WALKED);
            }
            let last = walks[u];
            if level < last.walked {
                // A state's first walk stops at its level; later ones go a window
                // deeper, so that the next few levels need no walk of their own.
                let floor = if last.walked == i32::MAX {
                    level
                } else {
                    level - WINDOW
                };
                let start = buffered.len() as u32;
                let keeps = keep_bests.len() as u32;
                let check_stuck = arena.states.len() >= self.stuck_from;
                if check_stuck
                    && arena.states.len() >= self.relaxation_from
                    && self.relaxation.is_none()
                {
                    self.relaxation = Some(Relaxation::new(p, &prep.group_bonus).map(|mut lay| {
                        lay.price(prices);
                        lay
                    }));
                }
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
                    free: None,
                    check_stuck,
                    relaxation: self.relaxation.as_mut().and_then(|l| l.as_mut()),
                    steps: 0,
                    colours: Default::default(),
                    need: unset_need,
                    kept_table: &mut kept_table,
                    last_keeps: (last.walked != i32::MAX).then_some(last.keeps),
                    keep_bests: &mut keep_bests,
                };
                match after {
                    FINAL_NUMBER => {
                        answer = Some(Ok(Some(walk_back(ctx, p, prep, arena, u))));
                        break;
                    }
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
                self.steps += expansion.steps as usize;
                walks[u] = Walked {
                    start,
                    end: buffered.len() as u32,
                    walked: floor,
                    below,
                    keeps,
                };
            }
            // The state's last walk found every successor down to here (those at the
            // level it walked for are offered already, the others are buffered): take
            // the ones at this level, and wait for the best below.
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
                    // (A reopened state is walked again from its new score.)
                    if let Some(walked) = walks.get_mut(at) {
                        *walked = NOT_WALKED;
                    }
                    push(&mut buckets, &mut used, current, at);
                }
            }
            if next_best != i32::MIN {
                push(&mut buckets, &mut used, numbering.bucket_of(next_best), u);
            }
            if arena.states.len() > budget {
                answer = Some(Err(TooLarge(arena.states.len())));
                break;
            }
        }
        self.used = used;
        self.current = current;
        arena.buckets = buckets;
        arena.offered = offered;
        arena.buffered = buffered;
        arena.walks = walks;
        arena.kept_table = kept_table;
        arena.keep_bests = keep_bests;
        answer
    }
}

/// The most old sets that start at one number of the walk `prep` was made for: the
/// keep choices there are 2 to that power.
fn widest_keep_choice(prep: &Prepared) -> usize {
    prep.starting.iter().map(Vec::len).max().unwrap_or(0)
}

/// Where this many old sets start at one number, a search looks for stuck tiles (and
/// under wrap-around runs reads the relaxation) from its first state, not from its
/// [`STUCK_FROM`](super::expand::STUCK_FROM)th: one walk there offers every keep choice
/// times the colours' options at its own level before the gate would open (the bench's
/// *full table, old rules*, eight runs of 1 to 11, stores a thousand times fewer states
/// with the checks from the first state).
const WIDE_KEEP_CHOICE: usize = 6;

/// Colour steps and options tried per unit of [`Search::work`] (about one to five
/// states' worth).
const WORK_UNIT: usize = 64;

/// How a [`Search`] numbers its buckets: a potential is 64 × objective points plus
/// tie-break points, so it splits uniquely; the buckets go densely by objective points
/// below the top's, then by tie-break points, most first. The tie-break part runs from
/// -1 (a stuck tile's point taken from a potential that held none, see
/// [`super::stuck`]) up, so potentials are numbered one up.
#[derive(Clone, Copy)]
struct Numbering {
    /// Tie-break parts per objective point (-1, then 0 to the old sets).
    sets: usize,
    /// The objective points of the start's bound (numbered one up).
    top: i32,
}

impl Numbering {
    fn bucket_of(self, potential: i32) -> usize {
        let shifted = potential + 1;
        let points = (self.top - shifted.div_euclid(PRIMARY)) as usize;
        let tie = (shifted.rem_euclid(PRIMARY) as usize).min(self.sets - 1);
        points * self.sets + (self.sets - 1 - tie)
    }

    fn potential_at(self, bucket: usize) -> i32 {
        (self.top - (bucket / self.sets) as i32) * PRIMARY
            + (self.sets - 1 - bucket % self.sets) as i32
            - 1
    }
}

/// Puts arena position `at` into bucket `b` (`used`: one past the last bucket used).
fn push(buckets: &mut Vec<Vec<u32>>, used: &mut usize, b: usize, at: usize) {
    if buckets.len() <= b {
        buckets.resize_with(b + 1, Vec::new);
    }
    *used = (*used).max(b + 1);
    buckets[b].push(at as u32);
}

/// The step of the best-first search's final states (after number 13 comes the play).
pub(super) const FINAL_NUMBER: usize = 14;

/// The play of the best-first search's final state at arena position `at`, walked back
/// to the start.
pub(super) fn walk_back(
    ctx: &Ctx,
    p: &Problem,
    prep: &Prepared,
    arena: &Arena,
    at: usize,
) -> Answer {
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
