//! Text for tiles, sets and racks: ANSI colours on a terminal, plain notation otherwise
//! (so piped output and tests see exactly the notation).

use rummikub::{Colour, Set, Tile};

/// How tiles are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    pub ansi: bool,
}

impl Style {
    pub fn tile(self, tile: Tile) -> String {
        if !self.ansi {
            return tile.to_string();
        }
        let code = match tile.colour() {
            Some(Colour::Red) => "1;31",
            Some(Colour::Blue) => "1;34",
            Some(Colour::Black) => "1;90",
            Some(Colour::Orange) => "1;33",
            None => "1;35",
        };
        format!("\x1b[{code}m{tile}\x1b[0m")
    }

    pub fn tiles(self, tiles: &[Tile]) -> String {
        tiles
            .iter()
            .map(|&t| self.tile(t))
            .collect::<Vec<_>>()
            .join(" ")
    }

    pub fn set(self, set: &Set) -> String {
        format!("[{}]", self.tiles(set.tiles()))
    }
}

/// How the player wants the rack ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RackOrder {
    /// Colour by colour, ascending numbers (the engine's order).
    Colour,
    /// By number, colours side by side (handy for spotting groups).
    Number,
}

pub fn sort_rack(tiles: &mut [Tile], order: RackOrder) {
    match order {
        RackOrder::Colour => tiles.sort(),
        RackOrder::Number => tiles.sort_by_key(|t| t.number_key()),
    }
}
