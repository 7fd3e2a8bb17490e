//! Perft counts for every base scenario and player count at depths 1 and 2, pinned, and
//! equal for the fast generator and the plain reference generator; the same for the
//! Rumis+ boards with 2 to 6 players, both first-stone rules (R6, R14), the inverse
//! variant (R15) and the dismantling game (R16), including its dismantling phase.
//!
//! The reference generator is slow at depth 2: by default it counts to depth 2 on the
//! setups of [`REFERENCE_AT_DEPTH_2`] (a base board, R14, R16) and to depth 1 on the
//! others, where the fast one still counts to depth 2. The long runs (`long_*`,
//! `RUMI_LONG=1 scripts/test`) take the reference to depth 2 everywhere.

use rumis::perft::perft;
use rumis::{FirstStones, Position, Scenario, Setup, Variant};

/// The setups on which the default run takes the reference generator to depth 2.
const REFERENCE_AT_DEPTH_2: [&str; 4] = [
    "chullpa 2p",
    "pisac 2p",
    "puncu 5p standard edge",
    "apachita 2p dismantle face",
];

/// Counts `setup` to depth 2 with both generators against the pinned `d1` and `d2`;
/// the reference only to depth 1 unless `reference_d2` or the setup is in
/// [`REFERENCE_AT_DEPTH_2`].
fn count(name: &str, setup: Setup, d1: u64, d2: u64, reference_d2: bool) {
    let fast = Position::new(setup.clone()).unwrap();
    let reference = Position::new_reference(setup).unwrap();
    assert_eq!(perft(&fast, 1), d1, "{name} depth 1 (fast)");
    assert_eq!(perft(&fast, 2), d2, "{name} depth 2 (fast)");
    assert_eq!(perft(&reference, 1), d1, "{name} depth 1 (reference)");
    if reference_d2 || REFERENCE_AT_DEPTH_2.contains(&name) {
        assert_eq!(perft(&reference, 2), d2, "{name} depth 2 (reference)");
    }
}

/// (scenario, players, depth 1, depth 2)
const PINNED: [(&str, u8, u64, u64); 18] = [
    ("chullpa", 2, 687, 165_662),
    ("chullpa", 3, 687, 165_662),
    ("chullpa", 4, 687, 165_662),
    ("pirka", 2, 1193, 266_614),
    ("pirka", 3, 1356, 346_198),
    ("pirka", 4, 1395, 360_750),
    ("tambo", 2, 1020, 141_136),
    ("tambo", 3, 1180, 193_768),
    ("tambo", 4, 1220, 204_464),
    ("pisac", 2, 1116, 328_002),
    ("pisac", 3, 1116, 328_002),
    ("pisac", 4, 1116, 328_002),
    ("coricancha", 2, 903, 261_928),
    ("coricancha", 3, 2911, 1_258_936),
    ("coricancha", 4, 2911, 1_258_936),
    ("cucho", 2, 1430, 509_136),
    ("cucho", 3, 1430, 509_136),
    ("cucho", 4, 1430, 509_136),
];

/// The rows of `key` ("": every row).
fn check(key: &str, reference_d2: bool) {
    for &(scenario, players, d1, d2) in PINNED.iter().filter(|row| key.is_empty() || row.0 == key) {
        let setup = Setup::new(Scenario::builtin(scenario).unwrap(), players);
        count(
            &format!("{scenario} {players}p"),
            setup,
            d1,
            d2,
            reference_d2,
        );
    }
}

#[test]
fn chullpa() {
    check("chullpa", false);
}

#[test]
fn pirka() {
    check("pirka", false);
}

#[test]
fn tambo() {
    check("tambo", false);
}

#[test]
fn pisac() {
    check("pisac", false);
}

#[test]
fn coricancha() {
    check("coricancha", false);
}

#[test]
fn cucho() {
    check("cucho", false);
}

#[test]
fn depth_one_on_chullpa_counts_each_stone_and_cell_set_once() {
    // On the empty 4 x 5 board every stone may stand anywhere (R6), lying on the board.
    // Count them from first principles: orientations whose every column starts at level
    // 0, at every translation that fits.
    let setup = Setup::new(Scenario::builtin("chullpa").unwrap(), 4);
    let game = Position::new(setup).unwrap();
    let mut expected = 0;
    for stone in rumis::Stone::ALL {
        for shape in stone.orientations() {
            let grounded = shape.cubes().iter().all(|c| {
                c[2] == 0
                    || shape
                        .cubes()
                        .iter()
                        .any(|d| d[0] == c[0] && d[1] == c[1] && d[2] == c[2] - 1)
            });
            let ext = shape.extent();
            if grounded && ext[2] <= 8 {
                expected += (4 - ext[0] as u64 + 1) * (5 - ext[1] as u64 + 1);
            }
        }
    }
    assert_eq!(perft(&game, 1), expected);
}

/// Rumis+: (scenario, players, variant, first stones, depth 1, depth 2).
const PINNED_PLUS: [(&str, u8, Variant, FirstStones, u64, u64); 14] = [
    // Colca for two is the 5 x 4 half at height 4: Chullpa's count for two (4 x 5).
    (
        "colca",
        2,
        Variant::Standard,
        FirstStones::Face,
        687,
        165_662,
    ),
    (
        "colca",
        6,
        Variant::Standard,
        FirstStones::Edge,
        1557,
        162_612,
    ),
    (
        "puncu",
        5,
        Variant::Standard,
        FirstStones::Edge,
        1065,
        74_708,
    ),
    (
        "apachita",
        6,
        Variant::Standard,
        FirstStones::Edge,
        1579,
        218_072,
    ),
    (
        "chaka",
        2,
        Variant::Standard,
        FirstStones::Face,
        1649,
        482_184,
    ),
    // R14 against R6 on the same board: edge-only second stones are fewer.
    (
        "chaka",
        5,
        Variant::Standard,
        FirstStones::Edge,
        1861,
        203_506,
    ),
    (
        "chaka",
        5,
        Variant::Standard,
        FirstStones::Face,
        1861,
        614_752,
    ),
    (
        "huaca",
        3,
        Variant::Standard,
        FirstStones::Face,
        1405,
        495_952,
    ),
    (
        "huaca",
        6,
        Variant::Inverse,
        FirstStones::Face,
        2677,
        1_156_928,
    ),
    (
        "incahuasi",
        6,
        Variant::Standard,
        FirstStones::Edge,
        2505,
        391_068,
    ),
    // R16: the build phase is the two-player game inside the red line.
    (
        "colca",
        2,
        Variant::Dismantle,
        FirstStones::Face,
        687,
        165_662,
    ),
    (
        "puncu",
        2,
        Variant::Dismantle,
        FirstStones::Face,
        687,
        141_530,
    ),
    (
        "apachita",
        2,
        Variant::Dismantle,
        FirstStones::Face,
        818,
        223_880,
    ),
    (
        "huaca",
        6,
        Variant::Standard,
        FirstStones::Edge,
        2677,
        449_816,
    ),
];

/// The rows of `key` ("": every row).
fn check_plus(key: &str, reference_d2: bool) {
    for &(scenario, players, variant, first, d1, d2) in
        PINNED_PLUS.iter().filter(|r| key.is_empty() || r.0 == key)
    {
        let setup = Setup::new(Scenario::builtin(scenario).unwrap(), players)
            .with_variant(variant)
            .with_first_stones(first);
        let name = format!("{scenario} {players}p {variant} {first}");
        count(&name, setup, d1, d2, reference_d2);
    }
}

#[test]
fn colca() {
    check_plus("colca", false);
}

#[test]
fn puncu() {
    check_plus("puncu", false);
}

#[test]
fn apachita() {
    check_plus("apachita", false);
}

#[test]
fn chaka() {
    check_plus("chaka", false);
}

#[test]
fn huaca() {
    check_plus("huaca", false);
}

#[test]
fn incahuasi() {
    check_plus("incahuasi", false);
}

#[test]
fn the_setups_counted_by_the_reference_at_depth_2_are_pinned() {
    let names: Vec<String> = PINNED
        .iter()
        .map(|r| format!("{} {}p", r.0, r.1))
        .chain(
            PINNED_PLUS
                .iter()
                .map(|r| format!("{} {}p {} {}", r.0, r.1, r.2, r.3)),
        )
        .collect();
    for name in REFERENCE_AT_DEPTH_2 {
        assert!(names.iter().any(|n| n == name), "{name} is no pinned setup");
    }
}

#[test]
#[ignore = "long run: RUMI_LONG=1 scripts/test"]
fn long_the_reference_counts_to_depth_2_on_every_base_board() {
    check("", true);
}

#[test]
#[ignore = "long run: RUMI_LONG=1 scripts/test"]
fn long_the_reference_counts_to_depth_2_on_every_rumis_plus_setup() {
    check_plus("", true);
}

/// R16's dismantling phase: from the interim score of each golden dismantling game,
/// plies alternate removal and placement (a removal that cannot be placed ends the
/// turn at once), counted by both generators.
#[test]
fn the_dismantling_phase() {
    for (file, d1, d2, d3) in DISMANTLING_PERFT {
        let path = format!("{}/tests/golden/{file}", env!("CARGO_MANIFEST_DIR"));
        let record =
            rumis::record::Record::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let scenario = Scenario::builtin(&record.scenario).unwrap();
        for reference in [false, true] {
            let setup = record.setup(scenario.clone());
            let mut game = if reference {
                Position::new_reference(setup).unwrap()
            } else {
                Position::new(setup).unwrap()
            };
            for (_, text) in &record.moves {
                if game.dismantling() {
                    break;
                }
                game.play_text(text).unwrap();
            }
            assert!(game.removing(), "{file}: at the interim score");
            let which = if reference { "reference" } else { "fast" };
            assert_eq!(perft(&game, 1), d1, "{file} depth 1 ({which})");
            assert_eq!(perft(&game, 2), d2, "{file} depth 2 ({which})");
            assert_eq!(perft(&game, 3), d3, "{file} depth 3 ({which})");
        }
    }
}

/// (golden record, depth 1, depth 2, depth 3) from its interim score.
const DISMANTLING_PERFT: [(&str, u64, u64, u64); 3] = [
    ("colca-2p-dismantle.record", 4, 40, 97),
    ("puncu-2p-dismantle.record", 5, 34, 152),
    ("apachita-2p-dismantle.record", 4, 24, 74),
];
