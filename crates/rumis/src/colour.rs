//! Colours of stones. Base Rumis has four; Rumis+ adds orange and violet (R13).

use std::fmt;

/// A colour of stones, by index: red, blue, green, yellow, orange, violet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Colour(pub u8);

impl Colour {
    pub const NAMES: [&'static str; 6] = ["red", "blue", "green", "yellow", "orange", "violet"];

    pub fn name(self) -> &'static str {
        Self::NAMES[self.0 as usize]
    }

    /// One-letter tag used in drawings (`R`, `B`, `G`, `Y`, `O`, `V`).
    pub fn letter(self) -> char {
        self.name().as_bytes()[0].to_ascii_uppercase() as char
    }

    pub fn from_name(name: &str) -> Option<Colour> {
        let name = name.to_ascii_lowercase();
        Self::NAMES
            .iter()
            .position(|&n| n == name || (name.len() == 1 && n.starts_with(&name)))
            .map(|i| Colour(i as u8))
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
