//! The bots' published ratings: measured by the bot ladder (`rumi-bench ladder
//! --write`, see `docs/bot-ratings.md`), which writes `bot_ratings.json`, embedded here
//! so that the meta can say how strong each bot plays on the people's scale.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::wire::{BotRatingMeta, GameKind, RatingPool};

/// What the ladder measured, pool by pool.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BotRatings {
    pub pools: Vec<PoolRatings>,
}

/// One pool's ladder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PoolRatings {
    pub pool: RatingPool,
    /// The games played (`Chullpa, 2 players`).
    pub setup: String,
    /// The command that measured it.
    pub command: String,
    /// Games played in all.
    pub games: usize,
    /// Wall time of the run, in seconds.
    pub seconds: u64,
    /// How the ratings and their intervals were computed, in a sentence.
    pub method: String,
    /// Strongest first.
    pub bots: Vec<LadderBot>,
}

/// One bot's place on a ladder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LadderBot {
    /// The registered spec (`mcts:5`).
    pub spec: String,
    pub level: u8,
    /// The shown rating (1500 for a new player).
    pub rating: f64,
    /// The 95% interval of the shown rating.
    pub low: f64,
    pub high: f64,
    /// Games it played.
    pub games: usize,
}

impl BotRatings {
    /// The pool's ladder, if it was run.
    pub fn pool(&self, pool: RatingPool) -> Option<&PoolRatings> {
        self.pools.iter().find(|p| p.pool == pool)
    }

    /// A registered bot's ratings in the pools of its game that the ladder measured.
    pub fn of(&self, game: GameKind, spec: &str) -> Vec<BotRatingMeta> {
        RatingPool::ALL
            .into_iter()
            .filter(|pool| pool.game() == game)
            .filter_map(|pool| {
                let bot = self.pool(pool)?.bots.iter().find(|b| b.spec == spec)?;
                Some(BotRatingMeta {
                    pool,
                    rating: ((bot.rating / 10.0).round() * 10.0) as i32,
                })
            })
            .collect()
    }
}

/// The embedded ladder, read once.
pub fn embedded() -> &'static BotRatings {
    static RATINGS: OnceLock<BotRatings> = OnceLock::new();
    RATINGS.get_or_init(|| {
        serde_json::from_str(include_str!("bot_ratings.json"))
            .expect("bot_ratings.json, written by `rumi-bench ladder --write`, reads (tested)")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_ladder_reads_and_rates_every_bot_of_its_pools() {
        let ratings = embedded();
        for pool in &ratings.pools {
            for entry in crate::games::bots(pool.pool.game()) {
                assert!(
                    pool.bots.iter().any(|b| b.spec == entry.spec),
                    "{} has no rating in {}",
                    entry.spec,
                    pool.pool.name()
                );
            }
            for bot in &pool.bots {
                assert!(bot.low <= bot.rating && bot.rating <= bot.high, "{bot:?}");
            }
        }
    }
}
