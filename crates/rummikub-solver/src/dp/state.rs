//! The states between numbers, their index by key, and the arena that holds them with
//! the search's scratch and the dominance check.

use rustc_hash::FxHashMap;

use super::context::{Ctx, DOMINANCE_CHECKS};
use super::expand::KeptTable;
use super::expand::{Buffered, NumberChoice, Walked};

/// A state: per colour the id of its open runs, the kept sets still running, jokers
/// used, meld value reached, whether a rack tile was laid, and inside a number the tiles
/// of the decided colours set aside for groups (2 bits each).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Key {
    pub(super) mask: u64,
    pub(super) cols: [u16; 4],
    pub(super) jokers: u8,
    pub(super) acc: u8,
    pub(super) any: bool,
    pub(super) x: u8,
    /// The number the state is after (0: the start, [`FINAL_NUMBER`](super::search::FINAL_NUMBER): a play).
    pub(super) number: u8,
}

impl Key {
    /// The key packed into three words, for hashing.
    pub(super) fn words(&self) -> [u64; 3] {
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
pub(super) struct State {
    pub(super) key: Key,
    pub(super) score: i32,
    /// Index of the predecessor in the arena.
    pub(super) prev: u32,
}

/// An open-addressing index of the states stored: slots hold positions in the arena
/// (plus one; 0 is empty), keys are read from the states themselves. Cheaper than a
/// general map: no keys stored twice.
#[derive(Default)]
pub(super) struct StateIndex {
    /// Arena position plus one (0: empty) and the key's hash tag, so that most
    /// mismatches are seen without reading the arena.
    pub(super) slots: Vec<(u32, u32)>,
    pub(super) len: usize,
}

impl StateIndex {
    pub(super) fn hash(key: &Key) -> u64 {
        let [mask, cols, rest] = key.words();
        let h = mask.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ cols.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            ^ rest.wrapping_mul(0x1656_67B1_9E37_79F9);
        (h ^ (h >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9)
    }

    /// The slot to start probing at (high bits of the hash) and the tag (low bits).
    pub(super) fn place(&self, key: &Key) -> (usize, u32) {
        let h = Self::hash(key);
        let bits = self.slots.len().trailing_zeros();
        ((h >> (64 - bits)) as usize, h as u32)
    }

    /// Empties the index, sized for about `hint` states.
    pub(super) fn reset(&mut self, hint: usize) {
        let size = (hint * 2).max(64).next_power_of_two();
        self.slots.clear();
        self.slots.resize(size, (0, 0));
        self.len = 0;
    }

    /// The arena position of the state with `key`, or the slot (and tag) to insert it
    /// at.
    pub(super) fn find(&self, states: &[State], key: &Key) -> Result<usize, (usize, u32)> {
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
    pub(super) fn insert(&mut self, (slot, tag): (usize, u32), at: usize, states: &[State]) {
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

/// What the dominance check reads of a state stored.
#[derive(Clone, Copy)]
pub(super) struct Candidate {
    /// Its colours' dominance signatures (see [`Ctx::signature`]).
    signature: u64,
    score: i32,
    acc: u8,
    any: bool,
    cols: [u16; 4],
}

/// Every state stored in one vector, with an index to find them by key, and the best-first
/// search's scratch.
#[derive(Default)]
pub(super) struct Arena {
    pub(super) states: Vec<State>,
    /// Each state's choices for its number, by arena position.
    pub(super) choices: Vec<NumberChoice>,
    pub(super) index: StateIndex,
    /// The waiting states by potential (see [`Search`](super::search::Search)).
    pub(super) buckets: Vec<Vec<u32>>,
    /// The successors of one expansion.
    pub(super) offered: Vec<(Key, i32, NumberChoice)>,
    /// Successors found below their state's level (see [`Walked`](super::expand::Walked)).
    pub(super) buffered: Vec<Buffered>,
    /// Per arena position, what the state's last walk found.
    pub(super) walks: Vec<Walked>,
    /// What the kept sets mean at a number, by (mask, number), for the search's problem
    /// (see [`Expansion::kept_at`](super::expand::Expansion)).
    pub(super) kept_table: KeptTable,
    /// Each walk's keep choices' best potentials below its floor (see
    /// [`Expansion::number`](super::expand::Expansion)).
    pub(super) keep_bests: Vec<i32>,
    /// The dominance candidates: per (number, kept sets, jokers) what the check reads of
    /// each state stored, in the order stored (side by side in memory: the check reads
    /// up to [`DOMINANCE_CHECKS`] of them for every state offered).
    pub(super) dom_groups: FxHashMap<(u8, u64, u8), Vec<Candidate>>,
    /// Per arena position, where its candidate is in its group (a reopened state's
    /// score is updated there too).
    pub(super) dom_at: Vec<u32>,
    /// Emptied candidate lists of earlier searches, for new groups (most searches are
    /// small, and allocating a list per group was a noticeable share of their work).
    pub(super) spare_groups: Vec<Vec<Candidate>>,
}

impl Arena {
    /// Empties the dominance candidates for a new search, keeping their lists.
    pub(super) fn clear_dominance(&mut self) {
        for (_, mut candidates) in self.dom_groups.drain() {
            candidates.clear();
            self.spare_groups.push(candidates);
        }
        self.dom_at.clear();
    }

    /// Stores a state reached from arena position `prev` by `choice`, unless one with
    /// its key is stored already with at least its score, or an earlier one dominates
    /// it. Its arena position (a stored one's when reopened with the higher score).
    pub(super) fn store(
        &mut self,
        ctx: &mut Ctx,
        key: Key,
        score: i32,
        prev: usize,
        choice: NumberChoice,
    ) -> Option<usize> {
        let slot = match self.index.find(&self.states, &key) {
            Err(slot) => slot,
            // Reached again with a higher score (the stuck tiles' penalty is not
            // consistent, see `super::stuck`): reopened with the better path, to be
            // walked again from its new potential.
            Ok(at) if self.states[at].score < score => {
                self.states[at].score = score;
                self.states[at].prev = prev as u32;
                self.choices[at] = choice;
                let group = (key.number, key.mask, key.jokers);
                if let Some(candidates) = self.dom_groups.get_mut(&group) {
                    candidates[self.dom_at[at] as usize].score = score;
                }
                return Some(at);
            }
            Ok(_) => return None,
        };
        // (One look-up of the group for the check and the record.)
        let group = (key.number, key.mask, key.jokers);
        let spare = &mut self.spare_groups;
        let candidates = self
            .dom_groups
            .entry(group)
            .or_insert_with(|| spare.pop().unwrap_or_default());
        let signature = ctx.signature(key.cols);
        if dominated(ctx, candidates, &key, score, signature) {
            return None;
        }
        self.dom_at.push(candidates.len() as u32);
        candidates.push(Candidate {
            signature,
            score,
            acc: key.acc,
            any: key.any,
            cols: key.cols,
        });
        self.states.push(State {
            key,
            score,
            prev: prev as u32,
        });
        self.choices.push(choice);
        let at = self.states.len() - 1;
        self.index.insert(slot, at, &self.states);
        Some(at)
    }
}

/// Whether a state stored earlier with the same (number, kept sets, jokers), one of
/// `candidates`, beats `key` (with `score`) whatever comes (best-first search): it
/// scores at least as much (stored earlier it has at least the same potential, and its
/// bound on the rest is the same but for a stuck tile's point, see [`super::stuck`], so
/// the scores are compared), and its runs must do everything these can (only where its
/// signature, `signature` of `key`'s, covers `key`'s: most candidates are rejected by
/// that).
fn dominated(
    ctx: &mut Ctx,
    candidates: &[Candidate],
    key: &Key,
    score: i32,
    signature: u64,
) -> bool {
    // The last stored first.
    candidates.iter().rev().take(DOMINANCE_CHECKS).any(|a| {
        signature & !a.signature == 0
            && a.score >= score
            && a.acc >= key.acc
            && a.any >= key.any
            && (0..4).all(|c| ctx.config_dominates(a.cols[c], key.cols[c], key.number))
    })
}
