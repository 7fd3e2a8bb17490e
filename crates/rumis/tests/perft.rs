//! Perft counts for every base scenario and player count at depths 1 and 2, pinned, and
//! equal for the fast generator and the plain reference generator.

use rumis::perft::perft;
use rumis::{Position, Scenario, Setup};

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

fn check(key: &str) {
    for &(scenario, players, d1, d2) in PINNED.iter().filter(|row| row.0 == key) {
        let setup = Setup::new(Scenario::builtin(scenario).unwrap(), players);
        let fast = Position::new(setup.clone()).unwrap();
        let reference = Position::new_reference(setup).unwrap();
        assert_eq!(perft(&fast, 1), d1, "{scenario} {players}p depth 1 (fast)");
        assert_eq!(perft(&fast, 2), d2, "{scenario} {players}p depth 2 (fast)");
        assert_eq!(
            perft(&reference, 1),
            d1,
            "{scenario} {players}p depth 1 (reference)"
        );
        assert_eq!(
            perft(&reference, 2),
            d2,
            "{scenario} {players}p depth 2 (reference)"
        );
    }
}

#[test]
fn chullpa() {
    check("chullpa");
}

#[test]
fn pirka() {
    check("pirka");
}

#[test]
fn tambo() {
    check("tambo");
}

#[test]
fn pisac() {
    check("pisac");
}

#[test]
fn coricancha() {
    check("coricancha");
}

#[test]
fn cucho() {
    check("cucho");
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
