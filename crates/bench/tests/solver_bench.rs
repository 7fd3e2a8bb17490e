//! `rumi-bench solver`: the Rummikub solver against the integer program, and the
//! figures it draws.

use std::process::Command;

/// `rumi-bench ARGS`: its output, errors and exit code.
fn bench(args: &[&str]) -> (String, String, Option<i32>) {
    let output = Command::new(env!("CARGO_BIN_EXE_rumi-bench"))
        .args(args)
        .output()
        .expect("rumi-bench runs");
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        output.status.code(),
    )
}

/// `rumi-bench solver` on 12 self-play positions without the integer program, with
/// `extra` options: its output, and the line that starts with `prefix` (there must be
/// one, and the command must succeed).
fn bench_solver_line(extra: &[&str], prefix: &str) -> (String, String) {
    let mut all = vec!["solver", "--positions", "12", "--no-ilp"];
    all.extend_from_slice(extra);
    let (out, err, code) = bench(&all);
    assert_eq!(code, Some(0), "{err}");
    let line = out
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("{out}"))
        .to_string();
    (out, line)
}

#[test]
fn the_solver_bench_agrees_with_the_integer_program_and_draws_the_table_sizes() {
    let (out, err, code) = bench(&["solver", "--positions", "6"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("(a) self-play suite (6 positions, 0 refused as too large, 0 answered without the fewest-changed tie-break proven)"),
        "{out}"
    );
    // The work in states, whatever the machine.
    assert!(out.contains("  states  p50 "), "{out}");
    assert!(out.contains("disagreements: 0"), "{out}");
    assert!(out.contains("by table size"), "{out}");
    assert!(out.contains("  table  0-9 "), "{out}");
    assert!(out.contains("full table, old rules"), "{out}");
    // Each position by both in turn: the same comparison.
    let (out, err, code) = bench(&["solver", "--positions", "4", "--interleaved"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("ILP     p50"), "{out}");
    assert!(out.contains("disagreements: 0"), "{out}");
    // The positions that stored the most states, searched one way at a time: one digit
    // per way (26 under the old rules), the best way 0 (log2 of its states over its
    // own), and the totals.
    let (out, err, code) = bench(&[
        "solver",
        "--rules",
        "old",
        "--positions",
        "8",
        "--no-ilp",
        "--ways",
        "2",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains(
            "(c) the 2 positions that stored the most states, each way of walking alone (26 ways"
        ),
        "{out}"
    );
    let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("  no. ")).collect();
    assert_eq!(rows.len(), 2, "{out}");
    for row in rows {
        let digits = row.rsplit(' ').next().unwrap_or_default();
        assert_eq!(digits.len(), 26, "{row}");
        assert!(digits.chars().all(|c| c.is_ascii_digit()), "{row}");
        assert!(digits.contains('0'), "the best way is one of them: {row}");
    }
    assert!(out.contains("  in all: the solver "), "{out}");
    // The heaviest positions solved again: their states (the largest of the suite's)
    // and the time a state costs there.
    let (out, line) = bench_solver_line(
        &["--heaviest", "3", "--loops", "2"],
        "(d) the 3 positions that stored the most states (at least ",
    );
    assert!(line.contains(", each solved 2 times: "), "{line}");
    let stored: usize = line
        .split(" times: ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    let suite_max: usize = out
        .lines()
        .find(|l| l.trim_start().starts_with("states  p50"))
        .and_then(|l| l.split_whitespace().last())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        stored >= suite_max,
        "the heaviest three hold the suite's max: {line}"
    );
    assert!(line.ends_with(" µs a state"), "{line}");
    // Every position listed: the states a perfect choice of the way would store at p99
    // (the best way of each), at most the first way's.
    let (_, line) = bench_solver_line(
        &["--ways", "12"],
        "  states at p99 of these 12 positions: the solver ",
    );
    let figures: Vec<usize> = line
        .split([' ', ','])
        .filter_map(|w| w.parse().ok())
        .collect();
    let &[_, solver, best, first] = figures.as_slice() else {
        panic!("{line}");
    };
    assert!(best <= first, "{line}");
    assert!(solver > 0 && best > 0, "{line}");
    // A rule preset that does not exist is a usage error.
    let (_, err, code) = bench(&["solver", "--rules", "bogus"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("unknown rule preset 'bogus'"), "{err}");
    // Timing each position zero times would time nothing.
    let (_, err, code) = bench(&["solver", "--repeat", "0"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--repeat"), "{err}");
}
