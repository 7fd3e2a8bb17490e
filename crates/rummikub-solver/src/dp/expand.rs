//! One expansion of the best-first search: a state's successors a whole number later,
//! walked depth first (keep choices, colour by colour, groups).

use super::bounds::{jokers_to_go_on_before_12, need_table, GroupNeed, KeptAt};
use super::context::{Ctx, Viable, ViableKey, ViableRange};
use super::rebuild::unpack_x;
use super::relaxation::Relaxation;
use super::search::Prepared;
use super::state::Key;
use super::stuck::{stuck, Free, OpenRuns};
use super::{Problem, PRIMARY};

/// One number's decisions in the best-first search: the old runs kept (bits in the
/// order of [`Prepared::starting`](super::search::Prepared::starting)), each colour's option (list, position), the tiles
/// set aside for groups, the jokers in groups.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct NumberChoice {
    pub(super) keep: u16,
    pub(super) colours: [(u32, u16); 4],
    pub(super) x: u8,
    pub(super) group_jokers: u8,
}

/// A successor found by a walk below its state's level, kept with the state until the
/// search comes down to it (see [`Search`](super::search::Search)).
#[derive(Clone, Copy, Debug)]
pub(super) struct Buffered {
    pub(super) key: Key,
    pub(super) score: i32,
    pub(super) reach: i32,
    pub(super) choice: NumberChoice,
}

/// One colour's part of the keep choice being walked: its option list at n, the
/// table tiles it must lay, the tiles there, and its options that some path of the
/// walk may take (`Ctx::viable[start..end]`, see [`Expansion::colours_at`]).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct ColourAt {
    list: u32,
    must: u8,
    avail: u8,
    start: u32,
    end: u32,
}

/// How far below the level a state's second and later walks go (in potential units:
/// tie-break points, or 1/64 of an objective point).
pub(super) const WINDOW: i32 = 8;

/// What a state expanded before keeps: the successors its last walk found below the
/// level (`buffered[start..end]`), complete down to `walked` (that walk's floor), and
/// the best potential below that (where it must be walked again).
#[derive(Clone, Copy, Debug)]
pub(super) struct Walked {
    pub(super) start: u32,
    pub(super) end: u32,
    pub(super) walked: i32,
    pub(super) below: i32,
    /// Where its keep choices' bests below `walked` are (see [`Expansion::number`]).
    pub(super) keeps: u32,
}

/// A state not expanded yet.
pub(super) const NOT_WALKED: Walked = Walked {
    start: 0,
    end: 0,
    walked: i32::MAX,
    below: i32::MIN,
    keeps: 0,
};

/// One expansion of the best-first search: the successors, a whole number later, of a
/// state waiting with potential `level`. The number is walked depth first: keep
/// choices, then colour by colour, then the groups. A partial successor is walked on
/// only if its potential keeps the level; the best potential below it is where the state
/// waits for the rest (it bounds every successor below that partial one). Successors
/// never have a higher potential than their predecessor: the bound only loses what a
/// choice does not lay.
pub(super) struct Expansion<'a> {
    pub(super) p: &'a Problem,
    pub(super) prep: &'a Prepared,
    pub(super) level: i32,
    /// How deep this walk goes: partial successors down to here are walked on, and the
    /// successors between it and the level are kept in `buffered` for later (see
    /// [`Search`](super::search::Search)); the level itself on a state's first expansion.
    pub(super) floor: i32,
    pub(super) at_least: i32,
    /// Successors that keep the level: offered now.
    pub(super) offered: &'a mut Vec<(Key, i32, NumberChoice)>,
    /// Successors below the level down to the floor, with their potentials.
    pub(super) buffered: &'a mut Vec<Buffered>,
    /// The best potential below the level among the others: the state waits there for
    /// them.
    pub(super) next_best: i32,
    /// The kept sets' reserved tiles and bounds for the number being walked.
    pub(super) kept: KeptAt,
    /// The choices of the walk so far (each colour writes its own entry on the way
    /// down; a leaf copies them).
    pub(super) choice: NumberChoice,
    /// The tiles after the number free of the old sets kept or still to come, for the
    /// keep choice being walked (see [`super::stuck`]); worked out at its first leaf
    /// that asks (most keep choices have none).
    pub(super) free: Option<Free>,
    /// Whether to look for stuck tiles: not in a search's first states (see
    /// [`STUCK_FROM`], [`Cache::stuck_from`](super::Cache::stuck_from)).
    pub(super) check_stuck: bool,
    /// The relaxation's bound on what a successor can still score (see
    /// [`super::relaxation`]), once the search uses it.
    pub(super) relaxation: Option<&'a mut Relaxation>,
    /// Colour steps walked and options tried in them (the work of the walk, see
    /// [`super::search::Search::work`]).
    pub(super) steps: u32,
    /// Per colour, its part of the keep choice being walked.
    pub(super) colours: [ColourAt; 4],
    /// The fewest jokers the tiles set aside so far need to make groups, with what the
    /// colours after can set aside in the keep choice walked (see
    /// [`need_table`](super::bounds::need_table)).
    pub(super) need: &'static GroupNeed,
    /// The search's table of [`KeptAt`]s.
    pub(super) kept_table: &'a mut KeptTable,
    /// Each keep choice's best potential below the floor, by walk (this walk's are
    /// pushed; see [`Expansion::number`]).
    pub(super) keep_bests: &'a mut Vec<i32>,
    /// Where the state's last walk put its keep choices' bests (`None` on a first
    /// walk).
    pub(super) last_keeps: Option<u32>,
}

/// A search's [`KeptAt`]s by (mask, number), in [`KEPT_TABLE`] slots (see
/// [`Expansion::kept_at`]). The arena keeps it from one search to the next: a slot
/// stamped by an earlier search is empty.
#[derive(Default)]
pub(super) struct KeptTable {
    slots: Vec<(u64, u8, u32, KeptAt)>,
    stamp: u32,
}

impl KeptTable {
    /// Empties the table for a new search (its slots written only the first time, or
    /// when the stamps run out).
    pub(super) fn next_search(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.slots.is_empty() || self.stamp == 0 {
            self.slots.clear();
            self.slots.resize(KEPT_TABLE, (0, 0, 0, KeptAt::default()));
            self.stamp = 1;
        }
    }
}

/// Slots of a search's table of [`KeptAt`]s.
const KEPT_TABLE: usize = 1 << 10;

/// The stuck-tile check (see [`super::stuck`]) starts once a search has stored this many
/// states: most searches end before, where it costs more than it saves. The bound is a
/// bound either way, so the answer does not depend on it.
pub(super) const STUCK_FROM: usize = 256;

impl Expansion<'_> {
    /// Whether to walk on from a partial successor with potential `reach`; if not, the
    /// state waits for it (see the type's doc).
    pub(super) fn worth(&mut self, reach: i32) -> bool {
        if reach >= self.floor {
            return true;
        }
        if reach >= self.at_least {
            self.next_best = self.next_best.max(reach);
        }
        false
    }

    /// Number n: every choice of the old runs starting there to keep whole (their tiles
    /// reserved, their score and tie-break point at once), then the colours. Each keep
    /// choice's best potential below the floor is recorded (`keep_bests`): a later walk
    /// of the state skips a keep choice whose best is below its own floor, since all it
    /// holds above that was offered or buffered before (a later walk's floor is below
    /// the last one's, and the bound only falls as the search turns its checks on).
    pub(super) fn number(&mut self, ctx: &mut Ctx, n: u8, key: Key, score: i32) {
        let keep_choices = 1u16 << self.prep.starting[usize::from(n)].len();
        for keep in 0..keep_choices {
            if let Some(last) = self.last_keeps {
                let best = self.keep_bests[last as usize + usize::from(keep)];
                if best < self.floor {
                    // (Nothing of it in this walk's window: it waits where it did.)
                    self.next_best = self.next_best.max(best);
                    self.keep_bests.push(best);
                    continue;
                }
            }
            let outer = std::mem::replace(&mut self.next_best, i32::MIN);
            self.keep_choice(ctx, n, key, score, keep);
            let best = self.next_best;
            self.keep_bests.push(best);
            self.next_best = outer.max(best);
        }
    }

    /// The keep choice `keep` of number n (see [`Expansion::number`]).
    fn keep_choice(&mut self, ctx: &mut Ctx, n: u8, key: Key, score: i32, keep: u16) {
        let (p, prep) = (self.p, self.prep);
        let starting = &prep.starting[usize::from(n)];
        let cap = p.threshold.unwrap_or(0).min(255);
        let total_jokers = p.table_jokers + p.rack_jokers;
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
        if next.jokers > total_jokers {
            return;
        }
        next.acc = acc.min(cap) as u8;
        let score = score + gain;
        self.kept = self.kept_at(next.mask, n);
        let jokers = prep.bounds.jokers(total_jokers - next.jokers, n, n);
        let potential = score + self.kept.before_colours + jokers;
        debug_assert_eq!(
            potential,
            prep.bounds
                .potential(&next, score, usize::from(n - 1) * 4, n, n)
        );
        if !self.worth(potential) || !self.colours_at(ctx, n, &next) {
            return;
        }
        self.free = None;
        self.choice.keep = keep;
        self.colour::<0>(ctx, n, next, score, 0);
    }

    /// [`KeptAt::new`] for the sets kept `mask` at n, read from the search's table of
    /// them where it is there (keep choices recur from one state to the next).
    fn kept_at(&mut self, mask: u64, n: u8) -> KeptAt {
        let table = &mut *self.kept_table;
        let slot = ((mask ^ u64::from(n) << 58).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            >> (64 - KEPT_TABLE.trailing_zeros())) as usize;
        let stamp = table.stamp;
        match &table.slots[slot] {
            &(m, at, s, kept) if m == mask && at == n && s == stamp => kept,
            _ => {
                let kept = KeptAt::new(self.p, self.prep, mask, n);
                table.slots[slot] = (mask, n, stamp, kept);
                kept
            }
        }
    }

    /// Each colour's part of a keep choice (`key`: the state with the kept sets at n
    /// reserved): its option list, and the options some path of the walk may take (see
    /// [`Expansion::viable`]); `false` when a colour has no option left (or the kept
    /// sets hold more of its tiles than the table has): no successor. Worked out once
    /// per keep choice, not once per colour step (a colour's step is walked once for
    /// every path through the colours before it), and the options left open are read
    /// from the context, where they are kept by what decides them.
    fn colours_at(&mut self, ctx: &mut Ctx, n: u8, key: &Key) -> bool {
        let p = self.p;
        let ni = usize::from(n);
        let jokers_left = p.table_jokers + p.rack_jokers - key.jokers;
        ctx.bound_viable();
        // The most tiles each colour can set aside for groups: what its options left
        // open leave of the tiles there (the kept sets' are reserved).
        let mut most_aside = [0u8; 4];
        for (c, most) in most_aside.iter_mut().enumerate() {
            let Some(must) = p.table[ni][c].checked_sub(self.kept.reserved[c]) else {
                return false;
            };
            let avail = must + p.rack[ni][c];
            let list = ctx.list(key.cols[c], n, avail, jokers_left);
            let free = self.kept.free_at(c);
            let gaps = self.prep.gaps_to_13[ni][c];
            let wanted = ViableKey::new(
                list,
                // (What a run needs to go on depends on the number only from 12 on, or
                // under wrap-around runs where the parts after 13 need their tails.)
                if p.wrap || n >= 12 { n } else { 0 },
                free,
                std::array::from_fn(|i| self.kept.free_at_end[i][c]),
                gaps,
                jokers_left,
            );
            let ViableRange {
                start,
                end,
                fewest_tiles,
            } = match ctx.viable_at(wanted) {
                Some(range) => range,
                None => self.viable(ctx, c, n, list, (free, gaps, jokers_left), wanted),
            };
            if start == end {
                return false;
            }
            *most = avail - fewest_tiles.min(avail);
            self.colours[c] = ColourAt {
                list,
                must,
                avail,
                start,
                end,
            };
        }
        // Tiles set aside so far that cannot make groups with what the colours after
        // can set aside lead nowhere: the look-ahead by what this keep choice leaves.
        self.need = need_table(most_aside, p.jokers_per_set);
        true
    }

    /// The options of colour c's list at n that some path of the walk may take, put in
    /// the context under `wanted`: an option is left out when its runs cannot go on
    /// after n with every joker still unused, or it leads a run with a joker and the
    /// jokers cannot fill its gaps up to 13 (the colours before take jokers, never give
    /// them).
    #[cold]
    fn viable(
        &self,
        ctx: &mut Ctx,
        c: usize,
        n: u8,
        list: u32,
        (free, gaps, jokers_left): ([u8; 2], u8, u8),
        wanted: ViableKey,
    ) -> ViableRange {
        let p = self.p;
        let mut fewest_tiles = u8::MAX;
        let start = ctx.viable.len() as u32;
        let options = &ctx.lists[list as usize];
        for (o, opt) in options.hot.iter().enumerate() {
            if opt.leads && gaps + opt.jokers > jokers_left {
                continue;
            }
            // Runs that cannot go on die at the next number: not walked (a third of
            // the states stored were such), and not counted where the state waits.
            let mut to_go_on = if n < 12 {
                jokers_to_go_on_before_12(opt.short, free)
            } else {
                self.kept.jokers_to_go_on(opt.short, n, c, p.wrap)
            };
            if p.wrap {
                let tails = options.tails[o];
                to_go_on = to_go_on.saturating_add(self.kept.jokers_for_tails(tails, n, c));
            }
            if to_go_on.saturating_add(opt.jokers) > jokers_left {
                continue;
            }
            fewest_tiles = fewest_tiles.min(opt.tiles);
            ctx.viable.push(Viable {
                o: o as u16,
                next: opt.next,
                tiles: opt.tiles,
                jokers: opt.jokers,
                leads: opt.leads,
                to_go_on,
            });
        }
        let range = ViableRange {
            start,
            end: ctx.viable.len() as u32,
            fewest_tiles,
        };
        ctx.viable_slots[wanted.slot()] = (wanted, range);
        range
    }

    /// Colour `C` at number n: how its open runs go on (a tile, a joker, end, new runs)
    /// and how many of its tiles are set aside for groups. `jokers_needed`: what the
    /// colours before need so that their runs can go on after n. (The colour is a
    /// constant, one function per colour: fewer instructions than one function taking
    /// it as an argument.)
    pub(super) fn colour<const C: usize>(
        &mut self,
        ctx: &mut Ctx,
        n: u8,
        key: Key,
        score: i32,
        jokers_needed: u8,
    ) {
        let c = C;
        self.steps += 1;
        let (p, prep) = (self.p, self.prep);
        // (Read field by field: the whole `KeptAt` copied for every colour cost more.)
        let ahead = self.kept.ahead[c];
        let ni = usize::from(n);
        let unit = p.unit_at(n) * PRIMARY;
        let total_jokers = p.table_jokers + p.rack_jokers;
        let cap = p.threshold.unwrap_or(0).min(255);
        let ColourAt {
            list,
            must,
            avail,
            start,
            end,
        } = self.colours[c];
        let jokers_left = total_jokers - key.jokers;
        let need = &self.need[c];
        let group_loss = prep.group_bonus.loss(n).map(|loss| &loss[c]);
        let gaps = prep.gaps_to_13[ni][c];
        // The jokers' part of the bound after an option that takes 0, 1 or 2 jokers.
        let joker_bound = prep.joker_bounds[usize::from(jokers_left)][ni];
        // The most an option taking j jokers can reach: every tile there laid, none of
        // the old groups lost. It falls with j, and the options come by jokers.
        let most_with_jokers =
            |j: u8| score + i32::from(avail + j) * unit + ahead + joker_bound[usize::from(j)];
        for i in start..end {
            let Viable {
                o,
                next: cols,
                tiles,
                jokers,
                leads,
                to_go_on,
            } = ctx.viable[i as usize];
            self.steps += 1;
            // (The options come by jokers: the colours before took the others.)
            if jokers > jokers_left || jokers > 0 && !self.worth(most_with_jokers(jokers)) {
                break;
            }
            // A run that began with a joker must reach 13 (canonical form, see
            // `runs::LEAD`): the jokers left must fill the gaps up to 13.
            if leads && gaps + jokers > jokers_left {
                continue;
            }
            let jokers_after = key.jokers + jokers;
            let jokers_free = total_jokers - jokers_after;
            let needed = to_go_on.saturating_add(jokers_needed);
            if needed > jokers_free {
                continue;
            }
            // (The list holds only options within the tiles there: `tiles <= avail`.)
            let slots = i32::from(tiles) + i32::from(jokers);
            let reach = score + slots * unit + ahead + joker_bound[usize::from(jokers)];
            // Tiles set aside for groups: the table's must all be used, at most two.
            let fewest = must.saturating_sub(tiles);
            let most = (avail - tiles).min(2);
            // The potential falls with every tile not set aside (a tile's unit is more
            // than the old groups it can cost), so only the most tiles set aside down to
            // the first below the floor are walked, the most first; that one bounds the
            // rest. Counts whose tiles set aside so far can no longer fit into groups
            // lead nowhere: skipped, and not counted where the state waits.
            // (The tiles set aside so far hold only the colours before this one.)
            let partial_with = |x: u8| usize::from(key.x) | usize::from(x) << (2 * c);
            for x in (fewest..=most).rev() {
                let partial = partial_with(x);
                if need[partial] > jokers_free {
                    continue;
                }
                // Old groups here that the tiles set aside can no longer re-form.
                let lost = group_loss.map_or(0, |loss| i32::from(loss[partial]));
                if !self.worth(reach + i32::from(x) * unit - lost) {
                    break;
                }
                let mut next = key;
                next.cols[c] = cols;
                next.jokers = jokers_after;
                next.x = partial as u8;
                let from_rack = x + tiles - must;
                let acc = u32::from(next.acc)
                    + u32::from(p.printed[ni]) * (u32::from(from_rack) + u32::from(jokers));
                next.acc = acc.min(cap) as u8;
                next.any |= from_rack > 0;
                self.choice.colours[c] = (list, o);
                let score = score + (slots + i32::from(x)) * unit;
                self.next_colour::<C>(ctx, n, next, score, needed);
            }
        }
    }

    /// After colour `C`: the next colour, or after the last the groups.
    #[inline(always)]
    fn next_colour<const C: usize>(
        &mut self,
        ctx: &mut Ctx,
        n: u8,
        key: Key,
        score: i32,
        needed: u8,
    ) {
        match C {
            0 => self.colour::<1>(ctx, n, key, score, needed),
            1 => self.colour::<2>(ctx, n, key, score, needed),
            2 => self.colour::<3>(ctx, n, key, score, needed),
            _ => self.groups(ctx, n, key, score, needed),
        }
    }

    /// The groups at number n from the tiles set aside, with jokers; the kept sets ending
    /// at n leave the mask. A whole successor, offered if it keeps the level.
    pub(super) fn groups(&mut self, ctx: &Ctx, n: u8, key: Key, score: i32, needed: u8) {
        let mut choice = self.choice;
        let p = self.p;
        let unit = p.unit_at(n) * PRIMARY;
        let cap = p.threshold.unwrap_or(0).min(255);
        let x = unpack_x(key.x);
        let jokers_left = p.table_jokers + p.rack_jokers - key.jokers;
        choice.x = key.x;
        let splits = self.prep.split_jokers[usize::from(key.x)];
        let stuck_ceiling = if self.floor == self.level {
            self.level
        } else {
            self.level + 1
        };
        for gj in 0..=jokers_left.min(2) {
            if needed > jokers_left - gj || splits & 1 << gj == 0 {
                continue;
            }
            let mut next = key;
            next.jokers += gj;
            next.mask &= !self.prep.ending[usize::from(n)];
            next.x = 0;
            next.number = n;
            let acc = u32::from(next.acc) + u32::from(p.printed[usize::from(n)]) * u32::from(gj);
            next.acc = acc.min(cap) as u8;
            let kept_groups = i32::from(self.prep.group_bonus.kept(n, x, gj));
            let score = score + i32::from(gj) * unit + kept_groups;
            // (`Bounds::potential`, the kept sets' part worked out once per keep choice.)
            let jokers = self.prep.bounds.jokers(jokers_left - gj, n, n + 1);
            let mut potential = score + self.kept.after_groups + jokers;
            // A tile that only an old set still to come could take costs a point. (Not
            // looked for where the point changes nothing: above the level on a state's
            // first walk, whose successors are capped at the level, and more than a
            // point above it on a later walk, whose successors there were offered
            // before; the relaxation's bound below is applied either way.)
            if self.check_stuck && potential >= self.floor && potential <= stuck_ceiling && {
                let held = &self.prep.held;
                let free = self
                    .free
                    .get_or_insert_with(|| Free::new(held, n, key.mask));
                stuck(p, held, free, n, next.jokers, &OpenRuns::of(ctx, &choice))
            } {
                potential -= 1;
            }
            if potential >= self.floor {
                if let Some(lay) = self.relaxation.as_deref_mut() {
                    // The relaxation's bound on the rest (see `super::relaxation`); none
                    // means nothing goes on from here.
                    match lay.rest(ctx, n, &next) {
                        Some(rest) => potential = potential.min(lay.as_potential(score + rest)),
                        None => continue,
                    }
                }
            }
            choice.group_jokers = gj;
            self.leaf(next, score, potential, choice);
        }
    }

    pub(super) fn leaf(&mut self, key: Key, score: i32, reach: i32, choice: NumberChoice) {
        // On a state's first walk (floor at the level) nothing is above the level: the
        // state's own potential bounds its successors too, and may be the lower bound
        // where a stuck tile's point (see `super::stuck`) was taken from it and not yet
        // from them.
        let reach = if self.floor == self.level {
            reach.min(self.level)
        } else {
            reach
        };
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
