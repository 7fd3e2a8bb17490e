//! Fast legal-move generation: bit sets over a board's precomputed placements, updated
//! incrementally after every stone, so listing, counting or drawing a legal move is a
//! few AND operations per 64 placements.
//!
//! A placement is legal for a colour when (see [`crate::rules::check_placement`]):
//! - it fits the build: in each of its columns its lowest cube sits exactly on the
//!   column's current height (R3 no hole, and no overlap since the build is a height
//!   map). `mismatch[p]` counts the columns where this fails; `fits` has bit p set
//!   when it is zero. Only the columns a stone lands in change, so only the placements
//!   standing in those columns at the old or new height are touched. Heights only grow
//!   in these rules, so a placement whose column has risen past its bottom is dead for
//!   good: one bit-set operation clears all of them (`alive`, `fits`), and only the
//!   placements that now rest on the new height are counted down one by one. (A rule
//!   that takes stones away, like R16's dismantling, must build a new `FastGen`.)
//! - its contact rule holds (R6, R7): `contact[colour]` has bit p set once p touches a
//!   cube of that colour face to face; `contact_any` for any colour; a static bit set
//!   marks placements with a cube on the board.
//! - its stone is still in the colour's supply: placements are sorted by stone, so
//!   this is a range of indices.
//! - Rumis+: R14 first stones need `edge_any` (a cube shares an edge with a placed cube)
//!   and not `first_face` (face contact with a first stone); both are kept only while
//!   some colour still has its first stone to place (`track_first`). R15 (inverse) is
//!   `contact_any & !contact[colour]`. R16's red line is a mask laid over `alive` when
//!   the generator is built: placements outside the allowed area never fit. After a
//!   stone is taken off (R16) the position builds a new generator and replays the
//!   stones still on the build.

use crate::board::{Board, Move};
use crate::rules::Contact;
use crate::stones::Stone;

/// Which contact rule applies to the colour to move ([`Contact`], with the colour).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ContactRule {
    pub contact: Contact,
    pub colour: usize,
}

#[derive(Clone)]
pub(crate) struct FastGen {
    words: usize,
    fits: Vec<u64>,
    alive: Vec<u64>,
    mismatch: Vec<u8>,
    contact: Vec<u64>,
    contact_any: Vec<u64>,
    /// Per colour, then for any colour: cells whose placements already have their
    /// contact bit, so each cell's bit set is merged once per colour.
    merged: Vec<Vec<bool>>,
    /// R14: placements with a cube sharing an edge with a placed cube; placements
    /// touching a colour's first stone face to face; cells merged into `edge_any`.
    edge_any: Vec<u64>,
    first_face: Vec<u64>,
    edge_merged: Vec<bool>,
}

impl FastGen {
    /// A generator for the empty build. `allowed` (R16's red line) masks the
    /// placements that may ever be played.
    pub fn new(board: &Board, colours: usize, allowed: Option<&[u64]>) -> FastGen {
        let words = board.words;
        let mismatch = board.initial_mismatch().to_vec();
        let mut fits = vec![0u64; words];
        for (i, &m) in mismatch.iter().enumerate() {
            if m == 0 {
                fits[i / 64] |= 1 << (i % 64);
            }
        }
        let mut alive = vec![!0; words];
        if let Some(allowed) = allowed {
            for ((f, a), m) in fits.iter_mut().zip(alive.iter_mut()).zip(allowed) {
                *f &= m;
                *a &= m;
            }
        }
        FastGen {
            words,
            fits,
            alive,
            mismatch,
            contact: vec![0; words * colours],
            contact_any: vec![0; words],
            merged: vec![vec![false; board.cell_count()]; colours + 1],
            edge_any: Vec::new(),
            first_face: Vec::new(),
            edge_merged: Vec::new(),
        }
    }

    /// R14: keeps the first-stone bit sets for the placement just made (`first`: it
    /// was its colour's first stone). Called before [`FastGen::place`] while some
    /// colour has its first stone still to place.
    pub fn track_first(
        &mut self,
        board: &Board,
        mv: Move,
        first: bool,
        occupied: impl Fn(u16) -> bool,
    ) {
        if self.edge_any.is_empty() {
            self.edge_any = vec![0; self.words];
            self.first_face = vec![0; self.words];
            self.edge_merged = vec![false; board.cell_count()];
        }
        let p = board.placement(mv);
        if first {
            for &cell in board.neighbours(p) {
                if !occupied(cell) {
                    for (f, t) in self.first_face.iter_mut().zip(board.containing(cell)) {
                        *f |= t;
                    }
                }
            }
        }
        for &cube in p.cells() {
            for n in board.edge_neighbours(board.cell(cube)) {
                let Some(i) = board.cell_index(n) else {
                    continue;
                };
                if occupied(i) || p.cells().contains(&i) || self.edge_merged[i as usize] {
                    continue;
                }
                self.edge_merged[i as usize] = true;
                for (e, t) in self.edge_any.iter_mut().zip(board.containing(i)) {
                    *e |= t;
                }
            }
        }
    }

    /// Updates the bit sets for `mv` placed by `colour`. `heights` are the column
    /// heights before the stone was placed; `occupied` tells whether a cell is taken.
    pub fn place(
        &mut self,
        board: &Board,
        mv: Move,
        colour: usize,
        heights: &[u8],
        occupied: impl Fn(u16) -> bool,
    ) {
        let p = board.placement(mv);
        for span in p.spans() {
            let column = span.column as usize;
            debug_assert_eq!(heights[column] as usize, span.bottom as usize);
            let died = board.resting_on(column, span.bottom as usize);
            for ((f, a), d) in self.fits.iter_mut().zip(self.alive.iter_mut()).zip(died) {
                *f &= !d;
                *a &= !d;
            }
            // Branch-free: dead placements (alive bit 0) are left as they are.
            let (alive, fits, mismatch) = (&self.alive, &mut self.fits, &mut self.mismatch);
            for &q in board.placements_by_column_bottom(column, span.top as usize) {
                let (w, b) = (q as usize / 64, q % 64);
                let live = (alive[w] >> b) & 1;
                let m = &mut mismatch[q as usize];
                *m -= live as u8;
                fits[w] |= (live & (*m == 0) as u64) << b;
            }
        }
        // A placement through an occupied cell never fits again, so such cells need no
        // contact bits; a cell already merged for this colour (or any) adds nothing new.
        let w = self.words;
        let any_slot = self.merged.len() - 1;
        for &cell in board.neighbours(p) {
            if occupied(cell) {
                continue;
            }
            let touching = board.containing(cell);
            if !self.merged[colour][cell as usize] {
                self.merged[colour][cell as usize] = true;
                let own = &mut self.contact[colour * w..(colour + 1) * w];
                for (o, t) in own.iter_mut().zip(touching) {
                    *o |= t;
                }
            }
            if !self.merged[any_slot][cell as usize] {
                self.merged[any_slot][cell as usize] = true;
                for (a, t) in self.contact_any.iter_mut().zip(touching) {
                    *a |= t;
                }
            }
        }
    }

    /// Calls `f` with each legal word's bits (already masked to the stone's range), by
    /// stone; stops early when `f` returns false. The contact rule is matched once, so
    /// each rule gets its own loop.
    #[inline]
    fn scan(
        &self,
        board: &Board,
        rule: ContactRule,
        stones_left: u16,
        f: impl FnMut(usize, u64) -> bool,
    ) {
        let (fits, any, on_board) = (&self.fits[..], &self.contact_any[..], board.on_board_bits());
        let own = &self.contact[rule.colour * self.words..(rule.colour + 1) * self.words];
        match rule.contact {
            Contact::Anywhere => scan_words(board, stones_left, f, |w| fits[w]),
            Contact::FirstStone => {
                scan_words(board, stones_left, f, |w| fits[w] & any[w] & on_board[w])
            }
            Contact::Own => scan_words(board, stones_left, f, |w| fits[w] & own[w]),
            Contact::FirstStoneByEdge if self.edge_any.is_empty() => {}
            Contact::FirstStoneByEdge => {
                let (edge, first) = (&self.edge_any[..], &self.first_face[..]);
                scan_words(board, stones_left, f, |w| {
                    fits[w] & edge[w] & !first[w] & on_board[w]
                })
            }
            Contact::Inverse => scan_words(board, stones_left, f, |w| fits[w] & any[w] & !own[w]),
            Contact::FirstRebuilt => {
                scan_words(board, stones_left, f, |w| fits[w] & own[w] & on_board[w])
            }
        }
    }

    pub fn for_each(
        &self,
        board: &Board,
        rule: ContactRule,
        stones_left: u16,
        mut f: impl FnMut(Move),
    ) {
        self.scan(board, rule, stones_left, |w, mut bits| {
            while bits != 0 {
                f(Move((w * 64 + bits.trailing_zeros() as usize) as u32));
                bits &= bits - 1;
            }
            true
        });
    }

    pub fn count(&self, board: &Board, rule: ContactRule, stones_left: u16) -> usize {
        let mut n = 0;
        self.scan(board, rule, stones_left, |_, bits| {
            n += bits.count_ones() as usize;
            true
        });
        n
    }

    pub fn any(&self, board: &Board, rule: ContactRule, stones_left: u16) -> bool {
        let mut found = false;
        self.scan(board, rule, stones_left, |_, _| {
            found = true;
            false
        });
        found
    }

    /// The `n`-th legal move in index order (n < count).
    pub fn nth(&self, board: &Board, rule: ContactRule, stones_left: u16, n: usize) -> Move {
        let mut left = n;
        let mut found = Move(u32::MAX);
        self.scan(board, rule, stones_left, |w, mut bits| {
            let ones = bits.count_ones() as usize;
            if left >= ones {
                left -= ones;
                return true;
            }
            for _ in 0..left {
                bits &= bits - 1;
            }
            found = Move((w * 64 + bits.trailing_zeros() as usize) as u32);
            false
        });
        found
    }
}

/// The legal words of one contact rule (`word` gives them), stone by stone in supply,
/// masked to each stone's range of placements; stops when `f` returns false.
#[inline]
fn scan_words(
    board: &Board,
    stones_left: u16,
    mut f: impl FnMut(usize, u64) -> bool,
    word: impl Fn(usize) -> u64,
) {
    for s in 0..Stone::ALL.len() {
        if stones_left & (1 << s) == 0 {
            continue;
        }
        let range = board.stone_range(s);
        if range.is_empty() {
            continue;
        }
        let (lo, hi) = (range.start as usize, range.end as usize);
        let (first, last) = (lo / 64, (hi - 1) / 64);
        for w in first..=last {
            let mut bits = word(w);
            if w == first {
                bits &= !0u64 << (lo % 64);
            }
            if w == last && hi % 64 != 0 {
                bits &= !0u64 >> (64 - hi % 64);
            }
            if bits != 0 && !f(w, bits) {
                return;
            }
        }
    }
}
