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
//! a hint (1.2 s of search) or a replay being built never takes the last one. (The
//! permits are the server's one limiter, `limit`, with the priorities as its classes.)
//!
//! Hints sit below people's bots because a person at another table waits on every one
//! of their bot's replies, while a hint is asked for at will (and by anyone with a
//! seat, an attacker included). They sit above tables of bots only, which nobody waits
//! on: a person who asked for a hint is waiting for it. Hints are further bounded by
//! their own rate limits and queue (`hints`).

use crate::error::ApiError;
use crate::limit::{Limiter, Limits, Permit};

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

pub struct Thinking {
    /// One place per core, in four classes (the priorities); one core is kept for
    /// people's bots.
    cores: Limiter,
}

impl Thinking {
    pub fn new(cores: usize) -> Thinking {
        Thinking {
            cores: Limiter::new(Limits {
                classes: 4,
                reserve: 1,
                ..Limits::running(cores)
            }),
        }
    }

    /// Work waiting for a core.
    pub fn queued(&self) -> usize {
        self.cores.waiting()
    }

    /// A core for `priority`, once one is free for it.
    async fn acquire(&self, priority: Priority) -> Result<Permit, ApiError> {
        self.cores
            .acquire(priority as usize)
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
    use parking_lot::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
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
                o.lock().push(priority);
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
            *order.lock(),
            vec![
                Priority::People,
                Priority::Hint,
                Priority::BotsOnly,
                Priority::Review
            ]
        );
    }
}
