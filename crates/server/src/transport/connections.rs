//! Open connections counted per address, per network and in all, and the live
//! WebSockets the server may close to make room.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use tokio::sync::{watch, Notify};

use super::{client_key, network_key, Limits};

/// Open connections, counted per address, per network and in all, and the live
/// WebSockets among them: those can make room for a new client when the server is full.
pub(super) struct Connections {
    open: Mutex<Open>,
    /// Woken when the last connection closes: the drain waits for it.
    emptied: Notify,
    /// Turns true when the server stops: connections finish and sockets close.
    pub(super) closing: watch::Sender<bool>,
}

#[derive(Default)]
pub(super) struct Open {
    pub(super) total: usize,
    per_address: HashMap<IpAddr, usize>,
    per_network: HashMap<IpAddr, usize>,
    /// The live WebSockets by id.
    sockets: HashMap<u64, SocketEntry>,
    next_socket: u64,
}

struct SocketEntry {
    /// The client's address and network (none for a balancer's connection whose
    /// client is not known).
    client: Option<(IpAddr, IpAddr)>,
    /// When the client last sent a message (or opened the socket).
    active: Instant,
    /// The socket's places in the counts (shared with its slots): its connection's,
    /// and its client's behind a trusted proxy.
    places: Vec<(Place, Arc<AtomicBool>)>,
    evicted: Arc<Notify>,
}

/// What one slot counts: a connection in the total, and its client per address and
/// network. A trusted proxy's connection counts in the total only; the client behind
/// it is counted per request (or WebSocket) it forwards.
#[derive(Clone, Copy, Debug)]
struct Place {
    in_total: bool,
    client: Option<(IpAddr, IpAddr)>,
}

fn decrement(counts: &mut HashMap<IpAddr, usize>, key: IpAddr) {
    if let Some(n) = counts.get_mut(&key) {
        *n -= 1;
        if *n == 0 {
            counts.remove(&key);
        }
    }
}

impl Open {
    fn count(&mut self, place: Place) {
        if place.in_total {
            self.total += 1;
        }
        if let Some((address, network)) = place.client {
            *self.per_address.entry(address).or_insert(0) += 1;
            *self.per_network.entry(network).or_insert(0) += 1;
        }
    }

    fn forget(&mut self, place: Place) {
        if place.in_total {
            self.total -= 1;
        }
        if let Some((address, network)) = place.client {
            decrement(&mut self.per_address, address);
            decrement(&mut self.per_network, network);
        }
    }

    /// Whether a client may open one more connection (or, behind a proxy, request).
    fn admits_client(
        &self,
        address: IpAddr,
        network: IpAddr,
        limits: &Limits,
    ) -> Result<(), Refusal> {
        if self.per_address.get(&address).copied().unwrap_or(0) >= limits.max_connections_per_ip {
            return Err(Refusal::Address);
        }
        if self.per_network.get(&network).copied().unwrap_or(0)
            >= limits.max_connections_per_network
        {
            return Err(Refusal::Network);
        }
        Ok(())
    }

    /// Makes room for one connection: the least recently active WebSocket of the
    /// network holding the most connections (then of its address holding the most) is
    /// told to close, and its place is given up at once. False when no WebSocket is
    /// open (plain HTTP connections are short: the timeouts end them).
    fn evict(&mut self) -> bool {
        let victim = self
            .sockets
            .iter()
            .max_by_key(|(_, s)| {
                let (network, address) = s.client.map_or((0, 0), |(address, network)| {
                    (
                        self.per_network.get(&network).copied().unwrap_or(0),
                        self.per_address.get(&address).copied().unwrap_or(0),
                    )
                });
                (network, address, std::cmp::Reverse(s.active))
            })
            .map(|(id, _)| *id);
        let Some(socket) = victim.and_then(|id| self.sockets.remove(&id)) else {
            return false;
        };
        for (place, counted) in &socket.places {
            if counted.swap(false, Ordering::SeqCst) {
                self.forget(*place);
            }
        }
        socket.evicted.notify_one();
        true
    }
}

impl Connections {
    pub(super) fn new() -> Arc<Connections> {
        Arc::new(Connections {
            open: Mutex::default(),
            emptied: Notify::new(),
            closing: watch::Sender::new(false),
        })
    }

    pub(super) fn lock(&self) -> std::sync::MutexGuard<'_, Open> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for a connection from `ip`, or the answer when a cap is reached. A
    /// trusted proxy's connection (`proxy`) counts in the total only: the clients it
    /// forwards are counted by [`Connections::open_forwarded`].
    pub(super) fn open(
        self: &Arc<Self>,
        ip: IpAddr,
        proxy: bool,
        limits: &Limits,
    ) -> Result<ConnectionSlot, Refusal> {
        let client = (!proxy).then(|| (client_key(ip), network_key(ip)));
        let mut open = self.lock();
        if let Some((address, network)) = client {
            open.admits_client(address, network, limits)?;
        }
        if open.total >= limits.max_connections && !open.evict() {
            return Err(Refusal::Server);
        }
        Ok(self.counted(
            &mut open,
            Place {
                in_total: true,
                client,
            },
            None,
        ))
    }

    /// A place for a client behind a trusted proxy, for one request (or the WebSocket
    /// it upgrades to) on the proxy's connection `via`.
    pub(super) fn open_forwarded(
        self: &Arc<Self>,
        ip: IpAddr,
        via: Option<ConnectionSlot>,
        limits: &Limits,
    ) -> Result<ConnectionSlot, Refusal> {
        let (address, network) = (client_key(ip), network_key(ip));
        let mut open = self.lock();
        open.admits_client(address, network, limits)?;
        let place = Place {
            in_total: false,
            client: Some((address, network)),
        };
        Ok(self.counted(&mut open, place, via))
    }

    fn counted(
        self: &Arc<Self>,
        open: &mut Open,
        place: Place,
        via: Option<ConnectionSlot>,
    ) -> ConnectionSlot {
        open.count(place);
        ConnectionSlot(Arc::new(SlotInner {
            connections: self.clone(),
            place,
            counted: Arc::new(AtomicBool::new(true)),
            via,
        }))
    }

    /// Waits until no connection is open.
    pub(super) async fn emptied(&self) {
        loop {
            let emptied = self.emptied.notified();
            tokio::pin!(emptied);
            emptied.as_mut().enable();
            if self.lock().total == 0 {
                return;
            }
            emptied.await;
        }
    }
}

/// One open connection's place in the counts, given back when the last clone is
/// dropped. Requests carry a clone (an extension), so that a WebSocket keeps its
/// connection's place after the HTTP connection has handed it over.
#[derive(Clone)]
pub struct ConnectionSlot(Arc<SlotInner>);

struct SlotInner {
    connections: Arc<Connections>,
    place: Place,
    /// False once the place is given up (the connection was evicted).
    counted: Arc<AtomicBool>,
    /// A forwarded client's request: the trusted proxy's connection it came on.
    via: Option<ConnectionSlot>,
}

impl Drop for SlotInner {
    fn drop(&mut self) {
        let mut open = self.connections.lock();
        if self.counted.swap(false, Ordering::SeqCst) {
            open.forget(self.place);
        }
        if open.total == 0 {
            self.connections.emptied.notify_waiters();
        }
    }
}

impl ConnectionSlot {
    /// Enters this connection as a live WebSocket: one the server may close to make
    /// room for a new client, and closes when it stops.
    pub fn live_socket(&self) -> LiveSocket {
        let inner = &self.0;
        let evicted = Arc::new(Notify::new());
        let mut open = inner.connections.lock();
        let id = open.next_socket;
        open.next_socket += 1;
        let mut places = vec![(inner.place, inner.counted.clone())];
        if let Some(via) = &inner.via {
            places.push((via.0.place, via.0.counted.clone()));
        }
        open.sockets.insert(
            id,
            SocketEntry {
                client: inner.place.client,
                active: Instant::now(),
                places,
                evicted: evicted.clone(),
            },
        );
        LiveSocket {
            connections: inner.connections.clone(),
            id,
            evicted,
            closing: inner.connections.closing.subscribe(),
        }
    }
}

/// A live WebSocket's entry among the connections (see [`ConnectionSlot::live_socket`]).
pub struct LiveSocket {
    connections: Arc<Connections>,
    id: u64,
    evicted: Arc<Notify>,
    closing: watch::Receiver<bool>,
}

/// Why the server ends a live WebSocket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The server is full and this was the least recently active socket of the
    /// network holding the most.
    Evicted,
    /// The server is stopping.
    ShuttingDown,
}

impl LiveSocket {
    /// The client sent a message: the socket is in use, the last to be evicted.
    pub fn touch(&self) {
        if let Some(entry) = self.connections.lock().sockets.get_mut(&self.id) {
            entry.active = Instant::now();
        }
    }

    /// Waits until the server wants this socket closed.
    pub async fn ending(&mut self) -> Ending {
        tokio::select! {
            _ = self.evicted.notified() => Ending::Evicted,
            _ = turned_true(&mut self.closing) => Ending::ShuttingDown,
        }
    }
}

impl Drop for LiveSocket {
    fn drop(&mut self) {
        self.connections.lock().sockets.remove(&self.id);
    }
}

/// Waits until `flag` turns true; for ever once nobody can set it.
pub(super) async fn turned_true(flag: &mut watch::Receiver<bool>) {
    if flag.wait_for(|set| *set).await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// Which cap a connection is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Refusal {
    Address,
    Network,
    Server,
}

/// Seconds a client refused for its open connections is asked to wait
/// (`Retry-After`): one of them has to close first.
pub(super) const CONNECTION_RETRY_AFTER_SECS: u64 = 5;

impl Refusal {
    /// The status and the JSON body of the refusal.
    pub(super) fn answer(self) -> (StatusCode, &'static str) {
        match self {
            Refusal::Address => (
                StatusCode::TOO_MANY_REQUESTS,
                r#"{"error":"too many open connections from your address","code":"too_many_connections"}"#,
            ),
            Refusal::Network => (
                StatusCode::TOO_MANY_REQUESTS,
                r#"{"error":"too many open connections from your network","code":"too_many_connections_from_network"}"#,
            ),
            Refusal::Server => (
                StatusCode::SERVICE_UNAVAILABLE,
                r#"{"error":"the server has too many open connections; try again soon","code":"unavailable"}"#,
            ),
        }
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let (status, body) = self.answer();
        let mut response =
            (status, [(header::CONTENT_TYPE, "application/json")], body).into_response();
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, CONNECTION_RETRY_AFTER_SECS.into());
        response
    }
}
