//! A finished game's replay is built once, kept, served compressed when the client
//! asks, with a strong ETag (If-None-Match answers 304), and limited per address.

mod common;

use std::io::Read;
use std::time::Duration;

use common::{start_with, temp_sqlite, TestServer};
use serde_json::{json, Value};
use server::replays::ReplayLimits;
use server::HubOptions;

fn options(replays: ReplayLimits) -> HubOptions {
    HubOptions {
        bot_delay: Duration::ZERO,
        max_open_tables_per_address: 0,
        tables_per_minute_per_address: 0,
        replays,
        ..common::defaults()
    }
}

/// A finished Rumis game of two greedy bots.
async fn finished(server: &TestServer) -> String {
    let created = server
        .create_raw(
            json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2},
            "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]}),
        )
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    server.wait_for(&id, None, |v| v["over"] == true).await;
    id
}

struct Fetched {
    status: u16,
    encoding: Option<String>,
    etag: Option<String>,
    retry_after: Option<String>,
    body: Vec<u8>,
}

async fn fetch(server: &TestServer, id: &str, headers: &[(&str, &str)]) -> Fetched {
    let mut request = server
        .client
        .get(format!("{}/api/tables/{id}/replay", server.base));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.unwrap();
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .map(|v| v.to_str().unwrap().to_string())
    };
    Fetched {
        status: response.status().as_u16(),
        encoding: header("content-encoding"),
        etag: header("etag"),
        retry_after: header("retry-after"),
        body: response.bytes().await.unwrap().to_vec(),
    }
}

async fn metric(server: &TestServer, name: &str) -> f64 {
    let text = server.running.app.render_metrics();
    text.lines()
        .find(|l| l.starts_with(&format!("rumi_{name}{{")))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no metric {name}"))
}

#[tokio::test]
async fn a_replay_is_built_once_and_served_compressed_with_an_etag() {
    let server = start_with(
        &temp_sqlite("replay-cache"),
        options(ReplayLimits {
            per_minute_per_address: 0,
            ..ReplayLimits::default()
        }),
    )
    .await;
    let id = finished(&server).await;
    let plain = fetch(&server, &id, &[]).await;
    assert_eq!(plain.status, 200);
    assert_eq!(plain.encoding, None);
    let replay: Value = serde_json::from_slice(&plain.body).unwrap();
    assert_eq!(replay["id"], id.as_str());
    assert!(replay["steps"].as_array().unwrap().len() > 2);
    // A strong ETag; the same bytes and tag every time.
    let etag = plain.etag.clone().expect("an ETag");
    assert!(etag.starts_with('"') && !etag.starts_with("W/"), "{etag}");
    let again = fetch(&server, &id, &[]).await;
    assert_eq!(
        (again.etag.as_ref(), &again.body),
        (Some(&etag), &plain.body)
    );
    // The client has it: 304, no body.
    let unchanged = fetch(&server, &id, &[("if-none-match", &etag)]).await;
    assert_eq!((unchanged.status, unchanged.body.len()), (304, 0));
    assert_eq!(unchanged.etag.as_ref(), Some(&etag));
    let other = fetch(&server, &id, &[("if-none-match", "\"0123\"")]).await;
    assert_eq!(other.status, 200);

    // gzip and brotli when asked for, each the same document, each its own tag.
    let gzip = fetch(&server, &id, &[("accept-encoding", "gzip")]).await;
    assert_eq!(gzip.encoding.as_deref(), Some("gzip"));
    assert!(
        gzip.body.len() * 3 < plain.body.len(),
        "gzip {} of {}",
        gzip.body.len(),
        plain.body.len()
    );
    let mut unzipped = Vec::new();
    flate2::read::GzDecoder::new(&gzip.body[..])
        .read_to_end(&mut unzipped)
        .unwrap();
    assert_eq!(unzipped, plain.body);
    let gzip_tag = gzip.etag.clone().unwrap();
    assert_ne!(gzip_tag, etag);
    let unchanged = fetch(
        &server,
        &id,
        &[("accept-encoding", "gzip"), ("if-none-match", &gzip_tag)],
    )
    .await;
    assert_eq!(unchanged.status, 304);
    let br = fetch(&server, &id, &[("accept-encoding", "gzip, deflate, br")]).await;
    assert_eq!(br.encoding.as_deref(), Some("br"));
    let mut unbrotlied = Vec::new();
    brotli::Decompressor::new(&br.body[..], 4096)
        .read_to_end(&mut unbrotlied)
        .unwrap();
    assert_eq!(unbrotlied, plain.body);
    // `br;q=0`: not brotli.
    let no_br = fetch(&server, &id, &[("accept-encoding", "br;q=0, gzip")]).await;
    assert_eq!(no_br.encoding.as_deref(), Some("gzip"));

    // Built once, served from the cache ever after.
    assert_eq!(metric(&server, "replays_built_total").await, 1.0);
    assert_eq!(metric(&server, "replays_cached_total").await, 7.0);
    assert!(metric(&server, "replay_cache_bytes").await > plain.body.len() as f64);

    // A game still being played has no replay; an unknown table neither.
    let created = server
        .create_raw(
            json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2},
            "seats": [{"kind": "human"}, {"kind": "human"}]}),
        )
        .await;
    let playing = fetch(&server, created["id"].as_str().unwrap(), &[]).await;
    assert_eq!(playing.status, 409);
    let body: Value = serde_json::from_slice(&playing.body).unwrap();
    assert_eq!(body["code"], "not_over");
    assert_eq!(fetch(&server, "t000000000000", &[]).await.status, 404);
}

#[tokio::test]
async fn concurrent_requests_for_a_new_replay_build_it_once() {
    let server = start_with(
        &temp_sqlite("replay-once"),
        options(ReplayLimits {
            per_minute_per_address: 0,
            ..ReplayLimits::default()
        }),
    )
    .await;
    let id = finished(&server).await;
    let fetches = (0..8).map(|_| fetch(&server, &id, &[]));
    let answers = futures_util::future::join_all(fetches).await;
    assert!(answers
        .iter()
        .all(|a| a.status == 200 && a.body == answers[0].body));
    assert_eq!(metric(&server, "replays_built_total").await, 1.0);
}

#[tokio::test]
async fn replays_are_limited_per_address_with_retry_after() {
    let server = start_with(
        &temp_sqlite("replay-rate"),
        options(ReplayLimits {
            per_minute_per_address: 3,
            ..ReplayLimits::default()
        }),
    )
    .await;
    let id = finished(&server).await;
    for _ in 0..3 {
        assert_eq!(fetch(&server, &id, &[]).await.status, 200);
    }
    let refused = fetch(&server, &id, &[]).await;
    assert_eq!(refused.status, 429);
    let body: Value = serde_json::from_slice(&refused.body).unwrap();
    assert_eq!(body["code"], "too_many_replays", "{body}");
    let wait: u64 = refused.retry_after.expect("Retry-After").parse().unwrap();
    assert!((1..=20).contains(&wait), "{wait}");
}
