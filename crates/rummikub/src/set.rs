//! Sets (K3): groups and runs, jokers, ambiguous readings, and the value of a set (K4).

use std::fmt;

use crate::rules::RuleSet;
use crate::tile::{Colour, Tile, MAX_NUMBER};

/// Fewest tiles in a set (K3).
pub const MIN_SET_LEN: usize = 3;
/// Most tiles in a group: one per colour (K3).
pub const MAX_GROUP_LEN: usize = 4;

/// A set of tiles on the table, as the player laid it. Validity is not part of the type:
/// a submitted table is checked set by set, and the engine keeps only valid tables.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Set {
    tiles: Vec<Tile>,
}

impl Set {
    pub fn new(tiles: Vec<Tile>) -> Set {
        Set { tiles }
    }

    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    pub fn jokers(&self) -> usize {
        self.tiles.iter().filter(|t| t.is_joker()).count()
    }

    /// The tiles in sorted order: two sets are "the same set" when these agree, since
    /// the order in which a player lists tiles does not matter.
    pub fn sorted_tiles(&self) -> Vec<Tile> {
        let mut tiles = self.tiles.clone();
        tiles.sort();
        tiles
    }

    /// Checks the set under `rules` and returns its highest-valued reading (KD3).
    pub fn check(&self, rules: &RuleSet) -> Result<Reading, SetProblem> {
        check_tiles(&self.tiles, rules)
    }

    /// The set with its tiles in the order of its best reading (runs ascending with each
    /// joker in the gap it fills), for showing the table. Invalid sets are left as laid.
    pub fn arranged(&self, rules: &RuleSet) -> Set {
        match self.check(rules) {
            Ok(reading) => self.arranged_as(&reading),
            Err(_) => self.clone(),
        }
    }

    /// The set with its tiles in the order of `reading` (one of its readings).
    pub fn arranged_as(&self, reading: &Reading) -> Set {
        let mut numbered: Vec<Tile> = self
            .tiles
            .iter()
            .copied()
            .filter(|t| !t.is_joker())
            .collect();
        let tiles = reading
            .represented
            .iter()
            .map(
                |&stands_for| match numbered.iter().position(|&t| t == stands_for) {
                    Some(i) => numbered.remove(i),
                    None => Tile::JOKER,
                },
            )
            .collect();
        Set { tiles }
    }
}

impl fmt::Display for Set {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, tile) in self.tiles.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{tile}")?;
        }
        f.write_str("]")
    }
}

impl fmt::Debug for Set {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Whether a reading takes the set as a group or a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetKind {
    Group,
    Run,
}

/// One valid way to read a set: which tile each position stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    pub kind: SetKind,
    /// The tile every position stands for (a joker replaced by the tile it represents);
    /// runs in ascending order, groups in colour order.
    pub represented: Vec<Tile>,
    /// Sum of the represented numbers (K4: a joker counts as the tile it stands for).
    pub value: u32,
}

/// Why a set is not valid (without its place on the table; see `TurnError::InvalidSet`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetProblem {
    #[error("has only {0} tiles; a set needs at least 3")]
    TooShort(usize),
    #[error("has {jokers} jokers; these rules allow at most {allowed} per set")]
    TooManyJokers { jokers: usize, allowed: u8 },
    #[error("is neither a run nor a group")]
    NeitherRunNorGroup,
}

/// Every valid reading of the tiles (K3): a set is valid if any reading is, so an
/// ambiguous set such as `[r5 J J]` (group of 5s, or run 3–5, 4–6, 5–7) is accepted.
pub fn readings(tiles: &[Tile], rules: &RuleSet) -> Vec<Reading> {
    let jokers = tiles.iter().filter(|t| t.is_joker()).count();
    if tiles.len() < MIN_SET_LEN || jokers > usize::from(rules.jokers_per_set) {
        return Vec::new();
    }
    let mut found = run_readings(tiles, jokers, rules);
    found.extend(group_reading(tiles, jokers));
    found
}

/// The highest-valued reading, or why there is none.
pub fn check_tiles(tiles: &[Tile], rules: &RuleSet) -> Result<Reading, SetProblem> {
    if tiles.len() < MIN_SET_LEN {
        return Err(SetProblem::TooShort(tiles.len()));
    }
    let jokers = tiles.iter().filter(|t| t.is_joker()).count();
    // K3: up to two jokers in one set (old rules: one).
    if jokers > usize::from(rules.jokers_per_set) {
        return Err(SetProblem::TooManyJokers {
            jokers,
            allowed: rules.jokers_per_set,
        });
    }
    // KD3: an ambiguous set is worth its highest valid reading; on equal value the
    // first found (runs before the group, as in `readings`) is shown.
    match (
        best_run_reading(tiles, jokers, rules),
        group_reading(tiles, jokers),
    ) {
        (Some(run), Some(group)) if group.value > run.value => Ok(group),
        (Some(run), _) => Ok(run),
        (None, Some(group)) => Ok(group),
        (None, None) => Err(SetProblem::NeitherRunNorGroup),
    }
}

/// K3 group: 3 or 4 tiles of one number, every colour at most once.
fn group_reading(tiles: &[Tile], jokers: usize) -> Option<Reading> {
    if tiles.len() > MAX_GROUP_LEN {
        return None;
    }
    let numbered: Vec<Tile> = tiles.iter().copied().filter(|t| !t.is_joker()).collect();
    let number = numbered.first()?.number()?;
    let mut colours = Vec::with_capacity(4);
    for tile in &numbered {
        let colour = tile.colour()?;
        if tile.number() != Some(number) || colours.contains(&colour) {
            return None;
        }
        colours.push(colour);
    }
    // Jokers stand for the missing colours, in colour order.
    let mut missing = Colour::ALL.iter().filter(|c| !colours.contains(c));
    let mut represented = numbered.clone();
    for _ in 0..jokers {
        represented.push(Tile::new(*missing.next()?, number)?);
    }
    represented.sort();
    Some(Reading {
        kind: SetKind::Group,
        value: u32::from(number) * tiles.len() as u32,
        represented,
    })
}

/// K3 run: 3 or more consecutive numbers of one colour; 1 is low and 13 is never
/// followed by 1, unless the rules let runs wrap around (old rules: 12-13-1).
fn run_readings(tiles: &[Tile], jokers: usize, rules: &RuleSet) -> Vec<Reading> {
    let Some(windows) = RunWindows::of(tiles, jokers, rules) else {
        return Vec::new();
    };
    windows
        .starts()
        .map(|start| windows.reading(start))
        .collect()
}

/// The highest-valued run reading (the first of equals), without building the others.
fn best_run_reading(tiles: &[Tile], jokers: usize, rules: &RuleSet) -> Option<Reading> {
    let windows = RunWindows::of(tiles, jokers, rules)?;
    let mut best: Option<(usize, u32)> = None;
    for start in windows.starts() {
        let value = windows.value(start);
        if best.is_none_or(|(_, v)| value > v) {
            best = Some((start, value));
        }
    }
    best.map(|(start, _)| windows.reading(start))
}

/// The tiles of a would-be run: one colour, distinct numbers (a bit each), and the
/// windows of consecutive numbers they can be read as.
struct RunWindows {
    colour: Colour,
    numbers: u16,
    len: usize,
    last_start: usize,
}

impl RunWindows {
    fn of(tiles: &[Tile], jokers: usize, rules: &RuleSet) -> Option<RunWindows> {
        let len = tiles.len();
        let max = usize::from(MAX_NUMBER);
        if len > max {
            return None;
        }
        // Only jokers cannot happen in a valid set (at most two jokers, at least three
        // tiles), but without a numbered tile there is no colour to read.
        let mut colour = None;
        let mut numbers = 0u16;
        for tile in tiles.iter().filter(|t| !t.is_joker()) {
            let (c, n) = (tile.colour()?, tile.number()?);
            if *colour.get_or_insert(c) != c || numbers & (1 << n) != 0 {
                return None;
            }
            numbers |= 1 << n;
        }
        debug_assert_eq!(numbers.count_ones() as usize + jokers, len);
        let last_start = if rules.run_wraps_around {
            max
        } else {
            max - len + 1
        };
        Some(RunWindows {
            colour: colour?,
            numbers,
            len,
            last_start,
        })
    }

    /// The number at position i of the window from `start` (wrapping past 13).
    fn number_at(&self, start: usize, i: usize) -> u8 {
        ((start - 1 + i) % usize::from(MAX_NUMBER)) as u8 + 1
    }

    /// The starts of the windows that hold every numbered tile, in order. A full
    /// 13-tile wrap-around run reads the same from every start: one is kept.
    fn starts(&self) -> impl Iterator<Item = usize> + '_ {
        let max = usize::from(MAX_NUMBER);
        let holds_all = move |start: usize| {
            (1..=max)
                .filter(|&n| self.numbers & (1 << n) != 0)
                .all(|n| (n + max - start) % max < self.len)
        };
        let last = if self.len == max { 1 } else { self.last_start };
        (1..=last).filter(move |&start| holds_all(start))
    }

    fn value(&self, start: usize) -> u32 {
        (0..self.len)
            .map(|i| u32::from(self.number_at(start, i)))
            .sum()
    }

    fn reading(&self, start: usize) -> Reading {
        Reading {
            kind: SetKind::Run,
            value: self.value(start),
            represented: (0..self.len)
                .filter_map(|i| Tile::new(self.colour, self.number_at(start, i)))
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_set;

    fn check(text: &str, rules: &RuleSet) -> Result<Reading, SetProblem> {
        parse_set(text).unwrap().check(rules)
    }

    fn value(text: &str) -> u32 {
        check(text, &RuleSet::current()).unwrap().value
    }

    #[test]
    fn k3_groups_are_three_or_four_colours_of_one_number() {
        let rules = RuleSet::current();
        assert_eq!(check("[r3 k3 b3]", &rules).unwrap().kind, SetKind::Group);
        assert_eq!(value("[r3 k3 b3 o3]"), 12);
        assert_eq!(
            check("[r3 r3 b3]", &rules),
            Err(SetProblem::NeitherRunNorGroup)
        );
        assert_eq!(
            check("[r3 k3 b4]", &rules),
            Err(SetProblem::NeitherRunNorGroup)
        );
        assert_eq!(
            check("[r3 k3 b3 o3 J]", &rules),
            Err(SetProblem::NeitherRunNorGroup)
        );
    }

    #[test]
    fn k3_runs_are_consecutive_numbers_of_one_colour_in_any_listed_order() {
        let rules = RuleSet::current();
        assert_eq!(check("[o7 o8 o9]", &rules).unwrap().kind, SetKind::Run);
        assert_eq!(value("[o9 o7 o8]"), 24);
        assert_eq!(value("[b1 b2 b3 b4 b5 b6 b7 b8 b9 b10 b11 b12 b13]"), 91);
        assert_eq!(
            check("[o7 o8 o10]", &rules),
            Err(SetProblem::NeitherRunNorGroup)
        );
        assert_eq!(
            check("[o7 o8 r9]", &rules),
            Err(SetProblem::NeitherRunNorGroup)
        );
    }

    #[test]
    fn k3_sets_need_three_tiles() {
        let rules = RuleSet::current();
        assert_eq!(check("[r1 r2]", &rules), Err(SetProblem::TooShort(2)));
        assert_eq!(check("[]", &rules), Err(SetProblem::TooShort(0)));
    }

    #[test]
    fn k3_thirteen_is_never_followed_by_one_in_current_rules_but_is_in_old() {
        let current = RuleSet::current();
        let old = RuleSet::old();
        assert_eq!(
            check("[r12 r13 r1]", &current),
            Err(SetProblem::NeitherRunNorGroup)
        );
        assert_eq!(
            check("[r13 r1 r2]", &current),
            Err(SetProblem::NeitherRunNorGroup)
        );
        // KD2: a wrapped run counts the 1 as 1.
        assert_eq!(check("[r12 r13 r1]", &old).unwrap().value, 26);
        assert_eq!(check("[r13 r1 r2]", &old).unwrap().value, 16);
        let full = "[r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13]";
        assert_eq!(check(full, &old).unwrap().value, 91);
    }

    #[test]
    fn k3_jokers_fill_gaps_and_ends_up_to_two_in_current_rules_one_in_old() {
        let current = RuleSet::current();
        let old = RuleSet::old();
        assert_eq!(value("[r4 J r6]"), 15);
        assert_eq!(value("[J r5 J]"), 18);
        assert!(check("[b9 J J k9]", &current).is_ok());
        assert_eq!(
            check("[J r5 J]", &old),
            Err(SetProblem::TooManyJokers {
                jokers: 2,
                allowed: 1
            })
        );
        assert!(check("[r4 J r6]", &old).is_ok());
        let error = check("[J r5 J]", &old).unwrap_err().to_string();
        assert_eq!(error, "has 2 jokers; these rules allow at most 1 per set");
    }

    #[test]
    fn k3_ambiguous_sets_are_valid_if_any_reading_is() {
        let rules = RuleSet::current();
        let all = readings(parse_set("[r5 J J]").unwrap().tiles(), &rules);
        let kinds: Vec<(SetKind, u32)> = all.iter().map(|r| (r.kind, r.value)).collect();
        assert_eq!(
            kinds,
            vec![
                (SetKind::Run, 12),
                (SetKind::Run, 15),
                (SetKind::Run, 18),
                (SetKind::Group, 15)
            ]
        );
        assert_eq!(
            check("[k13 J o13]", &rules).unwrap().represented,
            parse_set("[r13 k13 o13]").unwrap().tiles()
        );
    }

    #[test]
    fn kd3_an_ambiguous_set_is_worth_its_highest_reading() {
        // [r12 r13 J] can only be 11-12-13; [r5 r6 J] may be 4-6 or 5-7 and counts 18.
        assert_eq!(value("[r12 r13 J]"), 36);
        assert_eq!(value("[r5 r6 J]"), 18);
        assert_eq!(value("[J J r1]"), 6);
    }

    #[test]
    fn kd8_arranged_sets_show_the_joker_where_it_stands() {
        let rules = RuleSet::current();
        let set = parse_set("[r6 J r4]").unwrap();
        assert_eq!(set.arranged(&rules).to_string(), "[r4 J r6]");
        let set = parse_set("[J o3 b3]").unwrap();
        assert_eq!(set.arranged(&rules).to_string(), "[J b3 o3]");
    }
}
