//! The house's bus (`server::events`): a table's creation, a seat taken and a finished
//! game are published after they are stored, the results feature records a finished
//! game on its own task, and a subscriber that is stuck holds up neither the table nor
//! the other features.

mod common;

use std::time::Duration;

use serde_json::{json, Value};
use server::events::{Heard, TableEvent};
use server::wire::GameKind;
use server::HubOptions;

use common::browser::{signed_up, Browser, PASSWORD};
use common::{start_with, temp_sqlite, wait_for_event, TestServer};

/// Bots move at once, and an away player's seat may be handed over at once.
fn options() -> HubOptions {
    HubOptions {
        bot_delay: Duration::ZERO,
        handover_after: Duration::ZERO,
        ..common::defaults()
    }
}

/// Ana keeps a seat for Bo at a casual Rumis table for two; Bo takes it; both hand
/// their seats to bots, which play to the end. Answers the table's id.
async fn game_between_ana_and_bo(server: &TestServer) -> String {
    let mut ana = signed_up(server, "Ana").await;
    let mut bo = signed_up(server, "Bo_2").await;
    let created = ana
        .post(
            "/api/tables",
            json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2},
                   "seats": [{"kind": "human"}, {"kind": "account", "name": "Bo_2"}]}),
        )
        .await;
    assert_eq!(created.status, 200, "{}", created.body);
    let id = created.body["id"].as_str().unwrap().to_string();
    let path = format!("/api/tables/{id}");
    let claimed = bo.post(&format!("{path}/claim"), json!({})).await;
    assert_eq!(claimed.status, 200, "{}", claimed.body);
    for (who, seat) in [(&mut ana, 0), (&mut bo, 1)] {
        let handed = who
            .post(
                &format!("{path}/seats/{seat}/bot"),
                json!({"bot": "random"}),
            )
            .await;
        assert_eq!(handed.status, 200, "{}", handed.body);
    }
    id
}

#[tokio::test]
async fn a_game_publishes_its_creation_a_seat_taken_and_its_end_and_its_results_follow() {
    let server = start_with(&temp_sqlite("events_game"), options()).await;
    let hub = server.running.hub.clone();
    let mut events = hub.events().watch();
    let id = game_between_ana_and_bo(&server).await;
    let is_this = |e: &TableEvent| e.table() == id;

    let created = wait_for_event(&mut events, is_this).await;
    assert_eq!(
        created,
        TableEvent::Created {
            table: id.clone(),
            game: GameKind::Rumis,
            rated: false,
            seats: 2
        }
    );
    // Bo took the seat kept for his account (Ana's was hers from the start).
    match wait_for_event(&mut events, is_this).await {
        TableEvent::SeatTaken { seat, account, .. } => {
            assert_eq!(seat, 1);
            assert!(account.is_some(), "Bo's account sat down");
        }
        other => panic!("expected Bo's seat taken, heard {other:?}"),
    }
    let finished = wait_for_event(&mut events, is_this).await;
    let TableEvent::Finished {
        game: GameKind::Rumis,
        rated: false,
        results: Some(results),
        ..
    } = finished
    else {
        panic!("expected the end of the game with its results, heard {finished:?}");
    };
    assert_eq!(results.game.table_id, id);
    assert_eq!(results.seats.len(), 2, "both seats are account holders'");
    let view = server.view(&id, None).await;
    assert_eq!(view["over"], true);
    let winners: Vec<usize> = view["result"]["winners"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_u64().unwrap() as usize)
        .collect();
    for seat in &results.seats {
        assert_eq!(
            seat.place == 1,
            winners.contains(&seat.seat),
            "the event's places are the view's result: {results:?} {view}"
        );
    }

    // Then the results feature says it recorded them, and the histories show it.
    assert_eq!(
        wait_for_event(&mut events, is_this).await,
        TableEvent::ResultsRecorded {
            table: id.clone(),
            rated: false
        }
    );
    for (name, seat) in [("ana", 0), ("bo_2", 1)] {
        let profile: Value = Browser::new(&server)
            .get(&format!("/api/users/{name}"))
            .await
            .body;
        let games = profile["games"].as_array().unwrap();
        assert_eq!(games.len(), 1, "{profile}");
        let place = results.seats.iter().find(|s| s.seat == seat).unwrap().place;
        assert_eq!(games[0]["place"], place, "{profile}");
    }
    // Each published event was counted once.
    let metrics = hub.render_metrics();
    for event in ["created", "seat_taken", "finished", "results_recorded"] {
        assert!(
            metrics
                .lines()
                .any(|l| l.starts_with("rumi_table_events_total")
                    && l.contains(&format!("event=\"{event}\""))),
            "{event} not counted:\n{metrics}"
        );
    }
}

#[tokio::test]
async fn a_stuck_subscriber_holds_up_neither_the_table_nor_the_results() {
    let server = start_with(&temp_sqlite("events_stuck"), options()).await;
    let hub = server.running.hub.clone();
    // A feature that never finishes its work on a finished game (until released).
    let (release, stuck) = tokio::sync::watch::channel(false);
    let (entered_tx, mut entered) = tokio::sync::mpsc::unbounded_channel();
    hub.events()
        .subscribe("stuck", Heard::Here, move |published| {
            let mut stuck = stuck.clone();
            let entered_tx = entered_tx.clone();
            async move {
                if let TableEvent::Finished { table, .. } = &published.event {
                    let _ = entered_tx.send(table.clone());
                    let _ = stuck.wait_for(|released| *released).await;
                }
            }
        });
    let mut events = hub.events().watch();
    let id = game_between_ana_and_bo(&server).await;
    assert_eq!(entered.recv().await.as_deref(), Some(id.as_str()));
    // The stuck feature holds its event; the results are recorded all the same …
    wait_for_event(
        &mut events,
        |e| matches!(e, TableEvent::ResultsRecorded { table, .. } if *table == id),
    )
    .await;
    // … and the table answers: its view, and a rematch (which takes its lock).
    assert_eq!(server.view(&id, None).await["over"], true);
    let mut ana = Browser::new(&server);
    assert_eq!(ana.sign_in("Ana", PASSWORD).await.status, 200);
    let rematch = ana
        .post(&format!("/api/tables/{id}/rematch"), json!({}))
        .await;
    assert_eq!(rematch.status, 200, "{}", rematch.body);
    let _ = release.send(true);
}
