//! Rummikub bots that see only their [`PlayerView`].
//!
//! - [`greedy_action`]: the solver's most tiles every turn (the initial meld as the rules
//!   say), drawing when nothing can be laid.
//! - [`PlannerBot`]: a planning bot by determinized look-ahead. It goes out whenever the
//!   solver says it can. Otherwise it weighs a few candidate turns: the most tiles, the
//!   most value, the most tiles keeping its jokers back, and holding everything back
//!   (a draw). For each candidate it deals the unseen tiles (all tiles but its rack and
//!   the table) at random to the opponents' racks (their sizes are public) and the pool,
//!   the same deals for every candidate, plays the turn, and lets every player play on
//!   greedily for a horizon of turns. A sample scores 1 for a win, 0 for a loss, and in
//!   between by the rack sizes when the horizon ends first; the best mean wins.
//!   Chance comes from the bot's seed only.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rummikub::deal::shuffle;
use rummikub::solver::{self, Objective};
use rummikub::{Action, PlayerView, RuleSet, Set, Tile};

/// The solver's best play for a rack onto a table, or `None` (draw). Bots do not care
/// which table sets move, so any of the equally good plays will do (faster).
fn best_play(
    rules: &RuleSet,
    table: &[Set],
    rack: &[Tile],
    melded: bool,
    objective: Objective,
) -> Option<solver::Solution> {
    let position = solver::Position::with_sets(table.to_vec(), rack.to_vec(), melded);
    solver::solve_with(rules, &position, objective, solver::TieBreak::Any)
        .ok()
        .flatten()
}

/// The greedy bot: the solver's most tiles, or a draw.
pub fn greedy_action(view: &PlayerView) -> Action {
    let melded = view.melded.get(view.player).copied().unwrap_or(false);
    match best_play(
        &view.rules,
        &view.table,
        &view.rack,
        melded,
        Objective::Tiles,
    ) {
        Some(best) => Action::Play(best.table),
        None => Action::Draw,
    }
}

/// The planner's settings; [`PlannerConfig::level`] names five.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlannerConfig {
    pub level: u8,
    /// Random deals of the unseen tiles per candidate (0: play greedily).
    pub samples: u32,
    /// Turns played on after the candidate (all players counted) before judging.
    pub horizon: u32,
    /// Whether holding everything back (drawing) is a candidate.
    pub consider_draw: bool,
}

impl PlannerConfig {
    /// Level 1: the random bot's style (first sets found); 2: greedy; 3–5: look-ahead
    /// with more deals and a longer horizon. Out-of-range levels are clamped to 1–5.
    pub fn level(level: u8) -> PlannerConfig {
        let level = level.clamp(1, 5);
        let (samples, horizon) = match level {
            1 | 2 => (0, 0),
            3 => (3, 4),
            4 => (5, 6),
            _ => (8, 8),
        };
        PlannerConfig {
            level,
            samples,
            horizon,
            consider_draw: level >= 3,
        }
    }
}

/// The planning bot (see the module documentation).
pub struct PlannerBot {
    config: PlannerConfig,
    rng: ChaCha8Rng,
}

impl PlannerBot {
    pub fn new(config: PlannerConfig, seed: u64) -> PlannerBot {
        PlannerBot {
            config,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    pub fn config(&self) -> PlannerConfig {
        self.config
    }

    /// The action for the viewer's turn.
    pub fn act(&mut self, view: &PlayerView) -> Action {
        if self.config.level == 1 {
            return rummikub::bot::random_bot_action(view, &mut self.rng);
        }
        let rules = &view.rules;
        let me = view.player;
        let melded = view.melded.get(me).copied().unwrap_or(false);
        let Some(most) = best_play(rules, &view.table, &view.rack, melded, Objective::Tiles) else {
            return Action::Draw;
        };
        if most.tiles as usize == view.rack.len() || self.config.samples == 0 {
            return Action::Play(most.table);
        }
        // Candidate turns: new table and what stays on the rack.
        let mut candidates: Vec<Option<Vec<Set>>> = vec![Some(most.table.clone())];
        if let Some(value) = best_play(rules, &view.table, &view.rack, melded, Objective::Value) {
            if value.placed != most.placed {
                candidates.push(Some(value.table));
            }
        }
        if view.rack.contains(&Tile::JOKER) {
            let plain: Vec<Tile> = view
                .rack
                .iter()
                .copied()
                .filter(|t| !t.is_joker())
                .collect();
            if let Some(keep) = best_play(rules, &view.table, &plain, melded, Objective::Tiles) {
                candidates.push(Some(keep.table));
            }
        }
        if self.config.consider_draw && view.pool_size > 0 && melded {
            candidates.push(None);
        }
        if candidates.len() == 1 {
            return Action::Play(most.table);
        }
        let deals: Vec<Sim> = (0..self.config.samples)
            .map(|_| Sim::sample(view, &mut self.rng))
            .collect();
        let mut best: Option<(f64, usize)> = None;
        for (i, candidate) in candidates.iter().enumerate() {
            let mut total = 0.0;
            for deal in &deals {
                let mut sim = deal.clone();
                sim.turn(candidate.clone());
                total += sim.play_on(me, self.config.horizon);
            }
            // Ties keep the earlier candidate (the most tiles first).
            if best.is_none_or(|(b, _)| total > b + 1e-9) {
                best = Some((total, i));
            }
        }
        match best.and_then(|(_, i)| candidates[i].clone()) {
            Some(table) => Action::Play(table),
            None => Action::Draw,
        }
    }
}

/// A determinized round: every rack and the pool known, played by greedy turns.
#[derive(Clone, Debug)]
struct Sim {
    rules: RuleSet,
    racks: Vec<Vec<Tile>>,
    melded: Vec<bool>,
    table: Vec<Set>,
    /// The next tile drawn is the last.
    pool: Vec<Tile>,
    current: usize,
    /// Turns in a row without a tile played while the pool is empty (K8).
    idle: usize,
    winner: Option<usize>,
}

impl Sim {
    /// The viewer's round with the unseen tiles dealt at random to the other racks and
    /// the pool.
    fn sample(view: &PlayerView, rng: &mut ChaCha8Rng) -> Sim {
        let mut unseen = rummikub::tile::TileCounts::from_tiles(&Tile::full_set());
        for t in view
            .rack
            .iter()
            .chain(view.table.iter().flat_map(|s| s.tiles()))
        {
            unseen.remove(*t);
        }
        let mut unseen = unseen.tiles();
        shuffle(&mut unseen, rng);
        let racks = (0..view.rack_sizes.len())
            .map(|p| {
                if p == view.player {
                    view.rack.clone()
                } else {
                    let n = view.rack_sizes[p].min(unseen.len());
                    unseen.split_off(unseen.len() - n)
                }
            })
            .collect();
        Sim {
            rules: view.rules.clone(),
            racks,
            melded: view.melded.clone(),
            table: view.table.clone(),
            pool: unseen,
            current: view.player,
            idle: 0,
            winner: None,
        }
    }

    /// The current player's turn: a new table (`Some`) or a draw.
    fn turn(&mut self, table: Option<Vec<Set>>) {
        let p = self.current;
        let mut played = false;
        if let Some(table) = table {
            let mut rack = rummikub::tile::TileCounts::from_tiles(&self.racks[p]);
            let before =
                rummikub::tile::TileCounts::from_tiles(self.table.iter().flat_map(|s| s.tiles()));
            let mut on_table = before;
            for &t in table.iter().flat_map(|s| s.tiles()) {
                if !on_table.remove(t) {
                    rack.remove(t);
                    played = true;
                }
            }
            self.racks[p] = rack.tiles();
            self.table = table;
            self.melded[p] = true;
        }
        if played {
            self.idle = 0;
            if self.racks[p].is_empty() {
                self.winner = Some(p);
                return;
            }
        } else if let Some(t) = self.pool.pop() {
            self.racks[p].push(t);
            self.idle = 0;
        } else {
            self.idle += 1;
        }
        self.current = (p + 1) % self.racks.len();
    }

    /// Greedy turns for everyone, at most `horizon`; then `me`'s score: 1 for a win,
    /// 0 for a loss, otherwise by the rack sizes.
    fn play_on(&mut self, me: usize, horizon: u32) -> f64 {
        let players = self.racks.len();
        for _ in 0..horizon {
            if self.winner.is_some() || self.idle >= players {
                break;
            }
            let p = self.current;
            let play = best_play(
                &self.rules,
                &self.table,
                &self.racks[p],
                self.melded[p],
                Objective::Tiles,
            )
            .map(|s| s.table);
            self.turn(play);
        }
        if let Some(w) = self.winner {
            return if w == me { 1.0 } else { 0.0 };
        }
        if self.idle >= players {
            // K8: the lowest rack value wins.
            let values: Vec<u32> = self
                .racks
                .iter()
                .map(|r| rummikub::round::rack_value(r, &self.rules))
                .collect();
            let best = values.iter().copied().min().unwrap_or(0);
            return if values[me] == best { 1.0 } else { 0.0 };
        }
        let mine = self.racks[me].len() as f64;
        let best_other = (0..players)
            .filter(|&q| q != me)
            .map(|q| self.racks[q].len())
            .min()
            .unwrap_or(0) as f64;
        1.0 / (1.0 + ((mine - best_other) / 3.0).exp())
    }
}
