//! A server started in-process on a free port, with a client that speaks its API.
#![allow(dead_code)]

use std::path::PathBuf;
use std::time::Duration;

use serde_json::{json, Value};
use server::{HubOptions, ServerConfig};

pub struct TestServer {
    pub base: String,
    pub running: server::Running,
    pub client: reqwest::Client,
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

pub async fn start(db: &str, bot_delay_ms: u64) -> TestServer {
    start_with(db, bot_delay_ms, None, server::Limits::default()).await
}

/// A server with a client directory and limits of the test's choosing.
pub async fn start_with(
    db: &str,
    bot_delay_ms: u64,
    web_dir: Option<PathBuf>,
    limits: server::Limits,
) -> TestServer {
    let running = server::start(ServerConfig {
        addr: "127.0.0.1:0".parse().unwrap(),
        db: db.to_string(),
        web_dir,
        hub: HubOptions {
            bot_delay: Duration::from_millis(bot_delay_ms),
        },
        limits,
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

    /// Creates a table; answers its id and the seats' tokens (`None` for bots).
    pub async fn create(&self, body: Value) -> (String, Vec<Option<String>>) {
        let (status, created) = self.post("/api/tables", &body.to_string()).await;
        assert_eq!(status, 200, "create: {created}");
        let tokens = created["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["token"].as_str().map(str::to_string))
            .collect();
        (created["id"].as_str().unwrap().to_string(), tokens)
    }

    pub async fn view(&self, id: &str, token: Option<&str>) -> Value {
        let path = match token {
            Some(t) => format!("/api/tables/{id}?token={t}"),
            None => format!("/api/tables/{id}"),
        };
        let (status, view) = self.get(&path).await;
        assert_eq!(status, 200, "view: {view}");
        view
    }

    pub async fn act(&self, id: &str, token: &str, version: u64, action: Value) -> (u16, Value) {
        let body = json!({ "version": version, "action": action }).to_string();
        self.post(&format!("/api/tables/{id}/actions?token={token}"), &body)
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

    /// Waits until the table's view satisfies `done` (bots and clocks act on their own).
    pub async fn wait_for(
        &self,
        id: &str,
        token: Option<&str>,
        done: impl Fn(&Value) -> bool,
    ) -> Value {
        for _ in 0..600 {
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
