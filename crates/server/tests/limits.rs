//! The transport protections, seen from a hostile client: oversized and silent
//! WebSockets, tokens in addresses, slow headers, too many connections, large and
//! malformed bodies, security and cache headers on every answer.

mod common;

use std::path::PathBuf;
use std::time::Duration;

use common::{start, start_full, temp_sqlite, TestServer};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use server::Limits;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The memory test measures the whole process: the other tests wait while it runs.
static MEMORY: tokio::sync::RwLock<()> = tokio::sync::RwLock::const_new(());

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

fn ws_url(server: &TestServer, id: &str) -> String {
    format!(
        "{}/api/tables/{id}/ws",
        server.base.replace("http://", "ws://")
    )
}

/// The next message, within `wait`.
async fn next(socket: &mut Socket, wait: Duration) -> Message {
    tokio::time::timeout(wait, socket.next())
        .await
        .expect("a message in time")
        .expect("the socket is open")
        .expect("a message")
}

/// Reads until the server closes; answers the close code and reason, and the error
/// messages seen before.
async fn close_of(socket: &mut Socket) -> (CloseCode, String, Vec<Value>) {
    let mut errors = Vec::new();
    loop {
        match next(socket, Duration::from_secs(5)).await {
            Message::Close(Some(frame)) => {
                return (frame.code, frame.reason.to_string(), errors);
            }
            Message::Close(None) => panic!("closed without a code"),
            Message::Text(text) => {
                let message: Value = serde_json::from_str(text.as_str()).unwrap();
                if message["type"] == "error" {
                    errors.push(message);
                }
            }
            _ => {}
        }
    }
}

fn resident_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[tokio::test]
async fn an_oversized_websocket_message_is_closed_with_1009_and_never_buffered() {
    let _alone = MEMORY.write().await;
    let server = start(&temp_sqlite("limits-big"), 0).await;
    let id = table(&server).await;
    // Eight sockets at once, each sending a 1 MB message: buffered, that would be 8 MB.
    let mut sockets = Vec::new();
    for _ in 0..8 {
        let mut socket = server.socket(&id, None).await;
        assert!(matches!(
            next(&mut socket, Duration::from_secs(5)).await,
            Message::Text(_)
        ));
        sockets.push(socket);
    }
    let chunk = vec![b'x'; 64 * 1024];
    let before = resident_kib();
    let sent = sockets.iter_mut().map(|socket| {
        let chunk = &chunk;
        async move {
            // One text frame of 1 MiB, written raw so that the client holds 64 KiB of it
            // at a time (a zero mask leaves the payload as it is).
            let mut head = vec![0x81, 0x80 | 127];
            head.extend_from_slice(&(1u64 << 20).to_be_bytes());
            head.extend_from_slice(&[0, 0, 0, 0]);
            let stream = socket.get_mut();
            let _ = stream.write_all(&head).await;
            for _ in 0..16 {
                if stream.write_all(chunk).await.is_err() {
                    break; // the server has closed, as it should
                }
            }
            close_of(socket).await
        }
    });
    for (code, reason, _) in futures_util::future::join_all(sent).await {
        assert_eq!(code, CloseCode::Size, "{reason}");
        assert!(reason.contains("64 KiB"), "{reason}");
    }
    let after = resident_kib();
    eprintln!("resident memory: {before} KiB before, {after} KiB after eight 1 MiB messages");
    assert!(
        after < before + 3 * 1024,
        "memory grew from {before} KiB to {after} KiB"
    );
}

#[tokio::test]
async fn an_idle_websocket_costs_the_server_little_memory() {
    let _alone = MEMORY.write().await;
    let limits = Limits {
        max_connections_per_ip: 1000,
        max_connections_per_network: 1000,
        ..Limits::default()
    };
    let server = start_full(&temp_sqlite("limits-socket-memory"), quick(), None, limits).await;
    let id = table(&server).await;
    // The client's side in this process is kept small too (its read buffer), so that
    // the growth is mostly the server's.
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(1024)
        .write_buffer_size(0);
    let open = |n: usize| {
        let url = ws_url(&server, &id);
        async move {
            let mut sockets = Vec::new();
            for _ in 0..n {
                let (mut socket, _) =
                    tokio_tungstenite::connect_async_with_config(url.clone(), Some(config), false)
                        .await
                        .unwrap();
                let hello = json!({"type": "hello", "token": null}).to_string();
                socket.send(Message::Text(hello.into())).await.unwrap();
                assert!(matches!(
                    next(&mut socket, Duration::from_secs(5)).await,
                    Message::Text(_)
                ));
                sockets.push(socket);
            }
            sockets
        }
    };
    // What all sockets share (pools, buffers of the runtime) comes with the first.
    let warm = open(20).await;
    let before = resident_kib();
    let n = 300;
    let sockets = open(n).await;
    let after = resident_kib();
    let per_socket = after.saturating_sub(before) as f64 / n as f64;
    eprintln!("resident memory: {before} KiB before, {after} KiB with {n} more idle WebSockets: {per_socket:.1} KiB per socket, both ends");
    // The library's default read buffer alone was 128 KiB per socket, all resident.
    assert!(
        per_socket <= 48.0,
        "{per_socket:.1} KiB per idle WebSocket (server and client)"
    );
    drop((warm, sockets));
}

fn short_socket_limits() -> Limits {
    Limits {
        ws_ping_interval: Duration::from_millis(150),
        ws_idle_timeout: Duration::from_millis(500),
        ws_hello_timeout: Duration::from_millis(500),
        ..Limits::default()
    }
}

#[tokio::test]
async fn a_websocket_that_does_not_answer_pings_is_closed_and_one_that_does_stays() {
    let _shared = MEMORY.read().await;
    let server = start_full(
        &temp_sqlite("limits-idle"),
        quick(),
        None,
        short_socket_limits(),
    )
    .await;
    let id = table(&server).await;

    // Reading answers pings (the client library pongs): the socket outlives the cut-off.
    let mut alive = server.socket(&id, None).await;
    let mut silent = server.socket(&id, None).await;
    // From here on the clock is tokio's, paused: it moves only when every task waits,
    // straight to the next timer, so the windows below are the server's own timers
    // and not how busy the machine is.
    tokio::time::pause();
    let opened = Instant::now();
    let mut pings = 0;
    while opened.elapsed() < Duration::from_millis(1200) {
        match tokio::time::timeout(Duration::from_millis(100), alive.next()).await {
            Ok(Some(Ok(Message::Ping(_)))) => pings += 1,
            Ok(Some(Ok(Message::Close(frame)))) => panic!("closed: {frame:?}"),
            Ok(None | Some(Err(_))) => panic!("the answering socket was dropped"),
            _ => {}
        }
    }
    assert!(pings >= 4, "{pings} pings in 1.2 s");

    // The silent one read nothing, so answered no ping: it was closed at the cut-off.
    let (code, reason, _) = close_of(&mut silent).await;
    assert_eq!(code, CloseCode::Away);
    assert!(reason.contains("no answer to pings"), "{reason}");

    // A socket that never says hello is closed too.
    tokio::time::resume();
    let (mut mute, _) = tokio_tungstenite::connect_async(ws_url(&server, &id))
        .await
        .unwrap();
    tokio::time::pause();
    let started = Instant::now();
    let (code, reason, _) = close_of(&mut mute).await;
    assert_eq!(code, CloseCode::Policy);
    assert!(reason.contains("no hello"), "{reason}");
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[tokio::test]
async fn a_token_in_the_websocket_address_is_refused_before_the_upgrade() {
    let _shared = MEMORY.read().await;
    let server = start(&temp_sqlite("limits-url-token"), 0).await;
    let id = table(&server).await;
    let url = format!("{}?token=secret", ws_url(&server, &id));
    let Err(tokio_tungstenite::tungstenite::Error::Http(response)) =
        tokio_tungstenite::connect_async(url).await
    else {
        panic!("the upgrade went through");
    };
    assert_eq!(response.status(), 400);
    let body: Value = serde_json::from_slice(response.body().as_deref().unwrap()).unwrap();
    assert_eq!(body["code"], "token_in_url");
    assert!(body["error"].as_str().unwrap().contains("hello message"));
}

#[tokio::test]
async fn a_forged_token_or_an_action_before_hello_is_refused_and_closed() {
    let _shared = MEMORY.read().await;
    let server = start(&temp_sqlite("limits-hello"), 0).await;
    let id = table(&server).await;

    let mut forged = server.socket(&id, Some("forged")).await;
    let (code, reason, errors) = close_of(&mut forged).await;
    assert_eq!(code, CloseCode::Policy);
    assert!(reason.contains("does not belong"), "{reason}");
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0]["code"], "bad_token");

    let (mut early, _) = tokio_tungstenite::connect_async(ws_url(&server, &id))
        .await
        .unwrap();
    let action = json!({"type": "action", "version": 0, "action": {"type": "draw"}});
    early
        .send(Message::Text(action.to_string().into()))
        .await
        .unwrap();
    let (code, _, errors) = close_of(&mut early).await;
    assert_eq!(code, CloseCode::Policy);
    assert!(errors[0]["message"].as_str().unwrap().contains("hello"));
    assert_eq!(server.view(&id, None).await["version"], 0);
}

#[tokio::test]
async fn a_flood_of_websocket_messages_is_slowed_then_closed() {
    let _shared = MEMORY.read().await;
    let limits = Limits {
        ws_messages: server::transport::Rate {
            per_second: 1.0,
            burst: 5.0,
        },
        ..Limits::default()
    };
    let server = start_full(&temp_sqlite("limits-flood"), quick(), None, limits).await;
    let id = table(&server).await;
    let mut socket = server.socket(&id, None).await;
    let noise = Message::Text(json!({"type": "chatter"}).to_string().into());
    for _ in 0..20 {
        if socket.send(noise.clone()).await.is_err() {
            break;
        }
    }
    let (code, reason, errors) = close_of(&mut socket).await;
    assert_eq!(code, CloseCode::Policy);
    assert!(reason.contains("too many messages"), "{reason}");
    assert!(
        errors.iter().any(|e| e["code"] == "rate_limited"),
        "{errors:?}"
    );
}

#[tokio::test]
async fn a_half_sent_request_header_is_cut_off_after_the_header_timeout() {
    let _shared = MEMORY.read().await;
    let limits = Limits {
        header_read_timeout: Duration::from_millis(500),
        ..Limits::default()
    };
    let server = start_full(&temp_sqlite("limits-slow"), quick(), None, limits).await;
    let mut stream = TcpStream::connect(server.running.addr).await.unwrap();
    // Paused: the held time below is the server's timer, not the machine's load.
    tokio::time::pause();
    let started = Instant::now();
    stream
        .write_all(b"GET /api/meta HTTP/1.1\r\nHost: rumi\r\nX-Slow: ")
        .await
        .unwrap();
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut answer))
        .await
        .expect("the server closes the connection");
    let held = started.elapsed();
    eprintln!("a half-sent header was held {held:?} ({read:?})");
    assert!(held >= Duration::from_millis(400), "{held:?}");
    assert!(held < Duration::from_millis(1500), "{held:?}");
    assert!(!String::from_utf8_lossy(&answer).contains("200 OK"));
}

#[tokio::test]
async fn a_request_whose_body_never_comes_gets_json_408() {
    let _shared = MEMORY.read().await;
    let limits = Limits {
        request_timeout: Duration::from_millis(300),
        ..Limits::default()
    };
    let server = start_full(&temp_sqlite("limits-timeout"), quick(), None, limits).await;
    let mut stream = TcpStream::connect(server.running.addr).await.unwrap();
    stream
        .write_all(b"POST /api/tables HTTP/1.1\r\nHost: rumi\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{\"game\":")
        .await
        .unwrap();
    let mut answer = vec![0; 4096];
    let n = tokio::time::timeout(Duration::from_secs(3), stream.read(&mut answer))
        .await
        .expect("an answer when the time is up")
        .unwrap();
    let answer = String::from_utf8_lossy(&answer[..n]);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(
        answer.contains("content-type: application/json"),
        "{answer}"
    );
    assert!(answer.contains("\"code\":\"timeout\""), "{answer}");
}

#[tokio::test]
async fn one_connection_over_the_cap_per_address_is_refused_until_others_close() {
    let _shared = MEMORY.read().await;
    let limits = Limits {
        max_connections_per_ip: 4,
        ..Limits::default()
    };
    let server = start_full(&temp_sqlite("limits-cap"), quick(), None, limits).await;
    let mut idle = Vec::new();
    for _ in 0..4 {
        idle.push(TcpStream::connect(server.running.addr).await.unwrap());
    }
    let mut over = TcpStream::connect(server.running.addr).await.unwrap();
    // Refused at once, without a timer: only the refusal answers 429 (an idle
    // connection would be cut off by the header timeout without an answer). The
    // deadline only keeps a broken server from hanging the test.
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(60), over.read_to_end(&mut answer))
        .await
        .expect("the connection over the cap is closed")
        .unwrap();
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 429"), "{answer}");
    assert!(
        answer.contains("\"code\":\"too_many_connections\""),
        "{answer}"
    );
    assert!(answer.contains("\r\nretry-after: "), "{answer}");

    // The server learns of the closes as it reads them: ask until it has (the
    // deadline is a hang guard, not the assertion).
    drop(idle);
    let deadline = Instant::now() + Duration::from_secs(60);
    let served = loop {
        let response = reqwest::Client::new()
            .get(format!("{}/api/meta", server.base))
            .send()
            .await;
        if response.is_ok_and(|r| r.status() == 200) {
            break true;
        }
        if Instant::now() > deadline {
            break false;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(
        served,
        "a new connection is served once the idle ones are gone"
    );
}

async fn json_answer(response: reqwest::Response) -> (u16, Value) {
    let status = response.status().as_u16();
    let content_type = response.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        content_type.starts_with("application/json"),
        "{status}: {content_type}"
    );
    (status, response.json().await.unwrap())
}

#[tokio::test]
async fn large_and_malformed_bodies_and_bad_routes_get_json_errors_with_codes() {
    let _shared = MEMORY.read().await;
    let server = start(&temp_sqlite("limits-bodies"), 0).await;
    let client = &server.client;
    let url = |path: &str| format!("{}{path}", server.base);

    let big = "x".repeat(2 << 20);
    let response = client
        .post(url("/api/tables"))
        .header("content-type", "application/json")
        .body(big)
        .send()
        .await
        .unwrap();
    let (status, body) = json_answer(response).await;
    assert_eq!(status, 413);
    assert_eq!(body["code"], "too_large");
    assert!(body["error"].as_str().unwrap().contains("64 KiB"), "{body}");

    let id = table(&server).await;
    for (method, path, body, status, code) in [
        (
            "POST",
            "/api/tables".to_string(),
            "{\"game\": ",
            400,
            "malformed_request",
        ),
        (
            "POST",
            format!("/api/tables/{id}/seats/x/bot"),
            "{}",
            400,
            "bad_request",
        ),
        (
            "DELETE",
            "/api/meta".to_string(),
            "",
            405,
            "method_not_allowed",
        ),
        ("GET", "/api/nothing/here".to_string(), "", 404, "no_route"),
        ("GET", "/api/tables/nope".to_string(), "", 404, "no_table"),
    ] {
        let request = client
            .request(method.parse().unwrap(), url(&path))
            .header("content-type", "application/json");
        let response = request.body(body).send().await.unwrap();
        let (got, answer) = json_answer(response).await;
        assert_eq!(
            (got, answer["code"].as_str()),
            (status, Some(code)),
            "{path}: {answer}"
        );
        assert!(!answer["error"].as_str().unwrap().is_empty());
    }
}

/// A built client of two files.
fn web_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rumi-test-{}-web", std::process::id()));
    std::fs::create_dir_all(dir.join("assets")).unwrap();
    std::fs::write(
        dir.join("index.html"),
        "<!doctype html><title>rumi</title><script type=\"module\" src=\"/assets/x.js\"></script>",
    )
    .unwrap();
    let script = "console.log('rumi');\n".repeat(200);
    std::fs::write(dir.join("assets/x.js"), script).unwrap();
    dir
}

#[tokio::test]
async fn every_answer_has_the_security_headers_and_assets_are_cached_and_compressed() {
    let _shared = MEMORY.read().await;
    let server = start_full(
        &temp_sqlite("limits-headers"),
        quick(),
        Some(web_dir()),
        Limits::default(),
    )
    .await;
    let get = |path: &str, encoding: Option<&str>| {
        let mut request = server.client.get(format!("{}{path}", server.base));
        if let Some(encoding) = encoding {
            request = request.header("accept-encoding", encoding);
        }
        request.send()
    };
    for (path, status, cache) in [
        ("/api/meta", 200, None),
        ("/api/nothing", 404, None),
        ("/", 200, Some("no-cache")),
        ("/t/abc", 200, Some("no-cache")),
        ("/assets/x.js", 200, Some(client_immutable())),
        ("/assets/gone.js", 404, Some("no-cache")),
    ] {
        let response = get(path, None).await.unwrap();
        assert_eq!(response.status(), status, "{path}");
        let headers = response.headers();
        let csp = headers["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("script-src 'self'"), "{path}: {csp}");
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert_eq!(headers["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(headers["referrer-policy"], "no-referrer", "{path}");
        assert_eq!(headers["x-frame-options"], "DENY", "{path}");
        assert_eq!(
            headers.get("cache-control").map(|v| v.to_str().unwrap()),
            cache,
            "{path}"
        );
        if status >= 400 {
            assert!(headers["content-type"]
                .to_str()
                .unwrap()
                .starts_with("application/json"));
        }
    }
    for encoding in ["gzip", "br"] {
        let response = get("/assets/x.js", Some(encoding)).await.unwrap();
        assert_eq!(response.headers()["content-encoding"], encoding);
        let compressed = response.bytes().await.unwrap();
        assert!(compressed.len() < 4200 / 4, "{} bytes", compressed.len());
    }
}

fn client_immutable() -> &'static str {
    server::client::IMMUTABLE
}

#[test]
fn database_passwords_are_redacted() {
    let redact = server::redact_url;
    assert_eq!(
        redact("postgres://rumi:s3cret@db.example:5432/rumi"),
        "postgres://rumi:***@db.example:5432/rumi"
    );
    assert_eq!(
        redact("postgresql://rumi:p@ss:w/rd@host/db?sslmode=require&password=again"),
        "postgresql://rumi:***@host/db?sslmode=require&password=***"
    );
    assert_eq!(redact("postgres://rumi@host/db"), "postgres://rumi@host/db");
    assert_eq!(redact("sqlite://rumi.db"), "sqlite://rumi.db");
    assert_eq!(redact("sqlite::memory:"), "sqlite::memory:");
}

/// The test hub: bots move at once, no per-address table caps.
fn quick() -> server::HubOptions {
    server::HubOptions {
        bot_delay: std::time::Duration::ZERO,
        max_open_tables_per_address: 0,
        tables_per_minute_per_address: 0,
        chosen_seeds_with_people: true,
        ..common::defaults()
    }
}
