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
        "{\"placed\":[\"r4\",\"J\"],\"table\":[[\"r1\",\"r2\",\"r3\",\"r4\",\"J\"],[\"b5\",\"k5\",\"o5\"]],\"tiles\":2,\"value\":9,\"changed_sets\":1,\"fewest_changed_proven\":true}\n"
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
    assert!(
        out.contains("\"tiles\":1,\"value\":4,\"changed_sets\":1,"),
        "{out}"
    );
}

#[test]
fn a_plain_tile_list_or_no_table_is_accepted() {
    let (out, _, code) = solve(&["--table", "r1 r2 r3 b5 k5 o5", "--rack", "r4 b7", "--json"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("\"tiles\":1"), "{out}");
    let (out, _, code) = solve(&["--rack", "k11 k12 k13 o1", "--json"]);
    assert_eq!(code, Some(0));
    assert_eq!(out, "{\"placed\":[\"k11\",\"k12\",\"k13\"],\"table\":[[\"k11\",\"k12\",\"k13\"]],\"tiles\":3,\"value\":36,\"changed_sets\":0,\"fewest_changed_proven\":true}\n");
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
    assert!(value.contains("\"tiles\":5,\"value\":20,"), "{value}");
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
    assert_eq!(out, "{\"placed\":[\"b10\",\"k10\",\"o10\"],\"table\":[[\"r1\",\"r2\",\"r3\"],[\"b10\",\"k10\",\"o10\"]],\"tiles\":3,\"value\":30,\"changed_sets\":0,\"fewest_changed_proven\":true}\n");
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
fn past_the_state_limit_a_best_play_comes_without_the_fewest_changed_sets_proven() {
    // A full table with both jokers on it: the fewest-changed-sets search needs many
    // times the states of the search without it, walked up or down (see the solver's
    // oracle tests).
    let table = "[r9 b9 k9 o9] [r12 b12 k12 o12] [r3 b3 k3 o3] [r13 b13 k13 o13] \
                 [r6 b6 k6 o6] [r10 b10 k10 o10] [o4 o5 o6 o7 o8 o9] [r5 b5 k5 J] \
                 [r4 b4 k4 o4] [r3 J k3 o3] [r11 b11 k11 o11] [r8 b8 k8 o8] [r7 b7 k7 o7] \
                 [r2 b2 k2 o2] [r10 b10 k10 o10] [r1 b1 k1 o1] [b6 b7 b8 b9] [r5 r6 r7 r8 r9]";
    let rack = "r1 r13 b4 b12 k5 k7 k11 o2 o13";
    let (exact, _, code) = solve(&["--table", table, "--rack", rack, "--json"]);
    assert_eq!(code, Some(0));
    assert!(exact.contains("\"tiles\":9,"), "{exact}");
    assert!(exact.contains("\"fewest_changed_proven\":true"), "{exact}");
    let (limited, _, code) = solve(&[
        "--table",
        table,
        "--rack",
        rack,
        "--json",
        "--max-states",
        "2000",
    ]);
    assert_eq!(code, Some(0));
    assert!(
        limited.contains("\"tiles\":9,"),
        "still every rack tile: {limited}"
    );
    assert!(
        limited.contains("\"fewest_changed_proven\":false"),
        "{limited}"
    );
    let (drawn, _, _) = solve(&["--table", table, "--rack", rack, "--max-states", "2000"]);
    assert!(
        drawn.contains("the search for the fewest changed sets was too large"),
        "{drawn}"
    );
    // Below what even the search without the tie-break needs: refused, exit code 2.
    let (_, err, code) = solve(&["--table", table, "--rack", rack, "--max-states", "10"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("too large for the exact solver"), "{err}");
}
