//! A server started in-process on a free port, with a client that speaks its API.
#![allow(dead_code)]

use std::path::PathBuf;
use std::time::Duration;

use serde_json::{json, Value};
use server::clock::{noon_utc, Clock};
use server::{HubOptions, ServerConfig};

pub mod authenticator;
pub mod browser;

pub struct TestServer {
    pub base: String,
    pub running: server::Running,
    pub client: reqwest::Client,
}

/// The action that places a legal placement of a Rumis view (`{stone, cells}`).
pub fn placing(placement: &Value) -> Value {
    json!({"type": "rumis_place", "stone": placement["stone"], "cells": placement["cells"]})
}

/// A fresh SQLite database file in a temporary directory.
pub fn temp_sqlite(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("rumi-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file: PathBuf = dir.join("rumi.db");
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", file.display()));
    }
    format!("sqlite://{}", file.display())
}

/// A fresh PostgreSQL database on the machine's server (`RUMI_TEST_POSTGRES` overrides
/// `postgres://postgres@127.0.0.1:5432`).
pub async fn temp_postgres(name: &str) -> String {
    use sqlx::Executor;
    let base = std::env::var("RUMI_TEST_POSTGRES")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432".into());
    sqlx::any::install_default_drivers();
    let admin = sqlx::AnyPool::connect(&format!("{base}/postgres"))
        .await
        .expect("the PostgreSQL server of this machine (see .ci/run) must be running");
    let db = format!("rumi_test_{}_{name}", std::process::id());
    admin
        .execute(sqlx::AssertSqlSafe(format!("DROP DATABASE IF EXISTS {db}")))
        .await
        .unwrap();
    admin
        .execute(sqlx::AssertSqlSafe(format!("CREATE DATABASE {db}")))
        .await
        .unwrap();
    format!("{base}/{db}")
}

/// The clock of every test server unless a test chooses another: it stands at noon
/// (UTC) of a fixed day until the test moves it, so that no verdict depends on the
/// machine's date or speed.
pub fn test_clock() -> Clock {
    Clock::manual(noon_utc(2026, 3, 15))
}

/// The public defaults of `HubOptions` on the test clock.
pub fn defaults() -> HubOptions {
    HubOptions {
        clock: test_clock(),
        ..HubOptions::default()
    }
}

/// A server for tests: no per-address caps, and seeds may be chosen at tables of
/// people, so that deals are the same every run.
pub async fn start(db: &str, bot_delay_ms: u64) -> TestServer {
    start_on_with(db, test_clock(), bot_delay_ms).await
}

/// [`start`] with a clock of the test's choosing.
pub async fn start_on(db: &str, clock: Clock) -> TestServer {
    start_on_with(db, clock, 0).await
}

async fn start_on_with(db: &str, clock: Clock, bot_delay_ms: u64) -> TestServer {
    start_with(
        db,
        HubOptions {
            clock,
            bot_delay: Duration::from_millis(bot_delay_ms),
            max_open_tables_per_address: 0,
            tables_per_minute_per_address: 0,
            max_open_seats_per_address: 0,
            max_open_seats_per_table_per_address: 0,
            max_bot_tables_per_address: 0,
            max_bot_tables: 0,
            challenges: server::hub::ChallengeLimits {
                per_sender: 0,
                per_receiver: 0,
                ..Default::default()
            },
            chosen_seeds_with_people: true,
            hints: server::hints::HintLimits {
                per_minute_per_seat: 0,
                per_minute_per_address: 0,
                ..Default::default()
            },
            replays: server::replays::ReplayLimits {
                per_minute_per_address: 0,
                ..Default::default()
            },
            puzzles: server::puzzles::PuzzleLimits {
                per_minute_per_address: 0,
                checks_per_minute_per_address: 0,
                ..Default::default()
            },
            ..defaults()
        },
    )
    .await
}

/// A server with the given options (the public defaults: `HubOptions::default()`).
pub async fn start_with(db: &str, hub: HubOptions) -> TestServer {
    start_full(db, hub, None, server::Limits::default()).await
}

/// A server with hub options, a client directory and limits of the test's choosing.
pub async fn start_full(
    db: &str,
    hub: HubOptions,
    web_dir: Option<PathBuf>,
    limits: server::Limits,
) -> TestServer {
    let running = server::start(ServerConfig {
        addr: "127.0.0.1:0".parse().unwrap(),
        db: db.to_string(),
        client: web_dir.map_or(server::client::Client::None, server::client::Client::Dir),
        hub,
        limits,
        cluster: None,
    })
    .await
    .expect("server starts");
    TestServer {
        base: format!("http://{}", running.addr),
        running,
        client: reqwest::Client::new(),
    }
}

impl TestServer {
    /// The server's clock (a test's clock can be moved on: `advance`).
    pub fn clock(&self) -> &Clock {
        self.running.hub.clock()
    }

    pub async fn get(&self, path: &str) -> (u16, Value) {
        let response = self
            .client
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    pub async fn post(&self, path: &str, body: &str) -> (u16, Value) {
        let response = self
            .client
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .body(body.to_string())
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    /// A request with a seat token in the `X-Seat-Token` header.
    pub async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        body: Option<&str>,
    ) -> (u16, Value) {
        let mut request = self.client.request(method, format!("{}{path}", self.base));
        if let Some(token) = token {
            request = request.header("x-seat-token", token);
        }
        if let Some(body) = body {
            request = request
                .header("content-type", "application/json")
                .body(body.to_string());
        }
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    pub async fn get_as(&self, path: &str, token: &str) -> (u16, Value) {
        self.send(reqwest::Method::GET, path, Some(token), None)
            .await
    }

    pub async fn post_as(&self, path: &str, token: &str, body: &str) -> (u16, Value) {
        self.send(reqwest::Method::POST, path, Some(token), Some(body))
            .await
    }

    /// Creates a table as it was asked for; the whole answer.
    pub async fn create_raw(&self, body: Value) -> Value {
        let (status, created) = self.post("/api/tables", &body.to_string()).await;
        assert_eq!(status, 200, "create: {created}");
        created
    }

    /// Creates a table and lets every invited person take their seat with their
    /// link, so that the game starts; answers its id and each seat's token (`None` for
    /// bots and open seats).
    pub async fn create(&self, body: Value) -> (String, Vec<Option<String>>) {
        let created = self.create_raw(body).await;
        let id = created["id"].as_str().unwrap().to_string();
        let mut tokens = Vec::new();
        for s in created["seats"].as_array().unwrap() {
            tokens.push(if created["you"]["seat"] == s["seat"] {
                created["you"]["token"].as_str().map(str::to_string)
            } else if let Some(invite) = s["invite"].as_str() {
                Some(self.claim(&id, &token_of_link(invite)).await)
            } else {
                None
            });
        }
        (id, tokens)
    }

    /// Takes an invited seat with its link's token; answers the seat's own token.
    pub async fn claim(&self, id: &str, invite: &str) -> String {
        let (status, grant) = self
            .post_as(&format!("/api/tables/{id}/claim"), invite, "")
            .await;
        assert_eq!(status, 200, "claim: {grant}");
        grant["token"].as_str().unwrap().to_string()
    }

    pub async fn view(&self, id: &str, token: Option<&str>) -> Value {
        let (status, view) = self
            .send(
                reqwest::Method::GET,
                &format!("/api/tables/{id}"),
                token,
                None,
            )
            .await;
        assert_eq!(status, 200, "view: {view}");
        view
    }

    pub async fn act(&self, id: &str, token: &str, version: u64, action: Value) -> (u16, Value) {
        let body = json!({ "version": version, "action": action }).to_string();
        self.post_as(&format!("/api/tables/{id}/actions"), token, &body)
            .await
    }

    /// A WebSocket on a table that has said hello with `token` (`None`: a spectator).
    pub async fn socket(
        &self,
        id: &str,
        token: Option<&str>,
    ) -> tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>
    {
        use futures_util::SinkExt;
        let url = format!(
            "{}/api/tables/{id}/ws",
            self.base.replace("http://", "ws://")
        );
        let (mut socket, _) = tokio_tungstenite::connect_async(url).await.unwrap();
        let hello = json!({ "type": "hello", "token": token }).to_string();
        socket
            .send(tokio_tungstenite::tungstenite::Message::Text(hello.into()))
            .await
            .unwrap();
        socket
    }

    /// Waits until the finished table's results are recorded (the results feature
    /// records them on its own task once the game is over).
    pub async fn wait_recorded(&self, id: &str) {
        let mut events = self.running.hub.events().watch();
        if self.running.hub.store.is_recorded(id).await.unwrap() {
            return;
        }
        wait_for_event(&mut events, |e| {
            matches!(e, server::events::TableEvent::ResultsRecorded { table, .. } if table == id)
        })
        .await;
    }

    /// Waits until the table's view satisfies `done` (bots and clocks act on their own).
    pub async fn wait_for(
        &self,
        id: &str,
        token: Option<&str>,
        done: impl Fn(&Value) -> bool,
    ) -> Value {
        // A hang guard, not a verdict on speed: generous for a busy machine.
        let give_up = std::time::Instant::now() + Duration::from_secs(180);
        while std::time::Instant::now() < give_up {
            let view = self.view(id, token).await;
            if done(&view) {
                return view;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!(
            "the table never reached the awaited state: {}",
            self.view(id, token).await
        );
    }
}

/// Waits for the first event `events` hears that satisfies `wanted` (subscribe with
/// `hub.events().watch()` before what publishes it).
pub async fn wait_for_event(
    events: &mut tokio::sync::broadcast::Receiver<std::sync::Arc<server::events::Published>>,
    wanted: impl Fn(&server::events::TableEvent) -> bool,
) -> server::events::TableEvent {
    // A hang guard, not a verdict on speed.
    let heard = tokio::time::timeout(Duration::from_secs(180), async {
        loop {
            match events.recv().await {
                Ok(published) if wanted(&published.event) => return published.event.clone(),
                Ok(_) => {}
                Err(tokio::sync::broadcast::error::RecvError::Lagged(n)) => {
                    panic!("the test's watcher fell {n} events behind")
                }
                Err(e) => panic!("the bus closed: {e}"),
            }
        }
    })
    .await;
    heard.expect("the awaited event never came")
}

/// The token of an invite link (`/t/ID#token=…`).
pub fn token_of_link(link: &str) -> String {
    link.split("#token=")
        .nth(1)
        .expect("a link with a token")
        .to_string()
}
