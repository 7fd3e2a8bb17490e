//! The tables in memory: loading a table on its first request, finding it again,
//! and dropping idle ones when too many are loaded.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use crate::error::ApiError;

use super::replay::rebuild;
use super::{Hub, Table};
use crate::wire::ErrorCode;

impl Hub {
    /// Whether the table with this id is in memory now.
    pub fn is_loaded(&self, id: &str) -> bool {
        self.tables.lock().contains_key(id)
    }

    /// Whether a driver (a bot about to move, a near clock) holds the loaded table `id`
    /// in memory: such a table is not dropped when idle.
    pub fn is_held_by_a_driver(&self, id: &str) -> bool {
        let table = self.tables.lock().get(id).cloned();
        table.is_some_and(|t| t.drivers.load(Ordering::SeqCst) > 0)
    }

    /// Whether `table` is still this node's copy (not dropped or replaced meanwhile).
    pub(super) fn holds(&self, table: &Arc<Table>) -> bool {
        self.tables
            .lock()
            .get(&table.id)
            .is_some_and(|t| Arc::ptr_eq(t, table))
    }

    /// Tables in memory now.
    pub fn loaded_tables(&self) -> usize {
        self.tables.lock().len()
    }

    /// Rebuilds a table from the database (configuration, seed, every action),
    /// keeps it in memory and starts its drivers.
    async fn load(self: &Arc<Self>, id: &str) -> Result<Option<Arc<Table>>, ApiError> {
        let Some(stored) = self.store.load(id).await? else {
            return Ok(None);
        };
        let loaded_ms = self.now_ms();
        let mut table = rebuild(&stored, loaded_ms, &self.options).map_err(|e| {
            tracing::error!("{e:#}");
            ApiError::internal(format!("table {id} cannot be rebuilt"))
        })?;
        self.refresh_presence(id, table.state.get_mut()).await?;
        let state = table.state.get_mut();
        if state.game.is_over() {
            state.rematch = self.rematch_of(id, &state.salt).await?;
        }
        let table = Arc::new(table);
        let (table, fresh) = {
            let mut tables = self.tables.lock();
            let fresh = !tables.contains_key(id);
            let table = tables.entry(id.to_string()).or_insert(table).clone();
            if fresh && tables.len() > self.options.max_loaded_tables {
                let idle_ms = self.options.idle_after.as_millis() as i64;
                evict_idle(
                    &mut tables,
                    self.options.max_loaded_tables,
                    id,
                    idle_ms,
                    self.now_ms(),
                );
            }
            (table, fresh)
        };
        if fresh {
            self.schedule(table.clone());
        }
        Ok(Some(table))
    }

    /// A table by id, from memory or from the database.
    pub async fn table(self: &Arc<Self>, id: &str) -> Result<Arc<Table>, ApiError> {
        let unknown = || ApiError::not_found(ErrorCode::NoTable, "there is no such table");
        if !valid_table_id(id) {
            return Err(unknown());
        }
        let cached = self.tables.lock().get(id).cloned();
        let table = match cached {
            Some(table) => {
                // Another node may have moved it on without this one hearing of it.
                if self.cluster.is_some() {
                    self.catch_up(&table).await;
                }
                table
            }
            None => self.load(id).await?.ok_or_else(unknown)?,
        };
        table.touch();
        Ok(table)
    }

    pub(super) fn forget(&self, id: &str) {
        self.tables.lock().remove(id);
    }
}

/// Drops idle tables (no viewer, no driver, unused lately), least recently used
/// first, until at most `cap` are loaded; never `keep`.
pub(super) fn evict_idle(
    tables: &mut HashMap<String, Arc<Table>>,
    cap: usize,
    keep: &str,
    idle_ms: i64,
    now: i64,
) {
    let mut idle: Vec<(i64, String)> = tables
        .iter()
        .filter(|(id, t)| id.as_str() != keep && t.is_idle(now, idle_ms))
        .map(|(id, t)| (t.last_used_ms.load(Ordering::Relaxed), id.clone()))
        .collect();
    idle.sort();
    let excess = tables.len().saturating_sub(cap);
    for (_, id) in idle.into_iter().take(excess) {
        tables.remove(&id);
    }
}

/// Table ids are `t` and 12 hex digits; anything else is not looked up.
pub fn valid_table_id(id: &str) -> bool {
    id.len() == 13 && id.starts_with('t') && id[1..].bytes().all(|b| b.is_ascii_hexdigit())
}
