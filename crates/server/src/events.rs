//! The house's bus, as lila's: the core (tables, seats, the action log) says what
//! happened at a table, and the features around it subscribe: results and ratings,
//! the replays' cache, the metrics, and what comes next (pairing, tournaments). The core never calls a
//! feature, so a feature's work (a database transaction, a tournament's pairing) runs
//! on the feature's own task, never under a table's lock.
//!
//! - An event is published after the change is stored: a subscriber may read the
//!   database and find it there.
//! - Each subscriber has its own bounded queue and task, so it sees events in the
//!   order they were published, and a slow one holds up nobody else. A subscriber that
//!   falls a whole queue behind loses events (logged and counted): what must not be
//!   lost is recovered from the database (results left unrecorded are recorded at the
//!   next start).
//! - With several nodes, events also go out on NATS (`rumi.events`); a subscriber
//!   chooses whether it hears other nodes' events ([`Heard::Everywhere`]) or only this
//!   node's ([`Heard::Here`]: a writer, so that each event is written once).
//! - [`Events::watch`] hears every event as it is published (for tests and live
//!   feeds); a watcher that falls behind skips ahead.

use std::future::Future;
use std::sync::{Arc, RwLock};

use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, mpsc};

use crate::cluster::Cluster;
use crate::metrics::Metrics;
use crate::store::{FinishedGame, SeatResult};
use crate::wire::GameKind;

/// Events a subscriber may wait for before the oldest is dropped.
const QUEUE: usize = 4096;

/// What happened at a table. Account ids are the store's (the bus is internal).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum TableEvent {
    /// A table was created and stored.
    Created {
        table: String,
        game: GameKind,
        rated: bool,
        seats: usize,
    },
    /// A player sat down (joined, claimed an invitation, took their account's seat or
    /// took their seat back from a bot). `account`: a signed-in player's.
    SeatTaken {
        table: String,
        seat: usize,
        account: Option<String>,
    },
    /// The game ended (its last action is stored). `results`: what its account
    /// holders' histories and ratings record; `None` when no account holder sat there.
    Finished {
        table: String,
        game: GameKind,
        rated: bool,
        results: Option<GameResults>,
    },
    /// A finished game's results are in its players' histories (and, rated, their
    /// ratings moved): published by the results feature, once per game.
    ResultsRecorded { table: String, rated: bool },
    /// The names shown at a table changed (a seat renamed, an account deleted): what
    /// keeps them (a built replay) forgets it.
    NamesChanged { table: String },
}

impl TableEvent {
    /// The event's name, as metrics label it.
    pub fn name(&self) -> &'static str {
        match self {
            TableEvent::Created { .. } => "created",
            TableEvent::SeatTaken { .. } => "seat_taken",
            TableEvent::Finished { .. } => "finished",
            TableEvent::ResultsRecorded { .. } => "results_recorded",
            TableEvent::NamesChanged { .. } => "names_changed",
        }
    }

    pub fn table(&self) -> &str {
        match self {
            TableEvent::Created { table, .. }
            | TableEvent::SeatTaken { table, .. }
            | TableEvent::Finished { table, .. }
            | TableEvent::ResultsRecorded { table, .. }
            | TableEvent::NamesChanged { table } => table,
        }
    }
}

/// A finished game as its results are recorded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResults {
    pub game: FinishedGame,
    pub seats: Vec<SeatResult>,
}

/// An event as a subscriber hears it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Published {
    pub event: TableEvent,
    /// The node that published it; `None`: this node.
    pub from: Option<String>,
}

/// Which events a subscriber hears.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heard {
    /// Only this node's: for writers, so that each event is written once.
    Here,
    /// Every node's: for what each node keeps in memory.
    Everywhere,
}

struct Subscriber {
    name: &'static str,
    heard: Heard,
    queue: mpsc::Sender<Arc<Published>>,
}

/// The bus of one node.
pub struct Events {
    subscribers: RwLock<Vec<Subscriber>>,
    watchers: broadcast::Sender<Arc<Published>>,
    cluster: Option<Arc<Cluster>>,
    metrics: Metrics,
}

impl Events {
    pub fn new(cluster: Option<Arc<Cluster>>, metrics: Metrics) -> Events {
        Events {
            subscribers: RwLock::new(Vec::new()),
            watchers: broadcast::channel(QUEUE).0,
            cluster,
            metrics,
        }
    }

    /// Runs `handle` for every event `heard`, one at a time, in publishing order, on a
    /// task of its own (which ends with the bus).
    pub fn subscribe<F, Fut>(&self, name: &'static str, heard: Heard, handle: F)
    where
        F: Fn(Arc<Published>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let (queue, mut events) = mpsc::channel(QUEUE);
        tokio::spawn(async move {
            while let Some(event) = events.recv().await {
                handle(event).await;
            }
        });
        self.subscribers
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .push(Subscriber { name, heard, queue });
    }

    /// Every event from now on, as it is published (here or, with several nodes,
    /// elsewhere).
    pub fn watch(&self) -> broadcast::Receiver<Arc<Published>> {
        self.watchers.subscribe()
    }

    /// Says what happened: to this node's subscribers and watchers at once, and to
    /// the other nodes through NATS. Never waits for a subscriber.
    pub fn publish(&self, event: TableEvent) {
        self.metrics
            .table_events
            .with_label_values(&[event.name()])
            .inc();
        if let Some(cluster) = &self.cluster {
            let cluster = cluster.clone();
            let event = event.clone();
            tokio::spawn(async move { cluster.publish_event(&event).await });
        }
        self.deliver(Arc::new(Published { event, from: None }));
    }

    /// An event another node published (`cluster::run`).
    pub fn heard_from(&self, node: String, event: TableEvent) {
        self.metrics
            .table_events_heard
            .with_label_values(&[event.name()])
            .inc();
        self.deliver(Arc::new(Published {
            event,
            from: Some(node),
        }));
    }

    fn deliver(&self, published: Arc<Published>) {
        let here = published.from.is_none();
        for subscriber in self
            .subscribers
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .iter()
            .filter(|s| here || s.heard == Heard::Everywhere)
        {
            if subscriber.queue.try_send(published.clone()).is_err() {
                self.metrics.events_dropped.inc();
                tracing::warn!(
                    "events: {} is a whole queue behind (or stopped); {} of table {} dropped",
                    subscriber.name,
                    published.event.name(),
                    published.event.table()
                );
            }
        }
        // No watcher is fine.
        let _ = self.watchers.send(published);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat_taken(table: &str) -> TableEvent {
        TableEvent::SeatTaken {
            table: table.into(),
            seat: 0,
            account: None,
        }
    }

    /// A subscriber hears events in order, and a stuck subscriber neither holds up
    /// the publisher nor another subscriber.
    #[tokio::test]
    async fn a_stuck_subscriber_holds_up_nobody() {
        let events = Events::new(None, Metrics::new("test"));
        let (stuck_tx, stuck_rx) = tokio::sync::oneshot::channel::<()>();
        let stuck_rx = Arc::new(tokio::sync::Mutex::new(Some(stuck_rx)));
        events.subscribe("stuck", Heard::Here, move |_| {
            let stuck_rx = stuck_rx.clone();
            async move {
                if let Some(rx) = stuck_rx.lock().await.take() {
                    let _ = rx.await;
                }
            }
        });
        let (heard_tx, mut heard) = mpsc::unbounded_channel();
        events.subscribe("counting", Heard::Here, move |p| {
            let heard_tx = heard_tx.clone();
            async move {
                let _ = heard_tx.send(p.event.table().to_string());
            }
        });
        for table in ["t1", "t2", "t3"] {
            events.publish(seat_taken(table));
        }
        for table in ["t1", "t2", "t3"] {
            assert_eq!(heard.recv().await.as_deref(), Some(table));
        }
        drop(stuck_tx);
    }

    /// A writer (`Heard::Here`) does not hear another node's events; a keeper of
    /// memory (`Heard::Everywhere`) does.
    #[tokio::test]
    async fn writers_hear_only_their_own_nodes_events() {
        let events = Events::new(None, Metrics::new("test"));
        let (tx, mut heard) = mpsc::unbounded_channel();
        for (name, heard_as) in [("writer", Heard::Here), ("keeper", Heard::Everywhere)] {
            let tx = tx.clone();
            events.subscribe(name, heard_as, move |p| {
                let tx = tx.clone();
                async move {
                    let _ = tx.send((name, p.from.clone()));
                }
            });
        }
        events.heard_from("n2".into(), seat_taken("t1"));
        assert_eq!(heard.recv().await, Some(("keeper", Some("n2".into()))));
        events.publish(seat_taken("t2"));
        let mut two = vec![heard.recv().await.unwrap(), heard.recv().await.unwrap()];
        two.sort();
        assert_eq!(two, vec![("keeper", None), ("writer", None)]);
        assert!(heard.try_recv().is_err());
    }
}
