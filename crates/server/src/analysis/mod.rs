//! The analysis board (`/analysis`): a Rummikub table and rack set up by hand and
//! solved by the exact solver, a Rumis record replayed and asked for the strongest
//! bot's best moves at any point. Nothing is stored; every answer is computed from the
//! request alone.
//!
//! The solver and the search cost a core for up to a second or two, so the board is
//! guarded like hints: a rate per client address, a bounded queue (one more is
//! refused with 429 `analysis_busy`), the work on the thinking pool below people's
//! bots, and bounded inputs (a record of at most [`AnalysisLimits::max_record_bytes`]
//! and [`AnalysisLimits::max_moves`] moves).
//!
//! The best play of a running rated game's current position is refused (403
//! `position_in_rated_game`, see `positions`): hints are off there, and the board
//! must not stand in for them.

pub mod routes;
pub use routes::routes;

use std::net::IpAddr;
use std::time::Duration;

use rumis::notation::MoveError;
use rumis::record::{Record, RecordProblem};
use rumis::Scenario;
use rummikub::notation::{parse_table, parse_tiles};
use rummikub::RuleSet;
use rummikub_solver::{Objective, TableAndRack};
use serde_json::{json, Value};

use crate::error::ApiError;
use crate::games::{play_of, reasons, suggestions, Adapter, RumisTable};
use crate::positions::{rumis_key, rummikub_key};
use crate::queue::WorkQueue;
use crate::store::Store;
use crate::thinking::{Priority, Thinking};
use crate::transport::RateLimiter;
use crate::wire::{
    CubeView, ErrorCode, Reason, RefusalCode, RumisAnalysis, RumisAnalysisPosition,
    RumisAnalysisRequest, RumisBestMoves, RumisView, RummikubAnalysis, RummikubAnalysisRequest,
    StepKept,
};

/// How the analysis board is limited.
#[derive(Clone, Debug)]
pub struct AnalysisLimits {
    /// Requests per client address and minute, a minute's worth at once (0: no cap).
    pub per_minute_per_address: u32,
    /// Analyses waiting for a core or being computed, in all; one more is refused.
    pub max_queued: usize,
    /// How long the strongest bot searches for a Rumis position's best moves.
    pub rumis_search: Duration,
    /// The longest record read.
    pub max_record_bytes: usize,
    /// The most moves a record may hold.
    pub max_moves: usize,
    /// The longest table or rack text read (Rummikub).
    pub max_notation_chars: usize,
}

impl Default for AnalysisLimits {
    fn default() -> Self {
        AnalysisLimits {
            per_minute_per_address: 30,
            max_queued: 3,
            rumis_search: Duration::from_millis(1500),
            max_record_bytes: 32 * 1024,
            max_moves: 400,
            max_notation_chars: 1200,
        }
    }
}

/// The board's limits and queue.
pub struct Analysis {
    limits: AnalysisLimits,
    per_address: Option<RateLimiter>,
    queue: WorkQueue,
}

impl Analysis {
    pub fn new(limits: AnalysisLimits) -> Analysis {
        Analysis {
            per_address: RateLimiter::per_minute(limits.per_minute_per_address),
            queue: WorkQueue::new(limits.max_queued),
            limits,
        }
    }

    /// Takes a request of `from` against its rate.
    fn admit(&self, from: IpAddr) -> Result<(), ApiError> {
        match self.per_address.as_ref().map(|l| l.check(from)) {
            Some(Err(wait)) => Err(ApiError::too_many_for(
                ErrorCode::TooManyAnalyses,
                format!(
                    "your address may ask the analysis board {} times a minute; wait a moment",
                    self.limits.per_minute_per_address
                ),
                wait,
            )),
            _ => Ok(()),
        }
    }

    /// Runs `work` on the thinking pool, if the queue has room.
    async fn compute<T: Send + 'static>(
        &self,
        thinking: &Thinking,
        work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let Some(place) = self.queue.enter() else {
            return Err(ApiError::too_many_for(
                ErrorCode::AnalysisBusy,
                "the server is busy with other analyses; try again in a moment",
                self.limits.rumis_search.max(Duration::from_secs(1)),
            ));
        };
        thinking
            .run(Priority::Hint, move || {
                let _place = place;
                work()
            })
            .await?
    }

    /// The best plays of a Rummikub position, by tiles and by value; `rated`: the
    /// store whose running rated positions are refused.
    pub async fn rummikub(
        &self,
        thinking: &Thinking,
        rated: Option<&Store>,
        from: IpAddr,
        request: RummikubAnalysisRequest,
    ) -> Result<RummikubAnalysis, ApiError> {
        let (rules, position) = self.rummikub_position(&request)?;
        if let Some(store) = rated {
            let rummikub_solver::TableInput::Sets(sets) = &position.table else {
                unreachable!("the board reads the table as sets")
            };
            let key = rummikub_key(sets.iter().flat_map(|s| s.tiles()), &position.rack);
            refuse_rated(store, &key).await?;
        }
        self.admit(from)?;
        self.compute(thinking, move || {
            // The solver checks the position: a set the rules refuse, a third copy.
            let solve = |objective| {
                rummikub_solver::solve(&rules, &position, objective)
                    .map(|best| best.as_ref().map(play_of))
                    .map_err(|e| ApiError::bad_request(ErrorCode::BadPosition, e.to_string()))
            };
            let by_tiles = solve(Objective::Tiles)?;
            let by_value = solve(Objective::Value)?;
            let rummikub_solver::TableInput::Sets(sets) = &position.table else {
                unreachable!("the board reads the table as sets")
            };
            Ok(RummikubAnalysis {
                table: sets
                    .iter()
                    .map(|s| s.tiles().iter().map(|t| t.to_string()).collect())
                    .collect(),
                rack: position.rack.iter().map(|t| t.to_string()).collect(),
                by_tiles,
                by_value,
            })
        })
        .await
    }

    /// Reads a Rummikub position (checked before it costs a core).
    fn rummikub_position(
        &self,
        request: &RummikubAnalysisRequest,
    ) -> Result<(RuleSet, TableAndRack), ApiError> {
        let bad = |message: String| ApiError::bad_request(ErrorCode::BadPosition, message);
        let longest = self.limits.max_notation_chars;
        if request.table.chars().count() > longest || request.rack.chars().count() > longest {
            return Err(bad(format!(
                "a table or rack of at most {longest} characters, please"
            )));
        }
        let rules = match request.rules.as_deref().unwrap_or("current") {
            name @ ("current" | "old") => RuleSet::preset(name).expect("a preset"),
            other => {
                return Err(bad(format!(
                    "unknown rules `{other}`: the board knows `current` and `old`"
                )))
            }
        };
        let table = parse_table(&request.table).map_err(|e| bad(format!("the table: {e}")))?;
        let rack = parse_tiles(&request.rack).map_err(|e| bad(format!("the rack: {e}")))?;
        if rack.is_empty() {
            return Err(bad("the rack is empty: put at least one tile on it".into()));
        }
        let melded = !request.initial.unwrap_or(false);
        Ok((rules, TableAndRack::with_sets(table, rack, melded)))
    }

    /// A Rumis record replayed: the board before the first move and after each.
    pub async fn rumis_steps(
        &self,
        thinking: &Thinking,
        from: IpAddr,
        request: RumisAnalysisRequest,
    ) -> Result<RumisAnalysis, ApiError> {
        let record = self.read_record(&request.record)?;
        self.admit(from)?;
        self.compute(thinking, move || {
            let mut table = start(&record)?;
            let mut previous = table.spectator_view(true);
            let mut steps = vec![previous.clone()];
            let mut kept = vec![StepKept::default()];
            for (line, text) in &record.moves {
                play(&mut table, *line, text)?;
                let full = table.spectator_view(false);
                let (step, keeps) = changes(&previous, full.clone());
                steps.push(step);
                kept.push(keeps);
                previous = full;
            }
            Ok(RumisAnalysis {
                steps,
                kept,
                moves: record.moves.iter().map(|(_, m)| m.clone()).collect(),
            })
        })
        .await
    }

    /// The strongest bot's best moves after the first `ply` moves of a record
    /// (`rated`: as for [`Analysis::rummikub`]).
    pub async fn rumis_best(
        &self,
        thinking: &Thinking,
        rated: Option<&Store>,
        from: IpAddr,
        request: RumisAnalysisRequest,
    ) -> Result<RumisBestMoves, ApiError> {
        let record = self.read_record(&request.record)?;
        let ply = point(&record, request.ply)?;
        self.admit(from)?;
        let millis = self.limits.rumis_search.as_millis() as u64;
        // The replay first (a short job), so that a rated position is refused before
        // the search.
        let table = self
            .compute(thinking, move || {
                let mut table = start(&record)?;
                for (line, text) in &record.moves[..ply] {
                    play(&mut table, *line, text)?;
                }
                Ok(table)
            })
            .await?;
        if let Some(store) = rated {
            refuse_rated(store, &rumis_key(table.position())).await?;
        }
        self.compute(thinking, move || {
            let position = table.position();
            let to_move = position.to_move().map(|c| c.name().to_string());
            let moves = if position.is_over() {
                Vec::new()
            } else {
                suggestions(position, millis, 3)
            };
            Ok(RumisBestMoves {
                ply: ply as u32,
                to_move,
                moves,
            })
        })
        .await
    }

    /// The board after the first `ply` moves of a record (all when absent) as the
    /// colour to move sees it, with its legal placements: a person plays on from there.
    pub async fn rumis_position(
        &self,
        thinking: &Thinking,
        from: IpAddr,
        request: RumisAnalysisRequest,
    ) -> Result<RumisAnalysisPosition, ApiError> {
        let record = self.read_record(&request.record)?;
        let ply = point(&record, request.ply)?;
        self.admit(from)?;
        self.compute(thinking, move || {
            let mut table = start(&record)?;
            for (line, text) in &record.moves[..ply] {
                play(&mut table, *line, text)?;
            }
            let to_move = table.to_move();
            let crate::wire::GameView::Rumis(view) = table.view_wire(to_move, true, &[]) else {
                unreachable!("a Rumis table shows a Rumis view")
            };
            Ok(RumisAnalysisPosition {
                to_move: to_move.map(|s| s as u32),
                view: *view,
            })
        })
        .await
    }

    /// Reads a record (checked before it costs a core): a built-in board only.
    fn read_record(&self, text: &str) -> Result<Record, ApiError> {
        if text.len() > self.limits.max_record_bytes {
            let kib = self.limits.max_record_bytes / 1024;
            return Err(bad_record(
                format!("a record of at most {kib} KiB, please"),
                RefusalCode::RecordTooLong,
                json!({ "kib": kib }),
            ));
        }
        let record = Record::parse(text).map_err(|e| {
            let (code, params) = match e.kind {
                RecordProblem::UnknownHeader(header) => (
                    RefusalCode::RecordUnknownHeader,
                    json!({ "line": e.line, "header": header }),
                ),
                RecordProblem::MissingHeader(header) => (
                    RefusalCode::RecordMissingHeader,
                    json!({ "line": e.line, "header": header }),
                ),
                RecordProblem::BadHeader { header, value } => (
                    RefusalCode::RecordBadHeader,
                    json!({ "line": e.line, "header": header, "value": value }),
                ),
                RecordProblem::Other => (
                    RefusalCode::RecordUnreadableMove,
                    json!({ "line": e.line, "move": "" }),
                ),
            };
            bad_record(
                format!("the record, line {}: {}", e.line, e.problem),
                code,
                params,
            )
        })?;
        if Scenario::builtin(&record.scenario.to_ascii_lowercase()).is_none() {
            let known = Scenario::builtin_keys().collect::<Vec<_>>().join(", ");
            return Err(bad_record(
                format!(
                    "the board `{}` is not one of rumi's (known: {known})",
                    record.scenario
                ),
                RefusalCode::RecordUnknownBoard,
                json!({ "board": record.scenario, "known": known }),
            ));
        }
        if record.moves.len() > self.limits.max_moves {
            let max = self.limits.max_moves;
            return Err(bad_record(
                format!("a record of at most {max} moves, please"),
                RefusalCode::RecordTooManyMoves,
                json!({ "max": max }),
            ));
        }
        Ok(record)
    }
}

/// What `now` changed since `before`: `now` with only the cubes and history entries
/// after the longest start it shares with `before`, and how long those starts are.
fn changes(before: &RumisView, mut now: RumisView) -> (RumisView, StepKept) {
    let same_cube = |a: &CubeView, b: &CubeView| {
        (a.x, a.y, a.z, &a.colour, a.stone) == (b.x, b.y, b.z, &b.colour, b.stone)
    };
    let cubes = before
        .cubes
        .iter()
        .zip(&now.cubes)
        .take_while(|(a, b)| same_cube(a, b))
        .count();
    let history = before
        .history
        .iter()
        .zip(&now.history)
        .take_while(|(a, b)| a == b)
        .count();
    now.cubes.drain(..cubes);
    now.history.drain(..history);
    let kept = StepKept {
        cubes: cubes as u32,
        history: history as u32,
    };
    (now, kept)
}

/// Refuses the position `key` while a rated game stands at it.
async fn refuse_rated(store: &Store, key: &str) -> Result<(), ApiError> {
    if store.is_rated_position(key).await? {
        return Err(ApiError::forbidden(
            ErrorCode::PositionInRatedGame,
            "this is the position of a rated game being played: the analysis board \
             answers it once that game is over",
        ));
    }
    Ok(())
}

/// A refusal of a record: `message` in English, `code` and `params` for the client to
/// say it in the reader's language.
fn bad_record(message: String, code: RefusalCode, params: Value) -> ApiError {
    ApiError {
        why: Some(reason_of(code, params)),
        ..ApiError::bad_request(ErrorCode::BadRecord, message)
    }
}

fn reason_of(code: RefusalCode, params: Value) -> Reason {
    Reason {
        code,
        rule: None,
        params: params
            .as_object()
            .map(|m| m.clone().into_iter().collect())
            .unwrap_or_default(),
    }
}

/// How many moves to play before answering: `ply`, or the whole record.
fn point(record: &Record, ply: Option<u32>) -> Result<usize, ApiError> {
    let moves = record.moves.len();
    let ply = ply.map_or(moves, |p| p as usize);
    if ply > moves {
        return Err(bad_record(
            format!("the record has {moves} moves: ask for a point from 0 to {moves}"),
            RefusalCode::RecordPastEnd,
            json!({ "moves": moves }),
        ));
    }
    Ok(ply)
}

/// The record's first position, ruin (R11) and all.
fn start(record: &Record) -> Result<RumisTable, ApiError> {
    let scenario = Scenario::builtin(&record.scenario.to_ascii_lowercase())
        .expect("checked when the record was read");
    let position = rumis::board::Boards::new()
        .position(record.setup(scenario))
        .map_err(|e| {
            bad_record(
                format!("the record, line 1: {e}"),
                RefusalCode::RecordBadSetup,
                json!({ "line": 1, "players": record.players, "board": record.scenario }),
            )
        })?;
    Ok(RumisTable::from_start(position))
}

/// Plays a record's move at `line`; a refusal says the line, the move and why: the
/// engine's reason (with `line` and `move` added), or that the move cannot be read.
fn play(table: &mut RumisTable, line: usize, text: &str) -> Result<(), ApiError> {
    // (a refused move leaves the table as it was; its reason as data is worked out
    // again on a copy, only then)
    let Err(message) = table.play_text(text) else {
        return Ok(());
    };
    let mut why = match table.position().clone().play_text(text) {
        Err(MoveError::Illegal(illegal)) => reasons::rumis(&illegal),
        _ => reason_of(RefusalCode::RecordUnreadableMove, json!({})),
    };
    why.params.insert("line".into(), json!(line));
    why.params.insert("move".into(), json!(text));
    Err(ApiError {
        why: Some(why),
        ..ApiError::bad_request(
            ErrorCode::BadRecord,
            format!("the record, line {line}: `{text}`: {message}"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    fn position() -> RummikubAnalysisRequest {
        RummikubAnalysisRequest {
            table: "[r1 r2 r3]".into(),
            rack: "r4".into(),
            rules: None,
            initial: None,
        }
    }

    #[tokio::test]
    async fn an_address_over_its_rate_is_refused_and_others_still_served() {
        let board = Analysis::new(AnalysisLimits {
            per_minute_per_address: 2,
            ..AnalysisLimits::default()
        });
        let thinking = Thinking::new(2);
        let (ana, bo): (IpAddr, IpAddr) =
            ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        for _ in 0..2 {
            assert!(board
                .rummikub(&thinking, None, ana, position())
                .await
                .is_ok());
        }
        let refused = board
            .rummikub(&thinking, None, ana, position())
            .await
            .unwrap_err();
        assert_eq!(
            (refused.kind, refused.code),
            (ErrorKind::TooMany, ErrorCode::TooManyAnalyses)
        );
        assert!(board
            .rummikub(&thinking, None, bo, position())
            .await
            .is_ok());
    }

    #[tokio::test]
    async fn a_full_queue_refuses_the_next_analysis() {
        let board = Analysis::new(AnalysisLimits {
            max_queued: 0,
            ..AnalysisLimits::default()
        });
        let refused = board
            .rummikub(
                &Thinking::new(2),
                None,
                "10.0.0.1".parse().unwrap(),
                position(),
            )
            .await
            .unwrap_err();
        assert_eq!(
            (refused.kind, refused.code),
            (ErrorKind::TooMany, ErrorCode::AnalysisBusy)
        );
        assert!(board.queue.is_empty(), "a refusal holds no place");
    }

    fn record(text: &str) -> RumisAnalysisRequest {
        RumisAnalysisRequest {
            record: text.into(),
            ply: None,
        }
    }

    async fn position_of(text: &str) -> Result<RumisAnalysisPosition, ApiError> {
        Analysis::new(AnalysisLimits::default())
            .rumis_position(&Thinking::new(2), "10.0.0.1".parse().unwrap(), record(text))
            .await
    }

    const START: &str = "game: rumis\nscenario: chullpa\nplayers: 2\n\n";

    #[tokio::test]
    async fn a_scenario_start_answers_the_mover_with_legal_placements() {
        let start = position_of(START).await.unwrap();
        assert_eq!(start.to_move, Some(0));
        assert!(start.view.cubes.is_empty());
        assert!(!start.view.legal.is_empty());
        let after = position_of(&format!("{START}O4 a1:1 b1:1 a2:1 b2:1\n"))
            .await
            .unwrap();
        assert_eq!(after.to_move, Some(1));
        assert_eq!(after.view.cubes.len(), 4);
        assert_eq!(after.view.history.len(), 1);
    }

    #[tokio::test]
    async fn record_refusals_carry_a_code_and_what_is_wrong() {
        let missing = position_of("scenario: chullpa\nplayers: 2\n")
            .await
            .unwrap_err();
        assert_eq!(missing.code, ErrorCode::BadRecord);
        let why = missing.why.unwrap();
        assert_eq!(why.code, RefusalCode::RecordMissingHeader);
        assert_eq!(why.params["header"], "game");

        let bad = position_of("game: rumis\nscenario: chullpa\nplayers: many\n")
            .await
            .unwrap_err()
            .why
            .unwrap();
        assert_eq!(bad.code, RefusalCode::RecordBadHeader);
        assert_eq!(
            (
                &bad.params["line"],
                &bad.params["header"],
                &bad.params["value"]
            ),
            (&json!(3), &json!("players"), &json!("many"))
        );

        let board = position_of("game: rumis\nscenario: atlantis\nplayers: 2\n")
            .await
            .unwrap_err()
            .why
            .unwrap();
        assert_eq!(board.code, RefusalCode::RecordUnknownBoard);
        assert_eq!(board.params["board"], "atlantis");

        let unreadable = position_of(&format!("{START}Q9 zz\n"))
            .await
            .unwrap_err()
            .why
            .unwrap();
        assert_eq!(unreadable.code, RefusalCode::RecordUnreadableMove);
        assert_eq!(
            (&unreadable.params["line"], &unreadable.params["move"]),
            (&json!(5), &json!("Q9 zz"))
        );

        // A second stone the rules refuse (R6: it must touch the first stones): the
        // engine's own reason, with the line and the move.
        let twice = format!("{START}O4 a1:1 b1:1 a2:1 b2:1\nD2 e1:1 f1:1\n");
        let refused = position_of(&twice).await.unwrap_err().why.unwrap();
        assert!(!matches!(
            refused.code,
            RefusalCode::RecordUnreadableMove | RefusalCode::RecordBadHeader
        ));
        assert_eq!(
            (&refused.params["line"], &refused.params["move"]),
            (&json!(6), &json!("D2 e1:1 f1:1"))
        );
    }

    #[tokio::test]
    async fn a_point_past_the_end_is_refused_with_the_record_length() {
        let refused = Analysis::new(AnalysisLimits::default())
            .rumis_position(
                &Thinking::new(2),
                "10.0.0.1".parse().unwrap(),
                RumisAnalysisRequest {
                    record: START.into(),
                    ply: Some(3),
                },
            )
            .await
            .unwrap_err()
            .why
            .unwrap();
        assert_eq!(refused.code, RefusalCode::RecordPastEnd);
        assert_eq!(refused.params["moves"], json!(0));
    }
}
