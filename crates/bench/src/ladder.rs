//! `rumi-bench ladder`: the bots' published ratings (issue 47), on the people's scale.
//!
//! In each rating pool the server's bots play each other through the match runner,
//! built as the server builds a seat's bot (`WithBots::bot` from the registered spec;
//! every level has a fixed work budget, so results do not depend on the machine's load).
//! Two-seat pools play every pair of bots; the four-seat pool plays cyclic tables in
//! which every bot sits equally often and pairs meet about equally. Each table plays the
//! same seeded deals, seats rotated.
//!
//! Every game is rated with [`play::rating::rate`] from [`play::rating::places`], all
//! bots starting new. Sequential updates depend on the games' order, so a bot's rating
//! is its mean over shuffled orders, and its 95% interval the 2.5th to 97.5th
//! percentile over bootstrap samples of the games. `--write` keeps the result in
//! `crates/server/src/bot_ratings.json` (embedded by the server) and
//! `docs/bot-ratings.md`.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{bail, Context};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use play::bots::{registered, WithBots};
use play::match_runner::{run_match, GameRecord};
use play::rating::{places, rate, Rating};
use play::rumis_game::{RumisConfig, RumisGame};
use play::rummikub_game::{RummikubConfig, RummikubGame};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use server::bot_ratings::{BotRatings, LadderBot, PoolRatings};
use server::wire::RatingPool;

#[derive(Args)]
pub struct LadderArgs {
    /// Games per table (every pair of bots, or table of four); a multiple of the seats
    /// plays each deal in every seating. Default: each pool's own (see --help's pools).
    #[arg(long)]
    games: Option<usize>,
    /// Seed of the first deal; game g of every table uses seed + g / seats.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Tables played at once (each bot thinks on one core).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Pools to run (rumis_two, rumis_multi, rummikub); default all.
    #[arg(long = "pool", value_delimiter = ',', value_parser = parse_pool)]
    pools: Vec<RatingPool>,
    /// Shuffled orders (and bootstrap samples) of the games the ratings come from.
    #[arg(long, default_value_t = 200)]
    orders: usize,
    /// Write crates/server/src/bot_ratings.json and docs/bot-ratings.md (pools not run
    /// keep what they had).
    #[arg(long)]
    write: bool,
}

fn parse_pool(text: &str) -> Result<RatingPool, String> {
    RatingPool::ALL
        .into_iter()
        .find(|p| p.name() == text)
        .ok_or_else(|| format!("unknown pool `{text}` (rumis_two, rumis_multi, rummikub)"))
}

/// The games a pool's ladder plays.
struct PoolSetup {
    pool: RatingPool,
    /// In words, for the table's heading.
    setup: &'static str,
    title: &'static str,
    seats: usize,
    /// Games per table unless `--games` says otherwise: sized for the whole ladder to
    /// run in about a quarter of an hour on one core.
    games: usize,
}

const SETUPS: [PoolSetup; 3] = [
    PoolSetup {
        pool: RatingPool::RumisTwo,
        setup: "Rumis on Chullpa, 2 players, standard",
        title: "Rumis, two players",
        seats: 2,
        games: 8,
    },
    PoolSetup {
        pool: RatingPool::RumisMulti,
        setup: "Rumis on Chullpa, 4 players, standard",
        title: "Rumis, three to six players",
        seats: 4,
        games: 12,
    },
    PoolSetup {
        pool: RatingPool::Rummikub,
        setup: "Rummikub, current rules, 2 players, one round",
        title: "Rummikub",
        seats: 2,
        games: 100,
    },
];

/// One game's result: the bot (its index in the pool) in each seat, and each seat's place.
#[derive(Clone, Debug)]
pub struct Played {
    pub bots: Vec<usize>,
    pub places: Vec<usize>,
}

/// A bot's rating from a ladder, shown scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rated {
    pub rating: f64,
    pub low: f64,
    pub high: f64,
    pub games: usize,
}

/// The tables of `n` bots with `seats` seats: every pair for two seats, else the `n`
/// cyclic shifts of the offsets 0, 1, 3, 6 … (for 7 bots at 4 seats every pair meets
/// at exactly 2 tables), or consecutive offsets where those collide.
pub fn tables(n: usize, seats: usize) -> anyhow::Result<Vec<Vec<usize>>> {
    if seats < 2 || n < seats {
        bail!("{n} bots cannot fill tables of {seats}");
    }
    if seats == 2 {
        return Ok((0..n)
            .flat_map(|a| (a + 1..n).map(move |b| vec![a, b]))
            .collect());
    }
    if n == seats {
        return Ok(vec![(0..n).collect()]);
    }
    let mut offsets: Vec<usize> = (0..seats).map(|j| j * (j + 1) / 2 % n).collect();
    let mut sorted = offsets.clone();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() < seats {
        offsets = (0..seats).collect();
    }
    Ok((0..n)
        .map(|shift| offsets.iter().map(|o| (o + shift) % n).collect())
        .collect())
}

/// Plays every table `games` times on `threads` threads; results in table order.
pub fn play_tables<G: WithBots>(
    config: &G::Config,
    specs: &[&str],
    tables: &[Vec<usize>],
    games: usize,
    seed: u64,
    threads: usize,
    bar: &ProgressBar,
) -> anyhow::Result<Vec<Played>> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Vec<Played>)>> = Mutex::new(Vec::new());
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let make = |spec: &str, seed: u64| G::bot(spec, seed);
    let done = |_: &GameRecord| bar.inc(1);
    let worker = || loop {
        let t = next.fetch_add(1, Ordering::Relaxed);
        if t >= tables.len() || failure.lock().map_or(true, |f| f.is_some()) {
            return;
        }
        let table = &tables[t];
        let entrants: Vec<String> = table.iter().map(|&b| specs[b].to_string()).collect();
        match run_match::<G>(config, &entrants, games, seed, 1, &make, &done) {
            Ok(records) => {
                let played = records
                    .iter()
                    .map(|r| Played {
                        bots: r.entrant_of_seat.iter().map(|&e| table[e]).collect(),
                        places: places(&r.outcome),
                    })
                    .collect();
                if let Ok(mut r) = results.lock() {
                    r.push((t, played));
                }
            }
            Err(e) => {
                if let Ok(mut f) = failure.lock() {
                    f.get_or_insert(format!("{}: {e}", entrants.join(" v ")));
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
        bail!("{e}");
    }
    let mut results = results.into_inner().unwrap_or_default();
    results.sort_by_key(|(t, _)| *t);
    Ok(results.into_iter().flat_map(|(_, p)| p).collect())
}

/// Every bot's rating after `games` rated one by one in this order, all starting new.
fn in_sequence<'a>(bots: usize, games: impl Iterator<Item = &'a Played>) -> Vec<Rating> {
    let mut ratings = vec![Rating::NEW; bots];
    for game in games {
        let before: Vec<(Rating, usize)> = game
            .bots
            .iter()
            .zip(&game.places)
            .map(|(&b, &place)| (ratings[b], place))
            .collect();
        for (&b, after) in game.bots.iter().zip(rate(&before)) {
            ratings[b] = after;
        }
    }
    ratings
}

/// The `q` quantile of sorted values (linear between neighbours).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let at = q * (sorted.len() - 1) as f64;
    let (lo, hi) = (at.floor() as usize, at.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo as f64)
}

/// Each of `bots` bots' rating from the games: the mean shown rating over `orders`
/// shuffled orders, and the 95% percentile interval over as many bootstrap samples.
pub fn rate_ladder(bots: usize, played: &[Played], orders: usize, seed: u64) -> Vec<Rated> {
    let orders = orders.max(1);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut means = vec![0.0; bots];
    let mut samples = vec![Vec::with_capacity(orders); bots];
    let mut order: Vec<&Played> = played.iter().collect();
    for _ in 0..orders {
        order.shuffle(&mut rng);
        for (b, r) in in_sequence(bots, order.iter().copied()).iter().enumerate() {
            means[b] += r.shown() / orders as f64;
        }
        let resampled = (0..played.len()).map(|_| &played[rng.gen_range(0..played.len())]);
        for (b, r) in in_sequence(bots, resampled).iter().enumerate() {
            samples[b].push(r.shown());
        }
    }
    (0..bots)
        .map(|b| {
            samples[b].sort_by(f64::total_cmp);
            Rated {
                rating: means[b],
                low: quantile(&samples[b], 0.025),
                high: quantile(&samples[b], 0.975),
                games: played.iter().filter(|g| g.bots.contains(&b)).count(),
            }
        })
        .collect()
}

/// Runs one pool's ladder and rates it.
fn run_pool(setup: &PoolSetup, args: &LadderArgs) -> anyhow::Result<PoolRatings> {
    let game = setup.pool.game();
    let entries: Vec<_> = registered(game).collect();
    let specs: Vec<&str> = entries.iter().map(|e| e.spec).collect();
    let tables = tables(specs.len(), setup.seats)?;
    let games = args.games.unwrap_or(setup.games);
    if games == 0 {
        bail!("--games must be at least 1");
    }
    let bar = ProgressBar::new((tables.len() * games) as u64).with_style(
        ProgressStyle::with_template(
            "{msg:12} {bar:40} {pos}/{len} games  {elapsed_precise} (eta {eta})",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_message(setup.pool.name());
    let started = Instant::now();
    let played = match setup.pool {
        RatingPool::RumisTwo | RatingPool::RumisMulti => {
            let config = RumisConfig::builtin("chullpa", setup.seats as u8)?;
            play_tables::<RumisGame>(
                &config,
                &specs,
                &tables,
                games,
                args.seed,
                args.threads,
                &bar,
            )?
        }
        RatingPool::Rummikub => {
            let config = RummikubConfig::preset("current", setup.seats)?;
            play_tables::<RummikubGame>(
                &config,
                &specs,
                &tables,
                games,
                args.seed,
                args.threads,
                &bar,
            )?
        }
    };
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs();
    let rated = rate_ladder(specs.len(), &played, args.orders, args.seed);
    let mut bots: Vec<LadderBot> = entries
        .iter()
        .zip(&rated)
        .map(|(e, r)| LadderBot {
            spec: e.spec.to_string(),
            level: e.level,
            rating: round1(r.rating),
            low: round1(r.low),
            high: round1(r.high),
            games: r.games,
        })
        .collect();
    bots.sort_by(|a, b| b.rating.total_cmp(&a.rating));
    Ok(PoolRatings {
        pool: setup.pool,
        setup: setup.setup.to_string(),
        command: format!(
            "rumi-bench ladder --pool {} --games {games} --seed {} --orders {} --write",
            setup.pool.name(),
            args.seed,
            args.orders
        ),
        games: played.len(),
        seconds,
        method: format!(
            "{} tables × {games} games, seats rotated; Weng-Lin from 1500 for all; \
             rating: mean over {} shuffled orders; interval: 2.5th–97.5th percentile over \
             {} bootstrap samples of the games",
            tables.len(),
            args.orders,
            args.orders
        ),
        bots,
    })
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn level_word(level: u8) -> &'static str {
    match level {
        1 => "beginner",
        2 => "casual",
        3 => "intermediate",
        4 => "advanced",
        _ => "expert",
    }
}

/// A pool's table in Markdown.
fn markdown_table(pool: &PoolRatings) -> String {
    let mut out =
        String::from("| Bot | Level | Rating | 95% interval | Games |\n|---|---|---:|---|---:|\n");
    for b in &pool.bots {
        out.push_str(&format!(
            "| `{}` | {} ({}) | {:.0} | {:.0} – {:.0} | {} |\n",
            b.spec,
            b.level,
            level_word(b.level),
            b.rating,
            b.low,
            b.high,
            b.games
        ));
    }
    out
}

/// `docs/bot-ratings.md` from the ladder's results.
fn markdown(ratings: &BotRatings) -> String {
    let mut out = String::from(
        "# The bots' ratings\n\n\
         Written by `rumi-bench ladder --write` (`crates/bench/src/ladder.rs`); do not edit.\n\n\
         The lobby shows each bot with its rating on the people's scale (`1500 + 30 (mu − 25)`, \
         `crates/play/src/rating.rs`), in the pool of the table being set up: \"Inti (expert, \
         about 1,650)\". The ratings come from a ladder of bot-against-bot games through the \
         match runner. Each bot is built as the server builds a seat's bot, from its registered \
         spec, whose level fixes its work (playouts, samples), so the results do not depend on \
         the machine. Two-player pools play every pair of bots; the four-player pool plays \
         cyclic tables of four, one per bot (with seven bots every pair meets at two). Every table \
         plays the same seeded deals with the seats rotated.\n\n\
         Every game is rated with the people's model (Weng-Lin, `rating::rate` from \
         `rating::places`), all bots starting at 1500. Since sequential updates depend on the \
         order of the games, a rating is the mean over shuffled orders of the same games, and \
         its 95% interval runs from the 2.5th to the 97.5th percentile over bootstrap samples \
         of the games (drawn with replacement, in random order). The server embeds \
         `crates/server/src/bot_ratings.json` and gives each bot's rating, rounded to 10, in \
         `GET /api/meta`.\n",
    );
    for setup in &SETUPS {
        let Some(pool) = ratings.pool(setup.pool) else {
            continue;
        };
        out.push_str(&format!(
            "\n## {} (`{}`)\n\n{}: {} games ({}), {} s on this machine.\n\n```\n{}\n```\n\n{}",
            setup.title,
            pool.pool.name(),
            pool.setup,
            pool.games,
            pool.method,
            pool.seconds,
            pool.command,
            markdown_table(pool)
        ));
    }
    out
}

fn repo() -> PathBuf {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    repo.canonicalize().unwrap_or(repo)
}

pub fn bench(args: LadderArgs) -> anyhow::Result<()> {
    let chosen: Vec<&PoolSetup> = SETUPS
        .iter()
        .filter(|s| args.pools.is_empty() || args.pools.contains(&s.pool))
        .collect();
    let json_path = repo().join("crates/server/src/bot_ratings.json");
    let mut all: BotRatings = if args.write {
        let text = std::fs::read_to_string(&json_path).unwrap_or_default();
        serde_json::from_str(&text).unwrap_or_default()
    } else {
        BotRatings::default()
    };
    for setup in chosen {
        let pool = run_pool(setup, &args)?;
        println!(
            "{} ({}): {} games in {} s\n{}",
            setup.title,
            pool.setup,
            pool.games,
            pool.seconds,
            markdown_table(&pool)
        );
        all.pools.retain(|p| p.pool != pool.pool);
        all.pools.push(pool);
    }
    all.pools
        .sort_by_key(|p| RatingPool::ALL.iter().position(|&q| q == p.pool));
    if args.write {
        let json = serde_json::to_string_pretty(&all)? + "\n";
        std::fs::write(&json_path, json)
            .with_context(|| format!("writing {}", json_path.display()))?;
        let doc = repo().join("docs/bot-ratings.md");
        std::fs::write(&doc, markdown(&all))
            .with_context(|| format!("writing {}", doc.display()))?;
        println!("wrote {} and {}", json_path.display(), doc.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seven_bots_at_four_seats_meet_every_other_bot_twice() {
        let tables = tables(7, 4).unwrap();
        assert_eq!(tables.len(), 7);
        for a in 0..7 {
            for b in a + 1..7 {
                let met = tables
                    .iter()
                    .filter(|t| t.contains(&a) && t.contains(&b))
                    .count();
                assert_eq!(met, 2, "{a} and {b}");
            }
        }
        assert_eq!(super::tables(4, 2).unwrap().len(), 6);
    }

    #[test]
    fn the_ladder_ranks_greedy_above_random() {
        let config = RumisConfig::builtin("chullpa", 2).unwrap();
        let played = play_tables::<RumisGame>(
            &config,
            &["random", "greedy"],
            &[vec![0, 1]],
            4,
            1,
            2,
            &ProgressBar::hidden(),
        )
        .unwrap();
        assert_eq!(played.len(), 4);
        let rated = rate_ladder(2, &played, 20, 1);
        let (random, greedy) = (rated[0], rated[1]);
        assert!(greedy.rating > random.rating, "{rated:?}");
        assert!(greedy.low <= greedy.high && greedy.games == 4);
    }
}
