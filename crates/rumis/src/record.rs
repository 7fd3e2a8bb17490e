//! Game records: a header, then one move per line in the canonical notation.
//!
//! ```text
//! # rumi game record
//! game: rumis
//! scenario: chullpa
//! players: 4
//! variant: standard
//! seed: 0
//! seats: human,random,greedy,greedy
//! result: red 9, blue 7, green 4, yellow 3
//!
//! O4 a1:1 b1:1 a2:1 b2:1   # red
//! D2 c1:1 d1:1             # blue
//! ```
//!
//! `seats` is informational; `result` (the players' points, written when the game is
//! over) is checked on replay. Text after `#` is a comment. The moves of a random ruin
//! (R11) are not written: the seed rebuilds it.
//!
//! Rumis+: `first-stones: edge|face` (R14 or R6) is written for 5 and 6 players. The
//! dismantling game (R16) writes `interim:` (the players' interim points, checked on
//! replay like `result`) and one line per dismantling turn: the removal, `>`, and the
//! placement, or `aside` when the stone could not be placed:
//!
//! ```text
//! x L4 a1:1 b1:1 c1:1 a2:1 > L4 f1:1 g1:1 h1:1 f2:1   # red
//! x D2 c3:2 d3:2 > aside                                # blue
//! ```

use std::fmt::Write as _;

use crate::board::Boards;
use crate::notation::format_turn;
use crate::position::{FirstStones, Position, Setup, Variant};
use crate::scenario::Scenario;

/// A record as read from text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Built-in scenario key, or a path to the user's scenario file.
    pub scenario: String,
    pub players: u8,
    pub variant: Variant,
    pub seed: u64,
    /// R6 or R14; `None`: the default for the player count.
    pub first_stones: Option<FirstStones>,
    pub seats: Option<String>,
    pub result: Option<String>,
    /// R16: the interim points.
    pub interim: Option<String>,
    /// (line number, move text)
    pub moves: Vec<(usize, String)>,
}

/// A record that cannot be read or replayed, with the line at fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct RecordError {
    pub line: usize,
    pub problem: String,
    /// The problem as data, for a reader to word it in its own language.
    pub kind: RecordProblem,
}

/// What is wrong with a record's header, as data (`problem` says it in English).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordProblem {
    /// A header line whose name rumi does not know.
    UnknownHeader(String),
    /// A header the record must have (`game`, `scenario`, `players`).
    MissingHeader(&'static str),
    /// A header whose value cannot be read.
    BadHeader { header: &'static str, value: String },
    /// Anything else (a replayed move, a result that differs): `problem` only.
    Other,
}

fn error(line: usize, problem: impl Into<String>) -> RecordError {
    error_of(line, RecordProblem::Other, problem)
}

fn error_of(line: usize, kind: RecordProblem, problem: impl Into<String>) -> RecordError {
    RecordError {
        line,
        problem: problem.into(),
        kind,
    }
}

impl Record {
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let mut fields: Vec<(usize, String, String)> = Vec::new();
        let mut moves = Vec::new();
        let mut in_moves = false;
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                if raw.trim().is_empty() && !fields.is_empty() {
                    in_moves = true;
                }
                continue;
            }
            match content.split_once(':') {
                Some((key, value)) if !in_moves && !key.contains(' ') => {
                    fields.push((line, key.trim().to_string(), value.trim().to_string()))
                }
                _ => {
                    in_moves = true;
                    moves.push((line, content.to_string()));
                }
            }
        }
        let last = text.lines().count().max(1);
        let get = |name: &str| {
            fields
                .iter()
                .find(|(_, k, _)| k == name)
                .map(|(l, _, v)| (*l, v.clone()))
        };
        for (line, key, _) in &fields {
            if ![
                "game",
                "scenario",
                "players",
                "variant",
                "seed",
                "seats",
                "result",
                "first-stones",
                "interim",
            ]
            .contains(&key.as_str())
            {
                return Err(error_of(
                    *line,
                    RecordProblem::UnknownHeader(key.clone()),
                    format!("unknown header `{key}`"),
                ));
            }
        }
        match get("game") {
            Some((_, g)) if g == "rumis" => {}
            Some((l, g)) => {
                return Err(error_of(
                    l,
                    RecordProblem::BadHeader {
                        header: "game",
                        value: g.clone(),
                    },
                    format!("game `{g}` is not rumis"),
                ))
            }
            None => {
                return Err(error_of(
                    last,
                    RecordProblem::MissingHeader("game"),
                    "missing header `game: rumis`",
                ))
            }
        }
        let (_, scenario) = get("scenario").ok_or_else(|| {
            error_of(
                last,
                RecordProblem::MissingHeader("scenario"),
                "missing header `scenario`",
            )
        })?;
        let (pl, players) = get("players").ok_or_else(|| {
            error_of(
                last,
                RecordProblem::MissingHeader("players"),
                "missing header `players`",
            )
        })?;
        let players = players.parse().map_err(|_| {
            error_of(
                pl,
                RecordProblem::BadHeader {
                    header: "players",
                    value: players.clone(),
                },
                format!("`{players}` is not a player count"),
            )
        })?;
        let variant = match get("variant") {
            None => Variant::Standard,
            Some((l, v)) => Variant::from_name(&v).ok_or_else(|| {
                error_of(
                    l,
                    RecordProblem::BadHeader {
                        header: "variant",
                        value: v.clone(),
                    },
                    format!("unknown variant `{v}` ({})", Variant::names()),
                )
            })?,
        };
        let first_stones = match get("first-stones") {
            None => None,
            Some((l, f)) => Some(FirstStones::from_name(&f).ok_or_else(|| {
                error_of(
                    l,
                    RecordProblem::BadHeader {
                        header: "first-stones",
                        value: f.clone(),
                    },
                    format!("first-stones `{f}` must be `face` (R6) or `edge` (R14)"),
                )
            })?),
        };
        let seed = match get("seed") {
            None => 0,
            Some((l, s)) => s.parse().map_err(|_| {
                error_of(
                    l,
                    RecordProblem::BadHeader {
                        header: "seed",
                        value: s.clone(),
                    },
                    format!("`{s}` is not a seed (a whole number)"),
                )
            })?,
        };
        Ok(Record {
            scenario,
            players,
            variant,
            seed,
            first_stones,
            seats: get("seats").map(|(_, s)| s),
            result: get("result").map(|(_, r)| r),
            interim: get("interim").map(|(_, r)| r),
            moves,
        })
    }

    /// The setup this record was played with, given its scenario.
    pub fn setup(&self, scenario: Scenario) -> Setup {
        let setup = Setup::new(scenario, self.players)
            .with_variant(self.variant)
            .with_seed(self.seed);
        match self.first_stones {
            Some(f) => setup.with_first_stones(f),
            None => setup,
        }
    }

    /// Replays every move, checking each against the rules and the result line, if any.
    pub fn replay(&self, scenario: Scenario) -> Result<Position, RecordError> {
        self.replay_with(scenario, &Boards::new())
    }

    /// [`Record::replay`] on a board shared through `boards`.
    pub fn replay_with(
        &self,
        scenario: Scenario,
        boards: &Boards,
    ) -> Result<Position, RecordError> {
        let mut position = boards
            .position(self.setup(scenario))
            .map_err(|e| error(1, e.to_string()))?;
        for (line, text) in &self.moves {
            position
                .play_text(text)
                .map_err(|e| error(*line, format!("`{text}`: {e}")))?;
            if let Some(stone) = position.stone_in_hand() {
                return Err(error(
                    *line,
                    format!(
                        "`{text}`: the turn is not finished: write where the {stone} goes (`> {stone} …`) (R16)"
                    ),
                ));
            }
        }
        if let Some(expected) = &self.interim {
            let actual = interim_line(&position);
            if actual.as_deref() != Some(expected.as_str()) {
                return Err(error(
                    1,
                    format!(
                        "the record says `interim: {expected}`, the replay gives {}",
                        actual.map_or("no interim score".to_string(), |a| format!("`{a}`"))
                    ),
                ));
            }
        }
        if let Some(expected) = &self.result {
            if !position.is_over() {
                return Err(error(
                    self.moves.last().map_or(1, |m| m.0),
                    "the record has a result, but the game is not over after its last move",
                ));
            }
            let actual = result_line(&position);
            if *expected != actual {
                return Err(error(
                    1,
                    format!("the record says `result: {expected}`, the replay gives `{actual}`"),
                ));
            }
        }
        Ok(position)
    }

    /// Writes a position's game as a record, naming a built-in scenario by its key.
    pub fn write(position: &Position, seats: Option<&str>) -> String {
        Record::write_with_scenario(position, seats, &position.setup().scenario.key)
    }

    /// Writes a position's game as a record whose `scenario:` line is `scenario` (the
    /// path of a user's scenario file, so that the record can be replayed).
    pub fn write_with_scenario(position: &Position, seats: Option<&str>, scenario: &str) -> String {
        let setup = position.setup();
        let mut text = String::from("# rumi game record\ngame: rumis\n");
        let _ = writeln!(text, "scenario: {scenario}");
        let _ = writeln!(text, "players: {}", setup.players);
        let _ = writeln!(text, "variant: {}", setup.variant);
        let _ = writeln!(text, "seed: {}", setup.seed);
        if setup.players >= 5 {
            let _ = writeln!(text, "first-stones: {}", setup.first_stones);
        }
        if let Some(seats) = seats {
            let _ = writeln!(text, "seats: {seats}");
        }
        if let Some(interim) = interim_line(position) {
            let _ = writeln!(text, "interim: {interim}");
        }
        if position.is_over() {
            let _ = writeln!(text, "result: {}", result_line(position));
        }
        text.push('\n');
        // Replay to name the colour of each move in a comment.
        let mut replay = position.restart();
        let moves = &position.history()[position.generated_moves()..];
        let generated = position.generated_moves();
        let mut passes = position.passes().iter().peekable();
        let mut i = 0;
        loop {
            // RD17: the turns passed before the next move.
            while passes.next_if(|&&ply| ply == generated + i).is_some() {
                let colour = replay.to_move().expect("a passed turn was a turn");
                let _ = writeln!(text, "{:<28}# {colour}", crate::notation::PASS);
                replay.pass();
            }
            if i >= moves.len() {
                break;
            }
            let colour = replay.to_move().expect("recorded moves were legal");
            let (turn, used) = format_turn(&replay, &moves[i..]);
            let width = if replay.removing() { 56 } else { 28 };
            let _ = writeln!(text, "{turn:<width$}# {colour}");
            for &mv in &moves[i..i + used] {
                replay.play_unchecked(mv);
            }
            i += used;
        }
        text
    }
}

/// The players' points as a record writes them: `red 9, blue 7` (R10: `A 9, B 7`).
pub fn result_line(position: &Position) -> String {
    points_line(position, &position.score())
}

/// R16: the players' interim points (`red 5, blue 7`), once taken.
pub fn interim_line(position: &Position) -> Option<String> {
    position
        .interim()
        .map(|interim| points_line(position, interim))
}

fn points_line(position: &Position, score: &crate::position::Score) -> String {
    (0..position.setup().players)
        .map(|p| {
            let name = match position.setup().variant {
                Variant::FourColours => ["A", "B"][p as usize].to_string(),
                _ => position.colours_of(p)[0].to_string(),
            };
            format!("{name} {}", score.player_points[p as usize])
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn random_game(key: &str, players: u8, variant: Variant, seed: u64) -> Position {
        let setup = Setup::new(Scenario::builtin(key).unwrap(), players)
            .with_variant(variant)
            .with_seed(seed);
        let mut game = Position::new(setup).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        game.play_randomly(&mut rng);
        game
    }

    /// RD17: a passed turn keeps its colour in the game, the next colour moves, and a
    /// record writes it as `pass` and replays it.
    #[test]
    fn a_passed_turn_moves_the_turn_on_and_round_trips_in_a_record() {
        use rand::Rng;
        let setup = Setup::new(Scenario::builtin("tambo").unwrap(), 3).with_seed(3);
        let mut game = Position::new(setup).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut passed = 0;
        while let Some(colour) = game.to_move() {
            if passed < 4 && rng.gen_bool(0.2) {
                assert!(game.pass());
                passed += 1;
                assert!(!game.is_out(colour), "a pass is not R8's out");
                assert_ne!(game.to_move(), Some(colour), "the next colour moves");
                continue;
            }
            let mv = game.random_move(&mut rng).unwrap();
            game.play(mv).unwrap();
        }
        assert!(!game.pass(), "no turn to pass once the game is over");
        assert_eq!(game.passes().len(), passed);
        assert!(passed > 0);
        let text = Record::write(&game, None);
        assert_eq!(text.matches("\npass ").count(), passed, "{text}");
        let replayed = Record::parse(&text)
            .unwrap()
            .replay(Scenario::builtin("tambo").unwrap())
            .unwrap();
        assert_eq!(replayed.history(), game.history());
        assert_eq!(replayed.passes(), game.passes());
        assert_eq!(Record::write(&replayed, None), text);
    }

    #[test]
    fn records_round_trip_for_every_variant() {
        for (variant, players) in [
            (Variant::Standard, 3),
            (Variant::FourColours, 2),
            (Variant::Ruinas, 2),
            (Variant::RuinasRandom, 3),
        ] {
            let game = random_game("tambo", players, variant, 7);
            let text = Record::write(&game, Some("random,random,random"));
            let record = Record::parse(&text).unwrap();
            assert_eq!(record.variant, variant);
            let replayed = record.replay(Scenario::builtin("tambo").unwrap()).unwrap();
            assert_eq!(replayed.history(), game.history(), "{variant}");
            assert_eq!(replayed.score(), game.score());
            assert_eq!(Record::write(&replayed, Some("random,random,random")), text);
        }
    }

    #[test]
    fn a_bad_move_names_its_line_and_reason() {
        let text = "game: rumis\nscenario: chullpa\nplayers: 2\n\nO4 a1 b1 a2 b2\nD2 d5 d4\n";
        let err = Record::parse(text)
            .unwrap()
            .replay(Scenario::builtin("chullpa").unwrap())
            .unwrap_err();
        assert_eq!(err.line, 6);
        assert!(
            err.problem.contains("must touch a stone already placed"),
            "{err}"
        );
    }

    #[test]
    fn a_wrong_result_is_caught() {
        let game = random_game("chullpa", 2, Variant::Standard, 3);
        let text = Record::write(&game, None);
        let forged = text.replace("result: red", "result: red 1000 and");
        let err = Record::parse(&forged)
            .unwrap()
            .replay(Scenario::builtin("chullpa").unwrap())
            .unwrap_err();
        assert!(err.problem.contains("the replay gives"), "{err}");
    }

    #[test]
    fn malformed_headers_are_named() {
        let err = |t: &str| Record::parse(t).unwrap_err().to_string();
        assert_eq!(err("game: chess\n"), "line 1: game `chess` is not rumis");
        assert_eq!(
            err("game: rumis\nscenario: x\nplayers: two\n"),
            "line 3: `two` is not a player count"
        );
        assert_eq!(
            err("game: rumis\ncolour: red\n"),
            "line 2: unknown header `colour`"
        );
        assert!(err("game: rumis\nscenario: x\nplayers: 2\nvariant: solo\n")
            .contains("unknown variant `solo`"));
    }
}
