//! The interned run configurations of one rule shape, their option lists and the
//! dominance between them: they depend on the rules alone, so a [`super::Cache`] keeps
//! them from one call to the next (building them is most of a small position).

use rustc_hash::FxHashMap;

use crate::runs::{
    any_leads_with_joker, close_at_13, dominance_signature, dominates, kind, len, must_go_on,
    tails_needed, unpack, ColOpt, Packed, RunRules, EARLY, OBLIGATION, RUN,
};

/// Interned colour configurations and their cached options.
pub(super) struct Ctx {
    pub(super) rules: RunRules,
    pub(super) packed: Vec<Packed>,
    /// Per configuration its [`dominance_signature`].
    pub(super) signatures: Vec<u16>,
    pub(super) ids: FxHashMap<Packed, u16>,
    pub(super) lists: Vec<OptList>,
    /// Option list per (configuration, number class, tiles, jokers), see
    /// [`Ctx::list_slot`]; `u32::MAX` where not built yet.
    pub(super) list_ids: Vec<u32>,
    /// `dominance[strict][a][b]`: 1 if configuration a dominates b, 0 if not, or
    /// [`UNKNOWN`]; `strict` as [`RunRules::strict_len`](crate::runs::RunRules::strict_len).
    pub(super) dominance: [Vec<Vec<u8>>; 2],
    /// Per configuration: 1 if its runs can all close at 13, 0 if not, or [`UNKNOWN`].
    pub(super) closes: Vec<u8>,
    /// The options keep choices leave open, as ranges of `viable`, in a table by what
    /// decides them (see [`ViableKey::slot`]; a slot holds the last key put there).
    pub(super) viable_slots: Vec<(ViableKey, ViableRange)>,
    pub(super) viable: Vec<Viable>,
}

pub(super) const UNKNOWN: u8 = 2;

/// Past this many undominated states in one group, further states are kept unchecked
/// (bounds the quadratic check; keeping a state is always safe).
pub(super) const DOMINANCE_CHECKS: usize = 64;

/// The options of one (configuration, number, tiles, jokers), compact for the hot loop.
pub(super) struct OptList {
    pub(super) hot: Vec<HotOpt>,
    /// What each option's parts after 13 need at the walk's last three numbers (see
    /// [`tails_needed`]; read only under wrap-around runs, so kept out of `hot`).
    pub(super) tails: Vec<[u8; 3]>,
    pub(super) full: Vec<ColOpt>,
}

/// What the walk reads of one option.
#[derive(Clone, Copy, Debug)]
pub(super) struct HotOpt {
    /// The configuration after it.
    pub(super) next: u16,
    /// Tiles and jokers it takes.
    pub(super) tiles: u8,
    pub(super) jokers: u8,
    /// Whether a run in it began with a joker.
    pub(super) leads: bool,
    /// Its runs of one tile and of two tiles (they must go on).
    pub(super) short: (u8, u8),
    /// Its longest open run (0: none, 3: three tiles or more; a part after 13 waiting
    /// for its part before is not open).
    pub(super) longest: u8,
}

/// An option of a colour that the keep choice leaves open: what the walk reads of it,
/// with the jokers its runs need to go on worked out once per keep choice.
#[derive(Clone, Copy, Debug)]
pub(super) struct Viable {
    /// Its position in the colour's list (what the choice records).
    pub(super) o: u16,
    pub(super) next: u16,
    pub(super) tiles: u8,
    pub(super) jokers: u8,
    pub(super) leads: bool,
    /// The fewest jokers its short runs (and under wrap-around runs its parts after 13)
    /// need to go on after n.
    pub(super) to_go_on: u8,
}

/// What decides which options of a list a keep choice leaves open (see
/// [`Expansion::colours_at`](super::expand::Expansion)), packed into one word: the list,
/// the number (from 12 on, or under wrap-around runs), the colour's free tiles at n + 1
/// and n + 2 and at the walk's last three numbers (under wrap-around runs), its numbers
/// up to 13 without a tile, and the jokers unused.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct ViableKey(u64);

impl ViableKey {
    /// No key (an empty slot; no list has that number).
    const NONE: ViableKey = ViableKey(u64::MAX);

    pub(super) fn new(
        list: u32,
        n: u8,
        free: [u8; 2],
        end: [u8; 3],
        gaps: u8,
        jokers_left: u8,
    ) -> ViableKey {
        // (Free tiles counted up to 7: a colour never has that many runs open, so more
        // change nothing. Two copies of a tile make 2 the most seen.)
        let free_tiles = |v: u8| u64::from(v.min(7));
        ViableKey(
            u64::from(list)
                | u64::from(n & 15) << 32
                | free_tiles(free[0]) << 36
                | free_tiles(free[1]) << 39
                | free_tiles(end[0]) << 42
                | free_tiles(end[1]) << 45
                | free_tiles(end[2]) << 48
                | u64::from(gaps & 15) << 51
                | u64::from(jokers_left) << 55,
        )
    }

    /// Its slot in the table (a multiplicative hash; one look-up per colour of every
    /// keep choice, so cheaper than a general map's).
    pub(super) fn slot(self) -> usize {
        (self.0.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - VIABLE_SLOTS.trailing_zeros()))
            as usize
    }
}

/// The options a keep choice leaves open in a colour (`Ctx::viable[start..end]`), and the
/// fewest tiles one of them lays in runs.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct ViableRange {
    pub(super) start: u32,
    pub(super) end: u32,
    pub(super) fewest_tiles: u8,
}

/// Slots of the table of options kept open.
const VIABLE_SLOTS: usize = 1 << 12;

/// Past this many options kept open the lists of them are dropped and made again as
/// asked (memory bound; a search's walks ask for a few thousand).
pub(super) const MAX_VIABLE: usize = 1 << 18;

/// The open runs that must go on: how many need a tile (or a joker) at each of the next
/// two numbers (runs of one tile) and how many at the next one only (runs of two tiles;
/// under wrap-around rules also a part after 13 of one tile whose part before is one
/// tile, KD2: together at least three). A part after 13 that may end and a finished one
/// waiting for its part before need nothing.
pub(super) fn short_runs(packed: Packed, wrap: bool) -> (u8, u8) {
    let (mut one, mut two) = (0u8, 0u8);
    for t in unpack(packed) {
        if wrap && kind(t) != RUN && kind(t) != EARLY {
            if must_go_on(t) {
                two += 1;
            }
            continue;
        }
        match len(t) {
            1 => one += 1,
            2 => two += 1,
            _ => {}
        }
    }
    (one, two)
}

/// The longest of the packed runs still open (see [`HotOpt::longest`]).
pub(super) fn longest_open(packed: Packed) -> u8 {
    unpack(packed)
        .into_iter()
        .filter(|&t| kind(t) != OBLIGATION)
        .map(len)
        .max()
        .unwrap_or(0)
}

/// Past this many interned configurations a kept context is dropped (memory bound).
pub(super) const MAX_CONTEXT_CONFIGS: usize = 8_192;
/// Past this many bytes of dominance table a kept context is dropped (a memory bound,
/// far above what hundreds of old-rules positions leave).
pub(super) const MAX_CONTEXT_DOMINANCE: usize = 64 << 20;

impl Ctx {
    /// The kept context for `rules` (a fresh one the first time).
    pub(super) fn take(kept: &mut Vec<Ctx>, rules: RunRules) -> Ctx {
        let i = kept.iter().position(|c| c.rules == rules);
        i.map(|i| kept.swap_remove(i)).unwrap_or_else(|| Ctx {
            rules,
            packed: Vec::new(),
            signatures: Vec::new(),
            ids: FxHashMap::default(),
            lists: Vec::new(),
            list_ids: Vec::new(),
            dominance: [Vec::new(), Vec::new()],
            closes: Vec::new(),
            viable_slots: Vec::new(),
            viable: Vec::new(),
        })
    }

    /// Keeps the context for the next call with the same cache, unless it grew too
    /// large.
    pub(super) fn give_back(self, kept: &mut Vec<Ctx>) {
        let dominance_bytes: usize = self
            .dominance
            .iter()
            .flat_map(|matrix| matrix.iter().map(Vec::len))
            .sum();
        if self.packed.len() <= MAX_CONTEXT_CONFIGS && dominance_bytes <= MAX_CONTEXT_DOMINANCE {
            kept.push(self);
        }
    }

    /// Whether configuration `a` can do everything configuration `b` can (cached; the
    /// first time it is worked out in [`Ctx::config_dominates_cold`]).
    #[inline]
    pub(super) fn config_dominates(&mut self, a: u16, b: u16, n: u8) -> bool {
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
    pub(super) fn config_dominates_cold(&mut self, ai: usize, bi: usize, strict: bool) -> bool {
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

    /// The four colours' [`dominance_signature`]s of a state, side by side: a state can
    /// dominate another only if its signature covers the other's.
    pub(super) fn signature(&self, cols: [u16; 4]) -> u64 {
        cols.iter().enumerate().fold(0, |sig, (c, &id)| {
            sig | u64::from(self.signatures[usize::from(id)]) << (16 * c)
        })
    }

    /// Drops the options kept open once there are more than [`MAX_VIABLE`] (called
    /// between keep choices, whose walks read them).
    pub(super) fn bound_viable(&mut self) {
        if self.viable.len() > MAX_VIABLE || self.viable_slots.is_empty() {
            self.viable.clear();
            self.viable_slots.clear();
            self.viable_slots
                .resize(VIABLE_SLOTS, (ViableKey::NONE, ViableRange::default()));
        }
    }

    /// The options kept open under `key`, if they are in the table.
    #[inline]
    pub(super) fn viable_at(&self, key: ViableKey) -> Option<ViableRange> {
        let (k, range) = self.viable_slots[key.slot()];
        (k == key).then_some(range)
    }

    /// Whether the open runs of configuration `id` can all close at 13 (cached).
    pub(super) fn closes(&mut self, id: u16) -> bool {
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

    pub(super) fn id(&mut self, packed: Packed) -> u16 {
        if let Some(&id) = self.ids.get(&packed) {
            return id;
        }
        let id = self.packed.len() as u16;
        self.packed.push(packed);
        self.signatures.push(dominance_signature(packed));
        self.ids.insert(packed, id);
        id
    }

    /// Where the option list of (configuration, number, tiles, jokers) is indexed: a
    /// flat array (it is looked up for every state and colour). Without wrap-around
    /// runs the options do not depend on the number. Tiles and jokers are at most 2.
    pub(super) fn list_slot(&self, config: u16, n: u8, tiles: u8, jokers: u8) -> usize {
        // (Dense: the array is read for every colour of every walk.)
        let (n_class, classes) = if self.rules.wrap {
            (usize::from(n), 14)
        } else {
            (0, 1)
        };
        ((usize::from(config) * classes + n_class) * 3 + usize::from(tiles.min(2))) * 3
            + usize::from(jokers.min(2))
    }

    /// The option list of (configuration, number, tiles, jokers): looked up for every
    /// colour of every walk, built the first time (out of line, so that the look-up
    /// inlines into the walk).
    #[inline]
    pub(super) fn list(&mut self, config: u16, n: u8, tiles: u8, jokers: u8) -> u32 {
        let slot = self.list_slot(config, n, tiles, jokers);
        if let Some(&l) = self.list_ids.get(slot) {
            if l != u32::MAX {
                return l;
            }
        }
        self.build_list(slot, config, n, tiles, jokers)
    }

    #[cold]
    #[inline(never)]
    fn build_list(&mut self, slot: usize, config: u16, n: u8, tiles: u8, jokers: u8) -> u32 {
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
                short: short_runs(o.next, self.rules.wrap),
                longest: longest_open(o.next),
            })
            .collect();
        let tails = full.iter().map(|o| tails_needed(o.next)).collect();
        let l = self.lists.len() as u32;
        self.lists.push(OptList { hot, tails, full });
        if self.list_ids.len() <= slot {
            self.list_ids
                .resize((slot + 1).next_power_of_two(), u32::MAX);
        }
        self.list_ids[slot] = l;
        l
    }
}
