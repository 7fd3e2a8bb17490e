//! The WebSocket messages and the health answer.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use super::*;

/// WebSocket, client to server.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    /// The first message: the seat token, or none to watch. With `patches`, views
    /// after the first come as `patch` messages (see `ServerMessage::Patch`).
    Hello {
        #[serde(default)]
        #[ts(optional)]
        token: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        patches: Option<bool>,
    },
    /// An action of the socket's seat. With an `id`, the server answers `ack` with
    /// that id once the action is stored, or `error` with that id when it is refused.
    Action {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        id: Option<u32>,
        #[ts(as = "f64")]
        version: u64,
        #[schema(value_type = WireAction)]
        #[ts(as = "WireAction")]
        action: GameAction,
    },
    /// Asks for the whole view again (a patch that did not fit what the client holds).
    Resync,
}

/// WebSocket, server to client.
///
/// `seq` numbers the table's changes as this server saw them: two views with the same
/// `version` may still differ (who is connected, who is away), and `version` with
/// `seq` names exactly the view a client holds. `seq` only grows along one socket.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// The whole view: the first message, the answer to `resync`, and, without
    /// `patches`, every later one (then without what never changes during a game).
    State {
        view: Box<TableView>,
        #[serde(default)]
        #[ts(as = "f64")]
        seq: u64,
    },
    /// What changed since the view (`from`, `from_seq`) this socket sent last: apply
    /// `ops` (RFC 6902) to it to get the view (`version`, `seq`). A client that holds
    /// another view sends `resync`.
    Patch {
        #[ts(as = "f64")]
        from: u64,
        #[ts(as = "f64")]
        from_seq: u64,
        #[ts(as = "f64")]
        version: u64,
        #[ts(as = "f64")]
        seq: u64,
        ops: Vec<PatchOp>,
    },
    /// The action with this `id` is stored; it made the table's `version`. The view
    /// with it (a `state` or `patch`) was sent before this message.
    Ack {
        id: u32,
        #[ts(as = "f64")]
        version: u64,
    },
    Error {
        message: String,
        code: ErrorCode,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        why: Option<Reason>,
        /// The refused action's `id`, when it had one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        id: Option<u32>,
    },
}

/// One operation of a JSON Patch (RFC 6902), of the kinds the server sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum PatchOp {
    Add {
        /// A JSON Pointer (RFC 6901).
        path: String,
        #[schema(value_type = Object)]
        #[ts(type = "unknown")]
        value: serde_json::Value,
    },
    Remove {
        path: String,
    },
    Replace {
        path: String,
        #[schema(value_type = Object)]
        #[ts(type = "unknown")]
        value: serde_json::Value,
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
