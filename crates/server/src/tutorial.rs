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

use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};

use axum::extract::{ConnectInfo, Path};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use rummikub::notation::{parse_table, parse_tiles};
use rummikub::set::{readings, SetKind};
use rummikub::tile::TileCounts;
use rummikub::{Action, Event, Round, RoundSetup, RuleSet, Set, Tile};
use serde_json::json;

use crate::error::ApiError;
use crate::games::{ActionError, RumisTable, TableGame};
use crate::http::extract::JsonBody;
use crate::hub::Hub;
use crate::transport::RateLimiter;
use crate::wire::{
    ErrorBody, ErrorCode, Fairness, GameAction, GameKind, GameView, RefusalCode, ResultView,
    RumisAction, RumisMove, RumisSettings, RummikubAction, RummikubView, SeatKind, SeatView, Sets,
    TableStatus, TableView, Tutorial, TutorialCheck, TutorialGoal, TutorialKey, TutorialStep,
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

/// The learner plays seat 0 at Rummikub (their turn).
const RUMMIKUB_LEARNER: usize = 0;

/// The Rumis tutorial: Chullpa for two players (cap 4), one build growing step by step.
pub const RUMIS_STEPS: &[StepDef] = &[
    StepDef {
        key: TutorialKey::RumisFirstStone,
        // R6: the very first stone goes anywhere inside the footprint; R4: nothing outside.
        rules: &["R6", "R4"],
        goal: TutorialGoal::Legal,
        position: Setup::Rumis {
            scenario: "chullpa",
            players: 2,
            moves: &[],
        },
        solution: "L4 a1:1 b1:1 c1:1 a2:1",
        wrong: &[(
            "I4 c4:1 d4:1 e4:1 f4:1",
            Expect::Refused(RefusalCode::Outside),
        )],
    },
    StepDef {
        key: TutorialKey::RumisFirstTouch,
        // R6: every other first stone touches a placed stone by a face and lies on the board.
        rules: &["R6"],
        goal: TutorialGoal::Legal,
        position: Setup::Rumis {
            scenario: "chullpa",
            players: 2,
            moves: &["L4 a1:1 b1:1 c1:1 a2:1"],
        },
        solution: "O4 b2:1 c2:1 b3:1 c3:1",
        wrong: &[
            (
                "O4 c4:1 d4:1 c5:1 d5:1",
                Expect::Refused(RefusalCode::FirstTouch),
            ),
            ("D2 a1:2 b1:2", Expect::Refused(RefusalCode::FirstOnBoard)),
        ],
    },
    StepDef {
        key: TutorialKey::RumisOwnColour,
        // R7: after the first, every stone touches its own colour by a face; R2: an
        // edge is not a face.
        rules: &["R7", "R2"],
        goal: TutorialGoal::Legal,
        position: Setup::Rumis {
            scenario: "chullpa",
            players: 2,
            moves: &["L4 a1:1 b1:1 c1:1 a2:1", "O4 b2:1 c2:1 b3:1 c3:1"],
        },
        solution: "D2 d1:1 d2:1",
        // Red only by an edge (c1), blue by a face (c2).
        wrong: &[("D2 d2:1 d3:1", Expect::Refused(RefusalCode::OwnContact))],
    },
    StepDef {
        key: TutorialKey::RumisNoHole,
        // R3: every cube rests on the board or on a cube.
        rules: &["R3"],
        goal: TutorialGoal::BuildUp,
        position: Setup::Rumis {
            scenario: "chullpa",
            players: 2,
            moves: &[
                "L4 a1:1 b1:1 c1:1 a2:1",
                "O4 b2:1 c2:1 b3:1 c3:1",
                "D2 d1:1 d2:1",
                "D2 a3:1 a4:1",
            ],
        },
        solution: "O4 c1:2 d1:2 c2:2 d2:2",
        // The square lying on c2, d2 and c3 would float over d3.
        wrong: &[(
            "O4 c2:2 d2:2 c3:2 d3:2",
            Expect::Refused(RefusalCode::HoleUnder),
        )],
    },
    StepDef {
        key: TutorialKey::RumisHeight,
        // R4: Chullpa for two is built at most 4 levels high.
        rules: &["R4"],
        goal: TutorialGoal::ReachTop,
        position: Setup::Rumis {
            scenario: "chullpa",
            players: 2,
            moves: &[
                "L4 a1:1 b1:1 c1:1 a2:1",
                "O4 b2:1 c2:1 b3:1 c3:1",
                "D2 d1:1 d2:1",
                "D2 a3:1 a4:1",
                "O4 c1:2 d1:2 c2:2 d2:2",
                "I3 b4:1 c4:1 d4:1",
            ],
        },
        solution: "L3 c1:3 d1:3 d1:4",
        wrong: &[
            (
                "I4 d1:3 d1:4 d1:5 d1:6",
                Expect::Refused(RefusalCode::TooHigh),
            ),
            ("L3 c1:3 d1:3 c2:3", Expect::Missed),
        ],
    },
    StepDef {
        key: TutorialKey::RumisScoring,
        // R8: a colour that cannot place is out, and the game ends when all are; R9:
        // squares seen from above count, unplaced stones cost one each.
        rules: &["R9", "R8"],
        goal: TutorialGoal::WinGame,
        position: Setup::Rumis {
            scenario: "chullpa",
            players: 2,
            moves: &[
                "T4 d1:1 c2:1 d2:1 d3:1",
                "T4 b2:1 a3:1 b3:1 c3:1",
                "L4 a1:1 b1:1 c1:1 a2:1",
                "O4 b4:1 c4:1 b5:1 c5:1",
                "S4 a2:2 a3:2 b3:2 b4:2",
                "L4 c1:2 c2:2 c3:2 d3:2",
                "A4 d4:1 d5:1 c4:2 d4:2",
                "A4 b5:2 b4:3 c4:3 b5:3",
                "Y4 c3:3 d3:3 d4:3 d3:4",
                "B4 a2:3 a3:3 b3:3 b3:4",
                "B4 b2:2 c1:3 b2:3 c2:3",
                "L3 b2:4 c2:4 c3:4",
                "L3 a4:1 a5:1 a4:2",
                "S4 a5:2 a4:3 a5:3 a4:4",
                "I3 b4:4 c4:4 d4:4",
                "D2 d1:2 d2:2",
                "O4 d1:3 d2:3 d1:4 d2:4",
                "I3 b1:2 b1:3 b1:4",
            ],
        },
        // Two blue squares covered: red 10, blue 7.
        solution: "D2 a5:4 b5:4",
        // Red covers its own square: blue wins 9 to 8.
        wrong: &[("D2 a1:2 a1:3", Expect::Missed)],
    },
];

/// The Rummikub tutorial: current rules without a clock, the learner to play.
pub const RUMMIKUB_STEPS: &[StepDef] = &[
    StepDef {
        key: TutorialKey::RummikubGroup,
        // K3: a group is three or four tiles of one number in different colours.
        rules: &["K3"],
        goal: TutorialGoal::Group,
        position: Setup::Rummikub {
            rack: "r7 r7 b7 k7 o2 b11",
            table: "[k1 k2 k3]",
            melded: true,
        },
        solution: "[k1 k2 k3] [r7 b7 k7]",
        wrong: &[(
            "[k1 k2 k3] [r7 r7 b7]",
            Expect::Refused(RefusalCode::SetProblem),
        )],
    },
    StepDef {
        key: TutorialKey::RummikubRun,
        // K3: a run is three or more tiles of one colour in a row.
        rules: &["K3"],
        goal: TutorialGoal::Run,
        position: Setup::Rummikub {
            rack: "b4 b5 b6 b8 k10 r1",
            table: "[o9 o10 o11]",
            melded: true,
        },
        solution: "[o9 o10 o11] [b4 b5 b6]",
        wrong: &[(
            "[o9 o10 o11] [b4 b5 b6 b8]",
            Expect::Refused(RefusalCode::SetProblem),
        )],
    },
    StepDef {
        key: TutorialKey::RummikubInitialMeld,
        // K4: new sets from the rack only, worth 30 or more, the table untouched.
        rules: &["K4"],
        goal: TutorialGoal::Legal,
        position: Setup::Rummikub {
            rack: "r2 r3 r4 r5 r6 b5 k5 o5 k9 b13",
            table: "[k10 k11 k12]",
            melded: false,
        },
        solution: "[k10 k11 k12] [r2 r3 r4 r5 r6] [b5 k5 o5]",
        wrong: &[
            // 14 + 15 = 29.
            (
                "[k10 k11 k12] [r2 r3 r4 r5] [b5 k5 o5]",
                Expect::Refused(RefusalCode::MeldValue),
            ),
            (
                "[k9 k10 k11 k12] [r2 r3 r4 r5 r6] [b5 k5 o5]",
                Expect::Refused(RefusalCode::MeldTouch),
            ),
        ],
    },
    StepDef {
        key: TutorialKey::RummikubAddToSet,
        // K5: once melded, tiles may be added to the sets on the table; K3: a run
        // grows in its own colour.
        rules: &["K5", "K3"],
        goal: TutorialGoal::AddToSet,
        position: Setup::Rummikub {
            rack: "b12 b4 r12 k8 o1",
            table: "[b9 b10 b11] [r4 k4 o4]",
            melded: true,
        },
        solution: "[b9 b10 b11 b12] [r4 k4 o4]",
        wrong: &[(
            "[b9 b10 b11 r12] [r4 k4 o4]",
            Expect::Refused(RefusalCode::SetProblem),
        )],
    },
    StepDef {
        key: TutorialKey::RummikubRearrange,
        // K5: the table may be rebuilt at will if every set is valid when the turn ends.
        rules: &["K5", "K3"],
        goal: TutorialGoal::Rearrange,
        position: Setup::Rummikub {
            rack: "b5 k7 k8 r1 o12",
            table: "[b3 b4 b5 b6 b7] [r9 k9 o9 b9]",
            melded: true,
        },
        solution: "[b3 b4 b5] [b5 b6 b7] [r9 k9 o9 b9]",
        wrong: &[(
            "[b3 b4 b5 b6 b7] [b5] [r9 k9 o9 b9]",
            Expect::Refused(RefusalCode::SetProblem),
        )],
    },
    StepDef {
        key: TutorialKey::RummikubJoker,
        // K3: a joker stands for any tile; K5: it may be moved like any table tile, but
        // never taken off the table.
        rules: &["K5", "K3"],
        goal: TutorialGoal::FreeJoker,
        position: Setup::Rummikub {
            rack: "r6 k12 o12 b1 k3",
            table: "[r5 J r7] [b9 b10 b11]",
            melded: true,
        },
        solution: "[r5 r6 r7] [b9 b10 b11] [k12 o12 J]",
        wrong: &[
            (
                "[r5 r6 r7] [b9 b10 b11]",
                Expect::Refused(RefusalCode::LeftTable),
            ),
            ("[r5 J r7 r6] [b9 b10 b11]", Expect::Missed),
        ],
    },
];

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
                scenario: scenario.to_string(),
                players,
                variant: "standard".into(),
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
                    Err(ActionError::Refused(reason, why)) => {
                        return Ok(refused(reason, Some(why)))
                    }
                    Err(ActionError::Illegal(reason) | ActionError::OutOfTurn(reason)) => {
                        return Ok(refused(reason, None))
                    }
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
                let state = table.view(Some(*seat), true, &default_names(seats));
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
                })
                .collect(),
            to_move,
            over,
            deadline_ms: None,
            // A tutorial has no bots, no hints and no rematch.
            hints: false,
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

/// The limits of the tutorial's checks.
#[derive(Clone, Debug)]
pub struct TutorialLimits {
    /// Checks per client address and minute, a minute's worth at once (0: no cap).
    pub checks_per_minute_per_address: u32,
}

impl Default for TutorialLimits {
    fn default() -> Self {
        // A learner's red ghost asks once per new placement: a few a second at most.
        TutorialLimits {
            checks_per_minute_per_address: 300,
        }
    }
}

/// The checks' rate per client address.
pub struct Checks {
    limits: TutorialLimits,
    per_address: Option<RateLimiter>,
}

/// The tutorial's routes, with their own rate limit per client address.
pub fn routes(limits: TutorialLimits) -> Router<Arc<Hub>> {
    let checks = Arc::new(Checks {
        per_address: RateLimiter::per_minute(limits.checks_per_minute_per_address),
        limits,
    });
    Router::new()
        .route("/api/tutorial/{game}", get(tutorial))
        .route(
            "/api/tutorial/{game}/{step}/check",
            post(check_step).route_layer(axum::middleware::from_fn(
                crate::transport::json_writes_only,
            )),
        )
        .layer(Extension(checks))
}

/// The game of the address (`rumis`, `rummikub`); another is not found.
fn game_named(name: &str) -> Result<GameKind, ApiError> {
    GameKind::ALL
        .into_iter()
        .find(|g| g.name() == name)
        .ok_or_else(|| {
            ApiError::not_found(
                ErrorCode::NotFound,
                "there is a tutorial for rumis and for rummikub",
            )
        })
}

/// A game's tutorial: its steps, each a position with its rulings, goal and a typical
/// wrong try.
#[utoipa::path(get, path = "/api/tutorial/{game}",
    params(("game" = GameKind, Path)),
    responses(
        (status = 200, body = Tutorial),
        (status = 404, body = ErrorBody, description = "No tutorial for that game"),
    ))]
pub async fn tutorial(Path(game): Path<String>) -> Result<impl IntoResponse, ApiError> {
    let game = game_named(&game)?;
    Ok((
        [("content-type", "application/json")],
        built(game).json.clone(),
    ))
}

/// Plays a move on a tutorial step: the engine accepts it (`legal`, with the position
/// after it, and `done` when it does what the step asks) or refuses it with its
/// reason. Nothing is stored.
#[utoipa::path(post, path = "/api/tutorial/{game}/{step}/check", request_body = GameAction,
    params(("game" = GameKind, Path), ("step" = u32, Path, description = "The step's number, from 1")),
    responses(
        (status = 200, body = TutorialCheck),
        (status = 400, body = ErrorBody, description = "Malformed"),
        (status = 404, body = ErrorBody, description = "No such game or step"),
        (status = 409, body = ErrorBody, description = "An action of the other game, or one that is not a move (a draw)"),
        (status = 429, body = ErrorBody, description = "Too many checks from this address (Retry-After)"),
    ))]
pub async fn check_step(
    Path((game, step)): Path<(String, String)>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    Extension(checks): Extension<Arc<Checks>>,
    JsonBody(action): JsonBody<GameAction>,
) -> Result<Json<TutorialCheck>, ApiError> {
    let game = game_named(&game)?;
    let tutorial = built(game);
    let step = step
        .parse::<usize>()
        .ok()
        .and_then(|n| tutorial.steps.get(n.checked_sub(1)?))
        .ok_or_else(|| {
            ApiError::not_found(
                ErrorCode::NotFound,
                format!(
                    "the {} tutorial has steps 1 to {}",
                    game.title(),
                    tutorial.steps.len()
                ),
            )
        })?;
    if let Some(Err(wait)) = checks.per_address.as_ref().map(|l| l.check(from.ip())) {
        return Err(ApiError::too_many_for(
            ErrorCode::RateLimited,
            format!(
                "your address may check {} tutorial moves a minute; wait a moment",
                checks.limits.checks_per_minute_per_address
            ),
            wait,
        ));
    }
    Ok(Json(step.check(&action)?))
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
