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

impl crate::hub::Hub {
    /// Keeps the current position of a rated table's game for the solvers to refuse
    /// (dropped once it is over). A failure is logged: the game goes on, and the next
    /// action writes the keys again. (The keys are taken now: the future holds no
    /// borrow of the table's state.)
    pub(crate) fn keep_rated_position(
        &self,
        table_id: &str,
        state: &crate::hub::TableState,
    ) -> impl std::future::Future<Output = ()> + Send + '_ {
        let keys =
            (state.settings.rated && state.started_ms.is_some()).then(|| keys_of(&state.game));
        let table_id = table_id.to_string();
        async move {
            let Some(keys) = keys else { return };
            if let Err(e) = self.store.set_rated_positions(&table_id, &keys).await {
                tracing::warn!("table {table_id}: its rated position is not kept: {e:#}");
            }
        }
    }
}
