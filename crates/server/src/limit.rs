//! The one limiter of the server's costly work: the thinking pool's cores, the bounded
//! queues of hints, analyses and puzzles (`queue`), the reviews computed at once, and
//! the password hasher. Each uses the parts it needs:
//! - admission ([`Limiter::admit`]): at most `queue` pieces of work admitted (waiting
//!   or running), and at most `share` of them from one network; past either, the work
//!   is refused at once rather than queued without end;
//! - running ([`Limiter::acquire`]): at most `running` at once; when one ends, the
//!   waiting work of the highest class gets its place, first come first served within
//!   a class, and the classes below the first hold at most `running - reserve` places
//!   (so that `reserve` places stay free for the first class).

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::Arc;

use parking_lot::Mutex;
use tokio::sync::oneshot;

/// What a [`Limiter`] bounds.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Work running at once (`usize::MAX`: no bound).
    pub running: usize,
    /// Classes of work, highest first (class 0 is the highest).
    pub classes: usize,
    /// Places only the first class may take (the others hold at most `running -
    /// reserve`, and at least one).
    pub reserve: usize,
    /// Work admitted, waiting or running, in all (`usize::MAX`: no bound).
    pub queue: usize,
    /// Work admitted from one network (`usize::MAX`: no bound).
    pub share: usize,
}

impl Limits {
    /// At most `running` at once, one class, nothing refused.
    pub fn running(running: usize) -> Limits {
        Limits {
            running: running.max(1),
            classes: 1,
            reserve: 0,
            queue: usize::MAX,
            share: usize::MAX,
        }
    }

    /// At most `queue` admitted; what runs is bounded elsewhere.
    pub fn queue(queue: usize) -> Limits {
        Limits {
            running: usize::MAX,
            queue,
            ..Limits::running(1)
        }
    }
}

/// Why [`Limiter::admit`] refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// As much work is admitted as the limiter holds.
    Full,
    /// The network's share is admitted.
    Share,
}

/// The limiter went away with work still waiting (the server stops).
#[derive(Debug)]
pub struct Closed;

pub struct Limiter {
    state: Arc<Mutex<State>>,
}

struct State {
    limits: Limits,
    admitted: usize,
    per_network: HashMap<IpAddr, usize>,
    /// Places held, in all and by the classes below the first.
    running: usize,
    below_first: usize,
    /// Waiters per class; each gets its place through its channel.
    waiting: Vec<VecDeque<oneshot::Sender<Permit>>>,
}

impl State {
    fn may_run(&self, class: usize) -> bool {
        let below_first_max = self
            .limits
            .running
            .saturating_sub(self.limits.reserve)
            .max(1);
        self.running < self.limits.running && (class == 0 || self.below_first < below_first_max)
    }

    fn take(&mut self, shared: &Arc<Mutex<State>>, class: usize) -> Permit {
        self.running += 1;
        if class > 0 {
            self.below_first += 1;
        }
        Permit {
            state: Some(shared.clone()),
            class,
        }
    }

    fn give_back(&mut self, class: usize) {
        self.running -= 1;
        if class > 0 {
            self.below_first -= 1;
        }
    }

    /// Hands free places to waiters, highest class first; waiters that gave up are
    /// skipped.
    fn grant(&mut self, shared: &Arc<Mutex<State>>) {
        for class in 0..self.waiting.len() {
            while self.may_run(class) {
                let Some(waiter) = self.waiting[class].pop_front() else {
                    break;
                };
                let permit = self.take(shared, class);
                if let Err(mut permit) = waiter.send(permit) {
                    // The waiter is gone: take the place back here (the permit's drop
                    // would take the lock this holds).
                    permit.state = None;
                    self.give_back(class);
                }
            }
        }
    }
}

/// A place to run; dropping it hands the place to the next waiter.
pub struct Permit {
    /// `None` once handed back by [`State::grant`] itself (its waiter was gone).
    state: Option<Arc<Mutex<State>>>,
    class: usize,
}

impl Drop for Permit {
    fn drop(&mut self) {
        let Some(shared) = self.state.take() else {
            return;
        };
        let mut state = shared.lock();
        state.give_back(self.class);
        state.grant(&shared);
    }
}

/// Admitted work, counted until it is dropped (move it into the work's closure).
pub struct Ticket {
    state: Arc<Mutex<State>>,
    network: Option<IpAddr>,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut state = self.state.lock();
        state.admitted -= 1;
        if let Some(network) = self.network {
            if let Some(n) = state.per_network.get_mut(&network) {
                *n -= 1;
                if *n == 0 {
                    state.per_network.remove(&network);
                }
            }
        }
    }
}

impl Limiter {
    pub fn new(limits: Limits) -> Limiter {
        Limiter {
            state: Arc::new(Mutex::new(State {
                limits,
                admitted: 0,
                per_network: HashMap::new(),
                running: 0,
                below_first: 0,
                waiting: (0..limits.classes.max(1))
                    .map(|_| VecDeque::new())
                    .collect(),
            })),
        }
    }

    pub fn limits(&self) -> Limits {
        self.state.lock().limits
    }

    /// Admits one more piece of work (from `network`, counted against its share), or
    /// refuses it; the network's share is checked first.
    pub fn admit(&self, network: Option<IpAddr>) -> Result<Ticket, Refused> {
        let mut state = self.state.lock();
        if let Some(network) = network {
            if state.per_network.get(&network).copied().unwrap_or(0) >= state.limits.share {
                return Err(Refused::Share);
            }
        }
        if state.admitted >= state.limits.queue {
            return Err(Refused::Full);
        }
        state.admitted += 1;
        if let Some(network) = network {
            *state.per_network.entry(network).or_insert(0) += 1;
        }
        Ok(Ticket {
            state: self.state.clone(),
            network,
        })
    }

    /// Work admitted now, waiting or running.
    pub fn admitted(&self) -> usize {
        self.state.lock().admitted
    }

    /// Work waiting for a place to run.
    pub fn waiting(&self) -> usize {
        self.state.lock().waiting.iter().map(VecDeque::len).sum()
    }

    /// A place to run for work of `class`, once one is free for it (behind the work of
    /// its class and higher that waits already).
    pub async fn acquire(&self, class: usize) -> Result<Permit, Closed> {
        let receiver = {
            let mut state = self.state.lock();
            let class = class.min(state.waiting.len() - 1);
            let queued_before = state.waiting[..=class].iter().any(|q| !q.is_empty());
            if !queued_before && state.may_run(class) {
                return Ok(state.take(&self.state, class));
            }
            let (send, receive) = oneshot::channel();
            state.waiting[class].push_back(send);
            receive
        };
        receiver.await.map_err(|_| Closed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> Option<IpAddr> {
        Some(text.parse().unwrap())
    }

    #[test]
    fn one_network_holds_at_most_its_share() {
        let limiter = Limiter::new(Limits {
            share: 2,
            ..Limits::queue(10)
        });
        let held: Vec<Ticket> = (0..2)
            .map(|_| limiter.admit(ip("10.0.0.1")).unwrap())
            .collect();
        assert_eq!(limiter.admit(ip("10.0.0.1")).err(), Some(Refused::Share));
        assert!(
            limiter.admit(ip("10.0.0.2")).is_ok(),
            "another network still gets in"
        );
        drop(held);
        assert!(limiter.admit(ip("10.0.0.1")).is_ok());
    }
}
