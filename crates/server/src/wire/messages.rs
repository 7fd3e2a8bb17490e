//! The WebSocket messages and the health answer.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use super::*;

/// WebSocket, client to server.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    /// The first message: the seat token, or none to watch.
    Hello {
        #[serde(default)]
        #[ts(optional)]
        token: Option<String>,
    },
    Action {
        #[ts(as = "f64")]
        version: u64,
        #[schema(value_type = WireAction)]
        #[ts(as = "WireAction")]
        action: GameAction,
    },
}

/// WebSocket, server to client.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    State {
        view: Box<TableView>,
    },
    Error {
        message: String,
        code: ErrorCode,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        why: Option<Reason>,
    },
}

/// Whether a node takes work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "lowercase")]
pub enum NodeStatus {
    Ready,
    /// Serving (the database answers) but cut off from NATS: moves still work, other
    /// nodes' news comes late. Still 200, so that a balancer keeps the node.
    Degraded,
    /// Stopping: it hands its tables over and takes no new connections.
    Draining,
}

/// `GET /api/health`: for load balancers and operators.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct Health {
    pub status: NodeStatus,
    /// This node's name (`single` without a cluster).
    pub node: String,
    pub database: bool,
    /// Whether NATS is connected; `null` on a single node.
    pub nats: Option<bool>,
    pub loaded_tables: usize,
}
