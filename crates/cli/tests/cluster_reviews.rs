//! Reviews in a cluster: two `rumi serve` nodes on one PostgreSQL database with NATS
//! between them. Asked for on both nodes at once, again and again, a game's review is
//! computed by exactly one of them (`rumi_reviews_computed_total` summed over the
//! nodes), and both answer the same document; a node killed while it computes a review
//! leaves a claim that the other takes over once it expires.

mod common;

use std::time::{Duration, Instant};

use common::{serve_with, temp_postgres, Nats, Served};
use serde_json::{json, Value};

fn node(db: &str, nats: &Nats, name: &str, playouts: &str) -> Served {
    let url = nats.url();
    serve_with(
        db,
        &[
            "--nats",
            &url,
            "--node-id",
            name,
            "--lease-seconds",
            "2",
            "--bot-delay-ms",
            "0",
            "--max-open-tables-per-address",
            "0",
            "--tables-per-minute-per-address",
            "0",
            "--reviews-per-minute-per-address",
            "0",
            "--review-playouts",
            playouts,
            "--review-claim-seconds",
            "3",
        ],
    )
}

async fn get(base: &str, path: &str) -> (u16, Value) {
    let response = reqwest::get(format!("{base}{path}")).await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// A bots-only table created on `base` and played to its end.
async fn finished(base: &str, body: Value) -> String {
    let response = reqwest::Client::new()
        .post(format!("{base}/api/tables"))
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let created: Value = response.json().await.unwrap();
    let id = created["id"].as_str().expect("a table").to_string();
    let deadline = Instant::now() + Duration::from_secs(120);
    while get(base, &format!("/api/tables/{id}")).await.1["over"] != true {
        assert!(Instant::now() < deadline, "the bots never finished {id}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    id
}

async fn computed(base: &str) -> u64 {
    let text = reqwest::get(format!("{base}/metrics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    text.lines()
        .find(|l| l.starts_with("rumi_reviews_computed_total{"))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no rumi_reviews_computed_total in\n{text}"))
}

/// Asks every node for the review until each answers it ready; the documents.
async fn ready_everywhere(bases: &[String], id: &str) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut ready = vec![Value::Null; bases.len()];
    while ready.iter().any(Value::is_null) {
        for (n, base) in bases.iter().enumerate() {
            let (status, review) = get(base, &format!("/api/tables/{id}/review")).await;
            assert_eq!(status, 200, "{review}");
            if review["status"] == "ready" {
                ready[n] = review;
            }
        }
        assert!(
            Instant::now() < deadline,
            "the review of {id} never got ready"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    ready
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL and NATS"]
async fn a_review_is_computed_once_in_a_cluster_and_taken_over_from_a_stopped_node() {
    let db = temp_postgres("cluster_reviews");
    let nats = Nats::start();
    let first = node(&db, &nats, "r1", "300");
    let second = node(&db, &nats, "r2", "300");
    let bases = [first.base.clone(), second.base.clone()];

    // A Rumis game and a Rummikub game, each asked for on both nodes at once.
    let rumis = finished(
        &bases[0],
        json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2},
               "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}],
               "seed": 31}),
    )
    .await;
    let rummikub = finished(
        &bases[1],
        json!({"game": "rummikub", "rummikub": {"turn_seconds": null},
               "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"},
                         {"kind": "bot", "bot": "keeper"}],
               "seed": 32}),
    )
    .await;
    for id in [&rumis, &rummikub] {
        let path = format!("/api/tables/{id}/review");
        let asks = (0..8).map(|n| get(&bases[n % 2], &path));
        for (status, answer) in futures_util::future::join_all(asks).await {
            assert_eq!(status, 200, "{answer}");
        }
        let documents = ready_everywhere(&bases, id).await;
        assert_eq!(
            documents[0], documents[1],
            "both nodes answer the one review"
        );
        assert!(!documents[0]["turns"].as_array().unwrap().is_empty());
    }
    assert_eq!(
        computed(&bases[0]).await + computed(&bases[1]).await,
        2,
        "each review computed by exactly one node"
    );

    // A node killed mid-review: its claim expires and the other node computes it.
    drop(first);
    let slow = node(&db, &nats, "r3", "20000");
    let id = finished(
        &slow.base,
        json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2},
               "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}],
               "seed": 33}),
    )
    .await;
    let (status, started) = get(&slow.base, &format!("/api/tables/{id}/review")).await;
    assert_eq!((status, started["status"].as_str()), (200, Some("pending")));
    // Until r3 renews its claim with some progress, which r2 then reports too.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let (_, seen) = get(&bases[1], &format!("/api/tables/{id}/review")).await;
        if seen["progress"].as_f64().unwrap() > 0.0 {
            assert_eq!(seen["status"], "pending");
            break;
        }
        assert!(Instant::now() < deadline, "r2 never saw r3's progress");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let before = computed(&bases[1]).await;
    slow.kill_9();
    let documents = ready_everywhere(&bases[1..], &id).await;
    assert_eq!(documents[0]["rumis"]["playouts"], 300, "computed by r2");
    assert_eq!(
        computed(&bases[1]).await,
        before + 1,
        "r2 took the review over"
    );
}
