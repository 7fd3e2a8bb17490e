//! Drawing a Rumis build as text: a top view (colour and height of every column) and
//! level slices (which colour fills each cell, level by level), and a stone's
//! orientations with their numbers for the drop notation.
//!
//! Columns are lettered a, b, … left to right and rows numbered 1, 2, … top to bottom,
//! as in the move notation; levels count from 1 (on the board). Colour letters are
//! [`Colour::letter`]; ANSI colours are added only when [`Paint::ansi`] is set (the
//! caller sets it when stdout is a terminal), so piped output stays plain.

use rumis::{Cell, Colour, Position, Stone};

/// Widest a line of side-by-side grids may grow before it wraps.
const LINE_WIDTH: usize = 78;

/// Whether to colour the output with ANSI escapes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paint {
    pub ansi: bool,
}

impl Paint {
    pub const PLAIN: Paint = Paint { ansi: false };

    /// `text` in the colour's own colour (bold), or unchanged without ANSI.
    pub fn colour(&self, colour: Colour, text: &str) -> String {
        if !self.ansi {
            return text.to_string();
        }
        let code = match colour.index() {
            0 => "1;31",
            1 => "1;34",
            2 => "1;32",
            3 => "1;33",
            4 => "1;38;5;208",
            _ => "1;35",
        };
        format!("\x1b[{code}m{text}\x1b[0m")
    }

    /// A colour's name, coloured.
    pub fn name(&self, colour: Colour) -> String {
        self.colour(colour, colour.name())
    }

    /// A space, then `text` coloured and padded on the right to `width` in all.
    fn cell(&self, colour: Option<Colour>, text: &str, width: usize) -> String {
        let pad = " ".repeat(width.saturating_sub(1 + text.chars().count()));
        match colour {
            Some(c) => format!(" {}{pad}", self.colour(c, text)),
            None => format!(" {text}{pad}"),
        }
    }
}

fn column_letter(x: usize) -> char {
    (b'a' + x as u8) as char
}

/// The build seen from above: each column shows its top colour's letter and its height
/// (`R3`), `.` for an empty column inside the footprint, blank outside it. Inside the
/// red line of the dismantling game (R16) the letter is lower case and an empty column
/// is `:`.
pub fn top_view(position: &Position, paint: Paint) -> String {
    let board = position.board();
    let red = position.red_line();
    // Room for a letter and the largest height, plus a separating space.
    let width = 2 + board.height.to_string().len();
    let mut out = String::from(if red.is_some() {
        "top view (colour on top and height; red line: lower case, `:` empty):\n   "
    } else {
        "top view (colour on top and height):\n   "
    });
    for x in 0..board.width {
        out.push_str(&paint.cell(None, &column_letter(x).to_string(), width));
    }
    let kept = out.trim_end_matches(' ').len();
    out.truncate(kept);
    out.push('\n');
    for y in 0..board.depth {
        out.push_str(&format!("{:>3}", y + 1));
        for x in 0..board.width {
            let column = y * board.width + x;
            let inside = red.is_some_and(|r| r[column]);
            let cell = if board.limit(column) == 0 {
                paint.cell(None, "", width)
            } else {
                match position.top(column) {
                    Some(c) => {
                        let letter = if inside {
                            c.letter().to_ascii_lowercase()
                        } else {
                            c.letter()
                        };
                        paint.cell(
                            Some(c),
                            &format!("{letter}{}", position.height(column)),
                            width,
                        )
                    }
                    None if inside => paint.cell(None, ":", width),
                    None => paint.cell(None, ".", width),
                }
            };
            out.push_str(&cell);
        }
        let kept = out.trim_end_matches(' ').len();
        out.truncate(kept);
        out.push('\n');
    }
    out
}

/// A block of text lines of one visible width, to be set side by side.
struct Block {
    width: usize,
    lines: Vec<String>,
}

/// Sets blocks side by side, wrapping to new rows of blocks at [`LINE_WIDTH`]; every
/// row of blocks is preceded by `margin` on each line (`labels` give per-line margins).
fn side_by_side(blocks: &[Block], labels: &[String]) -> String {
    const GAP: usize = 3;
    let label_width = labels.iter().map(|l| l.len()).max().unwrap_or(0);
    let mut out = String::new();
    let mut start = 0;
    while start < blocks.len() {
        let mut end = start;
        let mut used = label_width;
        while end < blocks.len() && (end == start || used + GAP + blocks[end].width <= LINE_WIDTH) {
            used += GAP + blocks[end].width;
            end += 1;
        }
        let rows = blocks[start..end]
            .iter()
            .map(|b| b.lines.len())
            .max()
            .unwrap_or(0);
        for r in 0..rows {
            let mut line = format!(
                "{:<label_width$}",
                labels.get(r).map(String::as_str).unwrap_or("")
            );
            for b in &blocks[start..end] {
                line.push_str(&" ".repeat(GAP));
                match b.lines.get(r) {
                    Some(text) => line.push_str(text),
                    None => line.push_str(&" ".repeat(b.width)),
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        start = end;
    }
    out
}

/// One small grid per level, from level 1 up to the highest cube: a colour letter where
/// a cube is, `.` where a cube could still go (inside the footprint and below the
/// column's limit), blank where none can. Empty when nothing is built.
pub fn level_slices(position: &Position, paint: Paint) -> String {
    let board = position.board();
    let top = (0..board.column_count())
        .map(|c| position.height(c) as usize)
        .max()
        .unwrap_or(0);
    if top == 0 {
        return String::new();
    }
    let grid_width = (2 * board.width - 1).max(7);
    let mut labels = vec![String::new(), String::new()];
    labels.extend((0..board.depth).map(|y| format!("{:>3}", y + 1)));
    let blocks: Vec<Block> = (0..top)
        .map(|z| {
            let mut lines = vec![format!("{:<grid_width$}", format!("level {}", z + 1))];
            let letters: Vec<String> = (0..board.width)
                .map(|x| column_letter(x).to_string())
                .collect();
            lines.push(format!("{:<grid_width$}", letters.join(" ")));
            for y in 0..board.depth {
                let mut line = String::new();
                for x in 0..board.width {
                    if x > 0 {
                        line.push(' ');
                    }
                    let cell = Cell {
                        x: x as u8,
                        y: y as u8,
                        z: z as u8,
                    };
                    match position.colour_at(cell) {
                        Some(c) => line.push_str(&paint.colour(c, &c.letter().to_string())),
                        None if board.is_buildable(cell) => line.push('.'),
                        None => line.push(' '),
                    }
                }
                line.push_str(&" ".repeat(grid_width - (2 * board.width - 1)));
                lines.push(line);
            }
            Block {
                width: grid_width,
                lines,
            }
        })
        .collect();
    side_by_side(&blocks, &labels)
}

/// The top view followed by the level slices.
pub fn build(position: &Position, paint: Paint) -> String {
    let mut out = top_view(position, paint);
    let slices = level_slices(position, paint);
    if slices.is_empty() {
        out.push_str("(nothing built yet)\n");
    } else {
        out.push_str("levels (seen from above, level 1 on the board):\n");
        out.push_str(&slices);
    }
    out
}

/// Every orientation of a stone with its number, as the drop notation `L4/7@c3` uses
/// it: each drawn level by level from the lowest (`#` = cube), the top-left corner of
/// each grid being the column named after `@`.
pub fn orientations(stone: Stone) -> String {
    let blocks: Vec<Block> = stone
        .orientations()
        .iter()
        .enumerate()
        .map(|(i, shape)| {
            let ext = shape.extent();
            let (w, d, h) = (ext[0] as usize, ext[1] as usize, ext[2] as usize);
            let mut lines = vec![format!("{}/{i}", stone.code())];
            for y in 0..d {
                let levels: Vec<String> = (0..h)
                    .map(|z| {
                        (0..w)
                            .map(|x| {
                                let here = [x as i8, y as i8, z as i8];
                                if shape.cubes().contains(&here) {
                                    '#'
                                } else {
                                    '.'
                                }
                            })
                            .collect()
                    })
                    .collect();
                lines.push(levels.join(" | "));
            }
            let width = lines.iter().map(|l| l.len()).max().unwrap_or(0);
            let lines = lines.into_iter().map(|l| format!("{l:<width$}")).collect();
            Block { width, lines }
        })
        .collect();
    let mut out = format!(
        "{} ({}), {} orientations. Each is drawn level by level from the lowest, \
         left to right (`#` = cube);\nthe top-left corner of a drawing is the column \
         after `@`: {}/n@c3 lowers orientation n there.\n",
        stone.code(),
        stone.name(),
        stone.orientations().len(),
        stone.code()
    );
    out.push_str(&side_by_side(&blocks, &[]));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rumis::{Scenario, Setup};

    fn chullpa_after(moves: &[&str]) -> Position {
        let setup = Setup::new(Scenario::builtin("chullpa").unwrap(), 2);
        let mut position = Position::new(setup).unwrap();
        for text in moves {
            let mv = position.parse_move(text).unwrap();
            position.play(mv).unwrap();
        }
        position
    }

    #[test]
    fn top_view_shows_top_colour_and_height_per_column() {
        // Red lays an O4 in the corner; blue's first stone must touch it and lie on the
        // board (R6): a domino beside it; red then puts an L3 on its own square.
        let position = chullpa_after(&["O4 a1 b1 a2 b2", "D2 c1 d1", "L3 a1 b1 a2"]);
        let text = top_view(&position, Paint::PLAIN);
        assert_eq!(
            text,
            "top view (colour on top and height):\n\
             \x20   a  b  c  d\n\
             \x20 1 R2 R2 B1 B1\n\
             \x20 2 R2 R1 .  .\n\
             \x20 3 .  .  .  .\n\
             \x20 4 .  .  .  .\n\
             \x20 5 .  .  .  .\n"
        );
    }

    #[test]
    fn level_slices_show_each_level_and_where_cubes_can_go() {
        let position = chullpa_after(&["O4 a1 b1 a2 b2", "D2 c1 d1", "L3 a1 b1 a2"]);
        let text = level_slices(&position, Paint::PLAIN);
        assert_eq!(
            text,
            "      level 1   level 2\n\
             \x20     a b c d   a b c d\n\
             \x20 1   R R B B   R R . .\n\
             \x20 2   R R . .   R . . .\n\
             \x20 3   . . . .   . . . .\n\
             \x20 4   . . . .   . . . .\n\
             \x20 5   . . . .   . . . .\n"
        );
        assert_eq!(level_slices(&chullpa_after(&[]), Paint::PLAIN), "");
    }

    #[test]
    fn outside_the_footprint_is_blank_and_above_the_limit_too() {
        // Coricancha for 2 players: only the inner 5 x 5 (red line), heights 3..5.
        let setup = Setup::new(Scenario::builtin("coricancha").unwrap(), 2);
        let mut position = Position::new(setup).unwrap();
        let mv = position.parse_move("I3 e5 e5 e5").unwrap();
        position.play(mv).unwrap();
        let top = top_view(&position, Paint::PLAIN);
        let rows: Vec<&str> = top.lines().collect();
        assert_eq!(rows[2], "  1");
        assert_eq!(rows[1], "    a  b  c  d  e  f  g  h  i");
        assert_eq!(rows[4], "  3       .  .  .  .  .");
        assert_eq!(rows[6], "  5       .  .  R3 .  .");
        let slices = level_slices(&position, Paint::PLAIN);
        let rows: Vec<&str> = slices.lines().collect();
        // Level 3: only rings 3..5 of the pyramid reach it, and only the red-line area.
        assert_eq!(
            rows[0].trim(),
            "level 1             level 2             level 3"
        );
        assert_eq!(
            rows[6],
            "  5       . . R . .           . . R . .           . . R . ."
        );
        assert_eq!(
            rows[4],
            "  3       . . . . .           . . . . .           . . . . ."
        );
    }

    #[test]
    fn ansi_colours_only_when_asked() {
        let position = chullpa_after(&["O4 a1 b1 a2 b2"]);
        assert!(!build(&position, Paint::PLAIN).contains('\x1b'));
        let coloured = build(&position, Paint { ansi: true });
        assert!(coloured.contains(" \x1b[1;31mR1\x1b[0m "));
        assert!(coloured.contains("\x1b[1;31mR\x1b[0m"));
    }

    #[test]
    fn orientations_are_numbered_as_the_drop_notation_reads_them() {
        let text = orientations(Stone::I3);
        // I3 has three orientations: along x, along y, upright.
        assert!(text.contains("I3 (straight tricube), 3 orientations"));
        let shapes = Stone::I3.orientations();
        let upright = shapes.iter().position(|s| s.extent() == [1, 1, 3]).unwrap();
        let across = shapes.iter().position(|s| s.extent() == [3, 1, 1]).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let titles = lines[2];
        let first_row = lines[3];
        // The titles and the first drawn row line up block by block.
        let col = |n: usize| titles.find(&format!("I3/{n}")).unwrap();
        assert!(first_row[col(across)..].starts_with("###"));
        assert!(first_row[col(upright)..].starts_with("# | # | #"));
    }
}
