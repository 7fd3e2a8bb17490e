//! The server's edge against a hostile public: connection caps per address, per network
//! and in all (a full server makes room for a new client), writes only as JSON (no
//! cross-site writes), a drained shutdown, and JSON answers even from the HTTP layer.

mod common;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use common::{start_full, temp_sqlite, TestServer};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use server::{HubOptions, Limits};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;

type Socket = tokio_tungstenite::WebSocketStream<TcpStream>;

/// The test hub: no per-address table caps.
fn quick() -> HubOptions {
    HubOptions {
        bot_delay: Duration::ZERO,
        max_open_tables_per_address: 0,
        tables_per_minute_per_address: 0,
        chosen_seeds_with_people: true,
        ..common::defaults()
    }
}

async fn serve(name: &str, limits: Limits) -> TestServer {
    start_full(&temp_sqlite(name), quick(), None, limits).await
}

async fn table(server: &TestServer) -> String {
    let body = json!({
        "game": "rummikub",
        "rummikub": {"rules": "current"},
        "seats": [{"kind": "human"}, {"kind": "human"}],
    });
    let (status, created) = server.post("/api/tables", &body.to_string()).await;
    assert_eq!(status, 200, "create: {created}");
    created["id"].as_str().unwrap().to_string()
}

/// A TCP connection to the server from `from` (any 127.0.0.0/8 address: Linux routes
/// them all to the loopback).
async fn connect_from(server: &TestServer, from: &str) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket
        .bind(SocketAddr::new(from.parse().unwrap(), 0))
        .unwrap();
    socket.connect(server.running.addr).await.unwrap()
}

/// A spectator's WebSocket from `from`, after its first view.
async fn socket_from(server: &TestServer, id: &str, from: &str) -> Socket {
    let stream = connect_from(server, from).await;
    let url = format!(
        "{}/api/tables/{id}/ws",
        server.base.replace("http://", "ws://")
    );
    let (mut socket, _) = tokio_tungstenite::client_async(url, stream).await.unwrap();
    let hello = json!({"type": "hello", "token": null}).to_string();
    socket.send(Message::Text(hello.into())).await.unwrap();
    let first = next_text(&mut socket).await;
    assert_eq!(first["type"], "state", "{first}");
    socket
}

/// The next text message, skipping pings.
async fn next_text(socket: &mut Socket) -> Value {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(5), socket.next())
            .await
            .expect("a message in time")
            .expect("the socket is open")
            .expect("a message");
        match message {
            Message::Text(text) => return serde_json::from_str(text.as_str()).unwrap(),
            Message::Close(frame) => panic!("closed: {frame:?}"),
            _ => {}
        }
    }
}

/// Reads until the server closes: its close code and reason.
async fn close_of<S>(socket: &mut tokio_tungstenite::WebSocketStream<S>) -> (CloseCode, String)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    loop {
        let message = tokio::time::timeout(Duration::from_secs(5), socket.next())
            .await
            .expect("a close in time")
            .expect("a close frame before the end")
            .expect("a message");
        if let Message::Close(frame) = message {
            let frame = frame.expect("a close code");
            return (frame.code, frame.reason.to_string());
        }
    }
}

/// The socket is still served: a message gets its answer.
async fn still_served(socket: &mut Socket) {
    let chatter = json!({"type": "chatter"}).to_string();
    socket.send(Message::Text(chatter.into())).await.unwrap();
    let answer = next_text(socket).await;
    assert_eq!(answer["code"], "unknown_message", "{answer}");
}

/// Sends a raw request and reads the whole answer (the server closes after it).
async fn raw(stream: &mut TcpStream, request: &[u8]) -> String {
    // The server may answer and close before the request is all written.
    let _ = stream.write_all(request).await;
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut answer))
        .await
        .expect("the server answers and closes");
    String::from_utf8_lossy(&answer).into_owned()
}

/// An answer's status, headers (lower case) and JSON body.
fn parse_answer(answer: &str) -> (u16, String, Value) {
    let (head, body) = answer.split_once("\r\n\r\n").expect("a whole answer");
    let status = head[9..12].parse().unwrap();
    let body = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {answer}"));
    (status, head.to_ascii_lowercase(), body)
}

#[tokio::test]
async fn connections_are_capped_per_network_and_refusals_say_when_to_retry() {
    let limits = Limits {
        max_connections_per_ip: 2,
        max_connections_per_network: 3,
        max_connections: 100,
        ..Limits::default()
    };
    let server = serve("transport-network", limits).await;
    // Three addresses of one /24 fill its share; a fourth address of it is refused.
    let mut held = Vec::new();
    for from in ["127.0.5.1", "127.0.5.1", "127.0.5.2"] {
        held.push(connect_from(&server, from).await);
    }
    let mut over = connect_from(&server, "127.0.5.3").await;
    let answer = raw(&mut over, b"GET /api/meta HTTP/1.1\r\nhost: rumi\r\n\r\n").await;
    let (status, head, body) = parse_answer(&answer);
    assert_eq!(status, 429, "{answer}");
    assert_eq!(body["code"], "too_many_connections_from_network");
    assert!(head.contains("\r\nretry-after: "), "{answer}");
    // The address at its own cap is refused for its address.
    let mut over = connect_from(&server, "127.0.5.1").await;
    let answer = raw(&mut over, b"GET /api/meta HTTP/1.1\r\nhost: rumi\r\n\r\n").await;
    let (status, head, body) = parse_answer(&answer);
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("too_many_connections"))
    );
    assert!(head.contains("\r\nretry-after: "), "{answer}");
    // Another network is served.
    let mut other = connect_from(&server, "127.0.6.1").await;
    let answer = raw(
        &mut other,
        b"GET /api/meta HTTP/1.1\r\nhost: rumi\r\nconnection: close\r\n\r\n",
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

#[tokio::test]
async fn a_full_server_closes_the_idlest_socket_of_the_biggest_holder_for_a_new_client() {
    // Five sockets and the test client's own connection (it created the table).
    let limits = Limits {
        max_connections: 6,
        max_connections_per_ip: 100,
        max_connections_per_network: 100,
        ..Limits::default()
    };
    let server = serve("transport-full", limits).await;
    let id = table(&server).await;
    // Four sockets from one network, one from another: the server is full.
    let mut big = Vec::new();
    for from in ["127.0.7.1", "127.0.7.2", "127.0.7.3", "127.0.7.4"] {
        big.push(socket_from(&server, &id, from).await);
    }
    let mut small = socket_from(&server, &id, "127.0.8.1").await;
    // The first socket of the big holder is in use: it is not the idlest.
    still_served(&mut big[0]).await;

    // A new client from a third network is served at once.
    let mut newcomer = connect_from(&server, "127.0.9.1").await;
    let answer = raw(
        &mut newcomer,
        b"GET /api/meta HTTP/1.1\r\nhost: rumi\r\nconnection: close\r\n\r\n",
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");

    // The big holder's least recently active socket was closed with 1013 to make room.
    let (code, reason) = close_of(&mut big[1]).await;
    assert_eq!(code, CloseCode::Again);
    assert!(reason.contains("try again later"), "{reason}");
    // The others are still served: the active one, the rest of the big holder's and
    // the small holder's.
    still_served(&mut big[0]).await;
    still_served(&mut big[2]).await;
    still_served(&mut big[3]).await;
    still_served(&mut small).await;
}

#[tokio::test]
async fn a_full_server_without_sockets_to_close_answers_503_with_retry_after() {
    let limits = Limits {
        max_connections: 2,
        ..Limits::default()
    };
    let server = serve("transport-503", limits).await;
    let _a = connect_from(&server, "127.0.10.1").await;
    let _b = connect_from(&server, "127.0.11.1").await;
    let mut over = connect_from(&server, "127.0.12.1").await;
    let answer = raw(&mut over, b"GET /api/meta HTTP/1.1\r\nhost: rumi\r\n\r\n").await;
    let (status, head, body) = parse_answer(&answer);
    assert_eq!((status, body["code"].as_str()), (503, Some("unavailable")));
    assert!(head.contains("\r\nretry-after: "), "{answer}");
}

/// The number of tables the server has loaded (every created table is).
fn tables(server: &TestServer) -> usize {
    server.running.hub.loaded_tables()
}

#[tokio::test]
async fn a_write_not_sent_as_json_is_refused_and_changes_nothing() {
    let server = serve("transport-json", Limits::default()).await;
    let id = table(&server).await;
    let before = tables(&server);
    let create = json!({
        "game": "rummikub",
        "rummikub": {"rules": "current"},
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
    })
    .to_string();
    let url = |path: &str| format!("{}{path}", server.base);
    // What a cross-site form or a `fetch` without permission can send: a form, text,
    // or no type at all; and a bodiless POST, which needs no permission either.
    for content_type in [
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
        Some("multipart/form-data; boundary=x"),
        None,
    ] {
        let mut request = server.client.post(url("/api/tables")).body(create.clone());
        if let Some(content_type) = content_type {
            request = request.header("content-type", content_type);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), 415, "{content_type:?}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["code"], "unsupported_media_type", "{body}");
        assert!(body["error"].as_str().unwrap().contains("application/json"));
    }
    assert_eq!(tables(&server), before, "no table was created");
    // A table with an open seat: a bodiless cross-site POST must not take it.
    let open = json!({
        "game": "rummikub",
        "rummikub": {"rules": "current"},
        "seats": [{"kind": "human"}, {"kind": "open"}],
    });
    let (status, created) = server.post("/api/tables", &open.to_string()).await;
    assert_eq!(status, 200, "{created}");
    let open_id = created["id"].as_str().unwrap().to_string();
    let before = tables(&server);
    let response = server
        .client
        .post(url(&format!("/api/tables/{open_id}/join")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 415);
    let view = server.view(&open_id, None).await;
    assert_eq!(view["seats"][1]["claimed"], false, "{view}");
    // The seat is still there to take, as JSON.
    let (status, joined) = server
        .post(&format!("/api/tables/{open_id}/join"), r#"{"name": "Eve"}"#)
        .await;
    assert_eq!(status, 200, "{joined}");
    // A method a route does not have is 405, also when it is a POST without a type.
    let response = server.client.post(url("/api/health")).send().await.unwrap();
    assert_eq!(response.status(), 405);
    // A DELETE without a body needs no type (a browser cannot send it cross-site
    // without permission); with a body it does.
    let path = format!("/api/tables/{id}/seats/0/bot");
    let response = server.client.delete(url(&path)).send().await.unwrap();
    assert_ne!(response.status(), 415);
    let response = server
        .client
        .delete(url(&path))
        .header("content-type", "text/plain")
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 415);

    // JSON with a charset is JSON.
    let response = server
        .client
        .post(url("/api/tables"))
        .header("content-type", "application/json; charset=utf-8")
        .body(create)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(tables(&server), before + 1);
}

#[tokio::test]
async fn the_content_security_policy_connects_only_to_the_site_itself() {
    let server = serve("transport-csp", Limits::default()).await;
    let response = server
        .client
        .get(format!("{}/api/meta", server.base))
        .send()
        .await
        .unwrap();
    let csp = response.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    let connect = csp
        .split(';')
        .map(str::trim)
        .find(|d| d.starts_with("connect-src"))
        .expect("a connect-src directive");
    assert_eq!(connect, "connect-src 'self'", "{csp}");
    // Scripts from the site only, and WebAssembly compiled from them (the Rummikub rules
    // module): never `eval` or an inline script.
    let script = csp
        .split(';')
        .map(str::trim)
        .find(|d| d.starts_with("script-src"))
        .expect("a script-src directive");
    assert_eq!(script, "script-src 'self' 'wasm-unsafe-eval'", "{csp}");
}

#[tokio::test]
async fn a_stopping_server_finishes_the_request_in_flight_and_closes_sockets_with_1001() {
    let server = serve("transport-drain", Limits::default()).await;
    let id = table(&server).await;
    let mut socket = socket_from(&server, &id, "127.0.0.1").await;
    let before = tables(&server);
    // A request in flight: its head and half its body are in.
    let body = json!({
        "game": "rummikub",
        "rummikub": {"rules": "current"},
        "seats": [{"kind": "human"}, {"kind": "human"}],
    })
    .to_string();
    let (first, second) = body.split_at(body.len() / 2);
    let mut in_flight = TcpStream::connect(server.running.addr).await.unwrap();
    let head = format!(
        "POST /api/tables HTTP/1.1\r\nhost: rumi\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{first}",
        body.len()
    );
    in_flight.write_all(head.as_bytes()).await.unwrap();
    // The request is being read: the server holds it.
    let (status, _) = server.get("/api/meta").await;
    assert_eq!(status, 200);

    server.running.shutdown();
    let (code, reason) = close_of(&mut socket).await;
    assert_eq!(code, CloseCode::Away);
    assert!(reason.contains("going away"), "{reason}");

    // The rest of the body comes after the stop: the request is still answered.
    in_flight.write_all(second.as_bytes()).await.unwrap();
    let answer = raw(&mut in_flight, b"").await;
    let (status, head, created) = parse_answer(&answer);
    assert_eq!(status, 200, "{answer}");
    assert!(head.contains("connection: close"), "{answer}");
    assert!(created["id"].is_string(), "{created}");
    assert_eq!(tables(&server), before + 1);

    // Then the server is done, and takes no new connection.
    let mut server = server;
    tokio::time::timeout(Duration::from_secs(10), &mut server.running.task)
        .await
        .expect("the server stops once drained")
        .unwrap()
        .unwrap();
    assert!(TcpStream::connect(server.running.addr).await.is_err());
}

#[tokio::test]
async fn unreadable_requests_get_json_answers_from_the_http_layer() {
    let server = serve("transport-http-layer", Limits::default()).await;
    let huge = format!(
        "GET /api/meta HTTP/1.1\r\nhost: rumi\r\nx-big: {}\r\n\r\n",
        "a".repeat(256 * 1024)
    );
    let many: String = (0..200).map(|i| format!("x-h{i}: 1\r\n")).collect();
    let many = format!("GET /api/meta HTTP/1.1\r\nhost: rumi\r\n{many}\r\n");
    for (request, status, code) in [
        (huge.as_str(), 431, "headers_too_large"),
        (many.as_str(), 431, "headers_too_large"),
        (
            "G@T /api/meta HTTP/1.1\r\nhost: rumi\r\n\r\n",
            400,
            "bad_request",
        ),
        (
            "GET /api/meta HTTP/9.9\r\nhost: rumi\r\n\r\n",
            400,
            "bad_request",
        ),
        (
            "GET /api/meta HTTP/1.1\r\nbad header\r\n\r\n",
            400,
            "bad_request",
        ),
    ] {
        let mut stream = TcpStream::connect(server.running.addr).await.unwrap();
        let answer = raw(&mut stream, request.as_bytes()).await;
        let (got, head, body) = parse_answer(&answer);
        assert_eq!(
            (got, body["code"].as_str()),
            (status, Some(code)),
            "{answer}"
        );
        assert!(head.contains("content-type: application/json"), "{answer}");
        assert!(!body["error"].as_str().unwrap().is_empty());
    }
    // The server serves on.
    assert_eq!(server.get("/api/meta").await.0, 200);
}

/// A built client of one page and one asset.
fn web_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rumi-test-{}-web-long", std::process::id()));
    std::fs::create_dir_all(dir.join("assets")).unwrap();
    std::fs::write(dir.join("index.html"), "<!doctype html><title>rumi</title>").unwrap();
    std::fs::write(dir.join("assets/x.js"), "console.log('rumi');").unwrap();
    dir
}

#[tokio::test]
async fn a_file_name_longer_than_any_file_is_not_found() {
    let server = start_full(
        &temp_sqlite("transport-long-name"),
        quick(),
        Some(web_dir()),
        Limits::default(),
    )
    .await;
    let long = "a".repeat(300);
    for path in [
        format!("/assets/{long}.js"),
        format!("/{long}"),
        format!("/assets/{}", "%61".repeat(300)),
    ] {
        let response = server
            .client
            .get(format!("{}{path}", server.base))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 404, "{path}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["code"], "not_found");
    }
    let response = server
        .client
        .get(format!("{}/assets/x.js", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
}

#[tokio::test]
async fn every_table_creation_429_says_when_to_retry() {
    let per_minute = start_full(
        &temp_sqlite("transport-429-rate"),
        HubOptions {
            tables_per_minute_per_address: 1,
            max_open_tables_per_address: 0,
            ..quick()
        },
        None,
        Limits::default(),
    )
    .await;
    let open_cap = start_full(
        &temp_sqlite("transport-429-open"),
        HubOptions {
            tables_per_minute_per_address: 0,
            max_open_tables_per_address: 1,
            ..quick()
        },
        None,
        Limits::default(),
    )
    .await;
    for (server, code) in [
        (&per_minute, "too_many_tables_per_minute"),
        (&open_cap, "too_many_open_tables"),
    ] {
        table(server).await;
        let body = json!({
            "game": "rummikub",
            "rummikub": {"rules": "current"},
            "seats": [{"kind": "human"}, {"kind": "human"}],
        });
        let response = server
            .client
            .post(format!("{}/api/tables", server.base))
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 429, "{code}");
        let retry_after: u64 = response.headers()["retry-after"]
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!(retry_after >= 1, "{code}: {retry_after}");
        let answer: Value = response.json().await.unwrap();
        assert_eq!(answer["code"], code);
    }
}
