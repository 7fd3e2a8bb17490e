//! `rumi solve rummikub`: the best play from a rack onto a table (the solver in
//! `rummikub_solver`), drawn as the new table or printed as one JSON object.

use std::fmt;

use anyhow::Result;
use clap::{Args, Subcommand, ValueEnum};
use rummikub::notation::{parse_table, parse_tiles};
use rummikub::tile::TileCounts;
use rummikub::{RuleSet, Set, Tile};
use rummikub_solver::{Objective, Solution, SolverCache, TableAndRack, TableInput};

/// A mistake in what the user typed: `rumi` exits with status 2 for it.
#[derive(Debug)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

fn usage(message: impl fmt::Display) -> anyhow::Error {
    UsageError(message.to_string()).into()
}

#[derive(Subcommand)]
pub enum SolveGame {
    /// The most tiles (or value) a player can lay, rearranging the table as the rules allow.
    Rummikub(SolveArgs),
}

/// What to maximise.
#[derive(Clone, Copy, ValueEnum)]
pub enum ObjectiveArg {
    Tiles,
    Value,
}

/// Options for `rumi solve rummikub`.
#[derive(Args)]
pub struct SolveArgs {
    /// The table: sets in brackets (`"[r1 r2 r3] [b5 k5 o5]"`) or a plain tile list; empty
    /// or missing for an empty table.
    #[arg(long, default_value = "")]
    pub table: String,
    /// The rack: tiles such as `"r4 J b7"` (J is a joker).
    #[arg(long)]
    pub rack: String,
    /// Most tiles (a joker counts as one) or most value (a joker counts as the tile it
    /// stands for).
    #[arg(long, value_enum, default_value = "tiles")]
    pub objective: ObjectiveArg,
    /// The player has not made the initial meld yet (K4).
    #[arg(long)]
    pub initial: bool,
    /// Rule set: `current`, `old`, optionally with overrides (`"old initial_meld=40"`).
    #[arg(long, default_value = "current")]
    pub rules: String,
    /// Print one JSON object instead of the drawn table.
    #[arg(long)]
    pub json: bool,
    /// Most search states before the solver gives up (about 4 million by default, some
    /// 300 MB): past it the fewest-changed-sets tie-break gives way, and the answer is a
    /// best play whose changed sets are not proven the fewest.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_states: Option<u64>,
}

pub fn run(game: SolveGame) -> Result<()> {
    let SolveGame::Rummikub(args) = game;
    let rules: RuleSet = args.rules.parse().map_err(usage)?;
    let table = if args.table.contains('[') || args.table.contains(']') {
        TableInput::Sets(parse_table(&args.table).map_err(|e| usage(format!("--table: {e}")))?)
    } else {
        let tiles = parse_tiles(&args.table).map_err(|e| usage(format!("--table: {e}")))?;
        TableInput::Tiles(tiles)
    };
    let rack = parse_tiles(&args.rack).map_err(|e| usage(format!("--rack: {e}")))?;
    let position = TableAndRack {
        table,
        rack,
        melded: !args.initial,
    };
    let objective = match args.objective {
        ObjectiveArg::Tiles => Objective::Tiles,
        ObjectiveArg::Value => Objective::Value,
    };
    let mut solver = match args.max_states {
        Some(states) => {
            SolverCache::with_state_limit(usize::try_from(states).unwrap_or(usize::MAX))
        }
        None => SolverCache::new(),
    };
    let best = solver.solve(&rules, &position, objective).map_err(usage)?;
    let old_sets: Vec<Set> = match &position.table {
        TableInput::Sets(sets) => sets.iter().map(|s| s.arranged(&rules)).collect(),
        TableInput::Tiles(_) => Vec::new(),
    };
    let text = match (&best, args.json) {
        (Some(s), true) => json(s),
        (None, true) => json(&Solution {
            table: old_sets,
            placed: Vec::new(),
            tiles: 0,
            value: 0,
            changed_sets: 0,
            fewest_changed_proven: true,
        }),
        (Some(s), false) => draw(s, &old_sets),
        (None, false) => "no play: no tile from this rack can be laid; draw a tile\n".to_string(),
    };
    print!("{text}");
    Ok(())
}

fn quoted(tiles: &[Tile]) -> String {
    let names: Vec<String> = tiles.iter().map(|t| format!("\"{t}\"")).collect();
    format!("[{}]", names.join(","))
}

/// `{"placed": [...], "table": [[...], ...], "tiles": N, "value": V}` on one line.
pub fn json(s: &Solution) -> String {
    let sets: Vec<String> = s.table.iter().map(|set| quoted(set.tiles())).collect();
    format!(
        "{{\"placed\":{},\"table\":[{}],\"tiles\":{},\"value\":{},\"changed_sets\":{},\"fewest_changed_proven\":{}}}\n",
        quoted(&s.placed),
        sets.join(","),
        s.tiles,
        s.value,
        s.changed_sets,
        s.fewest_changed_proven
    )
}

/// The new table, one set a line: `+` before a new or changed set, tiles laid from the
/// rack marked with `*`; then what is laid.
pub fn draw(s: &Solution, old_sets: &[Set]) -> String {
    let mut unchanged: Vec<Vec<Tile>> = old_sets.iter().map(|s| s.sorted_tiles()).collect();
    let mut to_mark = TileCounts::from_tiles(&s.placed);
    let mut out = format!(
        "new table ({} set{}, {} of the old changed{}):\n",
        s.table.len(),
        if s.table.len() == 1 { "" } else { "s" },
        s.changed_sets,
        if s.fewest_changed_proven {
            ""
        } else {
            "; a best play, but the search for the fewest changed sets was too large"
        }
    );
    for set in &s.table {
        let key = set.sorted_tiles();
        let same = unchanged.iter().position(|u| *u == key);
        let tiles: Vec<String> = set
            .tiles()
            .iter()
            .map(|&t| {
                if same.is_none() && to_mark.remove(t) {
                    format!("{t}*")
                } else {
                    t.to_string()
                }
            })
            .collect();
        let mark = match same {
            Some(i) => {
                unchanged.swap_remove(i);
                ' '
            }
            None => '+',
        };
        out.push_str(&format!("  {mark} [{}]\n", tiles.join(" ")));
    }
    let placed: Vec<String> = s.placed.iter().map(|t| t.to_string()).collect();
    out.push_str(&format!(
        "placed: {} ({} tile{}, value {})\n",
        placed.join(" "),
        s.tiles,
        if s.tiles == 1 { "" } else { "s" },
        s.value
    ));
    out.push_str("(+ new or changed set, * tile from your rack)\n");
    out
}
