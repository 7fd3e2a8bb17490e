//! One colour's open runs at one number: the tokens that describe them, and every way
//! to treat them at the next number (go on with a tile or a joker, end, start new runs).
//!
//! A token is one open run: its length so far (1, 2 or 3+), whether it holds a joker
//! (tracked only when the rules allow one joker per set), and for wrap-around runs (old
//! rules, KD2) which part of a run over 13 it is. A colour's runs are a sorted array of
//! tokens packed into a `u64`; the DP interns these as small ids.

/// One open run (see the module doc). Layout: bits 0-1 length class 1..=3, bit 2
/// joker, bits 3-4 kind, bits 5-6 tail class of a wrap-around part, bit 7 a run that
/// began with a joker (see [`LEAD`]).
pub(crate) type Tok = u8;
/// Up to eight tokens of one colour, sorted descending, 0 = empty.
pub(crate) type Packed = u64;

const LEN_MASK: Tok = 0b11;
const JOKER: Tok = 0b100;
const KIND_SHIFT: u8 = 3;
pub(crate) const RUN: u8 = 0;
/// A run started at 1 or 2 under wrap-around rules: it cannot be the part before 1 of a
/// run over 13, which would then be longer than 13 tiles.
pub(crate) const EARLY: u8 = 1;
/// The part of a wrap-around run after 13 (1, 2, ...), still open.
pub(crate) const HEAD: u8 = 2;
/// A finished part after 13, waiting for its part before 13 (..., 12, 13).
pub(crate) const OBLIGATION: u8 = 3;
const TAIL_SHIFT: u8 = 5;
/// A run that began with a joker (without wrap-around runs). Canonical form: such a run
/// must reach 13. A run [J x .. y] that ends below 13 is the same tiles as [x .. y J],
/// with the joker on top: as valid, worth more (KD11), the same set for the tie-break
/// (sets compare as tiles), the same tiles for the initial meld, worth more there too.
/// So only runs reaching 13 may begin with a joker; the DP drops the others as soon as
/// the jokers left cannot fill the gaps up to 13.
const LEAD: Tok = 0b1000_0000;

fn token(kind: u8, len: u8, joker: bool, tail: u8) -> Tok {
    len | if joker { JOKER } else { 0 } | (kind << KIND_SHIFT) | (tail << TAIL_SHIFT)
}
pub(crate) fn kind(t: Tok) -> u8 {
    (t >> KIND_SHIFT) & 0b11
}
pub(crate) fn len(t: Tok) -> u8 {
    t & LEN_MASK
}
/// The tail class of a part after 13: its part before 1 is 1, 2, or 3 or more tiles.
pub(crate) fn tail(t: Tok) -> u8 {
    (t >> TAIL_SHIFT) & 0b11
}
fn has_joker(t: Tok) -> bool {
    t & JOKER != 0
}
fn leads_with_joker(t: Tok) -> bool {
    t & LEAD != 0
}
/// Whether any of the packed runs began with a joker (and so must reach 13).
pub(crate) fn any_leads_with_joker(packed: Packed) -> bool {
    packed & (Packed::from(LEAD) * 0x0101_0101_0101_0101) != 0
}

/// Tokens packed, sorted descending.
pub(crate) fn pack(tokens: &mut [Tok]) -> Packed {
    tokens.sort_unstable_by(|a, b| b.cmp(a));
    tokens
        .iter()
        .take(8)
        .enumerate()
        .fold(0, |acc, (i, &t)| acc | (Packed::from(t) << (8 * i)))
}
pub(crate) fn unpack(packed: Packed) -> Vec<Tok> {
    (0..8)
        .map(|i| (packed >> (8 * i)) as Tok)
        .take_while(|&t| t != 0)
        .collect()
}

/// Whether a part after 13 must take a tile at the next number: one tile long, with a
/// part before of one tile (together they must be at least three, KD2). The rule of
/// [`Gen::continue_tokens`]' `may_end`, for the walk's look ahead.
pub(crate) fn must_go_on(t: Tok) -> bool {
    kind(t) == HEAD && tail(t) == 1 && len(t) < 2
}

/// The parts before 1 that the parts after 13 among `packed` (open or waiting) need at
/// the end of the walk, as tiles at its last three numbers: `[at 13, at 12, at 11]`
/// (every part before 1 holds 13; one of two tiles or more 12; one of three or more 11).
pub(crate) fn tails_needed(packed: Packed) -> [u8; 3] {
    let mut need = [0u8; 3];
    for t in unpack(packed) {
        if kind(t) == HEAD || kind(t) == OBLIGATION {
            for (i, slot) in need.iter_mut().enumerate() {
                *slot += u8::from(tail(t) > i as u8);
            }
        }
    }
    need
}

/// What a token does at this number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Act {
    End,
    Tile,
    Joker,
    Pass,
}

/// One way to treat one colour's open runs at one number.
#[derive(Clone, Debug)]
pub(crate) struct ColOpt {
    pub next: Packed,
    /// Tiles of this (colour, number) the runs take.
    pub tiles: u8,
    /// Jokers the runs take.
    pub jokers: u8,
    /// One act per current token, in packed order.
    pub acts: Vec<Act>,
    /// New runs, and whether a joker fills their first slot.
    pub starts: Vec<bool>,
    /// The token every run becomes, acts first then starts (0 for a run that ended).
    pub after: Vec<Tok>,
}

/// The rules that shape runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RunRules {
    /// Jokers allowed in one set (0, 1 or 2).
    pub jokers_per_set: u8,
    /// Runs may go over 13 to 1 (KD2).
    pub wrap: bool,
    /// A run may begin with a joker only if it reaches 13 (the canonical form of
    /// [`LEAD`]; only without wrap-around runs, and only where the joker on top is the
    /// higher reading or value does not count).
    pub joker_leads_reach_13: bool,
}

impl RunRules {
    /// Whether run configurations after number `n` compare by exact run length (see
    /// [`dominates`]).
    pub fn strict_len(self, n: u8) -> bool {
        self.wrap && n >= 12
    }

    /// Whether tokens remember a joker (one joker per set).
    pub fn track_joker(self) -> bool {
        self.jokers_per_set == 1
    }

    /// Every undominated way to treat the runs `packed` at number `n` with `tiles` tiles
    /// of the colour and `jokers` jokers available.
    pub fn options(self, packed: Packed, n: u8, tiles: u8, jokers: u8) -> Vec<ColOpt> {
        let tokens = unpack(packed);
        let mut gen = Gen {
            rules: self,
            tokens: &tokens,
            n,
            acts: Vec::with_capacity(tokens.len()),
            next: Vec::with_capacity(8),
            starts: Vec::new(),
            out: Vec::new(),
        };
        gen.continue_tokens(tiles, jokers);
        undominated(gen.out, self.strict_len(n))
    }
}

struct Gen<'a> {
    rules: RunRules,
    tokens: &'a [Tok],
    n: u8,
    acts: Vec<Act>,
    next: Vec<Tok>,
    starts: Vec<(Tok, bool)>,
    out: Vec<ColOpt>,
}

impl Gen<'_> {
    fn continue_tokens(&mut self, tiles: u8, jokers: u8) {
        let i = self.acts.len();
        if i == self.tokens.len() {
            self.start_runs(tiles, jokers);
            return;
        }
        let t = self.tokens[i];
        let k = kind(t);
        let track = self.rules.track_joker();
        let jokers_allowed = self.rules.jokers_per_set > 0 && !(track && has_joker(t));
        if k == OBLIGATION {
            self.step(Act::Pass, t, tiles, jokers);
            return;
        }
        let may_continue = k != HEAD || self.n <= head_deadline(tail(t));
        let may_end = match k {
            HEAD => !must_go_on(t),
            _ => len(t) == 3 && !leads_with_joker(t),
        };
        if may_end {
            let ended = if k == HEAD {
                token(OBLIGATION, 0, has_joker(t), tail(t))
            } else {
                0
            };
            self.step(Act::End, ended, tiles, jokers);
        }
        let lead = t & LEAD;
        if may_continue && tiles > 0 {
            let grown = token(k, (len(t) + 1).min(3), has_joker(t), tail(t)) | lead;
            self.step(Act::Tile, grown, tiles - 1, jokers);
        }
        if may_continue && jokers > 0 && jokers_allowed {
            let grown = token(k, (len(t) + 1).min(3), has_joker(t) || track, tail(t)) | lead;
            self.step(Act::Joker, grown, tiles, jokers - 1);
        }
    }

    fn step(&mut self, act: Act, next: Tok, tiles: u8, jokers: u8) {
        self.acts.push(act);
        self.next.push(next);
        self.continue_tokens(tiles, jokers);
        self.next.pop();
        self.acts.pop();
    }

    /// New runs starting at n, in non-decreasing order of (token, joker) so that each
    /// multiset of starts is generated once.
    fn start_runs(&mut self, tiles: u8, jokers: u8) {
        self.record();
        let wrap = self.rules.wrap;
        let n = self.n;
        let plain = token(if wrap && n <= 2 { EARLY } else { RUN }, 1, false, 0);
        let heads = 1..=if wrap && n == 1 { 3 } else { 0 };
        let kinds = std::iter::once(plain).chain(heads.map(|class| token(HEAD, 1, false, class)));
        for base in kinds {
            for joker in [false, true] {
                if self.starts.last().is_some_and(|&last| (base, joker) < last) {
                    continue;
                }
                if joker && (jokers == 0 || self.rules.jokers_per_set == 0) || !joker && tiles == 0
                {
                    continue;
                }
                let mut t = base;
                if joker && self.rules.track_joker() {
                    t |= JOKER;
                }
                if joker && self.rules.joker_leads_reach_13 {
                    t |= LEAD;
                }
                self.starts.push((base, joker));
                self.next.push(t);
                if joker {
                    self.start_runs(tiles, jokers - 1);
                } else {
                    self.start_runs(tiles - 1, jokers);
                }
                self.next.pop();
                self.starts.pop();
            }
        }
    }

    fn record(&mut self) {
        let mut sorted: Vec<Tok> = self.next.iter().copied().filter(|&t| t != 0).collect();
        if sorted.len() > 8 {
            return;
        }
        let next = pack(&mut sorted);
        let tiles = self.starts.iter().filter(|s| !s.1).count() as u8
            + self.acts.iter().filter(|&&a| a == Act::Tile).count() as u8;
        let jokers = self.starts.iter().filter(|s| s.1).count() as u8
            + self.acts.iter().filter(|&&a| a == Act::Joker).count() as u8;
        let seen = self
            .out
            .iter()
            .any(|o| o.next == next && o.tiles == tiles && o.jokers == jokers);
        if !seen {
            self.out.push(ColOpt {
                next,
                tiles,
                jokers,
                acts: self.acts.clone(),
                starts: self.starts.iter().map(|s| s.1).collect(),
                after: self.next.clone(),
            });
        }
    }
}

/// Drops options that another option with the same tiles and jokers dominates: its
/// open runs can do everything the other's can (each run matched by one at least as
/// long and no more restricted by a joker; runs left over are 3 long and may end).
fn undominated(options: Vec<ColOpt>, strict_len: bool) -> Vec<ColOpt> {
    let tokens: Vec<Vec<Tok>> = options.iter().map(|o| unpack(o.next)).collect();
    let mut keep = vec![true; options.len()];
    for i in 0..options.len() {
        for j in 0..options.len() {
            if i == j
                || !keep[j]
                || options[i].tiles != options[j].tiles
                || options[i].jokers != options[j].jokers
            {
                continue;
            }
            // j dominates i (ties broken by index so one of two equals stays).
            let equal = dominates(&tokens[i], &tokens[j], strict_len);
            if dominates(&tokens[j], &tokens[i], strict_len) && (!equal || j < i) {
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

/// Whether the runs `a` can do everything the runs `b` can: waiting parts after 13
/// agree, and every other run of `b` is matched by one of `a` at least as long, no more
/// restricted by a joker, of a kind that can do what it does (a plain run covers one
/// started early; a part after 13 only one with the same tail), the runs of `a` left
/// over 3 long so that they may end. With `strict_len` (wrap-around runs from number 12
/// on) a plain run covers only one exactly as long: a part before 1 of one or two tiles
/// must match its part after 13.
pub(crate) fn dominates(a: &[Tok], b: &[Tok], strict_len: bool) -> bool {
    let waiting = |v: &[Tok]| {
        let mut o: Vec<Tok> = v
            .iter()
            .copied()
            .filter(|&t| kind(t) == OBLIGATION)
            .collect();
        o.sort_unstable();
        o
    };
    if waiting(a) != waiting(b) {
        return false;
    }
    let ra: Vec<Tok> = a
        .iter()
        .copied()
        .filter(|&t| kind(t) != OBLIGATION)
        .collect();
    let rb: Vec<Tok> = b
        .iter()
        .copied()
        .filter(|&t| kind(t) != OBLIGATION)
        .collect();
    let covers = |x: Tok, y: Tok| {
        let kinds = match (kind(x), kind(y)) {
            (RUN, RUN | EARLY) | (EARLY, EARLY) => true,
            (HEAD, HEAD) => tail(x) == tail(y),
            _ => false,
        };
        let long = if strict_len && kind(y) == RUN {
            len(x) == len(y)
        } else {
            len(x) >= len(y)
        };
        kinds
            && long
            && (!has_joker(x) || has_joker(y))
            && (!leads_with_joker(x) || leads_with_joker(y))
    };
    fn assign(
        ra: &[Tok],
        rb: &[Tok],
        used: &mut [bool],
        k: usize,
        covers: &dyn Fn(Tok, Tok) -> bool,
    ) -> bool {
        if k == rb.len() {
            return ra
                .iter()
                .zip(used.iter())
                .all(|(&t, &u)| u || (len(t) == 3 && kind(t) != HEAD && !leads_with_joker(t)));
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

/// A summary of a colour's runs that [`dominates`] only lets grow: per count, `a`'s is
/// at least `b`'s whenever `a` dominates `b`, so `a` can dominate `b` only if
/// `dominance_signature(b) & !dominance_signature(a) == 0`. The counts are the runs not
/// waiting (every one of `b`'s is matched by a distinct one of `a`'s) at least 1, 2 and
/// 3 long (the match is at least as long), and those with no joker that did not begin
/// with one (the match is no more restricted); each capped at 4 and written in unary,
/// four bits each. The dominance check reads it first: the candidates it rejects cost a
/// mask test instead of four look-ups in the dominance table.
pub(crate) fn dominance_signature(packed: Packed) -> u16 {
    let mut counts = [0u8; 4];
    for t in unpack(packed) {
        if kind(t) == OBLIGATION {
            continue;
        }
        for (l, count) in counts.iter_mut().take(3).enumerate() {
            *count += u8::from(len(t) > l as u8);
        }
        counts[3] += u8::from(!has_joker(t) && !leads_with_joker(t));
    }
    counts.iter().enumerate().fold(0, |sig, (i, &c)| {
        sig | (((1u16 << c.min(4)) - 1) << (4 * i))
    })
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

/// How the runs open after 13 close: pairs (obligation, run) joining a waiting part
/// after 13 to the run before it, every other run ending at 13 (3 long); `None` if they
/// cannot.
pub(crate) fn close_at_13(tokens: &[Tok], track_joker: bool) -> Option<Vec<(usize, usize)>> {
    if tokens.iter().any(|&t| kind(t) == HEAD) {
        return None;
    }
    let obligations: Vec<usize> = (0..tokens.len())
        .filter(|&i| kind(tokens[i]) == OBLIGATION)
        .collect();
    let runs: Vec<usize> = (0..tokens.len())
        .filter(|&i| kind(tokens[i]) != OBLIGATION)
        .collect();
    fn go(
        tokens: &[Tok],
        obligations: &[usize],
        runs: &[usize],
        track_joker: bool,
        used: &mut [bool],
        pairs: &mut Vec<(usize, usize)>,
    ) -> bool {
        let k = pairs.len();
        if k == obligations.len() {
            // Unmatched runs end at 13 and must be 3 long.
            return runs
                .iter()
                .zip(used.iter())
                .all(|(&r, &u)| u || len(tokens[r]) == 3);
        }
        let o = tokens[obligations[k]];
        for j in 0..runs.len() {
            let t = tokens[runs[j]];
            let fits = match tail(o) {
                1 => len(t) == 1,
                2 => len(t) == 2,
                _ => len(t) == 3 && kind(t) == RUN,
            };
            if used[j] || !fits || (track_joker && has_joker(o) && has_joker(t)) {
                continue;
            }
            used[j] = true;
            pairs.push((obligations[k], runs[j]));
            if go(tokens, obligations, runs, track_joker, used, pairs) {
                return true;
            }
            pairs.pop();
            used[j] = false;
        }
        false
    }
    let mut used = vec![false; runs.len()];
    let mut pairs = Vec::new();
    go(
        tokens,
        &obligations,
        &runs,
        track_joker,
        &mut used,
        &mut pairs,
    )
    .then_some(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULES: RunRules = RunRules {
        jokers_per_set: 2,
        wrap: false,
        joker_leads_reach_13: true,
    };

    #[test]
    fn k2_a_run_shorter_than_three_must_go_on() {
        let mut open = [token(RUN, 2, false, 0)];
        let options = RULES.options(pack(&mut open), 5, 0, 0);
        assert!(options.is_empty(), "two tiles and nothing to go on with");
        let options = RULES.options(pack(&mut open), 5, 1, 0);
        assert!(options.iter().all(|o| o.tiles == 1));
        let mut long = [token(RUN, 3, false, 0)];
        let options = RULES.options(pack(&mut long), 5, 0, 0);
        assert_eq!(options.len(), 1, "a run of three may end");
        assert_eq!(options[0].next, 0);
    }

    #[test]
    fn a_run_that_began_with_a_joker_goes_on_to_13() {
        // [J r5 r6] would be [r5 r6 J] with the joker on top: only the second is searched.
        let options = RULES.options(0, 4, 0, 1);
        let lead = options
            .iter()
            .find(|o| o.jokers == 1)
            .expect("a joker may start a run");
        let mut open = unpack(lead.next);
        assert!(open.iter().all(|&t| leads_with_joker(t)));
        open[0] = token(RUN, 3, false, 0) | LEAD;
        let options = RULES.options(pack(&mut open), 7, 0, 0);
        assert!(options.is_empty(), "it may not end below 13");
        assert!(close_at_13(&open, false).is_some(), "it may end at 13");
        let plain = [token(RUN, 3, false, 0)];
        assert!(dominates(&plain, &open, false) && !dominates(&open, &plain, false));
    }

    /// The first `most` configurations the options reach from none under `rules`,
    /// number by number.
    fn reachable(rules: RunRules, most: usize) -> Vec<Packed> {
        let mut seen = vec![0];
        let mut frontier = vec![0];
        for n in 1..=13 {
            if seen.len() >= most {
                break;
            }
            let mut next = Vec::new();
            for &packed in &frontier {
                for tiles in 0..=2 {
                    for jokers in 0..=2 {
                        for o in rules.options(packed, n, tiles, jokers) {
                            if !seen.contains(&o.next) {
                                seen.push(o.next);
                                next.push(o.next);
                            }
                        }
                    }
                }
            }
            frontier = next;
        }
        seen.truncate(most);
        seen
    }

    #[test]
    fn a_configuration_dominates_another_only_where_its_signature_covers_the_others() {
        let old = RunRules {
            jokers_per_set: 1,
            wrap: true,
            joker_leads_reach_13: false,
        };
        for rules in [RULES, old] {
            // (All of them under wrap-around runs are thousands: minutes of pairs.)
            let configs = reachable(rules, 400);
            assert!(configs.len() > 20, "{} configurations", configs.len());
            let (mut pairs, mut rejected) = (0, 0);
            for &a in &configs {
                for &b in &configs {
                    let covered = dominance_signature(b) & !dominance_signature(a) == 0;
                    rejected += usize::from(!covered);
                    for strict in [false, true] {
                        if dominates(&unpack(a), &unpack(b), strict) {
                            pairs += 1;
                            assert!(covered, "{:?} dominates {:?}", unpack(a), unpack(b));
                        }
                    }
                }
            }
            assert!(pairs > configs.len(), "{pairs} dominating pairs");
            // The point of the signature: it rejects most pairs without the table.
            assert!(
                rejected * 2 > configs.len() * configs.len(),
                "{rejected} of {} pairs rejected",
                configs.len() * configs.len()
            );
        }
    }

    #[test]
    fn a_longer_open_run_covers_a_shorter_one() {
        let mut a = [token(RUN, 3, false, 0)];
        let mut b = [token(RUN, 1, false, 0)];
        assert!(dominates(&a, &b, false));
        assert!(!dominates(&b, &a, false));
        assert!(
            !dominates(&a, &b, true),
            "with wrap-around a run's length counts"
        );
        a[0] |= JOKER;
        b[0] = token(RUN, 1, false, 0);
        assert!(
            !dominates(&a, &b, false),
            "a run holding its one joker is more restricted"
        );
        assert_eq!(unpack(pack(&mut [3, 1, 2])), vec![3, 2, 1]);
    }
}
