//! Rated tables that cannot be held hostage (issue 56): a rated table whose seats are
//! not all taken in time is cancelled, unrated, also after a restart (RT7); every
//! rated table has a turn clock of at least 20 s (RT9); a Rumis turn whose time runs
//! out is passed (RD17), and a player whose clock runs out twice in a row leaves the
//! game: a bot plays their seat on and, at a rated table, they are ranked last
//! whatever the bot reaches (RT8), in both games and after a restart.

mod common;

use std::time::Duration;

use serde_json::{json, Value};
use server::clock::Clock;
use server::HubOptions;

use common::browser::{signed_up, Answer, Browser, PASSWORD};
use common::{placing, start_with, temp_sqlite, test_clock, TestServer};

fn options() -> HubOptions {
    HubOptions {
        bot_delay: Duration::ZERO,
        max_open_tables_per_address: 0,
        tables_per_minute_per_address: 0,
        max_open_seats_per_address: 0,
        max_open_seats_per_table_per_address: 0,
        ..common::defaults()
    }
}

fn code(answer: &Answer) -> (u16, String) {
    (
        answer.status,
        answer.body["code"].as_str().unwrap_or("").to_string(),
    )
}

async fn signed_in<'a>(server: &'a TestServer, name: &str) -> Browser<'a> {
    let mut browser = Browser::new(server);
    let signed = browser.sign_in(name, PASSWORD).await;
    assert_eq!(signed.status, 200, "{}", signed.body);
    browser
}

/// A rated table of Ana and the seat kept for Bo (`settings`: the game's part).
fn rated(game: &str, settings: Value) -> Value {
    json!({"game": game, game: settings, "rated": true,
        "seats": [{"kind": "human"}, {"kind": "account", "name": "Bob"}]})
}

fn chullpa(turn_seconds: Option<Value>) -> Value {
    let mut settings = json!({"scenario": "chullpa", "players": 2});
    if let Some(seconds) = turn_seconds {
        settings["turn_seconds"] = seconds;
    }
    settings
}

/// The challenge of `table` in the list of `who`.
async fn challenge_of(who: &mut Browser<'_>, table: &str) -> Value {
    let list = who.get("/api/me/challenges").await;
    assert_eq!(list.status, 200, "{}", list.body);
    list.body["challenges"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == table)
        .cloned()
        .unwrap_or(Value::Null)
}

/// Lets the server's drivers see the clock's new time: they act at once on their own
/// task (this is no wait for time, which stands still).
async fn settle() {
    for _ in 0..50 {
        tokio::task::yield_now().await;
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
}

/// The attack: a rated table was kept waiting for an account that never sat down,
/// for ever. RT7: after the wait it is cancelled, unrated; each account with a seat
/// sees it cancelled in its challenges, and nothing can be done there any more.
#[tokio::test]
async fn a_rated_table_whose_seats_are_not_all_taken_in_ten_minutes_is_cancelled() {
    let server = start_with(&temp_sqlite("rated_cancel"), options()).await;
    let mut ana = signed_up(&server, "Ana").await;
    let mut bo = signed_up(&server, "Bob").await;
    let created = ana.post("/api/tables", rated("rumis", chullpa(None))).await;
    assert_eq!(created.status, 200, "{}", created.body);
    let id = created.body["id"].as_str().unwrap().to_string();
    let path = format!("/api/tables/{id}");
    let created_ms = server.clock().now_ms();
    let view = ana.get(&path).await.body;
    assert_eq!(view["status"], "waiting", "{view}");
    assert_eq!(view["cancels_at_ms"], created_ms + 600_000, "{view}");
    let challenge = challenge_of(&mut bo, &id).await;
    assert_eq!(challenge["status"], "waiting", "{challenge}");
    assert_eq!(challenge["cancels_at_ms"], created_ms + 600_000);

    // At 9:59.999 it still waits.
    server.clock().advance(Duration::from_millis(599_999));
    settle().await;
    assert_eq!(ana.get(&path).await.body["status"], "waiting");
    assert_eq!(challenge_of(&mut bo, &id).await["status"], "waiting");

    // At 10:00 it is cancelled.
    server.clock().advance(Duration::from_millis(1));
    let view = server
        .wait_for(&id, None, |v| v["status"] == "cancelled")
        .await;
    assert_eq!(view["over"], false, "no game was played: {view}");
    assert!(view["cancels_at_ms"].is_null());
    for who in [&mut ana, &mut bo] {
        let challenge = challenge_of(who, &id).await;
        assert_eq!(challenge["status"], "cancelled", "{challenge}");
    }
    // Nothing can be done there any more.
    let claim = bo.post(&format!("{path}/claim"), json!({})).await;
    assert_eq!(
        code(&claim),
        (409, "table_cancelled".into()),
        "{}",
        claim.body
    );
    let decline = bo.post(&format!("{path}/decline"), json!({})).await;
    assert_eq!(code(&decline), (409, "table_cancelled".into()));
    let hand = ana
        .post(&format!("{path}/seats/1/bot"), json!({"bot": "random"}))
        .await;
    assert_eq!(code(&hand), (409, "table_cancelled".into()));
    let token = created.body["you"]["token"].as_str().unwrap();
    let (status, refused) = server
        .act(
            &id,
            token,
            0,
            json!({"type": "rumis_move", "move": "L4 a1 b1 c1 a2"}),
        )
        .await;
    assert_eq!(
        (status, refused["code"].clone()),
        (409, json!("table_cancelled"))
    );
    let replay = ana.get(&format!("{path}/replay")).await;
    assert_eq!(code(&replay), (409, "table_cancelled".into()));
    // No rating moved, no game in anyone's history.
    for name in ["ana", "bob"] {
        let profile = Browser::new(&server)
            .get(&format!("/api/users/{name}"))
            .await
            .body;
        assert_eq!(profile["games"], json!([]), "{profile}");
        assert_eq!(profile["ratings"], json!({}), "{profile}");
    }
    // The lobby does not list it; Ana's games say it was cancelled, not played.
    let lobby = Browser::new(&server).get("/api/tables").await.body;
    assert!(!lobby.to_string().contains(&id), "{lobby}");
    let mine = ana.get("/api/me/games").await.body;
    assert_eq!(mine["games"][0]["id"], id.as_str(), "{mine}");
    assert_eq!(mine["games"][0]["status"], "cancelled", "{mine}");
    assert!(mine["games"][0]["place"].is_null(), "{mine}");
}

/// RT7 after a restart: the stored creation time decides, whichever server drives the
/// table; a table whose seats were all taken in time is not cancelled.
#[tokio::test]
async fn a_restarted_server_cancels_a_rated_table_by_its_stored_creation_time() {
    let db = temp_sqlite("rated_cancel_restart");
    let first = start_with(&db, options()).await;
    let mut ana = signed_up(&first, "Ana").await;
    signed_up(&first, "Bob").await;
    let waiting = ana.post("/api/tables", rated("rumis", chullpa(None))).await;
    let waiting = waiting.body["id"].as_str().unwrap().to_string();
    let played = ana.post("/api/tables", rated("rumis", chullpa(None))).await;
    let played = played.body["id"].as_str().unwrap().to_string();
    let mut bo = signed_in(&first, "Bob").await;
    let grant = bo
        .post(&format!("/api/tables/{played}/claim"), json!({}))
        .await;
    assert_eq!(grant.status, 200, "{}", grant.body);
    let stopped_at = first.clock().now_ms();
    drop(bo);
    drop(ana);
    drop(first);

    // Eleven minutes later, another server on the same database.
    let clock = test_clock();
    clock.advance(Duration::from_secs(11 * 60));
    assert_eq!(clock.now_ms(), stopped_at + 11 * 60_000);
    let second = start_with(
        &db,
        HubOptions {
            clock: clock.clone(),
            ..options()
        },
    )
    .await;
    // Nobody asks for the table: the server cancels it by itself.
    let start = std::time::Instant::now();
    loop {
        let stored = second
            .running
            .hub
            .store
            .load_settings(&waiting)
            .await
            .unwrap()
            .unwrap();
        if stored.cancelled_ms.is_some() {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the restarted server never cancelled the table"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut bo = signed_in(&second, "Bob").await;
    assert_eq!(challenge_of(&mut bo, &waiting).await["status"], "cancelled");
    let view = second.view(&played, None).await;
    assert_eq!(view["status"], "playing", "{view}");
}

/// RT9: every rated table has a clock of at least 20 s per turn; a missing one is the
/// default, and the challenge and the view show it. Casual tables keep theirs.
#[tokio::test]
async fn every_rated_table_has_a_turn_clock_of_at_least_twenty_seconds() {
    let server = start_with(&temp_sqlite("rated_clock"), options()).await;
    let mut ana = signed_up(&server, "Ana").await;
    let mut bo = signed_up(&server, "Bob").await;
    let rummikub = |seconds: Option<Value>| {
        let mut settings = json!({});
        if let Some(seconds) = seconds {
            settings["turn_seconds"] = seconds;
        }
        settings
    };
    for (game, settings) in [
        ("rumis", chullpa(Some(Value::Null))),
        ("rumis", chullpa(Some(json!(1)))),
        ("rumis", chullpa(Some(json!(19)))),
        ("rummikub", rummikub(Some(Value::Null))),
        ("rummikub", rummikub(Some(json!(1)))),
    ] {
        let refused = ana.post("/api/tables", rated(game, settings.clone())).await;
        assert_eq!(
            code(&refused),
            (400, "rated_clock".into()),
            "{game} {settings}: {}",
            refused.body
        );
    }
    for (game, settings, seconds) in [
        ("rumis", chullpa(None), 60),
        ("rumis", chullpa(Some(json!(20))), 20),
        ("rummikub", rummikub(None), 60),
        ("rummikub", rummikub(Some(json!(45))), 45),
    ] {
        let created = ana.post("/api/tables", rated(game, settings)).await;
        assert_eq!(created.status, 200, "{}", created.body);
        let id = created.body["id"].as_str().unwrap().to_string();
        let challenge = challenge_of(&mut bo, &id).await;
        assert_eq!(challenge["turn_seconds"], seconds, "{challenge}");
        let grant = bo.post(&format!("/api/tables/{id}/claim"), json!({})).await;
        assert_eq!(grant.status, 200, "{}", grant.body);
        let view = server.view(&id, None).await;
        assert_eq!(view["turn_seconds"], seconds, "{view}");
        assert_eq!(
            view["deadline_ms"],
            server.clock().now_ms() + 1000 * seconds,
            "{view}"
        );
    }
    // A casual Rumis table has no clock unless asked for; a short one is allowed.
    for (turn_seconds, expected) in [(None, Value::Null), (Some(json!(5)), json!(5))] {
        let mut body = json!({"game": "rumis", "rumis": chullpa(turn_seconds),
            "seats": [{"kind": "human"}, {"kind": "bot"}]});
        body["rumis"]["players"] = json!(2);
        let created = server.create_raw(body).await;
        let view = server.view(created["id"].as_str().unwrap(), None).await;
        assert_eq!(view["turn_seconds"], expected, "{view}");
    }
}

/// Ana's seat at a started rated table: the table, Ana's and Bo's tokens.
async fn started(
    server: &TestServer,
    ana: &mut Browser<'_>,
    bo: &mut Browser<'_>,
    game: &str,
    settings: Value,
) -> (String, String, String) {
    let created = ana.post("/api/tables", rated(game, settings)).await;
    assert_eq!(created.status, 200, "{}", created.body);
    let id = created.body["id"].as_str().unwrap().to_string();
    let ana_token = created.body["you"]["token"].as_str().unwrap().to_string();
    let grant = bo.post(&format!("/api/tables/{id}/claim"), json!({})).await;
    assert_eq!(grant.status, 200, "{}", grant.body);
    let bo_token = grant.body["token"].as_str().unwrap().to_string();
    assert_eq!(server.view(&id, None).await["status"], "playing");
    (id, ana_token, bo_token)
}

/// Runs the clock out on the seat to move at version `version`: the server's own
/// action follows.
async fn time_out(server: &TestServer, id: &str, seconds: u64, version: u64) -> Value {
    server.clock().advance(Duration::from_secs(seconds));
    server
        .wait_for(id, None, |v| v["version"].as_u64() > Some(version))
        .await
}

/// Bo plays `first` (his first listed move, or a draw) each turn of his, until the game
/// is over; Ana's seat is the bot's.
async fn bo_plays_to_the_end(server: &TestServer, id: &str, token: &str, game: &str) -> Value {
    loop {
        let view = server
            .wait_for(id, None, |v| v["over"] == true || v["to_move"] == 1)
            .await;
        if view["over"] == true {
            return view;
        }
        let mine = server.view(id, Some(token)).await;
        let action = match game {
            "rumis" => placing(&mine["rumis"]["legal"][0]),
            _ => json!({"type": "draw"}),
        };
        let version = mine["version"].as_u64().unwrap();
        let (status, answer) = server.act(id, token, version, action).await;
        assert_eq!(status, 200, "{answer}");
    }
}

/// What Ana's and Bo's profiles say of the game `id`: each one's result.
async fn results_of(server: &TestServer, id: &str) -> (Value, Value) {
    server.wait_recorded(id).await;
    let mut out = Vec::new();
    for name in ["ana", "bob"] {
        let profile = Browser::new(server)
            .get(&format!("/api/users/{name}"))
            .await
            .body;
        let game = profile["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id)
            .cloned()
            .unwrap_or_else(|| panic!("{name} has no game {id}: {profile}"));
        out.push(game);
    }
    (out[0].clone(), out[1].clone())
}

/// RD17 and RT8 at a rated Rumis table: Ana's first time-out passes her turn (she
/// stays in, Bo is to move); her second in a row gives her seat to the strongest bot
/// and she has left; the game goes on, also on a server started again on the stored
/// table, and Ana is ranked last whatever the bot reached.
#[tokio::test]
async fn a_rumis_time_out_passes_and_the_second_in_a_row_leaves_the_game_ranked_last() {
    let db = temp_sqlite("rated_rumis_timeouts");
    // The bot does not move on this server: the restart comes first.
    let first = start_with(
        &db,
        HubOptions {
            bot_delay: Duration::from_secs(3600),
            ..options()
        },
    )
    .await;
    let mut ana = signed_up(&first, "Ana").await;
    let mut bo = signed_up(&first, "Bob").await;
    let (id, _, bo_token) =
        started(&first, &mut ana, &mut bo, "rumis", chullpa(Some(json!(20)))).await;
    let view = first.view(&id, None).await;
    assert_eq!(view["to_move"], 0, "Ana moves first: {view}");

    // 19.999 s: still Ana's turn; at 20 s her clock runs out.
    first.clock().advance(Duration::from_millis(19_999));
    settle().await;
    assert_eq!(first.view(&id, None).await["version"], 0);
    first.clock().advance(Duration::from_millis(1));
    let view = first.wait_for(&id, None, |v| v["version"] == 1).await;
    assert_eq!(view["to_move"], 1, "the turn passed to Bo: {view}");
    assert_eq!(view["seats"][0]["left"], false, "Ana is still in: {view}");
    assert!(view["seats"][0]["bot"].is_null());
    assert_eq!(view["rumis"]["history"], json!([]), "no stone was placed");
    let colours = &view["rumis"]["colours"];
    assert_eq!(colours[0]["out"], false, "a pass is not R8's out: {view}");

    // Bo moves; Ana's clock runs out again: two in a row only counts her own turns,
    // and this is the second.
    let mine = first.view(&id, Some(&bo_token)).await;
    let (status, answer) = first
        .act(&id, &bo_token, 1, placing(&mine["rumis"]["legal"][0]))
        .await;
    assert_eq!(status, 200, "{answer}");
    let view = time_out(&first, &id, 20, 2).await;
    assert_eq!(view["version"], 3, "{view}");
    assert_eq!(view["seats"][0]["left"], true, "{view}");
    let bot = view["seats"][0]["bot"].as_str().unwrap().to_string();
    assert_eq!(bot, "mcts:5", "the strongest bot plays on: {view}");
    assert_eq!(view["to_move"], 1, "{view}");
    let stored_log = first.running.hub.store.load(&id).await.unwrap().unwrap();
    let clock_actions: Vec<_> = stored_log
        .actions
        .iter()
        .filter(|a| a.actor.is_none())
        .map(|a| a.action.clone())
        .collect();
    assert_eq!(
        clock_actions,
        vec![r#"{"type":"timeout"}"#; 2],
        "in the log"
    );
    drop(bo);
    drop(ana);
    drop(first);

    // Started again on the same database: the log rebuilds who left.
    let clock = Clock::manual(test_clock().now_ms() + 40_000);
    let second = start_with(&db, HubOptions { clock, ..options() }).await;
    let view = second.view(&id, None).await;
    assert_eq!(view["seats"][0]["left"], true, "{view}");
    assert_eq!(view["seats"][0]["bot"], bot.as_str());
    let end = bo_plays_to_the_end(&second, &id, &bo_token, "rumis").await;
    let (ana_game, bo_game) = results_of(&second, &id).await;
    assert_eq!(ana_game["result"], "lost", "Ana left: {ana_game} {end}");
    assert_eq!(bo_game["result"], "won", "{bo_game} {end}");
    assert!(ana_game["rating_change"].as_f64().unwrap() < 0.0);
    assert!(bo_game["rating_change"].as_f64().unwrap() > 0.0);
}

/// K7 and RT8 at a rated Rummikub table: two time-outs in a row (three penalty tiles
/// each) and the strongest bot plays Ana's seat on; the bot goes out first, yet Ana
/// is ranked last, after Bo, who only ever drew.
#[tokio::test]
async fn two_rummikub_time_outs_in_a_row_leave_the_game_ranked_last() {
    let server = start_with(&temp_sqlite("rated_rummikub_timeouts"), options()).await;
    let mut ana = signed_up(&server, "Ana").await;
    let mut bo = signed_up(&server, "Bob").await;
    let (id, _, bo_token) = started(
        &server,
        &mut ana,
        &mut bo,
        "rummikub",
        json!({"turn_seconds": 20}),
    )
    .await;
    let mut time_outs = 0;
    while time_outs < 2 {
        let view = server.view(&id, Some(&bo_token)).await;
        let version = view["version"].as_u64().unwrap();
        if view["to_move"] == 1 {
            let (status, answer) = server
                .act(&id, &bo_token, version, json!({"type": "draw"}))
                .await;
            assert_eq!(status, 200, "{answer}");
            continue;
        }
        let after = time_out(&server, &id, 20, version).await;
        assert_eq!(
            after["rummikub"]["last_event"]["code"], "penalty",
            "{after}"
        );
        time_outs += 1;
        assert_eq!(after["seats"][0]["left"], time_outs == 2, "{after}");
    }
    let view = server.view(&id, None).await;
    assert_eq!(view["seats"][0]["bot"], "planner:5", "{view}");
    let end = bo_plays_to_the_end(&server, &id, &bo_token, "rummikub").await;
    let (ana_game, bo_game) = results_of(&server, &id).await;
    assert_eq!(ana_game["result"], "lost", "{ana_game} {end}");
    assert_eq!(bo_game["result"], "won", "{bo_game} {end}");
}
