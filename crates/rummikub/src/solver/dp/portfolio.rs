//! The entry points: one problem, or the best of several (the old rules' frozen-set
//! choices), each searched by one or more resumable [`Search`]es in turns.
//!
//! The same problem is searched walked several ways at once (see [`orientation`]): up
//! and down, and under wrap-around runs cut at several places. Each search is exact,
//! and how many states one needs differs by orders of magnitude from way to way in a
//! way no cheap count foresees, so they take turns (the way ranked first gets the most)
//! and the first to finish answers. Several problems of which the best play is wanted
//! are searched together, best first: the problem whose searches can still reach the
//! most goes next, so none is searched below the best play of all (searching them one
//! after another searched the first down to its own best play, however poor). All
//! searches of one call store at most [`Cache::max_states`] states together
//! ([`super::MAX_STATES`] unless the caller sets another limit).

use super::context::Ctx;
use super::orientation::{self, Orientation};
use super::rebuild;
use super::search::Search;
use super::{Answer, Cache, Problem, TooLarge};
use crate::solver::runs::RunRules;

/// How many ways of walking the numbers are searched at once, the best ranked by
/// [`orientation::orientations`] (measured on 300 old-rules self-play positions with
/// cuts walked up only: one cut, the best ranked, leaves 9 positions over 1 s and
/// refuses 2; two or three leave 6 or 7 and refuse none; six, 8 and 1).
const WAYS: usize = 3;
/// How many turns of [`TURN`] expansions the search at each rank gets per round: the
/// way ranked first gets the most.
const TURNS: [usize; WAYS] = [2, 1, 1];
/// Expansions the way ranked first makes alone before the others start: most
/// positions are done within them, and the way ranked first is usually the cheaper
/// (see [`orientation::orientations`]), but not always, so past them the ways go on in
/// turns. Without wrap-around runs (two ways) the first way goes on alone longer: a
/// turn to the second way costs its states and saves only where the first is the dearer
/// way by far (current rules, 1,000 self-play positions, states stored at p99 / max,
/// seeds 1, 1,000,001 and 2,000,001 held out: 1,024 alone, 1,631 / 2,829, 1,380 /
/// 2,859, 1,788 / 3,895; 4,096 alone, 1,324 / 2,736, 1,224 / 2,172, 1,502 / 3,059; the
/// first way alone to the end, 1,324 / 2,736, 1,224 / 2,301, 1,514 / 2,763).
fn head_start(wrap: bool) -> usize {
    if wrap {
        1024
    } else {
        4096
    }
}
/// Expansions in one turn of a search.
const TURN: usize = 64;

/// Solves the problem; `None` when no arrangement lays every table tile and at least one
/// rack tile (and reaches the initial meld's threshold).
pub(crate) fn solve(cache: &mut Cache, p: Problem) -> Result<Option<Answer>, TooLarge> {
    Ok(solve_best_of(cache, vec![(p, 0)])?.map(|(_, answer)| answer))
}

/// The best play of several problems, each with a score its play adds (`(problem,
/// fixed)`): which problem, and its answer (whose score leaves out `fixed`). `None` if
/// none has a play. Among equally good plays the first problem's is taken.
pub(crate) fn solve_best_of(
    cache: &mut Cache,
    problems: Vec<(Problem, i32)>,
) -> Result<Option<(usize, Answer)>, TooLarge> {
    let portfolios = problems
        .into_iter()
        .map(|(p, fixed)| {
            let portfolio = match cache.walk_only {
                Some(way) => {
                    let ways = orientation::orientations(&p);
                    Portfolio::walked(p, ways[way % ways.len()])
                }
                None => Portfolio::new(p),
            };
            (portfolio, fixed)
        })
        .collect();
    search_all(cache, portfolios)
}

/// [`best_of`] with the run context of the problems' rules taken from the cache and
/// everything given back after.
fn search_all(
    cache: &mut Cache,
    mut portfolios: Vec<(Portfolio, i32)>,
) -> Result<Option<(usize, Answer)>, TooLarge> {
    let Some((first, _)) = portfolios.first() else {
        return Ok(None);
    };
    let mut contexts = Contexts(vec![Ctx::take(&mut cache.contexts, first.p.run_rules())]);
    let answer = best_of(cache, &mut contexts, &mut portfolios);
    cache.states_stored += portfolios.iter().map(|(p, _)| p.work()).sum::<usize>();
    for (portfolio, _) in portfolios {
        portfolio.give_back(cache);
    }
    for ctx in contexts.0 {
        ctx.give_back(&mut cache.contexts);
    }
    answer
}

/// [`solve_best_of`]'s search: the problem that can still reach the most takes a turn,
/// until none can beat the best play found.
fn best_of(
    cache: &mut Cache,
    ctx: &mut Contexts,
    portfolios: &mut [(Portfolio, i32)],
) -> Result<Option<(usize, Answer)>, TooLarge> {
    let mut best: Option<(i32, usize, Answer)> = None;
    let mut open: Vec<bool> = vec![true; portfolios.len()];
    // A single problem runs its searches without looking at levels between turns.
    let alone = portfolios.len() == 1;
    loop {
        let mut next: Option<(i32, usize)> = None;
        for (i, (portfolio, fixed)) in portfolios.iter_mut().enumerate() {
            if !open[i] {
                continue;
            }
            let reach = if alone {
                Some(i32::MAX)
            } else {
                portfolio
                    .level(cache, ctx)
                    .map(|l| l.saturating_add(*fixed))
            };
            match reach {
                // (Strictly better than the best so far: on a tie the earlier stays.)
                Some(reach) if best.as_ref().is_none_or(|b| reach > b.0) => {
                    if next.is_none_or(|(r, _)| reach > r) {
                        next = Some((reach, i));
                    }
                }
                _ => open[i] = false,
            }
        }
        let Some((_, i)) = next else {
            return Ok(best.map(|(_, i, answer)| (i, answer)));
        };
        let others: usize = portfolios
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, (p, _))| p.states())
            .sum();
        let budget = cache.max_states.saturating_sub(others);
        let (portfolio, fixed) = &mut portfolios[i];
        let at_least = best.as_ref().map_or(i32::MIN, |b| b.0 - *fixed + 1);
        match portfolio.turn(cache, ctx, at_least, budget) {
            None => {}
            Some(answer) => {
                open[i] = false;
                if let Some(answer) = answer? {
                    let total = answer.score + *fixed;
                    if best.as_ref().is_none_or(|b| total > b.0) {
                        best = Some((total, i, answer));
                    }
                }
            }
        }
    }
}

/// The run contexts of the searches running: one per shape of runs (walked down under
/// the value objective, runs that begin with a joker are not canonical, see
/// [`Problem::run_rules`]).
struct Contexts(Vec<Ctx>);

impl Contexts {
    /// The context for `rules`, taken from the cache the first time.
    fn get(&mut self, cache: &mut Cache, rules: RunRules) -> &mut Ctx {
        let i = match self.0.iter().position(|c| c.rules == rules) {
            Some(i) => i,
            None => {
                self.0.push(Ctx::take(&mut cache.contexts, rules));
                self.0.len() - 1
            }
        };
        &mut self.0[i]
    }
}

/// One problem's searches, one per way of walking the numbers tried, taking turns. A
/// search starts at its first turn: most problems are done within the first way's. A
/// problem whose searches grow past [`RERANK_AT`] states under wrap-around runs is
/// ranked again by [`orientation::predicted_orientations`] (a few milliseconds, too
/// many for the many small positions): its searches continue at the ways ranked best,
/// the others are dropped.
struct Portfolio {
    p: Problem,
    ways: Vec<Orientation>,
    /// The search of each way, once started.
    searches: Vec<Option<Search>>,
    /// Whose turn it is.
    rank: usize,
    /// No play reaches the `at_least` the first search was started with.
    hopeless: bool,
    /// Whether the cuts may still be ranked again.
    rerank: bool,
    /// States stored by the searches dropped when the ways were ranked again.
    dropped: usize,
}

/// Past this many states stored, a problem's ways are ranked again, and how many of the
/// ways ranked best go on. The prediction ranks the ways well on the slowest positions
/// (measured on the positions of 300 old-rules self-play games that take over 100 ms,
/// walked up: the cut ranked best was the fastest of the 13 or within four times of it
/// on seven of eight), but the ways searched first are as good on most positions that
/// pass a few thousand states, and ranking again drops their states (old rules, 1,000
/// self-play positions, states at p99 / max, seeds 1 and 1,000,001: at 10,000 states
/// keeping three, 47,471 / 156,067 and 63,142 / 225,774; at 30,000, 43,246 / 176,037
/// and 52,984 / 215,568; at 50,000, 37,397 / 90,739 and 41,691 / 228,585; never,
/// 37,397 / 246,623 and 41,691 / 245,963; at 50,000 keeping two, 37,397 / 83,117 and
/// 41,691 / 187,456, keeping one, 37,397 / 153,729 and 41,691 / 356,797. Held out, seed
/// 2,000,001: 103,194 / 948,656 at 10,000 keeping three, 90,901 / 732,385 at 50,000
/// keeping two).
const RERANK_AT: usize = 50_000;
/// How many of the ways ranked again go on (see [`RERANK_AT`]).
const WAYS_RANKED_AGAIN: usize = 2;

impl Portfolio {
    fn new(p: Problem) -> Portfolio {
        let mut ways = orientation::orientations(&p);
        ways.truncate(WAYS);
        let rerank = p.wrap;
        Portfolio::of(p, ways, rerank)
    }

    /// The problem searched walked one way alone.
    fn walked(p: Problem, way: Orientation) -> Portfolio {
        Portfolio::of(p, vec![way], false)
    }

    fn of(p: Problem, ways: Vec<Orientation>, rerank: bool) -> Portfolio {
        Portfolio {
            rerank,
            searches: ways.iter().map(|_| None).collect(),
            p,
            ways,
            rank: 0,
            hopeless: false,
            dropped: 0,
        }
    }

    /// States stored, the dropped searches' included: the work done, for
    /// [`Cache::states_stored`] (the state limit counts only the states held).
    fn work(&self) -> usize {
        self.states() + self.dropped
    }

    fn states(&self) -> usize {
        self.searches
            .iter()
            .flatten()
            .map(|s| s.arena.states.len())
            .sum()
    }

    /// The most a play of this problem can still score (the searches started bound it
    /// alike; the lowest bound counts). Starts the first search if none is.
    fn level(&mut self, cache: &mut Cache, ctx: &mut Contexts) -> Option<i32> {
        if self.searches.iter().all(Option::is_none) && !self.start(cache, ctx, 0, i32::MIN) {
            return None;
        }
        self.searches
            .iter_mut()
            .flatten()
            .map(Search::level)
            .min()
            .flatten()
    }

    /// Starts the search of the way at `rank`; false if no play can reach `at_least`.
    fn start(&mut self, cache: &mut Cache, ctx: &mut Contexts, rank: usize, at_least: i32) -> bool {
        if self.hopeless {
            return false;
        }
        let way = self.ways[rank];
        let p = if way == Orientation::UP {
            self.p.clone()
        } else {
            orientation::oriented(&self.p, way)
        };
        let ctx = ctx.get(cache, p.run_rules());
        match Search::new(cache, ctx, p, at_least) {
            Some(search) => {
                self.searches[rank] = Some(search);
                true
            }
            None => {
                self.hopeless = true;
                false
            }
        }
    }

    /// One turn of the next search (all of it for a problem with one): its answer if it
    /// ends, `None` if not yet. Only plays scoring at least `at_least` count; the
    /// searches share `budget` states.
    fn turn(
        &mut self,
        cache: &mut Cache,
        ctx: &mut Contexts,
        at_least: i32,
        budget: usize,
    ) -> Option<Result<Option<Answer>, TooLarge>> {
        let rank = self.rank;
        if self.searches[rank].is_none() && !self.start(cache, ctx, rank, at_least) {
            return Some(Ok(None));
        }
        let others = self.states();
        let alone = self.searches.iter().filter(|s| s.is_some()).count() == 1;
        let search = self.searches[rank].as_mut()?;
        let others = others - search.arena.states.len();
        let steps = if self.ways.len() == 1 {
            usize::MAX
        } else if rank == 0 && alone {
            head_start(self.p.wrap)
        } else {
            TURNS[rank] * TURN
        };
        let rules = search.run_rules();
        let mut answer = search.run(ctx.get(cache, rules), steps, budget.saturating_sub(others));
        for answer in answer.iter_mut().flatten().flatten() {
            rebuild::in_printed_order(&mut answer.sets, self.ways[rank].down);
        }
        self.rank = (rank + 1) % self.ways.len();
        if answer.is_none() && self.rerank && self.states() > RERANK_AT {
            let rules = self.p.run_rules();
            let best = orientation::predicted_orientations(
                &self.p,
                ctx.get(cache, rules),
                WAYS_RANKED_AGAIN,
            );
            self.rank_again(cache, best);
        }
        answer
    }

    /// The searches continue at the ways [`orientation::predicted_orientations`] ranks
    /// best (those running go on where they are), the others are dropped.
    fn rank_again(&mut self, cache: &mut Cache, best: Vec<Orientation>) {
        self.rerank = false;
        let mut running: Vec<(Orientation, Option<Search>)> = self
            .ways
            .iter()
            .copied()
            .zip(std::mem::take(&mut self.searches))
            .collect();
        self.searches = best
            .iter()
            .map(|&cut| {
                running
                    .iter_mut()
                    .find(|(c, _)| *c == cut)
                    .and_then(|(_, s)| s.take())
            })
            .collect();
        for search in running.into_iter().filter_map(|(_, s)| s) {
            self.dropped += search.arena.states.len();
            cache.give_back(search.into_arena());
        }
        self.ways = best;
        self.rank = 0;
    }

    fn give_back(self, cache: &mut Cache) {
        for search in self.searches.into_iter().flatten() {
            cache.give_back(search.into_arena());
        }
    }
}
