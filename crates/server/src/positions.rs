//! The positions of running rated games, which no solver of the server may answer
//! (#56): a player must not ask the analysis board for the best play of the game they
//! play rated, where hints are off (RT2).
//!
//! A position is kept as a key: the SHA-256 of its canonical form, so that the order
//! a request writes it in changes nothing.
//! - Rummikub: the table's tiles and one rack, each as a multiset (counts per tile
//!   kind). The table is not split into its sets (a player may regroup them) and the
//!   meld flag is left out; a rated table keeps one key per seat (every rack there is
//!   someone's).
//! - Rumis: the board (its scenario and the colour in every cell, the ruin included)
//!   and the colour to move, however the record reached it.
//!
//! The keys live in the database (`rumi_rated_positions`), written after each action
//! of a rated table and dropped when it ends, so that every node refuses them. What
//! this does not catch: a position changed on purpose (a tile left out of the rack),
//! which is another position and answered as such.

use rummikub::Tile;
use sha2::{Digest, Sha256};

use crate::games::TableGame;

/// The key of a Rummikub position: `table` and `rack` tiles, each as a multiset.
pub fn rummikub_key<'a>(table: impl IntoIterator<Item = &'a Tile>, rack: &[Tile]) -> String {
    let mut hash = Sha256::new();
    hash.update(b"rummikub\0");
    hash.update(counts(table));
    hash.update(counts(rack));
    hex(hash)
}

/// How many of each tile kind.
fn counts<'a>(tiles: impl IntoIterator<Item = &'a Tile>) -> [u8; rummikub::tile::KINDS] {
    let mut counts = [0u8; rummikub::tile::KINDS];
    for tile in tiles {
        counts[tile.index()] = counts[tile.index()].saturating_add(1);
    }
    counts
}

/// The key of a Rumis position: its board and the colour to move.
pub fn rumis_key(position: &rumis::Position) -> String {
    let board = position.board();
    let mut hash = Sha256::new();
    hash.update(b"rumis\0");
    hash.update(position.setup().scenario.key.as_bytes());
    hash.update([0, position.setup().players]);
    for index in 0..board.cell_count() {
        let colour = position.colour_at(board.cell(index as u16));
        hash.update([colour.map_or(u8::MAX, |c| c.0)]);
    }
    hash.update([position.to_move().map_or(u8::MAX, |c| c.0)]);
    hex(hash)
}

/// The keys of a game's current position: one per seat's rack (Rummikub), or the
/// board (Rumis); none once it is over.
pub fn keys_of(game: &TableGame) -> Vec<String> {
    if game.is_over() {
        return Vec::new();
    }
    match game {
        TableGame::Rummikub(rummikub) => {
            let round = rummikub.game().round();
            let table: Vec<Tile> = round
                .table()
                .iter()
                .flat_map(|set| set.tiles().iter().copied())
                .collect();
            let mut keys: Vec<String> = (0..round.players())
                .map(|seat| rummikub_key(&table, &round.rack(seat)))
                .collect();
            keys.sort();
            keys.dedup();
            keys
        }
        TableGame::Rumis(rumis) => vec![rumis_key(rumis.position())],
    }
}

fn hex(hash: Sha256) -> String {
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Writes one table's position keys off the table's lock, in the order of its
/// changes: each change notes its keys under the lock (cheap, no I/O), then a task
/// writes the newest keys noted so far; writes of one table never overlap, so an
/// older position never overwrites a newer one.
#[derive(Default)]
pub struct PositionWriter {
    /// Changes noted (a ticket each, counted under the table's lock) and the newest
    /// keys not yet written.
    noted: parking_lot::Mutex<(u64, Option<Vec<String>>)>,
    /// The last ticket whose keys are written (or given up on: logged).
    written: tokio::sync::watch::Sender<u64>,
    /// One write at a time.
    writing: tokio::sync::Mutex<()>,
}

impl PositionWriter {
    /// Notes the keys of the table's position now (called under the table's lock).
    fn note(&self, keys: Vec<String>) {
        let mut noted = self.noted.lock();
        noted.0 += 1;
        noted.1 = Some(keys);
    }

    /// Writes the newest keys noted, if no other write took them already.
    async fn write(&self, store: &crate::store::Store, table_id: &str) {
        let _one = self.writing.lock().await;
        let (ticket, keys) = {
            let mut noted = self.noted.lock();
            (noted.0, noted.1.take())
        };
        let Some(keys) = keys else { return };
        if let Err(e) = store.set_rated_positions(table_id, &keys).await {
            tracing::warn!("table {table_id}: its rated position is not kept: {e:#}");
        }
        self.written.send_if_modified(|written| {
            let newer = ticket > *written;
            if newer {
                *written = ticket;
            }
            newer
        });
    }

    /// Waits until every position noted so far is written: an action's answer comes
    /// after its position is refused (the lock is not held meanwhile).
    pub async fn settled(&self) {
        let target = self.noted.lock().0;
        let mut written = self.written.subscribe();
        // The sender lives as long as `self`.
        let _ = written.wait_for(|&w| w >= target).await;
    }
}

impl crate::hub::Hub {
    /// Keeps the current position of a rated table's game for the solvers to refuse
    /// (none once it is over): noted now, under the table's lock, and written by a
    /// task of its own, so that the database is not waited on under the lock. A
    /// failure is logged: the game goes on, and the next action writes the keys
    /// again. The task counts as a driver of the table, which is not dropped (and
    /// loaded again with a second writer) meanwhile.
    pub(crate) fn keep_rated_position(
        &self,
        table: &std::sync::Arc<crate::hub::Table>,
        state: &crate::hub::TableState,
    ) {
        if !(state.settings.rated && state.started_ms.is_some()) {
            return;
        }
        table.positions.note(keys_of(&state.game));
        let store = self.store.clone();
        let driving = crate::hub::DriverCount::new(table.clone());
        tokio::spawn(async move {
            let table = &driving.0;
            table.positions.write(&store, &table.id).await;
        });
    }
}
