//! `rumi-bench sockets`: what idle WebSockets cost `rumi serve`, and whether a new
//! client still gets in while many addresses hold the server full.
//!
//! Each server under test is a child process, so that its resident memory (VmRSS of
//! /proc/PID/status) is its own. The client sockets are bound to loopback addresses
//! 127.0.X.Y (Linux routes all of 127.0.0.0/8 to the loopback), so that they come from
//! many addresses and many /24 networks. With `--baseline PATH` the same runs are made
//! against another `rumi` binary first (the main branch's, say), for a comparison in one
//! run.

use std::io::{BufRead, BufReader};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;

use crate::bench_server::{create, hello, progress, ws_url};

#[derive(clap::Args)]
pub struct SocketsBenchArgs {
    /// Idle WebSockets opened for the memory figure.
    #[arg(long, default_value_t = 2000)]
    sockets: usize,
    /// Connections held to fill the server in the lock-out run (the server is started
    /// with this as its --max-connections).
    #[arg(long, default_value_t = 4000)]
    hold: usize,
    /// Source addresses the held connections come from (127.0.X.1: each its own /24).
    #[arg(long, default_value_t = 64)]
    addresses: usize,
    /// Another `rumi` binary to measure first, in the same run (e.g. the main branch's).
    #[arg(long)]
    baseline: Option<PathBuf>,
    /// Only the memory figure, or only the lock-out run.
    #[arg(long, value_parser = ["memory", "lockout"])]
    only: Option<String>,
}

/// What one server binary gave.
#[derive(Default)]
struct Figures {
    rss_start_kb: u64,
    rss_open_kb: u64,
    rss_closed_kb: u64,
    /// After a second round of the same sockets, opened and closed.
    rss_second_kb: u64,
    sockets: usize,
    /// The new client's answer while the server is held full: status and latency.
    newcomer: Option<(u16, Duration)>,
    /// Held sockets the server closed to make room, with their close codes.
    evicted: Vec<u16>,
}

impl Figures {
    fn per_socket_kb(&self) -> f64 {
        self.rss_open_kb.saturating_sub(self.rss_start_kb) as f64 / self.sockets.max(1) as f64
    }
}

pub fn bench(args: SocketsBenchArgs) -> anyhow::Result<()> {
    raise_open_files_limit();
    let this = crate::bench_server::rumi_exe()?;
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        let mut runs = Vec::new();
        if let Some(baseline) = &args.baseline {
            runs.push(("baseline", baseline.clone()));
        }
        runs.push(("this build", this));
        let mut results = Vec::new();
        for (label, binary) in &runs {
            println!("== {label}: {}", binary.display());
            let mut figures = Figures::default();
            if args.only.as_deref() != Some("lockout") {
                memory(binary, args.sockets, &mut figures).await?;
            }
            if args.only.as_deref() != Some("memory") {
                lockout(binary, args.hold, args.addresses, &mut figures).await?;
            }
            results.push((*label, figures));
        }
        println!();
        println!("== summary");
        for (label, f) in &results {
            if f.sockets > 0 {
                println!(
                    "{label:>10}: RSS {} KB at start, {} KB with {} idle WebSockets ({:.1} KB each), {} KB after they closed, {} KB after a second round",
                    f.rss_start_kb, f.rss_open_kb, f.sockets, f.per_socket_kb(), f.rss_closed_kb, f.rss_second_kb
                );
            }
            if let Some((status, latency)) = f.newcomer {
                let codes: std::collections::BTreeSet<u16> = f.evicted.iter().copied().collect();
                println!(
                    "{label:>10}: a new client while {} connections are held: {status} in {:.1} ms; {} held sockets closed by the server (codes {codes:?})",
                    args.hold,
                    latency.as_secs_f64() * 1000.0,
                    f.evicted.len()
                );
            }
        }
        if let [(_, before), (_, after)] = &results[..] {
            if before.sockets > 0 && after.sockets > 0 {
                println!(
                    "RSS per idle WebSocket: {:.1} KB -> {:.1} KB ({:.2}x; target ≤ 32 KB: {})",
                    before.per_socket_kb(),
                    after.per_socket_kb(),
                    after.per_socket_kb() / before.per_socket_kb().max(0.001),
                    if after.per_socket_kb() <= 32.0 { "met" } else { "MISSED" }
                );
            }
        }
        anyhow::Ok(())
    })
}

/// Lifts the soft limit of open files to the hard one: thousands of sockets on each
/// side (the child server inherits it).
fn raise_open_files_limit() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit read and write the struct given, nothing else.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 && limit.rlim_cur < limit.rlim_max
        {
            limit.rlim_cur = limit.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 && limit.rlim_cur < 10_000 {
            eprintln!(
                "note: only {} open files allowed; run `ulimit -n 20000` first",
                limit.rlim_cur
            );
        }
    }
}

/// The server under test, killed when dropped.
struct Server {
    child: Child,
    base: String,
    addr: SocketAddr,
    _dir: TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `binary serve` on a free port and a fresh database, with flags every version has.
fn start(binary: &PathBuf, extra: &[&str]) -> anyhow::Result<Server> {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)?
        .as_nanos();
    let dir = std::env::temp_dir().join(format!("rumi-bench-sockets-{stamp}"));
    std::fs::create_dir_all(&dir)?;
    let db = format!("sqlite://{}", dir.join("rumi.db").display());
    let mut child = Command::new(binary)
        .args(["serve", "--addr", "127.0.0.1:0", "--db", &db])
        .args([
            "--max-open-tables-per-address",
            "0",
            "--tables-per-minute-per-address",
            "0",
        ])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("cannot start {} serve", binary.display()))?;
    let mut line = String::new();
    BufReader::new(child.stdout.take().context("no stdout")?).read_line(&mut line)?;
    let Some(base) = line.trim().strip_prefix("listening on ") else {
        let _ = child.kill();
        bail!("rumi serve did not start: {line}");
    };
    let addr = base
        .trim_start_matches("http://")
        .parse()
        .context("the server's address")?;
    Ok(Server {
        child,
        base: base.to_string(),
        addr,
        _dir: TempDir(dir),
    })
}

fn vm_rss_kb(pid: u32) -> anyhow::Result<u64> {
    crate::bench_server::vm_rss_kb(pid)
}

/// The `i`-th client address: 127.0.X.Y with X = 1 + i mod `networks` (each X a /24 of
/// its own) and Y counting up within it.
fn source(i: usize, networks: usize) -> IpAddr {
    let x = 1 + i % networks;
    let y = 1 + (i / networks) % 250;
    IpAddr::V4(Ipv4Addr::new(127, 0, x as u8, y as u8))
}

type Socket = tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>;

/// A spectator's WebSocket from `from`, after its first view.
async fn open_socket(server: &Server, id: &str, from: IpAddr) -> anyhow::Result<Socket> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(from, 0))?;
    let stream = socket.connect(server.addr).await?;
    let (mut ws, _) = tokio_tungstenite::client_async(ws_url(&server.base, id), stream)
        .await
        .with_context(|| format!("a WebSocket from {from}"))?;
    ws.send(hello(None)).await?;
    loop {
        match tokio::time::timeout(Duration::from_secs(10), ws.next()).await {
            Ok(Some(Ok(Message::Text(_)))) => return Ok(ws),
            Ok(Some(Ok(_))) => continue,
            other => bail!("no first view from {from}: {other:?}"),
        }
    }
}

/// Opens `n` idle sockets from `networks` networks, a few at a time; each is read by
/// a task of its own (which answers the server's pings) until it closes, and the task
/// answers the close code the server sent, if any.
async fn open_many(
    server: &Server,
    id: &str,
    n: usize,
    networks: usize,
    message: &'static str,
) -> anyhow::Result<
    Vec<(
        tokio::sync::oneshot::Sender<()>,
        tokio::task::JoinHandle<Option<u16>>,
    )>,
> {
    let bar = progress(n as u64, message);
    let opened: Vec<anyhow::Result<Socket>> = futures_util::stream::iter(0..n)
        .map(|i| {
            let bar = &bar;
            async move {
                let socket = open_socket(server, id, source(i, networks)).await;
                bar.inc(1);
                socket
            }
        })
        .buffer_unordered(32)
        .collect()
        .await;
    bar.finish_and_clear();
    let mut held = Vec::new();
    for socket in opened {
        let mut socket = socket?;
        let (stop, mut stopped) = tokio::sync::oneshot::channel::<()>();
        let reader = tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = &mut stopped => {
                        let _ = socket.close(None).await;
                        return None;
                    }
                    message = socket.next() => match message {
                        Some(Ok(Message::Close(frame))) => {
                            return Some(frame.map_or(1005, |f| u16::from(f.code)));
                        }
                        Some(Ok(_)) => {}
                        _ => return Some(1006),
                    }
                }
            }
        });
        held.push((stop, reader));
    }
    Ok(held)
}

/// `GET /api/meta` from `from` over a fresh connection: the answer's status.
async fn raw_get(server: SocketAddr, from: IpAddr) -> anyhow::Result<u16> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(from, 0))?;
    let mut stream = socket.connect(server).await?;
    // The server may have answered and closed before reading: a failed write is fine.
    let _ = stream
        .write_all(b"GET /api/meta HTTP/1.1\r\nhost: rumi\r\nconnection: close\r\n\r\n")
        .await;
    let mut answer = Vec::new();
    let mut chunk = [0u8; 4096];
    while answer.len() < 12 {
        match stream.read(&mut chunk).await {
            Ok(0) => break,
            Ok(n) => answer.extend_from_slice(&chunk[..n]),
            // A reset after the answer came: keep what was read.
            Err(e) if !answer.is_empty() => {
                let _ = e;
                break;
            }
            Err(e) => return Err(e.into()),
        }
    }
    let head = String::from_utf8_lossy(&answer);
    head.get(9..12)
        .and_then(|s| s.parse().ok())
        .with_context(|| format!("not an HTTP answer: {head:?}"))
}

async fn table(http: &reqwest::Client, base: &str) -> anyhow::Result<String> {
    let body = json!({
        "game": "rummikub",
        "rummikub": {"rules": "current"},
        "seats": [{"kind": "human"}, {"kind": "human"}],
    });
    Ok(create(http, base, &body).await?.0)
}

/// RSS before and with `n` idle WebSockets (spectators of one table, from many
/// addresses within the default caps), and after they have closed.
async fn memory(binary: &PathBuf, n: usize, figures: &mut Figures) -> anyhow::Result<()> {
    // Within the default caps per address (64) and per network (256).
    let networks = 64.max(n.div_ceil(200));
    let server = start(binary, &["--max-connections", &(n + 100).to_string()])?;
    let pid = server.child.id();
    let http = reqwest::Client::new();
    let id = table(&http, &server.base).await?;
    // A few sockets first: what every socket shares (buffers of the runtime, the
    // allocator's pools) is not counted.
    for (stop, reader) in open_many(&server, &id, 20, networks, "warming up").await? {
        let _ = stop.send(());
        let _ = reader.await;
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    figures.rss_start_kb = vm_rss_kb(pid)?;
    figures.sockets = n;
    // Twice: memory that the first round leaves behind and the second reuses is the
    // allocator's, not a leak.
    for round in 1..=2 {
        let held = open_many(&server, &id, n, networks, "opening idle WebSockets").await?;
        tokio::time::sleep(Duration::from_secs(1)).await;
        let open = vm_rss_kb(pid)?;
        for (stop, reader) in held {
            let _ = stop.send(());
            let _ = reader.await;
        }
        // The server ends each socket as its close arrives; give it a moment, then
        // see whether the memory went back.
        tokio::time::sleep(Duration::from_secs(3)).await;
        let closed = vm_rss_kb(pid)?;
        println!(
            "round {round}: RSS {} KB before, {open} KB with {n} idle WebSockets ({:.1} KB each), {closed} KB three seconds after they closed",
            figures.rss_start_kb,
            open.saturating_sub(figures.rss_start_kb) as f64 / n as f64
        );
        if round == 1 {
            figures.rss_open_kb = open;
            figures.rss_closed_kb = closed;
        } else {
            figures.rss_second_kb = closed;
        }
    }
    Ok(())
}

/// The attack: `hold` idle WebSockets from `addresses` addresses (each in its own /24,
/// each within the per-address cap) fill the server (`--max-connections hold`); then a
/// new client from another network asks for `/api/meta`.
async fn lockout(
    binary: &PathBuf,
    hold: usize,
    addresses: usize,
    figures: &mut Figures,
) -> anyhow::Result<()> {
    let per_address = hold.div_ceil(addresses);
    let server = start(
        binary,
        &[
            "--max-connections",
            &hold.to_string(),
            "--max-connections-per-ip",
            &per_address.max(64).to_string(),
        ],
    )?;
    let http = reqwest::Client::builder()
        .local_address(IpAddr::V4(Ipv4Addr::new(127, 0, 200, 1)))
        .pool_max_idle_per_host(0)
        .build()?;
    let id = table(&http, &server.base).await?;
    // One address per network: 127.0.X.1.
    let held = open_many(&server, &id, hold, addresses.min(250), "filling the server").await?;
    tokio::time::sleep(Duration::from_millis(500)).await;
    // A raw request: a refused connection is answered and closed at once, which an
    // HTTP client may report as a failure instead of the answer.
    let started = Instant::now();
    let status = match raw_get(server.addr, IpAddr::V4(Ipv4Addr::new(127, 0, 201, 1))).await {
        Ok(status) => status,
        Err(e) => {
            println!("the new client got no answer: {e:#}");
            0
        }
    };
    let latency = started.elapsed();
    figures.newcomer = Some((status, latency));
    println!(
        "a new client while {hold} connections are held from {addresses} addresses: {status} in {:.1} ms",
        latency.as_secs_f64() * 1000.0
    );
    // The sockets the server closed to make room have ended by now (or soon).
    tokio::time::sleep(Duration::from_millis(500)).await;
    for (stop, reader) in held {
        if reader.is_finished() {
            if let Ok(Some(code)) = reader.await {
                figures.evicted.push(code);
            }
        } else {
            let _ = stop.send(());
            reader.abort();
        }
    }
    let again_later = figures
        .evicted
        .iter()
        .filter(|&&c| c == u16::from(CloseCode::Again))
        .count();
    println!(
        "{} held sockets were closed by the server ({again_later} with 1013 \"try again later\")",
        figures.evicted.len()
    );
    Ok(())
}
