//! The built `rumi` binary on the solo cube (R12): counting the Soma cube,
//! solving and drawing, a piped building session, and the errors a user can run into.

mod common;
use common::rumi;

#[test]
fn the_soma_cube_counts_240_and_11520() {
    let (out, err, ok) = rumi(
        &[
            "solo",
            "cube",
            "--edge",
            "3",
            "--colours",
            "1",
            "--leave-out",
            "D2,I3,O4,I4",
            "--count",
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(out.starts_with("cube puzzle: edge 3, 1 colour(s), without D2 I3 O4 I4\n"));
    assert!(out.contains("solutions as placed: 11520\n"));
    assert!(out.contains("solutions up to the 48 symmetries of this puzzle: 240\n"));
    // Piped output is plain: no progress bar, no ANSI colour.
    assert!(!out.contains('\x1b') && !err.contains('\x1b'));
}

/// `rumi puzzle`, the command's old name, still runs it (scripts keep working) and
/// says once on stderr that it is `rumi solo` now; `rumi solo` says nothing of it.
#[test]
fn the_old_name_puzzle_still_works_and_says_it_is_solo_now() {
    let args = ["cube", "--edge", "3", "--colours", "2", "--solve"];
    let (new_out, new_err, ok) = rumi(&[&["solo"][..], &args].concat(), "");
    assert!(ok, "{new_err}");
    assert!(!new_err.contains("rumi puzzle"), "{new_err}");
    let (old_out, old_err, ok) = rumi(&[&["puzzle"][..], &args].concat(), "");
    assert!(ok, "{old_err}");
    assert_eq!(old_out, new_out);
    assert_eq!(
        old_err
            .lines()
            .filter(|l| l.contains("`rumi puzzle` is now `rumi solo`"))
            .count(),
        1,
        "{old_err}"
    );
}

#[test]
fn solve_draws_the_cube_level_by_level() {
    let (out, err, ok) = rumi(
        &["solo", "cube", "--edge", "5", "--colours", "4", "--solve"],
        "",
    );
    assert!(ok, "{err}");
    assert!(out.contains("    level 1     level 2     level 3     level 4     level 5\n"));
    assert!(out.contains("    a b c d e   a b c d e   a b c d e   a b c d e   a b c d e\n"));
    let grid: Vec<&str> = out.lines().skip(4).take(5).collect();
    assert!(grid[0].starts_with(" 1  "), "{out}");
    assert!(!out.contains(" . "), "every cell filled");
    // The legend: one line per stone, with colour and cells, 125 cubes in all.
    let cubes: usize = out
        .lines()
        .filter(|l| l.starts_with("  ") && l.contains(':'))
        .map(|l| l.split_whitespace().count() - 3)
        .sum();
    assert_eq!(cubes, 125, "{out}");
}

#[test]
fn a_piped_building_session() {
    let (out, err, ok) = rumi(
        &["solo", "cube", "--edge", "3", "--colours", "2", "--rules"],
        "I3 a1 b1 c1\nI3 a1 b1 c1\nhint\nblue L3 a3 b3 a3\nundo\nquit\n",
    );
    assert!(ok, "{err}");
    assert!(out.contains("cube puzzle: edge 3, 2 colour(s), placement rules\n"));
    assert!(out.contains("red > I3 a1 b1 c1\nplaced red I3 a1:1 b1:1 c1:1\n"));
    // Without levels the stone lands on top: blue's I3 lies on red's.
    assert!(out.contains("blue > I3 a1 b1 c1\nplaced blue I3 a1:2 b1:2 c1:2\n"));
    assert!(out.contains("red > hint\nthe cube can still be completed; try: red "));
    assert!(out.contains("red > blue L3 a3 b3 a3\nnot placed: it is red's turn, not blue's"));
    assert!(out.contains("red > undo\ntook back blue I3 a1:2 b1:2 c1:2\n"));
    assert!(out.ends_with("blue > quit\nstopped with 1 stones placed\n"));
}

#[test]
fn bad_requests_are_explained() {
    let fails = |args: &[&str], wanted: &str| {
        let mut all = vec!["solo", "cube"];
        all.extend_from_slice(args);
        let (_, err, ok) = rumi(&all, "");
        assert!(!ok, "{args:?} should fail");
        assert!(err.contains(wanted), "{args:?}: {err}");
        assert!(!err.contains("panicked"));
    };
    fails(
        &["--edge", "6", "--solve"],
        "error: there is no solo cube of edge 6: the edge is 3, 4 or 5 (R12)",
    );
    fails(
        &["--edge", "3", "--colours", "7", "--solve"],
        "error: 7 colours cannot be chosen: there are 1 to 6",
    );
    fails(
        &["--edge", "3", "--colours", "0", "--solve"],
        "error: 0 colours cannot be chosen",
    );
    fails(
        &["--edge", "5", "--colours", "3", "--solve"],
        "a cube of edge 5 has 125 cells, but 3 colour(s) hold only 120 cubes",
    );
    fails(
        &["--edge", "3", "--colours", "1", "--alternate", "--solve"],
        "alternating colours needs at least two colours",
    );
    fails(
        &[
            "--edge",
            "3",
            "--colours",
            "3",
            "--rules",
            "--alternate",
            "--solve",
        ],
        "--rules and --alternate cannot both hold",
    );
    fails(
        &["--edge", "3", "--leave-out", "D2,X7", "--solve"],
        "unknown stone `X7` in --leave-out",
    );
    fails(
        &["--edge", "3", "--count", "--solve"],
        "cannot be used with",
    );
}

/// `rumi solo table` decides every combination it is given (here the small cube): a
/// Markdown table on stdout, a line per combination on stderr as it is decided.
#[test]
fn the_table_decides_every_small_cube() {
    let (out, err, ok) = rumi(&["solo", "table", "--edges", "3"], "");
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "| edge | colours | rules | alternate | answer | stones | time |"
    );
    assert_eq!(lines.len(), 2 + 16, "{out}");
    let row = |colours: u8, rules: &str, alternate: &str| {
        let start = format!("| 3 | {colours} | {rules} | {alternate} | ");
        lines
            .iter()
            .find(|l| l.starts_with(&start))
            .unwrap_or_else(|| panic!("no row {start}"))
            .to_string()
    };
    assert!(row(1, "–", "–").contains("| solved | 7 |"));
    assert!(row(4, "yes", "–").contains("| solved |"));
    assert!(row(3, "–", "yes").contains("| solved |"));
    assert!(row(2, "–", "yes").contains("| none: search exhausted | – |"));
    assert!(row(1, "–", "yes").contains("none: one colour cannot alternate (PD5)"));
    assert!(row(2, "yes", "yes").contains("(PD6)"));
    assert!(!out.contains("undecided"));
    // Progress: one line per combination, as it is decided.
    assert_eq!(
        err.lines().filter(|l| l.starts_with('[')).count(),
        16,
        "{err}"
    );
}
