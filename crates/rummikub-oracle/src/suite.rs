//! Seeded positions from self-play: random bots play whole rounds, and the position
//! before every turn (table, the mover's rack, whether they have melded) is a sample.

use play::rummikub_random::random_action;
use rummikub::deal::rng_from_seed;
use rummikub::{Round, RuleSet, Set, Tile};

/// One position to solve.
#[derive(Clone, Debug)]
pub struct SuitePosition {
    pub rules: RuleSet,
    pub table: Vec<Set>,
    pub rack: Vec<Tile>,
    pub melded: bool,
}

impl SuitePosition {
    pub fn table_tiles(&self) -> usize {
        self.table.iter().map(|s| s.len()).sum()
    }

    pub fn jokers(&self) -> (usize, usize) {
        let table = self.table.iter().map(|s| s.jokers()).sum();
        let rack = self.rack.iter().filter(|t| t.is_joker()).count();
        (rack, table)
    }
}

/// Every position of one self-play round (2 to 4 players by seed).
pub fn round_positions(rules: &RuleSet, seed: u64) -> Vec<SuitePosition> {
    let players = 2 + (seed % 3) as usize;
    let Ok(mut round) = Round::new(rules.clone(), players, seed) else {
        return Vec::new();
    };
    let mut rng = rng_from_seed(seed ^ 0x5eed);
    let mut out = Vec::new();
    for _ in 0..2000 {
        if round.is_over() {
            break;
        }
        let player = round.current_player();
        out.push(SuitePosition {
            rules: rules.clone(),
            table: round.table().to_vec(),
            rack: round.rack(player),
            melded: round.has_melded(player),
        });
        let view = round.view(player);
        let action = random_action(&view, &mut rng);
        if round.apply(player, action).is_err()
            && round.apply(player, rummikub::Action::Draw).is_err()
        {
            break;
        }
    }
    out
}

/// `count` positions from self-play rounds with seeds from `seed` on, spread over each
/// round from opening to late game.
pub fn self_play(rules: &RuleSet, seed: u64, count: usize, per_round: usize) -> Vec<SuitePosition> {
    self_play_filtered(rules, seed, count, per_round, |_| true)
}

/// Like [`self_play`], calling `progress` with the count of positions so far after every
/// round (for a progress bar: 10,000 positions take some seconds). The same seed gives
/// the same positions.
pub fn self_play_with_progress(
    rules: &RuleSet,
    seed: u64,
    count: usize,
    per_round: usize,
    progress: impl FnMut(usize),
) -> Vec<SuitePosition> {
    generate(rules, seed, count, per_round, |_| true, progress)
}

/// Like [`self_play`], only positions that pass `keep`.
pub fn self_play_filtered(
    rules: &RuleSet,
    seed: u64,
    count: usize,
    per_round: usize,
    keep: impl Fn(&SuitePosition) -> bool,
) -> Vec<SuitePosition> {
    generate(rules, seed, count, per_round, keep, |_| {})
}

fn generate(
    rules: &RuleSet,
    seed: u64,
    count: usize,
    per_round: usize,
    keep: impl Fn(&SuitePosition) -> bool,
    mut progress: impl FnMut(usize),
) -> Vec<SuitePosition> {
    let mut out = Vec::with_capacity(count);
    let mut s = seed;
    while out.len() < count {
        let mut all = round_positions(rules, s);
        all.retain(|p| keep(p));
        s += 1;
        if all.is_empty() {
            continue;
        }
        let take = per_round.min(all.len()).max(1);
        for k in 0..take {
            if out.len() < count {
                out.push(all[k * all.len() / take].clone());
            }
        }
        progress(out.len());
    }
    out
}
