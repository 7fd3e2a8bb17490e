//! Monte-Carlo tree search for Rumis, written by hand.
//!
//! - Selection: PUCT (UCT with priors): a move's score is its mean reward for the player
//!   who makes it plus `c · P · √N / (1 + n)`. Unvisited moves start at their parent's
//!   mean (first-play urgency).
//! - Priors `P`: a softmax over the greedy evaluation ([`greedy_eval`]: the mover's
//!   points after the move, then opponents' tops covered), so the search looks at the
//!   moves a good player would consider first.
//! - Playouts: heuristic, not uniform: at each step the best of a few uniformly drawn
//!   legal moves by the same greedy evaluation ([`heuristic_playout`]).
//! - Reward per player: mostly the win share (R9: a tie shares the win), plus a little of
//!   the point margin over the best opponent, which separates moves early in a game.
//! - Budget: a number of playouts (deterministic: same seed, same positions, same
//!   moves) or milliseconds (not deterministic).
//! - Tree reuse: the bot keeps its tree between moves; when the next position follows
//!   from the old root by moves it searched, that subtree becomes the new root (see
//!   below for when this is sound).
//!
//! # When a kept tree may be reused
//!
//! A node's statistics are those of playouts from the position its path leads to. Rumis
//! has no chance after the start (a random ruin, R11, is built from the setup's seed
//! before the first move), so a position is fixed by its setup and its moves. A kept
//! subtree is therefore exactly a search of the new position, and reusing it is sound,
//! when
//!
//! 1. the new position has the same setup as the old root (board, players, variant,
//!    seed and first-stone rule: [`same_game`]), and
//! 2. its history starts with the old root's history (no move taken back), and
//! 3. every move since then (the bot's own and the other players') is an edge the tree
//!    tried.
//!
//! Anything else starts a new tree ([`Search::advance_to`]). The bot observes the moves
//! since its last choice in the position itself ([`rumis::Position::history`]), so a
//! front end only has to keep the bot object between moves and show it the current
//! position. Right after its own move the bot cuts its tree down to the subtree of that
//! move (every later position follows from it), most visited nodes first within
//! [`MctsConfig::max_kept_edges`]: this bounds what a bot keeps between its moves.
//!
//! # Memory
//!
//! Every node but the root hangs from one edge, so a tree of `e` edges has at most
//! `e + 1` nodes and takes at most [`BYTES_PER_EDGE`] × `e` bytes (plus the root).
//! A search grows its tree up to [`MctsConfig::max_tree_edges`]; past that it stops
//! expanding and plays out from the leaves it reaches (the root is always expanded),
//! so a long search (a time budget, many playouts) is bounded too.

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rumis::{Move, Position};

use crate::rumis_bots::{greedy_eval, RumisBot};

/// How much a search may spend on one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// New playouts per move (moves reused from the old tree do not count).
    Playouts(u32),
    /// Wall-clock milliseconds per move.
    Millis(u64),
}

/// The search's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    pub budget: Budget,
    /// Exploration constant `c` of PUCT.
    pub exploration: f64,
    /// Softmax temperature of the priors, in points.
    pub prior_temperature: f64,
    /// Legal moves drawn per playout step; the best by the greedy evaluation is played
    /// (1: uniform random playouts).
    pub playout_samples: u32,
    /// Keep the tree between moves.
    pub reuse_tree: bool,
    /// Most edges a tree kept between moves may hold (an edge is 32 bytes); the most
    /// visited nodes are kept first (see [`Search::advance_to`]).
    pub max_kept_edges: usize,
    /// Most edges a tree may grow to during a search (see the module's "Memory");
    /// the root's moves are always listed, even past it.
    pub max_tree_edges: usize,
}

/// An edge and the node it may lead to, in bytes: what one edge of a tree costs at
/// most ([`TreeSize::bytes`]).
pub const BYTES_PER_EDGE: usize = std::mem::size_of::<Edge>() + std::mem::size_of::<Node>();

/// [`MctsConfig::max_kept_edges`] unless chosen: 2 MB of edges. A level-5 search
/// grows a tree of about a million edges on an opening position; the part reused
/// after the other players' moves is a small share of it.
pub const DEFAULT_MAX_KEPT_EDGES: usize = 1 << 16;

/// [`MctsConfig::max_tree_edges`] unless chosen: above what a level-5 search grows on
/// an opening position (about a million edges), so it bounds longer searches only.
pub const DEFAULT_MAX_TREE_EDGES: usize = 1 << 21;

/// Playout budgets of the levels 1–5; level 5 takes about a second a move on Chullpa
/// on the machine this was tuned on (one core).
pub const LEVEL_PLAYOUTS: [u32; 5] = [40, 300, 1500, 6000, 20000];

impl MctsConfig {
    pub fn with_budget(budget: Budget) -> MctsConfig {
        MctsConfig {
            budget,
            exploration: 1.2,
            prior_temperature: 1.0,
            playout_samples: 4,
            reuse_tree: true,
            max_kept_edges: DEFAULT_MAX_KEPT_EDGES,
            max_tree_edges: DEFAULT_MAX_TREE_EDGES,
        }
    }

    /// Level 1 (beginner) to 5 (strongest in about a second); `None` for another number.
    pub fn level(level: u8) -> Option<MctsConfig> {
        let playouts = *LEVEL_PLAYOUTS.get(usize::from(level).checked_sub(1)?)?;
        Some(MctsConfig::with_budget(Budget::Playouts(playouts)))
    }
}

/// One move out of a node, with its statistics for the player who makes it.
#[derive(Clone, Debug)]
struct Edge {
    mv: Move,
    prior: f32,
    visits: u32,
    /// Sum of shaped rewards (win share and margin) for the mover.
    reward: f64,
    /// Sum of win shares for the mover.
    wins: f64,
    /// Index of the child node, `NONE` until the move is first tried.
    child: u32,
}

const NONE: u32 = u32::MAX;

#[derive(Clone, Debug, Default)]
struct Node {
    edges: Vec<Edge>,
    expanded: bool,
}

/// A searched move of the root: how often it was tried and how it did.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveStats {
    pub mv: Move,
    pub visits: u32,
    /// Estimated chance to win (mean win share) for the player to move.
    pub win_chance: f64,
    /// The greedy prior the search started from.
    pub prior: f64,
}

/// The size of a search tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeSize {
    pub nodes: usize,
    /// Moves listed in expanded nodes: most of the tree's memory.
    pub edges: usize,
}

impl TreeSize {
    /// The bytes the tree's nodes and edges take (their lists' spare room aside).
    pub fn bytes(&self) -> usize {
        self.nodes * std::mem::size_of::<Node>() + self.edges * std::mem::size_of::<Edge>()
    }
}

/// Whether two positions are of the same game: the same setup (board, players, variant,
/// seed, first-stone rule), so that equal histories mean equal positions.
pub fn same_game(a: &Position, b: &Position) -> bool {
    let (a, b) = (a.setup(), b.setup());
    a.players == b.players
        && a.variant == b.variant
        && a.seed == b.seed
        && a.first_stones == b.first_stones
        && a.scenario == b.scenario
}

/// A search tree rooted at a position.
#[derive(Clone, Debug)]
pub struct Search {
    config: MctsConfig,
    root_position: Position,
    nodes: Vec<Node>,
    /// Edges listed in `nodes`, kept up to date ([`MctsConfig::max_tree_edges`]).
    edges: usize,
    root: u32,
    rng: ChaCha8Rng,
    /// When kept ([`analyse_players`]): per root move, the sum of every player's win
    /// share over the playouts through it.
    root_shares: Option<Vec<Vec<f64>>>,
}

impl Search {
    pub fn new(position: Position, config: MctsConfig, seed: u64) -> Search {
        Search {
            config,
            root_position: position,
            nodes: vec![Node::default()],
            edges: 0,
            root: 0,
            rng: ChaCha8Rng::seed_from_u64(seed),
            root_shares: None,
        }
    }

    /// Moves the root to `position` if it follows from the current root by moves in the
    /// tree (the rule in the module documentation); otherwise starts a new tree. The
    /// kept subtree is copied out and the rest of the old tree freed. Returns whether
    /// the tree was kept.
    pub fn advance_to(&mut self, position: &Position) -> bool {
        let old = self.root_position.history();
        let new = position.history();
        let mut node = self.root;
        let mut kept = same_game(&self.root_position, position)
            && new.len() >= old.len()
            && new[..old.len()] == *old;
        if kept {
            for mv in &new[old.len()..] {
                let next = self.nodes[node as usize]
                    .edges
                    .iter()
                    .find(|e| e.mv == *mv)
                    .map_or(NONE, |e| e.child);
                if next == NONE {
                    kept = false;
                    break;
                }
                node = next;
            }
        }
        self.root_position = position.clone();
        if kept {
            self.root = node;
            self.compact();
        } else {
            self.nodes = vec![Node::default()];
            self.edges = 0;
            self.root = 0;
        }
        kept
    }

    /// Copies the subtree under the root into a new tree and frees the rest: the root,
    /// then its nodes most visited first while they fit in
    /// [`MctsConfig::max_kept_edges`]. A node left out keeps its visits on the edge
    /// into it (a later search grows it again from there).
    fn compact(&mut self) {
        let budget = self.config.max_kept_edges;
        let mut old = std::mem::take(&mut self.nodes);
        let mut nodes = vec![std::mem::take(&mut old[self.root as usize])];
        let mut edges = nodes[0].edges.len();
        // (visits, old index, parent in the new tree, edge of the parent)
        let mut frontier = std::collections::BinaryHeap::new();
        let offer = |frontier: &mut std::collections::BinaryHeap<_>, node: &mut Node, at: u32| {
            for (e, edge) in node.edges.iter_mut().enumerate() {
                if edge.child != NONE {
                    frontier.push((edge.visits, edge.child, at, e));
                    edge.child = NONE;
                }
            }
        };
        offer(&mut frontier, &mut nodes[0], 0);
        while let Some((_, child, parent, e)) = frontier.pop() {
            let size = old[child as usize].edges.len();
            if edges + size > budget {
                continue;
            }
            edges += size;
            let at = nodes.len() as u32;
            nodes[parent as usize].edges[e].child = at;
            let mut node = std::mem::take(&mut old[child as usize]);
            offer(&mut frontier, &mut node, at);
            nodes.push(node);
        }
        self.nodes = nodes;
        self.edges = edges;
        self.root = 0;
    }

    /// How big the tree is now.
    pub fn tree_size(&self) -> TreeSize {
        TreeSize {
            nodes: self.nodes.len(),
            edges: self.edges,
        }
    }

    /// Playouts through the root so far (those of earlier moves' searches included,
    /// when the tree was kept).
    pub fn root_visits(&self) -> u32 {
        self.nodes[self.root as usize]
            .edges
            .iter()
            .map(|e| e.visits)
            .sum()
    }

    /// Runs the search within the budget, from `now` (the caller's clock start).
    pub fn run(&mut self) {
        if self.root_position.is_over() {
            return;
        }
        let start = Instant::now();
        let mut done: u64 = 0;
        loop {
            match self.config.budget {
                Budget::Playouts(n) if done >= u64::from(n) => break,
                Budget::Millis(ms)
                    if done.is_multiple_of(8) && start.elapsed() >= Duration::from_millis(ms) =>
                {
                    break
                }
                _ => {}
            }
            self.iterate();
            done += 1;
            // A root with a single move needs no search.
            let root = &self.nodes[self.root as usize];
            if root.expanded && root.edges.len() == 1 && done >= 1 {
                break;
            }
        }
    }

    /// One selection, expansion, playout and back-propagation.
    fn iterate(&mut self) {
        let mut position = self.root_position.clone();
        let mut node = self.root;
        // (node, edge index, player who moved)
        let mut path: Vec<(u32, usize, usize)> = Vec::new();
        while let Some(actor) = position.actor() {
            if !self.nodes[node as usize].expanded && !self.expand(node, &position) {
                // The tree is full: play out from this leaf.
                break;
            }
            let Some(e) = self.select(node) else { break };
            let edge = &self.nodes[node as usize].edges[e];
            let (mv, child) = (edge.mv, edge.child);
            position.play_unchecked(mv);
            path.push((node, e, usize::from(actor)));
            if child == NONE {
                let index = self.nodes.len() as u32;
                self.nodes.push(Node::default());
                self.nodes[node as usize].edges[e].child = index;
                break;
            }
            node = child;
        }
        heuristic_playout(&mut position, self.config.playout_samples, &mut self.rng);
        let (rewards, shares) = rewards(&position);
        if let (Some(sums), Some(&(node, e, _))) = (&mut self.root_shares, path.first()) {
            if node == self.root {
                if sums.len() <= e {
                    sums.resize(e + 1, vec![0.0; shares.len()]);
                }
                for (sum, share) in sums[e].iter_mut().zip(&shares) {
                    *sum += share;
                }
            }
        }
        for (node, e, player) in path {
            let edge = &mut self.nodes[node as usize].edges[e];
            edge.visits += 1;
            edge.reward += rewards[player];
            edge.wins += shares[player];
        }
    }

    /// Lists the moves of `node`, if they fit in [`MctsConfig::max_tree_edges`] (the
    /// root's always do). Answers whether the node is expanded.
    fn expand(&mut self, node: u32, position: &Position) -> bool {
        if node != self.root && self.edges >= self.config.max_tree_edges {
            return false;
        }
        let mut edges = Vec::new();
        let colour_points = position.score().colour_points;
        let mut evals = Vec::new();
        position.for_each_legal(|mv| {
            let eval = greedy_eval(position, &colour_points, mv);
            let value = eval.map_or(0.0, |e| {
                f64::from(e.player_points)
                    + 0.1 * f64::from(e.colour_points)
                    + 0.3 * f64::from(e.covered)
            });
            evals.push(value);
            edges.push(Edge {
                mv,
                prior: 0.0,
                visits: 0,
                reward: 0.0,
                wins: 0.0,
                child: NONE,
            });
        });
        let best = evals.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let weights: Vec<f64> = evals
            .iter()
            .map(|v| ((v - best) / self.config.prior_temperature).exp())
            .collect();
        let total: f64 = weights.iter().sum();
        for (edge, w) in edges.iter_mut().zip(weights) {
            edge.prior = (w / total) as f32;
        }
        if node != self.root && self.edges + edges.len() > self.config.max_tree_edges {
            return false;
        }
        self.edges += edges.len();
        let n = &mut self.nodes[node as usize];
        n.edges = edges;
        n.expanded = true;
        true
    }

    /// The edge PUCT prefers; ties go to the earlier (higher-prior first is not
    /// assumed: the order is the generator's, which is deterministic).
    fn select(&self, node: u32) -> Option<usize> {
        let edges = &self.nodes[node as usize].edges;
        let visits: u32 = edges.iter().map(|e| e.visits).sum();
        let reward: f64 = edges.iter().map(|e| e.reward).sum();
        let fpu = if visits > 0 {
            reward / f64::from(visits)
        } else {
            0.5
        };
        let sqrt_n = f64::from(visits.max(1)).sqrt();
        let c = self.config.exploration;
        let mut best: Option<(usize, f64)> = None;
        for (i, e) in edges.iter().enumerate() {
            let q = if e.visits > 0 {
                e.reward / f64::from(e.visits)
            } else {
                fpu
            };
            let u = c * f64::from(e.prior) * sqrt_n / (1.0 + f64::from(e.visits));
            let score = q + u;
            if best.is_none_or(|(_, b)| score > b) {
                best = Some((i, score));
            }
        }
        best.map(|(i, _)| i)
    }

    /// The root's moves, most visited first.
    pub fn root_stats(&self) -> Vec<MoveStats> {
        let mut stats: Vec<MoveStats> = self.nodes[self.root as usize]
            .edges
            .iter()
            .map(|e| MoveStats {
                mv: e.mv,
                visits: e.visits,
                win_chance: if e.visits > 0 {
                    e.wins / f64::from(e.visits)
                } else {
                    0.0
                },
                prior: f64::from(e.prior),
            })
            .collect();
        stats.sort_by(|a, b| {
            b.visits
                .cmp(&a.visits)
                .then(b.prior.total_cmp(&a.prior))
                .then(a.mv.cmp(&b.mv))
        });
        stats
    }

    /// The move to play: the most visited (then the highest prior).
    pub fn best_move(&self) -> Option<Move> {
        self.root_stats().first().map(|s| s.mv)
    }

    pub fn position(&self) -> &Position {
        &self.root_position
    }
}

/// Plays a game to its end with the heuristic playout policy: at each step `samples`
/// legal moves are drawn uniformly and the best by the greedy evaluation is played
/// (uniform while the ruin is built or stones are taken off, where it sees nothing).
pub fn heuristic_playout(position: &mut Position, samples: u32, rng: &mut impl Rng) {
    while let Some(first) = position.random_move(rng) {
        let mut mv = first;
        if samples > 1 && !position.building_ruin() && !position.removing() {
            let points = position.score().colour_points;
            let mut best = greedy_eval(position, &points, first);
            for _ in 1..samples {
                let Some(other) = position.random_move(rng) else {
                    break;
                };
                let eval = greedy_eval(position, &points, other);
                if eval > best {
                    best = eval;
                    mv = other;
                }
            }
        }
        position.play_unchecked(mv);
    }
}

/// Per player: the shaped reward (win share, with a quarter of the weight on the point
/// margin over the best opponent) and the plain win share.
fn rewards(position: &Position) -> (Vec<f64>, Vec<f64>) {
    let score = position.score();
    let players = score.player_points.len();
    let shares: Vec<f64> = (0..players)
        .map(|p| {
            if score.winners.contains(&(p as u8)) {
                1.0 / score.winners.len() as f64
            } else {
                0.0
            }
        })
        .collect();
    let rewards = (0..players)
        .map(|p| {
            let best_other = (0..players)
                .filter(|&q| q != p)
                .map(|q| score.player_points[q])
                .max()
                .unwrap_or(0);
            let margin = f64::from(score.player_points[p] - best_other);
            0.75 * shares[p] + 0.25 * (0.5 + 0.5 * (margin / 5.0).tanh())
        })
        .collect();
    (rewards, shares)
}

/// The MCTS bot: a [`Search`] kept between moves (when [`MctsConfig::reuse_tree`]).
pub struct MctsBot {
    config: MctsConfig,
    seed: u64,
    search: Option<Search>,
    name: &'static str,
    /// Root visits the last search started with, carried over from earlier moves.
    carried: u32,
}

impl MctsBot {
    pub fn new(config: MctsConfig, seed: u64) -> MctsBot {
        MctsBot {
            config,
            seed,
            search: None,
            name: "mcts",
            carried: 0,
        }
    }

    /// Searches `position` and returns the root's statistics (most visited first).
    pub fn analyse(&mut self, position: &Position) -> Vec<MoveStats> {
        let search = match &mut self.search {
            Some(s) if self.config.reuse_tree => {
                s.advance_to(position);
                s
            }
            _ => {
                let s = Search::new(position.clone(), self.config, self.seed);
                self.search.insert(s)
            }
        };
        self.carried = search.root_visits();
        search.run();
        search.root_stats()
    }

    /// The playouts through the root that the last search started with, from the tree
    /// kept since earlier moves (0 when it started afresh).
    pub fn carried_visits(&self) -> u32 {
        self.carried
    }

    /// The kept search, if any.
    pub fn search(&self) -> Option<&Search> {
        self.search.as_ref()
    }
}

impl RumisBot for MctsBot {
    fn name(&self) -> &'static str {
        self.name
    }

    fn choose(&mut self, position: &Position) -> Option<Move> {
        position.to_move()?;
        let mv = self.analyse(position).first().map(|s| s.mv)?;
        // Keep only what can serve later: the subtree of the move played.
        if self.config.reuse_tree {
            let mut next = position.clone();
            next.play_unchecked(mv);
            if let Some(search) = &mut self.search {
                search.advance_to(&next);
            }
        } else {
            self.search = None;
        }
        Some(mv)
    }

    fn carried_visits(&self) -> u32 {
        self.carried
    }
}

/// The strongest bot's view of a position: its best `count` moves with estimated win
/// chances for the player to move, from a search of `config`'s budget.
pub fn analyse(position: &Position, config: MctsConfig, seed: u64, count: usize) -> Vec<MoveStats> {
    let mut config = config;
    config.reuse_tree = false;
    let mut stats = MctsBot::new(config, seed).analyse(position);
    stats.truncate(count);
    stats
}

/// A position as a review sees it: the root's moves (most visited first) and every
/// player's estimated win share after the most visited one.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerAnalysis {
    pub moves: Vec<MoveStats>,
    /// Per player, the mean win share of the playouts through the best move (empty
    /// when the position is over).
    pub players: Vec<f64>,
}

/// Searches `position` with `config`'s budget (a number of playouts is reproducible:
/// same seed, same answer) and answers every player's chances, not only the mover's:
/// what a review charts for each player over a game.
pub fn analyse_players(position: &Position, config: MctsConfig, seed: u64) -> PlayerAnalysis {
    let mut config = config;
    config.reuse_tree = false;
    let mut search = Search::new(position.clone(), config, seed);
    search.root_shares = Some(Vec::new());
    search.run();
    let moves = search.root_stats();
    let players = moves
        .first()
        .and_then(|best| {
            let root = &search.nodes[search.root as usize];
            let e = root.edges.iter().position(|edge| edge.mv == best.mv)?;
            let sums = search.root_shares.as_ref()?.get(e)?;
            (best.visits > 0).then(|| sums.iter().map(|s| s / f64::from(best.visits)).collect())
        })
        .unwrap_or_default();
    PlayerAnalysis { moves, players }
}
