//! Views shared by a table's live sockets: each viewer's view (a seat's, or the
//! spectators') is built once per change of the table, under the table's lock, and
//! serialised, and diffed against earlier views, outside it. N spectators of a table
//! thus cost one view build per change, not N.
//!
//! A view is named by the table's change count (`seq`): views contain parts that
//! change without an action (who is connected, who is away), so `version` alone does
//! not name one. The cache keeps only the latest change's views; a socket keeps the
//! view it sent last itself, to diff the next one against it.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use axum::extract::ws::Utf8Bytes;
use parking_lot::Mutex as SyncMutex;
use tokio::sync::OnceCell;

use crate::metrics::Metrics;
use crate::wire::{PatchOp, ServerMessage, TableView};

use super::Table;

/// The views of one table's latest change that sockets asked for.
#[derive(Default)]
pub struct ViewCache {
    latest: SyncMutex<Latest>,
}

#[derive(Default)]
struct Latest {
    seq: u64,
    /// By viewer: a seat, or the spectators (`None`).
    views: HashMap<Option<usize>, Arc<OnceCell<Arc<BuiltView>>>>,
}

/// One viewer's view at one change of the table, with the messages made from it.
pub struct BuiltView {
    /// The table's change count this view was asked for (the view may already show a
    /// later change; it never shows an earlier one).
    pub seq: u64,
    pub version: u64,
    view: TableView,
    /// The view as JSON, which patches are computed between.
    value: serde_json::Value,
    /// The `state` message with the whole view.
    state: OnceLock<Utf8Bytes>,
    /// The `state` message without what never changes during a game (for sockets
    /// that did not ask for patches).
    update: OnceLock<Utf8Bytes>,
    /// The messages that bring a socket from an earlier view (by its `seq`) to this
    /// one: a `patch`, or the `state` when the patch would be larger; `None`: the
    /// views are equal, nothing to send. Sockets of one viewer mostly hold the same
    /// earlier view, so one diff serves them all.
    from: SyncMutex<Vec<(u64, Option<Utf8Bytes>)>>,
}

/// Earlier views a view keeps the way from (sockets that fell further behind get
/// their diff computed again).
const KEPT_WAYS: usize = 4;

impl BuiltView {
    fn new(seq: u64, view: TableView) -> BuiltView {
        let value = serde_json::to_value(&view).expect("a view serialises");
        BuiltView {
            seq,
            version: view.version,
            view,
            value,
            state: OnceLock::new(),
            update: OnceLock::new(),
            from: SyncMutex::new(Vec::new()),
        }
    }

    /// The `state` message with the whole view.
    pub fn state_message(&self) -> Utf8Bytes {
        self.state
            .get_or_init(|| {
                message(&ServerMessage::State {
                    view: Box::new(self.view.clone()),
                    seq: self.seq,
                })
            })
            .clone()
    }

    /// The `state` message without the parts that never change during a game: what a
    /// socket without patches gets after its first view.
    pub fn update_message(&self) -> Utf8Bytes {
        self.update
            .get_or_init(|| {
                message(&ServerMessage::State {
                    view: Box::new(self.view.clone().without_fixed_parts()),
                    seq: self.seq,
                })
            })
            .clone()
    }

    /// What brings a client holding `earlier` (sent by this socket) to this view: a
    /// `patch`, or the whole `state` when that is shorter or the diff has an operation
    /// the protocol does not send; `None` when the two views are equal.
    pub fn message_from(&self, earlier: &BuiltView) -> Option<Utf8Bytes> {
        if let Some((_, way)) = self.from.lock().iter().find(|(s, _)| *s == earlier.seq) {
            return way.clone();
        }
        let way = self.way_from(earlier);
        let mut from = self.from.lock();
        if from.len() >= KEPT_WAYS {
            from.remove(0);
        }
        from.push((earlier.seq, way.clone()));
        way
    }

    fn way_from(&self, earlier: &BuiltView) -> Option<Utf8Bytes> {
        let diff = json_patch::diff(&earlier.value, &self.value);
        if diff.0.is_empty() {
            return None;
        }
        let state = self.state_message();
        let Some(ops) = diff.0.into_iter().map(patch_op).collect::<Option<Vec<_>>>() else {
            return Some(state);
        };
        let patch = message(&ServerMessage::Patch {
            from: earlier.version,
            from_seq: earlier.seq,
            version: self.version,
            seq: self.seq,
            ops,
        });
        Some(if patch.len() < state.len() {
            patch
        } else {
            state
        })
    }
}

/// The protocol's form of an operation `json_patch::diff` made (it makes only these).
fn patch_op(op: json_patch::PatchOperation) -> Option<PatchOp> {
    use json_patch::PatchOperation as Op;
    Some(match op {
        Op::Add(add) => PatchOp::Add {
            path: add.path.to_string(),
            value: add.value,
        },
        Op::Remove(remove) => PatchOp::Remove {
            path: remove.path.to_string(),
        },
        Op::Replace(replace) => PatchOp::Replace {
            path: replace.path.to_string(),
            value: replace.value,
        },
        Op::Move(_) | Op::Copy(_) | Op::Test(_) => return None,
    })
}

fn message(message: &ServerMessage) -> Utf8Bytes {
    serde_json::to_string(message)
        .expect("a server message serialises")
        .into()
}

impl Table {
    /// The view of `viewer` (a seat, or `None`: the spectators) at the table's latest
    /// change. The first socket to ask for it builds it, under the table's lock; the
    /// others wait for that one and share it.
    pub async fn shared_view(&self, viewer: Option<usize>, metrics: &Metrics) -> Arc<BuiltView> {
        let (seq, cell) = {
            let seq = *self.changes.borrow();
            let mut latest = self.views.latest.lock();
            if latest.seq < seq {
                latest.seq = seq;
                latest.views.clear();
            }
            let cell = latest.views.entry(viewer).or_default().clone();
            (latest.seq, cell)
        };
        cell.get_or_init(|| async {
            let view = self.state.lock().await.view(&self.id, viewer);
            metrics
                .views_built
                .with_label_values(&[if viewer.is_some() {
                    "seat"
                } else {
                    "spectator"
                }])
                .inc();
            Arc::new(BuiltView::new(seq, view))
        })
        .await
        .clone()
    }

    /// Forgets the shared views (when no socket watches the table any more), so that an
    /// idle table keeps no copies of its views.
    pub(crate) fn forget_views(&self) {
        let mut latest = self.views.latest.lock();
        latest.views.clear();
    }
}
