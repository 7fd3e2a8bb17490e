//! Presence: who is connected or was seen lately, here and (with several nodes,
//! through `rumi_presence`) on the other nodes.

use std::sync::Arc;

use super::{Elsewhere, Hub, HubOptions, Table, TableState};

impl Hub {
    /// Another node saw a player of a table come, go, or act: if this node holds the
    /// table, it reads who is present and shows it.
    pub async fn presence_news(self: &Arc<Self>, id: &str) {
        let loaded = self.tables.lock().get(id).cloned();
        if let Some(table) = loaded {
            let mut state = table.state.lock().await;
            match self.refresh_presence(&table.id, &mut state).await {
                Ok(true) => table.changed(),
                Ok(false) => {}
                Err(e) => tracing::warn!("table {id}: presence not read: {e:#}"),
            }
        }
    }

    /// Reads what the other nodes saw of a table's players (no-op on a single node);
    /// true if that changed.
    pub(super) async fn refresh_presence(
        &self,
        id: &str,
        state: &mut TableState,
    ) -> anyhow::Result<bool> {
        let Some(cluster) = &self.cluster else {
            return Ok(false);
        };
        // What views show: connected, else since when away (a heartbeat of an open
        // connection changes nothing to show).
        let shown = |e: &Elsewhere| (e.connections > 0, e.seen_ms.filter(|_| e.connections == 0));
        let before: Vec<_> = state.seats.iter().map(|s| shown(&s.elsewhere)).collect();
        let sightings = self.store.presence_of(id, &cluster.node).await?;
        // A connection whose node stopped beating is a dead node's.
        let live_after = self.now_ms() - cluster.lease_ttl.as_millis() as i64;
        for seat in &mut state.seats {
            seat.elsewhere = Elsewhere::default();
        }
        for sighting in sightings {
            if let Some(seat) = state.seats.get_mut(sighting.seat) {
                if sighting.connections > 0 && sighting.seen_ms > live_after {
                    seat.elsewhere.connections += sighting.connections;
                }
                seat.elsewhere.seen_ms = Some(
                    seat.elsewhere
                        .seen_ms
                        .map_or(sighting.seen_ms, |s| s.max(sighting.seen_ms)),
                );
            }
        }
        Ok(state
            .seats
            .iter()
            .zip(before)
            .any(|(seat, before)| shown(&seat.elsewhere) != before))
    }

    /// The seat's player was seen now (a request with their token, a connection
    /// opening or closing). With several nodes the others learn it through the
    /// database: at once when a connection opens or the last one closes, otherwise
    /// at most every [`presence_every_ms`].
    pub async fn seen_player(&self, id: &str, state: &mut TableState, seat: usize) {
        state.seen(seat);
        self.write_presence(id, state, seat).await;
    }

    /// Writes this node's sighting of a seat's player if the others' picture of it
    /// is out of date (several nodes only).
    async fn write_presence(&self, id: &str, state: &mut TableState, seat: usize) {
        let Some(cluster) = &self.cluster else {
            return;
        };
        let Some(s) = state.seats.get_mut(seat) else {
            return;
        };
        let now = s.last_seen_ms;
        let live = s.connections > 0;
        let stale = match s.written {
            None => true,
            Some((written_ms, written_live)) => {
                written_live != live
                    || (!live && now - written_ms >= presence_every_ms(&self.options))
            }
        };
        if !stale {
            return;
        }
        match self
            .store
            .set_presence(id, seat, &cluster.node, s.connections, now)
            .await
        {
            Ok(()) => {
                s.written = Some((now, live));
                cluster.publish_presence(id, state.version).await;
            }
            Err(e) => {
                tracing::warn!(
                    "table {id}: presence of seat {} not stored: {e:#}",
                    seat + 1
                );
                s.written = None;
                self.presence_retry.lock().insert((id.to_string(), seat));
            }
        }
    }

    /// The heartbeat (several nodes): the players connected here are still here;
    /// sightings the database refused before are written again.
    pub async fn presence_heartbeat(&self, now: i64) {
        let Some(cluster) = &self.cluster else { return };
        if let Err(e) = self.store.presence_heartbeat(&cluster.node, now).await {
            tracing::warn!("presence heartbeat not stored: {e:#}");
        }
        let failed = std::mem::take(&mut *self.presence_retry.lock());
        for (id, seat) in failed {
            let loaded = self.tables.lock().get(&id).cloned();
            match loaded {
                Some(table) => {
                    let mut state = table.state.lock().await;
                    self.write_presence(&id, &mut state, seat).await;
                }
                // Dropped from memory: nobody is connected to it here any more.
                None => {
                    if self
                        .store
                        .set_presence(&id, seat, &cluster.node, 0, now)
                        .await
                        .is_err()
                    {
                        self.presence_retry.lock().insert((id, seat));
                    }
                }
            }
        }
    }

    /// Forgets sightings too old to stop any hand-over.
    pub async fn forget_old_presence(&self) {
        let keep_ms = self.options.handover_after.as_millis() as i64 + 3_600_000;
        if let Err(e) = self.store.forget_presence(self.now_ms() - keep_ms).await {
            tracing::warn!("old presence not forgotten: {e:#}");
        }
    }

    /// Counts a viewer's connection on a seat (shown as "connected").
    pub async fn connect(&self, table: &Arc<Table>, seat: Option<usize>, delta: isize) {
        self.metrics.websockets.add(delta as i64);
        if let Some(seat) = seat {
            let mut state = table.state.lock().await;
            if let Some(s) = state.seats.get_mut(seat) {
                s.connections = s.connections.saturating_add_signed(delta);
            }
            self.seen_player(&table.id, &mut state, seat).await;
            table.changed();
        }
    }
}

/// Several nodes: how often at most a node writes that it saw a seat's player
/// (requests without a connection; a connection opening or closing is written at
/// once, and an open one is kept fresh by the heartbeat).
pub(super) fn presence_every_ms(options: &HubOptions) -> i64 {
    (options.handover_after.as_millis() as i64 / 4).clamp(0, 3_000)
}
