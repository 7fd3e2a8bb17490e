//! The Rummikub review: every turn against the exact solver, from the rack the player
//! had and the table before the turn (the same question `rumi solve` answers), by
//! tiles and by value.

use rummikub::round::table_value;
use rummikub::tile::TileCounts;
use rummikub::{RuleSet, Set, Tile};
use rummikub_solver::{Objective, Solution, SolverCache, TableAndRack};

use crate::games::{self, RummikubTable};
use crate::store::StoredTable;
use crate::wire::{
    GameAction, HintPlay, PlayedKind, ReviewPlayer, ReviewTurn, RummikubAction, RummikubPlayed,
    RummikubPlayerReview, RummikubTurnReview,
};

/// A turn to review: who played, what they held, what they did.
pub struct Turn {
    pub version: u64,
    pub seat: usize,
    round: u32,
    rack: Vec<Tile>,
    table: Vec<Set>,
    melded: bool,
    played: RummikubPlayed,
}

/// The game's rules and every turn of a stored, finished game (a draw, a play or a
/// time-out; redeal claims and deals of the next round are no turns).
pub fn turns(stored: &StoredTable) -> anyhow::Result<(RuleSet, Vec<Turn>)> {
    let settings = crate::hub::read_settings(&stored.config, &stored.seats)?;
    let mut game = games::new_game(&settings, stored.seed).map_err(anyhow::Error::msg)?;
    let mut turns = Vec::new();
    let mut rules = None;
    for action in &stored.actions {
        let logged: GameAction = serde_json::from_str(&action.action)?;
        let kind = match (&logged, action.actor) {
            (_, None) => Some(PlayedKind::Timeout),
            (GameAction::Rummikub(RummikubAction::Play { .. }), _) => Some(PlayedKind::Play),
            (GameAction::Rummikub(RummikubAction::Draw), _) => Some(PlayedKind::Draw),
            _ => None,
        };
        let before = kind.and_then(|kind| {
            let series = rummikub_of(&game)?.game();
            let round = series.round();
            if round.is_over() {
                return None;
            }
            rules.get_or_insert_with(|| series.rules().clone());
            let seat = action.actor.unwrap_or_else(|| round.current_player());
            Some((
                kind,
                seat,
                series.round_number().max(1) as u32,
                round.rack(seat),
                round.table().to_vec(),
                round.has_melded(seat),
            ))
        });
        games::replay_action(&mut game, action.actor, &logged)
            .map_err(|e| anyhow::anyhow!("action {} does not replay: {e}", action.version))?;
        let Some((kind, seat, round_number, rack, table, melded)) = before else {
            continue;
        };
        let series = rummikub_of(&game)
            .ok_or_else(|| anyhow::anyhow!("not a Rummikub game"))?
            .game();
        let round = series.round();
        let after_rack = round.rack(seat);
        let after_table = round.table().to_vec();
        let mut left = TileCounts::from_tiles(&after_rack);
        let placed: Vec<Tile> = if kind == PlayedKind::Play {
            rack.iter().copied().filter(|&t| !left.remove(t)).collect()
        } else {
            Vec::new()
        };
        let kind = match kind {
            PlayedKind::Draw if after_rack.len() <= rack.len() => PlayedKind::Pass,
            other => other,
        };
        let value = if kind == PlayedKind::Play {
            table_value(&after_table, series.rules())
                .saturating_sub(table_value(&table, series.rules()))
        } else {
            0
        };
        turns.push(Turn {
            version: action.version,
            seat,
            round: round_number,
            rack,
            table,
            melded,
            played: RummikubPlayed {
                kind,
                tiles: placed.len() as u32,
                placed: names(&placed),
                value,
                table: table_names(&after_table),
            },
        });
    }
    let rules = match rules {
        Some(rules) => rules,
        None => rummikub_of(&game)
            .ok_or_else(|| anyhow::anyhow!("not a Rummikub game"))?
            .game()
            .rules()
            .clone(),
    };
    Ok((rules, turns))
}

fn rummikub_of(game: &games::TableGame) -> Option<&RummikubTable> {
    game.rummikub()
}

fn names(tiles: &[Tile]) -> Vec<String> {
    tiles.iter().map(Tile::to_string).collect()
}

fn table_names(table: &[Set]) -> Vec<Vec<String>> {
    table.iter().map(|set| names(set.tiles())).collect()
}

fn hint_play(solution: &Solution) -> HintPlay {
    HintPlay {
        placed: names(&solution.placed),
        table: table_names(&solution.table),
        tiles: solution.tiles,
        value: solution.value.max(0) as u32,
        changed_sets: solution.changed_sets as u32,
        fewest_changed_proven: solution.fewest_changed_proven,
    }
}

/// One turn against the solver (CPU work: the thinking pool's). `cache` carries the
/// solver's tables from turn to turn; the answers are those of a fresh solver.
pub fn review_turn(cache: &mut SolverCache, rules: &RuleSet, turn: Turn) -> ReviewTurn {
    let position = TableAndRack::with_sets(turn.table.clone(), turn.rack.clone(), turn.melded);
    let mut unsolved = false;
    let mut best = |objective| match cache.solve(rules, &position, objective) {
        Ok(best) => best.as_ref().map(hint_play),
        Err(e) => {
            tracing::warn!("a review turn has no best play: {e}");
            unsolved = true;
            None
        }
    };
    let best_tiles = best(Objective::Tiles);
    let best_value = best(Objective::Value);
    let played = turn.played;
    let drew = played.kind != PlayedKind::Play;
    RummikubTurnReview {
        round: turn.round,
        rack: names(&turn.rack),
        table: table_names(&turn.table),
        melded: turn.melded,
        drew_with_play: drew && best_tiles.is_some(),
        tiles_missed: best_tiles
            .as_ref()
            .map_or(0, |b| b.tiles.saturating_sub(played.tiles)),
        points_missed: best_value
            .as_ref()
            .map_or(0, |b| b.value.saturating_sub(played.value)),
        played,
        best_tiles,
        best_value,
        unsolved,
    }
    .into_turn(turn.version, turn.seat)
}

impl RummikubTurnReview {
    fn into_turn(self, version: u64, seat: usize) -> ReviewTurn {
        ReviewTurn {
            version,
            seat,
            rummikub: Some(self),
            rumis: None,
        }
    }
}

/// Each player over the game: what they laid against what they could have.
pub fn players(names: &[String], turns: &[ReviewTurn]) -> Vec<ReviewPlayer> {
    let mut totals = vec![RummikubPlayerReview::default(); names.len()];
    for turn in turns {
        let (Some(review), Some(total)) = (&turn.rummikub, totals.get_mut(turn.seat)) else {
            continue;
        };
        total.turns += 1;
        if review.played.kind == PlayedKind::Play {
            total.plays += 1;
        }
        total.tiles_laid += review.played.tiles;
        total.tiles_possible += review.best_tiles.as_ref().map_or(0, |b| b.tiles);
        total.draws_with_play += u32::from(review.drew_with_play);
        total.points_missed += review.points_missed;
    }
    totals
        .into_iter()
        .enumerate()
        .map(|(seat, totals)| ReviewPlayer {
            seat,
            name: names[seat].clone(),
            rummikub: Some(totals),
            rumis: None,
        })
        .collect()
}
