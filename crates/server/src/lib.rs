//! The rumi server: lobby, tables, seats, bots, the Rummikub turn clock and
//! persistence, over a JSON HTTP API and WebSockets (see `docs/server-api.md`).
//!
//! Layers: [`wire`] is the typed contract (OpenAPI and TypeScript are generated from
//! it), [`games`] adapts each rules engine to one table interface (every rule is the
//! engine's), [`hub`] owns the tables, seats and the one path every action takes,
//! [`thinking`] shares the cores fairly between bots, [`fairness`] commits to each
//! deal, [`store`] keeps the action log (SQLite or PostgreSQL), [`app`] holds the hub
//! and each feature's own state, [`http`] maps routes to the hub and [`error`] errors
//! to statuses, [`live`] runs the WebSockets,
//! [`transport`] bounds connections and requests, [`client`] serves the browser client,
//! [`events`] carries what happened at a table to the features that subscribe.

pub mod accounts;
pub mod analysis;
pub mod app;
pub mod bot_ratings;
pub mod cache;
pub mod client;
pub mod clock;
pub mod cluster;
pub mod error;
pub mod events;
pub mod fairness;
pub mod games;
pub mod hints;
pub mod http;
pub mod hub;
pub mod limit;
pub mod live;
pub mod metrics;
pub mod names;
pub mod openapi;
pub mod positions;
pub mod puzzles;
pub mod queue;
pub mod redact;
pub mod replays;
pub mod reviews;
pub mod solo;
pub mod store;
pub mod thinking;
pub mod transport;
pub mod tutorial;
pub mod wire;

use std::net::SocketAddr;
use std::sync::Arc;

pub use cluster::ClusterOptions;
pub use hub::{Hub, HubOptions};
pub use store::Store;
pub use transport::{redact_url, Limits};

/// How to run a server.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    pub addr: SocketAddr,
    /// `sqlite://FILE` or `postgres://…`.
    pub db: String,
    /// The browser client: built into the binary, a `web/dist` directory, or none (a
    /// page that says how to build it).
    pub client: client::Client,
    pub hub: HubOptions,
    pub limits: Limits,
    /// Several nodes on one (PostgreSQL) database, with NATS for the news; `None`:
    /// a single node.
    pub cluster: Option<ClusterOptions>,
}

/// A server that is listening.
pub struct Running {
    pub addr: SocketAddr,
    pub hub: Arc<Hub>,
    /// The core and the features' state the router serves with.
    pub app: app::AppState,
    /// Ends when the server has stopped (after [`Running::shutdown`]).
    pub task: tokio::task::JoinHandle<std::io::Result<()>>,
    stop: tokio::sync::watch::Sender<bool>,
}

impl Running {
    /// Asks the server to stop: it takes no new connections, lets requests in flight
    /// finish (within `Limits::drain_timeout`), closes WebSockets with 1001 "going
    /// away", then `task` ends.
    pub fn shutdown(&self) {
        self.stop.send_replace(true);
    }
}

/// Opens the database, resumes unfinished tables and starts listening. Returns once
/// the socket is bound (its address: port 0 picks a free one).
pub async fn start(config: ServerConfig) -> anyhow::Result<Running> {
    redact::register_secrets_of(&config.db);
    if let Some(cluster) = &config.cluster {
        redact::register_secrets_of(&cluster.nats_url);
    }
    let store = Store::connect(&config.db).await?;
    let (cluster, events) = match &config.cluster {
        Some(options) => {
            let (send, receive) = tokio::sync::mpsc::unbounded_channel();
            let cluster = cluster::Cluster::connect(options, send).await?;
            (Some(Arc::new(cluster)), Some(receive))
        }
        None => (None, None),
    };
    let hub = Hub::start(store, config.hub.clone(), cluster).await?;
    let app = app::AppState::new(hub.clone());
    if let Some(events) = events {
        let node = hub.clone();
        tokio::spawn(async move {
            if let Err(e) = cluster::run(node, events).await {
                tracing::error!("cluster: {e:#}");
            }
        });
    }
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|e| anyhow::anyhow!("cannot listen on {}: {e}", config.addr))?;
    let addr = listener.local_addr()?;
    let service = transport::protect(
        http::router(app.clone(), config.client.clone()),
        &config.limits,
    );
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let task = tokio::spawn(transport::serve(
        listener,
        service,
        config.limits.clone(),
        stopped,
    ));
    Ok(Running {
        addr,
        hub,
        app,
        task,
        stop,
    })
}
