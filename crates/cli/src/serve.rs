//! `rumi serve`: the web app. Starts the server on its database, prints the address to
//! open, and runs until stopped.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use server::accounts::AccountOptions;
use server::hints::HintLimits;
use server::replays::ReplayLimits;
use server::reviews::ReviewLimits;
use server::{HubOptions, Limits, ServerConfig};

#[derive(clap::Args)]
pub struct ServeArgs {
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Database: sqlite://FILE (created if missing) or postgres://user@host/db.
    #[arg(long, default_value = "sqlite://rumi.db")]
    db: String,
    /// Serve the browser client from this directory (a `web/dist`, read on every
    /// request: for development) instead of the one built into this binary.
    #[arg(long)]
    web_dir: Option<PathBuf>,
    /// Milliseconds a bot waits before it moves, so that people can follow.
    #[arg(long, default_value_t = 400)]
    bot_delay_ms: u64,
    /// Unfinished tables one client address may have created (0: no cap).
    #[arg(long, default_value_t = HubOptions::default().max_open_tables_per_address)]
    max_open_tables_per_address: u64,
    /// Tables one client address may create per minute (0: no cap).
    #[arg(long, default_value_t = HubOptions::default().tables_per_minute_per_address)]
    tables_per_minute_per_address: u32,
    /// Open seats (joined from the lobby) one client address may hold at unfinished
    /// tables (0: no cap).
    #[arg(long, default_value_t = HubOptions::default().max_open_seats_per_address)]
    max_open_seats_per_address: u64,
    /// Open seats one client address may hold at one table (0: no cap).
    #[arg(long, default_value_t = HubOptions::default().max_open_seats_per_table_per_address)]
    max_open_seats_per_table_per_address: u64,
    /// Unfinished tables of bots only one client address may have created (0: no cap).
    #[arg(long, default_value_t = HubOptions::default().max_bot_tables_per_address)]
    max_bot_tables_per_address: u64,
    /// Unfinished tables of bots only on the server, from every address (0: no cap).
    #[arg(long, default_value_t = HubOptions::default().max_bot_tables)]
    max_bot_tables: u64,
    /// KiB of search tree a seat's bot may keep between its moves (MCTS).
    #[arg(long, default_value_t = HubOptions::default().bot_trees.kept_edges * play::mcts::BYTES_PER_EDGE >> 10)]
    bot_kept_tree_kib: usize,
    /// MiB a bot's search tree may grow to while it thinks (MCTS; one per core thinks
    /// at once).
    #[arg(long, default_value_t = HubOptions::default().bot_trees.search_edges * play::mcts::BYTES_PER_EDGE >> 20)]
    bot_search_tree_mib: usize,
    /// Challenges (seats kept for another account at a waiting table) one account may
    /// have open as their creator (0: no cap).
    #[arg(long, default_value_t = HubOptions::default().challenges.per_sender)]
    max_challenges_per_sender: u64,
    /// Challenges that may wait for one account (0: no cap).
    #[arg(long, default_value_t = HubOptions::default().challenges.per_receiver)]
    max_challenges_per_receiver: u64,
    /// Tables kept in memory; idle ones beyond this (also those waiting on a far turn
    /// clock) are dropped and loaded again when asked for or when their clock comes.
    #[arg(long, default_value_t = HubOptions::default().max_loaded_tables)]
    max_loaded_tables: usize,
    /// Seconds a player must be away before the others may hand their seat to a bot.
    #[arg(long, default_value_t = 60)]
    handover_after_seconds: u64,
    /// Minutes a rated table waits for its seats to be taken before it is cancelled,
    /// unrated (RT7).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=10080))]
    rated_seats_wait_minutes: u64,
    /// Let creators fix the deal's seed even with other people at the table (for
    /// tests and private servers; never on a public address).
    #[arg(long)]
    allow_chosen_seeds: bool,
    /// NATS server (`nats://127.0.0.1:4222`): run as one of several nodes on one
    /// PostgreSQL database; without it the node runs alone.
    #[arg(long)]
    nats: Option<String>,
    /// This node's name among the nodes (default: host name and process id).
    #[arg(long)]
    node_id: Option<String>,
    /// Seconds a node's lease on a table's bots and clock lasts without renewal: a
    /// node that dies hands its tables over after about this long.
    #[arg(long, default_value_t = 3)]
    lease_seconds: u64,
    /// Open connections (WebSockets included) allowed from one client address (IPv6: per
    /// /64). Behind a reverse proxy every client has the proxy's address: raise it.
    #[arg(long, default_value_t = Limits::default().max_connections_per_ip)]
    max_connections_per_ip: usize,
    /// Open connections allowed from one network (an IPv4 /24, an IPv6 /48). Behind a
    /// reverse proxy: raise it with --max-connections-per-ip.
    #[arg(long, default_value_t = Limits::default().max_connections_per_network)]
    max_connections_per_network: usize,
    /// Open connections allowed in all. When full, the least recently active WebSocket
    /// of the network holding the most is closed (1013) so that a new client gets in.
    #[arg(long, default_value_t = Limits::default().max_connections)]
    max_connections: usize,
    /// Seconds requests in flight may take to finish when the server stops (SIGTERM).
    #[arg(long, default_value_t = Limits::default().drain_timeout.as_secs())]
    drain_timeout_secs: u64,
    /// Seconds a client has to send a request's headers before it is disconnected.
    #[arg(long, default_value_t = Limits::default().header_read_timeout.as_secs())]
    header_timeout_secs: u64,
    /// Seconds within which a whole HTTP request must be answered (else 408).
    #[arg(long, default_value_t = Limits::default().request_timeout.as_secs())]
    request_timeout_secs: u64,
    /// Hints one seat may ask for per minute (0: no cap).
    #[arg(long, default_value_t = HintLimits::default().per_minute_per_seat)]
    hints_per_minute_per_seat: u32,
    /// Hints one client address may ask for per minute (0: no cap).
    #[arg(long, default_value_t = HintLimits::default().per_minute_per_address)]
    hints_per_minute_per_address: u32,
    /// Hints waiting or being computed at once; more are refused (429).
    #[arg(long, default_value_t = HintLimits::default().max_queued)]
    max_queued_hints: usize,
    /// Replays one client address may fetch per minute (0: no cap).
    #[arg(long, default_value_t = ReplayLimits::default().per_minute_per_address)]
    replays_per_minute_per_address: u32,
    /// MiB of built, compressed replays kept in memory.
    #[arg(long, default_value_t = ReplayLimits::default().cache_bytes >> 20)]
    replay_cache_mib: usize,
    /// Review requests (polls included) one client address may make per minute (0: no cap).
    #[arg(long, default_value_t = ReviewLimits::default().per_minute_per_address)]
    reviews_per_minute_per_address: u32,
    /// Reviews this node computes or queues at once; more are refused (429).
    #[arg(long, default_value_t = ReviewLimits::default().max_pending)]
    max_pending_reviews: usize,
    /// Playouts of the strongest bot's search per position of a Rumis review.
    #[arg(long, default_value_t = ReviewLimits::default().rumis_playouts)]
    review_playouts: u32,
    /// Seconds a node's claim on a review holds unless renewed (a stopped node's review
    /// is taken over after it).
    #[arg(long, default_value_t = ReviewLimits::default().claim.as_secs())]
    review_claim_seconds: u64,
    /// Mark the session cookie `Secure`: the site is served over HTTPS (behind a TLS
    /// proxy; `rumi serve` itself speaks plain HTTP).
    #[arg(long)]
    secure_cookies: bool,
    /// Sign-in attempts one client address may make per minute (0: no cap).
    #[arg(long, default_value_t = 20)]
    sign_ins_per_minute_per_address: u32,
    /// A balancer (address or CIDR network; repeatable) whose connections carry the
    /// client's address in `Forwarded` / `X-Forwarded-For`: every per-address limit
    /// then counts the client. Without it those headers are ignored.
    #[arg(long = "trusted-proxy", value_name = "CIDR", value_parser = server::transport::parse_proxy)]
    trusted_proxies: Vec<server::transport::IpNet>,
}

/// The browser client as `web/dist` was when this binary was compiled, with the `.br`
/// and `.gz` copies the web build writes (`build.rs` refuses to compile without it).
#[derive(rust_embed::Embed)]
#[folder = "../../web/dist/"]
struct BuiltClient;

/// `n` a minute with a minute's worth at once; 0: no cap.
fn per_minute(n: u32) -> server::transport::Rate {
    let n = if n == 0 { 1e9 } else { f64::from(n) };
    server::transport::Rate {
        per_second: n / 60.0,
        burst: n,
    }
}

pub fn serve(args: ServeArgs) -> anyhow::Result<()> {
    // Secrets of the addresses never reach the logs, the libraries' lines included,
    // nor the error printed at exit.
    server::redact::register_secrets_of(&args.db);
    if let Some(nats) = &args.nats {
        server::redact::register_secrets_of(nats);
    }
    serve_logged(args).map_err(|e| anyhow::anyhow!(server::redact::redact_text(&format!("{e:#}"))))
}

fn serve_logged(args: ServeArgs) -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(server::redact::LogWriter)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "info,sqlx=warn,tower_http=warn".into()),
        )
        .init();
    let client = match args.web_dir {
        Some(dir) if !dir.join("index.html").is_file() => {
            anyhow::bail!("--web-dir {}: no index.html there (build the client with `cd web && npm ci && npm run build`)", dir.display())
        }
        Some(dir) => server::client::Client::Dir(dir),
        None => server::client::Client::Embedded(BuiltClient::get),
    };
    if args.nats.is_some() && args.db.starts_with("sqlite:") {
        anyhow::bail!(
            "several nodes share one PostgreSQL database: give --db postgres://… with --nats"
        );
    }
    let cluster = args.nats.clone().map(|nats_url| server::ClusterOptions {
        nats_url,
        node_id: args.node_id.clone().unwrap_or_else(default_node_id),
        lease_ttl: Duration::from_secs(args.lease_seconds.max(1)),
    });
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async move {
        let running = server::start(ServerConfig {
            addr: args.addr,
            db: args.db.clone(),
            client,
            hub: HubOptions {
                bot_delay: Duration::from_millis(args.bot_delay_ms),
                handover_after: Duration::from_secs(args.handover_after_seconds),
                rated_seats_wait: Duration::from_secs(args.rated_seats_wait_minutes * 60),
                max_loaded_tables: args.max_loaded_tables,
                max_open_tables_per_address: args.max_open_tables_per_address,
                tables_per_minute_per_address: args.tables_per_minute_per_address,
                max_open_seats_per_address: args.max_open_seats_per_address,
                max_open_seats_per_table_per_address: args.max_open_seats_per_table_per_address,
                max_bot_tables_per_address: args.max_bot_tables_per_address,
                max_bot_tables: args.max_bot_tables,
                bot_trees: play::bots::TreeBound {
                    kept_edges: (args.bot_kept_tree_kib << 10) / play::mcts::BYTES_PER_EDGE,
                    search_edges: (args.bot_search_tree_mib << 20) / play::mcts::BYTES_PER_EDGE,
                },
                challenges: server::hub::ChallengeLimits {
                    per_sender: args.max_challenges_per_sender,
                    per_receiver: args.max_challenges_per_receiver,
                    ..Default::default()
                },
                chosen_seeds_with_people: args.allow_chosen_seeds,
                hints: HintLimits {
                    per_minute_per_seat: args.hints_per_minute_per_seat,
                    per_minute_per_address: args.hints_per_minute_per_address,
                    max_queued: args.max_queued_hints,
                    ..HintLimits::default()
                },
                replays: ReplayLimits {
                    per_minute_per_address: args.replays_per_minute_per_address,
                    cache_bytes: args.replay_cache_mib << 20,
                },
                reviews: ReviewLimits {
                    per_minute_per_address: args.reviews_per_minute_per_address,
                    max_pending: args.max_pending_reviews,
                    rumis_playouts: args.review_playouts.max(1),
                    claim: Duration::from_secs(args.review_claim_seconds.max(1)),
                },
                accounts: AccountOptions {
                    secure_cookies: args.secure_cookies,
                    sign_ins_per_address: per_minute(args.sign_ins_per_minute_per_address),
                    ..AccountOptions::default()
                },
                ..HubOptions::default()
            },
            limits: Limits {
                max_connections_per_ip: args.max_connections_per_ip,
                max_connections_per_network: args.max_connections_per_network,
                max_connections: args.max_connections,
                drain_timeout: Duration::from_secs(args.drain_timeout_secs),
                header_read_timeout: Duration::from_secs(args.header_timeout_secs),
                request_timeout: Duration::from_secs(args.request_timeout_secs),
                trusted_proxies: args.trusted_proxies.clone(),
                ..Limits::default()
            },
            cluster: cluster.clone(),
        })
        .await?;
        // Tests and scripts read this line to find the port.
        println!("listening on http://{}", running.addr);
        eprintln!(
            "rumi serves on http://{} (database {}{})",
            running.addr,
            server::redact_url(&args.db),
            cluster
                .as_ref()
                .map(|c| format!(
                    ", node {} on NATS {}",
                    c.node_id,
                    server::redact_url(&c.nats_url)
                ))
                .unwrap_or_default()
        );
        let mut terminate =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
                .context("cannot listen for SIGTERM")?;
        let mut running = running;
        tokio::select! {
            result = &mut running.task => { result??; return Ok(()); }
            _ = tokio::signal::ctrl_c() => {}
            _ = terminate.recv() => {}
        }
        // Stop taking connections, let requests in flight finish and WebSockets close
        // (1001), hand the tables over, then leave.
        running.shutdown();
        if let Ok(Err(e)) = (&mut running.task).await {
            eprintln!("while stopping: {e}");
        }
        running.hub.drain().await;
        eprintln!("stopped: connections drained, leases handed over");
        Ok(())
    })
}

/// A node name that differs between machines and processes.
fn default_node_id() -> String {
    let host = std::fs::read_to_string("/etc/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_else(|_| "node".into());
    format!("{host}-{}", std::process::id())
}
