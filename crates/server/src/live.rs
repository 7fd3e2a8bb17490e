//! Live tables over WebSocket (`GET /api/tables/{id}/ws`): the seat's view on hello and
//! after every change; actions sent on the socket take the same path as HTTP actions.
//!
//! A socket that asked for patches at hello gets, after the first whole view, only what
//! changed since the view it sent last (`patch`, RFC 6902), or the whole view when that
//! is shorter or the client asks (`resync`). An action with an `id` is answered: `ack`
//! after the view with its change was sent, or `error` with the same id. The views come
//! from [`crate::hub::views`]: built once per change and viewer, shared by the sockets.
//!
//! The seat token comes in the first message, `{"type":"hello","token":…}`, never in
//! the address (addresses end up in logs and histories). The socket is bounded: message
//! size (close 1009), time to say hello, pings with an idle cut-off, and a message rate.

use std::borrow::Cow;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use tokio::time::{sleep_until, Instant};

use crate::error::ApiError;
use crate::hub::{BuiltView, Hub, Table};
use crate::transport::{json_error, ConnectionSlot, DirectLimiter, Ending, Limits, LiveSocket};
use crate::wire::{ClientMessage, ErrorCode, ServerMessage};

/// A WebSocket key: 16 bytes in base64 (RFC 6455 §4.1).
pub const WEBSOCKET_KEY_PATTERN: &str = "^[A-Za-z0-9+/]{21}[AQgw]==$";

/// Whether `key` is a WebSocket key ([`WEBSOCKET_KEY_PATTERN`]).
fn valid_key(key: &str) -> bool {
    static PATTERN: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    PATTERN
        .get_or_init(|| regex::Regex::new(WEBSOCKET_KEY_PATTERN).expect("a valid pattern"))
        .is_match(key)
}

/// Close codes (RFC 6455 §7.4.1; 1013 from the IANA registry).
const GOING_AWAY: u16 = 1001;
const POLICY: u16 = 1008;
const TOO_BIG: u16 = 1009;
const TRY_AGAIN_LATER: u16 = 1013;

/// The socket's read buffer. The library's default (128 KiB, zeroed, so resident) made
/// an idle socket cost about 144 KB; client messages are small, and a larger frame
/// grows the buffer for as long as it needs (up to `Limits::ws_max_message`).
const READ_BUFFER: usize = 4 * 1024;

#[derive(Deserialize)]
pub struct WsQuery {
    token: Option<String>,
}

/// The live connection (WebSocket): send `{"type": "hello", "token": …, "patches": true}`
/// first; then the whole view (`state`) arrives, and after every change a `patch` (or,
/// without `patches`, a `state`). Actions with an `id` get an `ack` or an `error` with
/// that id (see `ClientMessage`, `ServerMessage`).
/// The upgrade refuses a token in the address, and an unknown table, before upgrading.
#[utoipa::path(get, path = "/api/tables/{id}/ws",
    params(("id" = crate::wire::TableId, Path)),
    responses(
        (status = 101, description = "Switching to the WebSocket protocol"),
        (status = 400, body = crate::wire::ErrorBody, description = "Not a WebSocket upgrade (its headers), a key that is not 16 bytes in base64, or a token in the address"),
        (status = 404, body = crate::wire::ErrorBody),
    ))]
pub async fn websocket(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(query): Query<WsQuery>,
    limits: Option<Extension<Limits>>,
    slot: Option<Extension<ConnectionSlot>>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    if query.token.is_some() {
        return json_error(
            StatusCode::BAD_REQUEST,
            ErrorCode::TokenInUrl,
            "send the seat token in the hello message, not in the address",
        );
    }
    let key = headers
        .get(header::SEC_WEBSOCKET_KEY)
        .and_then(|k| k.to_str().ok());
    if !key.is_some_and(valid_key) {
        return json_error(
            StatusCode::BAD_REQUEST,
            ErrorCode::BadWebsocketKey,
            "Sec-WebSocket-Key must be 16 bytes in base64 (RFC 6455)",
        );
    }
    let table = match hub.table(&id).await {
        Ok(table) => table,
        Err(e) => return e.into_response(),
    };
    let limits = limits.map(|Extension(l)| l).unwrap_or_default();
    upgrade
        .max_message_size(limits.ws_max_message)
        .max_frame_size(limits.ws_max_message)
        .read_buffer_size(READ_BUFFER)
        // Every message is flushed as it is sent: nothing to gather.
        .write_buffer_size(0)
        .on_upgrade(move |socket| async move {
            // The connection keeps its place in the connection count while it lives,
            // and is one the server may close to make room or when it stops.
            let entry = slot.as_ref().map(|Extension(slot)| slot.live_socket());
            live(hub, table, socket, limits, entry).await;
            drop(slot);
        })
}

/// The kind of a client message, read without reading the rest.
#[derive(Deserialize)]
struct Kind<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
}

/// Why the server ends a socket.
struct Close {
    code: u16,
    reason: String,
}

impl Close {
    fn new(code: u16, reason: impl Into<String>) -> Close {
        Close {
            code,
            reason: reason.into(),
        }
    }
}

/// One socket. `Err(None)` from a step: the client went away; `Err(Some(close))`: the
/// server ends the socket with that reason.
struct Socket {
    sender: SplitSink<WebSocket, Message>,
    receiver: SplitStream<WebSocket>,
    limits: Limits,
    /// The socket's message rate (`Limits::ws_messages`).
    messages: DirectLimiter,
    /// Messages refused in a row for the rate; too many and the socket is closed.
    refused: u32,
    last_heard: Instant,
    /// The socket's entry among the connections (none when served without them).
    entry: Option<LiveSocket>,
    /// The client asked for patches at hello.
    patches: bool,
    /// The view this socket sent last: what the client holds, and what the next patch
    /// starts from.
    sent: Option<Arc<BuiltView>>,
}

type Step<T> = Result<T, Option<Close>>;

async fn live(
    hub: Arc<Hub>,
    table: Arc<Table>,
    socket: WebSocket,
    limits: Limits,
    entry: Option<LiveSocket>,
) {
    let (sender, receiver) = socket.split();
    let mut socket = Socket {
        sender,
        receiver,
        messages: DirectLimiter::new(limits.ws_messages),
        limits,
        refused: 0,
        last_heard: Instant::now(),
        entry,
        patches: false,
        sent: None,
    };
    let seat = match socket.hello(&table).await {
        Ok(seat) => seat,
        Err(end) => return socket.end(end).await,
    };
    hub.connect(&table, seat, 1).await;
    let end = socket.run(&hub, &table, seat).await;
    drop(socket.sent.take());
    hub.connect(&table, seat, -1).await;
    if table.changes.receiver_count() == 0 {
        table.forget_views();
    }
    socket.end(end.err().flatten()).await;
}

impl Socket {
    /// Waits for the hello; answers the seat of its token (`None`: a spectator).
    async fn hello(&mut self, table: &Arc<Table>) -> Step<Option<usize>> {
        let deadline = Instant::now() + self.limits.ws_hello_timeout;
        loop {
            let text = tokio::select! {
                _ = sleep_until(deadline) => {
                    return Err(Some(Close::new(POLICY, format!(
                        "no hello within {} s",
                        self.limits.ws_hello_timeout.as_secs_f64()
                    ))));
                }
                ending = ending(&mut self.entry) => return Err(Some(ending)),
                incoming = self.receiver.next() => match self.receive(incoming).await? {
                    Some(text) => text,
                    None => continue,
                },
            };
            let hello_first = || {
                ApiError::bad_request(
                    ErrorCode::HelloFirst,
                    "send {\"type\":\"hello\",\"token\":…} first",
                )
            };
            let hello = match kind_of(text.as_str()) {
                Ok("hello") => parse(text.as_str()),
                Ok(_) => Err(hello_first()),
                Err(e) => Err(e),
            };
            let token = match hello {
                Ok(ClientMessage::Hello { token, patches }) => {
                    self.patches = patches.unwrap_or(false);
                    token
                }
                Ok(ClientMessage::Action { .. } | ClientMessage::Resync) => {
                    return Err(self.refuse_and_close(&hello_first()).await)
                }
                Err(e) => return Err(self.refuse_and_close(&e).await),
            };
            let seat = async {
                let mut state = table.state.lock().await;
                let seat = state.seat_of(token.as_deref())?;
                if let Some(seat) = seat {
                    state.seen(seat);
                }
                Ok::<_, ApiError>(seat)
            }
            .await;
            return match seat {
                Ok(seat) => Ok(seat),
                Err(e) => Err(self.refuse_and_close(&e).await),
            };
        }
    }

    /// The view on hello and after every change, actions, pings and the idle cut-off.
    async fn run(&mut self, hub: &Arc<Hub>, table: &Arc<Table>, seat: Option<usize>) -> Step<()> {
        let mut changes = table.changes.subscribe();
        let mut ping = tokio::time::interval_at(
            Instant::now() + self.limits.ws_ping_interval,
            self.limits.ws_ping_interval,
        );
        ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        changes.mark_unchanged();
        self.send_view(hub, table, seat, true).await?;
        loop {
            let idle_until = self.last_heard + self.limits.ws_idle_timeout;
            tokio::select! {
                changed = changes.changed() => {
                    if changed.is_err() {
                        return Err(Some(Close::new(GOING_AWAY, "the table is closed")));
                    }
                    changes.mark_unchanged();
                    self.send_view(hub, table, seat, false).await?;
                }
                _ = ping.tick() => self.write(Message::Ping(Default::default())).await?,
                ending = ending(&mut self.entry) => return Err(Some(ending)),
                _ = sleep_until(idle_until) => {
                    return Err(Some(Close::new(GOING_AWAY, format!(
                        "no answer to pings for {} s",
                        self.limits.ws_idle_timeout.as_secs_f64()
                    ))));
                }
                incoming = self.receiver.next() => {
                    if let Some(text) = self.receive(incoming).await? {
                        match socket_message(hub, table, seat, text.as_str()).await {
                            Ok(Answer::Resync) => self.send_view(hub, table, seat, true).await?,
                            Ok(Answer::Stored { id, version }) => {
                                // The view with the action goes first, so that a client
                                // holds it when the ack arrives.
                                changes.mark_unchanged();
                                self.send_view(hub, table, seat, false).await?;
                                if let Some(id) = id {
                                    self.send(ServerMessage::Ack { id, version }).await?;
                                }
                            }
                            Err((e, id)) => self.refuse(&e, id).await?,
                        }
                    }
                }
            }
        }
    }

    /// Sends the table's latest view: the whole view when `whole` or nothing was sent
    /// yet; otherwise a patch from the view sent last (with patches; nothing when the
    /// views are equal), or the view without its fixed parts (without patches).
    async fn send_view(
        &mut self,
        hub: &Arc<Hub>,
        table: &Arc<Table>,
        seat: Option<usize>,
        whole: bool,
    ) -> Step<()> {
        let view = table.shared_view(seat, hub.metrics()).await;
        let text = match &self.sent {
            Some(sent) if !whole && self.patches => match view.message_from(sent) {
                Some(text) => text,
                None => return Ok(()),
            },
            Some(_) if !whole => view.update_message(),
            _ => view.state_message(),
        };
        self.write(Message::Text(text)).await?;
        self.sent = Some(view);
        Ok(())
    }

    /// Reads one incoming message: `Some(text)` for a text message within the rate,
    /// `None` for anything to skip (pongs, refused messages).
    async fn receive(
        &mut self,
        incoming: Option<Result<Message, axum::Error>>,
    ) -> Step<Option<Utf8Bytes>> {
        let message = match incoming {
            None => return Err(None),
            Some(Ok(message)) => message,
            Some(Err(e)) if too_big(&e) => {
                return Err(Some(Close::new(
                    TOO_BIG,
                    format!(
                        "a message may have at most {} KiB",
                        self.limits.ws_max_message / 1024
                    ),
                )))
            }
            Some(Err(_)) => return Err(None),
        };
        self.last_heard = Instant::now();
        if let Message::Close(_) = message {
            return Err(None);
        }
        if self.messages.take().is_err() {
            self.refused += 1;
            if f64::from(self.refused) >= self.limits.ws_messages.burst {
                return Err(Some(Close::new(POLICY, "too many messages")));
            }
            if matches!(message, Message::Text(_) | Message::Binary(_)) {
                let error = ServerMessage::Error {
                    message: "too many messages; slow down".into(),
                    code: ErrorCode::RateLimited,
                    why: None,
                    id: None,
                };
                self.send(error).await?;
            }
            return Ok(None);
        }
        self.refused = 0;
        if let (Some(entry), Message::Text(_) | Message::Binary(_)) = (&self.entry, &message) {
            entry.touch();
        }
        match message {
            Message::Text(text) => Ok(Some(text)),
            Message::Binary(_) => {
                let e = ApiError::bad_request(ErrorCode::BinaryMessage, "messages are JSON text");
                self.refuse(&e, None).await?;
                Ok(None)
            }
            // Pings are answered by the library; both count as signs of life.
            Message::Ping(_) | Message::Pong(_) | Message::Close(_) => Ok(None),
        }
    }

    async fn send(&mut self, message: ServerMessage) -> Step<()> {
        let text = serde_json::to_string(&message).expect("a server message serialises");
        self.write(Message::Text(text.into())).await
    }

    /// Writes a message; a client that does not take it within the idle time (it reads
    /// nothing) is dropped instead of holding the task.
    async fn write(&mut self, message: Message) -> Step<()> {
        match tokio::time::timeout(self.limits.ws_idle_timeout, self.sender.send(message)).await {
            Ok(Ok(())) => Ok(()),
            _ => Err(None),
        }
    }

    /// Answers an error message (about the action with `id`, if it had one).
    async fn refuse(&mut self, error: &ApiError, id: Option<u32>) -> Step<()> {
        self.send(ServerMessage::Error {
            message: error.to_string(),
            code: error.code,
            why: error.why.clone(),
            id,
        })
        .await
    }

    /// Answers an error message and closes for it.
    async fn refuse_and_close(&mut self, error: &ApiError) -> Option<Close> {
        match self.refuse(error, None).await {
            Ok(()) => Some(Close::new(POLICY, error.to_string())),
            Err(gone) => gone,
        }
    }

    /// Closes with a reason (when the server ends the socket), then gives the client a
    /// moment to answer the close before the connection goes.
    async fn end(mut self, close: Option<Close>) {
        let Some(close) = close else { return };
        let frame = CloseFrame {
            code: close.code,
            reason: truncate(&close.reason, 123).into(),
        };
        let _ = tokio::time::timeout(Duration::from_secs(1), async {
            if self.sender.send(Message::Close(Some(frame))).await.is_ok() {
                while let Some(Ok(_)) = self.receiver.next().await {}
            }
        })
        .await;
    }
}

/// Waits until the server wants the socket closed; answers the close to send.
async fn ending(entry: &mut Option<LiveSocket>) -> Close {
    let Some(entry) = entry else {
        return std::future::pending().await;
    };
    match entry.ending().await {
        Ending::Evicted => Close::new(TRY_AGAIN_LATER, "the server is full; try again later"),
        Ending::ShuttingDown => Close::new(GOING_AWAY, "the server is going away"),
    }
}

/// At most `max` bytes of `text`, cut at a character boundary (a close reason has 123).
fn truncate(text: &str, max: usize) -> &str {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// Whether a read failed because the message was over the size limit.
fn too_big(error: &axum::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(e) = source {
        if let Some(tungstenite::Error::Capacity(_)) = e.downcast_ref::<tungstenite::Error>() {
            return true;
        }
        source = e.source();
    }
    false
}

fn malformed(e: impl std::fmt::Display) -> ApiError {
    ApiError::bad_request(
        ErrorCode::MalformedMessage,
        format!("malformed message: {e}"),
    )
}

fn parse(text: &str) -> Result<ClientMessage, ApiError> {
    crate::wire::read(text.as_bytes()).map_err(malformed)
}

/// The `type` of a message.
fn kind_of(text: &str) -> Result<&str, ApiError> {
    // Borrowed unless the type has escapes, which no known type has.
    match serde_json::from_str::<Kind>(text).map_err(malformed)?.kind {
        Cow::Borrowed(kind) => Ok(kind),
        Cow::Owned(_) => Ok(""),
    }
}

/// What a message after hello asks of the socket.
enum Answer {
    /// An action was stored: it made `version`.
    Stored { id: Option<u32>, version: u64 },
    /// The whole view again.
    Resync,
}

/// Reads a message after hello and does what it asks; a refusal comes with the
/// action's id, if it had one.
async fn socket_message(
    hub: &Arc<Hub>,
    table: &Arc<Table>,
    seat: Option<usize>,
    text: &str,
) -> Result<Answer, (ApiError, Option<u32>)> {
    let hello_twice =
        || ApiError::bad_request(ErrorCode::HelloTwice, "this socket has said hello already");
    match kind_of(text).map_err(|e| (e, None))? {
        "action" => {}
        "resync" => return Ok(Answer::Resync),
        "hello" => return Err((hello_twice(), None)),
        _ => {
            return Err((
                ApiError::bad_request(
                    ErrorCode::UnknownMessage,
                    "a message must be {\"type\": \"action\", \"id\": N, \"version\": N, \"action\": {…}} or {\"type\": \"resync\"}",
                ),
                None,
            ))
        }
    }
    let ClientMessage::Action {
        id,
        version,
        action,
    } = parse(text).map_err(|e| (e, None))?
    else {
        return Err((hello_twice(), None));
    };
    let seat = seat.ok_or_else(|| {
        (
            ApiError::forbidden(
                ErrorCode::Spectator,
                "spectators cannot act; open your invite link",
            ),
            id,
        )
    })?;
    let version = hub
        .submit(table, seat, Some(version), &action)
        .await
        .map_err(|e| (e, id))?;
    Ok(Answer::Stored { id, version })
}
