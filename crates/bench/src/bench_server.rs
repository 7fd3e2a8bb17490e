//! `rumi-bench server`: a bounded load run on loopback. Starts `rumi serve` as a child
//! process, opens many tables where one seat is played by this program (over a
//! WebSocket, with a think time) and the rest by the server's bots, watches every table
//! with a WebSocket spectator, kills the server with SIGKILL halfway and starts it
//! again on the same database. Reports actions per second, the latency of this
//! program's actions (sent → its ack, and sent → the view with it), lost or duplicated
//! actions, and the bytes of the view messages (whole views and patches: the sockets
//! ask for patches, as the browser does).
//!
//! Three more modes measure the resources issue 19 sets targets for:
//! - `--memory`: the server's resident memory per open table (≤ 100 KB);
//! - `--restart`: the time to the first answer after a restart with 10,000 unfinished
//!   tables in the database (< 1 s);
//! - `--fairness`: a person's wait for a bot's reply while 40 all-bot tables of the
//!   strongest level run (p99 < 500 ms).
//!
//! Every mode speaks the server contract v2 (`/work/CONTRACT.md`): seat kinds
//! `human`/`open`/`bot`, the creator's token in `you`, the token in the `X-Seat-Token`
//! header and in the WebSocket's first message (`hello`), never in a URL.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use clap::Args;
use futures_util::{SinkExt, StreamExt};
use indicatif::{ProgressBar, ProgressStyle};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::Message;

#[derive(Args)]
pub struct ServerBenchArgs {
    /// Tables. The load run: concurrent tables, half Rumis, half Rummikub (default
    /// 500); --memory: waiting tables created (default 1000); --restart: unfinished
    /// tables in the database (default 10000); --fairness: all-bot tables (default 40).
    #[arg(long)]
    pub tables: Option<usize>,
    /// Length of the run in seconds; the server is killed and restarted halfway.
    #[arg(long, default_value_t = 30)]
    pub seconds: u64,
    /// Mean think time of this program's seat, in ms (the load run and --fairness).
    #[arg(long, default_value_t = 1000)]
    pub think_ms: u64,
    /// The server's bot delay, in ms (--fairness: always 0).
    #[arg(long, default_value_t = 300)]
    pub bot_delay_ms: u64,
    /// Database (default: a fresh SQLite file in the temporary directory, removed at
    /// the end).
    #[arg(long)]
    pub db: Option<String>,
    /// Do not kill and restart the server halfway.
    #[arg(long)]
    pub no_crash: bool,
    /// Instead of the load run: the server's resident memory (VmRSS) per open table,
    /// over Chullpa 4p tables waiting for their players (target ≤ 100 KB).
    #[arg(long, conflicts_with_all = ["restart", "fairness"])]
    pub memory: bool,
    /// Instead of the load run: fill the database with unfinished tables, kill the
    /// server with SIGKILL, start it again and time its first answers (target < 1 s).
    #[arg(long, conflicts_with = "fairness")]
    pub restart: bool,
    /// Instead of the load run: a person's wait for a greedy bot's reply while all-bot
    /// tables of mcts:5 run (target p99 < 500 ms).
    #[arg(long)]
    pub fairness: bool,
    /// --fairness: bot replies to time.
    #[arg(long, default_value_t = 30)]
    pub replies: usize,
    /// The load run on several nodes (needs --db postgres://… and --nats): each seat
    /// plays on a random node, its spectator watches on another, and one node is
    /// killed with SIGKILL halfway.
    #[arg(long, default_value_t = 1)]
    pub nodes: usize,
    /// NATS for --nodes (`nats://127.0.0.1:4222`).
    #[arg(long)]
    pub nats: Option<String>,
}

/// The server's limits per client address, raised: the bench creates every table and
/// opens every connection from one address.
const NO_ADDRESS_LIMITS: [&str; 10] = [
    "--max-open-tables-per-address",
    "0",
    "--tables-per-minute-per-address",
    "0",
    "--max-connections-per-ip",
    "100000",
    "--max-connections-per-network",
    "100000",
    "--max-connections",
    "100000",
];

/// The server under test, as a child process.
pub(crate) struct Served {
    pub child: Child,
    pub base: String,
}

/// The `rumi` binary the server benches start: `RUMI_BIN`, else the one beside this
/// program (`cargo build --release -p rumi -p rumi-bench` builds both).
pub(crate) fn rumi_exe() -> anyhow::Result<std::path::PathBuf> {
    let exe = match std::env::var_os("RUMI_BIN") {
        Some(path) => std::path::PathBuf::from(path),
        None => std::env::current_exe()?.with_file_name("rumi"),
    };
    if !exe.is_file() {
        bail!(
            "no rumi binary at {} (build it with `cargo build --release -p rumi`, or set RUMI_BIN)",
            exe.display()
        );
    }
    Ok(exe)
}

pub(crate) fn start_server(db: &str, bot_delay_ms: u64, extra: &[&str]) -> anyhow::Result<Served> {
    let exe = rumi_exe()?;
    let mut child = Command::new(exe)
        .args(["serve", "--addr", "127.0.0.1:0", "--db", db])
        .args(["--bot-delay-ms", &bot_delay_ms.to_string()])
        .args(NO_ADDRESS_LIMITS)
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .context("cannot start rumi serve")?;
    let mut line = String::new();
    BufReader::new(child.stdout.take().context("no stdout")?).read_line(&mut line)?;
    let Some(base) = line.trim().strip_prefix("listening on ") else {
        bail!("rumi serve did not start: {line}");
    };
    Ok(Served {
        base: base.to_string(),
        child,
    })
}

#[derive(Default)]
struct Totals {
    /// (ms since the start when the action was sent, latency in µs) to the first view
    /// with the action.
    latencies_us: Mutex<Vec<(u64, u64)>>,
    /// Latency in µs from sending an action to its ack.
    ack_latencies_us: Mutex<Vec<u64>>,
    /// View messages the sockets received: whole views, patches, and their bytes.
    states: AtomicU64,
    state_bytes: AtomicU64,
    patches: AtomicU64,
    patch_bytes: AtomicU64,
    acknowledged: AtomicU64,
    lost: AtomicU64,
    spectator_messages: AtomicU64,
    reconnects: AtomicU64,
}

pub fn bench(args: ServerBenchArgs) -> anyhow::Result<()> {
    let (db, scratch) = match &args.db {
        Some(db) => (db.clone(), None),
        None => {
            let dir = std::env::temp_dir().join(format!("rumi-bench-{}", std::process::id()));
            std::fs::create_dir_all(&dir)?;
            let db = format!("sqlite://{}", dir.join("bench.db").display());
            (db, Some(dir))
        }
    };
    let runtime = tokio::runtime::Runtime::new()?;
    let result = if args.nodes > 1 {
        let nodes = args.nodes;
        runtime.block_on(crate::bench_cluster::run(args, db, nodes))
    } else if args.memory {
        runtime.block_on(memory(args, db))
    } else if args.restart {
        runtime.block_on(restart(args, db))
    } else if args.fairness {
        runtime.block_on(fairness(args, db))
    } else {
        runtime.block_on(run(args, db))
    };
    if let Some(dir) = scratch {
        let _ = std::fs::remove_dir_all(dir);
    }
    result
}

async fn run(args: ServerBenchArgs, db: String) -> anyhow::Result<()> {
    let table_count = args.tables.unwrap_or(500);
    let mut served = start_server(&db, args.bot_delay_ms, &[])?;
    let (base_tx, base_rx) = watch::channel(served.base.clone());
    let http = reqwest::Client::new();
    let totals = Arc::new(Totals::default());
    let bar = progress(table_count as u64, "creating tables");
    let mut tables = Vec::new();
    for index in 0..table_count {
        let body = if index % 2 == 0 {
            json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 4}, "seed": index,
                   "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"},
                             {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}]})
        } else {
            json!({"game": "rummikub", "rummikub": {"turn_seconds": null, "rounds": 3}, "seed": index,
                   "seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]})
        };
        let (id, token) = create(&http, &served.base, &body).await?;
        tables.push((id, token.context("no token for the creator's seat")?));
        bar.inc(1);
    }
    let start = Instant::now();
    let end = start + Duration::from_secs(args.seconds);
    let mut tasks = Vec::new();
    for (index, (id, token)) in tables.iter().enumerate() {
        let seat = BenchSeat {
            id: id.clone(),
            token: token.clone(),
            think_ms: args.think_ms,
            seed: index as u64,
            // People arrive over the first two seconds, not in one instant.
            arrival: Duration::from_millis(index as u64 * 2000 / table_count.max(1) as u64),
        };
        tasks.push(tokio::spawn(player(
            seat,
            base_rx.clone(),
            totals.clone(),
            (start, end),
        )));
        tasks.push(tokio::spawn(spectator(
            id.clone(),
            base_rx.clone(),
            totals.clone(),
            end,
        )));
    }
    bar.reset();
    bar.set_length(args.seconds);
    bar.set_message("playing");
    let crash_at = start + Duration::from_secs(args.seconds / 2);
    let mut crashed = args.no_crash;
    while Instant::now() < end {
        tokio::time::sleep(Duration::from_millis(200)).await;
        bar.set_position(start.elapsed().as_secs().min(args.seconds));
        if !crashed && Instant::now() >= crash_at {
            bar.set_message("kill -9 and restart");
            served.child.kill()?;
            served.child.wait()?;
            let restart = Instant::now();
            served = start_server(&db, args.bot_delay_ms, &[])?;
            bar.println(format!(
                "killed the server with SIGKILL at {:.1} s; it was serving again after {:.2} s",
                crash_at.duration_since(start).as_secs_f64(),
                restart.elapsed().as_secs_f64()
            ));
            base_tx.send_replace(served.base.clone());
            crashed = true;
            bar.set_message("playing");
        }
    }
    for task in tasks {
        let _ = task.await;
    }
    bar.finish_and_clear();
    // The server's truth: every table's version, and (Rumis) one stone per action.
    let mut actions = 0u64;
    let mut duplicated = 0u64;
    for (id, _) in &tables {
        let view: Value = http
            .get(format!("{}/api/tables/{id}", served.base))
            .send()
            .await?
            .json()
            .await?;
        let version = view["version"].as_u64().unwrap_or(0);
        actions += version;
        if let Some(history) = view["rumis"]["history"].as_array() {
            duplicated += (history.len() as u64).abs_diff(version);
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    served.child.kill()?;
    let samples = totals.latencies_us.lock().expect("latency lock").clone();
    // Steady state leaves out the warm-up (everyone joining at once) and the seconds
    // after the restart (every table reloaded, every client reconnecting); both are
    // reported on their own lines and drawn in the chart.
    let warm_up_ms = WARM_UP.as_millis() as u64;
    let restart_ms = (!args.no_crash).then(|| args.seconds * 500);
    let in_restart = |t: u64| restart_ms.is_some_and(|r| t >= r && t < r + warm_up_ms);
    let steady: Vec<u64> = samples
        .iter()
        .filter(|&&(t, _)| t >= warm_up_ms && !in_restart(t))
        .map(|&(_, l)| l)
        .collect();
    let after_restart: Vec<u64> = samples
        .iter()
        .filter(|&&(t, _)| in_restart(t))
        .map(|&(_, l)| l)
        .collect();
    let all: Vec<u64> = samples.iter().map(|&(_, l)| l).collect();
    println!(
        "{} tables ({} Rumis, {} Rummikub), {} spectators, {:.0} s on {db}",
        tables.len(),
        tables.len().div_ceil(2),
        tables.len() / 2,
        tables.len(),
        elapsed
    );
    println!(
        "actions stored: {actions} ({:.0} per second), spectator messages: {}",
        actions as f64 / elapsed,
        totals.spectator_messages.load(Ordering::Relaxed)
    );
    let per_message = |bytes: &AtomicU64, count: &AtomicU64| {
        bytes.load(Ordering::Relaxed) / count.load(Ordering::Relaxed).max(1)
    };
    println!(
        "view messages: {} whole views ({} bytes each on average), {} patches ({} bytes each)",
        totals.states.load(Ordering::Relaxed),
        per_message(&totals.state_bytes, &totals.states),
        totals.patches.load(Ordering::Relaxed),
        per_message(&totals.patch_bytes, &totals.patches),
    );
    println!(
        "{}",
        percentiles(
            "player action → ack",
            totals
                .ack_latencies_us
                .lock()
                .expect("latency lock")
                .clone()
        )
    );
    println!(
        "{}",
        percentiles("player action → its view, steady state", steady)
    );
    println!(
        "{}",
        percentiles(
            "  during the first 5 s (warm-up)",
            samples
                .iter()
                .filter(|&&(t, _)| t < warm_up_ms)
                .map(|&(_, l)| l)
                .collect()
        )
    );
    if !args.no_crash {
        println!(
            "{}",
            percentiles("  in the 5 s after the restart", after_restart)
        );
    }
    println!("{}", percentiles("  the whole run", all));
    println!(
        "kill -9 + restart: {}; acknowledged actions lost: {}, duplicated: {}, reconnects: {}",
        if args.no_crash { "skipped" } else { "done" },
        totals.lost.load(Ordering::Relaxed),
        duplicated,
        totals.reconnects.load(Ordering::Relaxed)
    );
    println!("{}", latency_chart(&samples, args.seconds));
    Ok(())
}

/// Left out of the steady-state latency: the start, and the same span after the restart.
const WARM_UP: Duration = Duration::from_secs(5);

/// One line of latency percentiles in ms.
pub(crate) fn percentiles(label: &str, mut latencies: Vec<u64>) -> String {
    if latencies.is_empty() {
        return format!("{label}: no actions");
    }
    latencies.sort_unstable();
    let at =
        |p: f64| latencies[((latencies.len() as f64 - 1.0) * p).round() as usize] as f64 / 1000.0;
    format!(
        "{label}: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms over {} actions",
        at(0.5),
        at(0.99),
        at(1.0),
        latencies.len()
    )
}

/// p50 and p99 latency per window of the run, drawn as bars (log scale), so that a
/// stall (the restart, a database checkpoint) shows where it happened.
pub(crate) fn latency_chart(samples: &[(u64, u64)], seconds: u64) -> String {
    let windows = 20u64;
    let width_ms = (seconds * 1000).div_ceil(windows).max(1);
    let mut out =
        String::from("latency over the run (p99 bar, log scale: | = 1 ms, 10 ms, 100 ms, 1 s)\n");
    for w in 0..windows {
        let mut window: Vec<u64> = samples
            .iter()
            .filter(|&&(t, _)| t / width_ms == w)
            .map(|&(_, l)| l)
            .collect();
        if window.is_empty() {
            out.push_str(&format!(
                "{:>5.1} s  (no actions)\n",
                (w * width_ms) as f64 / 1000.0
            ));
            continue;
        }
        window.sort_unstable();
        let at =
            |p: f64| window[((window.len() as f64 - 1.0) * p).round() as usize] as f64 / 1000.0;
        let (p50, p99) = (at(0.5), at(0.99));
        // 10 characters per decade from 0.1 ms.
        let bar = ((p99.max(0.1) / 0.1).log10() * 10.0).round() as usize;
        out.push_str(&format!(
            "{:>5.1} s  {:<45} p50 {:>7.1} ms  p99 {:>7.1} ms  ({} actions)\n",
            (w * width_ms) as f64 / 1000.0,
            "#".repeat(bar.min(45)),
            p50,
            p99,
            window.len()
        ));
    }
    out
}

pub(crate) fn ws_url(base: &str, id: &str) -> String {
    let base = base.replace("http://", "ws://");
    format!("{base}/api/tables/{id}/ws")
}

/// The WebSocket's first message (contract v2): the seat's token, or none to watch.
pub(crate) fn hello(token: Option<&str>) -> Message {
    Message::Text(json!({"type": "hello", "token": token}).to_string().into())
}

/// The first message of a socket that takes later views as patches (whole views with
/// `RUMI_BENCH_WHOLE_VIEWS=1`, to tell the patches' cost from the rest).
fn hello_with_patches(token: Option<&str>) -> Message {
    let patches = std::env::var_os("RUMI_BENCH_WHOLE_VIEWS").is_none_or(|v| v == "0");
    Message::Text(
        json!({"type": "hello", "token": token, "patches": patches})
            .to_string()
            .into(),
    )
}

/// The view a socket with patches holds: the last whole view with the patches since
/// applied, and its `seq`.
#[derive(Default)]
struct HeldView {
    view: Option<(Value, u64)>,
}

impl HeldView {
    /// Takes a view message (`state` or `patch`), counting its bytes; answers the view
    /// now held, or `None` when the message was no view or the patch did not fit (then
    /// the socket must send `resync`, and `resync` says so).
    fn take(&mut self, message: &Value, bytes: usize, totals: &Totals) -> Taken {
        match message["type"].as_str() {
            Some("state") => {
                totals.states.fetch_add(1, Ordering::Relaxed);
                totals
                    .state_bytes
                    .fetch_add(bytes as u64, Ordering::Relaxed);
                self.view = Some((
                    message["view"].clone(),
                    message["seq"].as_u64().unwrap_or(0),
                ));
            }
            Some("patch") => {
                totals.patches.fetch_add(1, Ordering::Relaxed);
                totals
                    .patch_bytes
                    .fetch_add(bytes as u64, Ordering::Relaxed);
                let fits = self.view.as_mut().is_some_and(|(view, seq)| {
                    let from_here =
                        view["version"] == message["from"] && message["from_seq"] == *seq;
                    let ops = serde_json::from_value::<json_patch::Patch>(message["ops"].clone());
                    let applied =
                        from_here && ops.is_ok_and(|ops| json_patch::patch(view, &ops).is_ok());
                    *seq = message["seq"].as_u64().unwrap_or(0);
                    applied
                });
                if !fits {
                    self.view = None;
                    return Taken::Resync;
                }
            }
            _ => return Taken::Other,
        }
        Taken::View
    }
}

enum Taken {
    View,
    Resync,
    Other,
}

/// A table view says the game is over (v2 `status`, or the older `over`).
pub(crate) fn is_over(view: &Value) -> bool {
    view["status"] == "over" || view["over"] == true
}

/// The seat of the view's reader is to act, in a game that is being played.
pub(crate) fn my_turn(view: &Value) -> bool {
    !view["you"].is_null()
        && view["to_move"] == view["you"]
        && !is_over(view)
        && view["status"] != "waiting"
}

/// A bar with a message, a count and the time elapsed.
pub(crate) fn progress(len: u64, message: &'static str) -> ProgressBar {
    let bar = ProgressBar::new(len).with_style(
        ProgressStyle::with_template("{msg:28} {bar:30} {pos}/{len} {elapsed}")
            .expect("valid template"),
    );
    bar.set_message(message);
    bar
}

/// Creates a table: its id and the creator's token (none when the creator watches).
pub(crate) async fn create(
    http: &reqwest::Client,
    base: &str,
    body: &Value,
) -> anyhow::Result<(String, Option<String>)> {
    let response = http
        .post(format!("{base}/api/tables"))
        .json(body)
        .send()
        .await?;
    let status = response.status();
    let created: Value = response.json().await.unwrap_or(Value::Null);
    if !status.is_success() {
        bail!("creating a table: {status}: {created}");
    }
    let id = created["id"].as_str().context("no table id")?.to_string();
    let token = created["you"]["token"].as_str().map(str::to_string);
    Ok((id, token))
}

/// A table's view (with a seat's token, or as a spectator).
pub(crate) async fn view(
    http: &reqwest::Client,
    base: &str,
    id: &str,
    token: Option<&str>,
) -> anyhow::Result<Value> {
    let mut request = http.get(format!("{base}/api/tables/{id}"));
    if let Some(token) = token {
        request = request.header("X-Seat-Token", token);
    }
    let response = request.send().await?;
    let status = response.status();
    if !status.is_success() {
        bail!("the view of table {id}: {status}");
    }
    Ok(response.json().await?)
}

/// The seat this program plays at one table.
struct BenchSeat {
    id: String,
    token: String,
    think_ms: u64,
    seed: u64,
    /// When this player first connects, after the start.
    arrival: Duration,
}

/// This program's seat at one table: think, act, measure until the new state arrives.
/// After the server's restart it reconnects and checks that its acknowledged actions
/// are still there.
async fn player(
    seat: BenchSeat,
    mut base: watch::Receiver<String>,
    totals: Arc<Totals>,
    (start, end): (Instant, Instant),
) {
    let BenchSeat {
        id,
        token,
        think_ms,
        seed,
        arrival,
    } = seat;
    tokio::time::sleep(arrival).await;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut acknowledged = 0u64;
    while Instant::now() < end {
        let url = ws_url(&base.borrow_and_update(), &id);
        let Ok((socket, _)) = tokio_tungstenite::connect_async(url).await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let (mut sink, mut stream) = socket.split();
        if sink.send(hello_with_patches(Some(&token))).await.is_err() {
            continue;
        }
        let mut first = true;
        let mut pending: Option<Sent> = None;
        let mut next_id = 0u32;
        let mut next_action_at: Option<Instant> = None;
        let mut last_view: Option<Value> = None;
        let mut held = HeldView::default();
        loop {
            let wait = next_action_at
                .map(|t| t.saturating_duration_since(Instant::now()))
                .unwrap_or(Duration::from_secs(3600))
                .min(end.saturating_duration_since(Instant::now()));
            tokio::select! {
                message = stream.next() => {
                    let Some(Ok(Message::Text(text))) = message else { break };
                    let Ok(message) = serde_json::from_str::<Value>(text.as_str()) else { continue };
                    if message["type"] == "error" {
                        pending = None;
                        continue;
                    }
                    if message["type"] == "ack" {
                        if let Some(sent) = pending.as_mut().filter(|p| message["id"] == p.id && !p.acked) {
                            sent.acked = true;
                            totals.ack_latencies_us.lock().expect("latency lock").push(sent.at.elapsed().as_micros() as u64);
                        }
                        continue;
                    }
                    match held.take(&message, text.len(), &totals) {
                        Taken::View => {}
                        Taken::Resync => {
                            let resync = json!({"type": "resync"}).to_string();
                            if sink.send(Message::Text(resync.into())).await.is_err() { break }
                            continue;
                        }
                        Taken::Other => continue,
                    }
                    let Some((view, _)) = &held.view else { continue };
                    let version = view["version"].as_u64().unwrap_or(0);
                    if first {
                        if version < acknowledged {
                            totals.lost.fetch_add(acknowledged - version, Ordering::Relaxed);
                        }
                        first = false;
                    }
                    if let Some(sent) = pending.as_mut().filter(|p| version >= p.version && !p.viewed) {
                        sent.viewed = true;
                        totals.latencies_us.lock().expect("latency lock").push((sent.at.duration_since(start).as_millis() as u64, sent.at.elapsed().as_micros() as u64));
                        totals.acknowledged.fetch_add(1, Ordering::Relaxed);
                    }
                    acknowledged = acknowledged.max(version);
                    // The ack follows the view; the next action need not wait for it.
                    if my_turn(view) && pending.as_ref().is_none_or(|p| p.viewed) {
                        let think = rng.gen_range(think_ms / 2..=think_ms * 3 / 2 + 1);
                        next_action_at = Some(Instant::now() + Duration::from_millis(think));
                    } else {
                        next_action_at = None;
                    }
                    if is_over(view) {
                        return;
                    }
                    last_view = Some(view.clone());
                }
                _ = tokio::time::sleep(wait) => {
                    if Instant::now() >= end { return; }
                    let Some(view) = last_view.take() else { next_action_at = None; continue };
                    next_action_at = None;
                    let version = view["version"].as_u64().unwrap_or(0);
                    let action = choose(&view, &mut rng);
                    next_id += 1;
                    let message = json!({"type": "action", "id": next_id, "version": version, "action": action});
                    if sink.send(Message::Text(message.to_string().into())).await.is_err() {
                        break;
                    }
                    pending = Some(Sent { id: next_id, version: version + 1, at: Instant::now(), acked: false, viewed: false });
                }
                _ = base.changed() => break,
            }
        }
        totals.reconnects.fetch_add(1, Ordering::Relaxed);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// An action sent on the socket, until its view and its ack arrived.
struct Sent {
    id: u32,
    /// The version it makes.
    version: u64,
    at: Instant,
    acked: bool,
    viewed: bool,
}

/// The seat's action: a random legal Rumis placement; in Rummikub, a draw.
pub(crate) fn choose(view: &Value, rng: &mut ChaCha8Rng) -> Value {
    if let Some(legal) = view["rumis"]["legal"].as_array() {
        if !legal.is_empty() {
            let placement = &legal[rng.gen_range(0..legal.len())];
            return json!({"type": "rumis_place", "stone": placement["stone"], "cells": placement["cells"]});
        }
    }
    if view["rummikub"]["round_over"].is_object() {
        return json!({"type": "next_round"});
    }
    json!({"type": "draw"})
}

/// A spectator: counts the state messages it receives, reconnecting after the restart.
async fn spectator(
    id: String,
    mut base: watch::Receiver<String>,
    totals: Arc<Totals>,
    end: Instant,
) {
    while Instant::now() < end {
        let url = ws_url(&base.borrow_and_update(), &id);
        let Ok((mut socket, _)) = tokio_tungstenite::connect_async(url).await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        if socket.send(hello_with_patches(None)).await.is_err() {
            continue;
        }
        let mut held = HeldView::default();
        loop {
            tokio::select! {
                message = socket.next() => {
                    match message {
                        Some(Ok(Message::Text(text))) => {
                            totals.spectator_messages.fetch_add(1, Ordering::Relaxed);
                            let Ok(message) = serde_json::from_str::<Value>(text.as_str()) else { continue };
                            if let Taken::Resync = held.take(&message, text.len(), &totals) {
                                let resync = json!({"type": "resync"}).to_string();
                                if socket.send(Message::Text(resync.into())).await.is_err() { break }
                            }
                        }
                        Some(Ok(_)) => {}
                        _ => break,
                    }
                }
                _ = tokio::time::sleep(end.saturating_duration_since(Instant::now())) => return,
                _ = base.changed() => break,
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The resident memory of a process, in KB (Linux: `VmRSS` of /proc/PID/status).
pub(crate) fn vm_rss_kb(pid: u32) -> anyhow::Result<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .with_context(|| format!("cannot read /proc/{pid}/status (Linux only)"))?;
    let line = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .context("no VmRSS line in /proc/PID/status")?;
    line.split_whitespace()
        .nth(1)
        .and_then(|kb| kb.parse().ok())
        .context("an unreadable VmRSS line")
}

/// CPU time a process has used, user and system, in seconds (Linux: /proc/PID/stat,
/// counted in clock ticks of 1/100 s).
fn cpu_seconds(pid: u32) -> anyhow::Result<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .with_context(|| format!("cannot read /proc/{pid}/stat (Linux only)"))?;
    // The fields after the command name (which may hold spaces) are space-separated;
    // utime and stime are fields 14 and 15 of the whole line.
    let after_name = stat
        .rsplit_once(')')
        .context("an unreadable /proc/PID/stat")?
        .1;
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks = |i: usize| -> anyhow::Result<f64> {
        Ok(fields
            .get(i)
            .context("a short /proc/PID/stat")?
            .parse::<f64>()?)
    };
    Ok((ticks(11)? + ticks(12)?) / 100.0)
}

/// Requests in flight at once while the bench fills the server.
const CONCURRENT_REQUESTS: usize = 16;

/// A Chullpa 4p table of four people: the creator holds seat 0 and the table waits for
/// the three invited ones, so nothing moves.
fn waiting_table() -> Value {
    json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 4},
           "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}, {"kind": "human"}]})
}

/// Creates `count` tables with `body(index)`, `CONCURRENT_REQUESTS` at a time, counting
/// them on `bar`: (id, creator's token) in index order.
async fn create_many(
    http: &reqwest::Client,
    base: &str,
    count: usize,
    body: impl Fn(usize) -> Value,
    bar: &ProgressBar,
) -> anyhow::Result<Vec<(String, Option<String>)>> {
    let mut created: Vec<(usize, (String, Option<String>))> =
        futures_util::stream::iter((0..count).map(|i| {
            let body = body(i);
            async move {
                let table = create(http, base, &body).await;
                bar.inc(1);
                table.map(|t| (i, t))
            }
        }))
        .buffer_unordered(CONCURRENT_REQUESTS)
        .collect::<Vec<_>>()
        .await
        .into_iter()
        .collect::<anyhow::Result<_>>()?;
    created.sort_by_key(|&(i, _)| i);
    Ok(created.into_iter().map(|(_, t)| t).collect())
}

/// `--memory`: VmRSS before and after `n` waiting Chullpa 4p tables, each created and
/// its view read once (so that it is loaded), per table.
async fn memory(args: ServerBenchArgs, db: String) -> anyhow::Result<()> {
    const TARGET_KB: f64 = 100.0;
    const WARM_UP_TABLES: usize = 20;
    let n = args.tables.unwrap_or(1000);
    // Every table stays loaded: the figure is what an open table costs in memory.
    let loaded = (n + WARM_UP_TABLES + 100).to_string();
    let mut served = start_server(&db, args.bot_delay_ms, &["--max-loaded-tables", &loaded])?;
    let pid = served.child.id();
    let http = reqwest::Client::new();
    let result = async {
        // The first tables build what every later table shares (the board, the
        // allocator's pools, the database connection): not counted.
        let bar = progress(WARM_UP_TABLES as u64, "warming up");
        let warm = create_many(
            &http,
            &served.base,
            WARM_UP_TABLES,
            |_| waiting_table(),
            &bar,
        )
        .await?;
        for (id, token) in &warm {
            view(&http, &served.base, id, token.as_deref()).await?;
        }
        bar.finish_and_clear();
        tokio::time::sleep(Duration::from_millis(500)).await;
        let mut rss = vec![vm_rss_kb(pid)?];
        // Two halves: the second half's growth is the marginal cost of a table, once
        // the memory the first tables found free in the heap is used up.
        let halves = [n / 2, n - n / 2];
        for count in halves {
            let bar = progress(count as u64, "creating tables");
            let tables = create_many(&http, &served.base, count, |_| waiting_table(), &bar).await?;
            bar.reset();
            bar.set_message("reading each table's view");
            futures_util::stream::iter(tables.iter().map(|(id, token)| {
                let (http, base, bar) = (&http, &served.base, &bar);
                async move {
                    let v = view(http, base, id, token.as_deref()).await;
                    bar.inc(1);
                    v
                }
            }))
            .buffer_unordered(CONCURRENT_REQUESTS)
            .collect::<Vec<_>>()
            .await
            .into_iter()
            .collect::<anyhow::Result<Vec<_>>>()?;
            bar.finish_and_clear();
            tokio::time::sleep(Duration::from_millis(500)).await;
            rss.push(vm_rss_kb(pid)?);
        }
        let per = |from: u64, to: u64, count: usize| to.saturating_sub(from) as f64 / count as f64;
        let overall = per(rss[0], rss[2], n);
        let marginal = per(rss[1], rss[2], halves[1]);
        println!(
            "server RSS {} KB after {WARM_UP_TABLES} warm-up tables, {} KB after {} more, {} KB \
             after {n} more: Chullpa 4p tables waiting for players, each view read once",
            rss[0], rss[1], halves[0], rss[2]
        );
        println!(
            "RSS per open table: {overall:.1} KB over all {n}, {marginal:.1} KB over the second \
             {} (target ≤ {TARGET_KB:.0} KB: {})",
            halves[1],
            verdict(overall.max(marginal) <= TARGET_KB)
        );
        anyhow::Ok(())
    }
    .await;
    served.child.kill()?;
    served.child.wait()?;
    result
}

fn verdict(met: bool) -> &'static str {
    if met {
        "met"
    } else {
        "MISSED"
    }
}

/// `--restart`: `n` unfinished tables (Rumis and Rummikub, a person and bots; one in ten
/// with an open seat, so the lobby lists some; one in twenty with bots due), SIGKILL,
/// then the time from starting the server again to its first answers: the lobby, and
/// the view of one table.
async fn restart(args: ServerBenchArgs, db: String) -> anyhow::Result<()> {
    const TARGET: Duration = Duration::from_secs(1);
    let n = args.tables.unwrap_or(10_000);
    let mut served = start_server(&db, args.bot_delay_ms, &[])?;
    let http = reqwest::Client::new();
    let bar = progress(n as u64, "creating unfinished tables");
    let filled = Instant::now();
    let body = |i: usize| {
        let other = if i % 10 == 9 {
            json!({"kind": "open"})
        } else {
            json!({"kind": "bot", "bot": "greedy"})
        };
        if i.is_multiple_of(2) {
            json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 4},
                   "seats": [{"kind": "human"}, other, {"kind": "bot", "bot": "greedy"},
                             {"kind": "bot", "bot": "greedy"}]})
        } else {
            json!({"game": "rummikub", "rummikub": {"turn_seconds": null, "rounds": 3},
                   "seats": [{"kind": "human"}, other, {"kind": "bot"}, {"kind": "bot"}]})
        }
    };
    let tables = match create_many(&http, &served.base, n, body, &bar).await {
        Ok(tables) => tables,
        Err(e) => {
            served.child.kill()?;
            return Err(e);
        }
    };
    bar.finish_and_clear();
    // One Rumis table in ten gets the person's first move just before the kill, so that
    // its bots are due when the server dies and must be resumed after the restart.
    let moved: Vec<usize> = (0..n).step_by(20).collect();
    let bar = progress(moved.len() as u64, "first moves");
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for &i in &moved {
        let (id, token) = &tables[i];
        let token = token
            .as_deref()
            .context("no token for the creator's seat")?;
        let v = view(&http, &served.base, id, Some(token)).await?;
        let body = json!({"version": v["version"], "action": choose(&v, &mut rng)});
        let answer = http
            .post(format!("{}/api/tables/{id}/actions", served.base))
            .header("X-Seat-Token", token)
            .json(&body)
            .send()
            .await?;
        if !answer.status().is_success() {
            let status = answer.status();
            bail!("a first move at {id}: {status}: {}", answer.text().await?);
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    println!(
        "{n} unfinished tables made in {:.1} s on {db}; {} of them with the person's first \
         move made just before the kill (bots due)",
        filled.elapsed().as_secs_f64(),
        moved.len()
    );
    served.child.kill()?;
    served.child.wait()?;
    // One table the server has certainly not loaded yet: from the middle.
    let (probe, token) = &tables[n / 2];
    let spawned = Instant::now();
    let mut served = start_server(&db, args.bot_delay_ms, &[])?;
    let listening = spawned.elapsed();
    let result = async {
        let lobby = loop {
            let answer = http.get(format!("{}/api/tables", served.base)).send().await;
            if answer.is_ok_and(|a| a.status().is_success()) {
                break spawned.elapsed();
            }
            if spawned.elapsed() > Duration::from_secs(60) {
                bail!("no answer to GET /api/tables within 60 s of the restart");
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        };
        let asked = Instant::now();
        let table = view(&http, &served.base, probe, token.as_deref()).await?;
        let (table_at, table_took) = (spawned.elapsed(), asked.elapsed());
        if table["id"] != probe.as_str() {
            bail!("the view of {probe} is not that table's: {table}");
        }
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        println!(
            "after kill -9 and a restart with {n} unfinished tables: listening after {:.0} ms, \
             first GET /api/tables answered after {:.0} ms (target < {} ms: {})",
            ms(listening),
            ms(lobby),
            TARGET.as_millis(),
            verdict(lobby < TARGET)
        );
        println!(
            "first view of one table (GET /api/tables/{probe}) answered {:.0} ms after the \
             start ({:.0} ms for that request; target < {} ms: {})",
            ms(table_at),
            ms(table_took),
            TARGET.as_millis(),
            verdict(table_at < TARGET)
        );
        anyhow::Ok(())
    }
    .await;
    served.child.kill()?;
    served.child.wait()?;
    result
}

/// The all-bot tables of `--fairness`: four mcts:5 bots on Chullpa.
fn all_bot_table() -> Value {
    let bot = json!({"kind": "bot", "bot": "mcts:5"});
    json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 4},
           "seats": [bot, bot, bot, bot]})
}

/// `--fairness`: `n` all-bot mcts:5 tables run (each finished one is replaced), while
/// this program plays Rumis against a greedy bot over a WebSocket and times each of the
/// bot's replies: from sending its move to the state in which it is to move again.
async fn fairness(args: ServerBenchArgs, db: String) -> anyhow::Result<()> {
    const TARGET_MS: f64 = 500.0;
    let n = args.tables.unwrap_or(40);
    let mut served = start_server(&db, 0, &[])?;
    let http = reqwest::Client::new();
    let result = async {
        let bar = progress(n as u64, "starting all-bot tables");
        let bots: Vec<String> = create_many(&http, &served.base, n, |_| all_bot_table(), &bar)
            .await?
            .into_iter()
            .map(|(id, _)| id)
            .collect();
        bar.finish_and_clear();
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let keeper = tokio::spawn(keep_running(
            http.clone(),
            served.base.clone(),
            bots,
            stop.clone(),
        ));
        // Let the bots get going.
        tokio::time::sleep(Duration::from_secs(2)).await;
        let (cpu_from, timed_from) = (cpu_seconds(served.child.id())?, Instant::now());
        let bar = progress(args.replies as u64, "timing the bot's replies");
        let mut latencies_us = Vec::new();
        let mut seed = 0;
        while latencies_us.len() < args.replies {
            seed += 1;
            let replies = play_against_greedy(&http, &served.base, seed, args.think_ms).await?;
            for r in replies {
                if latencies_us.len() < args.replies {
                    latencies_us.push(r);
                    bar.inc(1);
                }
            }
        }
        bar.finish_and_clear();
        let cores = (cpu_seconds(served.child.id())? - cpu_from) / timed_from.elapsed().as_secs_f64();
        stop.store(true, Ordering::Relaxed);
        let (games, moves) = keeper.await??;
        println!(
            "{n} all-bot mcts:5 Chullpa 4p tables kept running for {:.0} s: {games} games \
             finished, {moves} bot moves stored; the server used {cores:.2} cores on average",
            timed_from.elapsed().as_secs_f64()
        );
        let mut sorted = latencies_us.clone();
        sorted.sort_unstable();
        let at = |p: f64| sorted[((sorted.len() as f64 - 1.0) * p).round() as usize] as f64 / 1000.0;
        println!(
            "a person's wait for the greedy bot's reply (Rumis Chullpa 2p, --bot-delay-ms 0): \
             p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms over {} replies (target p99 < {TARGET_MS:.0} ms: {})",
            at(0.5),
            at(0.99),
            at(1.0),
            sorted.len(),
            verdict(at(0.99) < TARGET_MS)
        );
        anyhow::Ok(())
    }
    .await;
    served.child.kill()?;
    served.child.wait()?;
    result
}

/// Keeps `tables` all-bot tables running: every second each is looked at, and a
/// finished one is replaced by a new one. Returns (games finished, moves stored).
async fn keep_running(
    http: reqwest::Client,
    base: String,
    mut tables: Vec<String>,
    stop: Arc<std::sync::atomic::AtomicBool>,
) -> anyhow::Result<(u64, u64)> {
    let (mut games, mut moves) = (0u64, 0u64);
    let mut last_moves: Vec<u64> = vec![0; tables.len()];
    while !stop.load(Ordering::Relaxed) {
        tokio::time::sleep(Duration::from_secs(1)).await;
        for (id, last) in tables.iter_mut().zip(&mut last_moves) {
            let Ok(v) = view(&http, &base, id, None).await else {
                continue;
            };
            let played = v["rumis"]["history"]
                .as_array()
                .map_or(0, |h| h.len() as u64);
            moves += played.saturating_sub(*last);
            *last = played;
            if is_over(&v) {
                games += 1;
                (*id, _) = create(&http, &base, &all_bot_table()).await?;
                *last = 0;
            }
        }
    }
    Ok((games, moves))
}

/// One Rumis game, Chullpa 2p, this program (seat 0, random legal moves) against a
/// greedy bot, over a WebSocket. Returns the bot's reply times in µs: from sending a
/// move to the state in which this program is to move again (or the game is over).
pub(crate) async fn play_against_greedy(
    http: &reqwest::Client,
    base: &str,
    seed: u64,
    think_ms: u64,
) -> anyhow::Result<Vec<u64>> {
    let body = json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2},
                      "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]});
    let (id, token) = create(http, base, &body).await?;
    let token = token.context("no token for the creator's seat")?;
    let (socket, _) = tokio_tungstenite::connect_async(ws_url(base, &id)).await?;
    let (mut sink, mut stream) = socket.split();
    sink.send(hello(Some(&token))).await?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut replies = Vec::new();
    // The history's length when this program's move was sent, and when.
    let mut pending: Option<(usize, Instant)> = None;
    let mut last_view = Value::Null;
    let deadline = Instant::now() + Duration::from_secs(600);
    loop {
        let message = tokio::time::timeout_at(deadline.into(), stream.next())
            .await
            .context("a game against the greedy bot took over 600 s")?;
        let Some(message) = message else {
            bail!("the server closed the WebSocket of table {id}");
        };
        let Message::Text(text) = message? else {
            continue;
        };
        let message: Value = serde_json::from_str(text.as_str())?;
        if message["type"] == "error" {
            // Refused (it should not be: the move was legal): try another.
            pending = None;
        } else if message["type"] == "state" {
            last_view = message["view"].clone();
        } else {
            continue;
        }
        let view = &last_view;
        let history = view["rumis"]["history"].as_array().map_or(0, Vec::len);
        if let Some((sent_at_history, sent)) = pending {
            if history >= sent_at_history + 2 && (my_turn(view) || is_over(view)) {
                replies.push(sent.elapsed().as_micros() as u64);
                pending = None;
            } else if history == sent_at_history + 1 && (my_turn(view) || is_over(view)) {
                // The bot had no move (out, R8): no reply to time.
                pending = None;
            }
        }
        if is_over(view) {
            return Ok(replies);
        }
        if pending.is_none() && my_turn(view) {
            // A person's think time (the bot's reply is timed, not this).
            let think = rng.gen_range(think_ms / 2..=think_ms * 3 / 2);
            tokio::time::sleep(Duration::from_millis(think)).await;
            let action = choose(view, &mut rng);
            let message = json!({"type": "action", "version": view["version"], "action": action});
            pending = Some((history, Instant::now()));
            sink.send(Message::Text(message.to_string().into())).await?;
        }
    }
}
