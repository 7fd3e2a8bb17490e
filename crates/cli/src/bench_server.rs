//! `rumi bench server`: a bounded load run on loopback. Starts `rumi serve` as a child
//! process, opens many tables where one seat is played by this program (over a
//! WebSocket, with a think time) and the rest by the server's bots, watches every table
//! with a WebSocket spectator, kills the server with SIGKILL halfway and starts it
//! again on the same database. Reports actions per second, the latency of this
//! program's actions (sent → the new state received), and lost or duplicated actions.

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
    /// Concurrent tables (half Rumis, half Rummikub).
    #[arg(long, default_value_t = 500)]
    tables: usize,
    /// Length of the run in seconds; the server is killed and restarted halfway.
    #[arg(long, default_value_t = 30)]
    seconds: u64,
    /// Mean think time of this program's seat, in ms.
    #[arg(long, default_value_t = 1000)]
    think_ms: u64,
    /// The server's bot delay, in ms.
    #[arg(long, default_value_t = 300)]
    bot_delay_ms: u64,
    /// Database (default: a fresh SQLite file in the temporary directory).
    #[arg(long)]
    db: Option<String>,
    /// Do not kill and restart the server halfway.
    #[arg(long)]
    no_crash: bool,
}

/// The server under test, as a child process.
struct Served {
    child: Child,
    base: String,
}

fn start_server(db: &str, bot_delay_ms: u64) -> anyhow::Result<Served> {
    let exe = std::env::current_exe()?;
    let mut child = Command::new(exe)
        .args(["serve", "--addr", "127.0.0.1:0", "--db", db])
        .args(["--bot-delay-ms", &bot_delay_ms.to_string()])
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
    /// (ms since the start when the action was sent, latency in µs).
    latencies_us: Mutex<Vec<(u64, u64)>>,
    acknowledged: AtomicU64,
    lost: AtomicU64,
    spectator_messages: AtomicU64,
    reconnects: AtomicU64,
}

pub fn bench(args: ServerBenchArgs) -> anyhow::Result<()> {
    let db = match &args.db {
        Some(db) => db.clone(),
        None => {
            let dir = std::env::temp_dir().join(format!("rumi-bench-{}", std::process::id()));
            std::fs::create_dir_all(&dir)?;
            format!("sqlite://{}", dir.join("bench.db").display())
        }
    };
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(run(args, db))
}

async fn run(args: ServerBenchArgs, db: String) -> anyhow::Result<()> {
    let mut served = start_server(&db, args.bot_delay_ms)?;
    let (base_tx, base_rx) = watch::channel(served.base.clone());
    let http = reqwest::Client::new();
    let totals = Arc::new(Totals::default());
    let bar = ProgressBar::new(args.tables as u64).with_style(
        ProgressStyle::with_template("{msg:28} {bar:30} {pos}/{len} {elapsed}")
            .expect("valid template"),
    );
    bar.set_message("creating tables");
    let mut tables = Vec::new();
    for index in 0..args.tables {
        let body = if index % 2 == 0 {
            json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 4}, "seed": index,
                   "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"},
                             {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}]})
        } else {
            json!({"game": "rummikub", "rummikub": {"turn_seconds": null, "rounds": 3}, "seed": index,
                   "seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]})
        };
        let created: Value = http
            .post(format!("{}/api/tables", served.base))
            .json(&body)
            .send()
            .await?
            .json()
            .await?;
        let id = created["id"].as_str().context("no table id")?.to_string();
        let token = created["seats"][0]["token"]
            .as_str()
            .context("no token")?
            .to_string();
        tables.push((id, token));
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
            arrival: Duration::from_millis(index as u64 * 2000 / args.tables.max(1) as u64),
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
            served = start_server(&db, args.bot_delay_ms)?;
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
    println!(
        "{}",
        percentiles("player action latency, steady state", steady)
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
fn percentiles(label: &str, mut latencies: Vec<u64>) -> String {
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
fn latency_chart(samples: &[(u64, u64)], seconds: u64) -> String {
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

fn ws_url(base: &str, id: &str, token: Option<&str>) -> String {
    let base = base.replace("http://", "ws://");
    match token {
        Some(t) => format!("{base}/api/tables/{id}/ws?token={t}"),
        None => format!("{base}/api/tables/{id}/ws"),
    }
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
        let url = ws_url(&base.borrow_and_update(), &id, Some(&token));
        let Ok((socket, _)) = tokio_tungstenite::connect_async(url).await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let (mut sink, mut stream) = socket.split();
        let mut first = true;
        let mut pending: Option<(u64, Instant)> = None;
        let mut next_action_at: Option<Instant> = None;
        let mut last_view: Option<Value> = None;
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
                    let view = &message["view"];
                    let version = view["version"].as_u64().unwrap_or(0);
                    if first {
                        if version < acknowledged {
                            totals.lost.fetch_add(acknowledged - version, Ordering::Relaxed);
                        }
                        first = false;
                    }
                    if let Some((expected, sent)) = pending {
                        if version >= expected {
                            totals.latencies_us.lock().expect("latency lock").push((sent.duration_since(start).as_millis() as u64, sent.elapsed().as_micros() as u64));
                            totals.acknowledged.fetch_add(1, Ordering::Relaxed);
                            pending = None;
                        }
                    }
                    acknowledged = acknowledged.max(version);
                    if view["to_move"] == view["you"] && pending.is_none() && view["over"] == false {
                        let think = rng.gen_range(think_ms / 2..=think_ms * 3 / 2 + 1);
                        next_action_at = Some(Instant::now() + Duration::from_millis(think));
                    } else {
                        next_action_at = None;
                    }
                    if view["over"] == true {
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
                    let message = json!({"type": "action", "version": version, "action": action});
                    if sink.send(Message::Text(message.to_string().into())).await.is_err() {
                        break;
                    }
                    pending = Some((version + 1, Instant::now()));
                }
                _ = base.changed() => break,
            }
        }
        totals.reconnects.fetch_add(1, Ordering::Relaxed);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The seat's action: a random legal Rumis placement; in Rummikub, a draw.
fn choose(view: &Value, rng: &mut ChaCha8Rng) -> Value {
    if let Some(legal) = view["rumis"]["legal"].as_array() {
        if !legal.is_empty() {
            return legal[rng.gen_range(0..legal.len())].clone();
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
        let url = ws_url(&base.borrow_and_update(), &id, None);
        let Ok((mut socket, _)) = tokio_tungstenite::connect_async(url).await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        loop {
            tokio::select! {
                message = socket.next() => {
                    match message {
                        Some(Ok(Message::Text(_))) => { totals.spectator_messages.fetch_add(1, Ordering::Relaxed); }
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
