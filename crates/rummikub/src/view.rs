//! Hidden information: what one player may know. A screen is drawn from a view alone;
//! the full [`Round`] (other racks, pool order, the generator) never leaves the engine.

use crate::round::{Round, RoundOutcome};
use crate::rules::RuleSet;
use crate::set::Set;
use crate::tile::Tile;

/// One player's view of a round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerView {
    pub rules: RuleSet,
    /// Whose view this is (0-based).
    pub player: usize,
    /// The viewer's own rack, sorted.
    pub rack: Vec<Tile>,
    /// Tiles on every rack, by seat (sizes are public).
    pub rack_sizes: Vec<usize>,
    /// Which players have made their initial meld.
    pub melded: Vec<bool>,
    pub pool_size: usize,
    pub table: Vec<Set>,
    pub current_player: usize,
    /// Whether the viewer may demand a new deal now (K2).
    pub can_claim_redeal: bool,
    /// Set when the round is over: then every rack's value is public.
    pub outcome: Option<RoundOutcome>,
    /// Totals over the finished rounds of the game, by seat (empty for a lone round).
    pub totals: Vec<i32>,
}

impl Round {
    /// What `player` may see. Out-of-range players get an empty rack.
    pub fn view(&self, player: usize) -> PlayerView {
        PlayerView {
            rules: self.rules().clone(),
            player,
            rack: self.rack(player),
            rack_sizes: (0..self.players()).map(|p| self.rack_len(p)).collect(),
            melded: (0..self.players()).map(|p| self.has_melded(p)).collect(),
            pool_size: self.pool_len(),
            table: self.table().to_vec(),
            current_player: self.current_player(),
            can_claim_redeal: player < self.players() && self.can_claim_redeal(player),
            outcome: self.outcome().cloned(),
            totals: Vec::new(),
        }
    }
}
