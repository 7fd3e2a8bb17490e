//! The tutorials: for each game a short list of fixed positions, each with a task
//! (the client's `/learn/rumis` and `/learn/rummikub`). Every step is defined here, in
//! one place: its position (Rumis: a scenario and the moves played so far; Rummikub:
//! the table and the learner's rack), the rulings it teaches, what counts as done, the
//! move it is built for and the typical wrong tries with the answer they get.
//!
//! The check is the rules engine's, never a copy of it: the step's position is built
//! in the engine, the learner's move is played there, and the answer is the engine's
//! acceptance or its refusal with its reason (`games::reasons`). A goal that asks for
//! more than a legal move ("lay a run", "win the game") is judged on the engine's
//! result. The tests play every step's solution and wrong tries through the endpoint,
//! so a step can never teach what the engine refuses.

use std::sync::OnceLock;

use rummikub::notation::{parse_table, parse_tiles};
use rummikub::set::{readings, SetKind};
use rummikub::tile::TileCounts;
use rummikub::{Action, Event, Round, RoundSetup, RuleSet, Set, Tile};
use serde_json::json;

use crate::error::ApiError;
use crate::games::{ActionError, Adapter, RumisTable};
use crate::wire::{
    ErrorCode, Fairness, GameAction, GameKind, GameView, RefusalCode, ResultView, RumisAction,
    RumisMove, RumisSettings, RummikubAction, RummikubView, SeatKind, SeatView, Sets, TableStatus,
    TableView, Tutorial, TutorialCheck, TutorialGoal, TutorialKey, TutorialStep,
};

/// A step as written here.
pub struct StepDef {
    pub key: TutorialKey,
    /// The rulings it teaches, the main one first.
    pub rules: &'static [&'static str],
    pub goal: TutorialGoal,
    pub position: Setup,
    /// The move the step is built for: Rumis notation, or the whole new Rummikub table.
    pub solution: &'static str,
    /// Typical wrong tries and what the engine answers; the first is shown on request.
    pub wrong: &'static [(&'static str, Expect)],
}

/// A step's position.
pub enum Setup {
    /// A scenario for `players`, and the moves played so far (R6: colours in turn).
    Rumis {
        scenario: &'static str,
        players: u8,
        moves: &'static [&'static str],
    },
    /// The learner's rack and the table; the other tiles are the other player's rack
    /// (14) and the pool. `melded`: whether the learner has made the initial meld (K4).
    Rummikub {
        rack: &'static str,
        table: &'static str,
        melded: bool,
    },
}

/// What a wrong try gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// The rules refuse it, for this reason.
    Refused(RefusalCode),
    /// The rules accept it, but it misses the step's goal.
    Missed,
}

pub mod routes;
mod steps;

pub use routes::{check_step, routes, tutorial, TutorialLimits, Tutorials};
use steps::RUMMIKUB_LEARNER;
pub use steps::{RUMIS_STEPS, RUMMIKUB_STEPS};

/// A game's steps as written.
pub fn steps(game: GameKind) -> &'static [StepDef] {
    match game {
        GameKind::Rumis => RUMIS_STEPS,
        GameKind::Rummikub => RUMMIKUB_STEPS,
    }
}

/// A step's position in its engine, ready to take a move.
#[derive(Clone)]
enum Built {
    Rumis { table: Box<RumisTable>, seat: usize },
    Rummikub(Box<Round>),
}

struct BuiltStep {
    def: &'static StepDef,
    number: u32,
    game: Built,
}

/// A game's tutorial, built once: the steps in their engines, and the answer to
/// `GET /api/tutorial/{game}` (the same for everyone).
struct BuiltTutorial {
    steps: Vec<BuiltStep>,
    json: String,
}

fn built(game: GameKind) -> &'static BuiltTutorial {
    static RUMIS: OnceLock<BuiltTutorial> = OnceLock::new();
    static RUMMIKUB: OnceLock<BuiltTutorial> = OnceLock::new();
    let cell = match game {
        GameKind::Rumis => &RUMIS,
        GameKind::Rummikub => &RUMMIKUB,
    };
    cell.get_or_init(|| build(game).unwrap_or_else(|e| panic!("the {game:?} tutorial: {e}")))
}

/// Builds a game's tutorial; an error names the step whose position does not build.
fn build(game: GameKind) -> Result<BuiltTutorial, String> {
    let mut built = Vec::new();
    let mut wire = Vec::new();
    for (i, def) in steps(game).iter().enumerate() {
        let number = i as u32 + 1;
        let in_step = |e: String| format!("step {number} ({:?}): {e}", def.key);
        let game_of_step = position(&def.position).map_err(in_step)?;
        let step = BuiltStep {
            def,
            number,
            game: game_of_step,
        };
        let wrong = action(game, def.wrong[0].0).map_err(in_step)?;
        wire.push(TutorialStep {
            number,
            key: def.key,
            rules: def.rules.iter().map(|r| r.to_string()).collect(),
            goal: def.goal,
            view: step.view(None),
            wrong,
        });
        built.push(step);
    }
    let json = serde_json::to_string(&Tutorial { game, steps: wire }).map_err(|e| e.to_string())?;
    Ok(BuiltTutorial { steps: built, json })
}

/// A step's position, built by the engine.
fn position(setup: &Setup) -> Result<Built, String> {
    match *setup {
        Setup::Rumis {
            scenario,
            players,
            moves,
        } => {
            let settings = RumisSettings {
                scenario: scenario.into(),
                players,
                variant: "standard".into(),
                turn_seconds: None,
            };
            let mut table = RumisTable::new(&settings, 0)?;
            for text in moves {
                let seat = table.to_move().ok_or("the game is over")?;
                table
                    .apply(seat, &action(GameKind::Rumis, text)?)
                    .map_err(|e| format!("`{text}`: {e}"))?;
            }
            let seat = table.to_move().ok_or("the game is over")?;
            Ok(Built::Rumis {
                table: Box::new(table),
                seat,
            })
        }
        Setup::Rummikub {
            rack,
            table,
            melded,
        } => {
            let rack = parse_tiles(rack).map_err(|e| e.to_string())?;
            let table = parse_table(table).map_err(|e| e.to_string())?;
            // Every other tile of the box: the other player's rack, then the pool.
            let mut rest = TileCounts::from_tiles(&Tile::full_set());
            for tile in rack.iter().chain(table.iter().flat_map(Set::tiles)) {
                if !rest.remove(*tile) {
                    return Err(format!("a third {tile}"));
                }
            }
            let mut rest = rest.tiles();
            let pool = rest.split_off(14);
            let round = RoundSetup {
                rules: tutorial_rules(),
                racks: vec![rack, rest],
                table,
                pool,
                current: RUMMIKUB_LEARNER,
                melded: vec![melded, true],
            }
            .into_round()
            .map_err(|e| e.to_string())?;
            Ok(Built::Rummikub(Box::new(round)))
        }
    }
}

/// The current rules (K10) without the turn clock: a learner takes their time.
fn tutorial_rules() -> RuleSet {
    RuleSet {
        turn_time_seconds: None,
        ..RuleSet::current()
    }
}

/// A move as written in a step: Rumis notation, or a whole Rummikub table.
fn action(game: GameKind, text: &str) -> Result<GameAction, String> {
    Ok(match game {
        GameKind::Rumis => GameAction::Rumis(RumisAction::Notation {
            notation: RumisMove::parse(text)?,
        }),
        GameKind::Rummikub => GameAction::Rummikub(RummikubAction::Play {
            table: Sets::from_sets(&parse_table(text).map_err(|e| e.to_string())?),
        }),
    })
}

/// A move the rules refuse, with their reason.
fn refused(reason: String, why: Option<crate::wire::Reason>) -> TutorialCheck {
    TutorialCheck {
        done: false,
        legal: false,
        reason: Some(reason),
        why,
        view: None,
    }
}

impl BuiltStep {
    /// The learner's move on this step, played by the engine on a copy of the position.
    fn check(&self, action: &GameAction) -> Result<TutorialCheck, ApiError> {
        match &self.game {
            Built::Rumis { table, seat } => {
                let mut after = table.clone();
                match after.apply(*seat, action) {
                    Ok(_) => {}
                    Err(
                        e @ (ActionError::Refused(_)
                        | ActionError::Illegal(_)
                        | ActionError::OutOfTurn(_)),
                    ) => return Ok(refused(e.to_string(), e.why())),
                    Err(e) => return Err(e.into()),
                }
                let done = rumis_goal(self.def.goal, &after, *seat);
                let view = self.view(Some(&Built::Rumis {
                    table: after,
                    seat: *seat,
                }));
                Ok(TutorialCheck {
                    done,
                    legal: true,
                    reason: None,
                    why: None,
                    view: Some(view),
                })
            }
            Built::Rummikub(round) => {
                let sets =
                    match action {
                        GameAction::Rummikub(RummikubAction::Play { table }) => table.to_sets(),
                        GameAction::Rummikub(_) => return Err(ApiError::conflict(
                            ErrorCode::NotForThisGame,
                            "a tutorial step is done by a play: {\"type\": \"play\", \"table\": …}",
                        )),
                        GameAction::Rumis(_) => {
                            return Err(ApiError::conflict(
                                ErrorCode::NotForThisGame,
                                "this is a step of the Rummikub tutorial; that action is for Rumis",
                            ))
                        }
                    };
                let mut after = round.clone();
                let played = match after.apply(RUMMIKUB_LEARNER, Action::Play(sets)) {
                    Ok(Event::Played { tiles, .. }) => tiles,
                    Ok(_) => return Err(ApiError::internal("a play that was no play")),
                    Err(e) => {
                        return Ok(refused(
                            e.to_string(),
                            Some(crate::games::reasons::rummikub(&e)),
                        ))
                    }
                };
                let done = rummikub_goal(self.def.goal, round.table(), after.table(), &played);
                let view = self.view(Some(&Built::Rummikub(after)));
                Ok(TutorialCheck {
                    done,
                    legal: true,
                    reason: None,
                    why: None,
                    view: Some(view),
                })
            }
        }
    }

    /// The step's position (or `after` it), as the learner's seat sees it.
    fn view(&self, after: Option<&Built>) -> TableView {
        let game = after.unwrap_or(&self.game);
        let number = self.number;
        let (kind, you, seats, to_move, result, state) = match game {
            Built::Rumis { table, seat } => {
                let seats = table.seat_count();
                let result = table.result();
                let state = table.view_wire(Some(*seat), true, &default_names(seats));
                (
                    GameKind::Rumis,
                    *seat,
                    seats,
                    table.to_move(),
                    result,
                    state,
                )
            }
            Built::Rummikub(round) => {
                let last = after.map(|_| self.last_play(round));
                let state = GameView::Rummikub(Box::new(rummikub_view(round, last)));
                let to_move = Some(round.current_player()).filter(|_| !round.is_over());
                (
                    GameKind::Rummikub,
                    RUMMIKUB_LEARNER,
                    round.players(),
                    to_move,
                    None,
                    state,
                )
            }
        };
        let names = default_names(seats);
        let over = result.is_some();
        TableView {
            id: format!("tutorial-{}-{number}", kind.name()),
            game: kind,
            version: u64::from(after.is_some()),
            you: Some(you),
            status: if over {
                TableStatus::Over
            } else {
                TableStatus::Playing
            },
            waiting_for: Vec::new(),
            seats: (0..seats)
                .map(|seat| SeatView {
                    seat,
                    name: names[seat].clone(),
                    kind: SeatKind::Human,
                    bot: None,
                    claimed: true,
                    connected: true,
                    away_since_ms: None,
                    handover_ms: None,
                    account: None,
                    left: false,
                })
                .collect(),
            to_move,
            over,
            deadline_ms: None,
            turn_seconds: None,
            cancels_at_ms: None,
            // A tutorial has no bots, no hints and no rematch.
            hints: false,
            rated: false,
            seat_token: None,
            rematch: None,
            bot_trouble: Vec::new(),
            result: result.map(|r| {
                let winners: Vec<&str> = r.winners.iter().map(|&w| names[w].as_str()).collect();
                ResultView {
                    text: match winners.as_slice() {
                        [one] => format!("{one} wins"),
                        many => format!("{} share the win", many.join(" and ")),
                    },
                    winners: r.winners,
                    scores: r.scores,
                }
            }),
            // A tutorial's position is written here, not dealt: there is no deal to prove.
            fairness: Fairness {
                commitment: String::new(),
                practice_seed: None,
                seed: None,
                salt: None,
            },
            state,
        }
    }

    /// The learner's play on `after`, as the table says it (`melded` for the meld).
    fn last_play(&self, after: &Round) -> crate::wire::Event {
        let Built::Rummikub(before) = &self.game else {
            unreachable!("a Rummikub step")
        };
        let mut laid = TileCounts::from_tiles(before.rack(RUMMIKUB_LEARNER).iter());
        for tile in after.rack(RUMMIKUB_LEARNER) {
            laid.remove(tile);
        }
        let code = if before.has_melded(RUMMIKUB_LEARNER) {
            crate::wire::EventCode::Played
        } else {
            crate::wire::EventCode::Melded
        };
        let tiles: Vec<String> = laid.tiles().iter().map(Tile::to_string).collect();
        crate::games::reasons::event(code, json!({ "player": RUMMIKUB_LEARNER, "tiles": tiles }))
    }
}

/// The seats' names as a table gives them by default (the client says them in the
/// player's language).
fn default_names(seats: usize) -> Vec<String> {
    (1..=seats).map(|n| format!("Player {n}")).collect()
}

/// Whether a Rumis move that the rules accepted does what the step asks.
fn rumis_goal(goal: TutorialGoal, after: &RumisTable, seat: usize) -> bool {
    let position = after.position();
    let Some(&mv) = position.history().last() else {
        return false;
    };
    let cells = position.cells_of(mv);
    let board = position.board();
    match goal {
        TutorialGoal::BuildUp => cells.iter().any(|c| c.z > 0),
        TutorialGoal::ReachTop => cells.iter().any(|c| {
            let column = usize::from(c.y) * board.width + usize::from(c.x);
            c.z + 1 == board.limit(column)
        }),
        TutorialGoal::WinGame => after.result().is_some_and(|r| r.winners == [seat]),
        _ => true,
    }
}

/// Whether a Rummikub play that the rules accepted does what the step asks, judged on
/// the table before and after it and the tiles it took from the rack.
fn rummikub_goal(goal: TutorialGoal, before: &[Set], after: &[Set], played: &[Tile]) -> bool {
    let played = TileCounts::from_tiles(played);
    let counts = |set: &Set| TileCounts::from_tiles(set.tiles());
    let rules = tutorial_rules();
    // A new set of rack tiles only that reads as `kind` (K3).
    let laid_as = |kind: SetKind| {
        after.iter().any(|set| {
            counts(set).is_subset_of(&played)
                && readings(set.tiles(), &rules).iter().any(|r| r.kind == kind)
        })
    };
    let within = |old: &Set, new: &Set| counts(old).is_subset_of(&counts(new));
    match goal {
        TutorialGoal::Group => laid_as(SetKind::Group),
        TutorialGoal::Run => laid_as(SetKind::Run),
        TutorialGoal::AddToSet => before.iter().any(|old| {
            after
                .iter()
                .any(|new| within(old, new) && new.len() > old.len())
        }),
        TutorialGoal::Rearrange => before
            .iter()
            .any(|old| !after.iter().any(|new| within(old, new))),
        // The joker's new set holds a rack tile and none of its old set's other tiles.
        TutorialGoal::FreeJoker => {
            let old_mates: Vec<Tile> = before
                .iter()
                .filter(|s| s.jokers() > 0)
                .flat_map(|s| s.tiles().iter().copied().filter(|t| !t.is_joker()))
                .collect();
            after.iter().filter(|s| s.jokers() > 0).any(|set| {
                set.tiles().iter().any(|t| played.count(*t) > 0)
                    && !set.tiles().iter().any(|t| old_mates.contains(t))
            })
        }
        _ => true,
    }
}

fn rummikub_view(round: &Round, last_event: Option<crate::wire::Event>) -> RummikubView {
    let players = round.players();
    let tiles = |tiles: &[Tile]| tiles.iter().map(Tile::to_string).collect::<Vec<_>>();
    RummikubView {
        rules: crate::games::rummikub_table::rules_view("current", round.rules()),
        rack: Some(tiles(&round.rack(RUMMIKUB_LEARNER))),
        rack_sizes: (0..players).map(|p| round.rack_len(p)).collect(),
        melded: (0..players).map(|p| round.has_melded(p)).collect(),
        pool_size: round.pool_len(),
        table: round.table().iter().map(|set| tiles(set.tiles())).collect(),
        round: 1,
        rounds: 1,
        totals: vec![0; players],
        round_over: None,
        can_claim_redeal: false,
        // As a table says it in English ("Player 1 melded r2 r3 r4").
        last: last_event.as_ref().map(|e| {
            let tiles = e.params.get("tiles").and_then(|t| t.as_array());
            let tiles = tiles.into_iter().flatten().filter_map(|t| t.as_str());
            let verb = match e.code {
                crate::wire::EventCode::Melded => "melded",
                _ => "played",
            };
            let who = RUMMIKUB_LEARNER + 1;
            format!(
                "Player {who} {verb} {}",
                tiles.collect::<Vec<_>>().join(" ")
            )
        }),
        last_event,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every step builds in its engine, and its wrong try reads.
    #[test]
    fn every_step_builds() {
        for game in GameKind::ALL {
            let tutorial = build(game).unwrap();
            assert!(tutorial.steps.len() >= 5, "{game:?}");
        }
    }
}
