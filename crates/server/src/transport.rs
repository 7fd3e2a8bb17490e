//! What stands between the network and the routes: connection caps, timeouts, body
//! limits, security headers and JSON errors. The server listens on public addresses,
//! so every connection and request is assumed hostile until it has behaved.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::sync::{Arc, Mutex};
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
use tokio::net::{TcpListener, TcpStream};
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
    /// Open connections in all.
    pub max_connections: usize,
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
            max_connections: 4096,
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

/// A token bucket per client address (IPv6 per /64), for requests that cost the server
/// something (creating tables). Memory is bounded: full buckets are forgotten, and past
/// `max_clients` the least recently seen half goes.
pub struct RateLimiter {
    rate: Rate,
    max_clients: usize,
    buckets: Mutex<HashMap<IpAddr, TokenBucket>>,
}

impl RateLimiter {
    pub fn new(rate: Rate) -> RateLimiter {
        RateLimiter::with_capacity(rate, 100_000)
    }

    pub fn with_capacity(rate: Rate, max_clients: usize) -> RateLimiter {
        RateLimiter {
            rate,
            max_clients: max_clients.max(2),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes a token of `ip`'s bucket, or says how long until there is one.
    pub fn check(&self, ip: IpAddr) -> Result<(), Duration> {
        let key = client_key(ip);
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() >= self.max_clients && !buckets.contains_key(&key) {
            self.prune(&mut buckets);
        }
        buckets
            .entry(key)
            .or_insert_with(|| TokenBucket::new(self.rate))
            .take(self.rate)
    }

    /// How many addresses are remembered.
    pub fn len(&self) -> usize {
        self.buckets.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn prune(&self, buckets: &mut HashMap<IpAddr, TokenBucket>) {
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
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

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

/// Counts open connections, per client and in all.
#[derive(Default)]
struct Connections {
    open: Mutex<(usize, HashMap<IpAddr, usize>)>,
}

/// One open connection's place in the count, given back when the last clone is
/// dropped. Requests carry a clone (an extension), so that a WebSocket keeps its
/// connection's place after the HTTP connection has handed it over.
#[derive(Clone)]
pub struct ConnectionSlot(#[allow(dead_code)] Arc<SlotInner>);

struct SlotInner {
    connections: Arc<Connections>,
    key: IpAddr,
}

impl Drop for SlotInner {
    fn drop(&mut self) {
        let mut open = self
            .connections
            .open
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        open.0 -= 1;
        if let Some(n) = open.1.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                open.1.remove(&self.key);
            }
        }
    }
}

impl Connections {
    /// A place for a connection from `ip`, or the answer when a cap is reached.
    fn open(self: &Arc<Self>, ip: IpAddr, limits: &Limits) -> Result<ConnectionSlot, Refusal> {
        let key = client_key(ip);
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if open.1.get(&key).copied().unwrap_or(0) >= limits.max_connections_per_ip {
            return Err(Refusal::Client);
        }
        if open.0 >= limits.max_connections {
            return Err(Refusal::Server);
        }
        open.0 += 1;
        *open.1.entry(key).or_insert(0) += 1;
        Ok(ConnectionSlot(Arc::new(SlotInner {
            connections: self.clone(),
            key,
        })))
    }
}

/// Which cap a connection is over.
enum Refusal {
    Client,
    Server,
}

/// Serves `app` on `listener` with the connection limits: caps per client and in all,
/// the header read timeout, and the client's address for `ConnectInfo<SocketAddr>`.
pub async fn serve(listener: TcpListener, app: Router, limits: Limits) -> std::io::Result<()> {
    let connections = Arc::new(Connections::default());
    let mut make_service = app.into_make_service_with_connect_info::<SocketAddr>();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        .max_buf_size(64 * 1024);
    loop {
        let (stream, peer) = match listener.accept().await {
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
            .serve_connection(TokioIo::new(stream), service)
            .with_upgrades();
        tokio::spawn(async move {
            let _slot = slot;
            if let Err(e) = connection.await {
                tracing::debug!("connection from {peer}: {e}");
            }
        });
    }
}

/// Answers 429 (503 when the whole server is full) if the socket takes it at once,
/// and closes the connection: a refused client costs no task and no waiting.
fn refuse(stream: TcpStream, refusal: Refusal) {
    let (status, body) = match refusal {
        Refusal::Client => (
            "429 Too Many Requests",
            r#"{"error":"too many open connections from your address","code":"too_many_connections"}"#,
        ),
        Refusal::Server => (
            "503 Service Unavailable",
            r#"{"error":"the server has too many open connections; try again soon","code":"unavailable"}"#,
        ),
    };
    let response = format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.try_write(response.as_bytes());
}

/// A database address fit for logs: `postgres://user:***@host/db`.
pub fn redact_url(url: &str) -> String {
    let Some(start) = url.find("://").map(|i| i + 3) else {
        return url.to_string();
    };
    let (head, rest) = url.split_at(start);
    let query_at = rest.find('?').unwrap_or(rest.len());
    let (authority_and_path, query) = rest.split_at(query_at);
    let mut out = head.to_string();
    match authority_and_path.rfind('@') {
        Some(at) => {
            let user_info = &authority_and_path[..at];
            match user_info.find(':') {
                Some(colon) => {
                    out.push_str(&user_info[..colon]);
                    out.push_str(":***");
                }
                None => out.push_str(user_info),
            }
            out.push_str(&authority_and_path[at..]);
        }
        None => out.push_str(authority_and_path),
    }
    if let Some(params) = query.strip_prefix('?') {
        out.push('?');
        let params: Vec<String> = params
            .split('&')
            .map(|p| match p.split_once('=') {
                Some((key, _)) if key.to_ascii_lowercase().ends_with("password") => {
                    format!("{key}=***")
                }
                _ => p.to_string(),
            })
            .collect();
        out.push_str(&params.join("&"));
    }
    out
}

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
    fn an_ipv4_mapped_address_counts_as_ipv4() {
        let mapped: IpAddr = "::ffff:192.0.2.1".parse().unwrap();
        assert_eq!(client_key(mapped), "192.0.2.1".parse::<IpAddr>().unwrap());
    }
}
