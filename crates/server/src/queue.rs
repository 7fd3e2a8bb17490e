//! A bound on one kind of CPU-heavy request (hints, analyses, solo-cube answers,
//! puzzles): it counts what waits for a core or runs, and refuses one more than it
//! holds, so that a flood of requests queues no unbounded work on the thinking pool.
//! (The server's one limiter, `limit`, admitting only.)

use crate::limit::{Limiter, Limits, Ticket};

/// At most `max` pieces of work of one kind, waiting or running.
pub struct WorkQueue(Limiter);

/// A place in a [`WorkQueue`], held until the work is done (or its requester gave up):
/// move it into the work's closure.
pub type Place = Ticket;

impl WorkQueue {
    pub fn new(max: usize) -> WorkQueue {
        WorkQueue(Limiter::new(Limits::queue(max)))
    }

    /// A place, or `None` when the queue is full.
    pub fn enter(&self) -> Option<Place> {
        self.0.admit(None).ok()
    }

    /// Work waiting or running now.
    pub fn len(&self) -> usize {
        self.0.admitted()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_queue_refuses_until_a_place_is_given_back() {
        let queue = WorkQueue::new(2);
        let first = queue.enter().expect("room for two");
        let _second = queue.enter().expect("room for two");
        assert!(queue.enter().is_none(), "a third is refused");
        assert_eq!(queue.len(), 2, "a refusal holds no place");
        drop(first);
        assert!(queue.enter().is_some(), "a place given back is free again");
    }
}
