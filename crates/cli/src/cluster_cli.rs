//! `rumi cluster`: a local cluster in one command. Starts several `rumi serve` nodes on
//! one PostgreSQL database and one NATS server, and HAProxy (Debian's `haproxy`) in
//! front of them with a configuration from [`haproxy_config`]: round robin over the
//! nodes whose `/api/health` answers 200, WebSockets included. A node that dies is
//! started again under the same name and port; Ctrl-C or SIGTERM makes every node hand
//! its leases over before the cluster exits.
//!
//! The launcher (`launch`) is Linux's only: it hands HAProxy its listening socket and
//! has every child stop when the cluster dies (`PR_SET_PDEATHSIG`). Elsewhere `rumi
//! cluster` prints the HAProxy configuration only; a real deployment runs the nodes
//! and HAProxy as services (docs/cluster.md).

#[cfg(target_os = "linux")]
mod launch;

use std::net::SocketAddr;
use std::path::PathBuf;

#[derive(clap::Args)]
// Outside Linux only the configuration is printed: the launcher's flags go unread.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
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
    start(args)
}

#[cfg(target_os = "linux")]
fn start(args: ClusterArgs) -> anyhow::Result<()> {
    use anyhow::{bail, Context};
    let db = args.db.as_deref().unwrap_or_default();
    if !(db.starts_with("postgres://") || db.starts_with("postgresql://")) {
        bail!(
            "rumi cluster runs several nodes on one database, which must be PostgreSQL: \
             give --db postgres://user@host/db (SQLite serves a single node: use rumi serve)"
        );
    }
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let result = runtime.block_on(launch::run(args));
    runtime.shutdown_timeout(std::time::Duration::from_secs(1));
    result
}

#[cfg(not(target_os = "linux"))]
fn start(_args: ClusterArgs) -> anyhow::Result<()> {
    anyhow::bail!(
        "rumi cluster starts its nodes on Linux only; here it prints HAProxy's \
         configuration (--print-haproxy-config). Run the nodes (rumi serve) and HAProxy \
         as services, as docs/cluster.md shows"
    )
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
