//! `rumi cluster`: a local cluster in one command. Starts several `rumi serve` nodes on
//! one PostgreSQL database and one NATS server, and HAProxy (Debian's `haproxy`) in
//! front of them with a configuration from [`haproxy_config`]: round robin over the
//! nodes whose `/api/health` answers 200, WebSockets included. A node that dies is
//! started again under the same name and port; Ctrl-C or SIGTERM makes every node hand
//! its leases over before the cluster exits.

use std::net::SocketAddr;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::{oneshot, watch};

#[derive(clap::Args)]
pub struct ClusterArgs {
    /// How many `rumi serve` nodes to run.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u16).range(1..=64))]
    nodes: u16,
    /// The nodes' shared database: postgres://user@host/db (SQLite serves one node only).
    #[arg(long, required_unless_present = "print_haproxy_config")]
    db: Option<String>,
    /// The NATS server that carries news between the nodes.
    #[arg(long, default_value = "nats://127.0.0.1:4222")]
    nats: String,
    /// Address of HAProxy, which clients connect to (port 0 picks a free port).
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
    /// Open connections one client address may hold on a node (the balancer passes
    /// each client's address and the nodes trust it, so every limit counts clients).
    #[arg(long, default_value_t = server::Limits::default().max_connections_per_ip)]
    max_connections_per_ip: usize,
    /// Open connections one client network may hold on a node.
    #[arg(long, default_value_t = server::Limits::default().max_connections_per_network)]
    max_connections_per_network: usize,
    /// Unfinished tables one client address may have created (0: no cap).
    #[arg(long, default_value_t = server::HubOptions::default().max_open_tables_per_address)]
    max_open_tables_per_address: u64,
    /// Tables one client address may create per minute (0: no cap).
    #[arg(long, default_value_t = server::HubOptions::default().tables_per_minute_per_address)]
    tables_per_minute_per_address: u32,
    /// Seconds a player must be away before the others may hand their seat to a bot.
    #[arg(long, default_value_t = 60)]
    handover_after_seconds: u64,
    /// Let creators fix the deal's seed even with other people at the table (tests
    /// and private servers only).
    #[arg(long)]
    allow_chosen_seeds: bool,
    /// Print the HAProxy configuration for `--addr` and `--nodes` nodes listening on
    /// 127.0.0.1:8081 and up, and exit (a start for production's, see docs/cluster.md).
    #[arg(long)]
    print_haproxy_config: bool,
}

/// How long a node has to print its address after it was started.
const START_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a node has to hand its leases over after SIGTERM before it is killed.
const STOP_TIMEOUT: Duration = Duration::from_secs(20);
/// How long HAProxy has to stop after SIGTERM before it is killed.
const HAPROXY_STOP_TIMEOUT: Duration = Duration::from_secs(5);

/// The HAProxy configuration for clients on `bind` (an address, or `fd@N` for a socket
/// HAProxy inherits) and the nodes `(name, address)`. It keeps the nodes whose
/// `/api/health` answers 200 (a degraded node still does; a draining one answers 503),
/// asks every second, and retries a failed connection on another node.
pub fn haproxy_config(bind: &str, nodes: &[(String, String)]) -> String {
    let mut text = format!(
        "global
    log stderr format short local0 notice

defaults
    mode http
    log global
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    # A WebSocket stays open as long as its game.
    timeout tunnel 1h
    timeout http-request 10s
    timeout check 800ms
    # A node that refuses a connection (dead, restarting) is skipped for the next one.
    retries 3
    option redispatch 1

frontend rumi
    bind {bind}
    # The nodes trust this balancer (--trusted-proxy) for the client's address, which
    # they read from X-Forwarded-For only: whatever forwarding headers the client sent
    # are replaced or removed here.
    http-request set-header X-Forwarded-For %[src]
    http-request del-header Forwarded
    http-request del-header X-Real-IP
    default_backend nodes

backend nodes
    balance roundrobin
    option httpchk GET /api/health
    http-check expect status 200
    default-server check inter 1s fall 1 rise 1
"
    );
    for (name, addr) in nodes {
        text.push_str(&format!("    server {name} {addr}\n"));
    }
    text
}

pub fn cluster(args: ClusterArgs) -> anyhow::Result<()> {
    if args.print_haproxy_config {
        let nodes: Vec<(String, String)> = (1..=args.nodes)
            .map(|i| (format!("node{i}"), format!("127.0.0.1:{}", 8080 + i)))
            .collect();
        print!("{}", haproxy_config(&args.addr.to_string(), &nodes));
        return Ok(());
    }
    let db = args.db.as_deref().unwrap_or_default();
    if !(db.starts_with("postgres://") || db.starts_with("postgresql://")) {
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
    let haproxy = haproxy_binary()?;
    // Bound here, so that port 0 works and no one takes the port; HAProxy inherits it.
    let listener = std::net::TcpListener::bind(args.addr)
        .with_context(|| format!("cannot listen on {}", args.addr))?;
    let balancer = listener.local_addr()?;
    let names: Vec<String> = (1..=args.nodes).map(|i| format!("node{i}")).collect();
    // Each node keeps its port across restarts, so HAProxy's configuration holds.
    let addrs = free_ports(names.len())?;
    let serve_args = Arc::new(serve_args(&args));
    let (stop_tx, stop_rx) = watch::channel(false);
    let (announced_tx, announced_rx) = watch::channel(false);

    // Start the nodes side by side; each supervisor reports its node's first start.
    let mut supervisors = Vec::new();
    let mut first_starts = Vec::new();
    for (name, addr) in names.iter().zip(&addrs) {
        let (started_tx, started_rx) = oneshot::channel();
        first_starts.push(started_rx);
        supervisors.push(tokio::spawn(supervise(Supervisor {
            name: name.clone(),
            addr: *addr,
            exe: exe.clone(),
            serve_args: serve_args.clone(),
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
    let proxy = match failure {
        None => start_haproxy(&haproxy, &listener, &names, &addrs).await,
        Some(error) => Err(error),
    };
    drop(listener);
    let (mut proxy, _config_dir) = match proxy {
        Ok(proxy) => proxy,
        Err(error) => {
            let _ = stop_tx.send(true);
            for supervisor in supervisors {
                let _ = supervisor.await;
            }
            return Err(error);
        }
    };

    // Tests and scripts read this line to find the port.
    println!("listening on http://{balancer}");
    for (name, (addr, pid)) in &started {
        println!("node {name} http://{addr} pid {pid}");
    }
    eprintln!(
        "rumi cluster: {} nodes on {} and NATS {}, HAProxy on http://{balancer}",
        args.nodes,
        server::redact_url(args.db.as_deref().unwrap_or_default()),
        args.nats
    );
    let _ = announced_tx.send(true);

    let mut terminate = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .context("cannot listen for SIGTERM")?;
    let mut result = Ok(());
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = terminate.recv() => {}
        status = proxy.wait() => {
            result = Err(anyhow::anyhow!("HAProxy exited: {}", describe(status)));
        }
    }
    eprintln!("rumi cluster: stopping the nodes (they hand their leases over)");
    stop_child(&mut proxy, "haproxy", HAPROXY_STOP_TIMEOUT).await;
    let _ = stop_tx.send(true);
    for supervisor in supervisors {
        let _ = supervisor.await;
    }
    eprintln!("rumi cluster: stopped");
    result
}

/// `haproxy` on the PATH, or Debian's /usr/sbin/haproxy.
fn haproxy_binary() -> anyhow::Result<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/sbin")])
        .map(|dir| dir.join("haproxy"))
        .find(|file| file.is_file())
        .context("rumi cluster needs HAProxy in front of the nodes: apt-get install haproxy")
}

/// `count` addresses on 127.0.0.1 that were free a moment ago.
fn free_ports(count: usize) -> anyhow::Result<Vec<SocketAddr>> {
    // All held at once, so that they differ.
    let held = (0..count)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0"))
        .collect::<std::io::Result<Vec<_>>>()
        .context("cannot find free ports for the nodes")?;
    held.iter()
        .map(|l| l.local_addr().context("a free port"))
        .collect()
}

/// Writes the configuration into a temporary directory and starts HAProxy in the foreground on the inherited `listener` (as fd 3).
async fn start_haproxy(
    haproxy: &Path,
    listener: &std::net::TcpListener,
    names: &[String],
    addrs: &[SocketAddr],
) -> anyhow::Result<(Child, ConfigDir)> {
    let nodes: Vec<(String, String)> = names
        .iter()
        .zip(addrs)
        .map(|(name, addr)| (name.clone(), addr.to_string()))
        .collect();
    let dir = ConfigDir(std::env::temp_dir().join(format!("rumi-cluster-{}", std::process::id())));
    std::fs::create_dir_all(&dir.0).with_context(|| format!("cannot make {}", dir.0.display()))?;
    let config = dir.0.join("haproxy.cfg");
    std::fs::write(&config, haproxy_config("fd@3", &nodes))
        .with_context(|| format!("cannot write {}", config.display()))?;
    let mut command = Command::new(haproxy);
    command
        .arg("-db")
        .arg("-f")
        .arg(&config)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .process_group(0);
    let fd = listener.as_raw_fd();
    let parent = std::process::id();
    // SAFETY: between fork and exec only async-signal-safe calls (dup2, fcntl, prctl,
    // getppid, kill).
    unsafe {
        command.pre_exec(move || {
            // fd 3 is the listener, open across exec.
            if fd == 3 {
                let flags = libc::fcntl(3, libc::F_GETFD);
                libc::fcntl(3, libc::F_SETFD, flags & !libc::FD_CLOEXEC);
            } else if libc::dup2(fd, 3) == -1 {
                return Err(std::io::Error::last_os_error());
            }
            die_with_parent(parent)
        });
    }
    let mut child = command
        .spawn()
        .with_context(|| format!("cannot start {}", haproxy.display()))?;
    let stderr = child.stderr.take().expect("piped stderr");
    tokio::spawn(async move {
        let mut lines = BufReader::new(stderr).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            eprintln!("[haproxy] {line}");
        }
    });
    Ok((child, dir))
}

/// The cluster's directory for HAProxy's configuration, removed when the cluster ends.
struct ConfigDir(PathBuf);

impl Drop for ConfigDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// In a child before exec: it gets SIGTERM when the cluster dies without stopping it.
/// (The signal comes when the spawning thread ends: a runtime worker, which lives as
/// long as the cluster.)
fn die_with_parent(parent: u32) -> std::io::Result<()> {
    // SAFETY: async-signal-safe calls only.
    unsafe {
        if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM) == -1 {
            return Err(std::io::Error::last_os_error());
        }
        if libc::getppid() != parent as libc::pid_t {
            libc::kill(libc::getpid(), libc::SIGTERM);
        }
    }
    Ok(())
}

/// The flags every node gets besides its name and address.
fn serve_args(args: &ClusterArgs) -> Vec<String> {
    let mut list: Vec<String> = vec![
        "--db".into(),
        args.db.clone().unwrap_or_default(),
        "--nats".into(),
        args.nats.clone(),
        "--lease-seconds".into(),
        args.lease_seconds.to_string(),
        "--bot-delay-ms".into(),
        args.bot_delay_ms.to_string(),
        "--max-connections-per-ip".into(),
        args.max_connections_per_ip.to_string(),
        "--max-connections-per-network".into(),
        args.max_connections_per_network.to_string(),
        "--max-open-tables-per-address".into(),
        args.max_open_tables_per_address.to_string(),
        "--tables-per-minute-per-address".into(),
        args.tables_per_minute_per_address.to_string(),
        "--handover-after-seconds".into(),
        args.handover_after_seconds.to_string(),
        // HAProxy, on this machine, says who the client is: per-address limits count
        // the real client.
        "--trusted-proxy".into(),
        "127.0.0.1".into(),
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

/// One node's keeper: starts it, watches it, starts it again when it exits, and
/// stops it (SIGTERM, then SIGKILL after [`STOP_TIMEOUT`]) when the cluster stops.
struct Supervisor {
    name: String,
    /// Where the node listens, every time it starts.
    addr: SocketAddr,
    exe: PathBuf,
    serve_args: Arc<Vec<String>>,
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
            start = start_node(&s.exe, &s.name, s.addr, &s.serve_args) => start,
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
            stop_child(&mut child, &format!("node {}", s.name), STOP_TIMEOUT).await;
            return;
        };
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

/// Starts `rumi serve` as node `name` on `addr` and reads the address it prints.
async fn start_node(
    exe: &PathBuf,
    name: &str,
    addr: SocketAddr,
    serve_args: &[String],
) -> anyhow::Result<(Child, SocketAddr)> {
    let mut command = Command::new(exe);
    command
        .args(["serve", "--addr", &addr.to_string(), "--node-id", name])
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
    // SAFETY: between fork and exec only async-signal-safe calls.
    unsafe {
        // If the cluster dies without stopping its nodes, they stop themselves.
        command.pre_exec(move || die_with_parent(parent));
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

/// SIGTERM (a node hands its leases over); SIGKILL if it takes longer than `patience`.
async fn stop_child(child: &mut Child, name: &str, patience: Duration) {
    if let Ok(Some(_)) = child.try_wait() {
        return;
    }
    let Some(pid) = child.id() else { return };
    // SAFETY: kill(2) on our own child, which has not been reaped (try_wait above).
    unsafe {
        libc::kill(pid as libc::pid_t, libc::SIGTERM);
    }
    match tokio::time::timeout(patience, child.wait()).await {
        Ok(status) => eprintln!("rumi cluster: {name} stopped ({})", describe(status)),
        Err(_) => {
            eprintln!("rumi cluster: {name} did not stop within {patience:?}: killing it");
            let _ = child.kill().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nodes() -> Vec<(String, String)> {
        vec![
            ("node1".into(), "127.0.0.1:8081".into()),
            ("node2".into(), "127.0.0.1:8082".into()),
        ]
    }

    #[test]
    fn the_haproxy_config_checks_health_and_lists_every_node() {
        let text = haproxy_config("0.0.0.0:8080", &nodes());
        assert!(text.contains("    bind 0.0.0.0:8080\n"), "{text}");
        assert!(text.contains("option httpchk GET /api/health\n"), "{text}");
        // A draining node answers 503: out of rotation. A degraded one answers 200.
        assert!(text.contains("http-check expect status 200\n"), "{text}");
        assert!(text.contains("balance roundrobin\n"), "{text}");
        assert!(text.contains("timeout tunnel "), "{text}");
        assert!(text.contains("option redispatch"), "{text}");
        assert!(
            text.contains("http-request set-header X-Forwarded-For %[src]\n"),
            "the nodes learn the client's address, never one the client wrote"
        );
        assert!(
            text.contains("http-request del-header Forwarded\n"),
            "{text}"
        );
        assert!(!text.contains("option forwardfor"), "{text}");
        assert!(
            text.ends_with("    server node1 127.0.0.1:8081\n    server node2 127.0.0.1:8082\n")
        );
    }

    #[test]
    fn docs_cluster_md_shows_the_generated_config() {
        let docs = include_str!("../../../docs/cluster.md");
        let text = haproxy_config("0.0.0.0:8080", &nodes());
        assert!(
            docs.contains(&format!("```\n{text}```\n")),
            "docs/cluster.md should show:\n{text}"
        );
    }
}
