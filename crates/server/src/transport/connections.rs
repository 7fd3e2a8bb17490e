//! Open connections counted per address, per network and in all, and the live
//! WebSockets the server may close to make room.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

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
    address: IpAddr,
    network: IpAddr,
    /// When the client last sent a message (or opened the socket).
    active: Instant,
    /// The connection's place in the counts (shared with its slot).
    counted: Arc<AtomicBool>,
    evicted: Arc<Notify>,
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
    fn count(&mut self, address: IpAddr, network: IpAddr) {
        self.total += 1;
        *self.per_address.entry(address).or_insert(0) += 1;
        *self.per_network.entry(network).or_insert(0) += 1;
    }

    fn forget(&mut self, address: IpAddr, network: IpAddr) {
        self.total -= 1;
        decrement(&mut self.per_address, address);
        decrement(&mut self.per_network, network);
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
                (
                    self.per_network.get(&s.network).copied().unwrap_or(0),
                    self.per_address.get(&s.address).copied().unwrap_or(0),
                    std::cmp::Reverse(s.active),
                )
            })
            .map(|(id, _)| *id);
        let Some(socket) = victim.and_then(|id| self.sockets.remove(&id)) else {
            return false;
        };
        if socket.counted.swap(false, Ordering::SeqCst) {
            self.forget(socket.address, socket.network);
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

    /// A place for a connection from `ip`, or the answer when a cap is reached.
    pub(super) fn open(
        self: &Arc<Self>,
        ip: IpAddr,
        limits: &Limits,
    ) -> Result<ConnectionSlot, Refusal> {
        let address = client_key(ip);
        let network = network_key(ip);
        let mut open = self.lock();
        if open.per_address.get(&address).copied().unwrap_or(0) >= limits.max_connections_per_ip {
            return Err(Refusal::Address);
        }
        if open.per_network.get(&network).copied().unwrap_or(0)
            >= limits.max_connections_per_network
        {
            return Err(Refusal::Network);
        }
        if open.total >= limits.max_connections && !open.evict() {
            return Err(Refusal::Server);
        }
        open.count(address, network);
        Ok(ConnectionSlot(Arc::new(SlotInner {
            connections: self.clone(),
            address,
            network,
            counted: Arc::new(AtomicBool::new(true)),
        })))
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
    address: IpAddr,
    network: IpAddr,
    /// False once the place is given up (the connection was evicted).
    counted: Arc<AtomicBool>,
}

impl Drop for SlotInner {
    fn drop(&mut self) {
        let mut open = self.connections.lock();
        if self.counted.swap(false, Ordering::SeqCst) {
            open.forget(self.address, self.network);
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
        open.sockets.insert(
            id,
            SocketEntry {
                address: inner.address,
                network: inner.network,
                active: Instant::now(),
                counted: inner.counted.clone(),
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
pub(super) enum Refusal {
    Address,
    Network,
    Server,
}
