//! What stands between the network and the routes: connection caps, timeouts, body
//! limits, security headers and JSON errors. The server listens on public addresses,
//! so every connection and request is assumed hostile until it has behaved.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{ready, Context, Poll};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::DefaultBodyLimit;
use axum::http::header::{self, HeaderName, HeaderValue};
use axum::http::{Response, StatusCode};
use axum::response::IntoResponse;
use axum::{Extension, Router};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use serde_json::json;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Notify};
use tower::{Layer, Service};
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;

/// The server's limits. The defaults suit a public server; tests shorten the times.
#[derive(Clone, Debug)]
pub struct Limits {
    /// A connection must send a whole request head within this (also between
    /// keep-alive requests), else it is closed: slow-header clients hold nothing long.
    pub header_read_timeout: Duration,
    /// A whole HTTP request, body included, must be answered within this (408).
    pub request_timeout: Duration,
    /// Open connections (WebSockets included) from one client address; IPv6
    /// addresses count per /64, the block one subscriber usually gets.
    pub max_connections_per_ip: usize,
    /// Open connections from one network: an IPv4 /24 or an IPv6 /48, what one holder
    /// of many addresses usually has.
    pub max_connections_per_network: usize,
    /// Open connections in all. When they are reached, the least recently active
    /// WebSocket of the network holding the most is closed (1013) to let a new
    /// client in.
    pub max_connections: usize,
    /// On shutdown, how long requests in flight may take to finish.
    pub drain_timeout: Duration,
    /// Largest HTTP request body (413 above).
    pub max_body: usize,
    /// Largest WebSocket message and frame (close 1009 above).
    pub ws_max_message: usize,
    /// The WebSocket's first message, the hello, must come within this.
    pub ws_hello_timeout: Duration,
    /// How often the server pings a WebSocket.
    pub ws_ping_interval: Duration,
    /// A WebSocket silent for this long (no pong, no message) is closed.
    pub ws_idle_timeout: Duration,
    /// Messages a WebSocket may send.
    pub ws_messages: Rate,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            header_read_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            max_connections_per_ip: 64,
            max_connections_per_network: 256,
            max_connections: 4096,
            drain_timeout: Duration::from_secs(10),
            max_body: 64 * 1024,
            ws_max_message: 64 * 1024,
            ws_hello_timeout: Duration::from_secs(10),
            ws_ping_interval: Duration::from_secs(20),
            ws_idle_timeout: Duration::from_secs(60),
            ws_messages: Rate {
                per_second: 20.0,
                burst: 40.0,
            },
        }
    }
}

/// A token bucket's rate: `per_second` on average, `burst` at once.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    pub per_second: f64,
    pub burst: f64,
}

/// A token bucket: each event takes a token; tokens come back at the rate's pace.
#[derive(Clone, Copy, Debug)]
pub struct TokenBucket {
    tokens: f64,
    last: Instant,
}

impl TokenBucket {
    /// A full bucket.
    pub fn new(rate: Rate) -> TokenBucket {
        TokenBucket {
            tokens: rate.burst,
            last: Instant::now(),
        }
    }

    fn refill(&mut self, rate: Rate, now: Instant) {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens = (self.tokens + elapsed * rate.per_second).min(rate.burst);
        self.last = now;
    }

    /// Takes a token, or says how long until there is one.
    pub fn take(&mut self, rate: Rate) -> Result<(), Duration> {
        self.refill(rate, Instant::now());
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            Ok(())
        } else {
            let wait = (1.0 - self.tokens) / rate.per_second.max(f64::MIN_POSITIVE);
            Err(Duration::from_secs_f64(wait.min(86_400.0)))
        }
    }

    /// Whether the bucket would be full by `now`: forgetting it changes nothing.
    fn is_full(&self, rate: Rate, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens + elapsed * rate.per_second >= rate.burst
    }
}

/// A token bucket per key: per client address (IPv6 per /64) by default, for
/// requests that cost the server something (creating tables, hints, replays), or per
/// seat. Memory is bounded: full buckets are forgotten, and past `max_clients` the
/// least recently seen half goes.
pub struct RateLimiter<K = IpAddr> {
    rate: Rate,
    max_clients: usize,
    buckets: Mutex<HashMap<K, TokenBucket>>,
}

impl RateLimiter<IpAddr> {
    /// Takes a token of `ip`'s bucket, or says how long until there is one.
    pub fn check(&self, ip: IpAddr) -> Result<(), Duration> {
        self.check_key(client_key(ip))
    }
}

impl<K: std::hash::Hash + Eq + Clone> RateLimiter<K> {
    pub fn new(rate: Rate) -> RateLimiter<K> {
        RateLimiter::with_capacity(rate, 100_000)
    }

    pub fn with_capacity(rate: Rate, max_clients: usize) -> RateLimiter<K> {
        RateLimiter {
            rate,
            max_clients: max_clients.max(2),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// A limiter of `per_minute` with a minute's worth at once; `None` for 0 (no cap).
    pub fn per_minute(per_minute: u32) -> Option<RateLimiter<K>> {
        let per_minute = f64::from(per_minute);
        (per_minute > 0.0).then(|| {
            RateLimiter::new(Rate {
                per_second: per_minute / 60.0,
                burst: per_minute,
            })
        })
    }

    /// Takes a token of `key`'s bucket, or says how long until there is one.
    pub fn check_key(&self, key: K) -> Result<(), Duration> {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() >= self.max_clients && !buckets.contains_key(&key) {
            self.prune(&mut buckets);
        }
        buckets
            .entry(key)
            .or_insert_with(|| TokenBucket::new(self.rate))
            .take(self.rate)
    }

    /// How many keys are remembered.
    pub fn len(&self) -> usize {
        self.buckets.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn prune(&self, buckets: &mut HashMap<K, TokenBucket>) {
        let now = Instant::now();
        buckets.retain(|_, b| !b.is_full(self.rate, now));
        if buckets.len() >= self.max_clients / 2 {
            // Many clients at once: keep the most recently seen half.
            let mut seen: Vec<Instant> = buckets.values().map(|b| b.last).collect();
            let middle = seen.len() - self.max_clients / 2;
            let (_, cut, _) = seen.select_nth_unstable(middle);
            let cut = *cut;
            buckets.retain(|_, b| b.last > cut);
        }
    }
}

/// The address a client is counted by: IPv4 as is, IPv6 by its /64.
pub fn client_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

/// The network a client is counted in as well: an IPv4 /24, an IPv6 /48.
pub fn network_key(ip: IpAddr) -> IpAddr {
    match client_key(ip) {
        IpAddr::V4(v4) => IpAddr::V4((u32::from(v4) & 0xffff_ff00).into()),
        IpAddr::V6(v6) => {
            let s = v6.segments();
            IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], 0, 0, 0, 0, 0))
        }
    }
}

/// A 429 answer with `Retry-After`.
pub fn too_many_requests(retry_after: Duration) -> axum::response::Response {
    let seconds = retry_after.as_secs() + u64::from(retry_after.subsec_nanos() > 0);
    let mut response = json_error(
        StatusCode::TOO_MANY_REQUESTS,
        "rate_limited",
        &format!("too many requests; try again in {seconds} s"),
    );
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
    response
}

/// An error answer as every error is: `{"error": …, "code": …}`.
pub fn json_error(status: StatusCode, code: &str, message: &str) -> axum::response::Response {
    (
        status,
        axum::Json(json!({ "error": message, "code": code })),
    )
        .into_response()
}

/// The `code` for an error status that came from outside the handlers.
fn status_code_key(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "bad_request",
        401 => "unauthorized",
        403 => "forbidden",
        404 => "not_found",
        405 => "method_not_allowed",
        408 => "timeout",
        409 => "conflict",
        413 => "too_large",
        414 => "uri_too_long",
        415 => "unsupported_media_type",
        416 => "range_not_satisfiable",
        422 => "unprocessable",
        426 => "upgrade_required",
        429 => "rate_limited",
        431 => "headers_too_large",
        503 => "unavailable",
        _ if status.is_server_error() => "internal",
        _ => "error",
    }
}

/// The Content-Security-Policy: no inline scripts. Styles allow `'unsafe-inline'` only
/// because the client sets `style` attributes (the Rumis colour swatches use
/// `setAttribute("style", …)`); scripts never run inline.
/// `connect-src 'self'` covers the page's own WebSocket (`ws:`/`wss:` to the same host)
/// in current browsers, and nothing else.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/// Wraps the routes in the request-level protections: security headers on every
/// answer, JSON for every error, a panic answers 500, the whole-request timeout and
/// the body limit. The request timeout covers a WebSocket only until its upgrade
/// answer; the live socket runs on its own clocks (see `live`).
pub fn protect(routes: Router, limits: &Limits) -> Router {
    let max_body = limits.max_body;
    let timeout = limits.request_timeout;
    let header = |name: HeaderName, value: &'static str| {
        SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value))
    };
    // Innermost first.
    routes
        .layer(Extension(limits.clone()))
        .layer(DefaultBodyLimit::max(max_body))
        .layer(RequestBodyLimitLayer::new(max_body))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            timeout,
        ))
        .layer(CatchPanicLayer::custom(|_| {
            json_error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                "the server failed on this request",
            )
        }))
        .layer(axum::middleware::map_response(
            move |response: axum::response::Response| json_errors(response, max_body, timeout),
        ))
        .layer(header(
            header::CONTENT_SECURITY_POLICY,
            CONTENT_SECURITY_POLICY,
        ))
        .layer(header(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(header(header::REFERRER_POLICY, "no-referrer"))
        .layer(header(header::X_FRAME_OPTIONS, "DENY"))
}

/// Refuses a write that is not JSON (415) before its handler runs, so that a hostile
/// page cannot write through a visitor's browser: a browser sends a cross-site form or
/// a `fetch` without asking the server first only with a form or text type, or none,
/// and never as `application/json`. A POST must say JSON even without a body (a
/// bodiless cross-site POST needs no permission); PUT, PATCH and DELETE cannot be sent
/// cross-site without permission, so they need it only when they carry a body.
pub async fn json_writes_only(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let method = request.method();
    let headers = request.headers();
    let content_type = headers.get(header::CONTENT_TYPE);
    let has_body = headers.contains_key(header::TRANSFER_ENCODING)
        || headers
            .get(header::CONTENT_LENGTH)
            .is_some_and(|length| length.as_bytes() != b"0");
    let must_be_json = if method == axum::http::Method::POST {
        true
    } else if [
        axum::http::Method::PUT,
        axum::http::Method::PATCH,
        axum::http::Method::DELETE,
    ]
    .contains(method)
    {
        has_body || content_type.is_some()
    } else {
        false
    };
    if must_be_json && !content_type.is_some_and(is_json) {
        return json_error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "a write must be sent as JSON, with Content-Type: application/json",
        );
    }
    next.run(request).await
}

/// Whether a Content-Type is `application/json` (parameters such as a charset allowed).
fn is_json(value: &HeaderValue) -> bool {
    let Ok(value) = value.to_str() else {
        return false;
    };
    let essence = value.split(';').next().unwrap_or("").trim();
    essence.eq_ignore_ascii_case("application/json")
}

/// Turns an error answer that is not JSON (extractor rejections, 405, the body limit,
/// the timeout, the static files' errors) into `{"error", "code"}`, keeping its status
/// and headers.
async fn json_errors(
    response: axum::response::Response,
    max_body: usize,
    timeout: Duration,
) -> axum::response::Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 4096).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&text);
    let message = match status {
        StatusCode::PAYLOAD_TOO_LARGE => {
            format!("the request is too large: at most {} KiB", max_body / 1024)
        }
        StatusCode::REQUEST_TIMEOUT => format!(
            "the request was not completed within {} s",
            timeout.as_secs_f64()
        ),
        StatusCode::METHOD_NOT_ALLOWED => "this method is not allowed here".into(),
        _ if !text.trim().is_empty() => text.trim().to_string(),
        _ => status
            .canonical_reason()
            .unwrap_or("the request failed")
            .to_string(),
    };
    let body = json!({ "error": message, "code": status_code_key(status) }).to_string();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.remove(header::CONTENT_ENCODING);
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Response::from_parts(parts, Body::from(body))
}

/// Seconds a refused client is told to wait (`Retry-After`): places free up as other
/// connections close, which no clock predicts.
const CONNECTION_RETRY_AFTER_SECS: u64 = 5;

/// Hyper's read buffer, which bounds a request head (431 well above it).
const MAX_HEAD: usize = 64 * 1024;

/// Open connections, counted per address, per network and in all, and the live
/// WebSockets among them: those can make room for a new client when the server is full.
struct Connections {
    open: Mutex<Open>,
    /// Woken when the last connection closes: the drain waits for it.
    emptied: Notify,
    /// Turns true when the server stops: connections finish and sockets close.
    closing: watch::Sender<bool>,
}

#[derive(Default)]
struct Open {
    total: usize,
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
    fn new() -> Arc<Connections> {
        Arc::new(Connections {
            open: Mutex::default(),
            emptied: Notify::new(),
            closing: watch::Sender::new(false),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Open> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for a connection from `ip`, or the answer when a cap is reached.
    fn open(self: &Arc<Self>, ip: IpAddr, limits: &Limits) -> Result<ConnectionSlot, Refusal> {
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
    async fn emptied(&self) {
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
async fn turned_true(flag: &mut watch::Receiver<bool>) {
    if flag.wait_for(|set| *set).await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// Which cap a connection is over.
enum Refusal {
    Address,
    Network,
    Server,
}

/// Serves `app` on `listener` with the connection limits (caps per address, per
/// network and in all, the header read timeout) and the client's address for
/// `ConnectInfo<SocketAddr>`, until `stop` turns true. Then it stops accepting, lets
/// requests in flight finish (within `limits.drain_timeout`), has WebSockets close
/// with 1001 and returns.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    mut stop: watch::Receiver<bool>,
) -> std::io::Result<()> {
    let connections = Connections::new();
    let mut make_service = app.into_make_service_with_connect_info::<SocketAddr>();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        .max_buf_size(MAX_HEAD);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = turned_true(&mut stop) => break,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of file descriptors and the like: wait instead of spinning.
                tracing::warn!("accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let slot = match connections.open(peer.ip(), &limits) {
            Ok(slot) => slot,
            Err(refusal) => {
                refuse(stream, refusal);
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let service: Result<_, Infallible> = make_service.call(peer).await;
        let Ok(service) = service;
        let service = TowerToHyperService::new(Extension(slot.clone()).layer(service));
        let connection = http
            .serve_connection(TokioIo::new(JsonHttpErrors::new(stream)), service)
            .with_upgrades();
        let mut closing = connections.closing.subscribe();
        tokio::spawn(async move {
            let _slot = slot;
            let mut connection = std::pin::pin!(connection);
            let result = tokio::select! {
                result = connection.as_mut() => result,
                _ = turned_true(&mut closing) => {
                    // Finish the request in flight, if any, then close.
                    connection.as_mut().graceful_shutdown();
                    connection.await
                }
            };
            if let Err(e) = result {
                tracing::debug!("connection from {peer}: {e}");
            }
        });
    }
    drop(listener);
    connections.closing.send_replace(true);
    if tokio::time::timeout(limits.drain_timeout, connections.emptied())
        .await
        .is_err()
    {
        let open = connections.lock().total;
        tracing::warn!(
            "{open} connections still open after {} s; leaving them",
            limits.drain_timeout.as_secs_f64()
        );
    }
    Ok(())
}

/// Answers 429 (503 when the whole server is full and no WebSocket can make room) if
/// the socket takes it at once, and closes the connection: a refused client costs no
/// task and no waiting.
fn refuse(stream: TcpStream, refusal: Refusal) {
    let (status, body) = match refusal {
        Refusal::Address => (
            "429 Too Many Requests",
            r#"{"error":"too many open connections from your address","code":"too_many_connections"}"#,
        ),
        Refusal::Network => (
            "429 Too Many Requests",
            r#"{"error":"too many open connections from your network","code":"too_many_connections_from_network"}"#,
        ),
        Refusal::Server => (
            "503 Service Unavailable",
            r#"{"error":"the server has too many open connections; try again soon","code":"unavailable"}"#,
        ),
    };
    let response = format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\nretry-after: {CONNECTION_RETRY_AFTER_SECS}\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.try_write(response.as_bytes());
}

/// The socket as hyper sees it. Hyper answers a request it cannot read (a malformed
/// request line or header, a head over the limit) itself, with an empty body, and
/// closes; this writes those answers as JSON like every other error instead.
struct JsonHttpErrors {
    stream: TcpStream,
    /// A JSON answer being written in place of hyper's, and how much of it is out.
    pending: Vec<u8>,
    written: usize,
}

impl JsonHttpErrors {
    fn new(stream: TcpStream) -> JsonHttpErrors {
        JsonHttpErrors {
            stream,
            pending: Vec::new(),
            written: 0,
        }
    }

    fn poll_pending(&mut self, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        while self.written < self.pending.len() {
            let n =
                ready!(Pin::new(&mut self.stream).poll_write(cx, &self.pending[self.written..]))?;
            if n == 0 {
                return Poll::Ready(Err(std::io::ErrorKind::WriteZero.into()));
            }
            self.written += n;
        }
        if !self.pending.is_empty() {
            self.pending = Vec::new();
            self.written = 0;
        }
        Poll::Ready(Ok(()))
    }
}

/// The JSON answer for hyper's own answer to an unreadable request, if `head` is one:
/// a lone response head of 400, 414 or 431 with an empty body and no content type
/// (every answer of the routes has one).
fn json_for_hyper_error(head: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(head).ok()?;
    let rest = text.strip_prefix("HTTP/1.1 ")?;
    if !rest.ends_with("\r\n\r\n") || rest.matches("\r\n\r\n").count() != 1 {
        return None;
    }
    let lower = rest.to_ascii_lowercase();
    if !lower.contains("\r\ncontent-length: 0\r\n") || lower.contains("\r\ncontent-type:") {
        return None;
    }
    let (status, code, message) = match rest.get(..4)? {
        "400 " => (
            "400 Bad Request",
            "bad_request",
            "the request cannot be read: its request line or a header is malformed",
        ),
        "414 " => (
            "414 URI Too Long",
            "uri_too_long",
            "the request's address is too long",
        ),
        "431 " => (
            "431 Request Header Fields Too Large",
            "headers_too_large",
            "the request's headers are too large, or too many",
        ),
        _ => return None,
    };
    let body = json!({ "error": message, "code": code }).to_string();
    Some(
        format!(
            "HTTP/1.1 {status}\r\ncontent-type: application/json\r\nx-content-type-options: nosniff\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        )
        .into_bytes(),
    )
}

impl AsyncRead for JsonHttpErrors {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for JsonHttpErrors {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        ready!(self.poll_pending(cx))?;
        // Cheap first: only a write that starts like an error head is looked at.
        if buf.starts_with(b"HTTP/1.1 4") {
            if let Some(answer) = json_for_hyper_error(buf) {
                self.pending = answer;
                return match self.poll_pending(cx) {
                    Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
                    // The rest goes out on the next write, flush or shutdown.
                    _ => Poll::Ready(Ok(buf.len())),
                };
            }
        }
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

pub use crate::redact::redact_url;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_allows_its_burst_then_its_rate() {
        let rate = Rate {
            per_second: 10.0,
            burst: 3.0,
        };
        let limiter = RateLimiter::new(rate);
        let ip: IpAddr = "203.0.113.7".parse().unwrap();
        for _ in 0..3 {
            assert!(limiter.check(ip).is_ok());
        }
        let wait = limiter.check(ip).unwrap_err();
        assert!(wait <= Duration::from_millis(100), "{wait:?}");
        // Another address has its own bucket; an IPv6 /64 shares one.
        assert!(limiter.check("203.0.113.8".parse().unwrap()).is_ok());
        let a: IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
        for _ in 0..3 {
            assert!(limiter.check(a).is_ok());
        }
        assert!(limiter.check(b).is_err());
        std::thread::sleep(Duration::from_millis(120));
        assert!(limiter.check(ip).is_ok());
    }

    #[test]
    fn the_limiter_forgets_clients_past_its_capacity() {
        let rate = Rate {
            per_second: 0.001,
            burst: 1.0,
        };
        let limiter = RateLimiter::with_capacity(rate, 100);
        for i in 0..10_000u32 {
            let ip = IpAddr::from(std::net::Ipv4Addr::from(0x0a00_0000 + i));
            assert!(limiter.check(ip).is_ok());
            assert!(limiter.len() <= 100);
        }
        // The most recent client is remembered: its bucket is empty.
        let last = IpAddr::from(std::net::Ipv4Addr::from(0x0a00_0000 + 9_999));
        assert!(limiter.check(last).is_err());
    }

    #[test]
    fn networks_are_ipv4_slash_24_and_ipv6_slash_48() {
        let key = |ip: &str| network_key(ip.parse().unwrap());
        assert_eq!(key("192.0.2.77"), key("192.0.2.1"));
        assert_ne!(key("192.0.2.77"), key("192.0.3.77"));
        assert_eq!(key("2001:db8:1:2::1"), key("2001:db8:1:ffff::9"));
        assert_ne!(key("2001:db8:1::1"), key("2001:db8:2::1"));
        assert_eq!(key("::ffff:192.0.2.9"), key("192.0.2.1"));
    }

    #[test]
    fn an_ipv4_mapped_address_counts_as_ipv4() {
        let mapped: IpAddr = "::ffff:192.0.2.1".parse().unwrap();
        assert_eq!(client_key(mapped), "192.0.2.1".parse::<IpAddr>().unwrap());
    }
}
