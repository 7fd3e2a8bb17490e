//! `rumi-bench server --nodes N --db postgres://… --nats nats://…`: the load run on
//! several nodes. Each table's seat of this program plays over a WebSocket on a node
//! chosen at random, its spectator watches on another node, and one node is killed
//! with SIGKILL halfway. Reports actions per second, the latency of an action from
//! being sent on one node to the new state arriving on another, lost and duplicated
//! actions, and how long the killed node's tables stood still.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use futures_util::{SinkExt, StreamExt};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::Message;

use crate::bench_server::{
    choose, create, hello, is_over, latency_chart, my_turn, percentiles, progress, start_server,
    view, ws_url, Served, ServerBenchArgs,
};

/// What the clients share: the nodes alive, and the measurements.
#[derive(Default)]
struct Shared {
    /// Per table: (version the action makes, when it was sent), until a spectator on
    /// another node sees that version.
    sent: Mutex<HashMap<usize, (u64, Instant)>>,
    /// (ms since the start when the action was sent, µs until another node showed it).
    cross_node_us: Mutex<Vec<(u64, u64)>>,
    /// The last time each table moved, as its spectator saw it.
    moved: Mutex<HashMap<usize, Instant>>,
    /// Per table: the first move after the kill, as its spectator saw it.
    moved_after_kill: Mutex<HashMap<usize, Instant>>,
    acknowledged: Mutex<HashMap<usize, u64>>,
    lost: AtomicU64,
    reconnects: AtomicU64,
}

pub async fn run(args: ServerBenchArgs, db: String, nodes: usize) -> anyhow::Result<()> {
    let nats = args
        .nats
        .clone()
        .context("several nodes need --nats nats://…")?;
    if db.starts_with("sqlite:") {
        bail!("several nodes share one PostgreSQL database: give --db postgres://…");
    }
    let table_count = args.tables.unwrap_or(500);
    let mut served: Vec<Option<Served>> = Vec::new();
    for n in 0..nodes {
        let name = format!("bench{}", n + 1);
        served.push(Some(start_server(
            &db,
            args.bot_delay_ms,
            &["--nats", &nats, "--node-id", &name],
        )?));
    }
    let bases: Vec<String> = served
        .iter()
        .map(|s| s.as_ref().expect("started").base.clone())
        .collect();
    // The nodes alive: clients move to another when theirs goes.
    let (alive_tx, alive_rx) = watch::channel(vec![true; nodes]);
    let http = reqwest::Client::new();
    let shared = Arc::new(Shared::default());
    let mut rng = ChaCha8Rng::seed_from_u64(7);
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
        let player_node = rng.gen_range(0..nodes);
        let spectator_node = (player_node + rng.gen_range(1..nodes.max(2))) % nodes;
        let (id, token) = create(&http, &bases[player_node], &body).await?;
        tables.push((
            id,
            token.context("no creator token")?,
            player_node,
            spectator_node,
        ));
        bar.inc(1);
    }
    let start = Instant::now();
    let end = start + Duration::from_secs(args.seconds);
    let mut tasks = Vec::new();
    for (index, (id, token, player_node, spectator_node)) in tables.iter().enumerate() {
        let arrival = Duration::from_millis(index as u64 * 2000 / table_count.max(1) as u64);
        tasks.push(tokio::spawn(player(
            Seat {
                index,
                id: id.clone(),
                token: token.clone(),
                node: *player_node,
                think_ms: args.think_ms,
                arrival,
            },
            bases.clone(),
            alive_rx.clone(),
            shared.clone(),
            (start, end),
        )));
        tasks.push(tokio::spawn(spectator(
            index,
            id.clone(),
            *spectator_node,
            bases.clone(),
            alive_rx.clone(),
            shared.clone(),
            (start, end),
        )));
    }
    bar.reset();
    bar.set_length(args.seconds);
    bar.set_message("playing");
    let kill_at = start + Duration::from_secs(args.seconds / 2);
    let mut killed: Option<(usize, Instant)> = None;
    while Instant::now() < end {
        tokio::time::sleep(Duration::from_millis(200)).await;
        bar.set_position(start.elapsed().as_secs().min(args.seconds));
        if killed.is_none() && !args.no_crash && Instant::now() >= kill_at {
            let victim = 0;
            let mut node = served[victim].take().expect("alive");
            node.child.kill()?;
            node.child.wait()?;
            let at = Instant::now();
            killed = Some((victim, at));
            alive_tx.send_modify(|alive| alive[victim] = false);
            bar.println(format!(
                "killed node bench{} with SIGKILL at {:.1} s",
                victim + 1,
                at.duration_since(start).as_secs_f64()
            ));
        }
    }
    for task in tasks {
        let _ = task.await;
    }
    bar.finish_and_clear();
    let survivor = served
        .iter()
        .flatten()
        .next()
        .context("no node left")?
        .base
        .clone();
    // The database's truth, through a surviving node.
    let mut actions = 0u64;
    let mut duplicated = 0u64;
    let mut lost = shared.lost.load(Ordering::Relaxed);
    let acknowledged = shared.acknowledged.lock().expect("lock").clone();
    for (index, (id, ..)) in tables.iter().enumerate() {
        let view = view(&http, &survivor, id, None).await?;
        let version = view["version"].as_u64().unwrap_or(0);
        actions += version;
        if let Some(history) = view["rumis"]["history"].as_array() {
            duplicated += (history.len() as u64).abs_diff(version);
        }
        if let Some(&seen) = acknowledged.get(&index) {
            lost += seen.saturating_sub(version);
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    for node in served.iter_mut().flatten() {
        let _ = node.child.kill();
    }
    let samples = shared.cross_node_us.lock().expect("lock").clone();
    let kill_ms = killed.map(|(_, at)| at.duration_since(start).as_millis() as u64);
    let warm_up_ms = 5_000;
    let near_kill = |t: u64| kill_ms.is_some_and(|k| t + 1_000 >= k && t < k + 5_000);
    let steady: Vec<u64> = samples
        .iter()
        .filter(|&&(t, _)| t >= warm_up_ms && !near_kill(t))
        .map(|&(_, l)| l)
        .collect();
    println!(
        "{} tables on {nodes} nodes ({} Rumis, {} Rummikub), a player and a spectator on different nodes each, {elapsed:.0} s on {}",
        tables.len(),
        tables.len().div_ceil(2),
        tables.len() / 2,
        server::redact_url(&db)
    );
    println!(
        "actions stored: {actions} ({:.0} per second), reconnects: {}",
        actions as f64 / elapsed,
        shared.reconnects.load(Ordering::Relaxed)
    );
    println!(
        "{}",
        percentiles(
            "action latency, sent on one node → state on another, steady state (outside the 5 s after the kill)",
            steady
        )
    );
    println!(
        "{}",
        percentiles("  the whole run", samples.iter().map(|&(_, l)| l).collect())
    );
    if let Some((victim, at)) = killed {
        let moved = shared.moved_after_kill.lock().expect("lock").clone();
        let mut waits: Vec<u64> = moved
            .values()
            .map(|t| t.duration_since(at).as_micros() as u64)
            .collect();
        println!(
            "{}",
            percentiles(
                &format!(
                    "after kill -9 of bench{}: each table's first move",
                    victim + 1
                ),
                std::mem::take(&mut waits)
            )
            .replace("actions", "tables")
        );
        let still = tables.len() - moved.len();
        println!("tables that never moved after the kill (over, or waiting for a person): {still}");
    }
    println!("acknowledged actions lost: {lost}, duplicated: {duplicated}");
    println!("{}", latency_chart(&samples, args.seconds));
    Ok(())
}

struct Seat {
    index: usize,
    id: String,
    token: String,
    node: usize,
    think_ms: u64,
    arrival: Duration,
}

/// The node to use: `preferred` while it lives, else the next one alive.
fn pick(preferred: usize, alive: &[bool]) -> usize {
    (0..alive.len())
        .map(|k| (preferred + k) % alive.len())
        .find(|&n| alive[n])
        .unwrap_or(preferred)
}

/// This program's seat at one table: think, act, note when the action was sent (a
/// spectator on another node times its arrival there).
async fn player(
    seat: Seat,
    bases: Vec<String>,
    mut alive: watch::Receiver<Vec<bool>>,
    shared: Arc<Shared>,
    (start, end): (Instant, Instant),
) {
    tokio::time::sleep(seat.arrival).await;
    let _ = start;
    let mut rng = ChaCha8Rng::seed_from_u64(seat.index as u64);
    let mut acknowledged = 0u64;
    while Instant::now() < end {
        let node = pick(seat.node, &alive.borrow_and_update());
        let Ok((socket, _)) =
            tokio_tungstenite::connect_async(ws_url(&bases[node], &seat.id)).await
        else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let (mut sink, mut stream) = socket.split();
        if sink.send(hello(Some(&seat.token))).await.is_err() {
            continue;
        }
        let mut first = true;
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
                        next_action_at = None;
                        continue;
                    }
                    let view = &message["view"];
                    let version = view["version"].as_u64().unwrap_or(0);
                    if std::mem::take(&mut first) && version < acknowledged {
                        shared.lost.fetch_add(acknowledged - version, Ordering::Relaxed);
                    }
                    acknowledged = acknowledged.max(version);
                    shared.acknowledged.lock().expect("lock").insert(seat.index, acknowledged);
                    if is_over(view) {
                        return;
                    }
                    next_action_at = my_turn(view).then(|| {
                        let think = rng.gen_range(seat.think_ms / 2..=seat.think_ms * 3 / 2 + 1);
                        Instant::now() + Duration::from_millis(think)
                    });
                    last_view = Some(view.clone());
                }
                _ = tokio::time::sleep(wait) => {
                    if Instant::now() >= end { return; }
                    next_action_at = None;
                    let Some(view) = last_view.take() else { continue };
                    let version = view["version"].as_u64().unwrap_or(0);
                    let action = choose(&view, &mut rng);
                    let message = json!({"type": "action", "version": version, "action": action});
                    shared.sent.lock().expect("lock").insert(seat.index, (version + 1, Instant::now()));
                    if sink.send(Message::Text(message.to_string().into())).await.is_err() {
                        break;
                    }
                }
                _ = alive.changed() => {
                    if !alive.borrow()[node] { break; }
                }
            }
        }
        shared.reconnects.fetch_add(1, Ordering::Relaxed);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A spectator on another node than its table's player: times the player's actions
/// to their arrival here, and notes when the table moves.
async fn spectator(
    index: usize,
    id: String,
    node: usize,
    bases: Vec<String>,
    mut alive: watch::Receiver<Vec<bool>>,
    shared: Arc<Shared>,
    (start, end): (Instant, Instant),
) {
    let mut last_version = 0u64;
    while Instant::now() < end {
        let here = pick(node, &alive.borrow_and_update());
        let Ok((mut socket, _)) = tokio_tungstenite::connect_async(ws_url(&bases[here], &id)).await
        else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        if socket.send(hello(None)).await.is_err() {
            continue;
        }
        loop {
            tokio::select! {
                message = socket.next() => {
                    let Some(Ok(Message::Text(text))) = message else { break };
                    let Ok(message) = serde_json::from_str::<Value>(text.as_str()) else { continue };
                    let version = message["view"]["version"].as_u64().unwrap_or(0);
                    let now = Instant::now();
                    if version > last_version {
                        last_version = version;
                        shared.moved.lock().expect("lock").insert(index, now);
                        if !alive.borrow().iter().all(|a| *a) {
                            shared.moved_after_kill.lock().expect("lock").entry(index).or_insert(now);
                        }
                    }
                    let mut sent = shared.sent.lock().expect("lock");
                    if let Some(&(expected, at)) = sent.get(&index) {
                        if version >= expected {
                            sent.remove(&index);
                            shared.cross_node_us.lock().expect("lock").push((
                                at.duration_since(start).as_millis() as u64,
                                now.duration_since(at).as_micros() as u64,
                            ));
                        }
                    }
                }
                _ = tokio::time::sleep(end.saturating_duration_since(Instant::now())) => return,
                _ = alive.changed() => {
                    if !alive.borrow()[here] { break; }
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
