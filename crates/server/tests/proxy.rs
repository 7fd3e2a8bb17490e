//! Behind a balancer (`rumi serve --trusted-proxy`, issue 47): the client's address
//! comes from `X-Forwarded-For` only, and only on a trusted proxy's connections, and
//! every per-address limit then counts that client. A `Forwarded` header, which a
//! client may write and a proxy may pass on, is never believed (issue 56), and a
//! missing or unreadable address counts as the proxy's own.

mod common;

use futures_util::SinkExt;
use serde_json::json;
use server::HubOptions;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use common::{start_full, temp_sqlite, TestServer};

/// One table a minute per address; the other caps off.
fn one_table_a_minute() -> HubOptions {
    HubOptions {
        tables_per_minute_per_address: 1,
        max_open_tables_per_address: 0,
        max_open_seats_per_address: 0,
        max_open_seats_per_table_per_address: 0,
        ..common::defaults()
    }
}

fn limits(trusted: &[&str], per_ip: usize) -> server::Limits {
    server::Limits {
        trusted_proxies: trusted
            .iter()
            .map(|t| server::transport::parse_proxy(t).unwrap())
            .collect(),
        max_connections_per_ip: per_ip,
        ..server::Limits::default()
    }
}

async fn create_from(server: &TestServer, header: (&str, &str)) -> (u16, String) {
    create_with(server, &[header]).await
}

/// Creates a table with these request headers: the status and the refusal's code.
async fn create_with(server: &TestServer, headers: &[(&str, &str)]) -> (u16, String) {
    let body = json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2},
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]});
    let mut request = server
        .client
        .post(format!("{}/api/tables", server.base))
        .header("content-type", "application/json");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.body(body.to_string()).send().await.unwrap();
    let status = response.status().as_u16();
    let body: serde_json::Value = response.json().await.unwrap();
    (status, body["code"].as_str().unwrap_or("").to_string())
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_client_has_its_own_limits() {
    let db = temp_sqlite("proxy_trusted");
    let server = start_full(&db, one_table_a_minute(), None, limits(&["127.0.0.1"], 64)).await;
    let a = ("x-forwarded-for", "198.51.100.1, 203.0.113.5");
    assert_eq!(create_from(&server, a).await.0, 200);
    assert_eq!(
        create_from(&server, a).await,
        (429, "too_many_tables_per_minute".into())
    );
    // Another client behind the same balancer is not held back; nor does a client
    // escape its limit by writing another address in front of the proxy's.
    assert_eq!(
        create_from(&server, ("x-forwarded-for", "203.0.113.6"))
            .await
            .0,
        200
    );
    assert_eq!(
        create_from(&server, ("x-forwarded-for", "192.0.2.99, 203.0.113.5"))
            .await
            .0,
        429
    );
}

#[tokio::test]
async fn without_the_flag_forwarded_addresses_are_ignored() {
    let db = temp_sqlite("proxy_untrusted");
    // A proxy is trusted, but not the address these requests come from.
    let server = start_full(&db, one_table_a_minute(), None, limits(&["10.0.0.0/8"], 64)).await;
    assert_eq!(
        create_from(&server, ("x-forwarded-for", "203.0.113.5"))
            .await
            .0,
        200
    );
    assert_eq!(
        create_from(&server, ("x-forwarded-for", "203.0.113.6")).await,
        (429, "too_many_tables_per_minute".into()),
        "the same real address"
    );
}

#[tokio::test]
async fn open_connections_are_counted_per_forwarded_client() {
    let db = temp_sqlite("proxy_connections");
    let server = start_full(&db, one_table_a_minute(), None, limits(&["127.0.0.1"], 2)).await;
    let (_, created) = server
        .post(
            "/api/tables",
            &json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2},
                "seats": [{"kind": "human"}, {"kind": "open"}]})
            .to_string(),
        )
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let url = format!(
        "{}/api/tables/{id}/ws",
        server.base.replace("http://", "ws://")
    );
    let connect = |client: &'static str| {
        let mut request = url.clone().into_client_request().unwrap();
        request
            .headers_mut()
            .insert("x-forwarded-for", client.parse().unwrap());
        tokio_tungstenite::connect_async(request)
    };
    let mut held = Vec::new();
    for _ in 0..2 {
        let (mut socket, _) = connect("203.0.113.7").await.unwrap();
        socket
            .send(json!({"type": "hello", "token": null}).to_string().into())
            .await
            .unwrap();
        held.push(socket);
    }
    match connect("203.0.113.7").await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), 429);
            let body =
                String::from_utf8_lossy(response.body().as_deref().unwrap_or(&[])).to_string();
            assert!(body.contains("too_many_connections"), "{body}");
        }
        other => panic!("a third socket of one client: {:?}", other.map(|_| ())),
    }
    // Another client behind the same balancer still gets in.
    assert!(connect("203.0.113.8").await.is_ok());
    // Once one socket closes, the client gets its place back.
    drop(held.pop());
    let mut again = None;
    for _ in 0..1000 {
        if let Ok(socket) = connect("203.0.113.7").await {
            again = Some(socket);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert!(again.is_some(), "the closed socket's place is given back");
}

/// The attack of issue 56: through a proxy that passes a client's `Forwarded` header
/// on, each request named another address and so escaped every per-address limit;
/// `for=unknown` counted against nobody.
#[tokio::test]
async fn a_forwarded_header_or_an_unknown_address_escapes_no_limit() {
    let db = temp_sqlite("proxy_forwarded");
    let server = start_full(&db, one_table_a_minute(), None, limits(&["127.0.0.1"], 64)).await;
    // What the proxy appended is the one address this client has.
    let real = ("x-forwarded-for", "203.0.113.20");
    assert_eq!(
        create_with(&server, &[("forwarded", "for=198.51.100.1"), real])
            .await
            .0,
        200
    );
    for n in 2..6 {
        let forged = format!("for=198.51.100.{n}");
        assert_eq!(
            create_with(&server, &[("forwarded", &forged), real]).await,
            (429, "too_many_tables_per_minute".into()),
            "{forged}"
        );
    }
    // Without a readable address the proxy's own address is counted: once, then 429.
    assert_eq!(
        create_from(&server, ("forwarded", "for=unknown")).await.0,
        200
    );
    for value in ["unknown", "_hidden", "203.0.113.21, not-an-address"] {
        assert_eq!(
            create_from(&server, ("x-forwarded-for", value)).await,
            (429, "too_many_tables_per_minute".into()),
            "{value}: unknown clients share the proxy's own address"
        );
    }
}
