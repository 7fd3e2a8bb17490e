//! `rumi-bench review`: what game reviews cost (issue 48). On one `rumi serve` (a
//! child process on a fresh SQLite file):
//! 1. a four-player Rummikub game of bots is played out and reviewed: the server's
//!    CPU time (user + system, from /proc) and wall time for the review, which runs
//!    turn by turn on one core;
//! 2. a two-player Chullpa game of bots, reviewed at the review budget (the strongest
//!    bot's playouts per position, `--playouts`): likewise;
//! 3. a person plays Rumis against the greedy bot at another table (as in `rumi-bench
//!    starve`): their wait for each reply without reviews, then while `--reviews`
//!    reviews run; p50/p99 and the ratios.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use clap::Args;
use serde_json::{json, Value};

use crate::bench_server::{create, is_over, progress, view};
use crate::bench_starve::{replies, start};

#[derive(Args)]
pub struct ReviewBenchArgs {
    /// Playouts of the strongest bot's search per Rumis position (the server's default).
    #[arg(long, default_value_t = play::mcts::LEVEL_PLAYOUTS[4])]
    pub playouts: u32,
    /// Reviews running during the latency phase.
    #[arg(long, default_value_t = 10)]
    pub reviews: usize,
    /// Seconds each latency phase lasts.
    #[arg(long, default_value_t = 30)]
    pub seconds: u64,
    /// The person's think time between their moves, in ms.
    #[arg(long, default_value_t = 150)]
    pub think_ms: u64,
    /// Rounds of the four-player Rummikub game.
    #[arg(long, default_value_t = 1)]
    pub rounds: u32,
    /// The bots of the four-player Rummikub game.
    #[arg(long, default_value = "greedy,keeper,greedy,random")]
    pub rummikub_bots: String,
    /// The `rumi` binary whose `serve` is measured (default: `RUMI_BIN`, else the one
    /// beside `rumi-bench`).
    #[arg(long)]
    pub server_bin: Option<PathBuf>,
}

pub fn bench(args: ReviewBenchArgs) -> anyhow::Result<()> {
    let dir = std::env::temp_dir().join(format!("rumi-bench-review-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let db = format!("sqlite://{}", dir.join("rumi.db").display());
    let runtime = tokio::runtime::Runtime::new()?;
    let result = runtime.block_on(run(&args, &db));
    let _ = std::fs::remove_dir_all(&dir);
    result
}

async fn run(args: &ReviewBenchArgs, db: &str) -> anyhow::Result<()> {
    let bin = match &args.server_bin {
        Some(bin) => bin.clone(),
        None => crate::bench_server::rumi_exe()?,
    };
    let flags = vec![
        "--reviews-per-minute-per-address=0".to_string(),
        format!("--review-playouts={}", args.playouts),
        format!("--max-pending-reviews={}", args.reviews.max(16)),
    ];
    let mut served = start(&bin, db, &flags)?;
    let pid = served.child.id();
    let result = measure(args, &served.base, pid).await;
    served.child.kill()?;
    served.child.wait()?;
    println!(
        "server: {} serve (SQLite, --bot-delay-ms 0 {}); {} cores",
        bin.display(),
        flags.join(" "),
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    println!("{}", result?);
    Ok(())
}

/// The server process's CPU time so far (user + system), from /proc.
fn cpu_seconds(pid: u32) -> anyhow::Result<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))?;
    // The fields after the command's closing parenthesis; utime and stime are the
    // 14th and 15th of the line.
    let rest = stat.rsplit_once(')').context("a /proc stat line")?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields[11].parse::<f64>()? + fields[12].parse::<f64>()?;
    // SAFETY: sysconf has no preconditions.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    Ok(ticks / per_second.max(1.0))
}

/// A bots-only table played to its end: its id and how many actions it took.
async fn played_out(
    http: &reqwest::Client,
    base: &str,
    body: &Value,
    what: &'static str,
) -> anyhow::Result<(String, u64)> {
    let (id, _) = create(http, base, body).await?;
    let bar = progress(1, what);
    let started = Instant::now();
    loop {
        let v = view(http, base, &id, None).await?;
        if is_over(&v) {
            bar.finish_and_clear();
            return Ok((id, v["version"].as_u64().unwrap_or(0)));
        }
        if started.elapsed() > Duration::from_secs(900) {
            bail!("{what}: the game did not end within 900 s");
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn review_answer(http: &reqwest::Client, base: &str, id: &str) -> anyhow::Result<Value> {
    let response = http
        .get(format!("{base}/api/tables/{id}/review"))
        .send()
        .await?;
    let status = response.status();
    let body: Value = response.json().await?;
    if !status.is_success() {
        bail!("review of {id}: {status} {body}");
    }
    Ok(body)
}

/// Asks for a review and waits until it is ready, with its progress on a bar: the
/// review, its wall time and the server's CPU time meanwhile.
async fn reviewed(
    http: &reqwest::Client,
    base: &str,
    id: &str,
    pid: u32,
    what: &'static str,
) -> anyhow::Result<(Value, f64, f64)> {
    let cpu = cpu_seconds(pid)?;
    let started = Instant::now();
    let bar = progress(1000, what);
    loop {
        let review = review_answer(http, base, id).await?;
        bar.set_position((review["progress"].as_f64().unwrap_or(0.0) * 1000.0) as u64);
        if review["status"] == "ready" {
            bar.finish_and_clear();
            return Ok((
                review,
                started.elapsed().as_secs_f64(),
                cpu_seconds(pid)? - cpu,
            ));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn measure(args: &ReviewBenchArgs, base: &str, pid: u32) -> anyhow::Result<String> {
    let http = reqwest::Client::new();
    let mut report = String::new();

    // 1. A four-player Rummikub game.
    let seats: Vec<Value> = args
        .rummikub_bots
        .split(',')
        .map(|b| json!({"kind": "bot", "bot": b.trim()}))
        .collect();
    let body = json!({"game": "rummikub", "rummikub": {"turn_seconds": null, "rounds": args.rounds},
                      "seats": seats, "seed": 48});
    let (id, _) = played_out(&http, base, &body, "playing 4p Rummikub").await?;
    let (review, wall, cpu) = reviewed(&http, base, &id, pid, "reviewing 4p Rummikub").await?;
    let turns = review["turns"].as_array().map_or(0, Vec::len);
    report += &format!(
        "4-player Rummikub review ({}, {} round(s), seed 48): {turns} turns, {cpu:.2} s CPU ({:.1} ms a turn), {wall:.2} s wall\n",
        args.rummikub_bots,
        args.rounds,
        cpu * 1000.0 / turns.max(1) as f64
    );

    // 2. A two-player Chullpa game at the review budget.
    let rumis = |seed: u64| {
        json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2},
               "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}],
               "seed": seed})
    };
    let (id, _) = played_out(&http, base, &rumis(1), "playing 2p Chullpa").await?;
    let (review, wall, cpu) = reviewed(&http, base, &id, pid, "reviewing 2p Chullpa").await?;
    let moves = review["turns"].as_array().map_or(0, Vec::len);
    report += &format!(
        "2-player Chullpa review ({} playouts a position, greedy vs random, seed 1): {moves} moves, {cpu:.2} s CPU ({:.0} ms a move), {wall:.2} s wall\n",
        args.playouts,
        cpu * 1000.0 / moves.max(1) as f64
    );

    // 3. A person's wait at another table, without and with reviews running.
    let mut games = Vec::new();
    for n in 0..args.reviews {
        games.push(
            played_out(
                &http,
                base,
                &rumis(100 + n as u64),
                "playing games to review",
            )
            .await?
            .0,
        );
    }
    let baseline = replies(&http, base, args.seconds, args.think_ms, "baseline").await?;
    for id in &games {
        review_answer(&http, base, id).await?;
    }
    let loaded = replies(
        &http,
        base,
        args.seconds,
        args.think_ms,
        "while reviews run",
    )
    .await?;
    let mut done = 0.0;
    for id in &games {
        done += review_answer(&http, base, id).await?["progress"]
            .as_f64()
            .unwrap_or(0.0);
    }
    report += &format!(
        "a person's wait for the greedy bot's reply (Rumis Chullpa 2p, think {} ms):\n{}\n{}\n\
         p99 ratio with {} reviews running: {:.2}; the reviews meanwhile got {:.1} of {} done\n",
        args.think_ms,
        baseline.line("no review running", &baseline),
        loaded.line(&format!("{} reviews running", args.reviews), &baseline),
        args.reviews,
        loaded.p99 / baseline.p99.max(0.001),
        done,
        args.reviews
    );
    Ok(report)
}
