//! The Rummikub rules the browser client needs while a player builds a table: whether
//! a set is valid (and why not), its value and the order of its best reading, answered
//! by the rules crate itself (`rummikub::set`), compiled to WebAssembly, so that the
//! browser has no second implementation of the rules to drift from the server's.
//!
//! The interface is plain `extern "C"` functions over linear memory, read by a small
//! loader (`web/src/wasm/rules.ts`): the client writes a set's tile codes as text
//! (`r7 k13 J`) into [`input_buffer`], calls [`check_set`], which returns a
//! [`Verdict`], and reads the details with the `last_*` functions and [`order_buffer`].
//! No English leaves Rust: the client translates the verdict.

use std::cell::RefCell;

use rummikub::notation::parse_tiles;
use rummikub::set::{check_tiles, SetProblem};
use rummikub::tile::TILE_COUNT;
use rummikub::{RuleSet, Set, Tile};

/// Most tiles one call reads: a set cannot hold more tiles than the box.
pub const MAX_TILES: usize = TILE_COUNT;
/// Most bytes of tile text one call reads: every tile of the box as `r13 ` (the longest
/// code the notation reads is three characters, `r07`).
pub const INPUT_CAPACITY: usize = MAX_TILES * 4;

/// What [`check_set`] found, as a number the client translates. The numbers are stable:
/// the client's table of messages (`web/src/wasm/rules.ts`) follows them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Verdict {
    /// A group or a run under the rules.
    Valid = 0,
    /// Fewer than three tiles ([`last_tile_count`] says how many).
    TooShort = 1,
    /// More jokers than the rules allow in one set ([`last_joker_count`]).
    TooManyJokers = 2,
    /// Neither a group nor a run.
    NeitherRunNorGroup = 3,
    /// Not a list of tile codes: unknown code, not UTF-8, more than [`MAX_TILES`] tiles
    /// or [`INPUT_CAPACITY`] bytes, or a rule value out of range. Nothing else is read.
    UnreadableInput = 4,
}

/// What a check found, with what the client shows of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub verdict: Verdict,
    /// Tiles read (0 when the input was unreadable).
    pub tiles: usize,
    /// Jokers among them.
    pub jokers: usize,
    /// The value of the best reading (K4, KD3); 0 unless valid.
    pub value: u32,
    /// For a valid set, the index of each input tile in the order of its best reading
    /// (`Set::arranged`: runs ascending, each joker where it stands); else as laid.
    pub order: Vec<usize>,
}

impl Outcome {
    fn unreadable() -> Outcome {
        Outcome {
            verdict: Verdict::UnreadableInput,
            tiles: 0,
            jokers: 0,
            value: 0,
            order: Vec::new(),
        }
    }
}

/// The rules a set check depends on (K3), the rest as in the current rules.
pub fn set_rules(jokers_per_set: u8, run_wraps_around: bool) -> RuleSet {
    RuleSet {
        jokers_per_set,
        run_wraps_around,
        ..RuleSet::current()
    }
}

/// Checks the set written in `text` (tile codes as the notation writes them, `r7 k13 J`)
/// under `rules`, with the rules crate's own reading and check.
pub fn check_text(text: &[u8], rules: &RuleSet) -> Outcome {
    if text.len() > INPUT_CAPACITY {
        return Outcome::unreadable();
    }
    let Ok(text) = std::str::from_utf8(text) else {
        return Outcome::unreadable();
    };
    let Ok(tiles) = parse_tiles(text) else {
        return Outcome::unreadable();
    };
    if tiles.len() > MAX_TILES {
        return Outcome::unreadable();
    }
    let jokers = tiles.iter().filter(|t| t.is_joker()).count();
    let as_laid: Vec<usize> = (0..tiles.len()).collect();
    let (verdict, value, order) = match check_tiles(&tiles, rules) {
        Ok(reading) => {
            let arranged = Set::new(tiles.clone()).arranged_as(&reading);
            (
                Verdict::Valid,
                reading.value,
                places(&tiles, arranged.tiles()),
            )
        }
        Err(SetProblem::TooShort(_)) => (Verdict::TooShort, 0, as_laid),
        Err(SetProblem::TooManyJokers { .. }) => (Verdict::TooManyJokers, 0, as_laid),
        Err(SetProblem::NeitherRunNorGroup) => (Verdict::NeitherRunNorGroup, 0, as_laid),
    };
    Outcome {
        verdict,
        tiles: tiles.len(),
        jokers,
        value,
        order,
    }
}

/// For each tile of `arranged` (the same tiles as `laid`, reordered), the index in `laid`
/// of a copy not yet taken: the client moves its own tile objects, not codes.
fn places(laid: &[Tile], arranged: &[Tile]) -> Vec<usize> {
    let mut taken = vec![false; laid.len()];
    arranged
        .iter()
        .filter_map(|tile| {
            let i = (0..laid.len()).find(|&i| !taken[i] && laid[i] == *tile)?;
            taken[i] = true;
            Some(i)
        })
        .collect()
}

/// The memory the exports share with the client: one input, the last outcome.
struct Buffers {
    input: [u8; INPUT_CAPACITY],
    order: [u8; MAX_TILES],
    last: Outcome,
}

thread_local! {
    // One per thread: the browser has one; native tests run in several at once.
    static BUFFERS: RefCell<Buffers> = const {
        RefCell::new(Buffers {
            input: [0; INPUT_CAPACITY],
            order: [0; MAX_TILES],
            last: Outcome {
                verdict: Verdict::UnreadableInput,
                tiles: 0,
                jokers: 0,
                value: 0,
                order: Vec::new(),
            },
        })
    };
}

/// Where the client writes a set's tile text (at most [`input_capacity`] bytes) before
/// calling [`check_set`].
#[no_mangle]
pub extern "C" fn input_buffer() -> *mut u8 {
    BUFFERS.with(|buffers| {
        // A raw pointer, never a reference: the client writes here between calls.
        let buffers = buffers.as_ptr();
        // SAFETY: `buffers` points at the thread's live `Buffers`; no reference is made.
        unsafe { std::ptr::addr_of_mut!((*buffers).input) as *mut u8 }
    })
}

/// How many bytes [`input_buffer`] holds.
#[no_mangle]
pub extern "C" fn input_capacity() -> u32 {
    INPUT_CAPACITY as u32
}

/// Checks the set whose text is the first `length` bytes of [`input_buffer`], under
/// the rules' `jokers_per_set` and `run_wraps_around` (0 or 1), and keeps the outcome
/// for the `last_*` functions. Returns the [`Verdict`] as its number.
#[no_mangle]
pub extern "C" fn check_set(length: u32, jokers_per_set: u32, run_wraps_around: u32) -> u32 {
    BUFFERS.with(|buffers| {
        let mut buffers = buffers.borrow_mut();
        let rules = match (u8::try_from(jokers_per_set), run_wraps_around) {
            (Ok(jokers), 0 | 1) => Some(set_rules(jokers, run_wraps_around == 1)),
            _ => None,
        };
        let outcome = match (rules, usize::try_from(length)) {
            (Some(rules), Ok(length)) if length <= INPUT_CAPACITY => {
                check_text(&buffers.input[..length], &rules)
            }
            _ => Outcome::unreadable(),
        };
        for (slot, &index) in buffers.order.iter_mut().zip(&outcome.order) {
            // (an index below MAX_TILES, which fits a byte)
            *slot = index as u8;
        }
        let verdict = outcome.verdict;
        buffers.last = outcome;
        verdict as u32
    })
}

/// Tiles the last [`check_set`] read.
#[no_mangle]
pub extern "C" fn last_tile_count() -> u32 {
    BUFFERS.with(|buffers| buffers.borrow().last.tiles as u32)
}

/// Jokers among the tiles the last [`check_set`] read.
#[no_mangle]
pub extern "C" fn last_joker_count() -> u32 {
    BUFFERS.with(|buffers| buffers.borrow().last.jokers as u32)
}

/// The value of the last set checked at its best reading; 0 unless it was valid.
#[no_mangle]
pub extern "C" fn last_value() -> u32 {
    BUFFERS.with(|buffers| buffers.borrow().last.value)
}

/// The last set's order of reading: [`last_tile_count`] bytes, each the index of an
/// input tile, valid until the next [`check_set`].
#[no_mangle]
pub extern "C" fn order_buffer() -> *const u8 {
    BUFFERS.with(|buffers| {
        let buffers = buffers.as_ptr();
        // SAFETY: as in `input_buffer`.
        unsafe { std::ptr::addr_of!((*buffers).order) as *const u8 }
    })
}
