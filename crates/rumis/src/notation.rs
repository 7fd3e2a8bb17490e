//! Move notation, typed by people and written in records.
//!
//! Two forms name a move:
//! - **cells**: the stone's code and its cells, `L4 a1:1 b1:1 c1:1 a2:1`. A cell is a
//!   column letter (a = left), a row number (1 = top row of the printed grid) and,
//!   after a colon, a level (1 = on the board). The level may be left out: the cube then
//!   lands on top of its column (after the cubes given before it in that column).
//!   This is the canonical form: [`format_move`] writes it, cubes sorted by level, row,
//!   column.
//! - **drop**: the stone's code, its orientation number and the column of the corner of
//!   its bounding box, `L4/7@c3`: the stone is lowered there from above until it rests
//!   on the build (R3). `rumi rumis stones` draws the orientations with their numbers.
//!
//! - **removal** (R16, the dismantling game): `x` and the stone's code, optionally its
//!   cells, `x L4 a1:1 b1:1 c1:1 a2:1`: the colour to move takes that stone off.
//!
//! A turn of the dismantling phase is written on one line as the removal, `>`, and the
//! placement of the same stone outside the red line in either form, or `aside` when it
//! cannot be placed: `x L4 a1:1 b1:1 c1:1 a2:1 > L4 f1:1 g1:1 h1:1 f2:1`
//! ([`Position::play_text`] plays such a line, [`format_turn`] writes it).
//!
//! Stone codes: D2 I3 L3 I4 O4 T4 L4 S4 Y4 (tripod) A4 B4 (the two screws).

use crate::board::{Cell, Move};
use crate::position::Position;
use crate::rules::Illegal;
use crate::stones::Stone;

/// Why a move text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("empty move")]
    Empty,
    #[error("unknown stone `{0}` (stones: D2 I3 L3 I4 O4 T4 L4 S4 Y4 A4 B4)")]
    UnknownStone(String),
    #[error(
        "`{0}` is not a cell (write column letter, row number and optional level, like c3 or c3:2)"
    )]
    BadCell(String),
    #[error("`{0}` is not an orientation number (write like L4/7@c3)")]
    BadOrientation(String),
    #[error("a move needs the stone's cells (L4 a1 b1 c1 a2) or a drop (L4/7@c3)")]
    MissingCells,
    #[error("a removal names the stone to take off: x L4 (R16)")]
    MissingRemovedStone,
    #[error("`{0}`: write a dismantling turn as `x L4 > L4 f1 g1 h1 f2` (take off, then place) or `x L4 > aside`")]
    BadTurn(String),
}

/// A move as written, before it is matched against a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveText {
    /// Cells with their level, where given.
    Cells {
        stone: Stone,
        cells: Vec<(u8, u8, Option<u8>)>,
    },
    Drop {
        stone: Stone,
        orientation: usize,
        x: u8,
        y: u8,
    },
}

/// R16: a removal as written, `x L4` with optional cells (they must be where it is).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemovalText {
    pub stone: Stone,
    pub cells: Vec<(u8, u8, Option<u8>)>,
}

/// Reads a removal (`x L4`, `x L4 a1:1 b1:1 c1:1 a2:1`); `None` when the text is not
/// one (it does not start with `x`).
pub fn parse_removal(text: &str) -> Option<Result<RemovalText, NotationError>> {
    let mut words = text.split_whitespace();
    if !words.next()?.eq_ignore_ascii_case("x") {
        return None;
    }
    Some((|| {
        let code = words.next().ok_or(NotationError::MissingRemovedStone)?;
        let stone =
            Stone::from_code(code).ok_or_else(|| NotationError::UnknownStone(code.to_string()))?;
        let cells = words.map(parse_cell).collect::<Result<Vec<_>, _>>()?;
        Ok(RemovalText { stone, cells })
    })())
}

/// A move that could not be played: unreadable, or against the rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error(transparent)]
    Notation(#[from] NotationError),
    #[error(transparent)]
    Illegal(#[from] Illegal),
}

/// Reads a column (`c3`) and optional level (`c3:2`), all counted from 1 in text.
fn parse_cell(text: &str) -> Result<(u8, u8, Option<u8>), NotationError> {
    let bad = || NotationError::BadCell(text.to_string());
    let (column, level) = match text.split_once(':') {
        Some((c, l)) => (c, Some(l)),
        None => (text, None),
    };
    let mut chars = column.chars();
    let letter = chars.next().ok_or_else(bad)?.to_ascii_lowercase();
    if !letter.is_ascii_lowercase() {
        return Err(bad());
    }
    let row: u8 = chars.as_str().parse().map_err(|_| bad())?;
    let level = match level {
        Some(l) => Some(l.parse::<u8>().map_err(|_| bad())?),
        None => None,
    };
    if row == 0 || level == Some(0) {
        return Err(bad());
    }
    Ok((letter as u8 - b'a', row - 1, level.map(|l| l - 1)))
}

/// Parses either form of the notation.
pub fn parse_move(text: &str) -> Result<MoveText, NotationError> {
    let mut words = text.split_whitespace();
    let head = words.next().ok_or(NotationError::Empty)?;
    if let Some((code, rest)) = head.split_once('/') {
        let stone =
            Stone::from_code(code).ok_or_else(|| NotationError::UnknownStone(code.to_string()))?;
        let (number, column) = rest
            .split_once('@')
            .ok_or_else(|| NotationError::BadOrientation(head.to_string()))?;
        let orientation = number
            .parse()
            .map_err(|_| NotationError::BadOrientation(head.to_string()))?;
        let (x, y, level) = parse_cell(column)?;
        if level.is_some() || words.next().is_some() {
            return Err(NotationError::BadOrientation(head.to_string()));
        }
        return Ok(MoveText::Drop {
            stone,
            orientation,
            x,
            y,
        });
    }
    let stone =
        Stone::from_code(head).ok_or_else(|| NotationError::UnknownStone(head.to_string()))?;
    let cells = words.map(parse_cell).collect::<Result<Vec<_>, _>>()?;
    if cells.is_empty() {
        return Err(NotationError::MissingCells);
    }
    Ok(MoveText::Cells { stone, cells })
}

/// The canonical text of a move: stone code and cells (R16: `x` first for a removal).
pub fn format_move(position: &Position, mv: Move) -> String {
    let board = position.board();
    let p = board.placement(mv);
    let mut text = if position.removing() {
        format!("x {}", p.stone.code())
    } else {
        p.stone.code().to_string()
    };
    for &c in p.cells() {
        text.push(' ');
        text.push_str(&board.cell(c).to_string());
    }
    text
}

/// The drop form of a move (`L4/7@c3`); it names the move only where the stone, lowered
/// from above, comes to rest in these cells.
pub fn format_drop(position: &Position, mv: Move) -> String {
    if position.removing() {
        return format_move(position, mv);
    }
    let board = position.board();
    let p = board.placement(mv);
    let cells: Vec<Cell> = p.cells().iter().map(|&c| board.cell(c)).collect();
    let x = cells.iter().map(|c| c.x).min().unwrap_or(0);
    let y = cells.iter().map(|c| c.y).min().unwrap_or(0);
    format!(
        "{}/{}@{}{}",
        p.stone.code(),
        p.orientation,
        (b'a' + x) as char,
        y + 1
    )
}

/// The text of a whole turn from `position` on, and the number of moves it takes:
/// one placement, or (R16) a removal with the placement that follows it (`> aside`
/// when the stone could not be placed). `moves` are the moves played from here on.
pub fn format_turn(position: &Position, moves: &[Move]) -> (String, usize) {
    let Some(&first) = moves.first() else {
        return (String::new(), 0);
    };
    let mut text = format_move(position, first);
    if !position.removing() {
        return (text, 1);
    }
    let colour = position.to_move();
    let mut after = position.clone();
    after.play_unchecked(first);
    if after.stone_in_hand().is_some() && after.to_move() == colour {
        if let Some(&second) = moves.get(1) {
            text.push_str(" > ");
            text.push_str(&format_move(&after, second));
            return (text, 2);
        }
        return (text, 1);
    }
    text.push_str(" > aside");
    (text, 1)
}

/// A move as written, read without a position: a placement in either form, or (R16) a
/// removal. [`Position::resolve_written`] matches it against a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Written {
    Place(MoveText),
    Remove(RemovalText),
}

/// Reads a move in any form of the notation (`L4 a1:1 …`, `L4/7@c3`, `x L4`).
pub fn parse_written(text: &str) -> Result<Written, NotationError> {
    match parse_removal(text) {
        Some(removal) => removal.map(Written::Remove),
        None => parse_move(text).map(Written::Place),
    }
}

/// A word in any case, as a regex pattern: `tripod` → `[tT][rR]…` (for documents that
/// describe what the notation reads).
pub fn any_case(word: &str) -> String {
    word.chars()
        .map(|c| {
            if c.is_ascii_alphabetic() {
                format!("[{}{}]", c.to_ascii_lowercase(), c.to_ascii_uppercase())
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The stone codes [`Stone::from_code`] reads, and their aliases, in any case.
fn stone_code_pattern() -> String {
    let mut codes: Vec<String> = Stone::ALL.iter().map(|s| any_case(s.code())).collect();
    // After the codes, so that `D2` is not read as the alias `D`.
    for alias in ["DOMINO", "TRIPOD", "D", "O", "T", "S", "Y"] {
        codes.push(any_case(alias));
    }
    format!("(?:{})", codes.join("|"))
}

/// Most cells a written move names (the largest stone has 4 cubes; a move that names
/// more is refused by the rules anyway).
pub const MAX_WRITTEN_CELLS: usize = 8;

/// A passed turn as a record writes it (RD17, [`Position::pass`]).
pub const PASS: &str = "pass";

/// A stone's code on its own, as a regular expression (for documents that describe
/// the notation, such as the server's OpenAPI schema).
pub fn stone_pattern() -> String {
    format!("^{}$", stone_code_pattern())
}

/// The notation as a regular expression (for documents): a stone and 1 to
/// [`MAX_WRITTEN_CELLS`] cells, a drop, or a removal. Every text it admits
/// [`parse_written`] reads (a test holds the two together).
pub fn move_pattern() -> String {
    let code = stone_code_pattern();
    let column = "[a-zA-Z][1-9][0-9]?";
    let cell = format!("{column}(?::[1-9][0-9]?)?");
    let gap = "[ \\t]+";
    format!(
        "^[ \\t]*(?:{code}(?:{gap}{cell}){{1,{MAX_WRITTEN_CELLS}}}|{code}/[0-9]{{1,3}}@{column}|[xX]{gap}{code}(?:{gap}{cell}){{0,{MAX_WRITTEN_CELLS}}})[ \\t]*$"
    )
}

impl Position {
    /// Reads a move in either notation and checks it for the colour to move.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        Ok(self.resolve_written(&parse_written(text)?)?)
    }

    /// Matches a written move against this position and checks it for the colour to
    /// move.
    pub fn resolve_written(&self, written: &Written) -> Result<Move, Illegal> {
        match written {
            Written::Remove(RemovalText { stone, cells }) => {
                let mv = self.check_removal(*stone)?;
                // Given cells must be the stone's (a left-out level matches its column).
                let mut actual = self.cells_of(mv);
                let matches = cells.is_empty()
                    || (cells.len() == actual.len()
                        && cells.iter().all(|&(x, y, z)| {
                            let found = actual
                                .iter()
                                .position(|c| c.x == x && c.y == y && z.is_none_or(|z| z == c.z));
                            found.map(|i| actual.swap_remove(i)).is_some()
                        }));
                if !matches {
                    let colour = self.to_move().ok_or(Illegal::GameOver)?;
                    return Err(Illegal::NotOnTheBuild {
                        colour,
                        stone: *stone,
                    });
                }
                Ok(mv)
            }
            Written::Place(text) => {
                let (stone, cells) = self.resolve(text.clone())?;
                self.check(stone, &cells)
            }
        }
    }

    /// Plays a typed turn: one move, or (R16) `x L4 > L4 f1 g1 h1 f2` (take a stone off,
    /// then place it) or `x L4 > aside` (take it off; it cannot be placed). Returns the
    /// moves played; on any error nothing is played.
    pub fn play_text(&mut self, text: &str) -> Result<Vec<Move>, MoveError> {
        // RD17: a record writes a passed turn as `pass`.
        if text.trim().eq_ignore_ascii_case(PASS) {
            let mut next = self.clone();
            if !next.pass() {
                return Err(NotationError::BadTurn(text.trim().to_string()).into());
            }
            *self = next;
            return Ok(Vec::new());
        }
        let parts: Vec<&str> = text.split('>').map(str::trim).collect();
        if parts.len() > 2 || parts.iter().any(|p| p.is_empty()) {
            return Err(NotationError::BadTurn(text.trim().to_string()).into());
        }
        let mut next = self.clone();
        let first = next.parse_move(parts[0])?;
        let removal = next.removing();
        next.play_unchecked(first);
        let mut moves = vec![first];
        if let Some(&second) = parts.get(1) {
            if !removal {
                return Err(NotationError::BadTurn(text.trim().to_string()).into());
            }
            let in_hand = next
                .stone_in_hand()
                .filter(|_| next.to_move() == self.to_move());
            if second.eq_ignore_ascii_case("aside") {
                if let Some(stone) = in_hand {
                    return Err(Illegal::CannotSetAside(stone).into());
                }
            } else {
                if in_hand.is_none() {
                    let stone = self.board().placement(first).stone;
                    let colour = self.to_move().ok_or(Illegal::GameOver)?;
                    return Err(Illegal::NotTheRemovedStone {
                        colour,
                        removed: stone,
                        stone,
                    }
                    .into());
                }
                let mv = next.parse_move(second)?;
                next.play_unchecked(mv);
                moves.push(mv);
            }
        }
        *self = next;
        Ok(moves)
    }

    /// Turns a written move into cells, placing left-out levels and dropped stones on
    /// the current build.
    fn resolve(&self, text: MoveText) -> Result<(Stone, Vec<Cell>), Illegal> {
        let board = self.board();
        resolve_on(text, board.width, board.depth, |x, y| {
            if (x as usize) < board.width && (y as usize) < board.depth {
                self.height(y as usize * board.width + x as usize)
            } else {
                0
            }
        })
    }
}

/// Turns a written move into cells on any build given by its size and column heights
/// (a board, or the solo cube): a left-out level lands on top of its column (above the
/// cubes given before it there), a dropped orientation is lowered until it rests on the
/// build (R3). A drop that sticks out of the `width` × `depth` grid is
/// [`Illegal::OffTheBoard`].
pub(crate) fn resolve_on(
    text: MoveText,
    width: usize,
    depth: usize,
    column_height: impl Fn(u8, u8) -> u8,
) -> Result<(Stone, Vec<Cell>), Illegal> {
    match text {
        MoveText::Cells { stone, cells } => {
            let mut out: Vec<Cell> = Vec::with_capacity(cells.len());
            for (x, y, level) in cells {
                let z = level.unwrap_or_else(|| {
                    let below = out.iter().filter(|c| (c.x, c.y) == (x, y)).count() as u8;
                    column_height(x, y).saturating_add(below)
                });
                out.push(Cell { x, y, z });
            }
            Ok((stone, out))
        }
        MoveText::Drop {
            stone,
            orientation,
            x,
            y,
        } => {
            let shapes = stone.orientations();
            let shape = shapes.get(orientation).ok_or(Illegal::NoSuchOrientation {
                stone,
                orientation,
                count: shapes.len(),
            })?;
            let ext = shape.extent();
            if x as usize + ext[0] as usize > width || y as usize + ext[1] as usize > depth {
                return Err(Illegal::OffTheBoard {
                    stone,
                    column: Cell { x, y, z: 0 }.column_name(),
                });
            }
            // Lowered from above: it stops where its first cube meets the build.
            let z = shape
                .cubes()
                .iter()
                .map(|c| column_height(x + c[0] as u8, y + c[1] as u8) as i32 - c[2] as i32)
                .max()
                .unwrap_or(0)
                .max(0) as u8;
            Ok((stone, Cell::of_shape(shape, x, y, z)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Scenario, Setup};

    fn chullpa() -> Position {
        Position::new(Setup::new(Scenario::builtin("chullpa").unwrap(), 4)).unwrap()
    }

    #[test]
    fn both_forms_round_trip_for_every_legal_move() {
        let mut game = chullpa();
        // Play a few moves so that drops land on stones too.
        for _ in 0..6 {
            let moves = game.legal_moves();
            for &mv in &moves {
                assert_eq!(game.parse_move(&format_move(&game, mv)), Ok(mv));
                assert_eq!(game.parse_move(&format_drop(&game, mv)), Ok(mv));
            }
            game.play(moves[moves.len() / 2]).unwrap();
        }
    }

    #[test]
    fn levels_may_be_left_out() {
        let game = chullpa();
        let mv = game.parse_move("O4 a1 b1 a2 b2").unwrap();
        assert_eq!(format_move(&game, mv), "O4 a1:1 b1:1 a2:1 b2:1");
        let upright = game.parse_move("i4 c2 c2 c2 c2").unwrap();
        assert_eq!(format_move(&game, upright), "I4 c2:1 c2:2 c2:3 c2:4");
    }

    #[test]
    fn unreadable_moves_say_what_is_wrong() {
        let game = chullpa();
        let err = |t: &str| game.parse_move(t).unwrap_err().to_string();
        assert_eq!(err(""), "empty move");
        assert!(err("Q4 a1").starts_with("unknown stone `Q4`"));
        assert!(err("L4 a1 b1 c1 zz").starts_with("`zz` is not a cell"));
        assert!(err("L4 a0").starts_with("`a0` is not a cell"));
        assert_eq!(err("L4"), NotationError::MissingCells.to_string());
        assert!(err("L4/x@c3").starts_with("`L4/x@c3` is not an orientation"));
        assert_eq!(
            err("L4/99@a1"),
            "stone orientation 99 does not exist for L4 (it has 24)"
        );
        let lying = Stone::I4
            .orientations()
            .iter()
            .position(|s| s.extent()[0] == 4)
            .unwrap();
        assert_eq!(
            err(&format!("I4/{lying}@c1")),
            "I4 cannot stand at c1 in that orientation: it would leave the board"
        );
    }

    #[test]
    fn illegal_moves_give_their_reason() {
        #[track_caller]
        fn err(g: &Position, t: &str) -> String {
            g.parse_move(t).unwrap_err().to_string()
        }
        let mut game = chullpa();
        assert_eq!(
            err(&game, "L4 c1 d1 e1 c2"),
            "cell e1 level 1 is outside the footprint of this board"
        );
        assert_eq!(
            err(&game, "L4 a1 b1 c1 d1"),
            "these cells do not form the L4 (L tetracube) in any rotation (mirroring is not allowed)"
        );
        assert_eq!(
            err(&game, "L4 a1 b1 c1"),
            "L4 has 4 cubes, but 3 cells were given"
        );
        assert_eq!(
            err(&game, "O4 a1:2 b1:2 a2:2 b2:2"),
            "stone would leave a hole under cell a1 level 1"
        );
        assert_eq!(err(&game, "D2 a1:1 a1:1"), "cell a1 level 1 is given twice");
        game.play(game.parse_move("O4 a1 b1 a2 b2").unwrap())
            .unwrap();
        // Blue's first stone must touch and lie on the board.
        assert_eq!(
            err(&game, "D2 d4 d5"),
            "blue's first stone must touch a stone already placed, face to face"
        );
        assert_eq!(
            err(&game, "D2 a1:2 b1:2"),
            "blue's first stone must lie on the board (have a cube on level 1)"
        );
        assert_eq!(
            err(&game, "D2 a1:1 a1:2"),
            "cell a1 level 1 is already taken by red"
        );
        game.play(game.parse_move("D2 c1 d1").unwrap()).unwrap();
        game.play(game.parse_move("D2 a3 b3").unwrap()).unwrap();
        game.play(game.parse_move("D2 c2 d2").unwrap()).unwrap();
        // Red again: must touch red.
        assert_eq!(
            err(&game, "I3 d3 d4 d5"),
            "the stone must touch a red stone face to face (beside it or lying on it)"
        );
        assert_eq!(
            err(&game, "O4 c3 d3 c4 d4"),
            "red has already placed its O4 (square tetracube)"
        );
        let before = game.history().len();
        assert!(game.parse_move("I3 d3 d4 d5").is_err());
        assert_eq!(
            game.history().len(),
            before,
            "a rejected move changes nothing"
        );
    }

    #[test]
    fn too_high_is_explained() {
        let game = Position::new(Setup::new(Scenario::builtin("pirka").unwrap(), 2)).unwrap();
        assert_eq!(
            game.parse_move("I3 a1 a1 a1").unwrap_err().to_string(),
            "cell a1 level 3 is too high: column a1 allows 2 levels"
        );
    }
}
