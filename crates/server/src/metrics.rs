//! What an operator watches, in the Prometheus text format at `/metrics`: actions
//! and their latency, tables in memory, live connections, lease take-overs, and how
//! late news from other nodes arrives.

use prometheus::{
    Encoder, Histogram, HistogramOpts, IntCounter, IntCounterVec, IntGauge, Opts, Registry,
    TextEncoder,
};

#[derive(Clone)]
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
    /// Hints computed, answered from the cache (or joined to one being computed),
    /// and refused for a limit or a full queue.
    pub hints_computed: IntCounter,
    pub hints_cached: IntCounter,
    pub hints_refused: IntCounter,
    /// Hints waiting for a core or being computed.
    pub hints_queued: IntGauge,
    /// Replays built, and served from the cache.
    pub replays_built: IntCounter,
    pub replays_cached: IntCounter,
    /// Bytes of built replays kept.
    pub replay_cache_bytes: IntGauge,
    /// Reviews computed and stored by this node, refused for a full queue, and
    /// computed or waiting here now.
    pub reviews_computed: IntCounter,
    pub reviews_refused: IntCounter,
    pub reviews_pending: IntGauge,
    /// Events this node published on its bus, by event (`events`).
    pub table_events: IntCounterVec,
    /// Events a subscriber lost because it was a whole queue behind.
    pub events_dropped: IntCounter,
    /// Events this node heard from other nodes through NATS, by event.
    pub table_events_heard: IntCounterVec,
    /// Views built for live sockets, by viewer (`seat` or `spectator`): one per change
    /// and viewer however many sockets watch (`hub::views`).
    pub views_built: IntCounterVec,
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
        let counter = |name: &str, help: &str| IntCounter::new(name, help).expect("metric");
        let hints_computed = counter("hints_computed_total", "Hints computed");
        let hints_cached = counter(
            "hints_cached_total",
            "Hints answered from the cache or joined to one being computed",
        );
        let hints_refused = counter(
            "hints_refused_total",
            "Hints refused for a rate limit or a full queue",
        );
        let hints_queued =
            IntGauge::new("hints_queued", "Hints waiting or being computed").expect("metric");
        let replays_built = counter("replays_built_total", "Replays built");
        let replays_cached = counter("replays_cached_total", "Replays served from the cache");
        let replay_cache_bytes =
            IntGauge::new("replay_cache_bytes", "Bytes of built replays kept").expect("metric");
        let reviews_computed = counter("reviews_computed_total", "Reviews computed and stored");
        let reviews_refused = counter("reviews_refused_total", "Reviews refused: too many pending");
        let reviews_pending =
            IntGauge::new("reviews_pending", "Reviews computed or waiting here").expect("metric");
        let table_events = IntCounterVec::new(
            Opts::new("table_events_total", "Events this node published, by event"),
            &["event"],
        )
        .expect("metric");
        let table_events_heard = IntCounterVec::new(
            Opts::new(
                "table_events_heard_total",
                "Events this node heard from other nodes, by event",
            ),
            &["event"],
        )
        .expect("metric");
        let events_dropped = counter(
            "events_dropped_total",
            "Events a subscriber lost because it was a whole queue behind",
        );
        let views_built = IntCounterVec::new(
            Opts::new(
                "views_built_total",
                "Views built for live sockets, by viewer (seat or spectator)",
            ),
            &["viewer"],
        )
        .expect("metric");
        for metric in [
            Box::new(actions.clone()) as Box<dyn prometheus::core::Collector>,
            Box::new(views_built.clone()),
            Box::new(table_events.clone()),
            Box::new(events_dropped.clone()),
            Box::new(table_events_heard.clone()),
            Box::new(action_latency.clone()),
            Box::new(loaded_tables.clone()),
            Box::new(websockets.clone()),
            Box::new(lease_takeovers.clone()),
            Box::new(nats_lag.clone()),
            Box::new(hints_computed.clone()),
            Box::new(hints_cached.clone()),
            Box::new(hints_refused.clone()),
            Box::new(hints_queued.clone()),
            Box::new(replays_built.clone()),
            Box::new(replays_cached.clone()),
            Box::new(replay_cache_bytes.clone()),
            Box::new(reviews_computed.clone()),
            Box::new(reviews_refused.clone()),
            Box::new(reviews_pending.clone()),
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
            hints_computed,
            hints_cached,
            hints_refused,
            hints_queued,
            replays_built,
            replays_cached,
            replay_cache_bytes,
            reviews_computed,
            reviews_refused,
            reviews_pending,
            table_events,
            events_dropped,
            table_events_heard,
            views_built,
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
