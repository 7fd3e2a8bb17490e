//! The client behind a trusted balancer (`rumi serve --trusted-proxy CIDR`). Its
//! connections carry the client's address in `X-Forwarded-For`, the one header rumi
//! reads (HAProxy's `option forwardfor`; `Forwarded` is ignored, so a client cannot
//! slip in a header that the proxy does not clean). Every proxy appends the address it
//! saw, so the client is the rightmost address that is not itself a trusted proxy:
//! what a client writes into the header itself stays to the left of it and is never
//! believed. A missing, `unknown` or unreadable address counts as the proxy
//! connection's own address, never as nobody. A connection from anyone else keeps its
//! own address, whatever headers it sends.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use ipnet::IpNet;

use super::connections::{ConnectionSlot, Connections};
use super::Limits;

/// The header a trusted proxy writes the client's address into.
pub const FORWARDED_FOR: &str = "x-forwarded-for";

/// A trusted proxy as `rumi serve --trusted-proxy` takes it: a network
/// (`10.0.0.0/8`) or one address (`127.0.0.1`).
pub fn parse_proxy(text: &str) -> Result<IpNet, String> {
    text.parse::<IpNet>()
        .or_else(|_| text.parse::<IpAddr>().map(IpNet::from))
        .map_err(|_| {
            format!("`{text}` is neither an address nor a network (CIDR, e.g. 10.0.0.0/8)")
        })
}

/// The client a trusted proxy at `proxy` forwarded, from the request's
/// `X-Forwarded-For`: the rightmost address that is no trusted proxy, or `proxy` itself
/// when the header names no readable one.
pub fn client_behind(headers: &HeaderMap, trusted: &[IpNet], proxy: IpAddr) -> IpAddr {
    let Some(hops) = x_forwarded_for(headers) else {
        return proxy;
    };
    let mut last = None;
    for hop in hops.iter().rev() {
        let Some(ip) = *hop else {
            return proxy;
        };
        if !trusted.iter().any(|net| net.contains(&ip)) {
            return ip;
        }
        last = Some(ip);
    }
    // Every hop a trusted proxy: the first of them is the client.
    last.unwrap_or(proxy)
}

/// An address as a proxy writes it: `192.0.2.60`, `192.0.2.60:4711`,
/// `[2001:db8::17]` or `[2001:db8::17]:4711`.
fn node_address(node: &str) -> Option<IpAddr> {
    if let Some(rest) = node.strip_prefix('[') {
        return rest.split_once(']')?.0.parse().ok();
    }
    node.parse()
        .ok()
        .or_else(|| node.parse::<SocketAddr>().ok().map(|s| s.ip()))
}

/// The hops of every `X-Forwarded-For` header, in order (`None` for one that is not an
/// address); `None` without the header.
fn x_forwarded_for(headers: &HeaderMap) -> Option<Vec<Option<IpAddr>>> {
    let mut hops = Vec::new();
    for value in headers.get_all(FORWARDED_FOR) {
        match value.to_str() {
            Ok(text) => hops.extend(text.split(',').map(|hop| node_address(hop.trim()))),
            Err(_) => hops.push(None),
        }
    }
    (!hops.is_empty()).then_some(hops)
}

/// What the forwarding middleware needs.
pub(super) struct Forwarding {
    pub(super) trusted: Vec<IpNet>,
    pub(super) connections: Arc<Connections>,
    pub(super) limits: Limits,
}

/// On a trusted proxy's connection: the request's address becomes the client's
/// (`ConnectInfo`, which every per-address limit reads), and the client takes a place
/// in the connection counts for as long as the request (or its WebSocket) lives, or
/// is refused like a connection over its caps.
pub(super) async fn forwarded_client(
    State(forwarding): State<Arc<Forwarding>>,
    mut request: Request,
    next: Next,
) -> Response {
    let Some(ConnectInfo(peer)) = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .copied()
    else {
        return next.run(request).await;
    };
    if !forwarding
        .trusted
        .iter()
        .any(|net| net.contains(&peer.ip()))
    {
        return next.run(request).await;
    }
    let client = client_behind(request.headers(), &forwarding.trusted, peer.ip());
    let via = request.extensions().get::<ConnectionSlot>().cloned();
    match forwarding
        .connections
        .open_forwarded(client, via, &forwarding.limits)
    {
        Ok(slot) => {
            request.extensions_mut().insert(slot);
            request
                .extensions_mut()
                .insert(ConnectInfo(SocketAddr::new(client, peer.port())));
            next.run(request).await
        }
        Err(refusal) => refusal.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (name, value) in pairs {
            h.append(*name, HeaderValue::from_str(value).unwrap());
        }
        h
    }

    fn nets(list: &[&str]) -> Vec<IpNet> {
        list.iter().map(|n| n.parse().unwrap()).collect()
    }

    const PROXY: &str = "10.0.0.2";

    fn behind(h: &HeaderMap, trusted: &[IpNet]) -> IpAddr {
        client_behind(h, trusted, PROXY.parse().unwrap())
    }

    #[test]
    fn the_client_is_the_rightmost_address_that_is_no_trusted_proxy() {
        let trusted = nets(&["10.0.0.0/8"]);
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        // A client that writes its own header is believed only for what it cannot
        // forge: the address the proxy appended.
        let h = headers(&[("x-forwarded-for", "1.2.3.4, 203.0.113.9, 10.0.0.2")]);
        assert_eq!(behind(&h, &trusted), ip("203.0.113.9"));
        let h = headers(&[("x-forwarded-for", "[2001:db8::17]:4711")]);
        assert_eq!(behind(&h, &trusted), ip("2001:db8::17"));
        // Two headers read as one list.
        let h = headers(&[
            ("x-forwarded-for", "198.51.100.1"),
            ("x-forwarded-for", "198.51.100.3"),
        ]);
        assert_eq!(behind(&h, &trusted), ip("198.51.100.3"));
    }

    #[test]
    fn a_forwarded_header_is_never_believed() {
        let trusted = nets(&["10.0.0.0/8"]);
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        let h = headers(&[("forwarded", "for=198.51.100.7")]);
        assert_eq!(behind(&h, &trusted), ip(PROXY));
        let h = headers(&[
            ("forwarded", "for=198.51.100.2"),
            ("x-forwarded-for", "198.51.100.1"),
        ]);
        assert_eq!(behind(&h, &trusted), ip("198.51.100.1"));
    }

    #[test]
    fn no_address_or_a_garbled_one_counts_as_the_proxys_own() {
        let trusted = nets(&["10.0.0.0/8"]);
        let proxy = PROXY.parse::<IpAddr>().unwrap();
        assert_eq!(behind(&HeaderMap::new(), &trusted), proxy);
        for garbled in ["1.2.3.4, not-an-address", "unknown", "_hidden", ""] {
            let h = headers(&[("x-forwarded-for", garbled)]);
            assert_eq!(behind(&h, &trusted), proxy, "{garbled}");
        }
    }
}
