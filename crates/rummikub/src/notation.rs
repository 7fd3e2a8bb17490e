//! Text notation: tiles `r1 b13 k7 o5 J` (red, blue, black = k, orange, joker),
//! sets `[r1 r2 r3]`, a table as sets one after another: `[r1 r2 r3] [b5 k5 o5]`.

use crate::set::Set;
use crate::tile::{ParseTileError, Tile};

/// Notation that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error(transparent)]
    Tile(#[from] ParseTileError),
    #[error("a set must be written in brackets, like [r1 r2 r3]; found '{0}'")]
    NotASet(String),
    #[error("a '[' is not closed by ']'")]
    Unclosed,
    #[error("sets cannot be nested: unexpected '['")]
    Nested,
    #[error("unexpected ']' without '['")]
    UnexpectedClose,
}

/// Tiles separated by spaces or commas: `r1 r2 J`.
pub fn parse_tiles(text: &str) -> Result<Vec<Tile>, NotationError> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .map(|w| w.parse::<Tile>().map_err(NotationError::from))
        .collect()
}

/// Writes tiles separated by spaces.
pub fn format_tiles(tiles: &[Tile]) -> String {
    tiles
        .iter()
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// One set in brackets: `[r1 r2 r3]`.
pub fn parse_set(text: &str) -> Result<Set, NotationError> {
    let sets = parse_table(text)?;
    match sets.as_slice() {
        [set] => Ok(set.clone()),
        _ => Err(NotationError::NotASet(text.trim().to_string())),
    }
}

/// A whole table: zero or more bracketed sets.
pub fn parse_table(text: &str) -> Result<Vec<Set>, NotationError> {
    let mut sets = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let Some(after_open) = rest.strip_prefix('[') else {
            if rest.starts_with(']') {
                return Err(NotationError::UnexpectedClose);
            }
            let word = rest.split_whitespace().next().unwrap_or(rest);
            return Err(NotationError::NotASet(word.to_string()));
        };
        let close = after_open.find(']').ok_or(NotationError::Unclosed)?;
        let inside = &after_open[..close];
        if inside.contains('[') {
            return Err(NotationError::Nested);
        }
        sets.push(Set::new(parse_tiles(inside)?));
        rest = after_open[close + 1..].trim_start();
    }
    Ok(sets)
}

/// Writes a table as its sets separated by spaces.
pub fn format_table(sets: &[Set]) -> String {
    sets.iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_round_trip() {
        let text = "[r1 r2 r3] [b5 k5 o5 J]";
        let table = parse_table(text).unwrap();
        assert_eq!(table.len(), 2);
        assert_eq!(table[1].jokers(), 1);
        assert_eq!(format_table(&table), text);
        assert_eq!(parse_table("  ").unwrap(), vec![]);
        assert_eq!(parse_table("[r1,r2, r3]").unwrap()[0].len(), 3);
    }

    #[test]
    fn malformed_tables_say_what_is_wrong() {
        let err = |t: &str| parse_table(t).unwrap_err().to_string();
        assert_eq!(err("[r1 r2"), "a '[' is not closed by ']'");
        assert_eq!(
            err("r1 r2 r3"),
            "a set must be written in brackets, like [r1 r2 r3]; found 'r1'"
        );
        assert_eq!(err("[r1 [r2]]"), "sets cannot be nested: unexpected '['");
        assert!(err("[r1 q2 r3]").starts_with("unknown tile 'q2'"));
        assert_eq!(err("]"), "unexpected ']' without '['");
    }
}
