//! A rematch: a finished table's players ask for the same game again. The first to
//! ask makes a new table with the same settings and seats (names, bots) and a new fair
//! deal, and sits down at once; each other person takes their own seat there with
//! their old seat's token; asking again answers the same table; the finished table's
//! view names it, also after a restart; the table limits of the asker's address
//! apply; only the table's players may ask, and only once the game is over.

mod common;

use std::time::Duration;

use common::{start, start_with, temp_sqlite, TestServer};
use futures_util::StreamExt;
use serde_json::{json, Value};
use server::HubOptions;

/// Asks for the rematch of `id` with a seat token (`None`: without one).
async fn rematch(server: &TestServer, id: &str, token: Option<&str>) -> (u16, Value) {
    server
        .send(
            reqwest::Method::POST,
            &format!("/api/tables/{id}/rematch"),
            token,
            Some("{}"),
        )
        .await
}

/// Every person hands their own seat to a bot, and the bots play the game out.
async fn play_out(server: &TestServer, id: &str, tokens: &[Option<String>]) -> Value {
    for (seat, token) in tokens.iter().enumerate() {
        if let Some(token) = token {
            let (status, body) = server
                .post_as(
                    &format!("/api/tables/{id}/seats/{seat}/bot"),
                    token,
                    r#"{"bot": "greedy"}"#,
                )
                .await;
            assert_eq!(status, 200, "{body}");
        }
    }
    server.wait_for(id, None, |v| v["over"] == true).await
}

/// Ana and Bo, invited, and a greedy bot at a Rummikub table without a clock, whose
/// creator turned hints on.
fn three_seats() -> Value {
    json!({"game": "rummikub", "rummikub": {"rules": "current", "turn_seconds": null},
           "seats": [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bo"},
                     {"kind": "bot", "bot": "greedy", "name": "Robo"}],
           "seed": 3, "hints": true})
}

#[tokio::test]
async fn a_rematch_has_the_same_seats_a_new_deal_and_is_made_once() {
    let db = temp_sqlite("rematch");
    let server = start(&db, 0).await;
    let (old, tokens) = server.create(three_seats()).await;
    let (ana, bo) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    let first = server.view(&old, None).await;

    // While the game runs: no rematch. Without a seat: none either.
    let (status, body) = rematch(&server, &old, Some(&ana)).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("not_over")),
        "{body}"
    );
    let (status, body) = rematch(&server, &old, None).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("token_needed")),
        "{body}"
    );

    let over = play_out(&server, &old, &tokens).await;
    assert!(over.get("rematch").is_none(), "nobody asked yet: {over}");
    for token in [None, Some("0123456789abcdef0123456789abcdef")] {
        let (status, body) = rematch(&server, &old, token).await;
        assert_eq!(status, 403, "only the table's players may ask: {body}");
    }
    // Bo watches the finished table: his view names the rematch once Ana asks.
    let mut bo_socket = server.socket(&old, Some(&bo)).await;

    let (status, made) = rematch(&server, &old, Some(&ana)).await;
    assert_eq!(status, 200, "{made}");
    let new = made["id"].as_str().unwrap().to_string();
    assert_ne!(new, old);
    assert_eq!(made["spectator"], format!("/t/{new}"));
    // The same seats: names, kinds, the same bot; Ana's seat is hers at once.
    let seats: Vec<(Value, Value, Value)> = made["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["name"].clone(), s["kind"].clone(), s["bot"].clone()))
        .collect();
    assert_eq!(
        seats,
        [
            (json!("Ana"), json!("human"), Value::Null),
            (json!("Bo"), json!("human"), Value::Null),
            (json!("Robo"), json!("bot"), json!("greedy")),
        ]
    );
    assert!(
        made["seats"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["invite"].is_null()),
        "no links to pass on: each player takes their own seat: {made}"
    );
    assert_eq!(made["you"]["seat"], 0);
    assert_eq!(made["you"]["name"], "Ana");
    let ana_new = made["you"]["token"].as_str().unwrap().to_string();
    assert_ne!(ana_new, ana);
    // A new fair deal: a new commitment, no chosen seed.
    assert_ne!(made["commitment"], first["fairness"]["commitment"]);
    assert_eq!(made["practice_seed"], Value::Null);

    // The new table: the same settings, Ana seated, waiting for Bo.
    let table = server.view(&new, Some(&ana_new)).await;
    assert_eq!(table["you"], 0);
    assert_eq!(table["status"], "waiting");
    assert_eq!(table["waiting_for"], json!([1]));
    assert_eq!(table["hints"], true);
    assert_eq!(table["rummikub"]["rules"], first["rummikub"]["rules"]);
    assert_eq!(table["fairness"]["practice_seed"], Value::Null);
    // The old table names it, to Bo's socket at once and to everyone who looks.
    let named = loop {
        let frame = tokio::time::timeout(Duration::from_secs(10), bo_socket.next())
            .await
            .expect("a state message")
            .unwrap()
            .unwrap();
        let message: Value = serde_json::from_str(frame.to_text().unwrap()).unwrap();
        if message["view"]["rematch"].is_string() {
            break message["view"]["rematch"].clone();
        }
    };
    assert_eq!(named, new);
    assert_eq!(server.view(&old, None).await["rematch"], new);

    // The request says nothing but `{}` (or nothing at all): the token says who asks.
    let (status, body) = server
        .post_as(&format!("/api/tables/{old}/rematch"), &bo, r#"{"seat": 0}"#)
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("malformed_request")),
        "{body}"
    );
    // Asking again answers the same table and seat: no second table.
    let (status, again) = rematch(&server, &old, Some(&ana)).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["id"], new);
    assert_eq!(again["you"]["token"], ana_new.as_str());
    // Bo takes his own seat with his old token; the game starts.
    let (status, joined) = rematch(&server, &old, Some(&bo)).await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["id"], new);
    assert_eq!(joined["you"]["seat"], 1);
    assert_eq!(joined["you"]["name"], "Bo");
    let bo_new = joined["you"]["token"].as_str().unwrap().to_string();
    assert_ne!(bo_new, ana_new);
    let started = server.view(&new, Some(&bo_new)).await;
    assert_eq!(
        (started["you"].clone(), started["status"].clone()),
        (json!(1), json!("playing"))
    );
    // Old tokens open no seat at the new table.
    let (status, body) = server.get_as(&format!("/api/tables/{new}"), &ana).await;
    assert_eq!((status, body["code"].as_str()), (403, Some("bad_token")));

    // After a restart the finished table still names its rematch, and asking again
    // still finds it.
    server.running.shutdown();
    let _ = server.running.task.await;
    let server = start(&db, 0).await;
    assert_eq!(server.view(&old, None).await["rematch"], new);
    let (status, again) = rematch(&server, &old, Some(&bo)).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(
        (again["id"].as_str(), again["you"]["token"].as_str()),
        (Some(new.as_str()), Some(bo_new.as_str()))
    );

    // Played out, the rematch reveals a deal other than the first.
    let over = play_out(&server, &new, &[Some(ana_new), Some(bo_new), None]).await;
    assert_ne!(over["fairness"]["seed"], first_seed(&server, &old).await);
}

/// The revealed seed of a finished table.
async fn first_seed(server: &TestServer, id: &str) -> Value {
    let view = server.view(id, None).await;
    assert!(view["fairness"]["seed"].is_u64(), "{view}");
    view["fairness"]["seed"].clone()
}

#[tokio::test]
async fn a_rematch_counts_against_the_askers_table_limits_once() {
    let server = start_with(
        &temp_sqlite("rematch-limits"),
        HubOptions {
            bot_delay: Duration::ZERO,
            tables_per_minute_per_address: 2,
            max_open_tables_per_address: 0,
            chosen_seeds_with_people: true,
            ..common::defaults()
        },
    )
    .await;
    let (old, tokens) = server.create(three_seats()).await;
    play_out(&server, &old, &tokens).await;
    // The second table of the minute: the rematch.
    let (status, made) = rematch(&server, &old, tokens[0].as_deref()).await;
    assert_eq!(status, 200, "{made}");
    // Asking again, or taking one's seat there, makes no table.
    let mut seated = vec![
        made["you"]["token"].as_str().map(str::to_string),
        None,
        None,
    ];
    for (seat, token) in [(0, &tokens[0]), (1, &tokens[1]), (1, &tokens[1])] {
        let (status, again) = rematch(&server, &old, token.as_deref()).await;
        assert_eq!((status, &again["id"]), (200, &made["id"]), "{again}");
        seated[seat] = again["you"]["token"].as_str().map(str::to_string);
    }
    // The address has used its minute: the next table is refused, and so is the
    // rematch of the rematch.
    let (status, body) = server.post("/api/tables", &three_seats().to_string()).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("too_many_tables_per_minute")),
        "{body}"
    );
    let new = made["id"].as_str().unwrap();
    play_out(&server, new, &seated).await;
    let (status, body) = rematch(&server, new, seated[0].as_deref()).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("too_many_tables_per_minute")),
        "{body}"
    );
}
