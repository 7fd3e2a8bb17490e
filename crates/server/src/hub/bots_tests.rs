//! Kept bots and failing bots, seen from inside the hub: a seat's bot is one object
//! for the whole game (its MCTS tree carries over), and a bot that fails puts its
//! table into a visible trouble state, is retried, and then a simpler bot moves for
//! it. Every wait is for an event of the table (a change its viewers are told of),
//! never for a stretch of time.

use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};

use super::faults::{self, Fault};
use super::BOT_RETRIES;
use crate::hub::{Hub, HubOptions, Table, TableState};
use crate::store::Store;
use crate::wire::{BotTrouble, BotTroubleCode, CreateTableRequest, GameAction, TableView};

/// A hub on a fresh SQLite file; failing bots are retried after `retry_after`.
async fn hub(name: &str, retry_after: Duration) -> Arc<Hub> {
    let _ = tracing_subscriber::fmt().with_test_writer().try_init();
    let dir = std::env::temp_dir().join(format!("rumi-bots-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("rumi.db");
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", file.display()));
    }
    let store = Store::connect(&format!("sqlite://{}", file.display()))
        .await
        .unwrap();
    let options = HubOptions {
        bot_delay: Duration::ZERO,
        bot_retry_after: retry_after,
        max_open_tables_per_address: 0,
        tables_per_minute_per_address: 0,
        ..HubOptions::default()
    };
    Hub::start(store, options, None).await.unwrap()
}

/// Creates a table; answers it.
async fn create(hub: &Arc<Hub>, request: Value) -> Arc<Table> {
    let request: CreateTableRequest = serde_json::from_value(request).unwrap();
    let created = hub
        .create(request, IpAddr::V4(Ipv4Addr::LOCALHOST), None)
        .await
        .unwrap();
    hub.table(&created.id).await.unwrap()
}

/// Waits for the table's next changes until `done` holds of its state; answers what
/// `done` found.
async fn wait_for<T>(table: &Table, mut done: impl FnMut(&TableState) -> Option<T>) -> T {
    let mut changes = table.changes.subscribe();
    loop {
        if let Some(found) = done(&*table.state.lock().await) {
            return found;
        }
        // A bound so that a broken driver fails the test instead of hanging it.
        tokio::time::timeout(Duration::from_secs(120), changes.changed())
            .await
            .expect("the table changed")
            .unwrap();
    }
}

/// The seat's view as JSON.
fn view(table: &Table, state: &TableState, seat: usize) -> (TableView, Value) {
    let view = state.view(&table.id, Some(seat));
    let json = serde_json::to_value(&view).unwrap();
    (view, json)
}

/// The human of seat 0 places the first of their legal stones.
async fn human_moves(hub: &Arc<Hub>, table: &Arc<Table>) {
    let action = {
        let state = table.state.lock().await;
        let (_, json) = view(table, &state, 0);
        let mut legal = json["rumis"]["legal"][0].clone();
        legal["type"] = "rumis_place".into();
        serde_json::from_value::<GameAction>(legal).unwrap()
    };
    hub.submit(table, 0, None, &action).await.unwrap();
}

/// A Rumis practice table: the human in seat 0, the greedy bot in seat 1.
fn human_and_greedy() -> Value {
    json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2},
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], "seed": 3})
}

/// Every seat's bot is one object for the whole game: the moves its kept object chose
/// add up to every move of the game (a bot built anew would count from 0 again), and
/// an MCTS bot starts some of its searches with visits from its earlier ones.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bot_seats_keep_their_bot_and_its_tree_for_the_whole_game() {
    let hub = hub("kept", Duration::from_secs(1)).await;
    for (request, mcts) in [
        (
            json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2},
                "seats": [{"kind": "bot", "bot": "mcts:3"}, {"kind": "bot", "bot": "mcts:2"}]}),
            true,
        ),
        (
            json!({"game": "rummikub",
                "seats": [{"kind": "bot", "bot": "planner:4"}, {"kind": "bot", "bot": "greedy"}]}),
            false,
        ),
    ] {
        let table = create(&hub, request).await;
        let mut carried = 0;
        let (moves, kept) = wait_for(&table, |state| {
            let kept: Vec<(u32, u32)> = (0..2)
                .filter_map(|seat| state.bots.kept(seat))
                .map(|bot| (bot.moves(), bot.carried_visits()))
                .collect();
            carried = kept.iter().map(|k| k.1).max().unwrap_or(0).max(carried);
            state.game.is_over().then_some((state.version, kept))
        })
        .await;
        assert_eq!(kept.len(), 2, "both seats kept their bot");
        let chosen: u32 = kept.iter().map(|k| k.0).sum();
        assert_eq!(u64::from(chosen), moves, "every move by the kept bots");
        if mcts {
            assert!(carried > 0, "no search reused its tree");
        }
        let state = table.state.lock().await;
        assert!(view(&table, &state, 0).0.bot_trouble.is_empty());
    }
}

/// A bot that always fails: the table shows it (code, retries), the server retries
/// it `BOT_RETRIES` times with a fresh bot, then a random legal move is played for
/// the seat and the view says so. Once the bot works again, its next move clears it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_bot_is_shown_retried_and_then_replaced_for_the_move() {
    let hub = hub("fallback", Duration::from_millis(1)).await;
    let table = create(&hub, human_and_greedy()).await;
    faults::inject(&table.id, Fault::Error, u32::MAX);
    human_moves(&hub, &table).await;
    let mut seen = Vec::new();
    let trouble = wait_for(&table, |state| {
        let (view, _) = view(&table, state, 0);
        seen.extend(view.bot_trouble.clone());
        (state.version == 2).then_some(view.bot_trouble)
    })
    .await;
    assert_eq!(faults::fired(&table.id), 1 + BOT_RETRIES);
    let [BotTrouble {
        seat: 1,
        code: BotTroubleCode::Error,
        retries,
        fallback: true,
        since_ms,
    }] = trouble.as_slice()
    else {
        panic!("{trouble:?}")
    };
    assert_eq!(*retries, BOT_RETRIES);
    assert!(*since_ms > 0);
    // What the players saw on the way: the same trouble, retried, never a fallback
    // before the retries were spent.
    for t in &seen {
        assert_eq!((t.seat, t.code), (1, BotTroubleCode::Error));
        assert!(t.fallback || t.retries <= BOT_RETRIES, "{t:?}");
    }
    {
        let state = table.state.lock().await;
        let (_, json) = view(&table, &state, 0);
        assert_eq!(json["bot_trouble"][0]["code"], "error", "{json}");
        assert_eq!(json["rumis"]["history"].as_array().unwrap().len(), 2);
    }
    // The bot works again: its next move clears the trouble.
    faults::inject(&table.id, Fault::Error, 0);
    human_moves(&hub, &table).await;
    let trouble = wait_for(&table, |state| {
        (state.version == 4).then(|| view(&table, state, 0).0.bot_trouble)
    })
    .await;
    assert!(trouble.is_empty(), "{trouble:?}");
}

/// A bot that panics or chooses an action the rules refuse: the trouble shows at once
/// with its code and the retry under way; a retry that works moves for the seat.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_or_refused_bot_shows_its_trouble_and_a_retry_moves() {
    // A long pause before the retry: the trouble stays visible until the test looks.
    let hub_waiting = hub("panic", Duration::from_secs(3600)).await;
    let table = create(&hub_waiting, human_and_greedy()).await;
    faults::inject(&table.id, Fault::Panic, 1);
    human_moves(&hub_waiting, &table).await;
    let trouble = wait_for(&table, |state| {
        let trouble = view(&table, state, 1).0.bot_trouble;
        (!trouble.is_empty()).then_some(trouble)
    })
    .await;
    assert_eq!(
        (
            trouble[0].seat,
            trouble[0].code,
            trouble[0].retries,
            trouble[0].fallback
        ),
        (1, BotTroubleCode::Panic, 1, false)
    );
    assert_eq!(table.state.lock().await.version, 1, "no move yet");

    // Refused twice, then the bot's own move.
    let hub = hub("refused", Duration::from_millis(1)).await;
    let table = create(&hub, human_and_greedy()).await;
    faults::inject(&table.id, Fault::Refused, 2);
    human_moves(&hub, &table).await;
    let mut seen = Vec::new();
    let trouble = wait_for(&table, |state| {
        let view = view(&table, state, 0).0;
        seen.extend(view.bot_trouble.iter().map(|t| t.code));
        (state.version == 2).then_some(view.bot_trouble)
    })
    .await;
    assert_eq!(faults::fired(&table.id), 2);
    assert!(
        trouble.is_empty(),
        "the bot's own move clears it: {trouble:?}"
    );
    assert!(
        seen.iter().all(|&c| c == BotTroubleCode::Refused),
        "{seen:?}"
    );
    let state = table.state.lock().await;
    assert_eq!(state.bots.kept(1).map(|b| b.moves()), Some(1));
}
