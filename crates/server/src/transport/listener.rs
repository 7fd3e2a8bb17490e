//! The accept loop: caps and timeouts on every connection, a drain on shutdown, and
//! JSON for the errors hyper answers itself.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};
use std::time::Duration;

use axum::{Extension, Router};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower::{Layer, Service};

use super::connections::{turned_true, Connections, Refusal, CONNECTION_RETRY_AFTER_SECS};
use super::forwarded::{forwarded_client, Forwarding};
use super::Limits;
use crate::wire::{ErrorBody, ErrorCode};

/// Hyper's read buffer, which bounds a request head (431 well above it).
const MAX_HEAD: usize = 64 * 1024;

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
    let trusted = limits.trusted_proxies.clone();
    let app = if trusted.is_empty() {
        app
    } else {
        let forwarding = Arc::new(Forwarding {
            trusted: trusted.clone(),
            connections: connections.clone(),
            limits: limits.clone(),
        });
        app.layer(axum::middleware::from_fn_with_state(
            forwarding,
            forwarded_client,
        ))
    };
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
        let proxy = trusted.iter().any(|net| net.contains(&peer.ip()));
        let slot = match connections.open(peer.ip(), proxy, &limits) {
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
    let (status, body) = refusal.answer();
    let response = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\nretry-after: {CONNECTION_RETRY_AFTER_SECS}\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        status.as_u16(),
        status.canonical_reason().unwrap_or(""),
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
            ErrorCode::BadRequest,
            "the request cannot be read: its request line or a header is malformed",
        ),
        "414 " => (
            "414 URI Too Long",
            ErrorCode::UriTooLong,
            "the request's address is too long",
        ),
        "431 " => (
            "431 Request Header Fields Too Large",
            ErrorCode::HeadersTooLarge,
            "the request's headers are too large, or too many",
        ),
        _ => return None,
    };
    let body = serde_json::to_string(&ErrorBody {
        error: message.to_string(),
        code,
        why: None,
    })
    .expect("an error serialises");
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
