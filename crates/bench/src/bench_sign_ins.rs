//! `rumi-bench sign-ins`: what signing in costs, and whether it costs the tables.
//! 1. The cost of one Argon2id hash with the server's parameters, in this process.
//! 2. A person's wait for the greedy bot's reply at a Rumis table (as in `rumi-bench
//!    starve`), alone and while `--parallel` clients sign in as fast as the server lets
//!    them, each with a name nobody has (every try costs a full hash: the decoy hash of
//!    an unknown name), waiting out every 429's Retry-After. The per-address sign-in
//!    limit is off (`--sign-ins-per-minute-per-address 0`), so only the hash pool's cap
//!    and queue stand between the flood and the tables.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use argon2::password_hash::{PasswordHasher, SaltString};
use clap::Args;
use serde_json::json;

use crate::bench_starve::{replies, start, Phase};

#[derive(Args)]
pub struct SignInsArgs {
    /// Seconds each phase lasts.
    #[arg(long, default_value_t = 30)]
    pub seconds: u64,
    /// Clients signing in at once in the second phase.
    #[arg(long, default_value_t = 100)]
    pub parallel: usize,
    /// Hashes timed for the cost of one.
    #[arg(long, default_value_t = 20)]
    pub hashes: u32,
    /// The person's think time between their moves, in ms.
    #[arg(long, default_value_t = 150)]
    pub think_ms: u64,
    /// The `rumi` binary whose `serve` is measured (default: `RUMI_BIN`, else the one
    /// beside `rumi-bench`).
    #[arg(long)]
    pub server_bin: Option<PathBuf>,
}

pub fn bench(args: SignInsArgs) -> anyhow::Result<()> {
    let per_hash = hash_cost(args.hashes)?;
    println!(
        "Argon2id (19 MiB, 2 passes, 1 lane), one hash on one core: {:.1} ms (mean of {})",
        per_hash.as_secs_f64() * 1000.0,
        args.hashes
    );
    let dir = std::env::temp_dir().join(format!("rumi-bench-sign-ins-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let db = format!("sqlite://{}", dir.join("rumi.db").display());
    let runtime = tokio::runtime::Runtime::new()?;
    let result = runtime.block_on(run(&args, &db));
    let _ = std::fs::remove_dir_all(&dir);
    println!("{}", result?);
    Ok(())
}

/// The mean time of one hash with the server's parameters.
fn hash_cost(hashes: u32) -> anyhow::Result<Duration> {
    let argon2 = server::accounts::passwords::argon2();
    let started = Instant::now();
    for _ in 0..hashes.max(1) {
        let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
        argon2
            .hash_password(b"a long password of ours", &salt)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
    }
    Ok(started.elapsed() / hashes.max(1))
}

#[derive(Default)]
struct Tries {
    /// Answered 401: the password was hashed and compared.
    hashed: AtomicU64,
    /// 429: the hash queue was full.
    busy: AtomicU64,
    other: AtomicU64,
}

async fn sign_in_loop(
    http: reqwest::Client,
    base: String,
    client: usize,
    stop: Arc<AtomicBool>,
    tries: Arc<Tries>,
) -> anyhow::Result<()> {
    let mut n = 0u64;
    while !stop.load(Ordering::SeqCst) {
        n += 1;
        let body = json!({"name": format!("x{client}_{n}"), "password": "not the password"});
        let response = http
            .post(format!("{base}/api/session"))
            .header("content-type", "application/json")
            .header("origin", &base)
            .body(body.to_string())
            .send()
            .await?;
        match response.status().as_u16() {
            401 => tries.hashed.fetch_add(1, Ordering::SeqCst),
            429 => {
                tries.busy.fetch_add(1, Ordering::SeqCst);
                let wait: u64 = response
                    .headers()
                    .get("retry-after")
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(1);
                tokio::time::sleep(Duration::from_secs(wait)).await;
                0
            }
            _ => tries.other.fetch_add(1, Ordering::SeqCst),
        };
    }
    Ok(())
}

async fn run(args: &SignInsArgs, db: &str) -> anyhow::Result<String> {
    let bin = match &args.server_bin {
        Some(bin) => bin.clone(),
        None => crate::bench_server::rumi_exe()?,
    };
    let extra = ["--sign-ins-per-minute-per-address".to_string(), "0".into()];
    let mut served = start(&bin, db, &extra)?;
    let base = served.base.clone();
    let http = reqwest::Client::new();
    let measured = async {
        let alone = replies(&http, &base, args.seconds, args.think_ms, "alone").await?;
        let stop = Arc::new(AtomicBool::new(false));
        let tries = Arc::new(Tries::default());
        let loops: Vec<_> = (0..args.parallel)
            .map(|client| {
                tokio::spawn(sign_in_loop(
                    http.clone(),
                    base.clone(),
                    client,
                    stop.clone(),
                    tries.clone(),
                ))
            })
            .collect();
        let started = Instant::now();
        let flooded = replies(&http, &base, args.seconds, args.think_ms, "under sign-ins").await?;
        let elapsed = started.elapsed().as_secs_f64();
        stop.store(true, Ordering::SeqCst);
        for l in loops {
            l.await??;
        }
        anyhow::Ok((alone, flooded, tries, elapsed))
    }
    .await;
    served.child.kill()?;
    served.child.wait()?;
    let (alone, flooded, tries, elapsed) = measured?;
    let line = |label: &str, p: &Phase| p.line(label, &alone);
    let hashed = tries.hashed.load(Ordering::SeqCst);
    Ok(format!(
        "server: {} serve (SQLite, --bot-delay-ms 0, --sign-ins-per-minute-per-address 0)\n\
         a person's wait for the greedy bot's reply (Rumis Chullpa 2p, think {} ms):\n{}\n{}\n\
         sign-ins: {hashed} hashed and refused ({:.1}/s), {} refused as busy (429), {} other answers",
        bin.display(),
        args.think_ms,
        line("alone", &alone),
        line(&format!("while {} clients sign in", args.parallel), &flooded),
        hashed as f64 / elapsed,
        tries.busy.load(Ordering::SeqCst),
        tries.other.load(Ordering::SeqCst),
    ))
}
