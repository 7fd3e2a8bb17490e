//! `rumi solve rummikub`: the drawn table, the JSON answer, and exit code 2 for input
//! that is not a position.

mod common;

use common::{rumi, rumi_status};

fn solve(args: &[&str]) -> (String, String, Option<i32>) {
    let mut all = vec!["solve", "rummikub"];
    all.extend_from_slice(args);
    rumi_status(&all, "")
}

#[test]
fn the_issue_example_lays_the_four_and_the_joker() {
    let (out, _, code) = solve(&[
        "--table",
        "[r1 r2 r3] [b5 k5 o5]",
        "--rack",
        "r4 J b7",
        "--json",
    ]);
    assert_eq!(code, Some(0));
    assert_eq!(
        out,
        "{\"placed\":[\"r4\",\"J\"],\"table\":[[\"b5\",\"k5\",\"o5\"],[\"r1\",\"r2\",\"r3\",\"r4\",\"J\"]],\"tiles\":2,\"value\":9}\n"
    );
    // The drawn form marks the changed set and the rack tiles in it.
    let (out, _, code) = solve(&["--table", "[r1 r2 r3] [b5 k5 o5]", "--rack", "r4 J b7"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("    [b5 k5 o5]\n"), "{out}");
    assert!(out.contains("  + [r1 r2 r3 r4* J*]\n"), "{out}");
    assert!(out.contains("placed: r4 J (2 tiles, value 9)"), "{out}");
}

#[test]
fn rearranging_the_table_lays_a_tile_that_fits_nowhere_as_it_stands() {
    // r4 fits only by splitting the long run: [r1 r2 r3 r4] [r4 r5 r6 r7].
    let (out, _, code) = solve(&[
        "--table",
        "[r1 r2 r3 r4 r5 r6 r7]",
        "--rack",
        "r4",
        "--json",
    ]);
    assert_eq!(code, Some(0));
    assert!(out.starts_with("{\"placed\":[\"r4\"]"), "{out}");
    assert!(out.contains("\"tiles\":1,\"value\":4}"), "{out}");
}

#[test]
fn a_plain_tile_list_or_no_table_is_accepted() {
    let (out, _, code) = solve(&["--table", "r1 r2 r3 b5 k5 o5", "--rack", "r4 b7", "--json"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("\"tiles\":1"), "{out}");
    let (out, _, code) = solve(&["--rack", "k11 k12 k13 o1", "--json"]);
    assert_eq!(code, Some(0));
    assert_eq!(out, "{\"placed\":[\"k11\",\"k12\",\"k13\"],\"table\":[[\"k11\",\"k12\",\"k13\"]],\"tiles\":3,\"value\":36}\n");
}

#[test]
fn the_value_objective_puts_the_joker_where_it_counts_most() {
    let args = [
        "solve",
        "rummikub",
        "--table",
        "[r5 r6 r7]",
        "--rack",
        "J r8 b1 k1 o1",
        "--json",
    ];
    let (tiles, _, ok) = rumi(&args, "");
    assert!(ok);
    assert!(tiles.contains("\"tiles\":5"), "{tiles}");
    // r8 and the joker as r9 on the run, the 1s as a group: 8 + 9 + 3.
    let (value, _, _) = solve(&[
        "--table",
        "[r5 r6 r7]",
        "--rack",
        "J r8 b1 k1 o1",
        "--json",
        "--objective",
        "value",
    ]);
    assert!(value.ends_with("\"tiles\":5,\"value\":20}\n"), "{value}");
}

#[test]
fn k4_the_initial_meld_needs_30_from_the_rack_alone() {
    let (out, _, code) = solve(&[
        "--table",
        "[r1 r2 r3]",
        "--rack",
        "r4 b9 k9 o9",
        "--initial",
    ]);
    assert_eq!(code, Some(0));
    assert!(out.starts_with("no play"), "{out}");
    let (out, _, _) = solve(&[
        "--table",
        "[r1 r2 r3]",
        "--rack",
        "r4 b10 k10 o10",
        "--initial",
        "--json",
    ]);
    assert_eq!(out, "{\"placed\":[\"b10\",\"k10\",\"o10\"],\"table\":[[\"r1\",\"r2\",\"r3\"],[\"b10\",\"k10\",\"o10\"]],\"tiles\":3,\"value\":30}\n");
}

#[test]
fn old_rules_runs_wrap_around_13() {
    let (out, _, _) = solve(&["--table", "[r11 r12 r13]", "--rack", "r1 r2", "--json"]);
    assert!(out.starts_with("{\"placed\":[]"), "{out}");
    let (out, _, _) = solve(&[
        "--table",
        "[r11 r12 r13]",
        "--rack",
        "r1 r2",
        "--rules",
        "old",
        "--json",
    ]);
    assert!(out.contains("\"tiles\":2"), "{out}");
}

#[test]
fn malformed_input_exits_with_2_and_says_what_is_wrong() {
    for (args, message) in [
        (
            vec!["--table", "[r1 r2 r3]", "--rack", "x4"],
            "--rack: unknown tile 'x4'",
        ),
        (
            vec!["--table", "[r1 r2 r3]", "--rack", "r1 r1"],
            "hold 3 of r1",
        ),
        (
            vec!["--table", "[r1 r2]", "--rack", "r3"],
            "table set 1 [r1 r2] has only 2 tiles",
        ),
        (
            vec!["--table", "r1 r2 b4", "--rack", "r4"],
            "cannot be arranged into valid sets",
        ),
        (vec!["--table", "[r1 r2 r3", "--rack", "r4"], "not closed"),
        (
            vec!["--rack", "r4", "--rules", "new"],
            "unknown rule preset 'new'",
        ),
    ] {
        let (out, err, code) = solve(&args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(out.is_empty());
    }
}

#[test]
fn the_solver_bench_agrees_with_the_integer_program_and_draws_the_table_sizes() {
    let (out, err, code) = rumi_status(&["bench", "solver", "--positions", "6"], "");
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("(a) self-play suite (6 positions, 0 refused as too large)"),
        "{out}"
    );
    assert!(out.contains("disagreements: 0"), "{out}");
    assert!(out.contains("by table size"), "{out}");
    assert!(out.contains("  table  0-9 "), "{out}");
    assert!(out.contains("full table, old rules"), "{out}");
    // Each position by both in turn: the same comparison.
    let (out, err, code) = rumi_status(
        &["bench", "solver", "--positions", "4", "--interleaved"],
        "",
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("ILP     p50"), "{out}");
    assert!(out.contains("disagreements: 0"), "{out}");
    // A rule preset that does not exist is a usage error.
    let (_, err, code) = rumi_status(&["bench", "solver", "--rules", "bogus"], "");
    assert_eq!(code, Some(2));
    assert!(err.contains("unknown rule preset 'bogus'"), "{err}");
    // Timing each position zero times would time nothing.
    let (_, err, code) = rumi_status(&["bench", "solver", "--repeat", "0"], "");
    assert_eq!(code, Some(2));
    assert!(err.contains("--repeat"), "{err}");
}
