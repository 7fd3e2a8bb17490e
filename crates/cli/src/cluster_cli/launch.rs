//! The local cluster's launcher (Linux): the nodes, each under a supervisor that starts
//! it again when it exits, and HAProxy on the socket bound here.

use std::net::SocketAddr;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use command_fds::{CommandFdExt, FdMapping};
use nix::sys::signal::{kill, Signal};
use nix::unistd::{getpid, getppid, Pid};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::{oneshot, watch};

use super::{haproxy_config, ClusterArgs};

/// How long a node has to print its address after it was started.
const START_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a node has to hand its leases over after SIGTERM before it is killed.
const STOP_TIMEOUT: Duration = Duration::from_secs(20);
/// How long HAProxy has to stop after SIGTERM before it is killed.
const HAPROXY_STOP_TIMEOUT: Duration = Duration::from_secs(5);

pub(super) async fn run(args: ClusterArgs) -> anyhow::Result<()> {
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
    // The listener is HAProxy's fd 3, open across exec (the Command holds a copy).
    let socket = OwnedFd::from(listener.try_clone().context("cannot share the listener")?);
    command
        .fd_mappings(vec![FdMapping {
            parent_fd: socket,
            child_fd: 3,
        }])
        .context("cannot hand HAProxy its socket")?;
    die_with_parent(&mut command);
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

/// Has the child get SIGTERM when the cluster dies without stopping it. (The signal
/// comes when the spawning thread ends: a runtime worker, which lives as long as the
/// cluster.)
fn die_with_parent(command: &mut Command) {
    let parent = Pid::this();
    // SAFETY: the hook runs between fork and exec, where only async-signal-safe calls
    // are allowed: prctl, getppid, getpid and kill are, and it allocates nothing.
    unsafe {
        command.pre_exec(move || {
            nix::sys::prctl::set_pdeathsig(Signal::SIGTERM)?;
            // The cluster died before the prctl: stop now.
            if getppid() != parent {
                kill(getpid(), Signal::SIGTERM)?;
            }
            Ok(())
        });
    }
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
    // If the cluster dies without stopping its nodes, they stop themselves.
    die_with_parent(&mut command);
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
    // Our own child, not reaped yet (try_wait above): the pid is still its.
    let _ = kill(Pid::from_raw(pid as i32), Signal::SIGTERM);
    match tokio::time::timeout(patience, child.wait()).await {
        Ok(status) => eprintln!("rumi cluster: {name} stopped ({})", describe(status)),
        Err(_) => {
            eprintln!("rumi cluster: {name} did not stop within {patience:?}: killing it");
            let _ = child.kill().await;
        }
    }
}
