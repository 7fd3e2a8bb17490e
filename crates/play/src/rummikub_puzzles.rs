//! Rummikub puzzles made from real deals: a table from the middle of a game the bots
//! played, and a rack whose best play lays every tile (or a stated number of them) only
//! by rearranging at least two of the table's sets.
//!
//! A puzzle comes from a seed ([`generate`]) and the daily puzzle from a date
//! ([`daily_seed`]): the same seed gives the same puzzle on every machine. For each
//! attempt (a sub-seed of the seed) a real round is dealt to 2–4 players and played by
//! the greedy bot; from a random turn on, before each turn, the player to move is a
//! candidate: the exact solver's best play for their whole rack (fewest sets changed
//! among the best, K5) names the tiles it lays. Those tiles become the puzzle's rack,
//! sometimes with one or two other tiles of the same rack that the best play cannot
//! also lay, and the puzzle is solved again as posed. It qualifies when its best play
//! lays at least [`MIN_GOAL`] tiles and the solver has proven that every play laying
//! as many changes at least two table sets (and at most [`MAX_CHANGED_SETS`]). Otherwise the round goes on, and after it
//! the next attempt, up to [`MAX_ATTEMPTS`].
//!
//! The puzzle player has made the initial meld (K4 does not apply). The rules are the
//! current ones (K10) without the turn clock.
//!
//! Difficulty, 1 to 5: the fewest table sets a best play changes, less one, plus the
//! jokers in play (those on the rack and those in the table sets the stated solution
//! changes), at most 5. Two sets to change and no joker is 1.
//!
//! See `docs/rummikub-puzzles.md`.

use std::fmt;

use rand::RngCore;
use rummikub::deal::{rng_from_seed, uniform_below};
use rummikub::tile::TileCounts;
use rummikub::{Action, Round, RuleSet, Set, Tile};
use rummikub_solver::{Objective, SolverCache, TableAndRack, TieBreak};

use crate::rummikub_bots::greedy_action;

/// Rounds dealt and played for one puzzle before the generator gives up.
pub const MAX_ATTEMPTS: u32 = 40;
/// The fewest tiles a puzzle asks to lay.
pub const MIN_GOAL: u32 = 3;
/// The most tiles a puzzle's rack holds.
pub const MAX_RACK: usize = 9;
/// The fewest sets the table holds when a candidate is taken from it.
pub const MIN_TABLE_SETS: usize = 5;
/// The most table sets a puzzle asks to change: more is not a puzzle a person enjoys.
pub const MAX_CHANGED_SETS: usize = 4;
/// The hardest difficulty.
pub const MAX_DIFFICULTY: u8 = 5;
/// Turns of one round the bots play at most (a round ends sooner, K8).
const MAX_TURNS: u32 = 120;
/// Search states one solve may store: bounds the time and memory of a puzzle.
const STATE_LIMIT: usize = 1_500_000;

/// A puzzle: the table, the rack, what to lay, and a best play that does it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RummikubPuzzle {
    /// The seed it was made from.
    pub seed: u64,
    /// The table as the round left it.
    pub table: Vec<Set>,
    /// The puzzle player's rack, in tile order.
    pub rack: Vec<Tile>,
    /// How many rack tiles the best play lays (the whole rack, or fewer).
    pub goal: u32,
    /// The fewest table sets any play laying `goal` tiles changes (at least 2).
    pub changed_sets: usize,
    /// Jokers in play: on the rack, and in the table sets the solution changes.
    pub jokers: usize,
    /// 1 to [`MAX_DIFFICULTY`] (module documentation).
    pub difficulty: u8,
    /// A best play: the whole new table.
    pub solution: Vec<Set>,
    /// Rounds dealt until this one qualified (1: the first).
    pub attempts: u32,
    /// Turns the bots played in that round before the position.
    pub turn: u32,
}

/// No puzzle within [`MAX_ATTEMPTS`] rounds.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no Rummikub puzzle qualified in {0} dealt rounds")]
pub struct NoPuzzle(pub u32);

/// The rules puzzles are played under: the current ones, without the turn clock.
pub fn puzzle_rules() -> RuleSet {
    RuleSet {
        turn_time_seconds: None,
        ..RuleSet::current()
    }
}

/// The puzzle of a seed (module documentation).
pub fn generate(seed: u64) -> Result<RummikubPuzzle, NoPuzzle> {
    let rules = puzzle_rules();
    let mut bots = SolverCache::new();
    let mut exact = SolverCache::with_state_limit(STATE_LIMIT);
    for attempt in 1..=MAX_ATTEMPTS {
        let sub_seed = mix(seed ^ mix(u64::from(attempt)));
        if let Some(mut puzzle) = from_round(&rules, sub_seed, &mut bots, &mut exact) {
            puzzle.seed = seed;
            puzzle.attempts = attempt;
            return Ok(puzzle);
        }
    }
    Err(NoPuzzle(MAX_ATTEMPTS))
}

/// One dealt round played by the bots, looking for a puzzle before each turn.
fn from_round(
    rules: &RuleSet,
    seed: u64,
    bots: &mut SolverCache,
    exact: &mut SolverCache,
) -> Option<RummikubPuzzle> {
    let mut rng = rng_from_seed(seed);
    let players = 2 + uniform_below(&mut rng, 3) as usize;
    let mut round = Round::new(rules.clone(), players, rng.next_u64()).ok()?;
    // Candidates start at a random turn, so that puzzles come from all stages of a game.
    let first_candidate = 6 + uniform_below(&mut rng, 24);
    for turn in 0..MAX_TURNS {
        if round.is_over() {
            return None;
        }
        let player = round.current_player();
        if turn >= first_candidate && round.table().len() >= MIN_TABLE_SETS {
            let rack = round.rack(player);
            if let Some(mut puzzle) = candidate(rules, round.table(), &rack, &mut rng, exact) {
                puzzle.turn = turn;
                return Some(puzzle);
            }
        }
        let action = greedy_action(bots, &round.view(player));
        // A bot's play is the solver's and the rules accept it; a refusal would end
        // this round as a source of puzzles.
        if round.apply(player, action).is_err() && round.apply(player, Action::Draw).is_err() {
            return None;
        }
    }
    None
}

/// The puzzle from one player's position, if it qualifies.
fn candidate(
    rules: &RuleSet,
    table: &[Set],
    rack: &[Tile],
    rng: &mut impl RngCore,
    exact: &mut SolverCache,
) -> Option<RummikubPuzzle> {
    let best = solve(rules, table, rack, exact)?;
    if best.changed_sets < 2 || best.placed.len() < MIN_GOAL as usize {
        return None;
    }
    let mut puzzle_rack = best.placed.clone();
    if puzzle_rack.len() > MAX_RACK {
        return None;
    }
    // Half the puzzles hold one or two tiles more than the best play can lay.
    let mut others = TileCounts::from_tiles(rack);
    for t in &best.placed {
        others.remove(*t);
    }
    let mut others = others.tiles();
    let extra = match uniform_below(rng, 4) {
        0 => 1,
        1 => 2,
        _ => 0,
    };
    for _ in 0..extra {
        if others.is_empty() || puzzle_rack.len() >= MAX_RACK {
            break;
        }
        let i = uniform_below(rng, others.len() as u32) as usize;
        puzzle_rack.push(others.swap_remove(i));
    }
    puzzle_rack.sort_by_key(|t| t.number_key());
    // Posed as the puzzle's own position: its best play and fewest changed sets.
    let posed = solve(rules, table, &puzzle_rack, exact)?;
    if !(2..=MAX_CHANGED_SETS).contains(&posed.changed_sets) || posed.tiles < MIN_GOAL {
        return None;
    }
    let jokers = jokers_in_play(table, &puzzle_rack, &posed.table);
    let difficulty = (posed.changed_sets - 1 + jokers).min(usize::from(MAX_DIFFICULTY)) as u8;
    Some(RummikubPuzzle {
        seed: 0,
        table: table.to_vec(),
        rack: puzzle_rack,
        goal: posed.tiles,
        changed_sets: posed.changed_sets,
        jokers,
        difficulty,
        solution: posed.table,
        attempts: 0,
        turn: 0,
    })
}

/// The best play by tiles, with the fewest sets changed proven; `None` when there is
/// none, the search was too large, or the tie-break was not searched to the end.
fn solve(
    rules: &RuleSet,
    table: &[Set],
    rack: &[Tile],
    exact: &mut SolverCache,
) -> Option<rummikub_solver::Solution> {
    let position = TableAndRack::with_sets(table.to_vec(), rack.to_vec(), true);
    exact
        .solve_with(
            rules,
            &position,
            Objective::Tiles,
            TieBreak::FewestChangedSets,
        )
        .ok()
        .flatten()
        .filter(|s| s.fewest_changed_proven)
}

/// The jokers on the rack, and those in the old sets that `new_table` does not keep.
pub fn jokers_in_play(table: &[Set], rack: &[Tile], new_table: &[Set]) -> usize {
    let rack_jokers = rack.iter().filter(|t| t.is_joker()).count();
    changed_sets(table, new_table)
        .iter()
        .map(|&i| table[i].jokers())
        .sum::<usize>()
        + rack_jokers
}

/// The old sets (by index) that are not on `new_table` unchanged: a set is kept when a
/// new set holds the very same tiles (KD12), each new set keeping at most one old one.
pub fn changed_sets(table: &[Set], new_table: &[Set]) -> Vec<usize> {
    let mut new_sets: Vec<Vec<Tile>> = new_table.iter().map(Set::sorted_tiles).collect();
    let mut changed = Vec::new();
    for (i, set) in table.iter().enumerate() {
        let key = set.sorted_tiles();
        match new_sets.iter().position(|s| *s == key) {
            Some(j) => {
                new_sets.swap_remove(j);
            }
            None => changed.push(i),
        }
    }
    changed
}

/// SplitMix64's finaliser: spreads a seed's bits.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A day of the Gregorian calendar (UTC), the daily puzzle's id: `2026-12-06`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PuzzleDate {
    /// Days since 1970-01-01.
    days: i64,
}

/// Text that is not a date `YYYY-MM-DD` from 1970 to 9999.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a date is written YYYY-MM-DD (1970 to 9999)")]
pub struct BadDate;

impl PuzzleDate {
    /// The day that holds `seconds` since the Unix epoch (UTC).
    pub fn from_unix_seconds(seconds: u64) -> PuzzleDate {
        PuzzleDate {
            days: (seconds / 86_400) as i64,
        }
    }

    /// Days since 1970-01-01.
    pub fn days(self) -> i64 {
        self.days
    }

    /// The day `n` days later (earlier when negative).
    pub fn plus_days(self, n: i64) -> PuzzleDate {
        PuzzleDate {
            days: self.days + n,
        }
    }

    /// Strictly `YYYY-MM-DD`, a day that exists.
    pub fn parse(text: &str) -> Result<PuzzleDate, BadDate> {
        let bytes = text.as_bytes();
        if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
            return Err(BadDate);
        }
        let number = |range: std::ops::Range<usize>| -> Result<i64, BadDate> {
            let part = &text[range];
            if !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(BadDate);
            }
            part.parse().map_err(|_| BadDate)
        };
        let (year, month, day) = (number(0..4)?, number(5..7)?, number(8..10)?);
        if year < 1970 || !(1..=12).contains(&month) || day < 1 || day > month_days(year, month) {
            return Err(BadDate);
        }
        Ok(PuzzleDate {
            days: days_from_civil(year, month, day),
        })
    }

    /// (year, month, day).
    pub fn civil(self) -> (i64, i64, i64) {
        civil_from_days(self.days)
    }
}

impl fmt::Display for PuzzleDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (y, m, d) = self.civil();
        write!(f, "{y:04}-{m:02}-{d:02}")
    }
}

fn month_days(year: i64, month: i64) -> i64 {
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The Gregorian date of a day number (the inverse of [`days_from_civil`]).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The seed of a date's daily puzzle: a hash of `rumi-daily-YYYY-MM-DD` (FNV-1a, then
/// SplitMix64), the same everywhere.
pub fn daily_seed(date: PuzzleDate) -> u64 {
    let text = format!("rumi-daily-{date}");
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    mix(hash)
}

/// The daily puzzle of a date.
pub fn daily(date: PuzzleDate) -> Result<RummikubPuzzle, NoPuzzle> {
    generate(daily_seed(date))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_read_and_write_back() {
        for text in ["1970-01-01", "2000-02-29", "2026-12-06", "2100-12-31"] {
            let date = PuzzleDate::parse(text).unwrap();
            assert_eq!(date.to_string(), text);
            assert_eq!(
                PuzzleDate::parse(&date.plus_days(1).to_string())
                    .unwrap()
                    .days(),
                date.days() + 1
            );
        }
        assert_eq!(PuzzleDate::parse("1970-01-02").unwrap().days(), 1);
        for bad in [
            "2026-02-29",
            "2026-13-01",
            "2026-1-01",
            "+026-01-01",
            "1969-12-31",
            "2026-12-06x",
        ] {
            assert!(PuzzleDate::parse(bad).is_err(), "{bad}");
        }
    }
}
