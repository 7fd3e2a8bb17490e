//! CPU-heavy work (bots, hints) on the blocking pool, shared fairly between tables.
//!
//! One permit per core bounds the work at once (a strong bot's search or the solver on
//! a full table takes seconds and memory; more at once would only share the cores).
//! Tables where a person waits come first: tables of bots only may hold at most all
//! permits but one, so at least one core is always free for the tables of people,
//! and among themselves the bot tables take turns (the semaphores are first come,
//! first served, and each move queues again).

use std::sync::Arc;

use tokio::sync::Semaphore;

use crate::error::ApiError;

/// Who is waiting for the work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Priority {
    /// A table where a person plays (their bot opponents, their hints).
    People,
    /// A table of bots only: lowest priority.
    BotsOnly,
}

pub struct Thinking {
    all: Arc<Semaphore>,
    bots_only: Arc<Semaphore>,
}

impl Thinking {
    pub fn new(cores: usize) -> Thinking {
        let cores = cores.max(1);
        Thinking {
            all: Arc::new(Semaphore::new(cores)),
            bots_only: Arc::new(Semaphore::new(cores.saturating_sub(1).max(1))),
        }
    }

    /// Runs `work` on the blocking pool once a core is free for `priority`.
    pub async fn run<T: Send + 'static>(
        &self,
        priority: Priority,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let stopping = |_| ApiError::internal("the server is shutting down");
        let gate = match priority {
            Priority::People => None,
            Priority::BotsOnly => Some(
                self.bots_only
                    .clone()
                    .acquire_owned()
                    .await
                    .map_err(stopping)?,
            ),
        };
        let permit = self.all.clone().acquire_owned().await.map_err(stopping)?;
        tokio::task::spawn_blocking(move || {
            let _held = (permit, gate);
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
}
