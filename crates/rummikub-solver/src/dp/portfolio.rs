//! The entry points: one problem, or the best of several (the old rules' frozen-set
//! choices), each searched by one or more resumable [`Search`]es in turns.
//!
//! The same problem is searched walked several ways at once (see [`orientation`]): up
//! and down, and under wrap-around runs cut at several places. Each search is exact,
//! and how many states one needs differs by orders of magnitude from way to way in a
//! way no cheap count foresees, so they take turns (the way ranked first gets the most)
//! and the first to finish answers; a problem that grows large races its ways and
//! keeps those that come down the levels fastest ([`Race`]; without wrap-around runs,
//! the two ways walked up and down, one round).
//! Several problems of which the best play is wanted
//! are searched together, best first: the problem whose searches can still reach the
//! most goes next, so none is searched below the best play of all (searching them one
//! after another searched the first down to its own best play, however poor). All
//! searches of one call store at most [`Cache::max_states`] states together
//! ([`super::MAX_STATES`] unless the caller sets another limit).

use super::context::Ctx;
use super::orientation::{self, Orientation};
use super::rebuild;
use super::relaxation::Prices;
use super::search::Search;
use super::{Answer, Cache, Problem, TooLarge};
use crate::runs::RunRules;

/// How many ways of walking the numbers are searched at once, the best ranked by
/// [`orientation::orientations`]: one way alone is sometimes the wrong one by orders of
/// magnitude; more than three spread the work too thin.
const WAYS: usize = 3;
/// How many turns of [`TURN`] expansions the search at each rank gets per round: the
/// way ranked first gets the most.
const TURNS: [usize; WAYS] = [2, 1, 1];
/// Expansions the way ranked first makes alone before the others start, under
/// wrap-around runs: most positions are done within them, and the way ranked first is
/// usually the cheaper (see [`orientation::orientations`]), but not always, so past them
/// the ways go on in turns (the figure is not sensitive within a factor of two either
/// way). Without wrap-around runs the first way goes on alone until the two ways race
/// ([`LINE_RACE_AT`]).
const HEAD_START: usize = 1024;
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
/// search starts at its first turn: most problems are done within the first way's.
/// A problem whose first searches grow past [`RACE_AT`] states (under wrap-around runs)
/// or [`LINE_RACE_AT`] (without) goes on as a [`Race`] of its ways.
struct Portfolio {
    p: Problem,
    /// The ways worth trying, best ranked first: the first [`WAYS`] take turns until the
    /// race, the first [`RACE_WAYS`] race.
    ways: Vec<Orientation>,
    /// The search of each way, once started (`None` again once dropped from the race).
    searches: Vec<Option<Search>>,
    /// Whose turn it is (a position in `ways`, or in the race's `running`).
    rank: usize,
    /// No play reaches the `at_least` the first search was started with.
    hopeless: bool,
    /// The race over all ways, once started.
    race: Option<Race>,
    /// States stored by the searches dropped from the race.
    dropped: usize,
    /// The relaxation's prices its first search to need them fitted, for the others (see
    /// [`super::relaxation`]).
    prices: Option<Prices>,
}

/// Past this many states stored by the first ways, a problem under wrap-around runs
/// races its ways (see [`Race`]).
const RACE_AT: usize = 5_000;

/// How many ways race: the first of [`orientation::orientations`] (five cuts, each
/// walked both ways). The cuts ranked last there have the most runs that can cross
/// them, and their colours' configurations the most options: such a way may store
/// fewer states and still take longer, so racing all 26 was slower, and fewer than ten
/// left the worst positions without their best way (`docs/rummikub-solver-lab.md`).
const RACE_WAYS: usize = 10;

/// Successive halving over the ways of walking a problem: each way still running goes
/// on until it has done `work` ([`Search::work`]), then the half that have come
/// furthest with that much ([`Search::progress_at`]) go on to twice as much, and the
/// others are dropped, until one is left; the first to finish answers. The cost of a
/// way differs by orders of magnitude and no count before the search foresees it well
/// (a count of the run configurations the colours reach put the best way anywhere from
/// 1st to 25th of 26), but how fast
/// a search comes down the levels does, once it has come down a few. The first rounds
/// decide on little, and a wrong drop is dear (hence [`OUT_SHARE_SHIFT`]).
struct Race {
    /// Positions in `Portfolio::ways` still racing, best first after each round.
    running: Vec<usize>,
    /// The ways out of the race, the latest round's losers first (see
    /// [`OUT_SHARE_SHIFT`]).
    out: Vec<usize>,
    /// The work each does in this round.
    work: usize,
}

/// A way out of the race is not dropped for good: the i-th of them (the latest round's
/// losers first) goes on to 1/2^(3 + i) of each round's work, and comes back into the
/// race when it is further down the levels than the ways in it were with as much work.
/// The first rounds decide on little (all ways may still be at the top level, ranked by
/// the work at which they got there), and a wrong drop can cost a hundred times the
/// best way's states. With a share, a wrong drop costs a bounded factor, for at most a
/// quarter more work; it cut the worst positions' states, not the typical ones. Only
/// under wrap-around runs: the current rules' two ways (one round) did not gain.
const OUT_SHARE_SHIFT: usize = 3;

/// The work every way does in a race's first round (the ways already past it wait).
const RACE_FIRST_ROUND: usize = 128;

/// Past this many states stored by the first way, a problem without wrap-around runs
/// races its two ways (walked up and down): the second does the work the first has
/// done, and the one further down the levels with it goes on alone ([`Race`], one
/// round). The way ranked first is the cheaper on most positions, but among the largest
/// it is wrong on about half, and a turn to the second way with no choice after it cost
/// more than it saved. Most positions are done before 150 states, so they never pay
/// for the race; earlier or later races stored more at the tail.
const LINE_RACE_AT: usize = 150;

/// When a problem's ways race, and how long their first round is (see [`Race`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RaceSchedule {
    /// States the first ways store before the race starts, under wrap-around runs.
    pub(crate) at: usize,
    /// The work every way does in the first round ([`Search::work`]), under
    /// wrap-around runs.
    pub(crate) first_round: usize,
    /// States the first way stores before the two ways race, without wrap-around runs
    /// (see [`LINE_RACE_AT`]).
    pub(crate) line_at: usize,
}

impl Default for RaceSchedule {
    fn default() -> RaceSchedule {
        RaceSchedule {
            at: RACE_AT,
            first_round: RACE_FIRST_ROUND,
            line_at: LINE_RACE_AT,
        }
    }
}

impl Portfolio {
    fn new(p: Problem) -> Portfolio {
        let mut ways = orientation::orientations(&p);
        ways.truncate(WAYS.max(RACE_WAYS));
        Portfolio::of(p, ways)
    }

    /// The problem searched walked one way alone.
    fn walked(p: Problem, way: Orientation) -> Portfolio {
        Portfolio::of(p, vec![way])
    }

    fn of(p: Problem, ways: Vec<Orientation>) -> Portfolio {
        Portfolio {
            searches: ways.iter().map(|_| None).collect(),
            p,
            ways,
            rank: 0,
            hopeless: false,
            race: None,
            dropped: 0,
            prices: None,
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

    /// Which way's search takes the next turn, and for how many expansions.
    fn next_turn(&mut self, cache: &mut Cache) -> (usize, usize) {
        let first_ways = self.ways.len().min(WAYS);
        let Some(race) = &mut self.race else {
            let rank = self.rank;
            self.rank = (rank + 1) % first_ways;
            let started = self.searches.iter().filter(|s| s.is_some()).count();
            let steps = if first_ways == 1 {
                usize::MAX
            } else if !self.p.wrap {
                // (Until the race: see `LINE_RACE_AT`.)
                self.rank = 0;
                return (0, TURN);
            } else if rank == 0 && started <= 1 {
                HEAD_START
            } else {
                TURNS[rank] * TURN
            };
            return (rank, steps);
        };
        // (The last way left goes on in turns too: other problems may be waiting.)
        if race.running.len() == 1 && race.out.is_empty() {
            return (race.running[0], TURNS[0] * TURN);
        }
        let work = |s: &Option<Search>| s.as_ref().map_or(0, Search::work);
        loop {
            // The next way of this round short of the round's work, from where the last
            // turn was.
            let count = race.running.len();
            let behind = (0..count)
                .map(|k| (self.rank + k) % count)
                .find(|&k| work(&self.searches[race.running[k]]) < race.work);
            if let Some(k) = behind {
                self.rank = k;
                return (race.running[k], TURN);
            }
            // Then the ways out of the race, each to its share of the round.
            let share = |i: usize| race.work >> (OUT_SHARE_SHIFT + i).min(63);
            let short = (race.out.iter().enumerate())
                .find_map(|(i, &w)| (work(&self.searches[w]) < share(i)).then_some(w));
            if let Some(w) = short {
                return (w, TURN);
            }
            // The round is over. A way out of the race that is further down than the
            // ways in it were with its work comes back; then the half that came
            // furthest go on, the others are out.
            let at = race.work;
            let searches = &self.searches;
            let level_at = |w: usize, work: usize| {
                searches[w]
                    .as_ref()
                    .map_or(i32::MAX, |s| s.progress_at(work).0)
            };
            let (back, out): (Vec<usize>, Vec<usize>) = race.out.iter().partition(|&&w| {
                let its_work = work(&searches[w]);
                let best_in = race.running.iter().map(|&r| level_at(r, its_work)).min();
                best_in.is_some_and(|best| level_at(w, its_work) < best)
            });
            cache.ways_back += back.len();
            race.out = out;
            race.running.extend(back);
            let count = race.running.len();
            race.running.sort_by_key(|&w| {
                searches[w]
                    .as_ref()
                    .map_or((i32::MAX, usize::MAX), |s| s.progress_at(at))
            });
            let losers = race.running.split_off(count.div_ceil(2));
            cache.ways_dropped += losers.len();
            if self.p.wrap {
                race.out.splice(0..0, losers);
            } else {
                // (Without wrap-around runs the two ways race once, and the loser is
                // dropped: a share changed nothing there.)
                for w in losers {
                    if let Some(search) = self.searches[w].take() {
                        self.dropped += search.arena.states.len();
                        cache.give_back(search.into_arena());
                    }
                }
            }
            race.work *= 2;
            self.rank = 0;
            if race.running.len() == 1 && race.out.is_empty() {
                return (race.running[0], TURNS[0] * TURN);
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
        let schedule = cache.race;
        let race_at = if self.p.wrap {
            schedule.at
        } else {
            schedule.line_at
        };
        if self.race.is_none() && self.ways.len() > 1 && self.states() >= race_at {
            // Without wrap-around runs the second way's first round is the work the
            // first has done: then both have done the same, and the one further down
            // the levels goes on alone.
            let first = self.searches[0].as_ref().map_or(0, Search::work);
            self.race = Some(Race {
                out: Vec::new(),
                running: (0..self.ways.len()).collect(),
                work: if self.p.wrap {
                    schedule.first_round
                } else {
                    first.max(1)
                },
            });
            self.rank = 0;
        }
        let (rank, steps) = self.next_turn(cache);
        if self.searches[rank].is_none() && !self.start(cache, ctx, rank, at_least) {
            return Some(Ok(None));
        }
        let others = self.states();
        let search = self.searches[rank].as_mut()?;
        let others = others - search.arena.states.len();
        let rules = search.run_rules();
        let mut answer = search.run(
            ctx.get(cache, rules),
            steps,
            budget.saturating_sub(others),
            &mut self.prices,
        );
        for answer in answer.iter_mut().flatten().flatten() {
            rebuild::in_printed_order(&mut answer.sets, self.ways[rank].down);
        }
        answer
    }

    fn give_back(self, cache: &mut Cache) {
        for search in self.searches.into_iter().flatten() {
            cache.give_back(search.into_arena());
        }
    }
}
