//! `rumi cluster`: a local cluster in one command. Starts several `rumi serve` nodes on
//! one PostgreSQL database and one NATS server, and a small TCP load balancer in front
//! of them that sends each connection to the next healthy node (WebSockets included:
//! the balancer only copies bytes). A node that dies is started again under the same
//! name; Ctrl-C or SIGTERM makes every node hand its leases over before the cluster
//! exits.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{bail, Context};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::process::{Child, Command};
use tokio::sync::{oneshot, watch};

#[derive(clap::Args)]
pub struct ClusterArgs {
    /// How many `rumi serve` nodes to run.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u16).range(1..=64))]
    nodes: u16,
    /// The nodes' shared database: postgres://user@host/db (SQLite serves one node only).
    #[arg(long)]
    db: String,
    /// The NATS server that carries news between the nodes.
    #[arg(long, default_value = "nats://127.0.0.1:4222")]
    nats: String,
    /// Address of the load balancer that clients connect to (port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Start a node again, under the same name, when its process exits.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set,
          num_args = 0..=1, default_missing_value = "true")]
    restart: bool,
    /// Serve the browser client from this directory (passed to every node) instead of
    /// the one built into the binary.
    #[arg(long)]
    web_dir: Option<PathBuf>,
    /// Milliseconds a bot waits before it moves, so that people can follow.
    #[arg(long, default_value_t = 400)]
    bot_delay_ms: u64,
    /// Seconds a node's lease on a table's bots and clock lasts without renewal.
    #[arg(long, default_value_t = 3)]
    lease_seconds: u64,
    /// Open connections one client address (and network) may hold on a node. Every
    /// client reaches the nodes through the balancer, from 127.0.0.1, so this is high.
    #[arg(long, default_value_t = 100_000)]
    max_connections_per_ip: usize,
    /// Unfinished tables one client address may have created (0: no cap). Behind the
    /// balancer every client has the same address, so there is none by default.
    #[arg(long, default_value_t = 0)]
    max_open_tables_per_address: u64,
    /// Tables one client address may create per minute (0: no cap; see above).
    #[arg(long, default_value_t = 0)]
    tables_per_minute_per_address: u32,
    /// Seconds a player must be away before the others may hand their seat to a bot.
    #[arg(long, default_value_t = 60)]
    handover_after_seconds: u64,
    /// Let creators fix the deal's seed even with other people at the table (tests
    /// and private servers only).
    #[arg(long)]
    allow_chosen_seeds: bool,
}

/// How long a node has to print its address after it was started.
const START_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a node has to hand its leases over after SIGTERM before it is killed.
const STOP_TIMEOUT: Duration = Duration::from_secs(20);
/// How often, and how patiently, the nodes' health is asked.
const HEALTH_EVERY: Duration = Duration::from_secs(1);
const HEALTH_TIMEOUT: Duration = Duration::from_millis(800);
/// How long the balancer waits to reach a node before it tries the next one.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);

/// What the balancer and the health checks know of one node.
struct Node {
    name: String,
    /// Where the node listens; `None` while it is (re)starting or dead.
    addr: Option<SocketAddr>,
    /// The last health answer: `None` before the first one.
    healthy: Option<bool>,
}

/// The nodes, shared by the balancer, the health checks and the node supervisors.
struct Cluster {
    nodes: Mutex<Vec<Node>>,
    next: AtomicUsize,
}

impl Cluster {
    /// The nodes to try for a new connection, the next one in turn first: the healthy
    /// ones, or every running one when none is known healthy.
    fn candidates(&self) -> Vec<(usize, SocketAddr)> {
        let nodes = self.nodes.lock().expect("node list lock");
        let running: Vec<(usize, SocketAddr, bool)> = nodes
            .iter()
            .enumerate()
            .filter_map(|(i, n)| n.addr.map(|a| (i, a, n.healthy == Some(true))))
            .collect();
        let healthy: Vec<(usize, SocketAddr)> = running
            .iter()
            .filter(|(_, _, h)| *h)
            .map(|(i, a, _)| (*i, *a))
            .collect();
        let mut list = if healthy.is_empty() {
            running.iter().map(|(i, a, _)| (*i, *a)).collect()
        } else {
            healthy
        };
        if !list.is_empty() {
            let start = self.next.fetch_add(1, Ordering::Relaxed) % list.len();
            list.rotate_left(start);
        }
        list
    }

    /// Records a health answer for the node at `addr` (ignored if the node has moved
    /// since); prints a line when the node turns unhealthy or healthy again.
    fn set_health(&self, index: usize, addr: SocketAddr, healthy: bool, why: &str, quiet: bool) {
        let mut nodes = self.nodes.lock().expect("node list lock");
        let node = &mut nodes[index];
        if node.addr != Some(addr) {
            return;
        }
        let before = node.healthy;
        node.healthy = Some(healthy);
        if quiet {
            return;
        }
        match (before, healthy) {
            (Some(true) | None, false) => println!("node {} unhealthy: {why}", node.name),
            (Some(false), true) => println!("node {} healthy", node.name),
            _ => {}
        }
    }
}

pub fn cluster(args: ClusterArgs) -> anyhow::Result<()> {
    if !(args.db.starts_with("postgres://") || args.db.starts_with("postgresql://")) {
        bail!(
            "rumi cluster runs several nodes on one database, which must be PostgreSQL: \
             give --db postgres://user@host/db (SQLite serves a single node: use rumi serve)"
        );
    }
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let result = runtime.block_on(run(args));
    runtime.shutdown_timeout(Duration::from_secs(1));
    result
}

async fn run(args: ClusterArgs) -> anyhow::Result<()> {
    let exe = std::env::current_exe().context("cannot find the rumi executable")?;
    let listener = TcpListener::bind(args.addr)
        .await
        .with_context(|| format!("cannot listen on {}", args.addr))?;
    let balancer = listener.local_addr()?;
    let names: Vec<String> = (1..=args.nodes).map(|i| format!("node{i}")).collect();
    let cluster = Arc::new(Cluster {
        nodes: Mutex::new(
            names
                .iter()
                .map(|name| Node {
                    name: name.clone(),
                    addr: None,
                    healthy: None,
                })
                .collect(),
        ),
        next: AtomicUsize::new(0),
    });
    let serve_args = Arc::new(serve_args(&args));
    let (stop_tx, stop_rx) = watch::channel(false);
    let (announced_tx, announced_rx) = watch::channel(false);

    // Start the nodes side by side; each supervisor reports its node's first start.
    let mut supervisors = Vec::new();
    let mut first_starts = Vec::new();
    for (index, name) in names.iter().enumerate() {
        let (started_tx, started_rx) = oneshot::channel();
        first_starts.push(started_rx);
        supervisors.push(tokio::spawn(supervise(Supervisor {
            index,
            name: name.clone(),
            exe: exe.clone(),
            serve_args: serve_args.clone(),
            cluster: cluster.clone(),
            restart: args.restart,
            stop: stop_rx.clone(),
            announced: announced_rx.clone(),
            started: Some(started_tx),
        })));
    }
    let mut started = Vec::new();
    let mut failure = None;
    for (name, first) in names.iter().zip(first_starts) {
        match first.await {
            Ok(Ok(node)) => started.push((name, node)),
            Ok(Err(e)) => {
                failure.get_or_insert(e.context(format!("node {name} did not start")));
            }
            Err(_) => {
                failure.get_or_insert(anyhow::anyhow!("node {name} did not start"));
            }
        }
    }
    if let Some(error) = failure {
        let _ = stop_tx.send(true);
        for supervisor in supervisors {
            let _ = supervisor.await;
        }
        return Err(error);
    }

    // Know who is healthy before the first client comes.
    check_health(&cluster, true).await;

    // Tests and scripts read this line to find the port.
    println!("listening on http://{balancer}");
    for (name, (addr, pid)) in &started {
        println!("node {name} http://{addr} pid {pid}");
    }
    eprintln!(
        "rumi cluster: {} nodes on {} and NATS {}, balanced on http://{balancer}",
        args.nodes,
        server::redact_url(&args.db),
        args.nats
    );
    let _ = announced_tx.send(true);

    let health = tokio::spawn({
        let cluster = cluster.clone();
        async move {
            let mut every = tokio::time::interval(HEALTH_EVERY);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                every.tick().await;
                check_health(&cluster, false).await;
            }
        }
    });
    let balance = tokio::spawn(balance(listener, cluster.clone()));

    let mut terminate = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .context("cannot listen for SIGTERM")?;
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = terminate.recv() => {}
    }
    eprintln!("rumi cluster: stopping the nodes (they hand their leases over)");
    balance.abort();
    health.abort();
    let _ = stop_tx.send(true);
    for supervisor in supervisors {
        let _ = supervisor.await;
    }
    eprintln!("rumi cluster: stopped");
    Ok(())
}

/// The flags every node gets besides its name and address.
fn serve_args(args: &ClusterArgs) -> Vec<String> {
    let mut list: Vec<String> = vec![
        "--db".into(),
        args.db.clone(),
        "--nats".into(),
        args.nats.clone(),
        "--lease-seconds".into(),
        args.lease_seconds.to_string(),
        "--bot-delay-ms".into(),
        args.bot_delay_ms.to_string(),
        "--max-connections-per-ip".into(),
        args.max_connections_per_ip.to_string(),
        "--max-connections-per-network".into(),
        args.max_connections_per_ip.to_string(),
        "--max-open-tables-per-address".into(),
        args.max_open_tables_per_address.to_string(),
        "--tables-per-minute-per-address".into(),
        args.tables_per_minute_per_address.to_string(),
        "--handover-after-seconds".into(),
        args.handover_after_seconds.to_string(),
    ];
    if let Some(dir) = &args.web_dir {
        list.push("--web-dir".into());
        list.push(dir.display().to_string());
    }
    if args.allow_chosen_seeds {
        list.push("--allow-chosen-seeds".into());
    }
    list
}

/// Asks every running node `GET /api/health` at once; 200 is healthy, anything else
/// (or no answer in time) is not.
async fn check_health(cluster: &Cluster, quiet: bool) {
    let targets: Vec<(usize, SocketAddr)> = {
        let nodes = cluster.nodes.lock().expect("node list lock");
        nodes
            .iter()
            .enumerate()
            .filter_map(|(i, n)| n.addr.map(|a| (i, a)))
            .collect()
    };
    let answers = futures_util::future::join_all(targets.iter().map(|(_, addr)| async move {
        match tokio::time::timeout(HEALTH_TIMEOUT, health_status(*addr)).await {
            Ok(Ok(status)) if status.is_success() => (true, String::new()),
            Ok(Ok(status)) => (false, format!("health answers {status}")),
            Ok(Err(_)) => (false, "health unreachable".to_string()),
            Err(_) => (false, "health does not answer".to_string()),
        }
    }))
    .await;
    for ((index, addr), (healthy, why)) in targets.into_iter().zip(answers) {
        cluster.set_health(index, addr, healthy, &why, quiet);
    }
}

/// The status of `GET /api/health` on one node, over a connection of its own (hyper's
/// HTTP/1 client: the server's HTTP library).
async fn health_status(addr: SocketAddr) -> anyhow::Result<hyper::StatusCode> {
    let stream = TcpStream::connect(addr).await?;
    let (mut sender, connection) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream)).await?;
    let connection = tokio::spawn(connection);
    let request = hyper::Request::get("/api/health")
        .header(hyper::header::HOST, addr.to_string())
        .body(String::new())?;
    let status = sender.send_request(request).await?.status();
    connection.abort();
    Ok(status)
}

/// The load balancer: every connection goes to the next healthy node; a node that
/// cannot be reached is marked unhealthy and the next one is tried.
async fn balance(listener: TcpListener, cluster: Arc<Cluster>) {
    loop {
        let client = match listener.accept().await {
            Ok((client, _)) => client,
            Err(e) => {
                // Out of file descriptors and the like: wait rather than spin.
                eprintln!("rumi cluster: accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let cluster = cluster.clone();
        tokio::spawn(async move {
            if let Some(mut upstream) = connect(&cluster).await {
                let mut client = client;
                let _ = client.set_nodelay(true);
                let _ = upstream.set_nodelay(true);
                let _ = tokio::io::copy_bidirectional(&mut client, &mut upstream).await;
            }
        });
    }
}

/// A connection to a node for a new client, or `None` when no node can be reached.
async fn connect(cluster: &Cluster) -> Option<TcpStream> {
    // Right after a node died or while the nodes restart, none may be listening: wait
    // a little for one.
    for _ in 0..50 {
        let candidates = cluster.candidates();
        for (index, addr) in &candidates {
            match tokio::time::timeout(CONNECT_TIMEOUT, TcpStream::connect(addr)).await {
                Ok(Ok(stream)) => return Some(stream),
                Ok(Err(e)) => cluster.set_health(*index, *addr, false, &e.to_string(), false),
                Err(_) => cluster.set_health(*index, *addr, false, "connect timed out", false),
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    None
}

/// One node's keeper: starts it, watches it, starts it again when it exits, and
/// stops it (SIGTERM, then SIGKILL after [`STOP_TIMEOUT`]) when the cluster stops.
struct Supervisor {
    index: usize,
    name: String,
    exe: PathBuf,
    serve_args: Arc<Vec<String>>,
    cluster: Arc<Cluster>,
    restart: bool,
    stop: watch::Receiver<bool>,
    announced: watch::Receiver<bool>,
    /// Where the first start is reported (address and pid); `None` afterwards.
    started: Option<oneshot::Sender<anyhow::Result<(SocketAddr, u32)>>>,
}

async fn supervise(mut s: Supervisor) {
    let mut failures = 0u32;
    loop {
        if *s.stop.borrow() {
            return;
        }
        let start = tokio::select! {
            start = start_node(&s.exe, &s.name, &s.serve_args) => start,
            _ = s.stop.wait_for(|stop| *stop) => return,
        };
        let (mut child, addr) = match start {
            Ok(started) => started,
            Err(e) => {
                if let Some(report) = s.started.take() {
                    let _ = report.send(Err(e));
                    return;
                }
                failures += 1;
                let wait = Duration::from_secs(u64::from(failures.min(5)));
                println!(
                    "node {} did not start: {e:#}; trying again in {wait:?}",
                    s.name
                );
                tokio::select! {
                    _ = tokio::time::sleep(wait) => continue,
                    _ = s.stop.wait_for(|stop| *stop) => return,
                }
            }
        };
        let pid = child.id().unwrap_or(0);
        {
            let mut nodes = s.cluster.nodes.lock().expect("node list lock");
            nodes[s.index].addr = Some(addr);
            nodes[s.index].healthy = None;
        }
        if let Some(report) = s.started.take() {
            let _ = report.send(Ok((addr, pid)));
            // The cluster prints its own address first, then every node's.
            tokio::select! {
                _ = s.announced.wait_for(|a| *a) => {}
                _ = s.stop.wait_for(|stop| *stop) => {}
            }
        } else {
            println!("node {} http://{addr} pid {pid}", s.name);
        }
        let ran_from = tokio::time::Instant::now();
        let exited = tokio::select! {
            status = child.wait() => Some(status),
            _ = s.stop.wait_for(|stop| *stop) => None,
        };
        let Some(status) = exited else {
            stop_node(&mut child, &s.name, pid).await;
            mark_down(&s.cluster, s.index);
            return;
        };
        mark_down(&s.cluster, s.index);
        let again = s.restart && !*s.stop.borrow();
        println!(
            "node {} (pid {pid}) exited: {}{}",
            s.name,
            describe(status),
            if again { "; restarting" } else { "" }
        );
        if !again {
            return;
        }
        // A node that keeps dying right after it started is restarted ever more slowly.
        if ran_from.elapsed() < Duration::from_secs(10) {
            failures += 1;
        } else {
            failures = 0;
        }
        let wait = Duration::from_millis(200 * u64::from(failures.min(25)));
        tokio::select! {
            _ = tokio::time::sleep(wait) => {}
            _ = s.stop.wait_for(|stop| *stop) => return,
        }
    }
}

fn mark_down(cluster: &Cluster, index: usize) {
    let mut nodes = cluster.nodes.lock().expect("node list lock");
    nodes[index].addr = None;
    nodes[index].healthy = Some(false);
}

fn describe(status: std::io::Result<ExitStatus>) -> String {
    use std::os::unix::process::ExitStatusExt;
    match status {
        Ok(status) => match (status.code(), status.signal()) {
            (Some(code), _) => format!("status {code}"),
            (None, Some(signal)) => format!("signal {signal}"),
            _ => status.to_string(),
        },
        Err(e) => format!("cannot wait for it: {e}"),
    }
}

/// Starts `rumi serve` as node `name` on a free port and reads the address it prints.
async fn start_node(
    exe: &PathBuf,
    name: &str,
    serve_args: &[String],
) -> anyhow::Result<(Child, SocketAddr)> {
    let mut command = Command::new(exe);
    command
        .args(["serve", "--addr", "127.0.0.1:0", "--node-id", name])
        .args(serve_args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // A node whose start is given up (or a supervisor dropped) does not linger.
        .kill_on_drop(true)
        // Its own process group: a Ctrl-C in the terminal reaches only the cluster,
        // which stops the nodes with SIGTERM so that they hand their leases over.
        .process_group(0);
    let parent = std::process::id();
    // SAFETY: between fork and exec only async-signal-safe calls (prctl, getppid, kill).
    unsafe {
        command.pre_exec(move || {
            // If the cluster dies without stopping its nodes, they stop themselves.
            // (The signal comes when the spawning thread ends: a runtime worker,
            // which lives as long as the cluster.)
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM) == -1 {
                return Err(std::io::Error::last_os_error());
            }
            if libc::getppid() != parent as libc::pid_t {
                libc::kill(libc::getpid(), libc::SIGTERM);
            }
            Ok(())
        });
    }
    let mut child = command
        .spawn()
        .with_context(|| format!("cannot start {}", exe.display()))?;
    let stdout = child.stdout.take().expect("piped stdout");
    let stderr = child.stderr.take().expect("piped stderr");
    // The node's log, each line marked with its name.
    let prefix = name.to_string();
    tokio::spawn(async move {
        let mut lines = BufReader::new(stderr).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            eprintln!("[{prefix}] {line}");
        }
    });
    let mut lines = BufReader::new(stdout).lines();
    let first = tokio::time::timeout(START_TIMEOUT, lines.next_line()).await;
    let addr = match first {
        Ok(Ok(Some(line))) => line
            .trim()
            .strip_prefix("listening on http://")
            .and_then(|a| a.parse::<SocketAddr>().ok())
            .with_context(|| format!("unexpected first line from the node: {line}")),
        Ok(Ok(None)) => {
            let status = describe(child.wait().await);
            Err(anyhow::anyhow!(
                "it exited before it listened ({status}; its log is above)"
            ))
        }
        Ok(Err(e)) => Err(anyhow::Error::new(e).context("cannot read its output")),
        Err(_) => Err(anyhow::anyhow!(
            "it did not listen within {START_TIMEOUT:?}"
        )),
    };
    let addr = match addr {
        Ok(addr) => addr,
        Err(e) => {
            let _ = child.kill().await;
            return Err(e);
        }
    };
    // Whatever else it prints goes to the cluster's stdout, marked.
    let prefix = name.to_string();
    tokio::spawn(async move {
        while let Ok(Some(line)) = lines.next_line().await {
            println!("[{prefix}] {line}");
        }
    });
    Ok((child, addr))
}

/// SIGTERM, so that the node hands its leases over; SIGKILL if it takes too long.
async fn stop_node(child: &mut Child, name: &str, pid: u32) {
    if let Ok(Some(_)) = child.try_wait() {
        return;
    }
    // SAFETY: kill(2) on our own child, which has not been reaped (try_wait above).
    unsafe {
        libc::kill(pid as libc::pid_t, libc::SIGTERM);
    }
    match tokio::time::timeout(STOP_TIMEOUT, child.wait()).await {
        Ok(status) => eprintln!("rumi cluster: node {name} stopped ({})", describe(status)),
        Err(_) => {
            eprintln!("rumi cluster: node {name} did not stop within {STOP_TIMEOUT:?}: killing it");
            let _ = child.kill().await;
        }
    }
}
