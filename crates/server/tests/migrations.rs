//! The schema's migrations: a database made by the last release before numbered
//! migrations opens in place (marked as at the baseline; its table loads and plays
//! on), and a new database gets the very schema that release made.

mod common;

use common::{placing, start, temp_postgres, temp_sqlite};
use serde_json::json;
use sqlx::{AnyPool, Executor, Row};

/// The schema as the last release before numbered migrations made it (its statements).
const PREVIOUS_SCHEMA: &str = include_str!("fixtures/previous_release_schema.sql");
/// A Rummikub table of Ana and Bo with three draws logged, as that release stored it.
const PREVIOUS_TABLE: &str = include_str!("fixtures/previous_release_table.sql");
/// That table's id.
const TABLE: &str = "t50a91eb12dc7";

async fn pool(url: &str) -> AnyPool {
    sqlx::any::install_default_drivers();
    let url = if url.starts_with("sqlite:") {
        format!("{url}?mode=rwc")
    } else {
        url.to_string()
    };
    AnyPool::connect(&url).await.unwrap()
}

/// Runs each statement of an SQL file (`;` at a line's end ends one; `--` comments).
async fn run(db: &AnyPool, sql: &str) {
    let mut statement = String::new();
    for line in sql.lines().filter(|l| !l.trim_start().starts_with("--")) {
        statement.push_str(line);
        statement.push('\n');
        if line.trim_end().ends_with(';') {
            db.execute(sqlx::AssertSqlSafe(statement.clone()))
                .await
                .unwrap_or_else(|e| panic!("{statement}: {e}"));
            statement.clear();
        }
    }
    assert!(statement.trim().is_empty(), "unended: {statement}");
}

/// The migrations' versions, from their files.
fn versions() -> Vec<i64> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/migrations/sqlite");
    let mut versions: Vec<i64> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let name = entry.unwrap().file_name().into_string().unwrap();
            name.split('_').next().unwrap().parse().unwrap()
        })
        .collect();
    versions.sort();
    versions
}

async fn previous_release_opens_in_place_and_plays_on(url: &str) {
    let db = pool(url).await;
    run(&db, PREVIOUS_SCHEMA).await;
    run(&db, PREVIOUS_TABLE).await;
    let tokens: Vec<String> =
        sqlx::query("SELECT token FROM rumi_seats WHERE table_id = $1 ORDER BY seat")
            .bind(TABLE)
            .fetch_all(&db)
            .await
            .unwrap()
            .iter()
            .map(|row| row.get("token"))
            .collect();
    db.close().await;

    let server = start(url, 0).await;
    let view = server.view(TABLE, None).await;
    assert_eq!(view["version"], 3, "the logged actions load: {view}");
    // Stored before the hints setting, a table of two people has none.
    assert_eq!(view["hints"], false, "{view}");
    let (status, body) = server
        .get_as(&format!("/api/tables/{TABLE}/hint"), &tokens[0])
        .await;
    assert_eq!((status, body["code"].as_str()), (403, Some("hints_off")));
    let seat = view["to_move"].as_u64().unwrap() as usize;
    let (status, after) = server
        .act(TABLE, &tokens[seat], 3, json!({"type": "draw"}))
        .await;
    assert_eq!(status, 200, "the table plays on: {after}");
    assert_eq!(after["version"], 4);
    server.running.shutdown();
    let _ = server.running.task.await;

    // Marked as at the baseline (not run on it), then brought to the newest.
    let db = pool(url).await;
    let applied: Vec<i64> = sqlx::query("SELECT version FROM _sqlx_migrations ORDER BY version")
        .fetch_all(&db)
        .await
        .unwrap()
        .iter()
        .map(|row| row.get("version"))
        .collect();
    assert_eq!(applied, versions());
    db.close().await;

    // Opened once more: nothing to adopt, the table as it was left.
    let server = start(url, 0).await;
    assert_eq!(server.view(TABLE, None).await["version"], 4);
}

#[tokio::test]
async fn a_database_of_the_previous_release_opens_in_place_on_sqlite() {
    previous_release_opens_in_place_and_plays_on(&temp_sqlite("migrate-previous")).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn a_database_of_the_previous_release_opens_in_place_on_postgresql() {
    previous_release_opens_in_place_and_plays_on(&temp_postgres("migrate_previous").await).await;
}

/// Each column of rumi's tables (in order, with type, nullability and default) and
/// each index, as the database describes them.
async fn schema(url: &str) -> Vec<String> {
    let db = pool(url).await;
    let (columns, indexes) = if url.starts_with("sqlite:") {
        (
            "SELECT m.name || '.' || c.name || ' ' || c.type || ' ' || c.\"notnull\" || ' '
                    || COALESCE(c.dflt_value, 'none') || ' ' || c.pk
             FROM sqlite_master m, pragma_table_info(m.name) c
             WHERE m.type = 'table' AND m.name LIKE 'rumi_%' ORDER BY m.name, c.cid",
            "SELECT name || ' ' || tbl_name FROM sqlite_master
             WHERE type = 'index' AND name LIKE 'rumi_%' ORDER BY name",
        )
    } else {
        (
            "SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable
                    || ' ' || COALESCE(column_default, 'none')
             FROM information_schema.columns
             WHERE table_schema = current_schema() AND table_name LIKE 'rumi_%'
             ORDER BY table_name, ordinal_position",
            "SELECT indexname || ' ' || indexdef FROM pg_indexes
             WHERE schemaname = current_schema() AND tablename LIKE 'rumi_%' ORDER BY indexname",
        )
    };
    let mut described = Vec::new();
    for query in [columns, indexes] {
        for row in sqlx::query(query).fetch_all(&db).await.unwrap() {
            described.push(row.get::<String, _>(0));
        }
    }
    db.close().await;
    described
}

async fn the_baseline_is_the_previous_schema(fresh: &str, previous: &str) {
    let db = pool(previous).await;
    run(&db, PREVIOUS_SCHEMA).await;
    db.close().await;
    let server = start(fresh, 0).await;
    server.running.shutdown();
    let _ = server.running.task.await;
    let made = schema(fresh).await;
    assert!(made.len() > 30, "{made:?}");
    // The later migrations' tables and columns (accounts, sessions, results and
    // ratings: 0002, 0003; reviews and solo cube times: 0004, 0005; table clocks,
    // account guards and blocks: 0006 to 0008) come on top.
    let baseline: Vec<String> = made
        .iter()
        .filter(|line| !LATER_TABLES.iter().any(|t| line.contains(t)))
        .cloned()
        .collect();
    assert_eq!(baseline, schema(previous).await);
    // The previous release's database, migrated, is a fresh one.
    let server = start(previous, 0).await;
    server.running.shutdown();
    let _ = server.running.task.await;
    assert_eq!(made, schema(previous).await);
}

/// Tables, columns and indexes that migrations after the baseline add.
const LATER_TABLES: [&str; 17] = [
    "rumi_accounts",
    "rumi_sessions",
    "rumi_seats.account_id",
    "rumi_seats_account",
    "rumi_recorded",
    "rumi_results",
    "rumi_ratings",
    "rumi_passkeys",
    "rumi_ceremonies",
    "rumi_reviews",
    "rumi_solo_bests",
    "rumi_devices",
    "rumi_sign_in_limits",
    "rumi_tables.cancelled_ms",
    "rumi_rated_positions",
    "rumi_blocks",
    "rumi_solo_attempts",
];

#[tokio::test]
async fn a_new_database_gets_the_previous_releases_schema_on_sqlite() {
    the_baseline_is_the_previous_schema(
        &temp_sqlite("migrate-fresh"),
        &temp_sqlite("migrate-previous-schema"),
    )
    .await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn a_new_database_gets_the_previous_releases_schema_on_postgresql() {
    the_baseline_is_the_previous_schema(
        &temp_postgres("migrate_fresh").await,
        &temp_postgres("migrate_previous_schema").await,
    )
    .await;
}

/// Tables stored before the hints setting have hints as their seats give them by
/// default: on with one person (the others bots from the start), off with two (also
/// when one of them has handed their seat to a bot).
#[tokio::test]
async fn tables_stored_before_the_hints_setting_have_them_as_their_seats_give() {
    let url = temp_sqlite("migrate-hints");
    let db = pool(&url).await;
    run(&db, PREVIOUS_SCHEMA).await;
    let config = r#"{"game":"rummikub","rummikub":{"rules":"current","turn_seconds":null,"rounds":1},"players":2}"#;
    // (id, the second seat's bot, whether a person took it)
    for (id, bot, claimed) in [
        ("t00000000a001", "greedy", 0),
        ("t00000000a002", "greedy", 1),
    ] {
        run(
            &db,
            &format!(
                "INSERT INTO rumi_tables (id, config, seed, created_ms, finished, salt, practice, started_ms, creator, due_ms) VALUES ('{id}', '{config}', 7, 1796510545360, 0, '84fd43279ee9e84d9667d5621c73814c', 0, 1796510545364, '127.0.0.1', NULL);
INSERT INTO rumi_seats (table_id, seat, name, bot, token, claimed, open, invite, joiner) VALUES ('{id}', 0, 'Ana', NULL, '50ed37532d9f4b42684e3af9afd0f7c7', 1, 0, '', '');
INSERT INTO rumi_seats (table_id, seat, name, bot, token, claimed, open, invite, joiner) VALUES ('{id}', 1, 'Bo', '{bot}', '3120cf459c79b33ef44deb953c74c7a3', {claimed}, 0, '', '');
"
            ),
        )
        .await;
    }
    db.close().await;
    let server = start(&url, 0).await;
    let practice = server.view("t00000000a001", None).await;
    assert_eq!(practice["hints"], true, "one person and a bot: {practice}");
    let people = server.view("t00000000a002", None).await;
    assert_eq!(
        people["hints"], false,
        "Bo handed his seat to a bot: {people}"
    );
}

/// The action log of a table as stored, oldest first.
async fn logged(db: &AnyPool, table: &str) -> Vec<(i64, String)> {
    sqlx::query("SELECT version, action FROM rumi_actions WHERE table_id = $1 ORDER BY version")
        .bind(table)
        .fetch_all(db)
        .await
        .unwrap()
        .iter()
        .map(|row| (row.get("version"), row.get("action")))
        .collect()
}

/// A Rumis table whose log was written before actions named their type (`{"move": …}`,
/// `{"stone": …, "cells": …}`) loads as it was left and plays on; its log is then in
/// the typed form throughout.
async fn rumis_actions_logged_without_a_type_replay(url: &str) {
    let server = start(url, 0).await;
    let (id, tokens) = server
        .create(json!({
            "game": "rumis",
            "rumis": {"scenario": "chullpa", "players": 2},
            "seats": [{"kind": "human"}, {"kind": "human"}],
        }))
        .await;
    let mut placed = Vec::new();
    for version in 0..2 {
        let view = server.view(&id, None).await;
        let seat = view["to_move"].as_u64().unwrap() as usize;
        let token = tokens[seat].as_deref().unwrap();
        let mine = server.view(&id, Some(token)).await;
        let placement = mine["rumis"]["legal"][0].clone();
        let (status, after) = server.act(&id, token, version, placing(&placement)).await;
        assert_eq!(status, 200, "{after}");
        placed.push(placement);
    }
    let before = server.view(&id, None).await;
    server.running.shutdown();
    let _ = server.running.task.await;

    // The log as the release before typed actions wrote it: a move in the notation,
    // and a stone with its cells; that release's migrations only.
    let db = pool(url).await;
    let log = logged(&db, &id).await;
    assert_eq!(log.len(), 2);
    let first: serde_json::Value = serde_json::from_str(&log[0].1).unwrap();
    assert_eq!(first["type"], "rumis_move", "{first}");
    let old = [
        json!({"move": first["move"]}),
        json!({"stone": placed[1]["stone"], "cells": placed[1]["cells"]}),
    ];
    for ((version, _), action) in log.iter().zip(&old) {
        sqlx::query("UPDATE rumi_actions SET action = $1 WHERE table_id = $2 AND version = $3")
            .bind(action.to_string())
            .bind(&id)
            .bind(*version)
            .execute(&db)
            .await
            .unwrap();
    }
    let latest = *versions().last().unwrap();
    sqlx::query("DELETE FROM _sqlx_migrations WHERE version = $1")
        .bind(latest)
        .execute(&db)
        .await
        .unwrap();
    db.close().await;

    let server = start(url, 0).await;
    let view = server.view(&id, None).await;
    assert_eq!(view["version"], 2, "the old log loads: {view}");
    assert_eq!(view["rumis"], before["rumis"], "the same position");
    let seat = view["to_move"].as_u64().unwrap() as usize;
    let token = tokens[seat].as_deref().unwrap();
    let mine = server.view(&id, Some(token)).await;
    let action = placing(&mine["rumis"]["legal"][0]);
    let (status, after) = server.act(&id, token, 2, action).await;
    assert_eq!(status, 200, "the table plays on: {after}");
    server.running.shutdown();
    let _ = server.running.task.await;

    let db = pool(url).await;
    let log = logged(&db, &id).await;
    assert_eq!(log.len(), 3);
    for (version, action) in &log {
        let action: serde_json::Value = serde_json::from_str(action).unwrap();
        let kind = action["type"].as_str();
        assert!(
            matches!(kind, Some("rumis_move" | "rumis_place")),
            "action {version}: {action}"
        );
    }
    let second: serde_json::Value = serde_json::from_str(&log[1].1).unwrap();
    assert_eq!(second["type"], "rumis_place", "{second}");
    assert_eq!(second["stone"], placed[1]["stone"]);
    assert_eq!(second["cells"], placed[1]["cells"]);
}

#[tokio::test]
async fn rumis_actions_logged_without_a_type_replay_on_sqlite() {
    rumis_actions_logged_without_a_type_replay(&temp_sqlite("migrate-actions")).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn rumis_actions_logged_without_a_type_replay_on_postgresql() {
    rumis_actions_logged_without_a_type_replay(&temp_postgres("migrate_actions").await).await;
}
