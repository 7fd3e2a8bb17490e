//! Scenarios (boards) as data: one text file per board under the crate's `scenarios/`, embedded in
//! the crate, or read from a user's own file.
//!
//! File format (lines; `#` at the start of a line is a comment):
//!
//! ```text
//! name: Coricancha          # shown to players
//! theme: pyramid
//! status: reconstructed     # or `sourced`: is the printed board known?
//! board:                    # indented rows; `.` outside, digit = printed height limit,
//!   111                     # `#` = no printed limit (the player-count cap applies)
//!   121
//!   111
//! regions:                  # optional, same size: a letter marks a red/blue-line region
//!   ...
//!   .r.
//!   ...
//! dismantle: r              # optional (Rumis+): the R16 dismantling game is played
//!                           # here, `r` being the red line's region (see below)
//! players 2: cap 4 region r # per player count: height cap, and the region built on
//! players 3:                # (no cap, no region: the whole board, printed heights)
//! ```
//!
//! `players N` accepts 1 to 6 (R13: colours five and six, orange and violet). A
//! `dismantle: r` line needs a `regions:` block with that letter and a `players 2:` line
//! building on region `r`: the two-player dismantling game (R16) builds inside it, then
//! rebuilds on the rest of the board, with the two-player cap on every cell (RD9).
//! Every mistake is reported as `file:line: problem`.
//!
//! Rulings: R4 (footprint and height limit per player count), R13, R16.

use std::collections::BTreeMap;
use std::fmt;

/// Whether a board is known from public sources or reconstructed by the project.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Provenance {
    Sourced,
    Reconstructed,
}

impl fmt::Display for Provenance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Provenance::Sourced => "sourced",
            Provenance::Reconstructed => "reconstructed",
        })
    }
}

/// What the table on the board says for one player count.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerCountRule {
    /// No cube may be above this many levels (R4); `None` = printed heights only.
    pub cap: Option<u8>,
    /// Only cells of this region may be built on (red/blue line); `None` = whole board.
    pub region: Option<char>,
}

/// A scenario as read from its file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    /// Lower-case file stem, used on the command line (`chullpa`).
    pub key: String,
    pub name: String,
    pub theme: String,
    pub provenance: Provenance,
    pub width: usize,
    pub depth: usize,
    /// Per cell (row-major): `None` outside, `Some(0)` no printed limit, `Some(h)` printed.
    printed: Vec<Option<u8>>,
    /// Per cell: region letter, if any.
    regions: Vec<Option<char>>,
    pub player_counts: BTreeMap<u8, PlayerCountRule>,
    /// R16: the red line's region letter, when the dismantling game is played here.
    pub dismantle: Option<char>,
}

/// Where a scenario file went wrong: file, line and problem.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {problem}")]
pub struct ScenarioError {
    pub file: String,
    pub line: usize,
    pub problem: String,
}

/// Footprint and height limits of a scenario for one player count (R4).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Footprint {
    pub width: usize,
    pub depth: usize,
    /// Height limit per column (row-major); 0 = outside the footprint.
    pub limits: Vec<u8>,
}

impl Footprint {
    /// The highest limit: the number of levels a board needs.
    pub fn height(&self) -> usize {
        self.limits.iter().copied().max().unwrap_or(0) as usize
    }
    /// Total number of cubes that fit.
    pub fn volume(&self) -> usize {
        self.limits.iter().map(|&l| l as usize).sum()
    }
}

const BUILTIN: [(&str, &str); 12] = [
    ("chullpa", include_str!("../scenarios/chullpa.scenario")),
    ("pirka", include_str!("../scenarios/pirka.scenario")),
    ("tambo", include_str!("../scenarios/tambo.scenario")),
    ("pisac", include_str!("../scenarios/pisac.scenario")),
    (
        "coricancha",
        include_str!("../scenarios/coricancha.scenario"),
    ),
    ("cucho", include_str!("../scenarios/cucho.scenario")),
    ("colca", include_str!("../scenarios/colca.scenario")),
    ("puncu", include_str!("../scenarios/puncu.scenario")),
    ("apachita", include_str!("../scenarios/apachita.scenario")),
    ("chaka", include_str!("../scenarios/chaka.scenario")),
    ("huaca", include_str!("../scenarios/huaca.scenario")),
    ("incahuasi", include_str!("../scenarios/incahuasi.scenario")),
];

impl Scenario {
    /// The keys of the scenarios shipped with the crate, in the rule book's order.
    pub fn builtin_keys() -> impl Iterator<Item = &'static str> {
        BUILTIN.iter().map(|(k, _)| *k)
    }

    /// A shipped scenario by key (case-insensitive).
    pub fn builtin(key: &str) -> Option<Scenario> {
        let key = key.to_ascii_lowercase();
        BUILTIN.iter().find(|(k, _)| *k == key).map(|(k, text)| {
            Scenario::parse(&format!("scenarios/{k}.scenario"), k, text)
                .expect("shipped scenarios parse (tested)")
        })
    }

    /// All shipped scenarios.
    pub fn builtins() -> Vec<Scenario> {
        Scenario::builtin_keys()
            .filter_map(Scenario::builtin)
            .collect()
    }

    /// Parses a scenario file. `file` names it in errors; `key` is its short name.
    pub fn parse(file: &str, key: &str, text: &str) -> Result<Scenario, ScenarioError> {
        Parser {
            file,
            fields: BTreeMap::new(),
            board: Vec::new(),
            regions: Vec::new(),
            player_counts: BTreeMap::new(),
            dismantle: None,
        }
        .parse(key, text)
    }

    /// R16: the board of the two-player dismantling game and its red line. The box is
    /// the whole board with the two-player height cap on every cell (RD9); the second
    /// value marks, per column (row-major), the cells inside the red line.
    pub fn dismantle_footprint(&self) -> Result<(Footprint, Vec<bool>), String> {
        let region = self.dismantle.ok_or_else(|| {
            let keys: Vec<String> = Scenario::builtins()
                .into_iter()
                .filter(|s| s.dismantle.is_some())
                .map(|s| s.key)
                .collect();
            format!(
                "the dismantling game (R16) is not played on {} (it is played on {})",
                self.name,
                keys.join(", ")
            )
        })?;
        let cap = self.player_counts.get(&2).and_then(|r| r.cap);
        let limits = self.limits(None, cap, 2)?;
        let red = self.regions.iter().map(|r| *r == Some(region)).collect();
        Ok((
            Footprint {
                width: self.width,
                depth: self.depth,
                limits,
            },
            red,
        ))
    }

    /// Footprint and limits for a player count (R4), or why there is none.
    pub fn footprint(&self, players: u8) -> Result<Footprint, String> {
        let rule = self.player_counts.get(&players).ok_or_else(|| {
            let counts: Vec<String> = self.player_counts.keys().map(|p| p.to_string()).collect();
            format!(
                "{} is not played by {players} players (it is played by {})",
                self.name,
                counts.join(", ")
            )
        })?;
        Ok(Footprint {
            width: self.width,
            depth: self.depth,
            limits: self.limits(rule.region, rule.cap, players)?,
        })
    }

    /// Height limit per column (R4): the printed height under the cap, 0 outside the
    /// footprint or outside `region`.
    fn limits(
        &self,
        region: Option<char>,
        cap: Option<u8>,
        players: u8,
    ) -> Result<Vec<u8>, String> {
        let mut limits = vec![0u8; self.width * self.depth];
        for (i, limit) in limits.iter_mut().enumerate() {
            let Some(printed) = self.printed[i] else {
                continue;
            };
            if region.is_some_and(|r| self.regions[i] != Some(r)) {
                continue;
            }
            *limit = match (printed, cap) {
                (0, Some(cap)) => cap,
                (0, None) => {
                    return Err(format!(
                        "{}: a cell has no printed height and {players} players have no cap",
                        self.name
                    ))
                }
                (h, Some(cap)) => h.min(cap),
                (h, None) => h,
            };
        }
        Ok(limits)
    }
}

struct Parser<'a> {
    file: &'a str,
    fields: BTreeMap<&'static str, String>,
    board: Vec<(usize, String)>,
    regions: Vec<(usize, String)>,
    player_counts: BTreeMap<u8, PlayerCountRule>,
    /// `dismantle:` with its line number.
    dismantle: Option<(usize, char)>,
}

enum Section {
    Header,
    Board,
    Regions,
}

impl Parser<'_> {
    fn error(&self, line: usize, problem: impl Into<String>) -> ScenarioError {
        ScenarioError {
            file: self.file.to_string(),
            line,
            problem: problem.into(),
        }
    }

    fn parse(mut self, key: &str, text: &str) -> Result<Scenario, ScenarioError> {
        let mut section = Section::Header;
        for (i, raw) in text.lines().enumerate() {
            let line_no = i + 1;
            if raw.starts_with('#') || raw.trim().is_empty() {
                continue;
            }
            let indented = raw.starts_with(' ') || raw.starts_with('\t');
            if indented {
                let row = raw.trim().to_string();
                match section {
                    Section::Board => self.board.push((line_no, row)),
                    Section::Regions => self.regions.push((line_no, row)),
                    Section::Header => {
                        return Err(self.error(
                            line_no,
                            "indented row outside a `board:` or `regions:` block",
                        ))
                    }
                }
                continue;
            }
            section = Section::Header;
            let (name, value) = raw.split_once(':').ok_or_else(|| {
                self.error(line_no, format!("expected `key: value`, found `{raw}`"))
            })?;
            let value = value.trim();
            match name.trim() {
                "board" => section = Section::Board,
                "regions" => section = Section::Regions,
                "dismantle" => {
                    if self.dismantle.is_some() {
                        return Err(self.error(line_no, "`dismantle` given twice"));
                    }
                    let mut chars = value.chars();
                    match (chars.next(), chars.next()) {
                        (Some(c), None) if c.is_ascii_alphabetic() => {
                            self.dismantle = Some((line_no, c))
                        }
                        _ => {
                            return Err(self.error(
                                line_no,
                                format!(
                                    "dismantle region `{value}` is not a single letter (write `dismantle: r`)"
                                ),
                            ))
                        }
                    }
                }
                field @ ("name" | "theme" | "status") => {
                    let field: &'static str = match field {
                        "name" => "name",
                        "theme" => "theme",
                        _ => "status",
                    };
                    if self.fields.insert(field, value.to_string()).is_some() {
                        return Err(self.error(line_no, format!("`{field}` given twice")));
                    }
                }
                other if other.starts_with("players") => {
                    let count = other["players".len()..].trim();
                    let players: u8 = count
                        .parse()
                        .ok()
                        .filter(|p| (1..=6).contains(p))
                        .ok_or_else(|| {
                            self.error(line_no, format!("`{count}` is not a player count 1-6"))
                        })?;
                    let rule = self.player_rule(line_no, value)?;
                    if self.player_counts.insert(players, rule).is_some() {
                        return Err(self.error(line_no, format!("players {players} given twice")));
                    }
                }
                other => return Err(self.error(line_no, format!("unknown key `{other}`"))),
            }
        }
        self.finish(key, text.lines().count())
    }

    fn player_rule(&self, line: usize, value: &str) -> Result<PlayerCountRule, ScenarioError> {
        let mut rule = PlayerCountRule::default();
        let mut words = value.split_whitespace();
        while let Some(word) = words.next() {
            let arg = words
                .next()
                .ok_or_else(|| self.error(line, format!("`{word}` needs a value")))?;
            match word {
                "cap" if arg == "none" => rule.cap = None,
                "cap" => {
                    rule.cap = Some(
                        arg.parse()
                            .ok()
                            .filter(|&c| (1..=9).contains(&c))
                            .ok_or_else(|| {
                                self.error(line, format!("cap `{arg}` is not a height 1-9"))
                            })?,
                    )
                }
                "region" => {
                    let mut chars = arg.chars();
                    match (chars.next(), chars.next()) {
                        (Some(c), None) if c.is_ascii_alphabetic() => rule.region = Some(c),
                        _ => {
                            return Err(
                                self.error(line, format!("region `{arg}` is not a single letter"))
                            )
                        }
                    }
                }
                other => {
                    return Err(self.error(
                        line,
                        format!("unknown player-count setting `{other}` (use `cap` or `region`)"),
                    ))
                }
            }
        }
        Ok(rule)
    }

    fn finish(self, key: &str, last_line: usize) -> Result<Scenario, ScenarioError> {
        let field = |name: &str| {
            self.fields
                .get(name)
                .cloned()
                .ok_or_else(|| self.error(last_line, format!("missing `{name}:`")))
        };
        let name = field("name")?;
        let theme = field("theme")?;
        let provenance = match field("status")?.as_str() {
            "sourced" => Provenance::Sourced,
            "reconstructed" => Provenance::Reconstructed,
            other => {
                return Err(self.error(
                    last_line,
                    format!("status `{other}` must be `sourced` or `reconstructed`"),
                ))
            }
        };
        let Some((first_line, first_row)) = self.board.first() else {
            return Err(self.error(last_line, "missing `board:` block"));
        };
        let width = first_row.chars().count();
        let depth = self.board.len();
        let mut printed = Vec::with_capacity(width * depth);
        for (line, row) in &self.board {
            if row.chars().count() != width {
                return Err(self.error(
                    *line,
                    format!(
                        "board row has {} cells, the first row (line {first_line}) has {width}",
                        row.chars().count()
                    ),
                ));
            }
            for c in row.chars() {
                printed.push(match c {
                    '.' => None,
                    '#' => Some(0),
                    '1'..='9' => Some(c as u8 - b'0'),
                    other => {
                        return Err(self.error(
                            *line,
                            format!("board cell `{other}` is not `.`, `#` or a height 1-9"),
                        ))
                    }
                });
            }
        }
        let mut regions = vec![None; width * depth];
        if !self.regions.is_empty() {
            if self.regions.len() != depth {
                return Err(self.error(
                    self.regions[0].0,
                    format!(
                        "regions block has {} rows, the board has {depth}",
                        self.regions.len()
                    ),
                ));
            }
            for (r, (line, row)) in self.regions.iter().enumerate() {
                if row.chars().count() != width {
                    return Err(self.error(
                        *line,
                        format!(
                            "regions row has {} cells, the board has {width}",
                            row.chars().count()
                        ),
                    ));
                }
                for (c, ch) in row.chars().enumerate() {
                    regions[r * width + c] = match ch {
                        '.' | '#' => None,
                        l if l.is_ascii_alphabetic() => Some(l),
                        other => {
                            return Err(self.error(
                                *line,
                                format!("region cell `{other}` is not a letter or `.`"),
                            ))
                        }
                    };
                }
            }
        }
        if self.player_counts.is_empty() {
            return Err(self.error(last_line, "no `players N:` line"));
        }
        let scenario = Scenario {
            key: key.to_ascii_lowercase(),
            name,
            theme,
            provenance,
            width,
            depth,
            printed,
            regions,
            player_counts: self.player_counts.clone(),
            dismantle: self.dismantle.map(|(_, c)| c),
        };
        if let Some((line, region)) = self.dismantle {
            if !scenario.regions.contains(&Some(region)) {
                return Err(self.error(
                    line,
                    format!("dismantle region `{region}` is not marked in the `regions:` block"),
                ));
            }
            let two = scenario.player_counts.get(&2);
            if two.and_then(|r| r.region) != Some(region) {
                return Err(self.error(
                    line,
                    format!(
                        "the dismantling game (R16) needs `players 2: … region {region}`: two players build inside the red line first"
                    ),
                ));
            }
            scenario
                .dismantle_footprint()
                .map_err(|e| self.error(line, e))?;
        }
        for &players in scenario.player_counts.keys() {
            let footprint = scenario
                .footprint(players)
                .map_err(|e| self.error(last_line, e))?;
            if footprint.volume() == 0 {
                return Err(self.error(
                    last_line,
                    format!("{players} players have no cell to build on (check the region)"),
                ));
            }
        }
        Ok(scenario)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks a shipped scenario's provenance and, per player count, its cells and
    /// volume.
    fn assert_counts(key: &str, provenance: Provenance, counts: &[(u8, usize, usize)]) {
        let s = Scenario::builtin(key).unwrap();
        assert_eq!(s.provenance, provenance, "{key}");
        for &(players, cells, volume) in counts {
            let f = s.footprint(players).unwrap();
            assert_eq!(
                f.limits.iter().filter(|&&l| l > 0).count(),
                cells,
                "{key} {players}p cells"
            );
            assert_eq!(f.volume(), volume, "{key} {players}p volume");
        }
    }

    #[test]
    fn shipped_scenarios_have_the_documented_volumes() {
        /// (players, cells in footprint, volume)
        type Counts = [(u8, usize, usize); 3];
        let expected: [(&str, Provenance, Counts); 6] = [
            (
                "chullpa",
                Provenance::Sourced,
                [(2, 20, 80), (3, 20, 120), (4, 20, 160)],
            ),
            (
                "pirka",
                Provenance::Reconstructed,
                [(2, 39, 78), (3, 39, 117), (4, 39, 156)],
            ),
            (
                "tambo",
                Provenance::Reconstructed,
                [(2, 40, 80), (3, 40, 120), (4, 40, 160)],
            ),
            // Pisac: steps 1..8 per row, capped at 4/6/8: 4 rows.
            (
                "pisac",
                Provenance::Reconstructed,
                [(2, 32, 4 * 26), (3, 32, 4 * 33), (4, 32, 4 * 36)],
            ),
            // Coricancha: inner 5x5 rings 3-5 = 16*3 + 8*4 + 5 = 85; full = 81 cells.
            (
                "coricancha",
                Provenance::Reconstructed,
                [(2, 25, 85), (3, 81, 165), (4, 81, 165)],
            ),
            (
                "cucho",
                Provenance::Reconstructed,
                [(2, 36, 133), (3, 36, 158), (4, 36, 163)],
            ),
        ];
        for (key, provenance, counts) in expected {
            assert_counts(key, provenance, &counts);
        }
    }

    #[test]
    fn rumis_plus_scenarios_have_the_documented_volumes() {
        // R13: Rumis+ boards for 2 to 6 players, as SCENARIOS.md gives them:
        // (players, cells in footprint, volume).
        type Counts = [(u8, usize, usize); 5];
        let expected: [(&str, Counts); 6] = [
            // 4 x 10, `r` = left half; 2p 4 and 3p 6 inside `r`, then 4/5/6 on all.
            (
                "colca",
                [
                    (2, 20, 80),
                    (3, 20, 120),
                    (4, 40, 160),
                    (5, 40, 200),
                    (6, 40, 240),
                ],
            ),
            // U of 33 cells, threshold bar `r` of 21; 2p 4 inside `r`, then 4/5/6/7.
            (
                "puncu",
                [
                    (2, 21, 84),
                    (3, 33, 132),
                    (4, 33, 165),
                    (5, 33, 198),
                    (6, 33, 231),
                ],
            ),
            // Diamond radius 4 (41 cells), `r` radius 3 (25); 2p 3 inside, 3/4/5/6.
            (
                "apachita",
                [
                    (2, 25, 75),
                    (3, 41, 123),
                    (4, 41, 164),
                    (5, 41, 205),
                    (6, 41, 246),
                ],
            ),
            // Rows 2 3 4 5 6 6 6 6 5 4 3 2 (52 per row of four), capped 2/3/4/5/none.
            (
                "chaka",
                [
                    (2, 48, 96),
                    (3, 48, 136),
                    (4, 48, 168),
                    (5, 48, 192),
                    (6, 48, 208),
                ],
            ),
            // Inner 6 x 6 `b` capped 2 and 3; whole 8 x 8 rings capped 4/5/none.
            (
                "huaca",
                [
                    (2, 36, 72),
                    (3, 36, 108),
                    (4, 64, 180),
                    (5, 64, 184),
                    (6, 64, 188),
                ],
            ),
            // Rows 2 4 6 6 4 2 of ten, capped 2/2/3/4/none.
            (
                "incahuasi",
                [
                    (2, 60, 120),
                    (3, 60, 120),
                    (4, 60, 160),
                    (5, 60, 200),
                    (6, 60, 240),
                ],
            ),
        ];
        for (key, counts) in expected {
            assert_counts(key, Provenance::Reconstructed, &counts);
        }
        // Huaca for three: only inside the blue line, H max 3 (sourced).
        let huaca = Scenario::builtin("huaca").unwrap().footprint(3).unwrap();
        assert_eq!(huaca.limits[0], 0);
        assert_eq!(huaca.limits[3 * 8 + 3], 3, "printed 6, capped at 3");
    }

    #[test]
    fn the_dismantling_boards_mark_the_red_line() {
        // R16 on Colca, Puncu, Apachita only; the whole board at the two-player cap.
        for (key, cells, red, height) in [
            ("colca", 40, 20, 4),
            ("puncu", 33, 21, 4),
            ("apachita", 41, 25, 3),
        ] {
            let s = Scenario::builtin(key).unwrap();
            let (f, inside) = s.dismantle_footprint().unwrap();
            assert_eq!(f.limits.iter().filter(|&&l| l > 0).count(), cells, "{key}");
            assert_eq!(inside.iter().filter(|&&r| r).count(), red, "{key}");
            assert_eq!(f.height(), height, "{key}");
            // The red area is exactly the two-player footprint.
            let two = s.footprint(2).unwrap();
            for (i, &r) in inside.iter().enumerate() {
                assert_eq!(r, two.limits[i] > 0, "{key} column {i}");
            }
        }
        let err = Scenario::builtin("chaka")
            .unwrap()
            .dismantle_footprint()
            .unwrap_err();
        assert_eq!(
            err,
            "the dismantling game (R16) is not played on Chaka (it is played on colca, puncu, apachita)"
        );
    }

    #[test]
    fn coricancha_two_players_is_the_inner_square() {
        let f = Scenario::builtin("coricancha")
            .unwrap()
            .footprint(2)
            .unwrap();
        assert_eq!(f.limits[0], 0, "corner is outside the red line");
        assert_eq!(f.limits[4 * 9 + 4], 5, "centre keeps its printed height");
        assert_eq!(f.limits[2 * 9 + 2], 3);
    }

    #[test]
    fn unknown_player_count_is_explained() {
        let err = Scenario::builtin("chullpa")
            .unwrap()
            .footprint(5)
            .unwrap_err();
        assert!(err.contains("not played by 5 players"), "{err}");
    }

    fn parse_err(text: &str) -> ScenarioError {
        Scenario::parse("my.scenario", "my", text).unwrap_err()
    }

    #[test]
    fn malformed_files_name_file_line_and_problem() {
        let e = parse_err(
            "name: X\ntheme: t\nstatus: sourced\nboard:\n  ###\n  ##\nplayers 2: cap 2\n",
        );
        assert_eq!(
            e.to_string(),
            "my.scenario:6: board row has 2 cells, the first row (line 5) has 3"
        );

        let e = parse_err("name: X\ntheme: t\nstatus: sourced\nboard:\n  #x#\nplayers 2: cap 2\n");
        assert_eq!(e.line, 5);
        assert!(e.problem.contains("`x`"), "{e}");

        let e = parse_err("name: X\ntheme: t\nstatus: maybe\nboard:\n  ###\nplayers 2: cap 2\n");
        assert!(e.problem.contains("`maybe`"), "{e}");

        let e = parse_err("name: X\ntheme: t\nstatus: sourced\nboard:\n  ###\nplayers 2: cap 0\n");
        assert_eq!(
            (e.line, e.problem.as_str()),
            (6, "cap `0` is not a height 1-9")
        );

        let e = parse_err("name: X\ntheme: t\nstatus: sourced\nboard:\n  ###\nplayers 2: region\n");
        assert_eq!(e.problem, "`region` needs a value");

        let e = parse_err("name: X\ntheme: t\nstatus: sourced\nboard:\n  ###\nplayers 2:\n");
        assert!(e.problem.contains("no printed height"), "{e}");

        let e = parse_err(
            "name: X\ntheme: t\nstatus: sourced\nboard:\n  ###\nplayers 2: cap 2 region q\n",
        );
        assert!(e.problem.contains("no cell to build on"), "{e}");

        let e = parse_err(
            "name: X\ntheme: t\nstatus: sourced\nboard:\n  ###\ndismantle: rr\nplayers 2: cap 2\n",
        );
        assert_eq!(e.line, 6);
        assert!(e.problem.contains("`rr` is not a single letter"), "{e}");

        let e = parse_err(
            "name: X\ntheme: t\nstatus: sourced\nboard:\n  ###\ndismantle: r\nplayers 2: cap 2\n",
        );
        assert_eq!(
            (e.line, e.problem.as_str()),
            (
                6,
                "dismantle region `r` is not marked in the `regions:` block"
            )
        );

        let e = parse_err(
            "name: X\ntheme: t\nstatus: sourced\nboard:\n  ###\nregions:\n  rr.\ndismantle: r\nplayers 2: cap 2\n",
        );
        assert_eq!(e.line, 8);
        assert!(e.problem.contains("needs `players 2: … region r`"), "{e}");

        let e = parse_err("name: X\ncolour: red\n");
        assert_eq!((e.line, e.problem.as_str()), (2, "unknown key `colour`"));
    }

    #[test]
    fn a_users_own_file_loads() {
        let s = Scenario::parse(
            "tiny.scenario",
            "Tiny",
            "# a 2x3 test board\nname: Tiny\ntheme: test\nstatus: reconstructed\nboard:\n  12#\n  .2#\nplayers 2: cap 3\n",
        )
        .unwrap();
        assert_eq!(s.key, "tiny");
        let f = s.footprint(2).unwrap();
        assert_eq!(f.limits, vec![1, 2, 3, 0, 2, 3]);
    }
}
