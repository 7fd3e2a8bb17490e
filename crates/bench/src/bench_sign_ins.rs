//! `rumi-bench sign-ins`: what checking passwords costs, and whether it costs the tables.
//! 1. The cost of one Argon2id hash with the server's parameters, in this process.
//! 2. A person's wait for the greedy bot's reply at a Rumis table (as in `rumi-bench
//!    starve`), alone and then during each flood, on one server in one run, with the
//!    server's default limits. The server trusts the bench as its proxy
//!    (`--trusted-proxy 127.0.0.1`), so each client speaks from an address of its own
//!    (`X-Forwarded-For`), each in a network of its own:
//!    - `sign-ins`: `--parallel` clients from as many networks sign in with names
//!      nobody has (each try costs a full hash: the decoy of an unknown name);
//!    - `password-checks`: one signed-in client keeps `--in-flight` password changes
//!      with a wrong current password in flight (issue 56, point 3);
//!    - `weak-sign-ups`: `--parallel` clients from as many networks sign up with weak
//!      passwords (each is checked by zxcvbn; issue 56, point 4).
//!
//! Every flood waits out each 429's Retry-After. During each, `--people` other people
//! (signed up before the phase, each from their own network) sign in once each with
//! their right password, spread over the phase; the report says how many got in, how
//! long they waited and why the others were refused.

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
    /// The floods, one phase each (repeat; all three when none is given).
    #[arg(long, value_enum)]
    pub flood: Vec<Flood>,
    /// Clients (each from a network of its own) in the sign-in and sign-up floods.
    #[arg(long, default_value_t = 100)]
    pub parallel: usize,
    /// Password changes the one signed-in client keeps in flight.
    #[arg(long, default_value_t = 40)]
    pub in_flight: usize,
    /// Other people signing in once each during each flood.
    #[arg(long, default_value_t = 10)]
    pub people: usize,
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

/// What floods the server in a phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Flood {
    SignIns,
    PasswordChecks,
    WeakSignUps,
}

impl Flood {
    fn label(self) -> &'static str {
        match self {
            Flood::SignIns => "sign-ins",
            Flood::PasswordChecks => "password-checks",
            Flood::WeakSignUps => "weak-sign-ups",
        }
    }
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

/// The answers a flood got.
#[derive(Default)]
struct Tries {
    /// Refused after a check: a password hashed and compared (401), or a weak one
    /// refused by zxcvbn (400).
    checked: AtomicU64,
    /// 429: a limit or the full hash queue.
    limited: AtomicU64,
    other: AtomicU64,
}

/// A client of the flood: its address, and the session cookie it sends (if any).
#[derive(Clone)]
struct Client {
    http: reqwest::Client,
    base: String,
    address: String,
    cookie: Option<String>,
}

impl Client {
    /// A JSON write from this client's address.
    async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        body: serde_json::Value,
    ) -> anyhow::Result<reqwest::Response> {
        let mut request = self
            .http
            .request(method, format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .header("origin", &self.base)
            .header("x-forwarded-for", &self.address)
            .body(body.to_string());
        if let Some(cookie) = &self.cookie {
            request = request.header("cookie", cookie);
        }
        Ok(request.send().await?)
    }
}

/// A made-up address in a network of its own (a /24) for client `i`, which only the
/// server under test sees: `kind` keeps the floods and the people apart.
fn address(kind: u8, i: usize) -> String {
    format!("{}.{}.{}.7", 100 + kind, (i / 256) % 256, i % 256)
}

/// The session cookie a sign-up or sign-in answer sets.
fn session_cookie(response: &reqwest::Response) -> Option<String> {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("rumi_session="))
        .and_then(|v| v.split(';').next())
        .map(str::to_string)
}

/// Waits out a 429's Retry-After (1 s when it has none).
async fn wait_out(response: &reqwest::Response) {
    let wait: u64 = response
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    tokio::time::sleep(Duration::from_secs(wait)).await;
}

/// One flooding client: tries until `stop`, counting the answers.
async fn flood_loop(
    flood: Flood,
    client: Client,
    id: usize,
    stop: Arc<AtomicBool>,
    tries: Arc<Tries>,
) -> anyhow::Result<()> {
    let mut n = 0u64;
    while !stop.load(Ordering::SeqCst) {
        n += 1;
        let response = match flood {
            Flood::SignIns => {
                let body = json!({"name": format!("x{id}_{n}"), "password": "not the password"});
                client
                    .send(reqwest::Method::POST, "/api/session", body)
                    .await?
            }
            Flood::PasswordChecks => {
                let body =
                    json!({"current": format!("guess number {n}"), "new": "a new long password"});
                client
                    .send(reqwest::Method::POST, "/api/me/password", body)
                    .await?
            }
            Flood::WeakSignUps => {
                let name = format!("w{id}x{n}");
                let body = json!({"name": name, "password": format!("{name}1234")});
                client
                    .send(reqwest::Method::POST, "/api/accounts", body)
                    .await?
            }
        };
        match response.status().as_u16() {
            400 | 401 | 403 | 422 => tries.checked.fetch_add(1, Ordering::SeqCst),
            429 => {
                tries.limited.fetch_add(1, Ordering::SeqCst);
                wait_out(&response).await;
                0
            }
            _ => tries.other.fetch_add(1, Ordering::SeqCst),
        };
    }
    Ok(())
}

/// Other people's sign-ins during a flood: each signs in once, one every `every`.
/// Answers (signed in, the codes of the refusals, the waits of those who got in in ms).
async fn people_loop(
    people: Vec<(Client, String)>,
    every: Duration,
) -> anyhow::Result<(usize, Vec<String>, Vec<f64>)> {
    let (mut ok, mut refused, mut waits) = (0, Vec::new(), Vec::new());
    for (client, name) in &people {
        tokio::time::sleep(every).await;
        let started = Instant::now();
        let body = json!({"name": name, "password": PEOPLE_PASSWORD});
        let response = client
            .send(reqwest::Method::POST, "/api/session", body)
            .await?;
        if response.status().is_success() {
            ok += 1;
            waits.push(started.elapsed().as_secs_f64() * 1000.0);
        } else {
            let answer: serde_json::Value = response.json().await.unwrap_or_default();
            refused.push(answer["code"].as_str().unwrap_or("?").to_string());
        }
    }
    Ok((ok, refused, waits))
}

const PEOPLE_PASSWORD: &str = "correct horse battery staple of ours";

/// Signs up an account from `client`'s address; answers its session cookie.
async fn sign_up(client: &Client, name: &str, password: &str) -> anyhow::Result<String> {
    let response = client
        .send(
            reqwest::Method::POST,
            "/api/accounts",
            json!({"name": name, "password": password}),
        )
        .await?;
    anyhow::ensure!(
        response.status().is_success(),
        "signing up {name}: {}",
        response.status()
    );
    session_cookie(&response).ok_or_else(|| anyhow::anyhow!("no session cookie for {name}"))
}

/// `--people` new accounts for phase `phase`, each signed up from a network of its own.
async fn sign_up_people(
    args: &SignInsArgs,
    phase: usize,
    http: &reqwest::Client,
    base: &str,
) -> anyhow::Result<Vec<(Client, String)>> {
    let mut people = Vec::new();
    for i in 0..args.people {
        let person = Client {
            http: http.clone(),
            base: base.to_string(),
            address: address(1, phase * args.people + i),
            cookie: None,
        };
        let name = format!("person{phase}_{i}");
        sign_up(&person, &name, PEOPLE_PASSWORD).await?;
        people.push((person, name));
    }
    Ok(people)
}

/// A flood phase's figures.
struct Flooded {
    flood: Flood,
    replies: Phase,
    tries: Arc<Tries>,
    seconds: f64,
    people: (usize, Vec<String>, Vec<f64>),
}

async fn flood_phase(
    args: &SignInsArgs,
    flood: Flood,
    base: &str,
    http: &reqwest::Client,
    phase: usize,
) -> anyhow::Result<Flooded> {
    let stop = Arc::new(AtomicBool::new(false));
    let tries = Arc::new(Tries::default());
    let client = |address: String| Client {
        http: http.clone(),
        base: base.to_string(),
        address,
        cookie: None,
    };
    let clients: Vec<Client> = match flood {
        Flood::SignIns | Flood::WeakSignUps => {
            (0..args.parallel).map(|i| client(address(0, i))).collect()
        }
        Flood::PasswordChecks => {
            let mut attacker = client(address(2, 0));
            attacker.cookie =
                Some(sign_up(&attacker, "flooder", "the flooder's own long password").await?);
            vec![attacker; args.in_flight]
        }
    };
    let loops: Vec<_> = clients
        .into_iter()
        .enumerate()
        .map(|(id, c)| tokio::spawn(flood_loop(flood, c, id, stop.clone(), tries.clone())))
        .collect();
    let people = sign_up_people(args, phase, http, base).await?;
    let every = Duration::from_millis(args.seconds * 1000 / (args.people as u64 + 1));
    let people = tokio::spawn(people_loop(people, every));
    let started = Instant::now();
    let message = match flood {
        Flood::SignIns => "under sign-ins",
        Flood::PasswordChecks => "under password checks",
        Flood::WeakSignUps => "under weak sign-ups",
    };
    let replies = replies(http, base, args.seconds, args.think_ms, message).await?;
    let seconds = started.elapsed().as_secs_f64();
    stop.store(true, Ordering::SeqCst);
    for l in loops {
        l.await??;
    }
    let people = people.await??;
    Ok(Flooded {
        flood,
        replies,
        tries,
        seconds,
        people,
    })
}

async fn run(args: &SignInsArgs, db: &str) -> anyhow::Result<String> {
    let bin = match &args.server_bin {
        Some(bin) => bin.clone(),
        None => crate::bench_server::rumi_exe()?,
    };
    let floods = if args.flood.is_empty() {
        vec![Flood::SignIns, Flood::PasswordChecks, Flood::WeakSignUps]
    } else {
        args.flood.clone()
    };
    let extra = ["--trusted-proxy".to_string(), "127.0.0.1".into()];
    let mut served = start(&bin, db, &extra)?;
    let base = served.base.clone();
    let http = reqwest::Client::new();
    let measured = async {
        let alone = replies(&http, &base, args.seconds, args.think_ms, "alone").await?;
        let mut phases = Vec::new();
        for (phase, &flood) in floods.iter().enumerate() {
            phases.push(flood_phase(args, flood, &base, &http, phase).await?);
        }
        anyhow::Ok((alone, phases))
    }
    .await;
    served.child.kill()?;
    served.child.wait()?;
    let (alone, phases) = measured?;
    let mut report = format!(
        "server: {} serve (SQLite, --bot-delay-ms 0, default limits, --trusted-proxy 127.0.0.1)\n\
         a person's wait for the greedy bot's reply (Rumis Chullpa 2p, think {} ms):\n{}",
        bin.display(),
        args.think_ms,
        alone.line("alone", &alone),
    );
    for p in &phases {
        let who = match p.flood {
            Flood::SignIns => format!("{} clients sign in", args.parallel),
            Flood::PasswordChecks => format!("1 client, {} password checks", args.in_flight),
            Flood::WeakSignUps => format!("{} clients sign up weakly", args.parallel),
        };
        report += &format!("\n{}", p.replies.line(&format!("while {who}"), &alone));
    }
    for p in &phases {
        let checked = p.tries.checked.load(Ordering::SeqCst);
        let (ok, refused, waits) = &p.people;
        let refused = if refused.is_empty() {
            "none refused".to_string()
        } else {
            format!("refused: {}", refused.join(" "))
        };
        let mut waits = waits.clone();
        waits.sort_by(f64::total_cmp);
        let at = |q: f64| {
            waits
                .get(((waits.len() as f64 - 1.0) * q).round() as usize)
                .copied()
                .unwrap_or(f64::NAN)
        };
        report += &format!(
            "\n{:<16} {checked} checked and refused ({:.1}/s), {} limited (429), {} other; \
             people's sign-ins: {ok} in, {refused}; wait p50 {:.0} ms, max {:.0} ms",
            p.flood.label(),
            checked as f64 / p.seconds,
            p.tries.limited.load(Ordering::SeqCst),
            p.tries.other.load(Ordering::SeqCst),
            at(0.5),
            at(1.0),
        );
    }
    Ok(report)
}
