//! `rumi cluster`: two nodes behind the balancer play a table of bots to its end (seen
//! over HTTP and a WebSocket through the balancer), the balancer keeps answering when a
//! node is killed (and the node comes back under its name), SIGTERM stops every node and
//! the cluster exits 0; a SQLite database is refused.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{rumi_status, temp_postgres, Nats};
use serde_json::{json, Value};

/// `rumi cluster` as a child process, with its stdout lines as they come and its
/// stderr lines so far (what it says of its nodes).
struct ClusterProcess {
    child: Child,
    lines: Receiver<String>,
    said: Arc<Mutex<Vec<String>>>,
    /// Reads stderr until every process writing it has exited.
    reader: Option<std::thread::JoinHandle<()>>,
    base: String,
}

impl ClusterProcess {
    fn start(db: &str, nats: &Nats, nodes: u16) -> ClusterProcess {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rumi"))
            .args([
                "cluster",
                "--nodes",
                &nodes.to_string(),
                "--addr",
                "127.0.0.1:0",
            ])
            .args(["--db", db, "--nats", &nats.url()])
            .args(["--bot-delay-ms", "5", "--lease-seconds", "2"])
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("rumi cluster starts");
        let said = Arc::new(Mutex::new(Vec::new()));
        let stderr = child.stderr.take().unwrap();
        let keep = said.clone();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                eprintln!("{line}");
                keep.lock().unwrap().push(line);
            }
        });
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                eprintln!("cluster: {line}");
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut cluster = ClusterProcess {
            child,
            lines,
            said,
            reader: Some(reader),
            base: String::new(),
        };
        let first = cluster.line(Duration::from_secs(60));
        cluster.base = first
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("the first line is the balancer's address: {first}"))
            .to_string();
        cluster
    }

    /// The next stdout line within `timeout`.
    fn line(&self, timeout: Duration) -> String {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => panic!("no line from rumi cluster in {timeout:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("rumi cluster closed its output"),
        }
    }

    /// Reads lines until one satisfies `wanted`.
    fn until(&self, timeout: Duration, wanted: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let left = timeout.saturating_sub(start.elapsed());
            let line = self.line(left.max(Duration::from_millis(1)));
            if wanted(&line) {
                return line;
            }
        }
    }

    fn get(&self, path: &str) -> Value {
        ureq::get(format!("{}{path}", self.base))
            .call()
            .unwrap_or_else(|e| panic!("GET {path} through the balancer: {e}"))
            .body_mut()
            .read_json()
            .unwrap()
    }

    fn post(&self, path: &str, body: Value) -> Value {
        ureq::post(format!("{}{path}", self.base))
            .send_json(body)
            .unwrap_or_else(|e| panic!("POST {path} through the balancer: {e}"))
            .body_mut()
            .read_json()
            .unwrap()
    }
}

impl Drop for ClusterProcess {
    fn drop(&mut self) {
        // The nodes stop themselves when the cluster dies.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `node NAME http://ADDR pid PID` → (name, pid).
fn node_line(line: &str) -> Option<(String, u32)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["node", name, addr, "pid", pid] if addr.starts_with("http://") => {
            Some((name.to_string(), pid.parse().ok()?))
        }
        _ => None,
    }
}

/// The first `state` view of a table over a WebSocket through the balancer.
fn websocket_view(base: &str, id: &str) -> Value {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async move {
        let mut socket = common::ws_hello(base, id, None).await;
        common::next_view(&mut socket).await
    })
}

fn signal(pid: u32, signal: &str) {
    let status = Command::new("kill")
        .args([signal, &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success(), "kill {signal} {pid}");
}

fn alive(pid: u32) -> bool {
    // A process that exited but was not reaped yet counts as gone.
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|stat| {
            let state = stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .next();
            state != Some("Z")
        })
        .unwrap_or(false)
}

#[test]
#[ignore = "needs PostgreSQL and NATS"]
fn a_cluster_balances_survives_a_dead_node_and_stops_on_sigterm() {
    let db = temp_postgres("cluster_cli");
    let nats = Nats::start();
    let cluster = ClusterProcess::start(&db, &nats, 2);

    // One line per node after the balancer's address.
    let mut nodes = Vec::new();
    for _ in 0..2 {
        let line = cluster.line(Duration::from_secs(10));
        nodes.push(node_line(&line).unwrap_or_else(|| panic!("a node line: {line}")));
    }
    let mut names: Vec<&str> = nodes.iter().map(|(n, _)| n.as_str()).collect();
    names.sort();
    assert_eq!(names, ["node1", "node2"]);
    for (_, pid) in &nodes {
        assert!(alive(*pid), "node pid {pid} runs");
    }

    // A table of bots, created and followed to its end through the balancer.
    let created = cluster.post(
        "/api/tables",
        json!({
            "game": "rumis",
            "rumis": {"scenario": "chullpa", "players": 2},
            "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}],
        }),
    );
    let id = created["id"].as_str().expect("a table id").to_string();
    let start = Instant::now();
    loop {
        let view = cluster.get(&format!("/api/tables/{id}"));
        if view["over"] == true {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(90),
            "the game never ended: {view}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    for _ in 0..4 {
        assert_eq!(cluster.get("/api/health")["status"], "ready");
    }
    let view = websocket_view(&cluster.base, &id);
    assert_eq!(view["over"], true, "{view}");

    // Kill one node: the balancer sends everything to the other one.
    let (victim, victim_pid) = nodes[0].clone();
    signal(victim_pid, "-KILL");
    cluster.until(Duration::from_secs(10), |line| {
        line.starts_with(&format!("node {victim} (pid {victim_pid}) exited"))
    });
    for _ in 0..10 {
        assert_eq!(cluster.get("/api/health")["status"], "ready");
        assert_eq!(cluster.get(&format!("/api/tables/{id}"))["over"], true);
    }

    // It comes back under its name, with a new process.
    let line = cluster.until(Duration::from_secs(30), |line| {
        node_line(line).is_some_and(|(name, _)| name == victim)
    });
    let (_, new_pid) = node_line(&line).unwrap();
    assert_ne!(new_pid, victim_pid);
    for _ in 0..10 {
        assert_eq!(cluster.get(&format!("/api/tables/{id}"))["over"], true);
    }

    // SIGTERM: every node stops by itself (none is killed after the cluster's
    // patience runs out), then the cluster, with status 0. The deadline only keeps
    // a cluster that never exits from hanging the test.
    let mut cluster = cluster;
    signal(cluster.child.id(), "-TERM");
    let start = Instant::now();
    let status = loop {
        if let Some(status) = cluster.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "rumi cluster did not exit after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    println!("rumi cluster stopped {:?} after SIGTERM", start.elapsed());
    assert_eq!(status.code(), Some(0), "rumi cluster exits 0 on SIGTERM");
    // Every line is in once stderr is closed (its writers, the nodes too, are gone).
    cluster.reader.take().unwrap().join().unwrap();
    let said = cluster.said.lock().unwrap().join("\n");
    for (name, _) in &nodes {
        assert!(
            said.contains(&format!("rumi cluster: node {name} stopped")),
            "node {name} stopped on SIGTERM:\n{said}"
        );
    }
    assert!(!said.contains("did not stop within"), "{said}");
    assert!(!alive(new_pid), "node {victim} (pid {new_pid}) stopped");
    assert!(!alive(nodes[1].1), "node {} stopped", nodes[1].0);
}

#[test]
fn a_cluster_refuses_sqlite() {
    let (_, stderr, code) = rumi_status(
        &[
            "cluster",
            "--nodes",
            "2",
            "--db",
            "sqlite://rumi.db",
            "--addr",
            "127.0.0.1:0",
        ],
        "",
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("PostgreSQL"), "{stderr}");
}
