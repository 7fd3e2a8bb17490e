//! Shared by the binary tests: run the built `rumi` with arguments and piped input,
//! or `rumi serve` as a child process.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// Runs `rumi` with `args`, writes `stdin` to it, returns (stdout, stderr, success).
pub fn rumi(args: &[&str], stdin: &str) -> (String, String, bool) {
    let (stdout, stderr, code) = rumi_status(args, stdin);
    (stdout, stderr, code == Some(0))
}

/// Like [`rumi`], with the exit code (`None` if killed by a signal).
pub fn rumi_status(args: &[&str], stdin: &str) -> (String, String, Option<i32>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rumi"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rumi runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        output.status.code(),
    )
}

/// `rumi serve` as a child process on a database, with a client for its API.
pub struct Served {
    child: Child,
    pub base: String,
}

pub fn serve(db: &str) -> Served {
    serve_with(db, &["--bot-delay-ms", "2"])
}

/// `rumi serve` on `db` with more flags.
pub fn serve_with(db: &str, flags: &[&str]) -> Served {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rumi"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", db])
        .args(flags)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("rumi serve starts");
    let base = listening_base(&mut child);
    Served { child, base }
}

/// The address a started `rumi serve` (or `rumi cluster`) prints as its first line:
/// `listening on http://…`.
pub fn listening_base(child: &mut Child) -> String {
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("piped stdout"))
        .read_line(&mut line)
        .unwrap();
    line.trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected first line of rumi: {line}"))
        .to_string()
}

impl Served {
    pub fn get(&self, path: &str) -> Value {
        ureq::get(format!("{}{path}", self.base))
            .call()
            .unwrap()
            .body_mut()
            .read_json()
            .unwrap()
    }

    pub fn get_as(&self, path: &str, token: &str) -> Value {
        ureq::get(format!("{}{path}", self.base))
            .header("x-seat-token", token)
            .call()
            .unwrap()
            .body_mut()
            .read_json()
            .unwrap()
    }

    pub fn post(&self, path: &str, body: Value) -> Result<Value, String> {
        self.post_as(path, None, body)
    }

    pub fn post_as(&self, path: &str, token: Option<&str>, body: Value) -> Result<Value, String> {
        let mut request = ureq::post(format!("{}{path}", self.base));
        if let Some(token) = token {
            request = request.header("x-seat-token", token);
        }
        match request
            .config()
            .http_status_as_error(false)
            .build()
            .send_json(body)
        {
            Ok(mut r) if r.status() == 200 => Ok(r.body_mut().read_json().unwrap()),
            Ok(mut r) => Err(r.body_mut().read_to_string().unwrap_or_default()),
            Err(e) => Err(e.to_string()),
        }
    }

    /// SIGTERM, then waits for the process: its exit status and how long it took.
    /// Two minutes without an exit fail the test (a hang guard, not a measure).
    pub fn terminate(mut self) -> (std::process::ExitStatus, Duration) {
        let start = Instant::now();
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        loop {
            if let Some(exit) = self.child.try_wait().unwrap() {
                return (exit, start.elapsed());
            }
            assert!(
                start.elapsed() < Duration::from_secs(120),
                "the server did not stop after SIGTERM"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// SIGKILL: no shutdown code runs.
    pub fn kill_9(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    pub fn wait_for(&self, path: &str, done: impl Fn(&Value) -> bool) -> Value {
        let start = Instant::now();
        loop {
            let view = self.get(path);
            if done(&view) {
                return view;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "never reached: {view}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A fresh PostgreSQL database on the machine's server (`RUMI_TEST_POSTGRES`
/// overrides `postgres://postgres@127.0.0.1:5432`); answers its URL.
pub fn temp_postgres(name: &str) -> String {
    let base = std::env::var("RUMI_TEST_POSTGRES")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432".into());
    let db = format!("rumi_{name}_{}", std::process::id());
    psql(
        &format!("{base}/postgres"),
        &format!("DROP DATABASE IF EXISTS {db}"),
    );
    psql(
        &format!("{base}/postgres"),
        &format!("CREATE DATABASE {db}"),
    );
    format!("{base}/{db}")
}

/// Runs one SQL statement with `psql`; answers its unaligned output.
pub fn psql(url: &str, sql: &str) -> String {
    let output = Command::new("psql")
        .args([url, "-At", "-c", sql])
        .output()
        .expect("psql (PostgreSQL's client) is installed; scripts/test starts the server");
    assert!(
        output.status.success(),
        "{sql} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).trim().to_string()
}

/// A NATS server of the test's own on a free port, so that a test may stop and start
/// it; killed when dropped.
pub struct Nats {
    child: Child,
    pub port: u16,
}

impl Nats {
    pub fn start() -> Nats {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        Nats::start_on(port)
    }

    pub fn start_on(port: u16) -> Nats {
        let binary = ["/usr/sbin/nats-server", "/usr/bin/nats-server"]
            .into_iter()
            .find(|p| std::path::Path::new(p).exists())
            .unwrap_or("nats-server");
        let child = Command::new(binary)
            .args(["-a", "127.0.0.1", "-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("nats-server is installed (scripts/test installs it)");
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "NATS did not start"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        Nats { child, port }
    }

    pub fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    pub fn stop(mut self) -> u16 {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.port
    }
}

impl Drop for Nats {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A WebSocket to a table of the server at `base` that has said hello with `token`
/// (none: a spectator).
pub async fn ws_hello(
    base: &str,
    id: &str,
    token: Option<&str>,
) -> tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>> {
    use futures_util::SinkExt;
    let url = format!("{}/api/tables/{id}/ws", base.replacen("http", "ws", 1));
    let (mut socket, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let hello = serde_json::json!({ "type": "hello", "token": token }).to_string();
    socket
        .send(tokio_tungstenite::tungstenite::Message::Text(hello.into()))
        .await
        .unwrap();
    socket
}

/// The next `state` view on a socket (an error message fails the test).
pub async fn next_view(
    socket: &mut tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
) -> Value {
    use futures_util::StreamExt;
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(20), socket.next())
            .await
            .expect("a view within 20 s")
            .expect("the socket is open")
            .unwrap();
        let tokio_tungstenite::tungstenite::Message::Text(text) = frame else {
            continue;
        };
        let message: Value = serde_json::from_str(text.as_str()).unwrap();
        assert_ne!(message["type"], "error", "{message}");
        if message["type"] == "state" {
            return message["view"].clone();
        }
    }
}
