//! Every ruling the code cites resolves inside the repository: each id written in a
//! `.rs` file under `crates/` (`// R7`, `(R16)`, `Some("K4")`, ranges such as `K4–K7`)
//! has its own section in `docs/rulings.md`, a heading `## R7 — …`; so do all of
//! R1–R16 and K1–K10, whether cited or not.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

/// A ruling id: `R` (Rumis) or `K` (Rummikub) and its number.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct Id(char, u32);

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.0, self.1)
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// `R7`, `k09`, `.` or `3`: what a cell of a drawn board or a Rummikub tile looks like.
fn is_cell_like(word: &str) -> bool {
    let mut chars = word.chars();
    match chars.next() {
        Some('.') => word.len() == 1,
        Some(c) if c.is_ascii_digit() => {
            word.len() <= 2 && word.chars().all(|c| c.is_ascii_digit())
        }
        Some(c) if c.is_ascii_alphabetic() => {
            let digits = chars.as_str();
            (1..=2).contains(&digits.len()) && digits.chars().all(|c| c.is_ascii_digit())
        }
        _ => false,
    }
}

/// An id with word boundaries at `chars[at..]`: its letter, number and length.
fn id_at(chars: &[char], at: usize) -> Option<(Id, usize)> {
    let letter = *chars.get(at)?;
    if !matches!(letter, 'R' | 'K') || (at > 0 && is_word(chars[at - 1])) {
        return None;
    }
    let digits: String = chars[at + 1..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    let end = at + 1 + digits.len();
    if !(1..=2).contains(&digits.len()) || chars.get(end).is_some_and(|&c| is_word(c)) {
        return None;
    }
    Some((Id(letter, digits.parse().ok()?), end - at))
}

/// True when the token at `chars[start..end]` is a cell of a drawn board (`R1 R1`,
/// `.  R3 .`, `  1 R1`): a cell-like word stands next to it, separated by spaces.
fn in_board_drawing(chars: &[char], start: usize, end: usize) -> bool {
    let stop = |c: &char| c.is_whitespace() || matches!(c, '"' | '\\');
    let before = chars[..start].iter().rev();
    let spaced_before = chars[..start].last() == Some(&' ');
    let word_before: String = before
        .skip_while(|c| **c == ' ')
        .take_while(|c| !stop(c))
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let spaced_after = chars.get(end) == Some(&' ');
    let word_after: String = chars[end..]
        .iter()
        .skip_while(|c| **c == ' ')
        .take_while(|c| !stop(c))
        .collect();
    (spaced_before && is_cell_like(&word_before)) || (spaced_after && is_cell_like(&word_after))
}

/// True when the token is a whole string literal in a list of tile-like literals
/// (`["r1", "R13", "k09"]`): a Rummikub tile, not a ruling.
fn in_tile_list(chars: &[char], start: usize, end: usize) -> bool {
    if start == 0 || chars[start - 1] != '"' || chars.get(end) != Some(&'"') {
        return false;
    }
    let tile_literal = |s: &str| {
        s.strip_prefix('"')
            .and_then(|s| s.strip_suffix('"'))
            .is_some_and(is_cell_like)
    };
    let before: String = chars[..start - 1].iter().collect();
    let after: String = chars[end + 1..].iter().collect();
    let previous = before
        .trim_end()
        .strip_suffix(',')
        .and_then(|s| {
            s.trim_end()
                .rsplit(|c: char| c.is_whitespace() || c == '[')
                .next()
        })
        .is_some_and(tile_literal);
    let next = after
        .trim_start()
        .strip_prefix(',')
        .and_then(|s| s.split([',', ']']).next())
        .is_some_and(|s| tile_literal(s.trim()));
    previous || next
}

/// The rulings cited on one line; a range `R13–R16` cites every id in it.
fn citations(line: &str) -> Vec<Id> {
    let chars: Vec<char> = line.chars().collect();
    let mut found = Vec::new();
    let mut at = 0;
    while at < chars.len() {
        let Some((id, len)) = id_at(&chars, at) else {
            at += 1;
            continue;
        };
        let end = at + len;
        if !in_board_drawing(&chars, at, end) && !in_tile_list(&chars, at, end) {
            found.push(id);
            if matches!(chars.get(end), Some('–' | '-')) {
                if let Some((last, _)) = id_at(&chars, end + 1).filter(|(l, _)| l.0 == id.0) {
                    found.extend((id.1 + 1..last.1).map(|n| Id(id.0, n)));
                }
            }
        }
        at = end;
    }
    found
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "target") {
                rust_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every cited ruling, with the first place that cites it.
fn cited_in_code() -> BTreeMap<Id, String> {
    let root = root();
    let mut files = Vec::new();
    rust_files(&root.join("crates"), &mut files);
    files.sort();
    let mut cited = BTreeMap::new();
    for file in files {
        let text = fs::read_to_string(&file).unwrap();
        let name = file
            .strip_prefix(&root)
            .unwrap_or(&file)
            .display()
            .to_string();
        for (n, line) in text.lines().enumerate() {
            for id in citations(line) {
                cited
                    .entry(id)
                    .or_insert_with(|| format!("{name}:{}", n + 1));
            }
        }
    }
    cited
}

/// The rulings with a section `## <id> — …` in docs/rulings.md, each once.
fn sections() -> BTreeSet<Id> {
    let path = root().join("docs/rulings.md");
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut found = BTreeSet::new();
    for line in text.lines() {
        let Some(heading) = line.strip_prefix("## ") else {
            continue;
        };
        let first = heading.split_whitespace().next().unwrap_or("");
        let chars: Vec<char> = first.chars().collect();
        let Some((id, len)) = id_at(&chars, 0).filter(|(_, len)| *len == chars.len()) else {
            continue;
        };
        assert_eq!(first.len(), len);
        assert!(
            heading.starts_with(&format!("{id} — ")),
            "the heading of {id} is `## {id} — title`, so that its anchor is predictable: `{line}`"
        );
        assert!(found.insert(id), "{id} has two sections in docs/rulings.md");
    }
    found
}

#[test]
fn every_ruling_has_its_section() {
    let sections = sections();
    let all = (1..=16)
        .map(|n| Id('R', n))
        .chain((1..=10).map(|n| Id('K', n)));
    let missing: Vec<String> = all
        .filter(|id| !sections.contains(id))
        .map(|id| id.to_string())
        .collect();
    assert!(
        missing.is_empty(),
        "docs/rulings.md has no section for {}",
        missing.join(", ")
    );
}

#[test]
fn every_ruling_the_code_cites_has_its_section() {
    let sections = sections();
    let cited = cited_in_code();
    assert!(
        cited.len() >= 20,
        "the scan should find the code's citations, found only {cited:?}"
    );
    let missing: Vec<String> = cited
        .iter()
        .filter(|(id, _)| !sections.contains(id))
        .map(|(id, place)| format!("{id} (cited at {place})"))
        .collect();
    assert!(
        missing.is_empty(),
        "rulings cited in the code without a section in docs/rulings.md: {}",
        missing.join(", ")
    );
}

#[test]
fn citations_are_told_from_board_cells_and_tiles() {
    let ids = |line: &str| -> Vec<String> { citations(line).iter().map(Id::to_string).collect() };
    assert_eq!(ids("// R7: own colour"), ["R7"]);
    assert_eq!(ids("hole under cell a1 (R3)"), ["R3"]);
    assert_eq!(ids("Some(\"K4\"),"), ["K4"]);
    assert_eq!(ids("/// End the turn (K4, K5)."), ["K4", "K5"]);
    assert_eq!(
        ids("//! turns (K4–K7), R13-R14"),
        ["K4", "K5", "K6", "K7", "R13", "R14"]
    );
    assert_eq!(ids("(edge for R14, face for R6)"), ["R14", "R6"]);
    // An id past the rulings is still found, so that the doc check catches it (spelt
    // out at run time, or this file would cite it).
    let past = format!("{}42", 'R');
    assert_eq!(ids(&format!("see {past}")), [past]);
    // Not citations: parts of identifiers, board drawings, tiles.
    assert!(ids("KD1 RD16 FOUR2 xR7 R7a R123").is_empty());
    assert!(ids("out.contains(\"R1 R1\")").is_empty());
    assert!(ids("  1 R2 R2 B1 B1").is_empty());
    assert!(ids("\"  5       .  .  R3 .  .\"").is_empty());
    assert!(ids("for tile in [\"J\", \"r1\", \"R13\", \"k09\"] {").is_empty());
}
