//! The dynamic program over the numbers 1..13 (after van Rijn, Takes & Vis), searched
//! best first.
//!
//! Numbers are processed in order. A state after number n holds, per colour, the runs
//! still open at n (an interned id of their tokens, see [`crate::runs`]), the jokers
//! used so far, the old table sets kept whole that are still running (a mask), the
//! initial-meld value reached (capped) and whether a rack tile was laid. Number n is
//! decided in one step made of smaller choices: which old sets starting at n stay
//! unchanged, then colour by colour how the open runs go on and how many tiles of the
//! colour are set aside for groups, then the groups (with jokers). The states are
//! searched in order of potential (score so far plus a bound on the rest, see
//! [`search`]); the first play reached is walked back to build the sets.
//!
//! Keeping an old set whole reserves its tiles and scores one tie-break point: among
//! equally good plays the one that changes the fewest old sets wins. (Re-forming an old
//! set from its tiles is the same as keeping it, so nothing is lost by this.)
//!
//! The parts: [`state`] (the states and their index), [`context`] (run configurations
//! and their options, per rule shape), [`bounds`] (the potential), [`relaxation`] (a
//! relaxation's bound on the rest, for large searches), [`group_bonus`] (the
//! old groups' part of the tie-break), [`expand`] (one number's walk), [`search`] (the
//! best-first search, resumable), [`orientation`] (which way the numbers are walked: up
//! or down, and where the cycle of numbers is cut under wrap-around runs),
//! [`portfolio`] (the entry points: several searches in turns) and [`rebuild`] (the
//! sets of the play found).

mod bounds;
mod context;
mod expand;
mod group_bonus;
mod orientation;
mod portfolio;
mod rebuild;
mod relaxation;
mod search;
mod state;
mod stuck;

use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::runs::RunRules;
use rummikub::tile::Tile;

pub(crate) use portfolio::{solve, solve_best_of};

/// What the DP keeps from one call to the next: the run configurations and their
/// option lists per rule shape, the old groups' tables per number, and the arena of
/// states (fresh memory costs page faults). Only an optimisation: a fresh cache gives
/// the same answers.
pub(crate) struct Cache {
    contexts: Vec<context::Ctx>,
    groups_at: FxHashMap<group_bonus::GroupsAtKey, Arc<group_bonus::GroupsAt>>,
    /// Arenas of states, one per search running (several under wrap-around runs).
    arenas: Vec<state::Arena>,
    /// States the searches stored since the counter was last reset (a figure for
    /// benchmarks: how hard a position was, whatever the machine).
    pub(crate) states_stored: usize,
    /// Most states one call's searches store together before the call gives up.
    pub(crate) max_states: usize,
    /// From how many states a search looks for stuck tiles ([`expand::STUCK_FROM`];
    /// tests set 0, so that small positions exercise the check too).
    pub(crate) stuck_from: usize,
    /// From how many states a search bounds its successors by the relaxation of the rest,
    /// its prices fitted at once (tests set 0); `None`: as the rules' searches gain most
    /// (see [`relaxation::RELAXATION_FROM`]).
    pub(crate) relaxation_from: Option<usize>,
    /// Every search walks the numbers this way alone (an index into
    /// [`orientation::orientations`], modulo their count), for benchmarks; `None`: the
    /// portfolio's ways.
    pub(crate) walk_only: Option<usize>,
    /// When a problem under wrap-around runs races its ways of walking (tests race small
    /// positions from the start).
    pub(crate) race: portfolio::RaceSchedule,
    /// Ways of walking that races put out (tests check that their races drop some).
    pub(crate) ways_dropped: usize,
    /// Ways out of a race that came back into it (see `portfolio::OUT_SHARE_SHIFT`;
    /// tests check that some do).
    pub(crate) ways_back: usize,
}

impl Default for Cache {
    fn default() -> Cache {
        Cache {
            contexts: Vec::new(),
            groups_at: FxHashMap::default(),
            arenas: Vec::new(),
            states_stored: 0,
            max_states: MAX_STATES,
            stuck_from: expand::STUCK_FROM,
            relaxation_from: None,
            walk_only: None,
            race: portfolio::RaceSchedule::default(),
            ways_dropped: 0,
            ways_back: 0,
        }
    }
}

impl Cache {
    /// Keeps an arena for the next search, unless the arenas kept would then hold room
    /// for more than a quarter of [`MAX_STATES`] (memory bound: a huge position's arena
    /// is dropped).
    fn give_back(&mut self, arena: state::Arena) {
        let kept: usize = self.arenas.iter().map(|a| a.states.capacity()).sum();
        if kept + arena.states.capacity() <= MAX_STATES / 4 {
            self.arenas.push(arena);
        }
    }
}

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
    pub(super) fn of(self, number: u8) -> i32 {
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
    /// point for every group it forms that is one of these (see [`GroupBonus`](group_bonus::GroupBonus)).
    pub old_groups: Vec<(u8, u8, u8)>,
    pub jokers_per_set: u8,
    pub wrap: bool,
    pub unit: Unit,
    /// The initial meld: rack value laid plus joker values must reach this.
    pub threshold: Option<u32>,
    pub start_acc: u32,
    /// A rack tile is already laid (a joker swap outside the DP).
    pub start_any: bool,
    /// The printed number of each DP number (1..=13): the identity, unless the numbers
    /// are walked down or the cycle of numbers of wrap-around runs is cut elsewhere
    /// than between 13 and 1 (see [`orientation`]).
    pub printed: [u8; 14],
}

impl Problem {
    /// The rules that shape its runs (the key of a kept [`context::Ctx`]).
    pub(super) fn run_rules(&self) -> RunRules {
        // [J x … y] and [x … y J] are the same tiles; the DP walks only the second
        // unless the run reaches 13, which is right where the joker on top is the
        // higher reading (numbers walked up) or value does not count (see
        // `runs::LEAD`). Walking down, under the value objective or the initial meld,
        // both are walked.
        let up = self.printed[1] < self.printed[13];
        RunRules {
            jokers_per_set: self.jokers_per_set,
            wrap: self.wrap,
            joker_leads_reach_13: !self.wrap && (up || !self.value_counts()),
        }
    }

    /// Whether what a tile is worth counts: the value objective, or an initial meld to
    /// reach.
    pub(super) fn value_counts(&self) -> bool {
        self.unit == Unit::Value || self.threshold.is_some()
    }

    /// The objective's unit for one tile at DP number `n` (its printed number's).
    pub(super) fn unit_at(&self, n: u8) -> i32 {
        self.unit.of(self.printed[usize::from(n)])
    }
}

/// The identity map of DP numbers to printed numbers.
pub(crate) const PRINTED: [u8; 14] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];

/// Most states the search stores before it gives up (about 300 MB), unless the caller
/// sets another limit.
pub(crate) const MAX_STATES: usize = 4_000_000;

/// The position needs more states than the limit ([`Cache::max_states`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct TooLarge(pub usize);

/// The DP's answer: its score and the sets it builds, plus the old sets it keeps.
#[derive(Clone, Debug)]
pub(crate) struct Answer {
    pub score: i32,
    pub sets: Vec<Vec<Tile>>,
    pub kept: Vec<usize>,
}
