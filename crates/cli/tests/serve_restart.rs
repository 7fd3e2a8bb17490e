//! `rumi serve` killed with SIGKILL mid-game and started again on the same database:
//! every table resumes where it was (bots and clocks included), no acknowledged action
//! is lost and none is stored twice. On SQLite and on PostgreSQL.

mod common;

use std::process::{Command, Stdio};

use common::serve;
use serde_json::json;

fn crash_and_resume(db: &str) {
    let first = serve(db);
    // A game of four greedy bots, and a Rummikub table of two people with a 1 s clock.
    let bots = first
        .post("/api/tables", json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 4},
            "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"},
                      {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}], "seed": 3}))
        .unwrap();
    let people = first
        .post(
            "/api/tables",
            json!({"game": "rummikub", "rummikub": {"turn_seconds": 1},
            "seats": [{"kind": "human"}, {"kind": "human"}]}),
        )
        .unwrap();
    let bots_id = bots["id"].as_str().unwrap().to_string();
    let people_id = people["id"].as_str().unwrap().to_string();
    // The creator's seat and the invited friend's, who takes it with the link (and
    // gets the seat's own token): the game starts.
    let invite = people["seats"][1]["invite"]
        .as_str()
        .unwrap()
        .split("#token=")
        .nth(1)
        .unwrap()
        .to_string();
    let claimed = first
        .post_as(
            &format!("/api/tables/{people_id}/claim"),
            Some(&invite),
            json!({}),
        )
        .unwrap();
    let tokens: Vec<String> = vec![
        people["you"]["token"].as_str().unwrap().to_string(),
        claimed["token"].as_str().unwrap().to_string(),
    ];
    // The people draw in turn; every acknowledged draw must survive the crash.
    let mut acknowledged = 0u64;
    for _ in 0..4 {
        let view = first.get(&format!("/api/tables/{people_id}"));
        let seat = view["to_move"].as_u64().unwrap() as usize;
        let version = view["version"].as_u64().unwrap();
        if let Ok(after) = first.post_as(
            &format!("/api/tables/{people_id}/actions"),
            Some(&tokens[seat]),
            json!({"version": version, "action": {"type": "draw"}}),
        ) {
            acknowledged = after["version"].as_u64().unwrap();
        }
    }
    assert!(acknowledged >= 3);
    let seen = first.wait_for(&format!("/api/tables/{bots_id}"), |v| {
        v["version"].as_u64() >= Some(6)
    });
    let seen_version = seen["version"].as_u64().unwrap();
    let seen_history = seen["rumis"]["history"].as_array().unwrap().clone();
    first.kill_9();

    let second = serve(db);
    let resumed = second.get(&format!("/api/tables/{bots_id}"));
    let history = resumed["rumis"]["history"].as_array().unwrap();
    assert!(
        resumed["version"].as_u64().unwrap() >= seen_version,
        "lost bot moves"
    );
    assert_eq!(
        &history[..seen_history.len()],
        &seen_history[..],
        "the past changed"
    );
    // The bots play on to the end, by themselves.
    let finished = second.wait_for(&format!("/api/tables/{bots_id}"), |v| v["over"] == true);
    let replay = second.get(&format!("/api/tables/{bots_id}/replay"));
    let steps = replay["steps"].as_array().unwrap();
    assert_eq!(
        steps.len() as u64,
        finished["version"].as_u64().unwrap() + 1
    );
    // No move is stored twice: each step adds exactly one stone.
    for (i, step) in steps.iter().enumerate() {
        assert_eq!(step["rumis"]["history"].as_array().unwrap().len(), i);
    }
    let record = rumis::record::Record::parse(replay["record"].as_str().unwrap()).unwrap();
    record
        .replay(rumis::Scenario::builtin("chullpa").unwrap())
        .expect("the stored game replays in the engine");

    // The people's table kept every acknowledged draw, and its clock runs again.
    let people_view = second.get(&format!("/api/tables/{people_id}"));
    let version = people_view["version"].as_u64().unwrap();
    assert!(version >= acknowledged, "an acknowledged action was lost");
    let sizes: u64 = people_view["rummikub"]["rack_sizes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_u64().unwrap())
        .sum();
    // One tile per draw; a time-out of the 1 s clock (after the last draw, before or
    // after the kill) draws three.
    let extra = sizes - 28 - version;
    let timeouts = version - acknowledged;
    assert!(
        extra.is_multiple_of(2) && extra / 2 <= timeouts,
        "{sizes} tiles after {version} actions of which {acknowledged} acknowledged draws: a draw was lost or stored twice"
    );
    let later = second.wait_for(&format!("/api/tables/{people_id}"), |v| {
        v["version"].as_u64() > Some(version)
    });
    assert!(later["rummikub"]["last"]
        .as_str()
        .unwrap()
        .contains("ran out of time"));
}

#[test]
fn tables_resume_after_kill_9_on_sqlite() {
    let dir = std::env::temp_dir().join(format!("rumi-restart-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("rumi.db");
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", file.display()));
    }
    crash_and_resume(&format!("sqlite://{}", file.display()));
}

#[test]
#[ignore = "needs PostgreSQL"]
fn tables_resume_after_kill_9_on_postgresql() {
    let base = std::env::var("RUMI_TEST_POSTGRES")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432".into());
    let db = format!("rumi_restart_{}", std::process::id());
    for sql in [
        format!("DROP DATABASE IF EXISTS {db}"),
        format!("CREATE DATABASE {db}"),
    ] {
        let status = Command::new("psql")
            .args([&format!("{base}/postgres"), "-c", &sql])
            .stdout(Stdio::null())
            .status()
            .expect("psql (PostgreSQL's client) is installed; .ci/run starts the server");
        assert!(status.success(), "{sql} failed: is PostgreSQL running?");
    }
    crash_and_resume(&format!("{base}/{db}"));
}
