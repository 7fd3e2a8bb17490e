//! What stands between the network and the routes: connection caps, timeouts, body
//! limits, security headers and JSON errors. The server listens on public addresses,
//! so every connection and request is assumed hostile until it has behaved.
//!
//! [`rate`] holds the rate limits (`governor`), per client and per WebSocket;
//! [`connections`] counts open connections against their caps (a cap on how many at
//! once, which no rate limiter expresses), [`listener`] accepts them, [`forwarded`]
//! finds the client behind a trusted balancer.

mod connections;
mod forwarded;
mod listener;
mod rate;

use std::time::Duration;

use crate::wire::{ErrorBody, ErrorCode};
use axum::body::Body;
use axum::extract::DefaultBodyLimit;
use axum::http::header::{self, HeaderName, HeaderValue};
use axum::http::{Response, StatusCode};
use axum::response::IntoResponse;
use axum::{Extension, Router};
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;

pub use connections::{ConnectionSlot, Ending, LiveSocket};
pub use forwarded::{client_behind, parse_proxy};
pub use ipnet::IpNet;
pub use listener::serve;
pub use rate::{client_key, network_key, DirectLimiter, Rate, RateLimiter};

pub use crate::redact::redact_url;

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
    /// Balancers whose connections carry the client's address in `Forwarded` or
    /// `X-Forwarded-For`: every per-address limit then counts that client. Those
    /// headers from anyone else are ignored, so nobody can claim another address.
    pub trusted_proxies: Vec<ipnet::IpNet>,
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
            trusted_proxies: Vec::new(),
        }
    }
}

/// A 429 answer with `Retry-After`.
pub fn too_many_requests(retry_after: Duration) -> axum::response::Response {
    let seconds = retry_after.as_secs() + u64::from(retry_after.subsec_nanos() > 0);
    let mut response = json_error(
        StatusCode::TOO_MANY_REQUESTS,
        ErrorCode::RateLimited,
        &format!("too many requests; try again in {seconds} s"),
    );
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
    response
}

/// An error answer as every error is: `{"error": …, "code": …}`.
pub fn json_error(status: StatusCode, code: ErrorCode, message: &str) -> axum::response::Response {
    (
        status,
        axum::Json(ErrorBody {
            error: message.to_string(),
            code,
            why: None,
        }),
    )
        .into_response()
}

/// The `code` for an error status that came from outside the handlers.
fn status_code_key(status: StatusCode) -> ErrorCode {
    match status.as_u16() {
        400 => ErrorCode::BadRequest,
        401 => ErrorCode::Unauthorized,
        403 => ErrorCode::Forbidden,
        404 => ErrorCode::NotFound,
        405 => ErrorCode::MethodNotAllowed,
        408 => ErrorCode::Timeout,
        409 => ErrorCode::Conflict,
        413 => ErrorCode::TooLarge,
        414 => ErrorCode::UriTooLong,
        415 => ErrorCode::UnsupportedMediaType,
        416 => ErrorCode::RangeNotSatisfiable,
        422 => ErrorCode::Unprocessable,
        426 => ErrorCode::UpgradeRequired,
        429 => ErrorCode::RateLimited,
        431 => ErrorCode::HeadersTooLarge,
        503 => ErrorCode::Unavailable,
        _ if status.is_server_error() => ErrorCode::Internal,
        _ => ErrorCode::Error,
    }
}

/// The Content-Security-Policy: no inline scripts. Styles allow `'unsafe-inline'` only
/// because the client sets `style` attributes (the Rumis colour swatches use
/// `setAttribute("style", …)`); scripts never run inline.
/// `connect-src 'self'` covers the page's own WebSocket (`ws:`/`wss:` to the same host)
/// in current browsers, and nothing else. `'wasm-unsafe-eval'` lets the page compile
/// WebAssembly (the Rummikub rules module, crates/rules-wasm, fetched from the site
/// itself); it allows no JavaScript `eval`.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

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
                ErrorCode::Internal,
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
            ErrorCode::UnsupportedMediaType,
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
    let body = serde_json::to_string(&ErrorBody {
        error: message.to_string(),
        code: status_code_key(status),
        why: None,
    })
    .expect("an error serialises");
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.remove(header::CONTENT_ENCODING);
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Response::from_parts(parts, Body::from(body))
}
