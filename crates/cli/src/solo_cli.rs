//! `rumi solo`: the solo cube of Rumis (Ruling R12). (`rumi puzzle`, its old name,
//! still works.)
//!
//! ```text
//! rumi solo cube --edge 3 --colours 1 --leave-out D2,I3,O4,I4 --count   # Soma: 240 / 11,520
//! rumi solo cube --edge 4 --colours 2 --solve
//! rumi solo cube --edge 3 --colours 2 --rules                             # build it yourself
//! ```
//!
//! `--solve` draws one solution level by level, `--count` counts every solution (as
//! placed and up to the cube's symmetries) with a progress bar; without either, the
//! player builds the cube stone by stone ([`Session::run`] reads any `BufRead` and
//! writes any `Write`, so a session can be scripted and tested).

use std::io::{BufRead, IsTerminal, Write};
use std::time::Instant;

use anyhow::{bail, Context};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use rumis::notation::parse_move;
use rumis::solo::{Build, CubeSpec, Decision, Hint, Piece, SoloCube, SoloCubeError};
use rumis::{Colour, Stone};

use crate::rumis_cli::draw::Paint;

#[derive(Subcommand)]
pub enum SoloCommand {
    /// Build a full cube of edge 3, 4 or 5 from the stones of one or more colours (R12).
    Cube(CubeArgs),
    /// Decide every solo cube (edges 3-5, colours 1-4, with and without --rules and
    /// --alternate): a Markdown table of the answers on stdout, progress on stderr.
    Table(TableArgs),
}

#[derive(Args)]
pub struct TableArgs {
    /// Seconds allowed for each combination; past it the answer is "undecided".
    #[arg(long, default_value_t = 10.0)]
    limit: f64,
    /// Edges to run, comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = [3, 4, 5])]
    edges: Vec<u8>,
    /// Numbers of colours to run, comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = [1, 2, 3, 4])]
    colours: Vec<u8>,
}

#[derive(Args)]
pub struct CubeArgs {
    /// Edge of the cube: 3, 4 or 5.
    #[arg(long)]
    edge: u8,
    /// How many colours' stones may be used (1 to 6; each has all eleven stones).
    #[arg(long, default_value_t = 1)]
    colours: u8,
    /// The normal placement rules: no hole under a stone (R3), each stone after its
    /// colour's first touches its own colour (R7), the colours placed in turn.
    #[arg(long)]
    rules: bool,
    /// Alternating colours: no two stones of one colour touch face to face.
    #[arg(long)]
    alternate: bool,
    /// Stones left out of every colour, comma-separated (the Soma cube: D2,I3,O4,I4).
    #[arg(long, value_delimiter = ',', value_name = "STONES")]
    leave_out: Vec<String>,
    /// Count all solutions, as placed and up to symmetry.
    #[arg(long, conflicts_with = "solve")]
    count: bool,
    /// Find one solution and draw it.
    #[arg(long)]
    solve: bool,
}

pub fn run(command: SoloCommand) -> anyhow::Result<()> {
    match command {
        SoloCommand::Cube(args) => cube(args),
        SoloCommand::Table(args) => table(args),
    }
}

/// One line of the table: a combination and what came of it.
pub struct Row {
    pub spec: CubeSpec,
    pub answer: Answer,
    /// Set-up and search, one thread.
    pub seconds: f64,
}

/// The answer for one combination.
pub enum Answer {
    /// A solution, checked by `SoloCube::validate`, with its number of stones.
    Solved(usize),
    /// No solution: the search was exhausted.
    Exhausted,
    /// No solution, for a reason given when the cube is set up (PD1, PD5, PD6).
    Refused(SoloCubeError),
    /// The time ran out first.
    Undecided,
}

/// Sets up and decides one combination within `limit` seconds.
pub fn decide_row(spec: CubeSpec, limit: f64) -> anyhow::Result<Row> {
    let start = Instant::now();
    let answer = match SoloCube::new(spec.clone()) {
        Err(reason) => Answer::Refused(reason),
        Ok(cube) => {
            let mut stop = || start.elapsed().as_secs_f64() > limit;
            match cube.decide(&mut stop) {
                Decision::Solved(solution) => {
                    if let Err(why) = cube.validate(&solution) {
                        bail!("the solver's solution for {spec} is wrong: {why}");
                    }
                    Answer::Solved(solution.pieces.len())
                }
                Decision::NoSolution => Answer::Exhausted,
                Decision::Stopped => Answer::Undecided,
            }
        }
    };
    Ok(Row {
        spec,
        answer,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The reason for a refusal, short enough for a table cell.
fn short_reason(reason: &SoloCubeError) -> String {
    match reason {
        SoloCubeError::TooFewCubes {
            volume, available, ..
        } => format!("{volume} cells, only {available} cubes (PD1)"),
        SoloCubeError::AlternateOneColour => "one colour cannot alternate (PD5)".to_string(),
        SoloCubeError::RulesWithAlternate { min_stones, .. } => {
            format!("≥ {min_stones} stones, so a colour places two: R7 against PD5 (PD6)")
        }
        other => other.to_string(),
    }
}

impl Row {
    /// The row in Markdown.
    pub fn markdown(&self) -> String {
        let yes = |b: bool| if b { "yes" } else { "–" };
        let (answer, stones) = match &self.answer {
            Answer::Solved(n) => ("solved".to_string(), n.to_string()),
            Answer::Exhausted => ("none: search exhausted".to_string(), "–".to_string()),
            Answer::Refused(reason) => (format!("none: {}", short_reason(reason)), "–".to_string()),
            Answer::Undecided => ("undecided (time limit)".to_string(), "–".to_string()),
        };
        format!(
            "| {} | {} | {} | {} | {answer} | {stones} | {:.3} s |",
            self.spec.edge,
            self.spec.colours,
            yes(self.spec.rules),
            yes(self.spec.alternate),
            self.seconds
        )
    }
}

/// Every combination asked for, in order: edge, colours, then plain, rules,
/// alternate, both.
pub fn combinations(edges: &[u8], colours: &[u8]) -> Vec<CubeSpec> {
    let mut out = Vec::new();
    for &edge in edges {
        for &n in colours {
            for (rules, alternate) in [(false, false), (true, false), (false, true), (true, true)] {
                out.push(
                    CubeSpec::new(edge, n)
                        .with_rules(rules)
                        .with_alternate(alternate),
                );
            }
        }
    }
    out
}

pub const TABLE_HEAD: &str = "| edge | colours | rules | alternate | answer | stones | time |\n| --- | --- | --- | --- | --- | --- | --- |";

fn table(args: TableArgs) -> anyhow::Result<()> {
    let specs = combinations(&args.edges, &args.colours);
    let mut rows = Vec::new();
    let mut err = std::io::stderr();
    for (n, spec) in specs.into_iter().enumerate() {
        let row = decide_row(spec, args.limit)?;
        writeln!(err, "[{:>2}] {}", n + 1, row.markdown())?;
        rows.push(row);
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "{TABLE_HEAD}")?;
    for row in &rows {
        writeln!(out, "{}", row.markdown())?;
    }
    let undecided = rows
        .iter()
        .filter(|r| matches!(r.answer, Answer::Undecided))
        .count();
    if undecided > 0 {
        bail!(
            "{undecided} combination(s) undecided within {} s",
            args.limit
        );
    }
    Ok(())
}

fn spec(args: &CubeArgs) -> anyhow::Result<CubeSpec> {
    let leave_out = args
        .leave_out
        .iter()
        .map(|code| {
            Stone::from_code(code.trim()).with_context(|| {
                format!("unknown stone `{code}` in --leave-out (D2 I3 L3 I4 O4 T4 L4 S4 Y4 A4 B4)")
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok(CubeSpec::new(args.edge, args.colours)
        .with_rules(args.rules)
        .with_alternate(args.alternate)
        .leaving_out(&leave_out))
}

fn cube(args: CubeArgs) -> anyhow::Result<()> {
    let cube = SoloCube::new(spec(&args)?)?;
    let stdout = std::io::stdout();
    let paint = Paint {
        ansi: stdout.is_terminal(),
    };
    let mut out = stdout.lock();
    if args.count {
        count(&cube, &mut out)
    } else if args.solve {
        solve(&cube, paint, &mut out)
    } else {
        let stdin = std::io::stdin();
        let mut session = Session::new(&cube, paint).with_echo(!stdin.is_terminal());
        session.run(stdin.lock(), &mut out)?;
        Ok(())
    }
}

fn solve(cube: &SoloCube, paint: Paint, out: &mut impl Write) -> anyhow::Result<()> {
    writeln!(out, "cube puzzle: {}", cube.spec())?;
    let start = Instant::now();
    let found = cube.solve();
    let took = start.elapsed();
    match found {
        Some(solution) => {
            debug_assert_eq!(cube.validate(&solution), Ok(()));
            writeln!(
                out,
                "solution ({} stones, found in {:.3} s):",
                solution.pieces.len(),
                took.as_secs_f64()
            )?;
            write!(out, "{}", draw(cube, &solution.pieces, paint))?;
        }
        None => writeln!(
            out,
            "no solution: this cube cannot be built (searched in {:.3} s)",
            took.as_secs_f64()
        )?,
    }
    Ok(())
}

fn count(cube: &SoloCube, out: &mut impl Write) -> anyhow::Result<()> {
    writeln!(out, "cube puzzle: {}", cube.spec())?;
    const STEPS: u64 = 10_000;
    let bar = ProgressBar::new(STEPS).with_style(
        ProgressStyle::with_template("{bar:40} {percent:>3}% {msg}, about {eta} left")
            .expect("valid template"),
    );
    let start = Instant::now();
    let counts = cube.count(&mut |p| {
        bar.set_position((p.fraction * STEPS as f64) as u64);
        bar.set_message(format!("{} solutions", p.as_placed));
    });
    bar.finish_and_clear();
    let took = start.elapsed();
    let symmetries = cube.symmetries().len();
    writeln!(out, "solutions as placed: {}", counts.as_placed)?;
    writeln!(
        out,
        "solutions up to the {symmetries} symmetries of this puzzle: {}",
        counts.up_to_symmetry
    )?;
    writeln!(out, "counted in {:.3} s", took.as_secs_f64())?;
    Ok(())
}

/// A piece's letter in drawings: a–z, then A–Z (no cube holds more than 52 stones).
fn letter(n: usize) -> char {
    let n = n as u8;
    if n < 26 {
        (b'a' + n) as char
    } else {
        (b'A' + n.saturating_sub(26).min(25)) as char
    }
}

/// The cube level by level (level 1 at the bottom, drawn first), levels side by side,
/// each cell the letter of its piece (`.` empty); then a legend of the pieces.
pub fn draw(cube: &SoloCube, pieces: &[Piece], paint: Paint) -> String {
    let e = cube.edge();
    let mut owner = vec![None; cube.volume()];
    for (n, piece) in pieces.iter().enumerate() {
        for cell in cube.cells_of(cube.placements()[piece.placement].mask) {
            if let Some(i) = cube.cell_index(cell) {
                owner[i] = Some(n);
            }
        }
    }
    // Each level takes two characters a cell and two between levels.
    let level_width = 2 * e + 2;
    let mut lines = vec![String::from("   "), String::from("   ")];
    for z in 0..e {
        lines[0].push_str(&format!("{:<level_width$}", format!(" level {}", z + 1)));
        for x in 0..e {
            lines[1].push(' ');
            lines[1].push((b'a' + x as u8) as char);
        }
        lines[1].push_str("  ");
    }
    for y in 0..e {
        let mut line = format!("{:>2} ", y + 1);
        for z in 0..e {
            for x in 0..e {
                line.push(' ');
                match owner[x + e * (y + e * z)] {
                    Some(n) => {
                        line.push_str(&paint.colour(pieces[n].colour, &letter(n).to_string()))
                    }
                    None => line.push('.'),
                }
            }
            line.push_str("  ");
        }
        lines.push(line);
    }
    let mut out = String::new();
    for line in lines {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    for (n, piece) in pieces.iter().enumerate() {
        out.push_str(&format!(
            "  {} {}\n",
            paint.colour(piece.colour, &letter(n).to_string()),
            describe(cube, piece)
        ));
    }
    out
}

/// `red L4 a1:1 b1:1 c1:1 a2:1`: the piece in the move notation, with its colour.
fn describe(cube: &SoloCube, piece: &Piece) -> String {
    let cells: Vec<String> = cube
        .cells_of(cube.placements()[piece.placement].mask)
        .iter()
        .map(|c| c.to_string())
        .collect();
    format!("{} {} {}", piece.colour, piece.stone, cells.join(" "))
}

/// How a session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    Solved,
    Quit,
}

const HELP: &str = "\
commands:
  [COLOUR] STONE CELLS  place a stone, e.g. `L4 a1 b1 c1 a2` or `blue L4 a1:2 b1:2 c1:2 a2:2`
                        (column letter, row number, :level from 1 at the bottom; a left-out
                        level lands on top of the column); without a colour the first colour
                        that may place it is taken (under --rules: the colour to move)
  [COLOUR] STONE/N@COL  lower orientation N of the stone at a column (`rumi rumis stones L4`)
  hint                  can the cube still be completed? if so, suggest a stone
  undo                  take the last stone back
  board                 draw the cube
  stones                the stones each colour has left
  help                  this text
  quit                  stop
";

/// Seconds a hint may search before it gives up.
const HINT_SECONDS: f64 = 10.0;

/// A cube being built at the terminal.
pub struct Session<'a> {
    build: Build<'a>,
    paint: Paint,
    echo: bool,
}

impl<'a> Session<'a> {
    pub fn new(cube: &'a SoloCube, paint: Paint) -> Session<'a> {
        Session {
            build: Build::new(cube),
            paint,
            echo: false,
        }
    }

    /// Write each command after its prompt (piped input reads well in the log).
    pub fn with_echo(mut self, echo: bool) -> Session<'a> {
        self.echo = echo;
        self
    }

    fn prompt(&self) -> String {
        match self.build.to_move() {
            Some(c) => format!("{} > ", self.paint.colour(c, c.name())),
            None => "> ".to_string(),
        }
    }

    pub fn run(&mut self, input: impl BufRead, out: &mut impl Write) -> anyhow::Result<Ending> {
        let cube = self.build.cube();
        writeln!(out, "cube puzzle: {}", cube.spec())?;
        writeln!(
            out,
            "fill all {} cells; `help` lists the commands",
            cube.volume()
        )?;
        write!(out, "{}", self.prompt())?;
        out.flush()?;
        for line in input.lines() {
            let line = line?;
            let command = line.trim();
            if self.echo {
                writeln!(out, "{command}")?;
            }
            if command == "quit" {
                writeln!(
                    out,
                    "stopped with {} stones placed",
                    self.build.pieces().len()
                )?;
                return Ok(Ending::Quit);
            }
            if !command.is_empty() {
                self.command(command, out)?;
            }
            if self.build.is_complete() {
                writeln!(
                    out,
                    "the cube is complete: {} stones",
                    self.build.pieces().len()
                )?;
                return Ok(Ending::Solved);
            }
            write!(out, "{}", self.prompt())?;
            out.flush()?;
        }
        writeln!(out)?;
        Ok(Ending::Quit)
    }

    fn command(&mut self, command: &str, out: &mut impl Write) -> anyhow::Result<()> {
        let cube = self.build.cube();
        match command {
            "help" => write!(out, "{HELP}")?,
            "board" => write!(out, "{}", draw(cube, self.build.pieces(), self.paint))?,
            "stones" => {
                for c in 0..cube.spec().colours {
                    let colour = Colour(c);
                    let left: Vec<&str> =
                        self.build.left(colour).iter().map(|s| s.code()).collect();
                    writeln!(
                        out,
                        "{}: {}",
                        self.paint.colour(colour, colour.name()),
                        if left.is_empty() {
                            "none".to_string()
                        } else {
                            left.join(" ")
                        }
                    )?;
                }
            }
            "undo" => match self.build.undo() {
                Some(piece) => writeln!(out, "took back {}", describe(cube, &piece))?,
                None => writeln!(out, "nothing to take back")?,
            },
            "hint" => {
                let start = Instant::now();
                let mut stop = || start.elapsed().as_secs_f64() > HINT_SECONDS;
                match self.build.hint_until(&mut stop) {
                    Hint::Place(piece) => writeln!(
                        out,
                        "the cube can still be completed; try: {}",
                        describe(cube, &piece)
                    )?,
                    Hint::Hopeless => writeln!(
                        out,
                        "the cube cannot be completed from here: `undo` some stones"
                    )?,
                    Hint::Undecided => writeln!(
                        out,
                        "could not decide within {HINT_SECONDS} s whether the cube can still be completed"
                    )?,
                }
            }
            _ => match self.place(command) {
                Ok(piece) => {
                    writeln!(out, "placed {}", describe(cube, &piece))?;
                    write!(out, "{}", draw(cube, self.build.pieces(), self.paint))?;
                }
                Err(reason) => writeln!(out, "not placed: {reason:#}")?,
            },
        }
        Ok(())
    }

    /// Reads `[colour] stone cells` or `[colour] stone/n@column` and places it.
    fn place(&mut self, command: &str) -> anyhow::Result<Piece> {
        let (first, rest) = command
            .split_once(char::is_whitespace)
            .unwrap_or((command, ""));
        let named = Colour::NAMES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(first));
        let (colour, text) = match named {
            Some(i) => {
                let colours = self.build.cube().spec().colours;
                if i as u8 >= colours {
                    bail!("there is no colour {first}: this puzzle has {colours} colour(s)");
                }
                (Some(Colour(i as u8)), rest)
            }
            None => (None, command),
        };
        let (stone, cells) = self.build.resolve(parse_move(text)?)?;
        Ok(self.build.place(colour, stone, &cells)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(cube: &SoloCube, script: &str) -> (Ending, String) {
        let mut session = Session::new(cube, Paint::PLAIN).with_echo(true);
        let mut out = Vec::new();
        let ending = session.run(script.as_bytes(), &mut out).unwrap();
        (ending, String::from_utf8(out).unwrap())
    }

    fn soma() -> SoloCube {
        SoloCube::new(CubeSpec::new(3, 1).leaving_out(&[
            Stone::Domino,
            Stone::I3,
            Stone::O4,
            Stone::I4,
        ]))
        .unwrap()
    }

    #[test]
    fn a_scripted_soma_session_is_solved_from_hints() {
        let cube = soma();
        // Follow the engine's hints: replay each suggested stone as typed text.
        let mut build = Build::new(&cube);
        let mut script = String::from("help\nX9 a1\nI4 a1 b1 c1 a2\n");
        while let Some(hint) = build.hint() {
            let cells = build.cells(&hint);
            script.push_str("hint\n");
            let text: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
            script.push_str(&format!("{} {}\n", hint.stone, text.join(" ")));
            build.place(None, hint.stone, &cells).unwrap();
            if build.is_complete() {
                break;
            }
        }
        let (ending, out) = run(&cube, &script);
        assert_eq!(ending, Ending::Solved, "{out}");
        assert!(out.starts_with("cube puzzle: edge 3, 1 colour(s), without D2 I3 O4 I4\n"));
        assert!(out.contains("> X9 a1\nnot placed: unknown stone `X9`"));
        assert!(out.contains("not placed: I4 (straight tetracube) is left out of this puzzle"));
        assert!(out.contains("the cube can still be completed; try: red "));
        assert!(out.contains("placed red "));
        assert!(out.contains("    level 1 level 2 level 3\n    a b c   a b c   a b c\n"));
        assert!(out.ends_with("the cube is complete: 7 stones\n"), "{out}");
        // The last drawing, of the full cube, has no empty cell.
        let last = out.rsplit("placed red").next().unwrap();
        assert!(!last.contains(" ."), "{last}");
    }

    #[test]
    fn a_hopeless_build_is_said_to_be_so_and_undone() {
        let cube = soma();
        // An L3 standing up in the middle of the bottom: whatever the session answers
        // must agree with a completion search.
        let script = "L3 b2:1 b2:2 c2:1\nhint\nundo\nundo\nboard\nstones\nquit\n";
        let mut build = Build::new(&cube);
        let (stone, cells) = build
            .resolve(parse_move("L3 b2:1 b2:2 c2:1").unwrap())
            .unwrap();
        build.place(None, stone, &cells).unwrap();
        let completable = build.completion().is_some();
        let (ending, out) = run(&cube, script);
        assert_eq!(ending, Ending::Quit);
        assert!(out.contains("placed red L3 b2:1 c2:1 b2:2"), "{out}");
        if completable {
            assert!(out.contains("the cube can still be completed"));
        } else {
            assert!(out.contains("the cube cannot be completed from here"));
        }
        assert!(out.contains("took back red L3 b2:1 c2:1 b2:2"));
        assert!(out.contains("nothing to take back"));
        assert!(out.contains(" 1  . . .   . . .   . . .\n"));
        assert!(out.contains("red: L3 T4 L4 S4 Y4 A4 B4\n"));
        assert!(out.ends_with("> quit\nstopped with 0 stones placed\n"));
    }

    #[test]
    fn under_the_rules_the_prompt_names_the_colour_to_move() {
        let cube = SoloCube::new(CubeSpec::new(3, 2).with_rules(true)).unwrap();
        let script = "I3 a1:2 b1:2 c1:2\nblue I3 a1 b1 c1\nI3 a1 b1 c1\nyellow D2 a3 b3\nI3 a3 b3 c3\nquit\n";
        let (_, out) = run(&cube, script);
        assert!(out.contains("red > I3 a1:2 b1:2 c1:2\nnot placed: stone would leave a hole under cell a1 level 1 (R3)"));
        assert!(out.contains("not placed: it is red's turn, not blue's"));
        assert!(out.contains("placed red I3 a1:1 b1:1 c1:1"));
        assert!(out.contains("blue > yellow D2 a3 b3\nnot placed: there is no colour yellow: this puzzle has 2 colour(s)"));
        assert!(out.contains("placed blue I3 a3:1 b3:1 c3:1"));
        assert!(out.contains("red > quit"));
    }

    #[test]
    fn a_drawing_shows_every_piece_with_its_letter() {
        let cube = SoloCube::new(CubeSpec::new(4, 2)).unwrap();
        let solution = cube.solve().unwrap();
        let text = draw(&cube, &solution.pieces, Paint::PLAIN);
        assert_eq!(text.lines().count(), 2 + 4 + solution.pieces.len());
        for (n, _) in solution.pieces.iter().enumerate() {
            let cubes = text
                .lines()
                .skip(2)
                .take(4)
                .flat_map(|l| l.chars().skip(3))
                .filter(|&c| c == letter(n))
                .count();
            assert_eq!(cubes, solution.pieces[n].stone.size());
        }
    }
}
