//! Several `rumi serve` nodes on one PostgreSQL database with NATS between them:
//! players on different nodes play whole games and every viewer gets every state in
//! order and only their own rack, and every table event reaches the other nodes once; two nodes racing for one version store one action;
//! a node killed with SIGKILL hands its tables' bots and clocks to another within 5 s;
//! a node cut off from NATS catches up when it comes back, and says `degraded` (200)
//! meanwhile; a player connected to (or polling) one node keeps their seat against a
//! hand-over through another.

mod common;

use std::time::{Duration, Instant};

use common::{next_view, psql, serve_with, temp_postgres, ws_hello, Nats, Served};
use futures_util::SinkExt;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

fn node(db: &str, nats: &Nats, name: &str) -> Served {
    node_with(db, nats, name, &[])
}

/// A node with the tests' flags, and `more` (which may set `--lease-seconds` anew).
fn node_with(db: &str, nats: &Nats, name: &str, more: &[&str]) -> Served {
    let url = nats.url();
    let lease = if more.contains(&"--lease-seconds") {
        &[][..]
    } else {
        &["--lease-seconds", "2"][..]
    };
    let mut flags = vec![
        "--nats",
        &url,
        "--node-id",
        name,
        "--bot-delay-ms",
        "100",
        "--max-open-tables-per-address",
        "0",
        "--tables-per-minute-per-address",
        "0",
    ];
    flags.extend_from_slice(lease);
    flags.extend_from_slice(more);
    serve_with(db, &flags)
}

async fn post(base: &str, path: &str, token: Option<&str>, body: Value) -> (u16, Value) {
    let mut request = reqwest::Client::new()
        .post(format!("{base}{path}"))
        .header("content-type", "application/json")
        .body(body.to_string());
    if let Some(token) = token {
        request = request.header("x-seat-token", token);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn get_status(base: &str, path: &str) -> (u16, Value) {
    let response = reqwest::get(format!("{base}{path}")).await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn get(base: &str, path: &str, token: Option<&str>) -> Value {
    let mut request = reqwest::Client::new().get(format!("{base}{path}"));
    if let Some(token) = token {
        request = request.header("x-seat-token", token);
    }
    request.send().await.unwrap().json().await.unwrap()
}

/// A viewer's record of every view it received.
struct Viewer {
    socket: Socket,
    seen: Vec<Value>,
}

impl Viewer {
    async fn open(base: &str, id: &str, token: Option<&str>) -> Viewer {
        let mut socket = ws_hello(base, id, token).await;
        let first = next_view(&mut socket).await;
        Viewer {
            socket,
            seen: vec![first],
        }
    }

    fn last(&self) -> &Value {
        self.seen.last().unwrap()
    }

    /// Reads views until the game has started (the invitee's node told this one).
    async fn until_started(&mut self) {
        while self.last()["status"] == "waiting" {
            let view = next_view(&mut self.socket).await;
            self.seen.push(view);
        }
    }

    /// Reads views until one has at least `version`.
    async fn until(&mut self, version: u64) -> Value {
        while self.last()["version"].as_u64().unwrap() < version {
            let view = next_view(&mut self.socket).await;
            self.seen.push(view);
        }
        self.last().clone()
    }

    /// Every view is a whole state (every tile or cube accounted for), they arrive in
    /// order up to `last`, and a rack reaches only its own seat. (A viewer whose node
    /// learns of two actions at once gets one view of both, never a view missing one.)
    fn check(&self, you: Option<u64>, last: u64) {
        let versions: Vec<u64> = self
            .seen
            .iter()
            .map(|v| v["version"].as_u64().unwrap())
            .collect();
        assert!(
            versions.windows(2).all(|w| w[0] <= w[1]),
            "views out of order: {versions:?}"
        );
        assert_eq!(versions.last(), Some(&last), "{versions:?}");
        for view in &self.seen {
            assert_eq!(view["you"].as_u64(), you);
            if let Some(rummikub) = view.get("rummikub") {
                let count = |v: &Value| v.as_array().map_or(0, Vec::len) as u64;
                let racks: u64 = rummikub["rack_sizes"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|n| n.as_u64().unwrap())
                    .sum();
                let table: u64 = rummikub["table"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(count)
                    .sum();
                assert_eq!(
                    racks + table + rummikub["pool_size"].as_u64().unwrap(),
                    106,
                    "a view that lost tiles: {view}"
                );
                match you {
                    Some(seat) => assert_eq!(
                        count(&rummikub["rack"]),
                        rummikub["rack_sizes"][seat as usize].as_u64().unwrap(),
                        "a seat sees its whole rack"
                    ),
                    None => assert!(rummikub["rack"].is_null(), "a spectator saw a rack"),
                }
            }
            if let Some(rumis) = view.get("rumis") {
                let history = rumis["history"].as_array().unwrap();
                assert_eq!(history.len() as u64, view["version"].as_u64().unwrap());
                let cells: usize = history
                    .iter()
                    .map(|mv| mv.as_str().unwrap().split_whitespace().count() - 1)
                    .sum();
                assert_eq!(rumis["cubes"].as_array().unwrap().len(), cells, "{view}");
            }
        }
    }
}

/// Creates a two-person table on `creator` and lets the invitee take the seat with
/// the link on `other`; answers the id and both seats' tokens.
async fn two_people(creator: &str, other: &str, body: Value) -> (String, String, String) {
    let (status, created) = post(creator, "/api/tables", None, body).await;
    assert_eq!(status, 200, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let a = created["you"]["token"].as_str().unwrap().to_string();
    let invite = created["seats"][1]["invite"].as_str().unwrap();
    let invite = invite.split("#token=").nth(1).unwrap();
    let (status, claimed) = post(
        other,
        &format!("/api/tables/{id}/claim"),
        Some(invite),
        json!({}),
    )
    .await;
    assert_eq!(status, 200, "{claimed}");
    let b = claimed["token"].as_str().unwrap().to_string();
    (id, a, b)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL and NATS"]
async fn players_on_different_nodes_play_whole_games_and_every_viewer_sees_every_state() {
    let db = temp_postgres("cluster_games");
    let nats = Nats::start();
    let nodes = [
        node(&db, &nats, "n1"),
        node(&db, &nats, "n2"),
        node(&db, &nats, "n3"),
    ];
    let bases: Vec<String> = nodes.iter().map(|n| n.base.clone()).collect();

    // A whole Rummikub round: Ana on node 1, Bo on node 2, a spectator on node 3.
    let (id, ana, bo) = two_people(
        &bases[0],
        &bases[1],
        json!({"game": "rummikub", "rummikub": {"turn_seconds": null},
               "seats": [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bo"}]}),
    )
    .await;
    let mut players = [
        Viewer::open(&bases[0], &id, Some(&ana)).await,
        Viewer::open(&bases[1], &id, Some(&bo)).await,
    ];
    let mut spectator = Viewer::open(&bases[2], &id, None).await;
    for player in players.iter_mut() {
        player.until_started().await;
    }
    let mut version = players[0].last()["version"].as_u64().unwrap();
    loop {
        let view = players[0].until(version).await;
        players[1].until(version).await;
        if view["rummikub"]["round_over"].is_object() {
            break;
        }
        // The player to move draws (or passes once the pool is empty), on their node.
        let seat = view["to_move"].as_u64().unwrap() as usize;
        let action = json!({"type": "action", "version": version, "action": {"type": "draw"}});
        players[seat]
            .socket
            .send(Message::Text(action.to_string().into()))
            .await
            .unwrap();
        version += 1;
        assert!(version < 400, "the round never ended");
    }
    spectator.until(version).await;
    players[0].check(Some(0), version);
    players[1].check(Some(1), version);
    spectator.check(None, version);
    assert!(version > 70, "a round of draws is long: {version}");

    // A whole Rumis game: each player places the first legal stone, on their node.
    let (id, ana, bo) = two_people(
        &bases[1],
        &bases[2],
        json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2},
               "seats": [{"kind": "human"}, {"kind": "human"}]}),
    )
    .await;
    let mut players = [
        Viewer::open(&bases[1], &id, Some(&ana)).await,
        Viewer::open(&bases[2], &id, Some(&bo)).await,
    ];
    let mut spectator = Viewer::open(&bases[0], &id, None).await;
    for player in players.iter_mut() {
        player.until_started().await;
    }
    let mut version = players[0].last()["version"].as_u64().unwrap();
    loop {
        let mut views = Vec::new();
        for player in players.iter_mut() {
            views.push(player.until(version).await);
        }
        if views[0]["over"] == true {
            break;
        }
        let seat = views[0]["to_move"].as_u64().unwrap() as usize;
        let legal = &views[seat]["rumis"]["legal"][0];
        assert!(legal.is_object(), "the player to move has a legal move");
        let placing =
            json!({"type": "rumis_place", "stone": legal["stone"], "cells": legal["cells"]});
        let action = json!({"type": "action", "version": version, "action": placing});
        players[seat]
            .socket
            .send(Message::Text(action.to_string().into()))
            .await
            .unwrap();
        version += 1;
    }
    spectator.until(version).await;
    players[0].check(Some(0), version);
    players[1].check(Some(1), version);
    spectator.check(None, version);
    let replay = get(&bases[0], &format!("/api/tables/{id}/replay"), None).await;
    assert_eq!(
        replay["steps"].as_array().unwrap().len() as u64,
        version + 1,
        "each action stored once"
    );

    // The bus across nodes: every table event one node published (two tables made,
    // seats taken, a game finished) reaches each of the other two nodes once.
    let start = Instant::now();
    loop {
        let mut published = std::collections::BTreeMap::<String, u64>::new();
        let mut heard = std::collections::BTreeMap::<String, u64>::new();
        for base in &bases {
            let text = reqwest::get(format!("{base}/metrics"))
                .await
                .unwrap()
                .text()
                .await
                .unwrap();
            for (event, n) in event_counts(&text, "rumi_table_events_total") {
                *published.entry(event).or_default() += n;
            }
            for (event, n) in event_counts(&text, "rumi_table_events_heard_total") {
                *heard.entry(event).or_default() += n;
            }
        }
        let count = |event: &str| published.get(event).copied().unwrap_or(0);
        assert!(
            count("created") >= 2 && count("finished") >= 1,
            "{published:?}"
        );
        let expected: std::collections::BTreeMap<String, u64> =
            published.iter().map(|(e, n)| (e.clone(), 2 * n)).collect();
        if heard == expected {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "published {published:?}, heard elsewhere {heard:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A counter by event from a node's /metrics text: `name{event="x",…} n` lines.
fn event_counts(metrics: &str, name: &str) -> Vec<(String, u64)> {
    metrics
        .lines()
        .filter_map(|line| {
            let labels = line.strip_prefix(name)?.strip_prefix('{')?;
            let event = labels.split("event=\"").nth(1)?.split('"').next()?;
            let value = line.rsplit(' ').next()?.parse::<f64>().ok()?;
            Some((event.to_string(), value as u64))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL and NATS"]
async fn the_same_action_sent_to_two_nodes_is_stored_once() {
    let db = temp_postgres("cluster_race");
    let nats = Nats::start();
    let nodes = [node(&db, &nats, "r1"), node(&db, &nats, "r2")];
    let (id, ana, bo) = two_people(
        &nodes[0].base,
        &nodes[1].base,
        json!({"game": "rummikub", "rummikub": {"turn_seconds": null},
               "seats": [{"kind": "human"}, {"kind": "human"}]}),
    )
    .await;
    for round in 0..10u64 {
        let view = get(&nodes[0].base, &format!("/api/tables/{id}"), Some(&ana)).await;
        let version = view["version"].as_u64().unwrap();
        assert_eq!(version, round, "one action per round");
        let token = if view["to_move"] == 0 { &ana } else { &bo };
        let body = json!({"version": version, "action": {"type": "draw"}});
        let path = format!("/api/tables/{id}/actions");
        let (one, two) = tokio::join!(
            post(&nodes[0].base, &path, Some(token), body.clone()),
            post(&nodes[1].base, &path, Some(token), body.clone()),
        );
        let mut statuses = [one.0, two.0];
        statuses.sort();
        assert_eq!(statuses, [200, 409], "{one:?} {two:?}");
        let refused = if one.0 == 409 { &one.1 } else { &two.1 };
        assert_eq!(refused["code"], "stale", "{refused}");
    }
    let stored = psql(
        &db,
        &format!("SELECT COUNT(*) FROM rumi_actions WHERE table_id = '{id}'"),
    );
    assert_eq!(stored, "10");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL and NATS"]
async fn a_killed_nodes_bots_and_clocks_go_on_elsewhere_once_its_lease_runs_out() {
    let db = temp_postgres("cluster_kill");
    let nats = Nats::start();
    let mut nodes = vec![
        Some(node(&db, &nats, "k1")),
        Some(node(&db, &nats, "k2")),
        Some(node(&db, &nats, "k3")),
    ];
    let base = |i: usize, nodes: &Vec<Option<Served>>| nodes[i].as_ref().unwrap().base.clone();
    // Bots only (node 1 runs them) and two people with a 1 s clock (node 1 runs it).
    let (_, bots) = post(
        &base(0, &nodes),
        "/api/tables",
        None,
        json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 4},
               "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"},
                         {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}]}),
    )
    .await;
    let bots = bots["id"].as_str().unwrap().to_string();
    let (clock, _, _) = two_people(
        &base(0, &nodes),
        &base(0, &nodes),
        json!({"game": "rummikub", "rummikub": {"turn_seconds": 1},
               "seats": [{"kind": "human"}, {"kind": "human"}]}),
    )
    .await;
    // Wait until both are under way, then kill the node holding the bots' lease.
    let watch = |base: String, id: String, at_least: u64| async move {
        let start = Instant::now();
        loop {
            let view = get(&base, &format!("/api/tables/{id}"), None).await;
            if view["version"].as_u64().unwrap() >= at_least || view["over"] == true {
                return view;
            }
            assert!(start.elapsed() < Duration::from_secs(30), "stuck: {view}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    watch(base(0, &nodes), bots.clone(), 4).await;
    watch(base(0, &nodes), clock.clone(), 1).await;
    let holder = |id: &str| {
        psql(
            &db,
            &format!("SELECT node FROM rumi_leases WHERE table_id = '{id}'"),
        )
    };
    let victim_name = holder(&bots);
    let victim = ["k1", "k2", "k3"]
        .iter()
        .position(|n| *n == victim_name)
        .expect("a node holds the bots' lease");
    let clock_on_victim = holder(&clock) == victim_name;
    let watcher = base((victim + 1) % 3, &nodes);
    let stored = |id: &str| -> u64 {
        psql(
            &db,
            &format!("SELECT COALESCE(MAX(version), 0) FROM rumi_actions WHERE table_id = '{id}'"),
        )
        .parse()
        .unwrap()
    };
    // The dead node's leases run out at the latest expiry it wrote (read before the
    // kill: it may only have pushed it later since). The events below are what the
    // test waits for; `watch`'s deadline, fifteen lease lifetimes, only keeps a
    // broken hand-over from hanging the test.
    let expiry = |id: &str| -> i64 {
        psql(
            &db,
            &format!("SELECT expires_ms FROM rumi_leases WHERE table_id = '{id}'"),
        )
        .parse()
        .unwrap()
    };
    let (bots_expiry, clock_expiry) = (expiry(&bots), expiry(&clock));
    nodes[victim].take().unwrap().kill_9();
    let killed = Instant::now();
    // What the killed node had stored is all there is; the next action is another's.
    let (before_bots, before_clock) = (stored(&bots), stored(&clock));
    let moved = watch(watcher.clone(), bots.clone(), before_bots + 1).await;
    let bots_after = killed.elapsed();
    watch(watcher.clone(), clock.clone(), before_clock + 1).await;
    let clock_after = killed.elapsed();
    println!(
        "after kill -9 of {victim_name}: bots moved again in {bots_after:?}, the clock in {clock_after:?} (its lease on the killed node: {clock_on_victim})"
    );
    // The next actions came from another node that took the lease once it ran out,
    // not before: nobody drove the table beside its holder.
    let at_ms = |id: &str, version: u64| -> i64 {
        psql(
            &db,
            &format!(
                "SELECT at_ms FROM rumi_actions WHERE table_id = '{id}' AND version = {version}"
            ),
        )
        .parse()
        .unwrap()
    };
    assert!(
        at_ms(&bots, before_bots + 1) > bots_expiry,
        "the bots moved again only once the dead node's lease ran out"
    );
    if clock_on_victim {
        assert!(
            at_ms(&clock, before_clock + 1) > clock_expiry,
            "the clock went on only once the dead node's lease ran out"
        );
    }
    assert!(moved["version"].as_u64().unwrap() > before_bots);
    assert_ne!(
        holder(&bots),
        victim_name,
        "another node holds the lease now"
    );
    // The game ends and replays: nothing acknowledged was lost, nothing stored twice.
    let over = {
        let start = Instant::now();
        loop {
            let view = get(&watcher, &format!("/api/tables/{bots}"), None).await;
            if view["over"] == true {
                break view;
            }
            assert!(start.elapsed() < Duration::from_secs(60), "never over");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    let replay = get(&watcher, &format!("/api/tables/{bots}/replay"), None).await;
    let steps = replay["steps"].as_array().unwrap();
    assert_eq!(steps.len() as u64, over["version"].as_u64().unwrap() + 1);
    for (i, step) in steps.iter().enumerate() {
        assert_eq!(step["rumis"]["history"].as_array().unwrap().len(), i);
    }
    let record = rumis::record::Record::parse(replay["record"].as_str().unwrap()).unwrap();
    record
        .replay(rumis::Scenario::builtin("chullpa").unwrap())
        .expect("the game replays in the engine");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL and NATS"]
async fn a_node_cut_off_from_nats_catches_up_when_it_returns() {
    let db = temp_postgres("cluster_nats");
    let nats = Nats::start();
    let nodes = [node(&db, &nats, "c1"), node(&db, &nats, "c2")];
    let (id, ana, bo) = two_people(
        &nodes[0].base,
        &nodes[0].base,
        json!({"game": "rummikub", "rummikub": {"turn_seconds": null},
               "seats": [{"kind": "human"}, {"kind": "human"}]}),
    )
    .await;
    let mut spectator = Viewer::open(&nodes[1].base, &id, None).await;
    let draw = |version: u64| json!({"version": version, "action": {"type": "draw"}});
    let path = format!("/api/tables/{id}/actions");
    let token_for = |view: &Value| {
        if view["to_move"] == 0 {
            ana.clone()
        } else {
            bo.clone()
        }
    };
    // With NATS up, the spectator on node 2 follows node 1.
    let view = get(&nodes[0].base, &format!("/api/tables/{id}"), None).await;
    assert_eq!(
        post(&nodes[0].base, &path, Some(&token_for(&view)), draw(0))
            .await
            .0,
        200
    );
    spectator.until(1).await;
    // NATS goes away; two more actions on node 1.
    let port = nats.stop();
    for version in 1..3 {
        let view = get(&nodes[0].base, &format!("/api/tables/{id}"), None).await;
        let (status, answer) = post(
            &nodes[0].base,
            &path,
            Some(&token_for(&view)),
            draw(version),
        )
        .await;
        assert_eq!(status, 200, "actions go on without NATS: {answer}");
    }
    // NATS comes back on the same address: node 2 catches up from the database.
    let _nats = Nats::start_on(port);
    // The deadline only keeps a node that never catches up from hanging the test.
    let caught_up = tokio::time::timeout(Duration::from_secs(60), spectator.until(3))
        .await
        .expect("the spectator on node 2 caught up");
    assert_eq!(caught_up["version"], 3);
    let truth = get(&nodes[0].base, &format!("/api/tables/{id}"), None).await;
    assert_eq!(
        caught_up["rummikub"]["rack_sizes"],
        truth["rummikub"]["rack_sizes"]
    );
    assert_eq!(
        caught_up["rummikub"]["pool_size"],
        truth["rummikub"]["pool_size"]
    );
    // The catch-up may bring several actions at once, but never another order.
    spectator.check(None, 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL and NATS"]
async fn a_node_reports_its_health_and_metrics_and_hands_its_tables_over_on_sigterm() {
    let db = temp_postgres("cluster_stop");
    let nats = Nats::start();
    // A drain far longer than the test may take: a node that stops at all stopped
    // without waiting for its requests to drain. The stopped node's leases are
    // released (asserted below); the other node finds them on its lease loop (a third
    // of the lease time), so the lease must be short enough for that loop to come
    // round within the test's hang guard. No clock is raced.
    let patient = ["--lease-seconds", "15", "--drain-timeout-secs", "600"];
    let first = node_with(&db, &nats, "h1", &patient);
    let second = node_with(&db, &nats, "h2", &patient);
    let health = get(&first.base, "/api/health", None).await;
    assert_eq!(health["status"], "ready", "{health}");
    assert_eq!(
        (health["database"].as_bool(), health["nats"].as_bool()),
        (Some(true), Some(true))
    );
    assert_eq!(health["node"], "h1");
    // A table of bots, driven by the node that created it.
    let (_, created) = post(
        &first.base,
        "/api/tables",
        None,
        json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 4},
               "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"},
                         {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    let start = Instant::now();
    loop {
        let view = get(&second.base, &format!("/api/tables/{id}"), None).await;
        if view["version"].as_u64().unwrap() >= 3 {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(20));
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let holder = psql(
        &db,
        &format!("SELECT node FROM rumi_leases WHERE table_id = '{id}'"),
    );
    let metrics = reqwest::get(format!("{}/metrics", first.base))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for name in [
        "rumi_actions_total",
        "rumi_action_seconds_bucket",
        "rumi_loaded_tables",
        "rumi_websockets",
        "rumi_lease_takeovers_total",
        "rumi_nats_lag_seconds_count",
    ] {
        assert!(
            metrics.contains(name),
            "{name} missing from /metrics:\n{metrics}"
        );
    }
    assert!(metrics.contains("node=\"h1\""), "{metrics}");
    // SIGTERM: the node exits cleanly and at once, its leases are free, and the
    // other node goes on without waiting for a lease to run out.
    let (driver, other) = if holder == "h1" {
        (first, second)
    } else {
        (second, first)
    };
    let (status, took) = driver.terminate();
    println!("stopping took {took:?}");
    assert!(status.success(), "{status:?}");
    let left = psql(
        &db,
        &format!("SELECT COUNT(*) FROM rumi_leases WHERE node = '{holder}'"),
    );
    assert_eq!(left, "0", "the stopped node handed its leases over");
    let stopped_at: u64 = psql(
        &db,
        &format!("SELECT COALESCE(MAX(version), 0) FROM rumi_actions WHERE table_id = '{id}'"),
    )
    .parse()
    .unwrap();
    let since = Instant::now();
    loop {
        let view = get(&other.base, &format!("/api/tables/{id}"), None).await;
        if view["version"].as_u64().unwrap() > stopped_at || view["over"] == true {
            break;
        }
        assert!(
            since.elapsed() < Duration::from_secs(120),
            "nobody took the released table over"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    println!("after SIGTERM the bots moved on in {:?}", since.elapsed());
}

/// Polls `GET path` on `base` until `done`; the view that satisfied it.
async fn poll(base: &str, path: &str, token: Option<&str>, done: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let view = get(base, path, token).await;
        if done(&view) {
            return view;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "never reached: {view}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The presence tests' hand-over time: a request or heartbeat this late between
/// processes on a loaded machine is still not a player gone.
const HANDOVER_MS: i64 = 5_000;
/// Their lease: a connection's sighting without a heartbeat is a dead node's after it.
const PRESENCE_LEASE_MS: i64 = 8_000;
/// How late a node may write a sighting of a request (the server's hand-over / 4).
const PRESENCE_SLACK_MS: i64 = HANDOVER_MS / 4;

/// Two nodes with the presence tests' hand-over time and lease, and a Rumis table of
/// Ana (who created it on node 1) and Bo (who took his seat on node 2): their start.
struct PresenceCluster {
    _nats: Nats,
    nodes: [Served; 2],
    id: String,
    ana: String,
    bo: String,
    /// The table's path, and the path that hands Ana's seat to a bot.
    table: String,
    hand_over: String,
    db: String,
}

impl PresenceCluster {
    async fn start(db: &str, names: [&str; 2]) -> PresenceCluster {
        let db = temp_postgres(db);
        let nats = Nats::start();
        let (handover, lease) = (
            (HANDOVER_MS / 1000).to_string(),
            (PRESENCE_LEASE_MS / 1000).to_string(),
        );
        let flags = [
            "--handover-after-seconds",
            &handover,
            "--lease-seconds",
            &lease,
        ];
        let nodes = names.map(|name| node_with(&db, &nats, name, &flags));
        let (id, ana, bo) = two_people(
            &nodes[0].base,
            &nodes[1].base,
            json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2},
                   "seats": [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bo"}]}),
        )
        .await;
        PresenceCluster {
            _nats: nats,
            table: format!("/api/tables/{id}"),
            hand_over: format!("/api/tables/{id}/seats/0/bot"),
            nodes,
            id,
            ana,
            bo,
            db,
        }
    }

    /// When `node` last saw Ana, as it told the others (`rumi_presence`), if it did.
    fn ana_seen_by(&self, node: &str) -> Option<i64> {
        psql(
            &self.db,
            &format!(
                "SELECT seen_ms FROM rumi_presence WHERE table_id = '{}' AND seat = 0 AND node = '{node}'",
                self.id
            ),
        )
        .parse()
        .ok()
    }

    /// Bo hands Ana's seat to a bot through node 2 until it is his; every refusal
    /// before is that she has not been away long enough.
    async fn hand_over_once_away(&self) {
        let start = Instant::now();
        loop {
            let (status, answer) = post(
                &self.nodes[1].base,
                &self.hand_over,
                Some(&self.bo),
                json!({"bot": "greedy"}),
            )
            .await;
            if status == 200 {
                assert_eq!(answer["seats"][0]["kind"], "bot", "{answer}");
                return;
            }
            assert_eq!(
                (status, answer["code"].as_str()),
                (409, Some("player_not_away_long_enough")),
                "{answer}"
            );
            // (only keeps a hand-over that never comes from hanging the test)
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "never handed over"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL and NATS"]
async fn a_player_connected_to_one_node_keeps_their_seat_against_a_hand_over_on_another() {
    let cluster = PresenceCluster::start("cluster_presence", ["p1", "p2"]).await;
    let PresenceCluster {
        nodes,
        id,
        ana,
        bo,
        table,
        hand_over,
        ..
    } = &cluster;
    // Ana holds a WebSocket on node 1; Bo, on node 2, sees her there.
    let ana_socket = Viewer::open(&nodes[0].base, id, Some(ana)).await;
    let view = poll(&nodes[1].base, table, Some(bo), |v| {
        v["seats"][0]["connected"] == true
    })
    .await;
    assert!(view["seats"][0]["handover_ms"].is_null(), "{view}");
    // Her node's heartbeat renews its sighting of her past a lease's lifetime and past
    // the hand-over time after she came, when a sighting left as it was would be a dead
    // node's and she away long enough: Bo may still not hand her seat to a bot.
    let came = cluster
        .ana_seen_by("p1")
        .expect("node 1 told the others she came");
    let renewed_past = came + PRESENCE_LEASE_MS.max(HANDOVER_MS + PRESENCE_SLACK_MS);
    let start = Instant::now();
    while cluster.ana_seen_by("p1").unwrap_or(0) <= renewed_past {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "node 1's heartbeat never renewed her sighting"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (status, answer) = post(
        &nodes[1].base,
        hand_over,
        Some(bo),
        json!({"bot": "greedy"}),
    )
    .await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (409, Some("player_present")),
        "{answer}"
    );
    assert!(
        answer["error"].as_str().unwrap().contains("Ana (seat 1)"),
        "{answer}"
    );
    // She leaves: node 2 learns it; once she has been away the hand-over time, Bo may.
    drop(ana_socket);
    let view = poll(&nodes[1].base, table, Some(bo), |v| {
        v["seats"][0]["connected"] == false
    })
    .await;
    assert!(view["seats"][0]["handover_ms"].is_i64(), "{view}");
    cluster.hand_over_once_away().await;
    // Node 1 shows the bot in her seat too.
    poll(&nodes[0].base, table, None, |v| {
        v["seats"][0]["kind"] == "bot"
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL and NATS"]
async fn a_node_cut_off_from_nats_says_degraded_and_still_serves() {
    let db = temp_postgres("cluster_degraded");
    let nats = Nats::start();
    let node = node(&db, &nats, "d1");
    let (status, health) = get_status(&node.base, "/api/health").await;
    assert_eq!(
        (status, health["status"].as_str()),
        (200, Some("ready")),
        "{health}"
    );
    nats.stop();
    let start = Instant::now();
    let (status, health) = loop {
        let (status, health) = get_status(&node.base, "/api/health").await;
        if health["nats"] == false {
            break (status, health);
        }
        assert!(start.elapsed() < Duration::from_secs(30), "{health}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    // Still 200 (a balancer keeps it): moves go on through the database.
    assert_eq!(status, 200, "{health}");
    assert_eq!(health["status"], "degraded", "{health}");
    assert_eq!(health["database"], true, "{health}");
    let (id, ana, bo) = two_people(
        &node.base,
        &node.base,
        json!({"game": "rummikub", "rummikub": {"turn_seconds": null},
               "seats": [{"kind": "human"}, {"kind": "human"}]}),
    )
    .await;
    let view = get(&node.base, &format!("/api/tables/{id}"), None).await;
    let token = if view["to_move"] == 0 { &ana } else { &bo };
    let (status, answer) = post(
        &node.base,
        &format!("/api/tables/{id}/actions"),
        Some(token),
        json!({"version": 0, "action": {"type": "draw"}}),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL and NATS"]
async fn a_player_who_only_polls_one_node_is_not_away_on_another() {
    let cluster = PresenceCluster::start("cluster_polling", ["q1", "q2"]).await;
    // (both nodes have loaded the table: node 2's own picture of her starts before this)
    let started = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let PresenceCluster {
        nodes,
        ana,
        bo,
        table,
        hand_over,
        ..
    } = &cluster;
    // Ana reads her view on node 1 (no WebSocket); Bo, on node 2, tries to hand her
    // seat to a bot after each of her requests: refused, until node 1 has told the
    // others of a request of hers past the hand-over time (and the slack) after her
    // first, when the first sighting alone would let him.
    get(&nodes[0].base, table, Some(ana)).await;
    let first = cluster
        .ana_seen_by("q1")
        .expect("node 1 told the others it saw her")
        .max(started);
    let start = Instant::now();
    loop {
        get(&nodes[0].base, table, Some(ana)).await;
        let (status, answer) = post(
            &nodes[1].base,
            hand_over,
            Some(bo),
            json!({"bot": "greedy"}),
        )
        .await;
        assert_eq!(
            (status, answer["code"].as_str()),
            (409, Some("player_not_away_long_enough")),
            "{answer}"
        );
        if cluster.ana_seen_by("q1").unwrap_or(0) > first + HANDOVER_MS + PRESENCE_SLACK_MS {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "node 1 never told the others of her later requests"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // She stops: once she has been away the hand-over time, Bo may.
    cluster.hand_over_once_away().await;
}

/// A session made on one node is honoured on another (sessions live in the database),
/// and signing out on the second ends it on the first (issue 47).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL and NATS"]
async fn a_session_made_on_one_node_is_honoured_on_another() {
    let db = temp_postgres("cluster_session");
    let nats = Nats::start();
    let nodes = [node(&db, &nats, "s1"), node(&db, &nats, "s2")];
    let client = reqwest::Client::new();
    let made = client
        .post(format!("{}/api/accounts", nodes[0].base))
        .json(&json!({"name": "Ana", "password": "stones of the inca 7"}))
        .send()
        .await
        .unwrap();
    assert_eq!(made.status(), 201);
    // The session's cookie (the answer sets the browser's device cookie too).
    let cookie = made
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok()?.split(';').next())
        .find(|c| c.starts_with("rumi_session="))
        .expect("a session cookie")
        .to_string();
    let me = |base: &str| {
        client
            .get(format!("{base}/api/me"))
            .header("cookie", &cookie)
            .send()
    };
    let other = me(&nodes[1].base).await.unwrap();
    assert_eq!(other.status(), 200);
    assert_eq!(other.json::<Value>().await.unwrap()["name"], "Ana");
    let origin = &nodes[1].base;
    let out = client
        .delete(format!("{origin}/api/session"))
        .header("cookie", &cookie)
        .header("origin", origin)
        .send()
        .await
        .unwrap();
    assert_eq!(out.status(), 204);
    assert_eq!(me(&nodes[0].base).await.unwrap().status(), 401);
}
