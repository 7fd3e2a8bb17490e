//! The match runner: N seeded games between entrants, seats rotated fairly, with win
//! shares (95% confidence intervals), mean scores and Elo differences.
//!
//! Game `g` is dealt from seed `seed + g / seats` and entrant `e` sits in seat
//! `(e + g) % seats`: every deal is played once in each rotation of the seats, so luck of
//! the deal and of the seat cancels out when `games` is a multiple of the seat count.
//! Results do not depend on the number of threads.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::bots::Bot;
use crate::game::{Game, GameError, Outcome};

/// Actions after which a game is stopped as broken (no real game comes near).
pub const MAX_ACTIONS: usize = 100_000;

/// Builds an entrant's bot from its spec and a seed.
pub type MakeBot<G> = dyn Fn(&str, u64) -> Result<Box<dyn Bot<G>>, GameError> + Sync;

/// One played game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub index: usize,
    pub seed: u64,
    /// `entrant_of_seat[s]`: the entrant sitting in seat `s`.
    pub entrant_of_seat: Vec<usize>,
    pub outcome: Outcome,
    /// The game as a text record.
    pub record: String,
}

/// Plays one game to its end with one bot per seat.
pub fn play_game<G: Game>(
    config: &G::Config,
    seed: u64,
    bots: &mut [Box<dyn Bot<G>>],
) -> Result<G, GameError> {
    let game = G::start(config, seed).map_err(GameError::of)?;
    play_from(game, bots, &mut |_, _, _| {})
}

/// Plays `game` on from where it is until nobody is to act (the game is over, or a
/// finished round waits to be dealt, [`Game::awaits_next_round`]), one bot per seat,
/// each kept for the whole game. `watch(game, seat, action)` sees every choice before
/// it is applied (a test checks the game's promises there, a tool records positions).
/// Every self-play loop goes through here.
pub fn play_from<G: Game>(
    mut game: G,
    bots: &mut [Box<dyn Bot<G>>],
    watch: &mut dyn FnMut(&G, usize, &G::Action),
) -> Result<G, GameError> {
    if bots.len() != game.seats() {
        return Err(GameError::BotsForSeats {
            bots: bots.len(),
            seats: game.seats(),
        });
    }
    let mut actions = 0;
    while let Some(seat) = game.to_act() {
        let observation = game.observe(seat);
        let bot = &mut bots[seat];
        let action = bot.choose(&observation, seat).map_err(|e| GameError::Bot {
            bot: bot.name(),
            seat,
            error: Box::new(e),
        })?;
        watch(&game, seat, &action);
        game.apply(seat, &action)
            .map_err(|e| GameError::BotRefused {
                bot: bot.name(),
                seat,
                action: game.format_action(&action),
                refusal: e.to_string(),
            })?;
        actions += 1;
        if actions > MAX_ACTIONS {
            return Err(GameError::TooLong(MAX_ACTIONS));
        }
    }
    Ok(game)
}

/// Plays `games` games between `entrants` (one per seat) on `threads` threads.
/// `make_bot(entrant, seed)` builds an entrant's bot for one game; `done` is called
/// after each game (for a progress bar). Results come back in game order.
pub fn run_match<G: Game>(
    config: &G::Config,
    entrants: &[String],
    games: usize,
    seed: u64,
    threads: usize,
    make_bot: &MakeBot<G>,
    done: &(dyn Fn(&GameRecord) + Sync),
) -> Result<Vec<GameRecord>, GameError> {
    let seats = entrants.len();
    if seats == 0 {
        return Err(GameError::NoEntrants);
    }
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<GameRecord>> = Mutex::new(Vec::with_capacity(games));
    let failure: Mutex<Option<GameError>> = Mutex::new(None);
    let worker = || loop {
        let index = next.fetch_add(1, Ordering::Relaxed);
        if index >= games || failure.lock().map_or(true, |f| f.is_some()) {
            return;
        }
        match play_one::<G>(config, entrants, index, seed, make_bot) {
            Ok(record) => {
                done(&record);
                if let Ok(mut r) = results.lock() {
                    r.push(record);
                }
            }
            Err(e) => {
                if let Ok(mut f) = failure.lock() {
                    f.get_or_insert(e);
                }
                return;
            }
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(worker);
        }
    });
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    let mut results = results.into_inner().unwrap_or_default();
    results.sort_by_key(|r| r.index);
    Ok(results)
}

fn play_one<G: Game>(
    config: &G::Config,
    entrants: &[String],
    index: usize,
    seed: u64,
    make_bot: &MakeBot<G>,
) -> Result<GameRecord, GameError> {
    let seats = entrants.len();
    let game_seed = seed.wrapping_add((index / seats) as u64);
    let entrant_of_seat: Vec<usize> = (0..seats)
        .map(|s| (s + seats - index % seats) % seats)
        .collect();
    let mut bots = entrant_of_seat
        .iter()
        .enumerate()
        .map(|(s, &e)| {
            let bot_seed = game_seed
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .wrapping_add(s as u64 * 1_000_003 + 1);
            make_bot(&entrants[e], bot_seed)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let game = play_game::<G>(config, game_seed, &mut bots)?;
    let outcome = game.outcome().ok_or(GameError::Unfinished)?;
    let names: Vec<String> = entrant_of_seat
        .iter()
        .map(|&e| entrants[e].clone())
        .collect();
    Ok(GameRecord {
        index,
        seed: game_seed,
        entrant_of_seat,
        outcome,
        record: game.record(Some(&names.join(","))),
    })
}

/// One bot (all entrants with the same spec pooled).
#[derive(Clone, Debug, PartialEq)]
pub struct BotStats {
    pub name: String,
    /// Seats it held over all games.
    pub seat_games: usize,
    /// Mean win share per seat-game (ties shared).
    pub win_share: f64,
    /// Half-width of the 95% confidence interval of `win_share` (normal approximation).
    pub ci95: f64,
    pub mean_score: f64,
}

/// Elo difference between two bots from their head-to-head comparisons: in each game,
/// every seat of `a` is compared with every seat of `b` by score (a draw counts half).
#[derive(Clone, Debug, PartialEq)]
pub struct EloPair {
    pub a: String,
    pub b: String,
    pub comparisons: usize,
    /// `a`'s share of the comparisons.
    pub score: f64,
    /// `a`'s Elo minus `b`'s.
    pub elo: f64,
    /// Half-width of the 95% confidence interval of `elo`.
    pub elo_ci95: f64,
}

/// The summary of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub games: usize,
    pub bots: Vec<BotStats>,
    pub elo: Vec<EloPair>,
}

/// Elo difference for an expected score `p` (clamped away from 0 and 1).
pub fn elo_from_score(p: f64) -> f64 {
    let p = p.clamp(1e-3, 1.0 - 1e-3);
    -400.0 * (1.0 / p - 1.0).log10()
}

/// Win shares, mean scores and Elo differences of a match.
pub fn summarize(entrants: &[String], results: &[GameRecord]) -> Summary {
    let mut names: Vec<String> = Vec::new();
    for e in entrants {
        if !names.contains(e) {
            names.push(e.clone());
        }
    }
    let bots = names
        .iter()
        .map(|name| {
            let mut shares = Vec::new();
            let mut score = 0.0;
            for r in results {
                for (seat, &e) in r.entrant_of_seat.iter().enumerate() {
                    if entrants[e] == *name {
                        shares.push(r.outcome.win_share(seat));
                        score += r.outcome.scores[seat];
                    }
                }
            }
            let n = shares.len().max(1) as f64;
            let mean = shares.iter().sum::<f64>() / n;
            let var = shares.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
            BotStats {
                name: name.clone(),
                seat_games: shares.len(),
                win_share: mean,
                ci95: 1.96 * (var / n).sqrt(),
                mean_score: score / n,
            }
        })
        .collect();
    let mut elo = Vec::new();
    for (i, a) in names.iter().enumerate() {
        for b in &names[i + 1..] {
            let mut points = Vec::new();
            for r in results {
                let seats_of = |name: &String| -> Vec<usize> {
                    (0..r.entrant_of_seat.len())
                        .filter(|&s| entrants[r.entrant_of_seat[s]] == *name)
                        .collect()
                };
                for sa in seats_of(a) {
                    for sb in seats_of(b) {
                        let (x, y) = (r.outcome.scores[sa], r.outcome.scores[sb]);
                        let (wa, wb) = (r.outcome.win_share(sa), r.outcome.win_share(sb));
                        // The win decides first, then the score.
                        let p = match wa.total_cmp(&wb).then(x.total_cmp(&y)) {
                            std::cmp::Ordering::Greater => 1.0,
                            std::cmp::Ordering::Less => 0.0,
                            std::cmp::Ordering::Equal => 0.5,
                        };
                        points.push(p);
                    }
                }
            }
            let n = points.len().max(1) as f64;
            let score = points.iter().sum::<f64>() / n;
            let var = points.iter().map(|p| (p - score).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
            let half = 1.96 * (var / n).sqrt();
            let elo_mid = elo_from_score(score);
            let elo_ci95 = (elo_from_score(score + half) - elo_from_score(score - half)) / 2.0;
            elo.push(EloPair {
                a: a.clone(),
                b: b.clone(),
                comparisons: points.len(),
                score,
                elo: elo_mid,
                elo_ci95,
            });
        }
    }
    Summary {
        games: results.len(),
        bots,
        elo,
    }
}
