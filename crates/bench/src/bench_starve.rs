//! `rumi-bench starve`: does one client starve people's games? A person plays Rumis
//! against the greedy bot (over a WebSocket, as the browser does) and each of the
//! bot's replies is timed, from sending the person's move to the state in which they
//! are to move again. Three phases on one server, in one run:
//! 1. baseline: nothing else happens;
//! 2. hints: one address asks for Rumis hints at started tables as fast as the server
//!    lets it (two at a time, playing the first suggested move after each so that no
//!    answer comes from a cache, waiting out every 429's Retry-After);
//! 3. replays: 16 loops from one address fetch a large finished game's replay (a
//!    4-bot Rummikub game of 20 rounds), as a browser would (`Accept-Encoding: gzip, br`),
//!    waiting out every 429's Retry-After.
//!
//! The server is `rumi serve` as a child process on a fresh SQLite file: this binary,
//! or `--server-bin` (another build, for a before/after comparison).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use clap::Args;
use serde_json::{json, Value};

use crate::bench_server::{create, play_against_greedy, progress, view};

#[derive(Args)]
pub struct StarveBenchArgs {
    /// Seconds each phase lasts (whole games against the bot are played until then).
    #[arg(long, default_value_t = 30)]
    pub seconds: u64,
    /// The person's think time between their moves, in ms.
    #[arg(long, default_value_t = 150)]
    pub think_ms: u64,
    /// Hint requests in flight at once in the hint phase.
    #[arg(long, default_value_t = 2)]
    pub hint_concurrency: usize,
    /// Replay loops in the replay phase.
    #[arg(long, default_value_t = 16)]
    pub replay_loops: usize,
    /// The `rumi` binary whose `serve` is measured (default: `RUMI_BIN`, else the one
    /// beside `rumi-bench`).
    #[arg(long)]
    pub server_bin: Option<PathBuf>,
    /// More flags for `rumi serve` (repeat; e.g. `--server-arg=--hints-per-minute-per-seat=0`
    /// to see the thinking pool's priority without the hint limits).
    #[arg(long, allow_hyphen_values = true)]
    pub server_arg: Vec<String>,
}

pub fn bench(args: StarveBenchArgs) -> anyhow::Result<()> {
    let dir = std::env::temp_dir().join(format!("rumi-bench-starve-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let db = format!("sqlite://{}", dir.join("rumi.db").display());
    let runtime = tokio::runtime::Runtime::new()?;
    let result = runtime.block_on(run(&args, &db));
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// `rumi serve` with the per-address caps on tables and connections raised (the
/// person and the attacker share the loopback address); hint and replay limits are
/// the server's defaults.
pub(crate) fn start(
    bin: &std::path::Path,
    db: &str,
    extra: &[String],
) -> anyhow::Result<crate::bench_server::Served> {
    use std::io::BufRead;
    let mut child = std::process::Command::new(bin)
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--db",
            db,
            "--bot-delay-ms",
            "0",
        ])
        .args(["--max-open-tables-per-address", "0"])
        .args(["--tables-per-minute-per-address", "0"])
        .args(["--max-connections-per-ip", "100000"])
        .args(extra)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .with_context(|| format!("cannot start {} serve", bin.display()))?;
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().context("no stdout")?).read_line(&mut line)?;
    let Some(base) = line.trim().strip_prefix("listening on ") else {
        bail!("rumi serve did not start: {line}");
    };
    Ok(crate::bench_server::Served {
        base: base.to_string(),
        child,
    })
}

async fn run(args: &StarveBenchArgs, db: &str) -> anyhow::Result<()> {
    let bin = match &args.server_bin {
        Some(bin) => bin.clone(),
        None => crate::bench_server::rumi_exe()?,
    };
    let mut served = start(&bin, db, &args.server_arg)?;
    let result = phases(args, &served.base).await;
    served.child.kill()?;
    served.child.wait()?;
    let report = result?;
    println!(
        "server: {} serve (SQLite, --bot-delay-ms 0{})",
        bin.display(),
        args.server_arg
            .iter()
            .map(|a| format!(" {a}"))
            .collect::<String>()
    );
    println!("{report}");
    Ok(())
}

pub(crate) struct Phase {
    pub p50: f64,
    pub p99: f64,
    pub max: f64,
    pub n: usize,
}

impl Phase {
    /// A line of a report: the phase's figures and their ratios to `baseline`'s.
    pub(crate) fn line(&self, label: &str, baseline: &Phase) -> String {
        format!(
            "{label:<36} p50 {:>8.1} ms ({:>5.2}x)  p99 {:>8.1} ms ({:>5.2}x)  max {:>8.1} ms  over {} replies",
            self.p50,
            self.p50 / baseline.p50.max(0.001),
            self.p99,
            self.p99 / baseline.p99.max(0.001),
            self.max,
            self.n
        )
    }
}

fn phase(mut latencies_us: Vec<u64>) -> Phase {
    latencies_us.sort_unstable();
    let at = |p: f64| {
        latencies_us[((latencies_us.len() as f64 - 1.0) * p).round() as usize] as f64 / 1000.0
    };
    Phase {
        p50: at(0.5),
        p99: at(0.99),
        max: at(1.0),
        n: latencies_us.len(),
    }
}

/// The bot's replies to a person over whole games, for `seconds`.
pub(crate) async fn replies(
    http: &reqwest::Client,
    base: &str,
    seconds: u64,
    think_ms: u64,
    message: &'static str,
) -> anyhow::Result<Phase> {
    let bar = progress(seconds, message);
    let started = Instant::now();
    let mut latencies = Vec::new();
    let mut seed = 0;
    while started.elapsed() < Duration::from_secs(seconds) {
        seed += 1;
        latencies.extend(play_against_greedy(http, base, seed, think_ms).await?);
        bar.set_position(started.elapsed().as_secs().min(seconds));
    }
    bar.finish_and_clear();
    Ok(phase(latencies))
}

async fn phases(args: &StarveBenchArgs, base: &str) -> anyhow::Result<String> {
    let http = reqwest::Client::new();
    // The large finished game for the replay phase, played out first.
    let (replay_id, replay_bytes, replay_steps) = big_replay(&http, base).await?;

    let baseline = replies(&http, base, args.seconds, args.think_ms, "baseline").await?;

    let stop = Arc::new(AtomicBool::new(false));
    let counts = Arc::new(Counts::default());
    let attackers: Vec<_> = (0..args.hint_concurrency)
        .map(|_| {
            let (http, base, stop, counts) =
                (http.clone(), base.to_string(), stop.clone(), counts.clone());
            tokio::spawn(async move { hint_loop(&http, &base, &stop, &counts).await })
        })
        .collect();
    let hinted = replies(
        &http,
        base,
        args.seconds,
        args.think_ms,
        "under hint requests",
    )
    .await?;
    stop.store(true, Ordering::SeqCst);
    for attacker in attackers {
        attacker.await??;
    }
    let hint_counts = counts.line("hints");

    let stop = Arc::new(AtomicBool::new(false));
    let counts = Arc::new(Counts::default());
    let loops: Vec<_> = (0..args.replay_loops)
        .map(|_| {
            let (http, base, stop, counts, id) = (
                http.clone(),
                base.to_string(),
                stop.clone(),
                counts.clone(),
                replay_id.clone(),
            );
            tokio::spawn(async move { replay_loop(&http, &base, &id, &stop, &counts).await })
        })
        .collect();
    let replayed = replies(
        &http,
        base,
        args.seconds,
        args.think_ms,
        "under replay loops",
    )
    .await?;
    stop.store(true, Ordering::SeqCst);
    for l in loops {
        l.await??;
    }
    let replay_counts = counts.line("replays");

    let line = |label: &str, p: &Phase| p.line(label, &baseline);
    Ok(format!(
        "a person's wait for the greedy bot's reply (Rumis Chullpa 2p, think {} ms):\n{}\n{}\n{}\n\
         hint phase: {} request(s) in flight from one address; {hint_counts}\n\
         replay phase: {} loops from one address on a {:.2} MB replay ({replay_steps} steps); {replay_counts}",
        args.think_ms,
        line("baseline", &baseline),
        line("while one address asks for hints", &hinted),
        line("while 16 loops fetch a replay", &replayed),
        args.hint_concurrency,
        args.replay_loops,
        replay_bytes as f64 / 1e6,
    ))
}

#[derive(Default)]
struct Counts {
    answered: AtomicU64,
    refused: AtomicU64,
    other: AtomicU64,
    bytes: AtomicU64,
}

impl Counts {
    fn line(&self, what: &str) -> String {
        format!(
            "{} {what} answered ({:.1} MB), {} refused with 429, {} other answers",
            self.answered.load(Ordering::SeqCst),
            self.bytes.load(Ordering::SeqCst) as f64 / 1e6,
            self.refused.load(Ordering::SeqCst),
            self.other.load(Ordering::SeqCst)
        )
    }

    /// Counts an answer; a 429 waits out its Retry-After.
    async fn count(&self, response: reqwest::Response) -> anyhow::Result<Option<Value>> {
        let status = response.status().as_u16();
        let retry: Option<u64> = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse().ok());
        let body = response.bytes().await?;
        self.bytes.fetch_add(body.len() as u64, Ordering::SeqCst);
        match status {
            200 => {
                self.answered.fetch_add(1, Ordering::SeqCst);
                Ok(serde_json::from_slice(&body).ok())
            }
            429 => {
                self.refused.fetch_add(1, Ordering::SeqCst);
                tokio::time::sleep(Duration::from_secs(retry.unwrap_or(1))).await;
                Ok(None)
            }
            _ => {
                self.other.fetch_add(1, Ordering::SeqCst);
                Ok(None)
            }
        }
    }
}

/// A 4-bot Rummikub game played out: its id, its replay's size and step count.
async fn big_replay(http: &reqwest::Client, base: &str) -> anyhow::Result<(String, usize, usize)> {
    let bot = json!({"kind": "bot", "bot": "random"});
    let body = json!({"game": "rummikub", "rummikub": {"turn_seconds": null, "rounds": 20},
                      "seats": [bot, bot, bot, bot]});
    let (id, _) = create(http, base, &body).await?;
    let bar = progress(1, "playing the replay's game");
    let started = Instant::now();
    loop {
        let v = view(http, base, &id, None).await?;
        if crate::bench_server::is_over(&v) {
            break;
        }
        if started.elapsed() > Duration::from_secs(600) {
            bail!("the 4-bot Rummikub game did not end within 600 s");
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    bar.finish_and_clear();
    let text = http
        .get(format!("{base}/api/tables/{id}/replay"))
        .send()
        .await?
        .text()
        .await?;
    let replay: Value = serde_json::from_str(&text).context("the replay")?;
    let steps = replay["steps"].as_array().map_or(0, Vec::len);
    Ok((id, text.len(), steps))
}

/// Rumis hints as fast as the server allows: at a table of two seats this client
/// holds, the hint for the seat to move, then its first suggestion played.
async fn hint_loop(
    http: &reqwest::Client,
    base: &str,
    stop: &AtomicBool,
    counts: &Counts,
) -> anyhow::Result<()> {
    let mut table: Option<(String, [String; 2])> = None;
    while !stop.load(Ordering::SeqCst) {
        let (id, tokens) = match &table {
            Some(t) => t.clone(),
            None => {
                // (two people: hints only because the creator turns them on)
                let body = json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2},
                                  "seats": [{"kind": "human"}, {"kind": "human"}], "hints": true});
                let created: Value = http
                    .post(format!("{base}/api/tables"))
                    .json(&body)
                    .send()
                    .await?
                    .json()
                    .await?;
                let id = created["id"].as_str().context("no id")?.to_string();
                let first = created["you"]["token"]
                    .as_str()
                    .context("no token")?
                    .to_string();
                let link = created["seats"][1]["invite"]
                    .as_str()
                    .context("no invite")?;
                let invite = link.split("#token=").nth(1).context("no token")?;
                // Taking the seat with the link starts the game: `POST …/claim`
                // answers the seat's own token (servers before it: the link's token
                // is the seat's, and opening the table takes the seat).
                let claimed = http
                    .post(format!("{base}/api/tables/{id}/claim"))
                    .header("X-Seat-Token", invite)
                    .send()
                    .await?;
                let second = if claimed.status() == reqwest::StatusCode::NOT_FOUND {
                    view(http, base, &id, Some(invite)).await?;
                    invite.to_string()
                } else {
                    let grant: Value = claimed.json().await?;
                    grant["token"]
                        .as_str()
                        .context("no seat token")?
                        .to_string()
                };
                table = Some((id.clone(), [first.clone(), second.clone()]));
                (id, [first, second])
            }
        };
        let v = view(http, base, &id, None).await?;
        let Some(mover) = v["to_move"]
            .as_u64()
            .filter(|_| !crate::bench_server::is_over(&v))
        else {
            table = None;
            continue;
        };
        let token = &tokens[mover as usize];
        let response = http
            .get(format!("{base}/api/tables/{id}/hint"))
            .header("X-Seat-Token", token)
            .send()
            .await?;
        let Some(hint) = counts.count(response).await? else {
            continue;
        };
        let Some(best) = hint["moves"].as_array().and_then(|m| m.first()) else {
            table = None;
            continue;
        };
        let action = json!({"type": "rumis_place", "stone": best["stone"], "cells": best["cells"]});
        let _ = http
            .post(format!("{base}/api/tables/{id}/actions"))
            .header("X-Seat-Token", token)
            .json(&json!({"version": v["version"], "action": action}))
            .send()
            .await?;
    }
    Ok(())
}

/// Fetches a replay again and again, as a browser would ask for it.
async fn replay_loop(
    http: &reqwest::Client,
    base: &str,
    id: &str,
    stop: &AtomicBool,
    counts: &Counts,
) -> anyhow::Result<()> {
    while !stop.load(Ordering::SeqCst) {
        let response = http
            .get(format!("{base}/api/tables/{id}/replay"))
            .header("Accept-Encoding", "gzip, br")
            .send()
            .await?;
        counts.count(response).await?;
    }
    Ok(())
}
