//! Rummikub puzzles (`/api/puzzles/rummikub…`, the client's `/puzzles`): the daily
//! puzzle, the same for everyone on a date (UTC), and the older ones. A puzzle is made
//! by `play::rummikub_puzzles` from its date's seed: a real deal played by bots to a
//! mid-game table, and a rack whose best play needs at least two table sets changed.
//!
//! Guarded like hints: generating a puzzle is a core's work for a while, so it runs on
//! the thinking pool (below people's bots), at most a few at once (429 past the
//! queue), once per date: requests for a date being made join that one making, and a
//! made puzzle is kept. Only today and the last [`PuzzleLimits::days_back`] days have
//! puzzles (a later date is 404, so nobody sees tomorrow's), and the cache holds them
//! all, so the work of all clients together is bounded by the dates. Every request is
//! counted against its address's rate.
//!
//! A check is the engine's: the puzzle's position is a round (the puzzle player's rack
//! and the table, the player melded), the table sent is checked as that player's turn
//! (`Round::check_play`), and a legal table solves the puzzle when it lays the goal.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use play::rummikub_puzzles::{daily, puzzle_rules, PuzzleDate, RummikubPuzzle};
use rummikub::tile::TileCounts;
use rummikub::{Round, RoundSetup, Set, Tile};
use tokio::sync::OnceCell;

use crate::clock::Clock;
use crate::error::ApiError;
use crate::queue::WorkQueue;
use crate::thinking::{Priority, Thinking};
use crate::transport::RateLimiter;
use crate::wire::{
    ErrorCode, PuzzleVerdict, RummikubPuzzleCheck, RummikubPuzzleSolution, RummikubPuzzleSummary,
    RummikubPuzzleView,
};

pub mod routes;

pub use routes::routes;

/// How puzzles are limited and kept.
#[derive(Clone, Debug)]
pub struct PuzzleLimits {
    /// Puzzle requests (lists, puzzles, solutions) per client address and minute, a
    /// minute's worth at once (0: no cap).
    pub per_minute_per_address: u32,
    /// Checks per client address and minute (0: no cap).
    pub checks_per_minute_per_address: u32,
    /// Puzzles being made or waiting for a core, in all; one more is refused (429).
    pub max_queued: usize,
    /// How many days back puzzles are played (and listed): older dates are 404.
    pub days_back: u32,
}

impl Default for PuzzleLimits {
    fn default() -> Self {
        PuzzleLimits {
            per_minute_per_address: 120,
            // A player checks when they think they have it: a few a minute.
            checks_per_minute_per_address: 120,
            max_queued: 2,
            days_back: 30,
        }
    }
}

/// A made puzzle: the generator's answer and its position in the engine.
pub struct Made {
    pub date: PuzzleDate,
    pub puzzle: RummikubPuzzle,
    /// The puzzle player (seat 0) to move, melded, with the puzzle's rack.
    round: Round,
}

/// The puzzles' state: rates, the queue and the made puzzles.
pub struct Puzzles {
    limits: PuzzleLimits,
    per_address: Option<RateLimiter>,
    checks: Option<RateLimiter>,
    queue: WorkQueue,
    cache: Mutex<Cache>,
    clock: Clock,
}

type Cell = Arc<OnceCell<Arc<Made>>>;

#[derive(Default)]
struct Cache {
    entries: HashMap<PuzzleDate, Cell>,
    order: VecDeque<PuzzleDate>,
}

/// The date (UTC) at `now_ms`.
pub fn date_at(now_ms: i64) -> PuzzleDate {
    PuzzleDate::from_unix_seconds(u64::try_from(now_ms / 1000).unwrap_or(0))
}

impl Puzzles {
    pub fn new(limits: PuzzleLimits, clock: Clock) -> Puzzles {
        Puzzles {
            clock,
            per_address: RateLimiter::per_minute(limits.per_minute_per_address),
            checks: RateLimiter::per_minute(limits.checks_per_minute_per_address),
            queue: WorkQueue::new(limits.max_queued),
            limits,
            cache: Mutex::new(Cache::default()),
        }
    }

    /// Today (UTC) by the server's clock.
    pub fn today(&self) -> PuzzleDate {
        date_at(self.clock.now_ms())
    }

    /// Takes a request of `from` against its rate.
    pub fn admit(&self, from: IpAddr) -> Result<(), ApiError> {
        if let Some(Err(wait)) = self.per_address.as_ref().map(|l| l.check(from)) {
            return Err(ApiError::too_many_for(
                ErrorCode::TooManyPuzzles,
                format!(
                    "your address may ask for {} puzzles a minute; wait a moment",
                    self.limits.per_minute_per_address
                ),
                wait,
            ));
        }
        Ok(())
    }

    /// Takes a check of `from` against its rate.
    pub fn admit_check(&self, from: IpAddr) -> Result<(), ApiError> {
        if let Some(Err(wait)) = self.checks.as_ref().map(|l| l.check(from)) {
            return Err(ApiError::too_many_for(
                ErrorCode::TooManyPuzzles,
                format!(
                    "your address may check {} puzzle tables a minute; wait a moment",
                    self.limits.checks_per_minute_per_address
                ),
                wait,
            ));
        }
        Ok(())
    }

    /// The date of a puzzle's id, if it has one: today or up to `days_back` before.
    pub fn date_of(&self, id: &str) -> Result<PuzzleDate, ApiError> {
        let date = PuzzleDate::parse(id).map_err(|_| {
            ApiError::not_found(ErrorCode::NotFound, "a puzzle's id is its date, YYYY-MM-DD")
        })?;
        let today = self.today();
        if date > today {
            return Err(ApiError::not_found(
                ErrorCode::NotFound,
                format!("the puzzle of {date} is not out yet (today is {today}, UTC)"),
            ));
        }
        if date < self.oldest(today) {
            return Err(ApiError::not_found(
                ErrorCode::NotFound,
                format!(
                    "puzzles are kept for {} days: the oldest is of {}",
                    self.limits.days_back,
                    self.oldest(today)
                ),
            ));
        }
        Ok(date)
    }

    fn oldest(&self, today: PuzzleDate) -> PuzzleDate {
        today.plus_days(-i64::from(self.limits.days_back))
    }

    /// The dates listed: today and the days back, newest first.
    pub fn listed(&self) -> Vec<PuzzleDate> {
        let today = self.today();
        (0..=i64::from(self.limits.days_back))
            .map(|back| today.plus_days(-back))
            .collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Cache> {
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The puzzle of `date`: kept, being made (joined), or made now on the pool.
    pub async fn made(&self, thinking: &Thinking, date: PuzzleDate) -> Result<Arc<Made>, ApiError> {
        let cell = {
            let mut cache = self.lock();
            match cache.entries.get(&date) {
                Some(cell) => cell.clone(),
                None => {
                    // The dates served, and a day's slack around midnight.
                    let room = self.limits.days_back as usize + 3;
                    while cache.order.len() >= room {
                        if let Some(old) = cache.order.pop_front() {
                            cache.entries.remove(&old);
                        }
                    }
                    let cell: Cell = Arc::new(OnceCell::new());
                    cache.entries.insert(date, cell.clone());
                    cache.order.push_back(date);
                    cell
                }
            }
        };
        cell.get_or_try_init(|| self.make(thinking, date))
            .await
            .cloned()
    }

    /// Makes a puzzle on the thinking pool, if the queue has room.
    async fn make(&self, thinking: &Thinking, date: PuzzleDate) -> Result<Arc<Made>, ApiError> {
        let Some(place) = self.queue.enter() else {
            return Err(ApiError::too_many_for(
                ErrorCode::PuzzlesBusy,
                "the server is busy making other puzzles; try again in a moment",
                Duration::from_secs(2),
            ));
        };
        let made = thinking
            .run(Priority::Hint, move || {
                let _place = place;
                made(date)
            })
            .await?;
        made.map(Arc::new).map_err(|e| {
            tracing::error!("the Rummikub puzzle of {date}: {e}");
            ApiError::internal("the puzzle cannot be made")
        })
    }
}

/// Makes a date's puzzle and its position (CPU work).
fn made(date: PuzzleDate) -> Result<Made, String> {
    let puzzle = daily(date).map_err(|e| e.to_string())?;
    let round = position(&puzzle.table, &puzzle.rack)?;
    Ok(Made {
        date,
        puzzle,
        round,
    })
}

/// The puzzle's position as a round: seat 0 holds the rack and is to move; every other
/// tile of the box is seat 1's rack (14) and the pool. Both have melded.
fn position(table: &[Set], rack: &[Tile]) -> Result<Round, String> {
    let mut rest = TileCounts::from_tiles(&Tile::full_set());
    for tile in rack.iter().chain(table.iter().flat_map(Set::tiles)) {
        if !rest.remove(*tile) {
            return Err(format!("a third {tile}"));
        }
    }
    let mut rest = rest.tiles();
    let pool = rest.split_off(14.min(rest.len()));
    RoundSetup {
        rules: puzzle_rules(),
        racks: vec![rack.to_vec(), rest],
        table: table.to_vec(),
        pool,
        current: 0,
        melded: vec![true, true],
    }
    .into_round()
    .map_err(|e| e.to_string())
}

fn tiles(tiles: &[Tile]) -> Vec<String> {
    tiles.iter().map(Tile::to_string).collect()
}

fn sets(sets: &[Set]) -> Vec<Vec<String>> {
    sets.iter().map(|s| tiles(s.tiles())).collect()
}

impl Made {
    pub fn id(&self) -> String {
        self.date.to_string()
    }

    /// The puzzle as posed, without its solution.
    pub fn view(&self) -> RummikubPuzzleView {
        let p = &self.puzzle;
        RummikubPuzzleView {
            id: self.id(),
            difficulty: p.difficulty,
            goal: p.goal,
            changed_sets: p.changed_sets as u32,
            table: sets(&p.table),
            rack: tiles(&p.rack),
            rules: crate::games::rummikub_table::rules_view("current", self.round.rules()),
        }
    }

    pub fn summary(&self) -> RummikubPuzzleSummary {
        let p = &self.puzzle;
        RummikubPuzzleSummary {
            id: self.id(),
            difficulty: p.difficulty,
            goal: p.goal,
            rack: p.rack.len() as u32,
            changed_sets: p.changed_sets as u32,
        }
    }

    pub fn solution(&self) -> RummikubPuzzleSolution {
        let p = &self.puzzle;
        let mut laid = TileCounts::from_tiles(p.solution.iter().flat_map(Set::tiles));
        for tile in p.table.iter().flat_map(Set::tiles) {
            laid.remove(*tile);
        }
        RummikubPuzzleSolution {
            id: self.id(),
            table: sets(&p.solution),
            laid: tiles(&laid.tiles()),
            changed: play::rummikub_puzzles::changed_sets(&p.table, &p.solution)
                .into_iter()
                .map(|i| i as u32)
                .collect(),
        }
    }

    /// The engine's answer to a new table.
    pub fn check(&self, table: &[Set]) -> RummikubPuzzleCheck {
        let goal = self.puzzle.goal;
        match self.round.check_play(0, table) {
            Err(e) => RummikubPuzzleCheck {
                solved: false,
                code: PuzzleVerdict::Refused,
                laid: 0,
                goal,
                reason: Some(e.to_string()),
                why: Some(crate::games::reasons::rummikub(&e)),
            },
            Ok(play) => {
                let laid = play.played.len() as u32;
                let solved = laid >= goal;
                RummikubPuzzleCheck {
                    solved,
                    code: if solved {
                        PuzzleVerdict::Solved
                    } else {
                        PuzzleVerdict::Short
                    },
                    laid,
                    goal,
                    reason: (!solved).then(|| {
                        format!("the table is legal, but it lays {laid} of the {goal} tiles the puzzle asks for")
                    }),
                    why: None,
                }
            }
        }
    }
}
