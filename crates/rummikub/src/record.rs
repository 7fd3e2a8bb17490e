//! Round records: the rule set, the player count and the seed, then one action per line.
//! Replaying a record deals from the seed and validates every action.
//!
//! ```text
//! # anything after '#' is a comment
//! rules current
//! players 2
//! seed 42
//! 1 play [r10 r11 r12] [b5 k5 o5]
//! 2 draw
//! 1 timeout
//! scores 23 -23
//! ```
//! Players are numbered from 1. A `play` line holds the player's whole new table.
//! The optional `scores` line, when present, must match the replayed round's scores.

use std::fmt::Write as _;

use crate::notation::{format_table, parse_table, NotationError};
use crate::round::{Action, Move, Round, TurnError};
use crate::rules::{ParseRulesError, RuleSet};

/// A parsed round record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub rules: RuleSet,
    pub players: usize,
    pub seed: u64,
    /// Each move with the line it came from.
    pub moves: Vec<(usize, Move)>,
    /// The scores the record claims, if it has a `scores` line.
    pub scores: Option<(usize, Vec<i32>)>,
}

/// What went wrong in a record, and on which line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("line {line}: {message}")]
    Syntax { line: usize, message: String },
    #[error("line {0}: {1}")]
    Rules(usize, ParseRulesError),
    #[error("line {0}: {1}")]
    Notation(usize, NotationError),
    #[error("the record needs a '{0}' line before the first action")]
    MissingHeader(&'static str),
    #[error("line {line}: player {player}: {error}")]
    IllegalAction {
        line: usize,
        player: usize,
        error: TurnError,
    },
    #[error("{0}")]
    Deal(String),
    #[error("line {line}: the record says scores {claimed}, but the replay gives {actual}")]
    ScoresDiffer {
        line: usize,
        claimed: String,
        actual: String,
    },
}

fn format_scores(scores: &[i32]) -> String {
    scores
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Text of one action as it appears after the player number.
pub fn format_action(action: &Action) -> String {
    match action {
        Action::Play(sets) => format!("play {}", format_table(sets)),
        Action::Draw => "draw".to_string(),
        Action::TimeOut => "timeout".to_string(),
        Action::ClaimRedeal => "redeal".to_string(),
    }
}

/// Reads an action (`play [..] [..]`, `draw`, `timeout`, `redeal`).
pub fn parse_action(text: &str) -> Result<Action, String> {
    let text = text.trim();
    let (word, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
    match (word, rest.trim()) {
        ("play", table) => parse_table(table)
            .map(Action::Play)
            .map_err(|e| e.to_string()),
        ("draw", "") => Ok(Action::Draw),
        ("timeout", "") => Ok(Action::TimeOut),
        ("redeal", "") => Ok(Action::ClaimRedeal),
        _ => Err(format!(
            "unknown action '{text}': use play [sets], draw, timeout or redeal"
        )),
    }
}

/// Writes the record of a round dealt from a seed; `None` for a round from a setup.
pub fn write_record(round: &Round) -> Option<String> {
    let seed = round.seed()?;
    let mut text = String::new();
    let _ = writeln!(text, "rules {}", round.rules());
    let _ = writeln!(text, "players {}", round.players());
    let _ = writeln!(text, "seed {seed}");
    for m in round.history() {
        let _ = writeln!(text, "{} {}", m.player + 1, format_action(&m.action));
    }
    if let Some(outcome) = round.outcome() {
        let _ = writeln!(text, "scores {}", format_scores(&outcome.scores));
    }
    Some(text)
}

impl Record {
    /// Parses a record without replaying it.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let mut rules = None;
        let mut players = None;
        let mut seed = None;
        let mut moves = Vec::new();
        let mut scores = None;
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            let syntax = |message: String| RecordError::Syntax { line, message };
            if scores.is_some() {
                return Err(syntax("nothing may follow the scores line".into()));
            }
            let (word, rest) = content
                .split_once(char::is_whitespace)
                .unwrap_or((content, ""));
            let rest = rest.trim();
            let in_header = moves.is_empty();
            match word {
                "rules" if in_header => {
                    rules = Some(rest.parse().map_err(|e| RecordError::Rules(line, e))?)
                }
                "players" if in_header => {
                    players = Some(
                        rest.parse()
                            .map_err(|_| syntax(format!("bad player count '{rest}'")))?,
                    )
                }
                "seed" if in_header => {
                    seed = Some(
                        rest.parse()
                            .map_err(|_| syntax(format!("bad seed '{rest}'")))?,
                    )
                }
                "scores" => {
                    let parsed: Result<Vec<i32>, _> =
                        rest.split_whitespace().map(|s| s.parse::<i32>()).collect();
                    scores = Some((
                        line,
                        parsed.map_err(|_| syntax(format!("bad scores '{rest}'")))?,
                    ));
                }
                number => {
                    let player: usize =
                        number.parse().ok().filter(|&p| p >= 1).ok_or_else(|| {
                            syntax(format!("expected a player number, found '{word}'"))
                        })?;
                    if rules.is_none() {
                        return Err(RecordError::MissingHeader("rules"));
                    }
                    let action = parse_action(rest).map_err(syntax)?;
                    moves.push((
                        line,
                        Move {
                            player: player - 1,
                            action,
                        },
                    ));
                }
            }
        }
        Ok(Record {
            rules: rules.ok_or(RecordError::MissingHeader("rules"))?,
            players: players.ok_or(RecordError::MissingHeader("players"))?,
            seed: seed.ok_or(RecordError::MissingHeader("seed"))?,
            moves,
            scores,
        })
    }

    /// Deals from the seed and plays every move, stopping at the first illegal one.
    pub fn replay(&self) -> Result<Round, RecordError> {
        let mut round = Round::new(self.rules.clone(), self.players, self.seed)
            .map_err(|e| RecordError::Deal(e.to_string()))?;
        for (line, m) in &self.moves {
            round.apply(m.player, m.action.clone()).map_err(|error| {
                RecordError::IllegalAction {
                    line: *line,
                    player: m.player + 1,
                    error,
                }
            })?;
        }
        if let Some((line, claimed)) = &self.scores {
            let actual = round.outcome().map(|o| o.scores.clone());
            if actual.as_ref() != Some(claimed) {
                return Err(RecordError::ScoresDiffer {
                    line: *line,
                    claimed: format_scores(claimed),
                    actual: actual.map_or("no scores: the round is not over".into(), |s| {
                        format_scores(&s)
                    }),
                });
            }
        }
        Ok(round)
    }
}

/// Parses and replays a record.
pub fn replay(text: &str) -> Result<Round, RecordError> {
    Record::parse(text)?.replay()
}
