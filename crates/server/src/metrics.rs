//! What an operator watches, in the Prometheus text format at `/metrics`: actions
//! and their latency, tables in memory, live connections, lease take-overs, and how
//! late news from other nodes arrives.

use prometheus::{Encoder, Histogram, HistogramOpts, IntCounter, IntGauge, Registry, TextEncoder};

pub struct Metrics {
    registry: Registry,
    /// Actions accepted (stored) by this node.
    pub actions: IntCounter,
    /// From reading an action to having stored it.
    pub action_latency: Histogram,
    /// Tables in this node's memory.
    pub loaded_tables: IntGauge,
    /// Open WebSockets.
    pub websockets: IntGauge,
    /// Tables whose lease this node took from a node that stopped renewing it.
    pub lease_takeovers: IntCounter,
    /// From another node's publish to this node's receipt.
    pub nats_lag: Histogram,
}

impl Metrics {
    pub fn new(node: &str) -> Metrics {
        let registry = Registry::new_custom(
            Some("rumi".into()),
            Some([("node".to_string(), node.to_string())].into()),
        )
        .expect("a valid registry");
        let buckets = vec![
            0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0,
        ];
        let actions =
            IntCounter::new("actions_total", "Actions stored by this node").expect("metric");
        let action_latency = Histogram::with_opts(
            HistogramOpts::new(
                "action_seconds",
                "Time from reading an action to having stored it",
            )
            .buckets(buckets.clone()),
        )
        .expect("metric");
        let loaded_tables =
            IntGauge::new("loaded_tables", "Tables in this node's memory").expect("metric");
        let websockets = IntGauge::new("websockets", "Open WebSocket connections").expect("metric");
        let lease_takeovers = IntCounter::new(
            "lease_takeovers_total",
            "Tables taken over from a node that stopped renewing its lease",
        )
        .expect("metric");
        let nats_lag = Histogram::with_opts(
            HistogramOpts::new(
                "nats_lag_seconds",
                "Time from another node's publish to this node's receipt",
            )
            .buckets(buckets),
        )
        .expect("metric");
        for metric in [
            Box::new(actions.clone()) as Box<dyn prometheus::core::Collector>,
            Box::new(action_latency.clone()),
            Box::new(loaded_tables.clone()),
            Box::new(websockets.clone()),
            Box::new(lease_takeovers.clone()),
            Box::new(nats_lag.clone()),
        ] {
            registry.register(metric).expect("metric registered once");
        }
        Metrics {
            registry,
            actions,
            action_latency,
            loaded_tables,
            websockets,
            lease_takeovers,
            nats_lag,
        }
    }

    /// Every metric in the Prometheus text format.
    pub fn render(&self) -> String {
        let mut out = Vec::new();
        TextEncoder::new()
            .encode(&self.registry.gather(), &mut out)
            .expect("text encoding");
        String::from_utf8(out).unwrap_or_default()
    }
}
