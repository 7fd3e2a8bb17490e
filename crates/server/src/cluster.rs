//! Several identical nodes behind one address, on proven infrastructure only:
//! PostgreSQL is the record (the action log's key `(table, version)` decides which of
//! two racing nodes wrote version N; a lease row decides which node runs a table's
//! bots and clock) and NATS carries the news (after a write, the node publishes the
//! table's new version on `rumi.table.{id}`; every node with a copy of that table
//! catches up from the database and pushes each of its viewers their own view).
//!
//! A message only says "look again": the state always comes from the database, so a
//! lost or late message costs a delay, never a wrong view. After a NATS reconnect, and
//! every few seconds for tables with viewers, a node looks again by itself.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use serde::{Deserialize, Serialize};

use crate::clock::Clock;
use crate::hub::Hub;

/// How a node joins the others.
#[derive(Clone, Debug)]
pub struct ClusterOptions {
    /// `nats://host:port`.
    pub nats_url: String,
    /// This node's name in leases and metrics (unique per node).
    pub node_id: String,
    /// How long a lease lasts without renewal: a dead node's tables move to another
    /// node within about this long.
    pub lease_ttl: Duration,
}

/// The news published after every change of a table.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TableNews {
    pub version: u64,
    /// Who sits where changed (else: a new action).
    #[serde(default)]
    pub seats: bool,
    /// Only who is present changed (a player connected, left, or was seen).
    #[serde(default)]
    pub presence: bool,
    pub node: String,
    /// When it was sent (Unix ms), for the NATS lag metric.
    pub sent_ms: i64,
}

/// This node's place in the cluster.
pub struct Cluster {
    pub node: String,
    pub lease_ttl: Duration,
    nats: async_nats::Client,
    connected: Arc<AtomicBool>,
}

const SUBJECT_PREFIX: &str = "rumi.table.";
/// The bus's events (`events`), for the features of every node.
const EVENTS_SUBJECT: &str = "rumi.events";

/// An event on NATS: who published it, and what.
#[derive(Serialize, Deserialize)]
struct EventNews {
    node: String,
    event: crate::events::TableEvent,
}

impl Cluster {
    /// Connects to NATS (and keeps reconnecting in the background); events go to
    /// `events` (a reconnect makes the node look at every table again).
    pub async fn connect(
        options: &ClusterOptions,
        events: tokio::sync::mpsc::UnboundedSender<async_nats::Event>,
    ) -> anyhow::Result<Cluster> {
        let connected = Arc::new(AtomicBool::new(false));
        let flag = connected.clone();
        let nats = async_nats::ConnectOptions::new()
            .name(format!("rumi {}", options.node_id))
            .retry_on_initial_connect()
            .event_callback(move |event| {
                let flag = flag.clone();
                let events = events.clone();
                async move {
                    match event {
                        async_nats::Event::Connected => flag.store(true, Ordering::SeqCst),
                        async_nats::Event::Disconnected | async_nats::Event::Closed => {
                            flag.store(false, Ordering::SeqCst)
                        }
                        _ => {}
                    }
                    let _ = events.send(event);
                }
            })
            .connect(options.nats_url.as_str())
            .await
            .map_err(|e| {
                anyhow::anyhow!(
                    "cannot connect to NATS at {}: {}",
                    crate::redact_url(&options.nats_url),
                    crate::redact::redact_text(&e.to_string())
                )
            })?;
        // `retry_on_initial_connect` returns before the first connection: wait for it
        // (briefly) so that a node starts connected when NATS is there.
        for _ in 0..50 {
            if nats.connection_state() == async_nats::connection::State::Connected {
                connected.store(true, Ordering::SeqCst);
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        Ok(Cluster {
            node: options.node_id.clone(),
            lease_ttl: options.lease_ttl,
            nats,
            connected,
        })
    }

    pub fn is_connected(&self) -> bool {
        self.connected.load(Ordering::SeqCst)
            || self.nats.connection_state() == async_nats::connection::State::Connected
    }

    /// Tells the other nodes that a table changed. A failure is only logged: the
    /// others look again by themselves.
    pub async fn publish(&self, table_id: &str, version: u64, seats: bool) {
        self.send(
            table_id,
            TableNews {
                version,
                seats,
                presence: false,
                node: self.node.clone(),
                sent_ms: wall_ms(),
            },
        )
        .await
    }

    /// Tells the other nodes that this node's sighting of a player at the table
    /// changed (in `rumi_presence`), so that their views show it.
    pub async fn publish_presence(&self, table_id: &str, version: u64) {
        self.send(
            table_id,
            TableNews {
                version,
                seats: false,
                presence: true,
                node: self.node.clone(),
                sent_ms: wall_ms(),
            },
        )
        .await
    }

    async fn send(&self, table_id: &str, news: TableNews) {
        let version = news.version;
        let payload = serde_json::to_vec(&news).unwrap_or_default();
        if let Err(e) = self
            .nats
            .publish(format!("{SUBJECT_PREFIX}{table_id}"), payload.into())
            .await
        {
            tracing::warn!("NATS: table {table_id} version {version} not published: {e}");
        }
    }

    /// Tells the other nodes' buses what happened here. A failure is logged: their
    /// subscribers miss it (and recover from the database, as after any loss).
    pub async fn publish_event(&self, event: &crate::events::TableEvent) {
        let news = EventNews {
            node: self.node.clone(),
            event: event.clone(),
        };
        let payload = serde_json::to_vec(&news).unwrap_or_default();
        if let Err(e) = self.nats.publish(EVENTS_SUBJECT, payload.into()).await {
            tracing::warn!("NATS: event {} not published: {e}", event.name());
        }
    }

    async fn subscribe(&self) -> anyhow::Result<async_nats::Subscriber> {
        self.nats
            .subscribe(format!("{SUBJECT_PREFIX}*"))
            .await
            .map_err(|e| anyhow::anyhow!("cannot subscribe to NATS: {e}"))
    }

    /// Stops the client (a node that shuts down).
    pub async fn close(&self) {
        let _ = self.nats.drain().await;
    }
}

/// The node's background work: news from the other nodes, reconnects, and the
/// leases (renew ours, take over the tables whose node is gone).
pub async fn run(
    hub: Arc<Hub>,
    mut events: tokio::sync::mpsc::UnboundedReceiver<async_nats::Event>,
) -> anyhow::Result<()> {
    let cluster = hub.cluster().expect("a clustered hub").clone();
    let mut news = cluster.subscribe().await?;
    // Events: what happened at a table on another node, for this node's subscribers.
    let mut events_news = cluster
        .nats
        .subscribe(EVENTS_SUBJECT)
        .await
        .map_err(|e| anyhow::anyhow!("cannot subscribe to NATS: {e}"))?;
    let events_hub = hub.clone();
    tokio::spawn(async move {
        while let Some(message) = events_news.next().await {
            let Ok(news) = serde_json::from_slice::<EventNews>(&message.payload) else {
                continue;
            };
            if news.node != events_hub.cluster().map_or("", |c| c.node.as_str()) {
                events_hub.events().heard_from(news.node, news.event);
            }
        }
    });
    // News: the table of the subject changed on another node.
    let news_hub = hub.clone();
    tokio::spawn(async move {
        while let Some(message) = news.next().await {
            let Some(id) = message.subject.as_str().strip_prefix(SUBJECT_PREFIX) else {
                continue;
            };
            let Ok(item) = serde_json::from_slice::<TableNews>(&message.payload) else {
                continue;
            };
            if item.node == news_hub.cluster().map_or("", |c| c.node.as_str()) {
                continue;
            }
            news_hub
                .metrics()
                .nats_lag
                .observe((wall_ms() - item.sent_ms).max(0) as f64 / 1000.0);
            // Each table catches up on its own: one slow table does not hold the news
            // of the others (a table's lock keeps its own catch-ups in order).
            let hub = news_hub.clone();
            let id = id.to_string();
            tokio::spawn(async move {
                if item.presence {
                    hub.presence_news(&id).await
                } else {
                    hub.news(&id, item.version, item.seats).await
                }
            });
        }
    });
    // Reconnected: look at every table again (messages may have been missed).
    let event_hub = hub.clone();
    tokio::spawn(async move {
        while let Some(event) = events.recv().await {
            match event {
                async_nats::Event::Connected => {
                    tracing::info!("NATS connected: catching up every loaded table");
                    event_hub.catch_up_all().await;
                }
                async_nats::Event::SlowConsumer(_) => {
                    tracing::warn!("NATS: slow consumer; catching up every loaded table");
                    event_hub.catch_up_all().await;
                }
                other => tracing::info!("NATS: {other}"),
            }
        }
    });
    // Presence: while a player's connection is open here, other nodes see them as
    // present; a sighting without a heartbeat for a lease's lifetime is a dead node's.
    // On its own task, so that a long take-over does not delay it.
    let period = cluster.lease_ttl / 3;
    let beat_hub = hub.clone();
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(period).await;
            if beat_hub.is_draining() {
                return;
            }
            beat_hub.presence_heartbeat(beat_hub.now_ms()).await;
        }
    });
    // Leases: renew ours a few times per lifetime; take over what nobody drives.
    let mut sweep = 0u32;
    loop {
        tokio::time::sleep(period).await;
        if hub.is_draining() {
            continue;
        }
        let now = hub.now_ms();
        let ttl = cluster.lease_ttl.as_millis() as i64;
        if let Err(e) = hub.store.renew_leases(&cluster.node, now + ttl).await {
            tracing::warn!("leases not renewed: {e:#}");
            continue;
        }
        let until = now + ttl.max(hub.ahead_ms());
        match hub.store.due_without_lease(&cluster.node, now, until).await {
            Ok(ids) => {
                for (id, ours) in ids {
                    // Ours and in memory: its driver is on it.
                    if !(ours && hub.is_loaded(&id)) {
                        hub.take_over(&id).await;
                    }
                }
            }
            Err(e) => tracing::warn!("cannot look for tables to take over: {e:#}"),
        }
        // Now and then, look again at the watched tables (a message may be lost
        // without a reconnect).
        sweep += 1;
        if sweep.is_multiple_of(6) {
            hub.catch_up_watched().await;
        }
        // Now and then, forget sightings too old to matter.
        if sweep.is_multiple_of(600) {
            hub.forget_old_presence().await;
        }
    }
}

/// The news' delay is measured between processes, by the machines' own clocks.
fn wall_ms() -> i64 {
    Clock::system().now_ms()
}
