//! Several nodes on one database: news to the others, catching up with what they
//! stored, and the leases that say which node drives a table.

use std::sync::Arc;

use crate::games;

use super::{Hub, Table, TableState};
use crate::wire::GameAction;

impl Hub {
    /// Tells the other nodes that a table changed (no-op on a single node): a new
    /// action, or (`seats`) who sits where.
    pub(super) async fn announce(&self, table: &Table, version: u64, seats: bool) {
        if let Some(cluster) = &self.cluster {
            cluster.publish(&table.id, version, seats).await;
        }
    }

    /// News from another node: if this node holds the table and is behind, it
    /// catches up.
    pub async fn news(self: &Arc<Self>, id: &str, version: u64, seats: bool) {
        let loaded = self.tables.lock().get(id).cloned();
        if let Some(table) = loaded {
            if seats || table.state.lock().await.version < version {
                self.catch_up_with(&table, seats).await;
            }
        }
    }

    /// Brings a loaded table up to what the database says: actions other nodes
    /// stored, and seats they changed. Viewers are woken when anything changed, and
    /// the table's drivers are planned again.
    pub async fn catch_up(self: &Arc<Self>, table: &Arc<Table>) {
        self.catch_up_with(table, true).await
    }

    /// [`Hub::catch_up`]; the seats only when `seats` (news of an action leaves them).
    async fn catch_up_with(self: &Arc<Self>, table: &Arc<Table>, seats: bool) {
        let mut state = table.state.lock().await;
        let caught_up = if seats {
            self.catch_up_locked(table, &mut state).await
        } else {
            self.catch_up_actions(table, &mut state).await
        };
        match caught_up {
            Ok(true) => {
                table.changed();
                drop(state);
                self.schedule(table.clone());
            }
            Ok(false) => {}
            Err(e) => {
                tracing::warn!("table {} cannot catch up: {e:#}; it is reloaded", table.id);
                drop(state);
                self.forget(&table.id);
            }
        }
    }

    pub(super) async fn catch_up_locked(
        &self,
        table: &Table,
        state: &mut TableState,
    ) -> anyhow::Result<bool> {
        let mut changed = self.catch_up_actions(table, state).await?;
        let (seats, started_ms, cancelled_ms) = self.store.seats_and_start(&table.id).await?;
        if cancelled_ms != state.cancelled_ms {
            state.cancelled_ms = cancelled_ms;
            changed = true;
        }
        if started_ms != state.started_ms {
            state.started_ms = started_ms;
            if state.version == 0 {
                if let Some(start) = started_ms {
                    state.turn_started_ms = start;
                }
            }
            changed = true;
        }
        if state.game.is_over() && state.rematch.is_none() {
            state.rematch = self.rematch_of(&table.id, &state.salt).await?;
            changed |= state.rematch.is_some();
        }
        for stored in seats {
            if let Some(seat) = state.seats.get_mut(stored.seat) {
                if seat.stored != stored {
                    if seat.stored.bot != stored.bot {
                        state.seat_epoch += 1;
                    }
                    let seat = &mut state.seats[stored.seat];
                    seat.stored = stored;
                    changed = true;
                }
            }
        }
        Ok(changed)
    }

    /// The actions other nodes stored after this copy's version.
    async fn catch_up_actions(
        &self,
        table: &Table,
        state: &mut TableState,
    ) -> anyhow::Result<bool> {
        let actions = self.store.actions_since(&table.id, state.version).await?;
        let mut changed = false;
        for action in &actions {
            if action.version != state.version + 1 {
                anyhow::bail!(
                    "action {} follows version {}",
                    action.version,
                    state.version
                );
            }
            let logged: GameAction = serde_json::from_str(&action.action)?;
            games::replay_action(&mut state.game, action.actor, &logged)
                .map_err(|e| anyhow::anyhow!("action {} does not replay: {e}", action.version))?;
            state.version = action.version;
            state.turn_started_ms = action.at_ms;
            changed = true;
        }
        Ok(changed)
    }

    /// Catches up every loaded table (after a NATS reconnect).
    pub async fn catch_up_all(self: &Arc<Self>) {
        let tables: Vec<Arc<Table>> = self.tables.lock().values().cloned().collect();
        for table in tables {
            self.catch_up(&table).await;
        }
    }

    /// Catches up the tables someone watches here (a safety net for lost news).
    pub async fn catch_up_watched(self: &Arc<Self>) {
        let tables: Vec<Arc<Table>> = self
            .tables
            .lock()
            .values()
            .filter(|t| t.changes.receiver_count() > 0)
            .cloned()
            .collect();
        for table in tables {
            self.catch_up(&table).await;
            // And who is present elsewhere (a node that died sent no news of it).
            let mut state = table.state.lock().await;
            match self.refresh_presence(&table.id, &mut state).await {
                Ok(true) => table.changed(),
                Ok(false) => {}
                Err(e) => tracing::warn!("table {}: presence not read: {e:#}", table.id),
            }
        }
    }

    /// A table whose lease ran out (its node is gone): take the lease, bring the
    /// table up to date and run its bots and clock here.
    pub async fn take_over(self: &Arc<Self>, id: &str) {
        let Some(cluster) = &self.cluster else { return };
        let now = self.now_ms();
        let ttl = cluster.lease_ttl.as_millis() as i64;
        match self
            .store
            .acquire_lease(id, &cluster.node, now, now + ttl)
            .await
        {
            Ok((true, from)) => {
                if let Some(from) = from {
                    tracing::info!("table {id}: lease taken over from {from}");
                    self.metrics.lease_takeovers.inc();
                }
                let loaded = self.tables.lock().get(id).cloned();
                match loaded {
                    Some(table) => {
                        self.catch_up(&table).await;
                        self.schedule(table);
                    }
                    None => {
                        if let Err(e) = self.table(id).await {
                            tracing::warn!("table {id} cannot be taken over: {e}");
                        }
                    }
                }
            }
            Ok((false, _)) => {}
            Err(e) => tracing::warn!("table {id}: lease not taken: {e:#}"),
        }
    }

    /// Whether this node may drive the table now: always on a single node; with
    /// several, when it holds (or gets) the table's lease.
    pub(super) async fn may_drive(&self, table: &Table) -> bool {
        if self.is_draining() {
            return false;
        }
        let Some(cluster) = &self.cluster else {
            return true;
        };
        let now = self.now_ms();
        let ttl = cluster.lease_ttl.as_millis() as i64;
        match self
            .store
            .acquire_lease(&table.id, &cluster.node, now, now + ttl)
            .await
        {
            Ok((held, from)) => {
                if held && from.is_some() {
                    self.metrics.lease_takeovers.inc();
                }
                held
            }
            Err(e) => {
                tracing::warn!("table {}: lease not checked: {e:#}", table.id);
                false
            }
        }
    }
}
