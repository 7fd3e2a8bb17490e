//! What the server does on its own at a table, seen from outside: a turn clock far
//! away does not keep its table in memory (the loaded-tables cap holds), yet runs out
//! on time; and bots draw their randomness from a secret of the table, not from the
//! deal's seed, the same after a restart.

mod common;

use std::time::{Duration, Instant};

use common::{placing, start_with, temp_sqlite, token_of_link, TestServer};
use serde_json::{json, Value};
use server::HubOptions;

fn options() -> HubOptions {
    HubOptions {
        bot_delay: Duration::ZERO,
        max_open_tables_per_address: 0,
        tables_per_minute_per_address: 0,
        ..common::defaults()
    }
}

/// A Rummikub table of two people with a turn clock of `seconds`, started (the
/// invitee took their seat with the link); answers its id and the seat to move first.
async fn clocked_table(server: &TestServer, seconds: u32) -> (String, u64) {
    let created = server
        .create_raw(
            json!({"game": "rummikub", "rummikub": {"turn_seconds": seconds},
            "seats": [{"kind": "human"}, {"kind": "human"}]}),
        )
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let invite = token_of_link(created["seats"][1]["invite"].as_str().unwrap());
    let invitee = server.claim(&id, &invite).await;
    let view = server.view(&id, Some(&invitee)).await;
    assert_eq!(view["status"], "playing", "{view}");
    assert!(view["deadline_ms"].is_i64(), "the clock runs: {view}");
    (id, view["to_move"].as_u64().unwrap())
}

/// Waits until no driver holds the table `id`: its clock's driver holds it until it
/// has seen that the clock is far (a moment later on a busy machine).
async fn let_go(server: &TestServer, id: &str) {
    // The idlest table goes first: tell the tables' last uses apart (the test's clock
    // stands still otherwise).
    server.clock().advance(Duration::from_millis(1));
    let give_up = Instant::now() + Duration::from_secs(60);
    while server.running.hub.is_held_by_a_driver(id) {
        assert!(Instant::now() < give_up, "the far clock's driver held on");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

async fn loaded_tables(server: &TestServer) -> u64 {
    let (status, health) = server.get("/api/health").await;
    assert_eq!(status, 200, "{health}");
    health["loaded_tables"].as_u64().unwrap()
}

#[tokio::test]
async fn tables_waiting_on_a_far_clock_leave_memory_and_their_clock_still_runs_out() {
    const CAP: u64 = 3;
    let server = start_with(
        &temp_sqlite("far-clocks"),
        HubOptions {
            max_loaded_tables: CAP as usize,
            idle_after: Duration::ZERO,
            keep_loaded_ahead: Duration::from_millis(300),
            ..options()
        },
    )
    .await;
    // Twice the cap of tables whose clock runs out in an hour: the cap holds.
    let mut far = Vec::new();
    let hub = &server.running.hub;
    for _ in 0..2 * CAP {
        let (id, _) = clocked_table(&server, 3600).await;
        // The cap counts the tables nothing holds.
        let_go(&server, &id).await;
        far.push(id);
        let loaded = loaded_tables(&server).await;
        assert!(loaded <= CAP, "{loaded} tables loaded, the cap is {CAP}");
    }
    // A table whose clock runs out in 3 s, then other tables asked for: it leaves
    // memory while its clock is still far away (the server's clock stands until the
    // test moves it).
    let (soon, first) = clocked_table(&server, 3).await;
    let_go(&server, &soon).await;
    for id in &far {
        if !hub.is_loaded(&soon) {
            break;
        }
        server.view(id, None).await;
        let_go(&server, id).await;
    }
    assert!(!hub.is_loaded(&soon), "the table of the near clock stayed");
    assert!(loaded_tables(&server).await <= CAP);
    // Nobody asks for it, yet its clock runs out: the server loads it again in time.
    // (The 60 s are a hang guard only: the wake-up polls every 150 ms.)
    server.clock().advance(Duration::from_secs(3));
    let start = Instant::now();
    while hub.store.action_count(&soon).await.unwrap() == 0 {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the clock of a dropped table never ran out"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let view = server.view(&soon, None).await;
    assert_eq!(view["version"], 1, "{view}");
    assert_eq!(
        view["to_move"],
        1 - first,
        "the clock passed the turn: {view}"
    );
    assert_eq!(
        view["rummikub"]["last_event"]["code"], "penalty",
        "a time-out penalty: {view}"
    );
    assert!(loaded_tables(&server).await <= CAP);
}

/// The moves of a Rumis game so far (its history), once it has at least `moves`.
async fn first_moves(server: &TestServer, id: &str, moves: usize) -> Vec<Value> {
    let view = server
        .wait_for(id, None, |v| {
            v["over"] == true || v["rumis"]["history"].as_array().unwrap().len() >= moves
        })
        .await;
    let history = view["rumis"]["history"].as_array().unwrap();
    history[..moves.min(history.len())].to_vec()
}

#[tokio::test]
async fn bots_do_not_play_by_the_deal_seed_and_replay_the_same_after_a_restart() {
    // Three practice tables of random bots on one chosen seed: the seed is known to
    // everyone (it is chosen, and every seed is revealed at the end), so the bots must
    // not play by it. With bots seeded from the deal, all three games are one game.
    let server = start_with(&temp_sqlite("bot-seeds"), options()).await;
    let mut games = Vec::new();
    for _ in 0..3 {
        let created = server
            .create_raw(
                json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2},
                "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}],
                "seed": 7}),
            )
            .await;
        assert_eq!(created["practice_seed"], 7);
        let id = created["id"].as_str().unwrap().to_string();
        games.push(first_moves(&server, &id, 6).await);
    }
    assert!(
        games.iter().any(|g| g != &games[0]),
        "three tables on one seed, the same bot moves: {games:?}"
    );

    // A person moves, then the server stops before the bot answers. Two copies of
    // the database, each started again: the bot answers the same in both (its
    // randomness is stored with the table).
    let db = temp_sqlite("bot-restart");
    let waiting = start_with(
        &db,
        HubOptions {
            bot_delay: Duration::from_secs(3600),
            ..options()
        },
    )
    .await;
    let created = waiting
        .create_raw(
            json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2},
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}], "seed": 7}),
        )
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["you"]["token"].as_str().unwrap().to_string();
    let view = waiting.view(&id, Some(&token)).await;
    let legal = placing(&view["rumis"]["legal"][0]);
    assert_eq!(waiting.act(&id, &token, 0, legal).await.0, 200);
    let file = db.strip_prefix("sqlite://").unwrap();
    let mut answers = Vec::new();
    for copy in 0..2 {
        let dir = std::path::Path::new(file)
            .parent()
            .unwrap()
            .join(format!("copy{copy}"));
        std::fs::create_dir_all(&dir).unwrap();
        for suffix in ["", "-wal"] {
            let from = format!("{file}{suffix}");
            let to = dir.join(format!("rumi.db{suffix}"));
            let _ = std::fs::remove_file(&to);
            if std::path::Path::new(&from).exists() {
                std::fs::copy(&from, &to).unwrap();
            }
        }
        let _ = std::fs::remove_file(dir.join("rumi.db-shm"));
        let restarted = start_with(
            &format!("sqlite://{}", dir.join("rumi.db").display()),
            options(),
        )
        .await;
        answers.push(first_moves(&restarted, &id, 2).await);
    }
    assert_eq!(answers[0].len(), 2, "the bot answered: {answers:?}");
    assert_eq!(
        answers[0], answers[1],
        "the bot answers the same after a restart"
    );
}
