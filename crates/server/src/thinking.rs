//! CPU-heavy work (bots, hints, replays) on the blocking pool, shared fairly between
//! tables.
//!
//! One permit per core bounds the work at once (a strong bot's search or the solver on
//! a full table takes seconds and memory; more at once would only share the cores).
//! When a core frees, the waiting work of the highest priority gets it, first come
//! first served within a priority: the bots of people's tables, then hints and
//! replays, then tables of bots only, then reviews of finished games (after all play).
//! Everything below people's bots may hold at most
//! all permits but one, so one core is always free for the bots that people wait on;
//! a hint (1.2 s of search) or a replay being built never takes the last one.
//!
//! Hints sit below people's bots because a person at another table waits on every one
//! of their bot's replies, while a hint is asked for at will (and by anyone with a
//! seat, an attacker included). They sit above tables of bots only, which nobody waits
//! on: a person who asked for a hint is waiting for it. Hints are further bounded by
//! their own rate limits and queue (`hints`).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

use crate::error::ApiError;

/// Who is waiting for the work, highest priority first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Priority {
    /// A bot's move at a table where a person plays.
    People = 0,
    /// A hint a person asked for, or a finished game's replay being built.
    Hint = 1,
    /// A table of bots only.
    BotsOnly = 2,
    /// A finished game's review (`reviews`): after all play, lowest priority.
    Review = 3,
}

impl Priority {
    fn background(self) -> bool {
        self != Priority::People
    }
}

struct Pool {
    cores: usize,
    /// Permits held, in all and by background work (below people's bots).
    busy: usize,
    background: usize,
    /// Waiters per priority; each gets its permit through its channel.
    waiting: [VecDeque<oneshot::Sender<Permit>>; 4],
}

/// A held core; dropping it hands the core to the next waiter.
pub struct Permit {
    /// `None` once handed back by [`grant`] itself (its waiter was gone).
    pool: Option<Arc<Mutex<Pool>>>,
    priority: Priority,
}

impl Drop for Permit {
    fn drop(&mut self) {
        let Some(shared) = self.pool.take() else {
            return;
        };
        let mut pool = shared.lock().unwrap_or_else(|e| e.into_inner());
        pool.busy -= 1;
        if self.priority.background() {
            pool.background -= 1;
        }
        grant(&shared, &mut pool);
    }
}

impl Pool {
    fn may_take(&self, priority: Priority) -> bool {
        self.busy < self.cores
            && (!priority.background() || self.background < self.cores.saturating_sub(1).max(1))
    }

    fn take(&mut self, shared: &Arc<Mutex<Pool>>, priority: Priority) -> Permit {
        self.busy += 1;
        if priority.background() {
            self.background += 1;
        }
        Permit {
            pool: Some(shared.clone()),
            priority,
        }
    }
}

/// Hands free cores to waiters, highest priority first; waiters that gave up are
/// skipped.
fn grant(shared: &Arc<Mutex<Pool>>, pool: &mut Pool) {
    for priority in [
        Priority::People,
        Priority::Hint,
        Priority::BotsOnly,
        Priority::Review,
    ] {
        while pool.may_take(priority) {
            let Some(waiter) = pool.waiting[priority as usize].pop_front() else {
                break;
            };
            let permit = pool.take(shared, priority);
            if let Err(mut permit) = waiter.send(permit) {
                // The waiter is gone: take the permit back here (its drop would take
                // the lock this holds).
                permit.pool = None;
                pool.busy -= 1;
                if priority.background() {
                    pool.background -= 1;
                }
            }
        }
    }
}

pub struct Thinking {
    pool: Arc<Mutex<Pool>>,
}

impl Thinking {
    pub fn new(cores: usize) -> Thinking {
        Thinking {
            pool: Arc::new(Mutex::new(Pool {
                cores: cores.max(1),
                busy: 0,
                background: 0,
                waiting: Default::default(),
            })),
        }
    }

    /// Work waiting for a core.
    pub fn queued(&self) -> usize {
        let pool = self.pool.lock().unwrap_or_else(|e| e.into_inner());
        pool.waiting.iter().map(VecDeque::len).sum()
    }

    /// A core for `priority`, once one is free for it.
    async fn acquire(&self, priority: Priority) -> Result<Permit, ApiError> {
        let receiver = {
            let mut pool = self.pool.lock().unwrap_or_else(|e| e.into_inner());
            let queued_before = pool.waiting[..=priority as usize]
                .iter()
                .any(|q| !q.is_empty());
            if !queued_before && pool.may_take(priority) {
                return Ok(pool.take(&self.pool, priority));
            }
            let (send, receive) = oneshot::channel();
            pool.waiting[priority as usize].push_back(send);
            receive
        };
        receiver
            .await
            .map_err(|_| ApiError::internal("the server is shutting down"))
    }

    /// Runs `work` on the blocking pool once a core is free for `priority`.
    pub async fn run<T: Send + 'static>(
        &self,
        priority: Priority,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let permit = self.acquire(priority).await?;
        tokio::task::spawn_blocking(move || {
            let _held = permit;
            work()
        })
        .await
        .map_err(|e| ApiError::internal(format!("the work stopped: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn bot_tables_never_take_the_last_core_from_people() {
        let thinking = Arc::new(Thinking::new(2));
        // Bot-only jobs that hold their core until released: if they could take
        // every core, the person's job below would never run.
        let release = Arc::new(std::sync::Barrier::new(2));
        let started = Arc::new(AtomicUsize::new(0));
        let mut jobs = Vec::new();
        for _ in 0..4 {
            let (thinking, release, started) = (thinking.clone(), release.clone(), started.clone());
            jobs.push(tokio::spawn(async move {
                thinking
                    .run(Priority::BotsOnly, move || {
                        started.fetch_add(1, Ordering::SeqCst);
                        release.wait();
                    })
                    .await
            }));
        }
        while started.load(Ordering::SeqCst) == 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let person = tokio::time::timeout(
            Duration::from_secs(20),
            thinking.run(Priority::People, || 7),
        )
        .await;
        assert_eq!(
            person.ok().and_then(Result::ok),
            Some(7),
            "a person's job waited behind bot tables"
        );
        assert_eq!(
            started.load(Ordering::SeqCst),
            1,
            "bot tables took more than all cores but one"
        );
        // Let the bot jobs finish, one at a time.
        tokio::task::block_in_place(|| {
            for _ in 0..4 {
                release.wait();
            }
        });
        for job in jobs {
            job.await.unwrap().unwrap();
        }
    }

    #[tokio::test]
    async fn a_freed_core_goes_to_the_highest_priority_waiting() {
        let thinking = Arc::new(Thinking::new(1));
        let held = thinking.acquire(Priority::People).await.unwrap();
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut jobs = Vec::new();
        // Queued lowest first: the order they run in is the priorities' alone.
        for (n, priority) in [
            Priority::Review,
            Priority::BotsOnly,
            Priority::Hint,
            Priority::People,
        ]
        .into_iter()
        .enumerate()
        {
            let (t, o) = (thinking.clone(), order.clone());
            jobs.push(tokio::spawn(async move {
                let permit = t.acquire(priority).await.unwrap();
                o.lock().unwrap().push(priority);
                drop(permit);
            }));
            while thinking.queued() <= n {
                tokio::task::yield_now().await;
            }
        }
        drop(held);
        for job in jobs {
            job.await.unwrap();
        }
        assert_eq!(
            *order.lock().unwrap(),
            vec![
                Priority::People,
                Priority::Hint,
                Priority::BotsOnly,
                Priority::Review
            ]
        );
    }
}
