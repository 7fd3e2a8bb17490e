//! The steps of both tutorials as written: positions, goals, solutions and wrong tries.

use super::{Expect, Setup, StepDef};
use crate::wire::{RefusalCode, TutorialGoal, TutorialKey};

/// The learner plays seat 0 at Rummikub (their turn).
pub(super) const RUMMIKUB_LEARNER: usize = 0;

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
