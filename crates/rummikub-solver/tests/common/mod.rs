//! Shared by the solver tests: a round in which player 1 (index 0) faces a given table
//! with a given rack, the other tiles on player 2's rack, for the engine to judge turns.

use rummikub::round::RoundSetup;
use rummikub::tile::TileCounts;
use rummikub::{Round, RuleSet, Set, Tile};

/// `None` if table and rack hold more copies of a tile than the box.
pub fn round_for(rules: &RuleSet, table: &[Set], rack: &[Tile], melded: bool) -> Option<Round> {
    let mut rest = TileCounts::from_tiles(&Tile::full_set());
    for t in table.iter().flat_map(|s| s.tiles()).chain(rack) {
        if !rest.remove(*t) {
            return None;
        }
    }
    RoundSetup {
        rules: rules.clone(),
        racks: vec![rack.to_vec(), rest.tiles()],
        table: table.to_vec(),
        pool: Vec::new(),
        current: 0,
        melded: vec![melded, true],
    }
    .into_round()
    .ok()
}
