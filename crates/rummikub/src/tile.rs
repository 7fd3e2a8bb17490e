//! Tiles (K1): numbers 1–13 in four colours, each twice, plus two jokers: 106 in all.

use std::fmt;
use std::str::FromStr;

/// The four tile colours, written `r b k o` (black is `k` so it differs from blue).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    Red,
    Blue,
    Black,
    Orange,
}

impl Colour {
    /// All colours in notation order.
    pub const ALL: [Colour; 4] = [Colour::Red, Colour::Blue, Colour::Black, Colour::Orange];

    /// The notation letter of the colour.
    pub fn letter(self) -> char {
        match self {
            Colour::Red => 'r',
            Colour::Blue => 'b',
            Colour::Black => 'k',
            Colour::Orange => 'o',
        }
    }

    /// The colour for a notation letter (either case).
    pub fn from_letter(letter: char) -> Option<Colour> {
        match letter.to_ascii_lowercase() {
            'r' => Some(Colour::Red),
            'b' => Some(Colour::Blue),
            'k' => Some(Colour::Black),
            'o' => Some(Colour::Orange),
            _ => None,
        }
    }

    fn index(self) -> u8 {
        self as u8
    }
}

/// Lowest and highest printed number.
pub const MIN_NUMBER: u8 = 1;
pub const MAX_NUMBER: u8 = 13;
/// Copies of each numbered tile and number of jokers (K1).
pub const COPIES: u8 = 2;
pub const JOKERS: u8 = 2;
/// Tiles in a full box (K1): 4 × 13 × 2 + 2.
pub const TILE_COUNT: usize = 106;
/// Distinct tile kinds: 52 numbered plus the joker; indexes [`TileCounts`].
pub const KINDS: usize = 53;

/// One tile. The two copies of a numbered tile are indistinguishable, as are the jokers,
/// so a tile is just its kind: colour and number, or joker.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile(u8);

impl Tile {
    /// The joker (`J`).
    pub const JOKER: Tile = Tile(52);

    /// A numbered tile; `None` if the number is outside 1–13.
    pub fn new(colour: Colour, number: u8) -> Option<Tile> {
        (MIN_NUMBER..=MAX_NUMBER)
            .contains(&number)
            .then(|| Tile(colour.index() * 13 + number - 1))
    }

    pub fn is_joker(self) -> bool {
        self == Tile::JOKER
    }

    /// Colour of a numbered tile; `None` for the joker.
    pub fn colour(self) -> Option<Colour> {
        (!self.is_joker()).then(|| Colour::ALL[usize::from(self.0 / 13)])
    }

    /// Printed number; `None` for the joker.
    pub fn number(self) -> Option<u8> {
        (!self.is_joker()).then_some(self.0 % 13 + 1)
    }

    /// Dense index 0..53 (numbered tiles colour-major, joker last).
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The tile for a dense index; `None` outside 0..53.
    pub fn from_index(index: usize) -> Option<Tile> {
        (index < KINDS).then_some(Tile(index as u8))
    }

    /// Every tile kind once, numbered tiles colour by colour, then the joker.
    pub fn kinds() -> impl Iterator<Item = Tile> {
        (0..KINDS as u8).map(Tile)
    }

    /// The whole box: every numbered tile twice and two jokers, in a fixed order (K1).
    pub fn full_set() -> Vec<Tile> {
        let mut tiles = Vec::with_capacity(TILE_COUNT);
        for kind in Tile::kinds() {
            let copies = if kind.is_joker() { JOKERS } else { COPIES };
            tiles.extend(std::iter::repeat_n(kind, usize::from(copies)));
        }
        tiles
    }

    /// How many of this tile the box holds.
    pub fn copies_in_box(self) -> u8 {
        if self.is_joker() {
            JOKERS
        } else {
            COPIES
        }
    }

    /// Ordering key for showing a rack by number (then colour), jokers last.
    pub fn number_key(self) -> (u8, u8) {
        match (self.number(), self.colour()) {
            (Some(n), Some(c)) => (n, c.index()),
            _ => (u8::MAX, u8::MAX),
        }
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.colour(), self.number()) {
            (Some(c), Some(n)) => write!(f, "{}{}", c.letter(), n),
            _ => f.write_str("J"),
        }
    }
}

impl fmt::Debug for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A tile that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown tile '{0}': a tile is r, b, k or o followed by 1 to 13 (r7, k13), or J for a joker"
)]
pub struct ParseTileError(pub String);

impl Tile {
    /// The text [`Tile::from_str`] reads, as a regular expression (for documents such
    /// as the server's OpenAPI schema): `J`, or a colour letter and a number 1 to 13,
    /// in any case.
    pub const PATTERN: &'static str = "^(?:[jJ]|[rRbBkKoO](?:0?[1-9]|1[0-3]))$";
}

impl FromStr for Tile {
    type Err = ParseTileError;

    fn from_str(text: &str) -> Result<Tile, ParseTileError> {
        let error = || ParseTileError(text.to_string());
        if text.eq_ignore_ascii_case("j") {
            return Ok(Tile::JOKER);
        }
        let mut chars = text.chars();
        let colour = chars
            .next()
            .and_then(Colour::from_letter)
            .ok_or_else(error)?;
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(error());
        }
        let number: u8 = digits.parse().map_err(|_| error())?;
        Tile::new(colour, number).ok_or_else(error)
    }
}

/// A multiset of tiles: how many of each kind. Used for racks and for conservation checks.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct TileCounts([u8; KINDS]);

impl Default for TileCounts {
    fn default() -> Self {
        TileCounts([0; KINDS])
    }
}

impl TileCounts {
    pub fn new() -> TileCounts {
        TileCounts::default()
    }

    pub fn from_tiles<'a>(tiles: impl IntoIterator<Item = &'a Tile>) -> TileCounts {
        let mut counts = TileCounts::new();
        for &tile in tiles {
            counts.add(tile);
        }
        counts
    }

    pub fn count(&self, tile: Tile) -> u8 {
        self.0[tile.index()]
    }

    pub fn add(&mut self, tile: Tile) {
        self.0[tile.index()] = self.0[tile.index()].saturating_add(1);
    }

    /// Removes one copy; false (and nothing changes) if there is none.
    pub fn remove(&mut self, tile: Tile) -> bool {
        let slot = &mut self.0[tile.index()];
        if *slot == 0 {
            return false;
        }
        *slot -= 1;
        true
    }

    pub fn len(&self) -> usize {
        self.0.iter().map(|&c| usize::from(c)).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&c| c == 0)
    }

    /// True if every tile here is also (at least as often) in `other`.
    pub fn is_subset_of(&self, other: &TileCounts) -> bool {
        self.0.iter().zip(other.0.iter()).all(|(a, b)| a <= b)
    }

    /// The tiles in kind order (numbered colour by colour, then jokers).
    pub fn tiles(&self) -> Vec<Tile> {
        let mut tiles = Vec::with_capacity(self.len());
        for kind in Tile::kinds() {
            tiles.extend(std::iter::repeat_n(kind, usize::from(self.count(kind))));
        }
        tiles
    }

    /// Kinds with their counts, only those present.
    pub fn iter(&self) -> impl Iterator<Item = (Tile, u8)> + '_ {
        Tile::kinds()
            .map(move |t| (t, self.count(t)))
            .filter(|&(_, c)| c > 0)
    }
}

impl fmt::Debug for TileCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.tiles()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k1_box_has_106_tiles_each_numbered_tile_twice_and_two_jokers() {
        let tiles = Tile::full_set();
        assert_eq!(tiles.len(), 106);
        let counts = TileCounts::from_tiles(&tiles);
        for colour in Colour::ALL {
            for number in 1..=13 {
                assert_eq!(counts.count(Tile::new(colour, number).unwrap()), 2);
            }
        }
        assert_eq!(counts.count(Tile::JOKER), 2);
    }

    #[test]
    fn notation_round_trips_for_every_tile() {
        for tile in Tile::kinds() {
            assert_eq!(tile.to_string().parse::<Tile>(), Ok(tile));
        }
        assert_eq!("k7".parse::<Tile>().unwrap().colour(), Some(Colour::Black));
        assert_eq!("o13".parse::<Tile>().unwrap().number(), Some(13));
        assert_eq!("j".parse::<Tile>(), Ok(Tile::JOKER));
    }

    #[test]
    fn bad_tiles_are_rejected_with_a_message() {
        for bad in ["r0", "r14", "x5", "r", "", "b1x", "k007", "JJ"] {
            let error = bad.parse::<Tile>().unwrap_err();
            assert!(
                error.to_string().starts_with("unknown tile"),
                "{bad}: {error}"
            );
        }
    }
}
