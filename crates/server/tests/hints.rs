//! Hints cost a core for up to seconds: they open only while a game runs, are limited
//! per seat and per address (429 with Retry-After), wait in a bounded queue (a full
//! one answers 429), and a repeated hint for the same position costs nothing.

mod common;

use std::time::Duration;

use common::{start_with, temp_sqlite, TestServer};
use serde_json::{json, Value};
use server::hints::HintLimits;
use server::HubOptions;

fn options(hints: HintLimits) -> HubOptions {
    HubOptions {
        bot_delay: Duration::ZERO,
        max_open_tables_per_address: 0,
        tables_per_minute_per_address: 0,
        chosen_seeds_with_people: true,
        hints,
        ..common::defaults()
    }
}

/// A table of two people whose creator turned hints on.
fn rummikub_table(seed: u64) -> Value {
    json!({"game": "rummikub", "rummikub": {"rules": "current", "turn_seconds": null},
           "seats": [{"kind": "human"}, {"kind": "human"}], "seed": seed, "hints": true})
}

fn rumis_table(seats: Value) -> Value {
    json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2}, "seats": seats, "seed": 7, "hints": true})
}

/// A hint request's status, body and `Retry-After`.
async fn hint(
    server: &TestServer,
    id: &str,
    token: &str,
    objective: &str,
) -> (u16, Value, Option<u64>) {
    let response = server
        .client
        .get(format!(
            "{}/api/tables/{id}/hint?objective={objective}",
            server.base
        ))
        .header("x-seat-token", token)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let retry = response
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().parse().unwrap());
    (status, response.json().await.unwrap_or(Value::Null), retry)
}

/// A counter or gauge of `/metrics`.
async fn metric(server: &TestServer, name: &str) -> f64 {
    let text = server
        .client
        .get(format!("{}/metrics", server.base))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    text.lines()
        .find(|l| {
            l.starts_with(&format!("rumi_{name}{{")) || l.starts_with(&format!("rumi_{name} "))
        })
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no metric {name} in {text}"))
}

#[tokio::test]
async fn hints_are_limited_per_seat_and_per_address_and_repeats_are_free() {
    let server = start_with(
        &temp_sqlite("hint-limits"),
        options(HintLimits {
            per_minute_per_seat: 2,
            per_minute_per_address: 3,
            ..HintLimits::default()
        }),
    )
    .await;
    let (id, tokens) = server.create(rummikub_table(5)).await;
    let (a, b) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    // Seat 1: two positions (each objective is its own hint), its minute's worth.
    for objective in ["tiles", "value"] {
        let (status, body, _) = hint(&server, &id, &a, objective).await;
        assert_eq!(status, 200, "{body}");
    }
    // Asking again for the same position is answered, from the cache: no limit.
    let (status, _, _) = hint(&server, &id, &a, "tiles").await;
    assert_eq!(status, 200);
    assert_eq!(metric(&server, "hints_cached_total").await, 1.0);
    // A new position (someone drew): seat 1 is over its limit.
    let view = server.view(&id, None).await;
    let mover = view["to_move"].as_u64().unwrap() as usize;
    let (status, body) = server
        .act(
            &id,
            [&a, &b][mover],
            view["version"].as_u64().unwrap(),
            json!({"type": "draw"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body, retry) = hint(&server, &id, &a, "tiles").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("too_many_hints")),
        "{body}"
    );
    assert!(
        body["error"].as_str().unwrap().contains("your seat"),
        "{body}"
    );
    assert!(retry.is_some_and(|s| s >= 1), "Retry-After: {retry:?}");
    // Seat 2 has its own seat's limit but shares the address's: one more, then 429.
    let (status, body, _) = hint(&server, &id, &b, "tiles").await;
    assert_eq!(status, 200, "{body}");
    let (status, body, retry) = hint(&server, &id, &b, "value").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("too_many_hints")),
        "{body}"
    );
    assert!(
        body["error"].as_str().unwrap().contains("your address"),
        "{body}"
    );
    assert!(retry.is_some_and(|s| s >= 1), "Retry-After: {retry:?}");
    assert_eq!(metric(&server, "hints_computed_total").await, 3.0);
    assert_eq!(metric(&server, "hints_refused_total").await, 2.0);
}

#[tokio::test]
async fn hints_open_when_the_game_starts_and_close_when_it_ends() {
    let server = start_with(
        &temp_sqlite("hint-window"),
        options(HintLimits {
            rumis_search: Duration::from_millis(50),
            ..HintLimits::default()
        }),
    )
    .await;
    // Two invited people; only the creator has opened the table.
    let created = server.create_raw(rummikub_table(3)).await;
    let id = created["id"].as_str().unwrap();
    let token = created["you"]["token"].as_str().unwrap();
    let (status, body, _) = hint(&server, id, token, "tiles").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("not_started")),
        "{body}"
    );
    // The other takes their seat with the link: the game starts, hints open.
    let invite = common::token_of_link(created["seats"][1]["invite"].as_str().unwrap());
    server.claim(id, &invite).await;
    let (status, body, _) = hint(&server, id, token, "tiles").await;
    assert_eq!(status, 200, "{body}");

    // A game played to its end (the person hands their seat to a bot): no more hints.
    let (id, tokens) = server
        .create(rumis_table(
            json!([{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]),
        ))
        .await;
    let token = tokens[0].clone().unwrap();
    let (status, body) = server
        .post_as(
            &format!("/api/tables/{id}/seats/0/bot"),
            &token,
            r#"{"bot": "greedy"}"#,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    server.wait_for(&id, None, |v| v["over"] == true).await;
    let (status, body, _) = hint(&server, &id, &token, "tiles").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("game_over")),
        "{body}"
    );
}

#[tokio::test]
async fn a_full_hint_queue_answers_429_but_a_repeated_hint_is_still_answered() {
    // One hint at a time, and a Rumis search long enough to be caught running: the
    // next two requests must arrive while it runs, also on a loaded machine.
    let server = start_with(
        &temp_sqlite("hint-queue"),
        options(HintLimits {
            per_minute_per_seat: 0,
            per_minute_per_address: 0,
            max_queued: 1,
            rumis_search: Duration::from_secs(10),
        }),
    )
    .await;
    let (rumis, tokens) = server
        .create(rumis_table(json!([{"kind": "human"}, {"kind": "human"}])))
        .await;
    let mover = server.view(&rumis, None).await["to_move"].as_u64().unwrap() as usize;
    let token = tokens[mover].clone().unwrap();
    let (other, other_tokens) = server.create(rummikub_table(9)).await;
    let other_token = other_tokens[0].clone().unwrap();

    let first = {
        let (base, rumis, token) = (server.base.clone(), rumis.clone(), token.clone());
        tokio::spawn(async move {
            reqwest::Client::new()
                .get(format!("{base}/api/tables/{rumis}/hint"))
                .header("x-seat-token", token)
                .send()
                .await
                .unwrap()
                .json::<Value>()
                .await
                .unwrap()
        })
    };
    while metric(&server, "hints_queued").await < 1.0 {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // The queue is full: another position's hint is refused at once …
    let (status, body, retry) = hint(&server, &other, &other_token, "tiles").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("hints_busy")),
        "{body}"
    );
    assert!(retry.is_some_and(|s| s >= 1), "Retry-After: {retry:?}");
    // … but the same hint again joins the one being computed.
    let (status, again, _) = hint(&server, &rumis, &token, "tiles").await;
    assert_eq!(status, 200, "{again}");
    let first = first.await.unwrap();
    assert_eq!(first["moves"].as_array().unwrap().len(), 3, "{first}");
    assert_eq!(again, first);
    // Later, from the cache.
    let (status, third, _) = hint(&server, &rumis, &token, "tiles").await;
    assert_eq!((status, &third), (200, &first));
    assert_eq!(metric(&server, "hints_computed_total").await, 1.0);
    assert_eq!(metric(&server, "hints_cached_total").await, 2.0);
    assert_eq!(metric(&server, "hints_queued").await, 0.0);
}

#[tokio::test]
async fn hints_are_a_table_setting_on_at_practice_tables_and_refused_where_off() {
    let server = start_with(&temp_sqlite("hint-setting"), options(HintLimits::default())).await;
    let rummikub = |seats: Value| {
        json!({"game": "rummikub", "rummikub": {"rules": "current", "turn_seconds": null},
               "seats": seats, "seed": 5})
    };
    let people = json!([{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bo"}]);
    let practice = json!([{"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "greedy"}]);

    // Two people: off by default, shown to every seat and to spectators, refused.
    let (id, tokens) = server.create(rummikub(people.clone())).await;
    for token in [None, tokens[0].as_deref(), tokens[1].as_deref()] {
        assert_eq!(server.view(&id, token).await["hints"], false);
    }
    for token in tokens.iter().flatten() {
        let (status, body, _) = hint(&server, &id, token, "tiles").await;
        assert_eq!(
            (status, body["code"].as_str()),
            (403, Some("hints_off")),
            "{body}"
        );
        assert!(
            body["error"].as_str().unwrap().contains("hints are off"),
            "{body}"
        );
    }
    // A practice table (every other seat a bot): on by default, and given.
    let (id, tokens) = server.create(rummikub(practice.clone())).await;
    assert_eq!(server.view(&id, None).await["hints"], true);
    let (status, body, _) = hint(&server, &id, tokens[0].as_deref().unwrap(), "tiles").await;
    assert_eq!(status, 200, "{body}");

    // The creator may choose otherwise: on for people, off for practice.
    let mut chosen = rummikub(people);
    chosen["hints"] = json!(true);
    let (id, tokens) = server.create(chosen).await;
    assert_eq!(server.view(&id, None).await["hints"], true);
    let (status, body, _) = hint(&server, &id, tokens[1].as_deref().unwrap(), "tiles").await;
    assert_eq!(status, 200, "{body}");
    let mut chosen = rummikub(practice);
    chosen["hints"] = json!(false);
    let (id, tokens) = server.create(chosen).await;
    assert_eq!(server.view(&id, None).await["hints"], false);
    let (status, body, _) = hint(&server, &id, tokens[0].as_deref().unwrap(), "tiles").await;
    assert_eq!((status, body["code"].as_str()), (403, Some("hints_off")));
    // Not a boolean: refused, naming the field.
    let mut bad = rummikub(json!([{"kind": "human"}, {"kind": "bot"}]));
    bad["hints"] = json!("yes");
    let (status, body) = server.post("/api/tables", &bad.to_string()).await;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("hints"), "{body}");

    // The lobby shows the setting with each table: an open seat is a person's seat.
    let open = |hints: Option<bool>| {
        let mut body = json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2},
                              "seats": [{"kind": "human"}, {"kind": "open"}]});
        if let Some(hints) = hints {
            body["hints"] = json!(hints);
        }
        body
    };
    let default = server.create_raw(open(None)).await["id"].clone();
    let chosen = server.create_raw(open(Some(true))).await["id"].clone();
    let (status, lobby) = server.get("/api/tables").await;
    assert_eq!(status, 200);
    let hints_of = |id: &Value| {
        lobby["tables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| &t["id"] == id)
            .unwrap_or_else(|| panic!("{id} in the lobby: {lobby}"))["settings"]["hints"]
            .clone()
    };
    assert_eq!(hints_of(&default), false);
    assert_eq!(hints_of(&chosen), true);
}
