//! One round: turns (K4–K7), the round end (K8) and its scores (K9).
//!
//! A turn is submitted as the player's whole new table. The engine checks it against
//! the table at the start of the turn and the player's rack, and either accepts it
//! whole or rejects it with an error that names what was wrong; a rejected action
//! changes nothing.

use std::collections::HashMap;

use rand_chacha::ChaCha8Rng;

use crate::deal::{self, pairs_in_rack, Deal, PlayerCountError, StartDraw, REDEAL_PAIRS};
use crate::rules::RuleSet;
use crate::set::{Set, SetProblem};
use crate::tile::{Tile, TileCounts};

/// Tiles drawn as the time-out penalty (K7).
pub const PENALTY_TILES: usize = 3;

/// What a player does on the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// End the turn with this whole new table (K4, K5).
    Play(Vec<Set>),
    /// Draw one tile from the pool and end the turn (K6).
    Draw,
    /// The turn time ran out (K7): the table stays as it was, three penalty tiles.
    TimeOut,
    /// Demand a new deal for holding three pairs, before the first turn (K2).
    ClaimRedeal,
}

/// A player and the action they took; the unit of a round record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    pub player: usize,
    pub action: Action,
}

/// What an accepted action did, for showing it to the players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Tiles went from the rack to the table; `initial_meld` holds the meld's value.
    Played {
        tiles: Vec<Tile>,
        initial_meld: Option<u32>,
    },
    /// One tile drawn, or none when the pool was empty (KD1).
    Drew(Option<Tile>),
    /// Penalty tiles drawn after a time-out (K7); fewer when the pool ran low (KD1).
    Penalty(Vec<Tile>),
    /// A new deal was made (K2).
    Redealt,
}

/// Why a round ended (K8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// A player played every tile ("Rummikub").
    Rummikub,
    /// The pool was empty and a full round of turns passed with no tile played.
    PoolExhausted,
}

/// The end of a round: who won and what everyone scores (K9).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundOutcome {
    pub reason: EndReason,
    /// Usually one player; several only if tied for the lowest rack (KD4).
    pub winners: Vec<usize>,
    /// What each player's remaining rack is worth (joker at the penalty value).
    pub rack_values: Vec<u32>,
    /// This round's score of each player.
    pub scores: Vec<i32>,
}

/// Why an action was rejected. The Display text is the message for the player.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TurnError {
    #[error("the round is over")]
    RoundOver,
    #[error("there is no player {0} at this table")]
    NoSuchPlayer(usize),
    #[error("it is player {current}'s turn, not player {player}'s")]
    NotYourTurn { player: usize, current: usize },
    #[error("set {index} {set} {problem}")]
    InvalidSet {
        index: usize,
        set: Set,
        problem: SetProblem,
    },
    #[error("the table would hold a third {0}; there are only two of each tile")]
    ThirdCopy(Tile),
    #[error("tile {0} is neither on the table nor in your rack")]
    NotAvailable(Tile),
    #[error("tile {0} left the table")]
    LeftTable(Tile),
    #[error("play at least one tile from your rack, or draw")]
    NoTilePlayed,
    #[error("initial meld is worth {value}, needs {needed}")]
    InitialMeldTooLow { value: u32, needed: u32 },
    #[error("the initial meld must not touch the table, but set {0} was changed")]
    InitialMeldTouchedTable(Set),
    #[error("set {0} holds a joker and is frozen under these rules; only its joker may be swapped for the tile it stands for from your rack")]
    FrozenJokerSet(Set),
    #[error("these rules have no turn time limit")]
    NoTimeLimit,
    #[error("these rules have no new deal for three pairs")]
    RedealNotAllowed,
    #[error("a new deal may only be demanded before the first turn")]
    RedealTooLate,
    #[error("player {player} holds {pairs} pairs; a new deal needs three")]
    NotThreePairs { player: usize, pairs: usize },
}

impl TurnError {
    /// Player numbers in messages are 1-based; the engine counts from 0.
    fn not_your_turn(player: usize, current: usize) -> TurnError {
        TurnError::NotYourTurn {
            player: player + 1,
            current: current + 1,
        }
    }
}

/// A position given directly instead of dealt from a seed: for tests, puzzles and
/// analysis. [`RoundSetup::into_round`] checks it.
#[derive(Clone, Debug)]
pub struct RoundSetup {
    pub rules: RuleSet,
    pub racks: Vec<Vec<Tile>>,
    pub table: Vec<Set>,
    /// The face-down pool; the next tile drawn is the last one.
    pub pool: Vec<Tile>,
    pub current: usize,
    /// Which players have made their initial meld.
    pub melded: Vec<bool>,
}

/// A position that cannot be played from.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error(transparent)]
    PlayerCount(#[from] PlayerCountError),
    #[error("the position holds {count} of tile {tile}, the box {expected}")]
    WrongTileCount {
        tile: Tile,
        count: usize,
        expected: u8,
    },
    #[error("table set {index} {set} {problem}")]
    InvalidSet {
        index: usize,
        set: Set,
        problem: SetProblem,
    },
    #[error("player {0} is to move, but there are only {1} players")]
    NoSuchCurrentPlayer(usize, usize),
    #[error("the melded flags name {0} players, the racks {1}")]
    MeldedLength(usize, usize),
}

impl RoundSetup {
    /// Checks that all 106 tiles are present exactly once each (K1) and the table is
    /// valid, then makes a round of it.
    pub fn into_round(self) -> Result<Round, SetupError> {
        let players = self.racks.len();
        if !(deal::MIN_PLAYERS..=deal::MAX_PLAYERS).contains(&players) {
            return Err(PlayerCountError(players).into());
        }
        if self.current >= players {
            return Err(SetupError::NoSuchCurrentPlayer(self.current + 1, players));
        }
        if self.melded.len() != players {
            return Err(SetupError::MeldedLength(self.melded.len(), players));
        }
        let mut all = TileCounts::from_tiles(self.racks.iter().flatten());
        for tile in self.table.iter().flat_map(|s| s.tiles()).chain(&self.pool) {
            all.add(*tile);
        }
        for tile in Tile::kinds() {
            let count = usize::from(all.count(tile));
            if count != usize::from(tile.copies_in_box()) {
                return Err(SetupError::WrongTileCount {
                    tile,
                    count,
                    expected: tile.copies_in_box(),
                });
            }
        }
        for (i, set) in self.table.iter().enumerate() {
            set.check(&self.rules)
                .map_err(|problem| SetupError::InvalidSet {
                    index: i + 1,
                    set: set.clone(),
                    problem,
                })?;
        }
        let table = self.table.iter().map(|s| s.arranged(&self.rules)).collect();
        Ok(Round {
            racks: self.racks.iter().map(TileCounts::from_tiles).collect(),
            pool: self.pool,
            table,
            current: self.current,
            start_player: self.current,
            start_draws: Vec::new(),
            melded: self.melded,
            rules: self.rules,
            seed: None,
            rng: deal::rng_from_seed(0),
            history: Vec::new(),
            idle_turns_on_empty_pool: 0,
            turns_taken: 0,
            outcome: None,
        })
    }
}

/// What a valid play would do, found without changing the round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayCheck {
    /// Tiles that go from the rack to the table.
    pub played: Vec<Tile>,
    /// The initial meld's value, if this play is the player's initial meld.
    pub initial_meld: Option<u32>,
}

/// The full state of one round. Hidden information lives here; players see only
/// [`crate::view::PlayerView`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    rules: RuleSet,
    seed: Option<u64>,
    /// Kept for a redeal (K2): it continues the seeded stream, so records replay.
    rng: ChaCha8Rng,
    start_draws: Vec<Vec<StartDraw>>,
    start_player: usize,
    racks: Vec<TileCounts>,
    pool: Vec<Tile>,
    table: Vec<Set>,
    current: usize,
    melded: Vec<bool>,
    history: Vec<Move>,
    /// Turns in a row, taken while the pool was empty, in which no tile was played (K8).
    idle_turns_on_empty_pool: usize,
    /// Turns taken (plays, draws, time-outs); a redeal is possible only before the first.
    turns_taken: usize,
    outcome: Option<RoundOutcome>,
}

impl Round {
    /// Deals a new round from a seed (K2).
    pub fn new(rules: RuleSet, players: usize, seed: u64) -> Result<Round, PlayerCountError> {
        let mut rng = deal::rng_from_seed(seed);
        let dealt = deal::deal(players, &mut rng)?;
        let mut round = Round {
            rules,
            seed: Some(seed),
            rng,
            start_draws: Vec::new(),
            start_player: 0,
            racks: Vec::new(),
            pool: Vec::new(),
            table: Vec::new(),
            current: 0,
            melded: vec![false; players],
            history: Vec::new(),
            idle_turns_on_empty_pool: 0,
            turns_taken: 0,
            outcome: None,
        };
        round.take_deal(dealt);
        Ok(round)
    }

    fn take_deal(&mut self, dealt: Deal) {
        self.start_draws = dealt.start_draws;
        self.start_player = dealt.start_player;
        self.current = dealt.start_player;
        self.racks = dealt.racks.iter().map(TileCounts::from_tiles).collect();
        self.pool = dealt.pool;
    }

    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// The seed the round was dealt from; `None` for a round made from a setup.
    pub fn seed(&self) -> Option<u64> {
        self.seed
    }

    pub fn players(&self) -> usize {
        self.racks.len()
    }

    /// Whose turn it is (0-based).
    pub fn current_player(&self) -> usize {
        self.current
    }

    pub fn start_player(&self) -> usize {
        self.start_player
    }

    /// The start-player draw of the latest deal (public: everyone saw it).
    pub fn start_draws(&self) -> &[Vec<StartDraw>] {
        &self.start_draws
    }

    /// The table as it stands at the start of the current turn.
    pub fn table(&self) -> &[Set] {
        &self.table
    }

    /// A player's rack, sorted. Hidden information: only for that player's view.
    pub fn rack(&self, player: usize) -> Vec<Tile> {
        self.racks
            .get(player)
            .map(|r| r.tiles())
            .unwrap_or_default()
    }

    pub fn rack_len(&self, player: usize) -> usize {
        self.racks.get(player).map_or(0, |r| r.len())
    }

    pub fn pool_len(&self) -> usize {
        self.pool.len()
    }

    pub fn has_melded(&self, player: usize) -> bool {
        self.melded.get(player).copied().unwrap_or(false)
    }

    pub fn history(&self) -> &[Move] {
        &self.history
    }

    pub fn outcome(&self) -> Option<&RoundOutcome> {
        self.outcome.as_ref()
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// Every tile in the round: racks, pool and table (for conservation checks).
    pub fn all_tiles(&self) -> TileCounts {
        let mut all = TileCounts::new();
        for rack in &self.racks {
            for tile in rack.tiles() {
                all.add(tile);
            }
        }
        for tile in self
            .pool
            .iter()
            .chain(self.table.iter().flat_map(|s| s.tiles()))
        {
            all.add(*tile);
        }
        all
    }

    /// True when `player` may demand a new deal now (K2).
    pub fn can_claim_redeal(&self, player: usize) -> bool {
        self.check_redeal(player).is_ok()
    }

    /// Applies an action if it is legal; otherwise returns why not and changes nothing.
    pub fn apply(&mut self, player: usize, action: Action) -> Result<Event, TurnError> {
        if self.outcome.is_some() {
            return Err(TurnError::RoundOver);
        }
        if player >= self.players() {
            return Err(TurnError::NoSuchPlayer(player + 1));
        }
        let event = match &action {
            Action::ClaimRedeal => self.redeal(player)?,
            _ if player != self.current => {
                return Err(TurnError::not_your_turn(player, self.current))
            }
            Action::Play(sets) => self.play(player, sets)?,
            Action::Draw => self.draw(),
            Action::TimeOut => self.time_out()?,
        };
        self.history.push(Move { player, action });
        Ok(event)
    }

    /// Checks a play (K4, K5) without applying it.
    pub fn check_play(&self, player: usize, new_table: &[Set]) -> Result<PlayCheck, TurnError> {
        if self.outcome.is_some() {
            return Err(TurnError::RoundOver);
        }
        if player >= self.players() {
            return Err(TurnError::NoSuchPlayer(player + 1));
        }
        if player != self.current {
            return Err(TurnError::not_your_turn(player, self.current));
        }
        let played = self.check_conservation(player, new_table)?;
        for (i, set) in new_table.iter().enumerate() {
            set.check(&self.rules)
                .map_err(|problem| TurnError::InvalidSet {
                    index: i + 1,
                    set: set.clone(),
                    problem,
                })?;
        }
        // K5: at least one rack tile was played.
        if played.is_empty() {
            return Err(TurnError::NoTilePlayed);
        }
        if self.rules.frozen_joker_sets {
            self.check_frozen_joker_sets(new_table, &played)?;
        }
        let initial_meld = if self.melded[player] {
            None
        } else {
            Some(self.check_initial_meld(new_table)?)
        };
        Ok(PlayCheck {
            played: played.tiles(),
            initial_meld,
        })
    }

    /// Tile conservation (K5): every tile of the new table comes from the old table or
    /// the rack, no table tile disappears, and no tile appears a third time. Returns the
    /// tiles played from the rack.
    fn check_conservation(
        &self,
        player: usize,
        new_table: &[Set],
    ) -> Result<TileCounts, TurnError> {
        let new = TileCounts::from_tiles(new_table.iter().flat_map(|s| s.tiles()));
        let old = TileCounts::from_tiles(self.table.iter().flat_map(|s| s.tiles()));
        let rack = &self.racks[player];
        for tile in Tile::kinds() {
            if new.count(tile) > tile.copies_in_box() {
                return Err(TurnError::ThirdCopy(tile));
            }
        }
        for tile in Tile::kinds() {
            if new.count(tile) < old.count(tile) {
                return Err(TurnError::LeftTable(tile));
            }
        }
        let mut played = TileCounts::new();
        for tile in Tile::kinds() {
            let from_rack = new.count(tile) - old.count(tile);
            if from_rack > rack.count(tile) {
                return Err(TurnError::NotAvailable(tile));
            }
            for _ in 0..from_rack {
                played.add(tile);
            }
        }
        Ok(played)
    }

    /// K4: the initial meld is worth at least the minimum and (current rules) leaves the
    /// table untouched. KD3: its value is what the play adds to the table's value, each
    /// set at its highest reading; with the table untouched that is the sum of the new
    /// sets, every joker counting as the tile it stands for.
    fn check_initial_meld(&self, new_table: &[Set]) -> Result<u32, TurnError> {
        if !self.rules.initial_meld_may_use_table {
            let mut remaining = set_multiset(new_table);
            for set in &self.table {
                let key = set.sorted_tiles();
                match remaining.get_mut(&key) {
                    Some(n) if *n > 0 => *n -= 1,
                    _ => return Err(TurnError::InitialMeldTouchedTable(set.clone())),
                }
            }
        }
        let value = table_value(new_table, &self.rules)
            .saturating_sub(table_value(&self.table, &self.rules));
        if value < self.rules.initial_meld_minimum {
            return Err(TurnError::InitialMeldTooLow {
                value,
                needed: self.rules.initial_meld_minimum,
            });
        }
        Ok(value)
    }

    /// K5 (old rules): a table set holding a joker must reappear unchanged, or with its
    /// joker swapped for a tile from the player's rack that the joker stood for (KD7:
    /// the swapped set must be valid; the freed joker must stay on the table, which
    /// conservation already demands).
    fn check_frozen_joker_sets(
        &self,
        new_table: &[Set],
        played: &TileCounts,
    ) -> Result<(), TurnError> {
        let mut remaining = set_multiset(new_table);
        let mut unmatched = Vec::new();
        for set in self.table.iter().filter(|s| s.jokers() > 0) {
            let key = set.sorted_tiles();
            match remaining.get_mut(&key) {
                Some(n) if *n > 0 => *n -= 1,
                _ => unmatched.push(set),
            }
        }
        let mut swap_tiles = played.clone();
        for set in unmatched {
            let key = set.sorted_tiles();
            let swap = remaining.iter_mut().find_map(|(candidate, n)| {
                if *n == 0 {
                    return None;
                }
                let tile = swapped_in_tile(&key, candidate)?;
                (swap_tiles.count(tile) > 0).then_some((tile, n))
            });
            match swap {
                Some((tile, n)) => {
                    *n -= 1;
                    swap_tiles.remove(tile);
                }
                None => return Err(TurnError::FrozenJokerSet(set.clone())),
            }
        }
        Ok(())
    }

    fn play(&mut self, player: usize, sets: &[Set]) -> Result<Event, TurnError> {
        let check = self.check_play(player, sets)?;
        for tile in &check.played {
            self.racks[player].remove(*tile);
        }
        self.table = sets.iter().map(|s| s.arranged(&self.rules)).collect();
        self.melded[player] = true;
        self.idle_turns_on_empty_pool = 0;
        self.turns_taken += 1;
        if self.racks[player].is_empty() {
            // K8: the player has played every tile.
            self.finish(EndReason::Rummikub, vec![player]);
        } else {
            self.advance();
        }
        Ok(Event::Played {
            tiles: check.played,
            initial_meld: check.initial_meld,
        })
    }

    /// K6: draw one tile, and the turn ends. KD1: with the pool empty the turn passes.
    fn draw(&mut self) -> Event {
        let pool_was_empty = self.pool.is_empty();
        let tile = self.pool.pop();
        if let Some(tile) = tile {
            self.racks[self.current].add(tile);
        }
        self.end_turn_without_play(pool_was_empty);
        Event::Drew(tile)
    }

    /// K7: the table is back as at the start of the turn (a turn in progress is never
    /// stored), and the player draws three penalty tiles, or what is left (KD1).
    fn time_out(&mut self) -> Result<Event, TurnError> {
        if self.rules.turn_time_seconds.is_none() {
            return Err(TurnError::NoTimeLimit);
        }
        let pool_was_empty = self.pool.is_empty();
        let mut tiles = Vec::new();
        while let Some(tile) = (tiles.len() < PENALTY_TILES)
            .then(|| self.pool.pop())
            .flatten()
        {
            self.racks[self.current].add(tile);
            tiles.push(tile);
        }
        self.end_turn_without_play(pool_was_empty);
        Ok(Event::Penalty(tiles))
    }

    /// K8: once the pool is empty, a full round of turns with no tile played ends the
    /// round; the lowest rack wins.
    fn end_turn_without_play(&mut self, pool_was_empty: bool) {
        self.turns_taken += 1;
        if pool_was_empty {
            self.idle_turns_on_empty_pool += 1;
        }
        if self.idle_turns_on_empty_pool >= self.players() {
            let values = self.rack_values();
            let lowest = values.iter().copied().min().unwrap_or(0);
            let winners = (0..self.players())
                .filter(|&p| values[p] == lowest)
                .collect();
            self.finish(EndReason::PoolExhausted, winners);
        } else {
            self.advance();
        }
    }

    fn check_redeal(&self, player: usize) -> Result<(), TurnError> {
        if !self.rules.redeal_on_three_pairs {
            return Err(TurnError::RedealNotAllowed);
        }
        if self.turns_taken > 0 {
            return Err(TurnError::RedealTooLate);
        }
        let pairs = pairs_in_rack(&self.racks[player].tiles());
        if pairs < REDEAL_PAIRS {
            return Err(TurnError::NotThreePairs {
                player: player + 1,
                pairs,
            });
        }
        Ok(())
    }

    /// K2: a player dealt three pairs shows them and the preparation starts over,
    /// start-player draw included (KD5).
    fn redeal(&mut self, player: usize) -> Result<Event, TurnError> {
        self.check_redeal(player)?;
        let players = self.players();
        let dealt =
            deal::deal(players, &mut self.rng).map_err(|_| TurnError::NoSuchPlayer(players))?;
        self.take_deal(dealt);
        Ok(Event::Redealt)
    }

    fn advance(&mut self) {
        self.current = (self.current + 1) % self.players();
    }

    /// What each rack is worth at scoring (K9: a joker counts the joker penalty).
    pub fn rack_values(&self) -> Vec<u32> {
        self.racks
            .iter()
            .map(|rack| rack_value(&rack.tiles(), &self.rules))
            .collect()
    }

    /// K9: every other player scores minus their rack; the winner scores plus the sum
    /// of those. KD4: winners tied for the lowest rack share that sum (rounded down) and,
    /// like a sole winner, lose nothing for their own rack.
    fn finish(&mut self, reason: EndReason, winners: Vec<usize>) {
        let rack_values = self.rack_values();
        let mut scores = vec![0i32; self.players()];
        let mut pot = 0i32;
        for (player, &value) in rack_values.iter().enumerate() {
            if !winners.contains(&player) {
                scores[player] = -(value as i32);
                pot += value as i32;
            }
        }
        let share = pot / winners.len().max(1) as i32;
        for &winner in &winners {
            scores[winner] = share;
        }
        self.outcome = Some(RoundOutcome {
            reason,
            winners,
            rack_values,
            scores,
        });
    }
}

/// Sum of a rack at scoring (K9).
pub fn rack_value(tiles: &[Tile], rules: &RuleSet) -> u32 {
    tiles
        .iter()
        .map(|t| t.number().map_or(rules.joker_penalty, u32::from))
        .sum()
}

/// The value of a table: each set at its highest reading (KD3); invalid sets count 0.
pub fn table_value(table: &[Set], rules: &RuleSet) -> u32 {
    table
        .iter()
        .filter_map(|s| s.check(rules).ok())
        .map(|r| r.value)
        .sum()
}

/// Sets as order-free keys with their counts.
fn set_multiset(table: &[Set]) -> HashMap<Vec<Tile>, usize> {
    let mut sets = HashMap::new();
    for set in table {
        *sets.entry(set.sorted_tiles()).or_insert(0) += 1;
    }
    sets
}

/// If `new` is `old` with one joker replaced by one numbered tile, that tile.
fn swapped_in_tile(old: &[Tile], new: &[Tile]) -> Option<Tile> {
    if old.len() != new.len() {
        return None;
    }
    let mut rest = TileCounts::from_tiles(old);
    if !rest.remove(Tile::JOKER) {
        return None;
    }
    let mut extra = Vec::new();
    for &tile in new {
        if !rest.remove(tile) {
            extra.push(tile);
        }
    }
    match extra.as_slice() {
        [tile] if !tile.is_joker() && rest.is_empty() => Some(*tile),
        _ => None,
    }
}
