//! The live socket's protocol (issue 57): actions with an acknowledgement, views as
//! patches from the view the socket sent last (with a resync on request), and views
//! built once per change however many sockets watch.

mod common;

use std::time::Duration;

use common::{placing, start, temp_sqlite, TestServer};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

type Stream =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

fn rumis_table() -> Value {
    json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2},
           "seats": [{"kind": "human"}, {"kind": "human"}], "seed": 5})
}

fn rummikub_table() -> Value {
    json!({"game": "rummikub", "rummikub": {"rules": "current", "turn_seconds": null},
           "seats": [{"kind": "human"}, {"kind": "human"}], "seed": 11})
}

/// A socket client that keeps the view the way a browser does: the whole view from a
/// `state`, then patches applied to it.
struct Client {
    socket: Stream,
    token: Option<String>,
    /// The view held, and its `seq`.
    view: Value,
    seq: u64,
    /// Bytes of the view messages received: (patches, whole views).
    patch_bytes: usize,
    state_bytes: usize,
    patches: usize,
    states: usize,
}

impl Client {
    /// Opens a socket with patches; waits for its first, whole view.
    async fn open(server: &TestServer, id: &str, token: Option<&str>) -> Client {
        let url = format!(
            "{}/api/tables/{id}/ws",
            server.base.replace("http://", "ws://")
        );
        let (mut socket, _) = tokio_tungstenite::connect_async(url).await.unwrap();
        let hello = json!({"type": "hello", "token": token, "patches": true});
        socket
            .send(Message::Text(hello.to_string().into()))
            .await
            .unwrap();
        let mut client = Client {
            socket,
            token: token.map(str::to_string),
            view: Value::Null,
            seq: 0,
            patch_bytes: 0,
            state_bytes: 0,
            patches: 0,
            states: 0,
        };
        let first = client.next().await;
        assert_eq!(first["type"], "state", "the first message: {first}");
        client
    }

    /// The next message, with a view message applied to the held view.
    async fn next(&mut self) -> Value {
        let text = next_text(&mut self.socket).await;
        let message: Value = serde_json::from_str(&text).unwrap();
        match message["type"].as_str().unwrap() {
            "state" => {
                self.view = message["view"].clone();
                self.seq = message["seq"].as_u64().unwrap();
                self.states += 1;
                self.state_bytes += text.len();
            }
            "patch" => {
                assert_eq!(message["from"], self.view["version"], "{message}");
                assert_eq!(message["from_seq"], self.seq, "{message}");
                let ops: json_patch::Patch =
                    serde_json::from_value(message["ops"].clone()).unwrap();
                json_patch::patch(&mut self.view, &ops).unwrap();
                assert_eq!(self.view["version"], message["version"]);
                assert!(message["seq"].as_u64().unwrap() > self.seq, "{message}");
                self.seq = message["seq"].as_u64().unwrap();
                self.patches += 1;
                self.patch_bytes += text.len();
            }
            _ => {}
        }
        message
    }

    /// Reads messages until the held view has `version`.
    async fn until_version(&mut self, version: u64) {
        while self.view["version"] != version {
            let message = self.next().await;
            assert_ne!(message["type"], "error", "{message}");
        }
    }

    async fn send(&mut self, message: Value) {
        self.socket
            .send(Message::Text(message.to_string().into()))
            .await
            .unwrap();
    }

    /// Sends an action with `id`; answers the `ack` or `error` that carries that id,
    /// having applied every view message before it.
    async fn act(&mut self, id: u32, version: u64, action: Value) -> Value {
        self.send(json!({"type": "action", "id": id, "version": version, "action": action}))
            .await;
        loop {
            let message = self.next().await;
            if matches!(message["type"].as_str(), Some("ack" | "error")) {
                assert_eq!(message["id"], id, "{message}");
                return message;
            }
        }
    }

    /// The held view is the one `GET /api/tables/{id}` answers this viewer.
    async fn holds_the_servers_view(&self, server: &TestServer, id: &str) {
        let fetched = server.view(id, self.token.as_deref()).await;
        assert_eq!(self.view, fetched, "the view held by patches differs");
    }
}

async fn next_text(socket: &mut Stream) -> String {
    loop {
        // A hang guard, not a verdict on speed.
        let frame = tokio::time::timeout(Duration::from_secs(60), socket.next())
            .await
            .expect("a message on the socket")
            .expect("the socket is open")
            .unwrap();
        if let Message::Text(text) = frame {
            return text.to_string();
        }
    }
}

/// `rumi_views_built_total` for `viewer` (`seat` or `spectator`).
fn views_built(server: &TestServer, viewer: &str) -> u64 {
    let metrics = server.running.hub.render_metrics();
    metrics
        .lines()
        .find(|l| l.starts_with("rumi_views_built_total") && l.contains(viewer))
        .and_then(|l| l.rsplit(' ').next())
        .map_or(0, |n| n.parse().unwrap())
}

/// Reads until the held view shows `seats` connected (and only them): after that,
/// the changes are the actions' only.
async fn until_connected(client: &mut Client, seats: &[usize]) {
    let connected = |v: &Value| {
        v["seats"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .all(|(i, s)| s["connected"] == seats.contains(&i))
    };
    while !connected(&client.view) {
        client.next().await;
    }
}

/// Sends an action with `id` that the server must refuse: answers the error's code,
/// having checked that the error carries the id and that the table did not change.
async fn refused(
    server: &TestServer,
    table: &str,
    client: &mut Client,
    id: u32,
    version: u64,
    action: Value,
) -> String {
    let before = server.view(table, None).await["version"].clone();
    let answer = client.act(id, version, action).await;
    assert_eq!(answer["type"], "error", "{answer}");
    assert_eq!(answer["id"], id);
    assert_eq!(server.view(table, None).await["version"], before);
    answer["code"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn an_action_with_an_id_is_acknowledged_with_the_new_version_or_refused_with_its_id() {
    let server = start(&temp_sqlite("socket-ack"), 0).await;
    let (id, tokens) = server.create(rumis_table()).await;
    let first = server.view(&id, None).await;
    let mover = first["to_move"].as_u64().unwrap() as usize;
    let mut moving = Client::open(&server, &id, tokens[mover].as_deref()).await;
    let mut waiting = Client::open(&server, &id, tokens[1 - mover].as_deref()).await;
    let mut spectator = Client::open(&server, &id, None).await;

    let place = placing(&moving.view["rumis"]["legal"][0]);
    let ack = moving.act(7, 0, place).await;
    assert_eq!(ack, json!({"type": "ack", "id": 7, "version": 1}));
    // The view with the action came before the ack: no request needed.
    assert_eq!(moving.view["version"], 1);
    moving.holds_the_servers_view(&server, &id).await;

    // Refused: out of turn (the same seat again), a stale version, an illegal move, a
    // spectator's action. Each error carries its action's id; nothing changes.
    waiting.until_version(1).await;
    let place = placing(&waiting.view["rumis"]["legal"][0]);
    let code = refused(&server, &id, &mut moving, 8, 1, place.clone()).await;
    assert_eq!(code, "out_of_turn");
    let code = refused(&server, &id, &mut waiting, 9, 0, place.clone()).await;
    assert_eq!(code, "stale");
    let mut elsewhere = place.clone();
    elsewhere["cells"] = json!([[40, 40, 0], [41, 40, 0], [42, 40, 0], [43, 40, 0]]);
    let code = refused(&server, &id, &mut waiting, 10, 1, elsewhere).await;
    assert_eq!(code, "illegal");
    let code = refused(&server, &id, &mut spectator, 11, 1, place.clone()).await;
    assert_eq!(code, "spectator");
    // A malformed message has no id to answer with.
    moving.send(json!({"type": "action", "id": 12})).await;
    let answer = loop {
        let message = moving.next().await;
        if message["type"] == "error" {
            break message;
        }
    };
    assert_eq!(answer["code"], "malformed_message", "{answer}");
    assert_eq!(answer.get("id"), None);

    // The seat to move acts and is acknowledged; its view is the server's.
    let ack = waiting.act(13, 1, place).await;
    assert_eq!(ack, json!({"type": "ack", "id": 13, "version": 2}));
    waiting.holds_the_servers_view(&server, &id).await;
}

/// Two seats and a spectator play a whole Rumis game over sockets; after every view
/// message, each holds exactly the view the server gives it by HTTP.
#[tokio::test]
async fn a_whole_game_over_sockets_keeps_every_patched_view_equal_to_the_servers() {
    let server = start(&temp_sqlite("socket-game"), 0).await;
    let (id, tokens) = server.create(rumis_table()).await;
    let mut clients = vec![
        Client::open(&server, &id, tokens[0].as_deref()).await,
        Client::open(&server, &id, tokens[1].as_deref()).await,
        Client::open(&server, &id, None).await,
    ];
    for client in &mut clients {
        until_connected(client, &[0, 1]).await;
        client.holds_the_servers_view(&server, &id).await;
    }
    let mut version = clients[2].view["version"].as_u64().unwrap();
    let before: Vec<usize> = clients.iter().map(|c| c.patches + c.states).collect();
    let mut action_id = 0;
    while clients[2].view["status"] != "over" {
        let seat = clients[2].view["to_move"].as_u64().unwrap() as usize;
        let legal = clients[seat].view["rumis"]["legal"].clone();
        let action = match legal.as_array().unwrap().first() {
            Some(placement) => placing(placement),
            None => json!({"type": "rumis_pass"}),
        };
        action_id += 1;
        let ack = clients[seat].act(action_id, version, action).await;
        assert_eq!(ack["type"], "ack", "{ack}");
        version += 1;
        assert_eq!(ack["version"], version);
        for client in &mut clients {
            client.until_version(version).await;
            client.holds_the_servers_view(&server, &id).await;
        }
        assert!(version < 200, "the game does not end");
    }
    for (client, before) in clients.iter().zip(before) {
        assert!(client.patches > 0, "views came as patches");
        // One message per action: a patch, or the whole view when shorter.
        assert_eq!(client.patches + client.states - before, version as usize);
    }
}

#[tokio::test]
async fn one_change_builds_the_spectators_view_once_however_many_watch() {
    let server = start(&temp_sqlite("socket-spectators"), 0).await;
    let (id, tokens) = server.create(rummikub_table()).await;
    let mover = server.view(&id, None).await["to_move"].as_u64().unwrap() as usize;
    let mut spectators = Vec::new();
    for _ in 0..12 {
        spectators.push(Client::open(&server, &id, None).await);
    }
    // Some without patches: they share the same view.
    let mut plain = Vec::new();
    for _ in 0..3 {
        plain.push(server.socket(&id, None).await);
    }
    for socket in &mut plain {
        let first: Value = serde_json::from_str(&next_text(socket).await).unwrap();
        assert_eq!(first["type"], "state");
    }
    let before = views_built(&server, "spectator");
    let seats_before = views_built(&server, "\"seat\"");
    let token = tokens[mover].clone().unwrap();
    let (status, answer) = server.act(&id, &token, 0, json!({"type": "draw"})).await;
    assert_eq!(status, 200, "{answer}");
    for spectator in &mut spectators {
        spectator.until_version(1).await;
    }
    for socket in &mut plain {
        let update: Value = serde_json::from_str(&next_text(socket).await).unwrap();
        assert_eq!(update["type"], "state", "without patches: whole views");
        assert_eq!(update["view"]["version"], 1);
    }
    assert_eq!(views_built(&server, "spectator") - before, 1);
    // Nobody watches a seat: no seat's view was built.
    assert_eq!(views_built(&server, "\"seat\""), seats_before);
}

#[tokio::test]
async fn a_patch_starts_from_the_view_sent_last_and_a_resync_sends_the_whole_view() {
    let server = start(&temp_sqlite("socket-resync"), 0).await;
    let (id, tokens) = server.create(rumis_table()).await;
    let mut spectator = Client::open(&server, &id, None).await;
    let mut seat = Client::open(&server, &id, tokens[0].as_deref()).await;
    until_connected(&mut spectator, &[0]).await;
    let held = (spectator.view["version"].clone(), spectator.seq);
    let mover = spectator.view["to_move"].as_u64().unwrap() as usize;
    let token = tokens[mover].clone().unwrap();
    let mover_view = server.view(&id, Some(&token)).await;
    let action = placing(&mover_view["rumis"]["legal"][0]);
    let (status, answer) = server.act(&id, &token, 0, action).await;
    assert_eq!(status, 200, "{answer}");
    let patch = spectator.next().await;
    assert_eq!(patch["type"], "patch", "{patch}");
    assert_eq!(
        (patch["from"].clone(), patch["from_seq"].as_u64().unwrap()),
        (held.0, held.1)
    );
    assert_eq!(patch["version"], 1);
    // The stones' shapes never change: a patch does not carry them.
    assert!(!patch["ops"].to_string().contains("/rumis/stones"));

    spectator.send(json!({"type": "resync"})).await;
    let whole = spectator.next().await;
    assert_eq!(whole["type"], "state", "{whole}");
    assert_eq!(whole["seq"], patch["seq"], "the same view, whole");
    assert!(whole["view"]["rumis"]["stones"].is_object());
    spectator.holds_the_servers_view(&server, &id).await;

    // The seat's socket, too, gets its own view as a patch from the one it holds.
    seat.until_version(1).await;
    seat.holds_the_servers_view(&server, &id).await;
}

#[tokio::test]
async fn sockets_without_patches_get_whole_states_as_before() {
    let server = start(&temp_sqlite("socket-plain"), 0).await;
    let (id, tokens) = server.create(rumis_table()).await;
    let mut socket = server.socket(&id, None).await;
    let first: Value = serde_json::from_str(&next_text(&mut socket).await).unwrap();
    assert_eq!(first["type"], "state");
    assert!(first["view"]["rumis"]["stones"].is_object());
    let mover = first["view"]["to_move"].as_u64().unwrap() as usize;
    let token = tokens[mover].clone().unwrap();
    let action = placing(&server.view(&id, Some(&token)).await["rumis"]["legal"][0]);
    assert_eq!(server.act(&id, &token, 0, action).await.0, 200);
    loop {
        let update: Value = serde_json::from_str(&next_text(&mut socket).await).unwrap();
        assert_eq!(update["type"], "state", "{update}");
        assert_eq!(update["view"]["rumis"]["stones"], Value::Null);
        if update["view"]["version"] == 1 {
            break;
        }
    }
}

/// The bytes a patched view costs against the whole view, over a Rumis game and Rummikub
/// turns (figures printed; the verdict depends only on the deal).
#[tokio::test]
async fn patches_are_smaller_than_whole_views() {
    let server = start(&temp_sqlite("socket-bytes"), 0).await;
    for (name, table) in [("Rumis", rumis_table()), ("Rummikub", rummikub_table())] {
        let (id, tokens) = server.create(table).await;
        let mut spectator = Client::open(&server, &id, None).await;
        let mut seat = Client::open(&server, &id, tokens[0].as_deref()).await;
        until_connected(&mut spectator, &[0]).await;
        until_connected(&mut seat, &[0]).await;
        // Per viewer (the spectator, the seat): bytes patched, bytes whole, messages.
        let mut bytes = [(0usize, 0usize, 0usize); 2];
        for version in 0..20u64 {
            let view = server.view(&id, None).await;
            if view["status"] == "over" {
                break;
            }
            let mover = view["to_move"].as_u64().unwrap() as usize;
            let token = tokens[mover].clone().unwrap();
            let action = match server.view(&id, Some(&token)).await["rumis"]["legal"].get(0) {
                Some(placement) => placing(placement),
                None => json!({"type": "draw"}),
            };
            let (status, answer) = server.act(&id, &token, version, action).await;
            assert_eq!(status, 200, "{answer}");
            for (client, bytes) in [&mut spectator, &mut seat].into_iter().zip(&mut bytes) {
                let (patch_bytes, state_bytes) = (client.patch_bytes, client.state_bytes);
                client.until_version(version + 1).await;
                bytes.0 += client.patch_bytes + client.state_bytes - patch_bytes - state_bytes;
                // The whole view this change would have cost: the state message.
                bytes.1 += json!({"type": "state", "view": client.view, "seq": client.seq})
                    .to_string()
                    .len();
                bytes.2 += 1;
            }
        }
        for (viewer, (patched, whole, messages)) in ["spectator", "seat"].iter().zip(bytes) {
            println!(
                "{name}, {viewer}: {messages} views, {} bytes each on average as patches, {} as whole views ({:.0} %)",
                patched / messages,
                whole / messages,
                100.0 * patched as f64 / whole as f64
            );
        }
        let patched: usize = bytes.iter().map(|b| b.0).sum();
        let whole: usize = bytes.iter().map(|b| b.1).sum();
        assert!(
            patched < whole,
            "{name}: {patched} bytes patched, {whole} whole"
        );
    }
}
