//! The Rumis review: every move against the strongest bot's search with a fixed
//! number of playouts and a fixed seed (the same review every time).
//!
//! A move is judged by two searches of the same kind: of the position after the move
//! played, and of the position after the bot's best move instead; each gives every
//! player's win chance (that of the best reply there). Comparing the mover's chance in
//! the two keeps the search's bias out of the judgement: a search rates its root
//! player's best move too well (its replies are still being explored), so the
//! mover's chance before a move and after it, read from searches rooted at different
//! players, would differ even for the best move.

use play::mcts::{analyse_players, Budget, MctsConfig};
use rumis::notation::format_move;
use rumis::{Colour, Move, Position};

use crate::games::{self, RumisTable};
use crate::store::StoredTable;
use crate::wire::{
    GameAction, Judgement, ReviewPlayer, ReviewTurn, RumisPlayerReview, RumisReviewMethod,
    RumisSuggestion, RumisTurnReview,
};

/// Drops in the mover's win chance, in percentage points, from which a move is an
/// inaccuracy, a mistake and a blunder.
pub const THRESHOLDS: [f64; 3] = [5.0, 10.0, 20.0];

/// The seed of every review search.
const SEED: u64 = 0x5eed;

/// A move to review: the position before it and the move played.
pub struct Turn {
    pub version: u64,
    pub seat: usize,
    position: Position,
    played: Move,
}

/// What the searches say of a move.
pub struct Analysis {
    /// Every player's win chance after the move played; empty for a forced move (it
    /// takes the next position's).
    after: Vec<f64>,
    /// The bot's best move, and every player's win chance after it when it is not the
    /// move played.
    best: Option<(Move, RumisSuggestion, Option<Vec<f64>>)>,
}

/// Every move of a stored, finished game, and each player's share of the result.
pub fn turns(stored: &StoredTable) -> anyhow::Result<(Vec<Turn>, Vec<f64>)> {
    let settings = crate::hub::read_settings(&stored.config, &stored.seats)?;
    let mut game = games::new_game(&settings, stored.seed).map_err(anyhow::Error::msg)?;
    let mut turns = Vec::new();
    for action in &stored.actions {
        let logged: GameAction = serde_json::from_str(&action.action)?;
        let before = rumis_of(&game)?.position().clone();
        games::replay_action(&mut game, action.actor, &logged)
            .map_err(|e| anyhow::anyhow!("action {} does not replay: {e}", action.version))?;
        let after = rumis_of(&game)?.position();
        let (Some(seat), Some(&played)) = (action.actor, after.history().last()) else {
            continue;
        };
        turns.push(Turn {
            version: action.version,
            seat,
            position: before,
            played,
        });
    }
    let result = result(rumis_of(&game)?.position());
    Ok((turns, result))
}

fn rumis_of(game: &games::TableGame) -> anyhow::Result<&RumisTable> {
    game.rumis()
        .ok_or_else(|| anyhow::anyhow!("not a Rumis game"))
}

/// Each player's share of a finished game's win (a tie shares it, R9).
fn result(position: &Position) -> Vec<f64> {
    let score = position.score();
    (0..position.setup().players)
        .map(|p| {
            if score.winners.contains(&p) {
                1.0 / score.winners.len() as f64
            } else {
                0.0
            }
        })
        .collect()
}

/// Every player's win chance at `position`: its best move's, or the result.
fn chances(position: &Position, config: MctsConfig) -> Vec<f64> {
    if position.is_over() {
        return result(position);
    }
    let players = analyse_players(position, config, SEED).players;
    if players.is_empty() {
        result(position)
    } else {
        players
    }
}

/// The searches of one move (CPU work: the thinking pool's): of the position before
/// it for the best move, of the position after it, and of the position after the best
/// move when that was not played. A forced move is not searched.
pub fn analyse(turn: &Turn, playouts: u32) -> Analysis {
    let position = &turn.position;
    if position.legal_moves().len() <= 1 {
        return Analysis {
            after: Vec::new(),
            best: None,
        };
    }
    let config = MctsConfig::with_budget(Budget::Playouts(playouts));
    let search = analyse_players(position, config, SEED);
    let mut after = position.clone();
    after.play_unchecked(turn.played);
    let best = search.moves.first().map(|stats| {
        let instead = (stats.mv != turn.played).then(|| {
            let mut instead = position.clone();
            instead.play_unchecked(stats.mv);
            chances(&instead, config)
        });
        (stats.mv, games::suggestion(position, stats), instead)
    });
    Analysis {
        after: chances(&after, config),
        best,
    }
}

/// How a drop in win chance (percentage points) is judged.
pub fn judge(drop: f64) -> Option<Judgement> {
    let [inaccuracy, mistake, blunder] = THRESHOLDS;
    if drop >= blunder {
        Some(Judgement::Blunder)
    } else if drop >= mistake {
        Some(Judgement::Mistake)
    } else if drop >= inaccuracy {
        Some(Judgement::Inaccuracy)
    } else {
        None
    }
}

pub fn method(playouts: u32) -> RumisReviewMethod {
    let [inaccuracy, mistake, blunder] = THRESHOLDS;
    RumisReviewMethod {
        playouts,
        inaccuracy,
        mistake,
        blunder,
    }
}

/// The reviewed moves from their searches; a forced move's chances are the next
/// move's (or the result's).
pub fn review(turns: Vec<Turn>, analyses: Vec<Analysis>, result: Vec<f64>) -> Vec<ReviewTurn> {
    let mut next = result;
    let mut reviewed = Vec::with_capacity(turns.len());
    for (turn, analysis) in turns.into_iter().zip(analyses).rev() {
        let after = if analysis.after.len() == next.len() {
            analysis.after
        } else {
            next.clone()
        };
        let mover = turn.seat;
        let (best, before) = match analysis.best {
            Some((_, mut suggestion, instead)) => {
                let before = instead
                    .filter(|chances| chances.len() == after.len())
                    .unwrap_or_else(|| after.clone());
                suggestion.win_chance = before.get(mover).copied().unwrap_or(0.0);
                (Some(suggestion), before)
            }
            None => (None, after.clone()),
        };
        let fall =
            before.get(mover).copied().unwrap_or(0.0) - after.get(mover).copied().unwrap_or(0.0);
        let drop = (fall.max(0.0) * 1000.0).round() / 10.0;
        next = before.clone();
        let position = &turn.position;
        reviewed.push(ReviewTurn {
            version: turn.version,
            seat: turn.seat,
            rummikub: None,
            rumis: Some(RumisTurnReview {
                notation: format_move(position, turn.played),
                colour: position
                    .to_move()
                    .map_or_else(String::new, |c| c.name().to_string()),
                forced: best.is_none(),
                before,
                after,
                best,
                drop,
                judgement: judge(drop),
            }),
        });
    }
    reviewed.reverse();
    reviewed
}

/// Each player over the game: their colours, and their moves by judgement.
pub fn players(
    names: &[String],
    colours: &[Vec<Colour>],
    turns: &[ReviewTurn],
) -> Vec<ReviewPlayer> {
    (0..names.len())
        .map(|seat| {
            let mut total = RumisPlayerReview {
                colours: colours
                    .get(seat)
                    .map(|cs| cs.iter().map(|c| c.name().to_string()).collect())
                    .unwrap_or_default(),
                ..RumisPlayerReview::default()
            };
            let mut drops = 0.0;
            for review in turns
                .iter()
                .filter(|t| t.seat == seat)
                .filter_map(|t| t.rumis.as_ref())
            {
                total.moves += 1;
                drops += review.drop;
                match review.judgement {
                    Some(Judgement::Inaccuracy) => total.inaccuracies += 1,
                    Some(Judgement::Mistake) => total.mistakes += 1,
                    Some(Judgement::Blunder) => total.blunders += 1,
                    None => {}
                }
            }
            if total.moves > 0 {
                total.average_drop = (drops / f64::from(total.moves) * 10.0).round() / 10.0;
            }
            ReviewPlayer {
                seat,
                name: names[seat].clone(),
                rummikub: None,
                rumis: Some(total),
            }
        })
        .collect()
}

/// Each seat's colours in a game of these turns.
pub fn colours_of(turns: &[Turn], seats: usize) -> Vec<Vec<Colour>> {
    let Some(first) = turns.first() else {
        return vec![Vec::new(); seats];
    };
    (0..seats)
        .map(|seat| first.position.colours_of(seat as u8))
        .collect()
}
